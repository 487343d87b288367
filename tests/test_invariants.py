"""Invariants over many random games of every preset and player count."""

import numpy as np
import pytest
from log_check import check_log

from crates_sim import Rules
from crates_sim.cards import CRATES_HAND_SIZES
from crates_sim.data.schema import REASONS
from crates_sim.engine.api import run_games, trace_game
from crates_sim.play.replay import follow_hands

CASES = [
    ("classic", 4, True), ("classic", 4, False), ("classic", 2, None), ("classic", 3, None),
    ("classic", 5, None), ("league", 4, None), ("league", 2, None), ("serbian", 4, True),
    ("serbian", 3, None), ("crazy-eights", 2, None), ("crazy-eights", 5, None),
    ("very-crazy-eights", 4, None), ("very-crazy-eights", 7, None),
]
GAMES = {"classic": 2500, "league": 5000, "serbian": 5000, "crazy-eights": 5000,
         "very-crazy-eights": 5000}


def _rules(preset, players, partnerships):
    extra = {} if partnerships is None else {"partnerships": partnerships}
    return Rules.preset(preset, players, **extra)


@pytest.mark.parametrize("preset,players,partnerships", CASES)
@pytest.mark.parametrize("strategy", ["random", "greedy"])
def test_invariants_over_random_games(preset, players, partnerships, strategy):
    rules = _rules(preset, players, partnerships)
    n_games = GAMES[preset] // 2
    res = run_games(rules, [strategy] * players, seed=11, game_start=0, n_games=n_games)
    g, h = res.games, res.hands
    crates = rules.family == "crates"
    # no capped hands in normal play
    assert res.capped_hands == 0 and g["capped_hands"].sum() == 0
    assert not (h["reason"] == REASONS.index("cap")).any()
    # hand sizes 8..1..8 (Crates) or the deal size (Crazy Eights)
    if crates:
        assert (g["hands"] == 15).all()
        sizes = h["size"].reshape(n_games, 15, players)[:, :, 0]
        assert (sizes == np.array(CRATES_HAND_SIZES)).all()
    else:
        assert (h["size"] == rules.hand_size).all()
        assert (g["total"].reshape(n_games, players).max(axis=1) >= 100).all() | \
            (g["hands"] == 200).all()
    # totals equal hand points plus pressures (per team with partnerships)
    teams = g["team"].reshape(n_games, players)
    pts = np.zeros((n_games, players), dtype=np.int64)
    np.add.at(pts, (h["game"] - 0, h["seat"].astype(np.int64)), h["points"].astype(np.int64))
    ppts = g["pressure_points"].reshape(n_games, players).astype(np.int64)
    unit_pts = np.zeros_like(pts)
    unit_ppts = np.zeros_like(ppts)
    for q in range(players):
        same = teams == teams[:, [q]]
        unit_pts[:, q] = (pts * same).sum(axis=1)
        unit_ppts[:, q] = (ppts * same).sum(axis=1)
    assert (g["total"].reshape(n_games, players) == unit_pts + unit_ppts).all()
    # pressure points per hand are sums of 5 * 2^k
    assert (h["pressure_points"] >= 5 * h["pressures"]).all()
    # win shares: 1 per game per unit of the winning side
    win = g["win"].reshape(n_games, players)
    units = np.array([len(set(t)) for t in teams])
    share = np.array([win[i][np.unique(teams[i], return_index=True)[1]].sum()
                      for i in range(n_games)])
    assert np.allclose(share, 1.0) and units.min() >= 2
    # the out seat holds no cards
    assert (h["cards_left"][h["out"]] == 0).all()
    assert (h["cards_left"] >= 0).all()


