"""Python agents at the table: a plain Python callable or class (`mybot.py:Agent`, not
`@njit`) plays in `trace`, `simulate`, `compare`, `tournament` and `play`.

Contract. A spec FILE.py:NAME (or package.module:NAME) whose NAME is not a numba
dispatcher is a Python agent. NAME is either

  * a class: one instance per seat and run (per worker process), made as
    ``NAME(**params)``, plus ``rules=`` (a `crates_sim.Rules`) when its ``__init__``
    takes `rules`; it decides with ``instance.act(observation, action_mask, seat, game)``;
  * a function: called as ``NAME(observation, action_mask, seat, game)``.

`observation` (float32) and `action_mask` (int8[60]) are exactly what `crates_sim.play.env`
gives an agent (docs/env.md); the answer is an action number 0..59 (env.ACTIONS) marked in
the mask. An agent whose `act` (or function) also takes `legal` gets the legal actions in
the engine's order (the order in which the built-ins break ties: a re-implementation of
one needs it to play the same games). Parameters declared with `crates_sim.view.parameters`
are set by name as for `@njit` strategies (`mybot.py:Agent:temperature=0.5`).

How: the seat is an outside seat of `crates_sim.play.step.Table` (the step engine): at each of
its decisions the engine pauses, Python fills the observation (`observe_nb`), calls the
agent, and the engine replays the paused turn with the answer. Every other seat's decision
is the engine's, so an agent that chooses as an @njit strategy does plays the same games.
The cost is per decision (docs/strategies.md#python-agents): a run that seats Python agents
says so, with the slowdown measured on one game (`pyagent_run.note_slowdown`). Runs of
games with Python agents are `crates_sim.play.pyagent_run`'s: this module sits below the step
engine (which seats the agents) and imports none of it.

Errors: an agent that raises, returns a non-integer or an illegal action stops the run with
one CratesError naming the agent, the seat, the game and the decision (and, when it
raised, the file, line and function where: `_raised_at`). Agents read their observation
by name with `crates_sim.play.observation.Observation`.
"""

from __future__ import annotations

import inspect
import numbers
from time import perf_counter

import numpy as np

from .. import cards as C
from ..engine.observe_nb import ANNOUNCE0, CALL0
from ..errors import CratesError
from ..userstrat import is_python_spec, python_specs  # noqa: F401 (here before)


def _takes(fn, name: str) -> bool:
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):  # pragma: no cover - a builtin without a signature
        return False
    return name in params or any(p.kind == p.VAR_KEYWORD for p in params.values())


class PythonAgent:
    """One seat's Python agent: the user's object and how to ask it (see the module doc)."""

    def __init__(self, spec: str, rules, seat: int):
        from ..strategy import parse_spec
        from ..userstrat import load_function

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
            raise CratesError(f"{self._where(table, seat)}: it raised {type(exc).__name__}: {exc}"
                              f"{_raised_at(exc)}") from None
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


def _raised_at(exc) -> str:
    """Where the agent's code raised `exc`: " at FILE:LINE in FUNCTION", the innermost
    frame of the traceback outside crates_sim (the agent's own code, or a library it
    called when its own frame is not the last: then its own frame follows, "from ...")."""
    import os
    import traceback

    frames = traceback.extract_tb(exc.__traceback__)[1:]  # the first is decide's own call
    ours = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    outside = [f for f in frames if not os.path.abspath(f.filename).startswith(ours + os.sep)]
    if not outside:
        return ""
    last = outside[-1]
    text = f" at {last.filename}:{last.lineno} in {last.name}"
    mine = [f for f in outside if "site-packages" not in f.filename]
    if mine and mine[-1] is not last:
        text += f" (from {mine[-1].filename}:{mine[-1].lineno} in {mine[-1].name})"
    return text


_ENGINE = []


def _engine():
    """What `decide` uses, imported once."""
    if not _ENGINE:
        from ..engine import engine_nb as nb
        from ..engine.observe_nb import agent_observation, obs_size

        _ENGINE.extend((nb, ACTIONS, N_ACTIONS, action_of, option_of, agent_observation, obs_size))
    return _ENGINE


#: the environment's 60 actions (docs/env.md), by name: 0-51 a card, 52 draw (or decline a
#: count), 53 pass, 54-57 call a suit, 58/59 do not / do announce a last card
ACTIONS = ([C.card_name(c) for c in range(52)] + ["draw", "pass"]
           + [f"call {s}" for s in C.SUITS] + ["no announcement", "announce"])
N_ACTIONS = len(ACTIONS)
_SHIFT = {C.PH_CALL: CALL0, C.PH_BLIND_CALL: CALL0, C.PH_ANNOUNCE: ANNOUNCE0}


def action_of(phase: int, option: int) -> int:
    """The action number of the engine's `option` in a decision of `phase`."""
    return option + _SHIFT.get(phase, 0)


def option_of(phase: int, action: int) -> int:
    """The engine's option of action number `action` in a decision of `phase`."""
    return action - _SHIFT.get(phase, 0)


def seat_agents(rules, seats) -> dict:
    """{seat: PythonAgent} for the seats of `seats` (specs or None) that hold Python agents."""
    return {q: PythonAgent(s, rules, q) for q, s in enumerate(seats)
            if s is not None and is_python_spec(s)}


__all__ = ["PythonAgent", "is_python_spec", "python_specs", "seat_agents", "ACTIONS",
           "action_of", "option_of"]
