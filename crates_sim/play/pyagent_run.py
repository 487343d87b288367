"""Runs of games with Python agents (`crates_sim.play.pyagent`): `run_games` and `trace_game`
as the engine's, played on the step engine when a seat holds a Python agent.

Contract: `run_games(rules, specs, seed, start, n, detail)` and `trace_game(rules, specs,
seed, game)` return what `crates_sim.engine.api`'s functions of the same names return, for the
same games: with no Python agent they are the engine's; with one, every game is a
`step.Table` whose Python seats answer their own decisions (`play_tables`). `simulate`,
`compare`, `balance`, `tournament` and `trace` run their games through here.
`note_slowdown` tells the user how much slower such a run is, measured (`measure`).
"""

from __future__ import annotations

import multiprocessing
import sys
import time

import numpy as np

from ..engine import api as engine
from .pyagent import is_python_spec, python_specs


def run_games(rules, strategies, seed, game_start, n_games, detail="hands", reuse_rows=False):
    """`engine.run_games`, for strategies that may include Python agents."""
    if python_specs(strategies):
        note_slowdown(rules, strategies)  # once per process: how much slower this is
        return engine.run_games(rules, strategies, seed, game_start, n_games, detail,
                                play=play_tables)
    return engine.run_games(rules, strategies, seed, game_start, n_games, detail, reuse_rows)


def trace_game(rules, strategies, seed, game) -> list[dict]:
    """`engine.trace_game`, for strategies that may include Python agents."""
    if python_specs(strategies):
        note_slowdown(rules, strategies)
        return engine.trace_game(rules, strategies, seed, game, play=play_tables)
    return engine.trace_game(rules, strategies, seed, game)


def play_tables(rules, specs, seed, game_start, n_games, want_rows, log=None, reuse_rows=False):
    """`engine._call_kernel` for a run that seats Python agents: the games one by one on
    the step engine, returned as the kernel returns them (games_out, win_out, hand rows,
    stats); with `log`, one game's event log written into it (reuse_rows: unused)."""
    from ..engine import engine_nb as nb
    from ..engine.api import new_game_rows
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
        from ..engine.api import new_hand_rows

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
    from .step import Table

    plain = ["greedy" if is_python_spec(s) else s for s in specs]
    engine.run_games(rules, plain, seed, 0, 1, detail="games")
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
    engine.run_games(rules, plain, seed, 1, many, detail="games")
    njit = (time.perf_counter() - t0) / many * games
    return {"games": games, "decisions": decisions, "ms_per_game": 1e3 * wall / games,
            "njit_ms_per_game": 1e3 * njit / games,
            "us_per_decision": 1e6 * wall / max(1, decisions),
            "agent_us": 1e6 * agent_s / max(1, decisions),
            "slowdown": wall / max(njit, 1e-9)}


__all__ = ["run_games", "trace_game", "play_tables", "note_slowdown", "measure"]
