"""The engine: numba kernels on one game state, their jit plumbing and the Python API.

Kernels (`*_nb.py`): the state's layout (`state_nb`), actions on it (`actions_nb`), each
family's turn (`crates_nb`, `eights_nb`), counts (`counts_nb`), decisions (`decide_nb`)
and the built-ins' dispatch (`dispatch_nb`), dealing, hands and whole games
(`drivers_nb`), scoring (`scoring_nb`), random streams (`rng_nb`), the game log
(`log_nb`), an outside agent's observation (`observe_nb`), the search API (`search_nb`),
and all of them in one namespace (`engine_nb`). Plumbing: `jit`, `indirect`, `bits`,
`fixedview`. The Python API (`api`: run_games, trace_game, prepare ...), whose names are
also reached as `crates_sim.engine.NAME` (`crates compile`'s warm-up, which uses the step
engine too, is crates_sim.runs.warm).
"""

from ..lazy import front_getattr

__getattr__ = front_getattr(__name__, __file__, "api")
