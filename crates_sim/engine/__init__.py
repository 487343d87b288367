"""The engine: numba kernels on one game state (`*_nb.py`), their jit plumbing (`jit`,
`indirect`, `bits`, `fixedview`) and the Python API over them (`api`: run_games,
trace_game, prepare ...), whose names are also reached as `crates_sim.engine.NAME`.
"""

from ..lazy import front_getattr

__getattr__ = front_getattr(__name__, __file__, "api")
