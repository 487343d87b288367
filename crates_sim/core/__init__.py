"""The numba primitives below every compiled strategy and the engine: the kernels'
decorators (`jit`: `kernel`, `leaf`, `allocating` ...) and the counter-based random
streams (`rng_nb`). They import nothing else of crates_sim, so that the policies compiled
into the engine (strategies/builtin.py, heuristic.py) and `crates_sim.view` can use them
from below the engine (pyproject.toml's import-linter contract). `crates_sim.engine.jit`
and `crates_sim.engine.rng_nb` are the same modules under their older names.
"""
