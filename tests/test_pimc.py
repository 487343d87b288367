"""pimc: its decisions pinned to the pimc before racing and cut rollouts (lead=0,
depth=0), racing's legality, cut rollouts, and the compact rollout restart
(`search_nb.start_rollout`) equal to a fresh copy."""

import math

import numpy as np
import pytest

from crates_sim import Rules
from crates_sim import cards as C
from crates_sim.engine import engine_nb as nb
from crates_sim.engine.api import engine_table, prepare, run_games
from crates_sim.play.step import Table
from crates_sim.strategies.pimc import _deal_hidden, _drop_clear_losers, _unseen

#: game totals of 2 games (seed 3) with pimc:samples=10 in seats 0 and 2, computed with
#: the pimc before racing, cut rollouts and compact restarts (commit 9499ef2): lead=0 and
#: depth=0 reproduce it
OLD_PIMC = {
    ("classic", 4): ([1172, 1273, 1172, 1273, 1542, 1100, 1542, 1100], 2038),
    ("crazy-eights", 3): ([54, 80, 147, 61, 0, 116], 965),
}


@pytest.mark.parametrize("preset,players", sorted(OLD_PIMC))
def test_lead_zero_plays_the_old_pimc_deal_for_deal(preset, players):
    for spec in ("pimc:samples=10:lead=0:depth=0",
                 "pimc:samples=10:lead=2:min_samples=10:depth=0"):  # racing never starts
        specs = [spec, "greedy", spec, "weights"][:players]
        res = run_games(Rules.preset(preset, players), specs, seed=3, game_start=0, n_games=2,
                        detail="games")
        totals, turns = OLD_PIMC[(preset, players)]
        assert res.games["total"].tolist() == totals
        assert res.turns == turns


def test_the_default_pimc_does_not_race():
    rules = Rules.preset("classic", 4)
    a = run_games(rules, ["pimc:samples=6", "greedy"] * 2, 5, 0, 2, detail="games")
    b = run_games(rules, ["pimc:samples=6:lead=0", "greedy"] * 2, 5, 0, 2, detail="games")
    assert a.games["total"].tolist() == b.games["total"].tolist() and a.turns == b.turns


@pytest.mark.parametrize("preset,players", [("classic", 4), ("league", 3), ("serbian", 4),
                                            ("crazy-eights", 4), ("very-crazy-eights", 3)])
def test_racing_picks_legal_options_in_every_preset(preset, players):
    # an eager race (drops at a third of a standard error after 2 deals): an illegal pick
    # stops the run with an error
    fast = "pimc:samples=12:lead=0.3:min_samples=2"
    specs = [fast, "greedy", "pimc:samples=6:lead=1:min_samples=3", "random"][:players]
    res = run_games(Rules.preset(preset, players), specs, seed=8, game_start=0, n_games=3)
    assert res.capped_hands == 0
    again = run_games(Rules.preset(preset, players), specs, seed=8, game_start=1, n_games=2)
    assert res.games["total"][players:].tolist() == again.games["total"].tolist()


def test_racing_drops_only_clear_losers_and_never_the_leader():
    def race(per_deal, lead):
        x = np.array(per_deal, dtype=np.float64)
        alive = np.ones(x.shape[1], dtype=np.int64)
        left = _drop_clear_losers(x.sum(0), x.T @ x, alive, x.shape[0], lead)
        return left, alive.tolist()

    clear = [[10, 0, 9], [12, 1, 11], [11, 0, 10], [9, 2, 10]]
    assert race(clear, 2.0) == (2, [1, 0, 1])  # option 1 trails by far; 2 is close
    assert race(clear, 0.0) == (1, [1, 0, 0])
    assert race([[5, 5], [1, 1], [7, 7]], 1.0) == (2, [1, 1])  # equal: both kept
    assert race([[3, 2], [3, 2], [3, 2]], 5.0) == (1, [1, 0])  # always behind, no noise
    noisy = [[100, 0], [-100, 0], [90, 0], [-80, 1]]
    assert race(noisy, 1.0) == (2, [1, 1])
    for seed in range(200):  # the best total is never dropped, one option at least is left
        x = np.random.default_rng(seed).standard_t(2, size=(5, 4)) * 50
        left, alive = race(x, 0.2)
        assert alive[int(np.argmax(x.sum(0)))] == 1 and left == sum(alive) >= 1


def test_racing_hints_value_every_option():
    table = Table(Rules.preset("classic", 4), [None, "greedy", "greedy", "greedy"], 7, 0)
    seen = 0
    while table.pending is not None and seen < 6:
        if table.pending.phase in (0, 1, 2) and len(table.pending.options) > 1:
            values = table.hint_values("pimc:samples=20:lead=0.5")
            assert set(values) == set(table.pending.options)
            assert all(math.isfinite(v) for v in values.values())
            assert table.hint("pimc:samples=20:lead=0.5") in table.pending.options
            seen += 1
        table.act(table.hint("greedy"))
    assert seen == 6


