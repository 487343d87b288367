"""The `crates` command: click commands, a thin layer over the Python API (`main`
holds the command group; `crates_sim.cli.cli` is it).
"""

import importlib
from pathlib import Path


def __getattr__(name):
    """`crates_sim.cli.NAME`: a module of this folder, else a name of `main` (loaded on
    first use, so that importing one module of the folder does not load the whole of it)."""
    if name.startswith("__"):
        raise AttributeError(name)
    if (Path(__file__).parent / f"{name}.py").is_file():
        return importlib.import_module(f"{__name__}.{name}")
    try:
        return getattr(importlib.import_module(f"{__name__}.main"), name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
