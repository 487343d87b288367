"""What the backends share: the CPU count, RunFailed, and worker processes without `__main__`.

`runner` (inline and process backends) and `dask_backend` both import this module and
neither imports the other at module level in a circle: runner -> dask_backend -> workers.

Worker processes started by the forkserver or spawn methods normally import the parent's
main script (as `__mp_main__`) before they run anything. A plain script that calls
`crates_sim.simulate(...)` at top level, without an `if __name__ == "__main__":` guard,
would then run again in every worker, and die there. Our workers need nothing from
`__main__` (they run top-level functions of crates_sim and the analysis package), so
`main_hidden()` keeps the main module out of what the children are told to import, as
when Python runs `python -c` or a notebook.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import types
from multiprocessing.context import ForkServerContext, ForkServerProcess, SpawnContext, SpawnProcess

from ..data.machine import available_cpus  # noqa: F401 (its older home)
from ..errors import CratesError


class RunFailed(CratesError):
    """A run stopped on an error; finished chunks are kept and the run can be resumed."""


_MAIN_LOCK = threading.RLock()


@contextlib.contextmanager
def main_hidden():
    """While this runs, child processes started by forkserver or spawn import no main script.

    multiprocessing tells each child which main module to import from
    `sys.modules["__main__"]` (its `__spec__` name, else its `__file__`); an empty
    stand-in module there has neither. The real main module is put back on exit and is
    itself untouched.
    """
    with _MAIN_LOCK:
        real = sys.modules.get("__main__")
        if real is None or (getattr(real, "__spec__", None) is None
                            and getattr(real, "__file__", None) is None):
            yield  # python -c, the REPL, most notebooks: nothing to hide
            return
        stand_in = types.ModuleType("__main__")
        stand_in.__spec__ = None
        sys.modules["__main__"] = stand_in
        try:
            yield
        finally:
            if sys.modules.get("__main__") is stand_in:
                sys.modules["__main__"] = real


class _ForkServerProcess(ForkServerProcess):
    @staticmethod
    def _Popen(process_obj):
        with main_hidden():
            return ForkServerProcess._Popen(process_obj)


class _SpawnProcess(SpawnProcess):
    @staticmethod
    def _Popen(process_obj):
        with main_hidden():
            return SpawnProcess._Popen(process_obj)


class _ForkServerContext(ForkServerContext):
    Process = _ForkServerProcess


class _SpawnContext(SpawnContext):
    Process = _SpawnProcess


def mp_context(preload=("crates_sim.runs.workers",)):
    """A multiprocessing context whose processes need nothing from `__main__`.

    Linux: forkserver (workers fork from a server that has already imported `preload`,
    a fast start; the server itself never runs kernels or starts threads). Elsewhere:
    spawn.
    """
    if sys.platform.startswith("linux"):
        ctx = _ForkServerContext()
        ctx.set_forkserver_preload(list(preload))
        return ctx
    return _SpawnContext()


__all__ = ["RunFailed", "available_cpus", "main_hidden", "mp_context"]
