"""Scoring a Crates hand (RULES.md §2.8): 3-covering, home runs, spare threes.

Every expected value is worked out by hand from the card values
A 1, 2 20, 3 (see below), 4 15, 5 30, 6 30, 7 20, 8 50, 9 30, T 25, J Q K 10.
"""

import numpy as np
import pytest

from crates_sim.cards import parse_card
from crates_sim.engine.engine_nb import score_crates_hand
from crates_sim.rules import Rules


def score(cards, **knobs):
    """(points, threes, covered, home_run) of the hand `cards` ("A 3 3 6 ...", suits added)."""
    R = Rules.preset("classic", 2, **knobs).to_array()
    suits = "CDHS"
    names = []
    seen = {}
    for rank in cards.split():
        k = seen.get(rank, 0)
        seen[rank] = k + 1
        names.append(rank + suits[k])
    hand = np.zeros(52, dtype=np.int64)
    for i, name in enumerate(names):
        hand[i] = parse_card(name)
    scratch = np.zeros(52, dtype=np.int64)
    return tuple(int(x) for x in score_crates_hand(R, hand, len(names), scratch))


@pytest.mark.parametrize("cards, points", [
    # the league's example: the two 3s cover 9 (30) and 6 (30) -> 3 + 3 for those pairs,
    # the rest scores A 1 + 7 20 + K 10 = 31 -> 37
    ("A 3 3 6 7 9 K", 37),
    # a hand of only 3s is a home run: -50 per 3
    ("3 3", -100),
    ("3", -50),
    ("3 3 3", -150),
    # one 3 covers the K (3), the other has nothing left to cover: spare_three = 3
    ("3 3 K", 6),
    # an 8 is never covered: 8 50 + a spare 3 (3)
    ("3 8", 53),
    # the 3 covers the K, not the 8: 50 + 3
    ("3 8 K", 53),
    # no 3s: plain sum
    ("A 2 4 5 6 7 8 9 T J Q K", 1 + 20 + 15 + 30 + 30 + 20 + 50 + 30 + 25 + 10 + 10 + 10),
    # the 3 covers the highest coverable card: the T (25) rather than the 4 (15)
    ("3 4 T", 15 + 3),
    # two 3s cover 9 and 7 (30, 20) and leave the A: 1 + 3 + 3
    ("A 3 3 7 9", 7),
    # three 3s, two other cards: two pairs (3 + 3) and one spare three (3)
    ("3 3 3 Q K", 9),
    ("", 0),
])
def test_score_default(cards, points):
    assert score(cards)[0] == points


def test_score_details():
    # (points, threes, covered, home_run)
    assert score("A 3 3 6 7 9 K") == (37, 2, 2, 0)
    assert score("3 3") == (-100, 2, 0, 1)
    assert score("3 3 K") == (6, 2, 1, 0)
    assert score("3 8") == (53, 1, 0, 0)


@pytest.mark.parametrize("cards, spare, points", [
    ("3 3 K", 5, 3 + 5),        # one pair (3) + one spare three (5)
    ("3 8", 5, 50 + 5),
    ("3 8", 0, 50),
    ("3 3 K", -10, 3 - 10),
    ("3 3", 5, -100),           # a home run does not use spare_three
    ("A 3 3 6 7 9 K", 5, 37),   # no spare three here
])
def test_score_spare_three(cards, spare, points):
    assert score(cards, spare_three=spare)[0] == points


def _reference(R, cards):
    """The covering rule as RULES.md §2.8 words it, written out card by card."""
    from crates_sim import cards as C

    threes = sum(1 for c in cards if c // 4 == C.R_3)
    if not cards:
        return 0, 0, 0, 0
    if threes == len(cards):
        return -50 * threes, threes, 0, 1
    total = sum(int(R[C.VALUE + c]) for c in cards if c // 4 != C.R_3)
    others = sorted((int(R[C.VALUE + c]) for c in cards
                     if c // 4 != C.R_3 and R[C.EFFECT + c] != C.E_WILD), reverse=True)
    covered = min(threes, len(others))
    total -= sum(others[:covered])
    total += 3 * covered + int(R[C.K_SPARE3]) * (threes - covered)
    return total, threes, covered, 0


@pytest.mark.parametrize("preset,knobs", [("classic", {}), ("league", {}),
                                          ("serbian", {}), ("classic", {"spare_three": -7}),
                                          ("classic", {"nine_wild": False})])
def test_scoring_by_card_masks_is_the_rule_over_random_hands(preset, knobs):
    """The kernel scores the cards a seat holds as a mask, by value classes; the covered
    cards it lists are the most valuable coverable ones."""
    from crates_sim import cards as C

    R = Rules.preset(preset, 4, **knobs).to_array()
    rng = np.random.default_rng(11)
    threes = [c for c in range(52) if c // 4 == C.R_3]
    for trial in range(3000):
        n = int(rng.integers(0, 14))
        cards = rng.choice(52, size=n, replace=False).tolist()
        if trial % 3 == 0:  # many 3s: covering and spare threes
            cards = list(dict.fromkeys(threes[:int(rng.integers(1, 5))] + cards))[:13]
        hand = np.zeros(52, dtype=np.int64)
        hand[:len(cards)] = cards
        vals = np.zeros(52, dtype=np.int64)
        got = tuple(int(x) for x in score_crates_hand(R, hand, len(cards), vals))
        assert got == _reference(R, cards), cards
        listed = [int(c) for c in vals[:got[2]]]
        assert set(listed) <= set(cards) and all(R[C.EFFECT + c] != C.E_WILD and c // 4 != C.R_3
                                                 for c in listed)
        values = [int(R[C.VALUE + c]) for c in listed]
        assert values == sorted(values, reverse=True)
