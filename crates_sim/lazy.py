"""A folder's lazy front: `crates_sim.engine.run_games` without loading the engine when
one of its modules is imported.

    __getattr__ = front_getattr(__name__, __file__, "api")   # in a folder's __init__.py

Contract: NAME, looked up on the folder, is its module NAME.py if there is one, else the
attribute NAME of the folder's front module (imported on first use).
"""

import importlib
from pathlib import Path


def front_getattr(package: str, init_file: str, front: str):
    """The module-level `__getattr__` (PEP 562) of package `package` (its __init__ at
    `init_file`), whose names come from its module `front`."""
    folder = Path(init_file).parent

    def __getattr__(name):
        if name.startswith("__"):
            raise AttributeError(name)
        if (folder / f"{name}.py").is_file():
            return importlib.import_module(f"{package}.{name}")
        try:
            return getattr(importlib.import_module(f"{package}.{front}"), name)
        except AttributeError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None

    return __getattr__
