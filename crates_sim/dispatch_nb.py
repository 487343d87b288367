"""Strategy dispatch by integer id: the built-ins compiled into the engine.

Contract: `choose_nb(sid, params, obs, hand, pile, options, rng)` returns the option index
chosen by built-in strategy `sid` (0 <= sid < N_INLINE), or -1 for any other id (the
engine reports that as an illegal choice). Ids are the first field of
`crates_sim.strategy.BUILTINS`. Strategies with an id of N_INLINE or more (pimc, users'
functions) are not compiled into the engine: it calls them through the address of their
adapter (`crates_sim.indirect`), so the engine is compiled once and cached whatever they are.
"""

from crates_sim.strategies.builtin import greedy_nb, random_nb
from crates_sim.strategies.heuristic import (
    aggressive_nb,
    dump3_nb,
    hoard3_nb,
    partner_nb,
    weights_nb,
)

from .jit import leaf

#: built-in ids below this are compiled into the engine
N_INLINE = 7


@leaf
def choose_nb(sid, params, obs, hand, pile, options, rng):
    """The option index chosen by built-in strategy `sid` (-1 for an unknown id)."""
    if sid == 0:
        return random_nb(params, obs, hand, pile, options, rng)
    if sid == 1:
        return greedy_nb(params, obs, hand, pile, options, rng)
    if sid == 2:
        return hoard3_nb(params, obs, hand, pile, options, rng)
    if sid == 3:
        return dump3_nb(params, obs, hand, pile, options, rng)
    if sid == 4:
        return aggressive_nb(params, obs, hand, pile, options, rng)
    if sid == 5:
        return partner_nb(params, obs, hand, pile, options, rng)
    if sid == 6:
        return weights_nb(params, obs, hand, pile, options, rng)
    return -1
