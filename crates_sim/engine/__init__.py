"""The engine: numba kernels on one game state, their plumbing and the Python API.

Kernels (`*_nb.py`): the state's layout (`state_nb`), actions on it (`actions_nb`), each
family's turn (`crates_nb`, `eights_nb`), counts (`counts_nb`), decisions (`decide_nb`)
and the built-ins' dispatch (`dispatch_nb`: the policies of strategies/builtin.py and
heuristic.py, compiled in), dealing, hands and whole games (`drivers_nb`), scoring
(`scoring_nb`), the game log (`log_nb`), an outside agent's observation (`observe_nb`),
the search API (`search_nb`), and all of them in one namespace (`engine_nb`). Plumbing:
`indirect`, `bits`, `fixedview`. The decorators and random streams live below the
policies, in crates_sim.core; `jit` and `rng_nb` here are their older paths (the same
modules). The Python API (`api`: run_games, trace_game, prepare ...), whose names are
also reached as `crates_sim.engine.NAME` (`crates compile`'s warm-up, which uses the step
engine too, is crates_sim.runs.warm), lies above the searches and the specs
(pyproject.toml's import-linter contract), the kernels below the searches.
"""

from ..lazy import front_getattr

__getattr__ = front_getattr(__name__, __file__, "api")
