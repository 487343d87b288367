"""Strategy dispatch by integer id (numba kernel).

numba cannot index a tuple of different functions at run time, and a kernel that takes
functions as arguments cannot be cached; so the engine calls `choose_nb` with the seat's
strategy id, and this one function branches to the built-in kernels. Ids are the first
field of `crates_sim.strategy.BUILTINS`.
"""


from strategies.builtin import greedy_nb, random_nb
from strategies.heuristic import aggressive_nb, dump3_nb, hoard3_nb, partner_nb, weights_nb

from .jit import leaf


@leaf
def choose_nb(sid, params, obs, hand, hand_n, pile, pile_n, options, n_options, rng, rng_row):
    """The option index chosen by strategy `sid` (see strategies/builtin.py for the signature)."""
    if sid == 1:
        return greedy_nb(params, obs, hand, hand_n, pile, pile_n, options, n_options, rng, rng_row)
    if sid == 2:
        return hoard3_nb(params, obs, hand, hand_n, pile, pile_n, options, n_options, rng, rng_row)
    if sid == 3:
        return dump3_nb(params, obs, hand, hand_n, pile, pile_n, options, n_options, rng, rng_row)
    if sid == 4:
        return aggressive_nb(params, obs, hand, hand_n, pile, pile_n, options, n_options, rng,
                             rng_row)
    if sid == 5:
        return partner_nb(params, obs, hand, hand_n, pile, pile_n, options, n_options, rng, rng_row)
    if sid == 6:
        return weights_nb(params, obs, hand, hand_n, pile, pile_n, options, n_options, rng, rng_row)
    return random_nb(params, obs, hand, hand_n, pile, pile_n, options, n_options, rng, rng_row)
