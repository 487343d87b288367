"""Python agents at the table: a plain Python callable or class (`mybot.py:Agent`, not
`@njit`) plays in `trace`, `simulate`, `compare`, `tournament` and `play`.

Contract. A spec FILE.py:NAME (or package.module:NAME) whose NAME is not a numba
dispatcher is a Python agent. NAME is either

  * a class: one instance per seat and run (per worker process), made as
    ``NAME(**params)``, plus ``rules=`` (a `crates_sim.Rules`) when its ``__init__``
    takes `rules`; it decides with ``instance.act(observation, action_mask, seat, game)``;
  * a function: called as ``NAME(observation, action_mask, seat, game)``.

`observation` (float32) and `action_mask` (int8[60]) are exactly what `crates_sim.env`
gives an agent (docs/env.md); the answer is an action number 0..59 (env.ACTIONS) marked in
the mask. An agent whose `act` (or function) also takes `legal` gets the legal actions in
the engine's order (the order in which the built-ins break ties: a re-implementation of
one needs it to play the same games). Parameters declared with `crates_sim.view.parameters`
are set by name as for `@njit` strategies (`mybot.py:Agent:temperature=0.5`).

How: the seat is an outside seat of `crates_sim.step.Table` (the step engine): at each of
its decisions the engine pauses, Python fills the observation (`observe_nb`), calls the
agent, and the engine replays the paused turn with the answer. Every other seat's decision
is the engine's, so an agent that chooses as an @njit strategy does plays the same games.
The cost is per decision (docs/strategies.md#python-agents): a run that seats Python agents
says so, with the slowdown measured on one game (`note_slowdown`).

Errors: an agent that raises, returns a non-integer or an illegal action stops the run with
one CratesError naming the agent, the seat, the game and the decision.
"""

from __future__ import annotations

import inspect
import multiprocessing
import numbers
import sys
import time
from time import perf_counter

import numpy as np

from .errors import CratesError

_KIND: dict[str, bool] = {}


def is_python_spec(spec: str) -> bool:
    """Whether `spec` names a Python agent (a user's callable that is not @njit)."""
    spec = spec.strip()
    if spec in _KIND:
        return _KIND[spec]
    from numba.core.registry import CPUDispatcher

    from .strategy import parse_spec
    from .userstrat import load_function

    name, _ = parse_spec(spec)
    found = False
    if isinstance(name, tuple):
        found = not isinstance(load_function(*name, agents=True)[2], CPUDispatcher)
    _KIND[spec] = found
    return found


def python_specs(specs) -> list[str]:
    """The distinct Python agents among `specs`, in order."""
    return list(dict.fromkeys(s for s in specs if s is not None and is_python_spec(s)))


def _takes(fn, name: str) -> bool:
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):  # pragma: no cover - a builtin without a signature
        return False
    return name in params or any(p.kind == p.VAR_KEYWORD for p in params.values())


