"""Where numba caches the kernels: a folder keyed by a hash of every kernel source.

numba decides whether a cached function is still valid from its own file's time stamp
only: an edit of a function it calls in another file (a strategy, the dispatch, a
constant in cards.py) would leave a stale, wrong kernel in the cache. Keying the cache
folder on a hash of all the sources the kernels are built from makes any such edit (or
an upgrade) start a fresh cache instead. Set CRATES_SIM_CACHE to move the cache.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

#: the sources the kernels are compiled from (kernels, their constants, the strategies)
_KERNEL_SOURCES = ("crates_sim/engine/*_nb.py", "crates_sim/cards.py", "crates_sim/engine/jit.py",
                   "crates_sim/view.py", "crates_sim/engine/indirect.py", "crates_sim/strategy_ids.py",
                   "crates_sim/engine/bits.py", "crates_sim/engine/fixedview.py",
                   "crates_sim/strategies/*.py")


def source_hash() -> str:
    root = Path(__file__).resolve().parents[2]
    digest = hashlib.sha1()
    for pattern in _KERNEL_SOURCES:
        for path in sorted(root.glob(pattern)):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_root() -> Path:
    """The folder for crates-sim's caches (numba's compiled kernels)."""
    explicit = os.environ.get("CRATES_SIM_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "crates-sim"


def configure_numba_cache() -> str:
    """Point numba's cache at cache_root()/numba-<source hash> (before kernels are defined)."""
    import numba

    folder = cache_root() / f"numba-{source_hash()}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        import tempfile

        folder = Path(tempfile.gettempdir()) / f"crates-sim-{os.getuid()}" / folder.name
        folder.mkdir(parents=True, exist_ok=True)
    numba.config.CACHE_DIR = str(folder)
    os.environ["NUMBA_CACHE_DIR"] = str(folder)  # worker processes inherit it
    return str(folder)
