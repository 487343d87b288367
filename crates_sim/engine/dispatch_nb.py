"""Strategy dispatch by integer id: the built-ins compiled into the engine.

The engine knows strategies only through this module. Contract:
`choose_nb(sid, params, obs, hand, pile, options, rng)` returns the option index
chosen by built-in strategy `sid` (0 <= sid < N_INLINE, or sid == KEEP3: `is_inline`),
or -1 for any other id (the engine reports that as an illegal choice). Ids are the first
field of `crates_sim.strategy_ids`. The other strategies (pimc, users'
functions) are not compiled into the engine: it calls them through the address of their
adapter (`crates_sim.engine.indirect`), so the engine is compiled once and cached whatever they are.
"""

from crates_sim.strategies.builtin import greedy_nb, random_nb
from crates_sim.strategies.heuristic import (
    aggressive_nb,
    dump3_nb,
    hoard3_nb,
    keep3_nb,
    partner_nb,
    softmax_nb,
    weights_nb,
)

from ..core.jit import leaf
from ..strategy_ids import (
    AGGRESSIVE,
    DUMP3,
    GREEDY,
    HOARD3,
    KEEP3,
    N_INLINE,
    PARTNER,
    RANDOM,
    SKIP_SEATS,
    SKIP_TABLE,
    SOFTMAX,
    WEIGHTS,
)

__all__ = ["N_INLINE", "choose_nb", "choose_greedy", "choose_random", "is_inline", "reads_seats",
           "reads_table"]


@leaf
def is_inline(sid):
    """Whether built-in strategy `sid` is compiled into the engine (`choose_nb`): the ids
    below N_INLINE, KEEP3 and SOFTMAX (pimc, N_INLINE itself, expert, apprentice and users'
    functions are called by address)."""
    return (0 <= sid < N_INLINE) or sid == KEEP3 or sid == SOFTMAX


@leaf
def reads_seats(sid):
    """Whether strategy `sid` reads the per-seat part of its view (hand sizes, totals,
    pressures, voids: `view.hand_size`, `view.total` ...). The built-ins that shed by card
    value (random, greedy, hoard3, dump3, keep3) read only the table's scalars, their
    hand and their options, so the engine does not write that part for them, nor for a
    user's function that declares it does not read it (`view.reads`: SKIP_SEATS in its
    id); every other strategy (aggressive, partner, weights, pimc, users', outside agents)
    gets it all."""
    return not (sid == RANDOM or sid == GREEDY or sid == HOARD3 or sid == DUMP3 or sid == KEEP3
                or (sid & SKIP_SEATS) != 0)


@leaf
def reads_table(sid):
    """Whether strategy `sid` reads the table's scalars of its view (`view.top_card`,
    `view.me` ...): all but a user's function that declares it does not (`view.reads`)."""
    return (sid & SKIP_TABLE) == 0


@leaf
def choose_random(params, obs, hand, pile, options, rng):
    """The built-in random strategy's choice (the engine decides it inline, without
    filling the view: random reads only the phase)."""
    return random_nb(params, obs, hand, pile, options, rng)


@leaf
def choose_greedy(params, obs, hand, pile, options, rng):
    """The built-in greedy strategy's choice (the engine decides it inline: `decide_fast`)."""
    return greedy_nb(params, obs, hand, pile, options, rng)


@leaf
def choose_nb(sid, params, obs, hand, pile, options, rng):
    """The option index chosen by built-in strategy `sid` (-1 for an unknown id)."""
    if sid == RANDOM:
        return random_nb(params, obs, hand, pile, options, rng)
    if sid == GREEDY:
        return greedy_nb(params, obs, hand, pile, options, rng)
    if sid == HOARD3:
        return hoard3_nb(params, obs, hand, pile, options, rng)
    if sid == DUMP3:
        return dump3_nb(params, obs, hand, pile, options, rng)
    if sid == AGGRESSIVE:
        return aggressive_nb(params, obs, hand, pile, options, rng)
    if sid == PARTNER:
        return partner_nb(params, obs, hand, pile, options, rng)
    if sid == WEIGHTS:
        return weights_nb(params, obs, hand, pile, options, rng)
    if sid == KEEP3:
        return keep3_nb(params, obs, hand, pile, options, rng)
    if sid == SOFTMAX:
        return softmax_nb(params, obs, hand, pile, options, rng)
    return -1