def test_depth_cuts_crates_rollouts_only():
    # Crazy Eights: a cut hand has no payout yet, so its rollouts always play to the end
    rules = Rules.preset("crazy-eights", 3)
    specs = ["pimc:samples=4:depth=2", "greedy", "pimc:samples=4:depth=0"]
    a = run_games(rules, specs, 6, 0, 2, detail="games")
    b = run_games(rules, [specs[2], "greedy", specs[2]], 6, 0, 2, detail="games")
    assert a.games["total"].tolist() == b.games["total"].tolist() and a.turns == b.turns
    # Crates: the cut changes the search, legally, in every seat and player count
    for preset, n in (("classic", 4), ("league", 3), ("serbian", 4)):
        specs = ["pimc:samples=5:depth=1", "pimc:samples=5:depth=4", "greedy", "random"][:n]
        assert run_games(Rules.preset(preset, n), specs, 6, 0, 2).capped_hands == 0
    rules = Rules.preset("classic", 4)
    cut = run_games(rules, ["pimc:samples=5:depth=3", "greedy"] * 2, 6, 0, 2, detail="games")
    full = run_games(rules, ["pimc:samples=5:depth=0", "greedy"] * 2, 6, 0, 2, detail="games")
    assert cut.games["total"].tolist() != full.games["total"].tolist()


def test_a_cut_rollout_ends_capped_after_its_turns():
    table = Table(Rules.preset("classic", 4), [None, "greedy", "greedy", "greedy"], 2, 1)
    while len(table.pending.options) < 2 or table.pending.phase not in (0, 1, 2):
        table.act(table.hint("greedy"))
    d = table.pending
    deal = nb.position_from_view(d.obs, d.hand, d.pile, 6, engine_table())
    unseen = np.zeros(52, dtype=np.int64)
    k = _unseen(d.obs, d.hand, d.pile, unseen)
    voids = np.zeros(4, dtype=np.int64)
    _deal_hidden(deal, d.seat, unseen, k, np.zeros(52, dtype=np.int64), voids, voids.copy(),
                 np.array([5, 6, 7, 8], dtype=np.int64))
    nb.limit_turns(deal, 3)
    for sample, option in enumerate(d.options):
        work = nb.copy_state(deal)
        nb.seed_rollout(deal, 1, sample)
        nb.start_rollout(work, deal, d.seat, option, d.phase == 2)
        turns = nb.play_out(work)
        assert work[nb.S_ENDED] == 1 and turns <= 3
        assert work[nb.S_REASON] == C.REASON_CAP or turns < 3
        assert math.isfinite(nb.hand_value(work, d.seat, np.zeros(4, dtype=np.int64)))


def test_a_rollout_restarted_in_place_is_a_fresh_copy():
    prepare(["pimc"])
    table = Table(Rules.preset("classic", 4), [None, "greedy", "greedy", "greedy"], 2, 1)
    while len(table.pending.options) < 2 or table.pending.phase not in (0, 1, 2):
        table.act(table.hint("greedy"))
    d = table.pending
    me, n = d.seat, 4
    deal = nb.position_from_view(d.obs, d.hand, d.pile, 6, engine_table())
    unseen = np.zeros(52, dtype=np.int64)
    k = _unseen(d.obs, d.hand, d.pile, unseen)
    voids = np.zeros(n, dtype=np.int64)
    rng = np.array([1, 2, 3, 4], dtype=np.int64)
    _deal_hidden(deal, me, unseen, k, np.zeros(52, dtype=np.int64), voids, voids.copy(), rng)
    reused = nb.copy_state(deal)
    zeros = np.zeros(n, dtype=np.int64)
    for sample, option in enumerate(list(d.options) * 2):
        fresh = nb.copy_state(deal)
        nb.seed_rollout(fresh, 99, sample)
        nb.force_first_decision(fresh, me, option, d.phase == 2)
        nb.seed_rollout(deal, 99, sample)
        nb.start_rollout(reused, deal, me, option, d.phase == 2)
        assert (fresh[:nb.OBS0] == reused[:nb.OBS0]).all()
        assert (fresh[nb.RNG0:nb.PAR0] == reused[nb.RNG0:nb.PAR0]).all()
        nb.play_out(fresh)
        nb.play_out(reused)  # played on from a state another rollout has been through
        assert (fresh[:nb.OBS0] == reused[:nb.OBS0]).all()
        assert nb.hand_value(fresh, me, zeros) == nb.hand_value(reused, me, zeros)
