"""The two decorators of the kernels.

`kernel` is for the hot path: cached, and compiled without numba's reference counting
(``_nrt=False``), so it may not allocate arrays. Measured here, the NRT increfs/decrefs
that numba leaves around array arguments cost 70-120 ns per call, more than a whole
decision; without them a decision is a few ns. `allocating` is for the few entry points
that allocate (a game's state, copies, chunk drivers).
"""

from numba import njit

kernel = njit(cache=True, _nrt=False)
allocating = njit(cache=True)
#: small hot helpers, inlined into their callers at numba IR level (a call costs
#: more than their body when a game state tuple of arrays is passed)
leaf = njit(cache=True, _nrt=False, inline="always")
