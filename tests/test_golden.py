"""Golden games: game i of seed s must stay the same game across engine changes.

The digests were taken from the engine before its state became one flat array (and
checked unchanged through every speed change since); a change that alters them changes
what users' seeds mean, and must be deliberate (then say so in the release notes and
update the digests here)."""

import hashlib
from pathlib import Path

import numpy as np
import pytest

from crates_sim.engine.api import run_games
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


BOTS = str(Path(__file__).parent / "data" / "mybots.py")
#: mixed tables: every heuristic, forget, other player counts, a user function and pimc
#: (digests taken from the engine of commit e5666b1, before strategies were called by address)
GOLDEN_MIXED = [
    ("classic", 4, "aggressive,partner,weights,dump3", 100, "f56fae009cd8872b", 95893),
    ("serbian", 3, "hoard3,greedy:forget=0.3,random", 100, "ba8efdc4de4cb078", 78855),
    ("very-crazy-eights", 3, "greedy,aggressive,random", 100, "5153c608f1c9e072", 42112),
    ("league", 4, "weights:w3=2,random,partner,greedy", 100, "d331d2385d616b67", 110975),
    ("classic", 4, "{BOTS}:cheapest,greedy,random,aggressive", 60, "354a9b9a4c2fb2ee", 57563),
    ("classic", 4, "pimc:samples=3:depth=0,greedy,random,greedy", 3, "23eed29e417c1ebe", 2816),
]


@pytest.mark.parametrize("preset,players,specs,games,digest,turns", GOLDEN_MIXED)
def test_mixed_tables_are_the_golden_games(preset, players, specs, games, digest, turns):
    res = run_games(Rules.preset(preset, players), specs.format(BOTS=BOTS).split(","), 11, 3,
                    games, detail="hands")
    data = (np.ascontiguousarray(res.games["total"], dtype=np.int64).tobytes()
            + np.ascontiguousarray(res.hands["points"], dtype=np.int64).tobytes())
    assert res.turns == turns
    assert hashlib.sha256(data).hexdigest()[:16] == digest
