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
_KERNEL_SOURCES = ("crates_sim/engine/*_nb.py", "crates_sim/cards.py", "crates_sim/core/*.py",
                   "crates_sim/view.py", "crates_sim/engine/indirect.py", "crates_sim/strategy_ids.py",
                   "crates_sim/engine/bits.py", "crates_sim/engine/fixedview.py",
                   "crates_sim/params.py", "crates_sim/strategies/*.py")


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


def private_temp_folder() -> Path:
    """The fallback cache folder when cache_root() cannot be made: /tmp/crates-sim-UID,
    made with mode 0700. numba's cache index is a pickle, so a folder that someone else
    made first (or may write to) is not used, since loading its files could run their
    code: this run then compiles into a fresh folder of its own (mkdtemp), and says so."""
    import stat
    import sys
    import tempfile

    folder = Path(tempfile.gettempdir()) / f"crates-sim-{os.getuid()}"
    try:
        folder.mkdir(mode=0o700)
    except FileExistsError:
        pass
    info = folder.lstat()
    if (stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid()
            and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)):
        return folder
    print(f"crates-sim: not using {folder} for compiled kernels (not a folder of yours that only "
          f"you can write to); set CRATES_SIM_CACHE to a folder of your own", file=sys.stderr)
    return Path(tempfile.mkdtemp(prefix="crates-sim-"))


def configure_numba_cache() -> str:
    """Point numba's cache at cache_root()/numba-<source hash> (before kernels are defined)."""
    import numba

    folder = cache_root() / f"numba-{source_hash()}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        folder = private_temp_folder() / folder.name
        folder.mkdir(parents=True, exist_ok=True)
    numba.config.CACHE_DIR = str(folder)
    os.environ["NUMBA_CACHE_DIR"] = str(folder)  # worker processes inherit it
    return str(folder)