class PythonAgent:
    """One seat's Python agent: the user's object and how to ask it (see the module doc)."""

    def __init__(self, spec: str, rules, seat: int):
        from .strategy import parse_spec
        from .userstrat import load_function

        self.spec = spec
        self.seat = seat
        name, values = parse_spec(spec)
        obj = load_function(*name, agents=True)[2]
        if inspect.isclass(obj):
            kwargs = dict(values)
            if _takes(obj, "rules"):
                kwargs["rules"] = rules
            try:
                self.obj = obj(**kwargs)
            except Exception as exc:
                raise CratesError(f"Python agent {spec} (seat {seat}) failed to start: "
                                  f"{type(exc).__name__}: {exc}") from None
            act = getattr(self.obj, "act", None)
            if not callable(act):
                raise CratesError(f"Python agent {spec}: the class has no act(observation, "
                                  f"action_mask, seat, game) method")
            self.act = act
        else:
            self.obj = obj
            self.act = obj if not values else (lambda *a, **k: obj(*a, **values, **k))
        self.legal = _takes(self.act, "legal")
        self.n_obs = None
        self.decisions = 0  # in this game
        self.seconds = 0.0  # in the agent's own code, all games

    def decide(self, table) -> int:
        """The agent's answer (an engine option) to the table's paused decision."""
        nb, ACTIONS, N_ACTIONS, to_action, to_option, agent_observation, obs_size = _engine()
        G = table._G
        if self.n_obs is None:
            self.n_obs = obs_size(table.rules.players)
        vec = np.zeros(self.n_obs, dtype=np.float32)
        mask = np.zeros(N_ACTIONS, dtype=np.int8)
        seat = agent_observation(G, vec, mask)
        phase = int(G[nb.S_PAUSE_PHASE])
        self.decisions += 1
        if self.legal:
            at = nb.TMP0 + nb.TMP_PAUSE_OPTS
            kwargs = {"legal": [to_action(phase, o) for o in G[at:at + int(G[nb.S_PAUSE_N])].tolist()]}
        else:
            kwargs = {}
        t0 = perf_counter()
        try:
            action = self.act(vec, mask, seat, table.game, **kwargs)
        except Exception as exc:
            raise CratesError(f"{self._where(table, seat)}: it raised {type(exc).__name__}: {exc}") from None
        finally:
            self.seconds += perf_counter() - t0
        if type(action) is not int:
            action = self._integer(action, table, seat, N_ACTIONS)
        if not (0 <= action < N_ACTIONS and mask[action]):
            shown = ACTIONS[action] if 0 <= action < N_ACTIONS else "out of range"
            legal = ", ".join(f"{a} {ACTIONS[a]}" for a in np.flatnonzero(mask))
            raise CratesError(f"{self._where(table, seat)}: it returned action {action} ({shown}), "
                              f"which is not legal now; legal: {legal}")
        return to_option(phase, action)

    def _where(self, table, seat) -> str:
        return (f"Python agent {self.spec} (seat {seat}), its decision {self.decisions} of "
                f"game {table.game} (seed {table.seed}, hand {table.hand})")

    def _integer(self, action, table, seat, n_actions) -> int:
        """`action` as an int: a numpy integer, a 0-d integer array or tensor; else an error."""
        if isinstance(action, numbers.Integral) and not isinstance(action, (bool, np.bool_)):
            return int(action)
        if not isinstance(action, (bool, np.bool_, float, str, bytes)):
            try:
                return int(action.__index__())
            except (AttributeError, TypeError, ValueError, RuntimeError):
                pass
        raise CratesError(f"{self._where(table, seat)}: it returned {action!r} "
                          f"({type(action).__name__}); an action is an integer 0..{n_actions - 1}")


_ENGINE = []


def _engine():
    """What `decide` uses, imported once (the environment module imports PettingZoo)."""
    if not _ENGINE:
        from . import engine_nb as nb
        from .env import ACTIONS, N_ACTIONS, to_action, to_option
        from .observe_nb import agent_observation, obs_size

        _ENGINE.extend((nb, ACTIONS, N_ACTIONS, to_action, to_option, agent_observation, obs_size))
    return _ENGINE


def seat_agents(rules, seats) -> dict:
    """{seat: PythonAgent} for the seats of `seats` (specs or None) that hold Python agents."""
    return {q: PythonAgent(s, rules, q) for q, s in enumerate(seats)
            if s is not None and is_python_spec(s)}


