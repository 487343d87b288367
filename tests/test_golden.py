"""Golden games: game i of seed s must stay the same game across engine changes.

The digests were taken from the engine before its state became one flat array (and
checked unchanged through every speed change since); a change that alters them changes
what users' seeds mean, and must be deliberate (then say so in the release notes and
update the digests here)."""

import hashlib

import numpy as np
import pytest

from crates_sim.engine import run_games
from crates_sim.rules import Rules

GOLDEN = [
    ("classic", "random", "0d212e87799af505", 192636),
    ("classic", "greedy", "2d018baf365e5f92", 231232),
    ("crazy-eights", "random", "b0fde56033f314b7", 110594),
    ("league", "random", "db83919340ab3314", 201438),
]


@pytest.mark.parametrize("preset,strategy,digest,turns", GOLDEN)
def test_seeded_games_are_the_golden_games(preset, strategy, digest, turns):
    res = run_games(Rules.preset(preset, 4), [strategy] * 4, 7, 5, 200, detail="hands")
    data = (np.ascontiguousarray(res.games["total"], dtype=np.int64).tobytes()
            + np.ascontiguousarray(res.hands["points"], dtype=np.int64).tobytes())
    assert res.turns == turns
    assert hashlib.sha256(data).hexdigest()[:16] == digest
