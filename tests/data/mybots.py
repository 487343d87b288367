"""User strategies for the tests (loaded by path, as a user would)."""

import numpy as np
from numba import njit

from crates_sim import view as V
from crates_sim.cards import ACTION_DRAW, ACTION_PASS, O_PHASE, PH_ANNOUNCE
from crates_sim.strategies.builtin import greedy_nb
from crates_sim.view import parameters, reads


@parameters(bad=(0.0, 0.0, 1.0, "1: return an illegal index"), a=0.0, b=0.0)
@njit
def cheapest(params, obs, hand, pile, options, rng):
    """Plays its lowest-value legal card; returns an illegal index when params[0] > 0, or
    when it is handed more random state than its own stream (four words)."""
    if params[0] > 0 or rng.shape[0] != 4:
        return options.shape[0] + 5
    if obs[O_PHASE] == PH_ANNOUNCE:
        return 1
    best = 0
    for i in range(options.shape[0]):
        c = options[i]
        if c != ACTION_DRAW and c != ACTION_PASS and c // 4 < options[best] // 4:
            best = i
    return best


@njit
def peeker(params, obs, hand, pile, options, rng):
    """Tries to read past its view: it may only see its own hand_n cards."""
    total = 0
    for i in range(hand.shape[0]):
        total += hand[i]
    return total % options.shape[0]


@njit
def wrong_signature(params, obs):
    return 0


def not_jitted(params, obs, hand, pile, options, rng):
    return 0


@njit
def allocating(params, obs, hand, pile, options, rng):
    """Allocates an array: needs the reference-counted engine copy."""
    scores = np.zeros(options.shape[0])
    for i in range(options.shape[0]):
        scores[i] = options[i] % 13
    return int(np.argmax(scores))


@njit
def raises(params, obs, hand, pile, options, rng):
    """Raises once it is asked to play (an exception must reach Python as an error)."""
    if obs[O_PHASE] == 0:
        raise ValueError("no plan for this position")
    return 0


@njit
def _scores(options):
    """A helper that allocates (compiled without reference counting first, and refused)."""
    out = np.zeros(options.shape[0])
    for i in range(options.shape[0]):
        out[i] = options[i] % 13
    return out


@njit
def via_helper(params, obs, hand, pile, options, rng):
    """Allocates through a helper of its module."""
    return int(np.argmax(_scores(options)))


@reads()
@njit
def lean_greedy(params, obs, hand, pile, options, rng):
    """Built-in greedy's choice, declaring the part of the view greedy reads (none)."""
    return greedy_nb(params, obs, hand, pile, options, rng)


@njit
def _follow_suit(obs, hand, options):
    """The first option in the current suit (top card's suit when the suit is unset)."""
    want = V.current_suit(obs)
    if want < 0:
        want = V.suit(V.top_card(obs))
    for i in range(options.shape[0]):
        if not V.is_action(options[i]) and V.suit(options[i]) == want:
            return i
    return 0


@reads("table")
@njit
def follow_suit(params, obs, hand, pile, options, rng):
    """Reads the table's scalars, as declared."""
    return _follow_suit(obs, hand, options)


@njit
def follow_suit_full(params, obs, hand, pile, options, rng):
    """follow_suit given the whole view (declares nothing)."""
    return _follow_suit(obs, hand, options)


@reads()
@njit
def follow_suit_stale(params, obs, hand, pile, options, rng):
    """follow_suit, declaring that it reads no table scalar: it reads stale ones."""
    return _follow_suit(obs, hand, options)
