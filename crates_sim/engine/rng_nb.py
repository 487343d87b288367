"""`crates_sim.engine.rng_nb`, the older path of `crates_sim.core.rng_nb` (the same module
object): the random streams live below the engine, where the policies compiled into it
(strategies/builtin.py, heuristic.py) and `crates_sim.view` import them. Import
`crates_sim.core.rng_nb`."""

import sys

from ..core import rng_nb as _module

sys.modules[__name__] = _module
