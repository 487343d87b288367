"""Imported by the worker pool's fork server before it forks any worker (see
`workers.mp_context`): loads the engine's compiled kernels from numba's cache, so that
every worker is forked with them in memory (shared, copy-on-write) instead of loading
them again itself (measured here: ~0.35 s per worker, after a 0.5 s import).

The parent of the run has already made sure the cache holds the engine
(`engine.prepare(load=False)`), so this only loads. Nothing here may fail: a fork server
that cannot preload still serves workers, which then load the engine themselves."""

try:
    from ..engine import api as _engine

    _engine.prepare()
except Exception:  # noqa: BLE001 - the workers load or compile it as they would anyway
    pass
