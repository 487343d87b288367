"""Strategy ids: the one place that numbers the built-in strategies.

Contract: plain integer constants, importable by kernels and by Python alike. Ids below
N_INLINE are compiled into the engine (`dispatch_nb`); PIMC and users' functions (from
USER_BASE on) are called by the address of their adapter.
"""

RANDOM, GREEDY, HOARD3, DUMP3, AGGRESSIVE, PARTNER, WEIGHTS, PIMC = range(8)
#: built-in ids below this are compiled into the engine
N_INLINE = PIMC
#: users' functions are numbered from here, in the order a run first names them
USER_BASE = 100
