"""The engine: numba kernels on one game state (`*_nb.py`), their jit plumbing (`jit`,
`indirect`, `bits`, `fixedview`) and the Python API over them (`api`: run_games,
trace_game, prepare ...), whose names are also reached as `crates_sim.engine.NAME`.
"""

import importlib
from pathlib import Path


def __getattr__(name):
    """`crates_sim.engine.NAME`: a module of this folder, else a name of `api` (loaded on
    first use, so that importing one module of the folder does not load the whole of it)."""
    if name.startswith("__"):
        raise AttributeError(name)
    if (Path(__file__).parent / f"{name}.py").is_file():
        return importlib.import_module(f"{__name__}.{name}")
    try:
        return getattr(importlib.import_module(f"{__name__}.api"), name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