@pytest.mark.parametrize("preset,players,partnerships", CASES)
def test_logs_conserve_cards_and_agree_with_fast_path(preset, players, partnerships):
    rules = _rules(preset, players, partnerships)
    specs = ["random", "greedy"] * players
    specs = specs[:players]
    res = run_games(rules, specs, seed=5, game_start=0, n_games=6, detail="hands")
    rows = res.hands
    for game in range(6):
        events = trace_game(rules, specs, seed=5, game=game)
        counts = check_log(events)
        assert counts["deal"] == res.games["hands"][game * players]
        end = events[-1]
        assert end["totals"] == res.games["total"][game * players:(game + 1) * players].tolist()
        # each hand's rows hold the cards and 3s the log leaves in every hand
        held = []
        for ev in events:
            held = follow_hands(held, ev)
            if ev["ev"] == "hand_end":
                mine = (rows["game"] == game) & (rows["hand"] == ev["hand"])
                order = np.argsort(rows["seat"][mine])
                assert rows["cards_left"][mine][order].tolist() == [len(h) for h in held]
                assert rows["threes_left"][mine][order].tolist() == [
                    sum(c[0] == "3" for c in h) for h in held]


def test_pressures_and_dead_hands_happen_and_check_out():
    rules = Rules.preset("classic", 5)
    res = run_games(rules, ["random"] * 5, seed=3, game_start=0, n_games=300)
    assert res.games["pressures"].sum() > 0
    pressured = int(np.argmax(res.games["pressures"])) // 5
    check_log(trace_game(rules, ["random"] * 5, seed=3, game=pressured))


@pytest.mark.parametrize("preset", ["classic", "league", "serbian"])
def test_forgetful_players_logs_check_out(preset):
    """Missed last-card calls exercise all three penalties in full games."""
    rules = Rules.preset(preset, 4)
    specs = ["greedy:forget=0.5", "random:forget=0.5", "greedy", "random:forget=1"]
    res = run_games(rules, specs, seed=8, game_start=0, n_games=200)
    assert res.capped_hands == 0
    penalties = 0
    for game in range(4):
        events = trace_game(rules, specs, seed=8, game=game)
        check_log(events)
        penalties += sum(e["ev"] == "draw" and e["why"] == "penalty" for e in events)
        assert events[-1]["totals"] == res.games["total"][game * 4:game * 4 + 4].tolist()
    assert penalties > 0


@pytest.mark.parametrize("preset", ["crazy-eights", "classic", "serbian"])
def test_the_cap_only_cuts_a_hand_that_would_go_on(preset):
    """A hand whose last play (a player's last card) is also the max_turns_per_hand-th turn
    ends the way the rules end it (out), not `cap`; one turn less and it is capped."""
    from crates_sim.engine.api import run_games
    from crates_sim.rules import Rules

    base = Rules.preset(preset, 4)
    res = run_games(base, ["greedy"] * 4, seed=3, game_start=0, n_games=30, detail="hands")
    h = res.hands
    first = np.flatnonzero((h["reason"] == 0) & (h["out"] == 1) & (h["cards_left"] == 0))
    assert len(first), "no hand that ended out"
    row = first[0]
    game, hand, turns = int(h["game"][row]), int(h["hand"][row]), int(h["turns"][row])
    for cap, reason in ((turns, 0), (turns - 1, 3)):  # 0 out, 3 cap (schema.REASONS)
        capped = run_games(Rules.preset(preset, 4, max_turns_per_hand=cap), ["greedy"] * 4,
                           seed=3, game_start=game, n_games=1, detail="hands")
        rows = capped.hands["hand"] == hand
        assert set(capped.hands["reason"][rows].tolist()) == {reason}, (cap, reason)
        if reason == 0:
            assert (capped.hands["turns"][rows] == turns).all()


def test_a_pressure_war_counts_every_pressure():
    """Under draws at will the shipped adept hoards (docs/findings.md, "Drawing at will is a
    race to hoard"), and two of it can trade pressures for thousands of turns: the hand and
    game rows count every one (the hand rows' 8 bits wrapped to negative counts before),
    and each seat's hands add up to its game row."""
    rules = Rules.from_spec("classic:draw_when_able=True,max_turns_per_hand=2000", 2)
    res = run_games(rules, ["adept"] * 2, seed=7, game_start=0, n_games=1, detail="hands")
    h, g = res.hands, res.games
    assert h["pressures"].max() > 127  # more than 8 bits hold
    assert (h["pressures"] >= 0).all()
    per_seat = np.zeros(2, dtype=np.int64)
    np.add.at(per_seat, h["seat"].astype(np.int64), h["pressures"].astype(np.int64))
    assert (per_seat == g["pressures"]).all()
