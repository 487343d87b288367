"""The machine a run uses: how many cores this process may use (`available_cpus`).

Contract: `available_cpus()` is the number of CPUs this process may run on (its affinity
on Linux, else the CPU count), at least 1. It imports nothing of the package, so the
engine (its compile helpers) and the runs (their worker counts) both read it.
"""

from __future__ import annotations

import os


def available_cpus() -> int:
    """The CPUs this process may run on (at least 1)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1
