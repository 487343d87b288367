"""User strategies for the tests (loaded by path, as a user would)."""

import numpy as np
from numba import njit

from crates_sim.cards import ACTION_DRAW, ACTION_PASS, O_PHASE, PH_ANNOUNCE


@njit
def cheapest(params, obs, hand, hand_n, pile, pile_n, options, n_options, rng, rng_row):
    """Plays its lowest-value legal card; returns an illegal index when params[0] > 0, or
    when it is handed more random state than its own stream (four words)."""
    if params[0] > 0 or rng.shape[0] - rng_row != 4:
        return n_options + 5
    if obs[O_PHASE] == PH_ANNOUNCE:
        return 1
    best = 0
    for i in range(n_options):
        c = options[i]
        if c != ACTION_DRAW and c != ACTION_PASS and c // 4 < options[best] // 4:
            best = i
    return best


@njit
def peeker(params, obs, hand, hand_n, pile, pile_n, options, n_options, rng, rng_row):
    """Tries to read past its view: it may only see its own hand_n cards."""
    total = 0
    for i in range(hand_n):
        total += hand[i]
    return total % n_options


@njit
def wrong_signature(params, obs):
    return 0


def not_jitted(params, obs, hand, hand_n, pile, pile_n, options, n_options, rng, rng_row):
    return 0


@njit
def allocating(params, obs, hand, hand_n, pile, pile_n, options, n_options, rng, rng_row):
    """Allocates an array: needs the reference-counted engine copy."""
    scores = np.zeros(n_options)
    for i in range(n_options):
        scores[i] = options[i] % 13
    return int(np.argmax(scores))
