"""Example strategies, as docs/strategies.md shows them (the docs include this file's code,
and the tests run it):

    crates simulate --strategies examples/strategies.py:cautious,greedy --games 20000
    crates compare --strategies examples/strategies.py:cautious:risk=0.8,greedy --games 20000
    crates simulate --strategies examples/strategies.py:greedy_again --games 1000

A decision function is an @njit function ``(params, obs, hand, pile, options, rng) -> int``
that returns the index of one of `options`; `crates_sim.view` reads the table by name.
"""

from numba import njit

from crates_sim import view as V
from crates_sim.strategies.builtin import greedy_nb


# --- cautious: the worked example
@V.parameters(risk=(0.5, 0.0, 1.0, "how readily it plays the 8s, 9s and 3s it keeps back"))
@njit
def cautious(params, obs, hand, pile, options, rng):
    """Keep wild cards and 3s back, shed the most expensive other card, call the suit
    held most often, always announce a last card."""
    phase = V.phase(obs)
    if phase == V.PH_ANNOUNCE:
        return 1  # options are [0, 1]: announce
    if phase == V.PH_CALL or phase == V.PH_BLIND_CALL:
        best, best_len = 0, -1
        for i in range(options.shape[0]):  # options are suits
            length = 0
            for card in hand:
                if V.suit(card) == options[i]:
                    length += 1
            if length > best_len:
                best, best_len = i, length
        return best
    best, best_score = 0, -1e9
    for i in range(options.shape[0]):
        card = options[i]
        if V.is_action(card):  # a draw (or a pass)
            score = -100.0
        else:
            score = float(V.value(obs, card))
            if V.is_wild(obs, card) or V.rank(card) == 2:  # 8s (9s) and 3s wait
                score -= 60.0 * (1.0 - params[0])
        if score > best_score:
            best, best_score = i, score
    return best


# --- greedy_again: building on a built-in
@V.reads()  # greedy reads only the decision, its hand, its options and the rules
@njit
def greedy_again(params, obs, hand, pile, options, rng):
    """Exactly built-in greedy's choice: a user strategy can call any built-in's decision
    function (here with greedy's parameter row, forget = params[0] = 0) and adjust it."""
    return greedy_nb(params, obs, hand, pile, options, rng)
