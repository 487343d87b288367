"""`crates_sim.engine.jit`, the older path of `crates_sim.core.jit` (the same module
object): the kernels' decorators live below the engine, where the policies compiled into
it (strategies/builtin.py, heuristic.py) import them. Import `crates_sim.core.jit`."""

import sys

from ..core import jit as _module

sys.modules[__name__] = _module
