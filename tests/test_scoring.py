"""Scoring a Crates hand (RULES.md §2.8): 3-covering, home runs, spare threes.

Every expected value is worked out by hand from the card values
A 1, 2 20, 3 (see below), 4 15, 5 30, 6 30, 7 20, 8 50, 9 30, T 25, J Q K 10.
"""

import numpy as np
import pytest

from crates_sim.cards import parse_card
from crates_sim.engine_nb import score_crates_hand
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