# ---------------------------------------------------------------- runs of games
def play_tables(rules, specs, seed, game_start, n_games, want_rows, log=None):
    """`engine._call_kernel` for a run that seats Python agents: the games one by one on
    the step engine, returned as the kernel returns them (games_out, win_out, hand rows,
    stats); with `log`, one game's event log written into it."""
    from . import engine_nb as nb
    from .engine import new_game_rows
    from .step import Table

    n = rules.players
    games_out = new_game_rows(n_games * n)
    win_out = np.zeros(n_games * n, dtype=np.float64)
    stats = np.zeros(nb.N_STATS, dtype=np.int64)
    parts = []
    agents = None
    for i in range(n_games):
        t = Table(rules, list(specs), seed, game_start + i, record=log is not None,
                  keep_rows=want_rows, agents=agents)
        agents = t.agents  # the same instances play on (they may learn across games)
        for col, mine in zip(games_out, t._games, strict=True):
            col[i * n:(i + 1) * n] = mine
        win_out[i * n:(i + 1) * n] = t._wins
        stats += t._stats
        if want_rows:
            parts.extend(t.hand_rows)
        if log is not None:
            G = t._G
            words = G[nb.LOG0:nb.LOG0 + int(G[nb.S_LOG_POS])]
            if len(words) > len(log):
                stats[nb.T_LOG_OVERFLOW] = 1
            else:
                log[:len(words)] = words
                stats[nb.T_LOG_WORDS] = len(words)
    hand_rows = None
    if want_rows:
        from .engine import new_hand_rows

        hand_rows = (tuple(np.concatenate(c) for c in zip(*parts, strict=True)) if parts
                     else new_hand_rows(0))
    return games_out, win_out, hand_rows, stats


_NOTED: set = set()


def note_slowdown(rules, specs, echo=None, again: bool = False) -> dict | None:
    """Tell the user (stderr, in the main process only; once per process and seating
    unless `again`: a run's parent says it once per run) that the run seats Python agents
    and how much slower it is: game 1 of seed 0 played with the agents and with `greedy`
    in their seats, timed. Returns the figures."""
    agents = python_specs(specs)
    key = (rules.preset_name, rules.players, tuple(specs))
    if not agents or (key in _NOTED and not again) or multiprocessing.parent_process() is not None:
        return None
    _NOTED.add(key)
    figures = measure(rules, list(specs))
    one = len(agents) == 1
    text = (f"note: {', '.join(agents)} {'is a Python agent' if one else 'are Python agents'}: "
            f"{'it plays' if one else 'they play'} through the step engine, "
            f"{figures['us_per_decision']:.0f} µs per decision ({figures['agent_us']:.0f} µs of it in "
            f"the agent's own code); measured on one game, {figures['slowdown']:.0f}x slower than "
            f"with greedy in those seats ({figures['ms_per_game']:.1f} ms against "
            f"{figures['njit_ms_per_game']:.2f} ms a game)")
    (echo or (lambda s: print(s, file=sys.stderr, flush=True)))(text)
    return figures


def measure(rules, specs, games: int = 1, seed: int = 0) -> dict:
    """Cost of the Python agents among `specs`: games [1, 1 + games) of `seed` timed with
    them (after game 0, untimed, has loaded everything), and with greedy in their seats
    (the @njit engine). Figures per decision and per game."""
    from .engine import run_games
    from .step import Table

    plain = ["greedy" if is_python_spec(s) else s for s in specs]
    run_games(rules, plain, seed, 0, 1, detail="games")
    agents = Table(rules, list(specs), seed, 0).agents
    for a in agents.values():
        a.seconds = 0.0
    decisions = 0
    t0 = time.perf_counter()
    for g in range(1, 1 + games):
        Table(rules, list(specs), seed, g, agents=agents)
        decisions += sum(a.decisions for a in agents.values())
    wall = time.perf_counter() - t0
    agent_s = sum(a.seconds for a in agents.values())
    many = max(200, games)  # one engine call: its own start-up spread over many games
    t0 = time.perf_counter()
    run_games(rules, plain, seed, 1, many, detail="games")
    njit = (time.perf_counter() - t0) / many * games
    return {"games": games, "decisions": decisions, "ms_per_game": 1e3 * wall / games,
            "njit_ms_per_game": 1e3 * njit / games,
            "us_per_decision": 1e6 * wall / max(1, decisions),
            "agent_us": 1e6 * agent_s / max(1, decisions),
            "slowdown": wall / max(njit, 1e-9)}


__all__ = ["PythonAgent", "is_python_spec", "python_specs", "seat_agents", "play_tables",
           "note_slowdown", "measure"]

