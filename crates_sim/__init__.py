"""crates-sim: a Monte Carlo strategy-analysis toolkit for Crates and Crazy Eights."""

from ._version import __version__  # a leaf: data.manifest reads it there too
from .data._cache import configure_numba_cache  # noqa: E402

configure_numba_cache()  # before any kernel is defined: see _cache.py

from .data.dataset import Dataset  # noqa: E402
from .errors import CratesError  # noqa: E402
from .rules import Rules  # noqa: E402
from .runs.runner import simulate  # noqa: E402

__all__ = ["CratesError", "Dataset", "Rules", "__version__", "simulate"]
