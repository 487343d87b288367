"""The `thumb` player (greedy plus the rules of thumb from expert's play) and the analysis
that drew them (crates_sim.analysis.thumb): issue 31 part 3."""

import numpy as np
import pytest

from crates_sim import cards as C
from crates_sim.engine.api import run_games
from crates_sim.rules import Rules
from crates_sim.strategies.thumb import RULES, thumb_nb
from crates_sim.strategy import BUILTINS, EXTERNAL, resolve

OFF = "thumb:wild=0:six=0:suit=0:hit=0"


# ---------------------------------------------------------------- whole games
@pytest.mark.parametrize("preset,players,overrides", [
    ("classic", 4, {}), ("classic", 4, {"partnerships": False}), ("league", 3, {}),
    ("serbian", 2, {}), ("crazy-eights", 4, {}), ("very-crazy-eights", 3, {})])
def test_legal_and_deterministic(preset, players, overrides):
    """Every rule combination plays only legal options (an illegal one stops the run) and
    the same games for the same seed."""
    rules = Rules.preset(preset, players, **overrides)
    specs = ["thumb", "greedy", "thumb:hit=1:forget=0.3", "thumb:wild=0:six=1:suit=0",
             "random"][:players]
    a = run_games(rules, specs, 41, 0, 80, detail="games")
    b = run_games(rules, specs, 41, 0, 80, detail="games")
    assert len(a.games["total"]) == 80 * players
    for key in a.games:
        np.testing.assert_array_equal(a.games[key], b.games[key])


def test_all_rules_off_is_greedy():
    """With every rule off thumb plays greedy's games; with them on it does not."""
    for partnerships in (True, False):
        rules = Rules.preset("classic", 4, partnerships=partnerships)
        off = run_games(rules, [OFF, "random", OFF, "random"], 5, 0, 60, detail="games")
        greedy = run_games(rules, ["greedy", "random", "greedy", "random"], 5, 0, 60,
                           detail="games")
        for key in off.games:
            if np.asarray(off.games[key]).dtype.kind in "biuf":  # not the strategy's name
                np.testing.assert_array_equal(off.games[key], greedy.games[key])
        on = run_games(rules, ["thumb", "random", "thumb", "random"], 5, 0, 60, detail="games")
        assert not np.array_equal(on.games["total"], greedy.games["total"])


def test_registered_and_called_by_address():
    assert "thumb" in BUILTINS and "thumb" in EXTERNAL
    params = BUILTINS["thumb"][2]
    assert list(params)[:4] == list(RULES) == ["wild", "six", "hit", "suit"]
    assert [params[r].default for r in RULES] == [1.0, 1.0, 0.0, 1.0]


# ---------------------------------------------------------------- rules on hand-made views
def _choose(spec, hand, options, suit="C", rank="K", sizes=None, partnerships=True):
    """The card thumb (`spec`) plays from a classic 4-player view: seat 0, partner 2 with
    partnerships, every seat on 5 cards unless `sizes`."""
    rules = Rules.preset("classic", 4, partnerships=partnerships)
    obs = np.zeros(C.OBS_LEN, dtype=np.int64)
    obs[C.O_RULES:C.O_RULES + C.RULES_LEN] = rules.to_array()
    obs[C.O_SEAT], obs[C.O_PLAYERS], obs[C.O_PARTNER] = 0, 4, 2 if partnerships else -1
    obs[C.O_DIR], obs[C.O_PHASE], obs[C.O_FAMILY] = 1, C.PH_PLAY, 0
    obs[C.O_SUIT], obs[C.O_RANK] = C.SUITS.index(suit), C.RANKS.index(rank)
    for q, n in enumerate(sizes or [len(hand), 5, 5, 5]):
        obs[C.O_SEATS + q * C.O_PER_SEAT + C.OS_HAND_N] = n
    h = np.array([C.parse_card(c) for c in hand], dtype=np.int64)
    o = np.array([C.parse_card(c) for c in options], dtype=np.int64)
    _ids, params = resolve([spec])
    rng = np.full(4, 0x1234567, dtype=np.int64)
    k = thumb_nb(params[0], obs, h, np.zeros(0, dtype=np.int64), o, rng)
    assert 0 <= k < len(o)
    return options[k]


def test_wild_rule_keeps_wilds_unless_an_opponent_is_on_one_card():
    hand = ["8H", "KC", "4C"]
    assert _choose(OFF, hand, hand) == "8H"  # greedy: the most points
    assert _choose("thumb:wild=1:six=0:suit=0", hand, hand) == "4C"
    # an opponent on one card: shed the wild's 50 points while you can
    assert _choose("thumb:wild=1:six=0:suit=0", hand, hand, sizes=[3, 1, 5, 5]) == "8H"
    # the partner on one card is no reason (partnerships)
    assert _choose("thumb:wild=1:six=0:suit=0", hand, hand, sizes=[3, 5, 1, 5]) == "4C"
    # a wild before a 3 or an ace, an 8 before a 9
    assert _choose("thumb:wild=1:six=0:suit=0", ["AC", "3C", "9D", "8H"],
                   ["AC", "3C", "9D", "8H"]) == "8H"
    assert _choose("thumb:wild=1:six=0:suit=0", ["AC", "3C", "9D"], ["AC", "3C", "9D"]) == "9D"


def test_six_rule_plays_a_six_it_can_follow():
    spec = "thumb:wild=0:six=1:suit=0"
    assert _choose(OFF, ["5C", "6C", "KC"], ["5C", "6C"]) == "5C"
    assert _choose(spec, ["5C", "6C", "KC"], ["5C", "6C"]) == "6C"
    assert _choose(spec, ["5C", "6C", "KC", "8S"], ["5C", "6C", "8S"]) == "6C"  # before a wild
    # a 6 with no card of its suit to follow (a wild does not count): no bonus
    assert _choose(spec, ["5D", "6C", "8C"], ["5D", "6C"]) == "5D"


def test_suit_rule_breaks_ties_in_the_suit_in_play():
    hand = ["KD", "QC", "4H"]
    assert _choose(OFF, hand, ["KD", "QC"]) == "KD"
    assert _choose("thumb:wild=0:six=0:suit=1", hand, ["KD", "QC"]) == "QC"
    # it only breaks ties: more points still win
    assert _choose("thumb:wild=0:six=0:suit=1", ["TD", "QC"], ["TD", "QC"]) == "TD"


def test_hit_rule_aims_at_opponents_in_partnerships_only():
    hand = ["7C", "4C", "KH"]
    assert _choose(OFF, hand, ["7C", "4C"]) == "7C"  # 20 points against 15
    # a 7 hits across (the partner), a 4 skips the next player (an opponent)
    assert _choose("thumb:wild=0:six=0:suit=0:hit=1", hand, ["7C", "4C"]) == "4C"
    assert _choose("thumb:wild=0:six=0:suit=0:hit=1", hand, ["7C", "4C"],
                   partnerships=False) == "7C"


# ---------------------------------------------------------------- the analysis
def _synthetic(n=1200, seed=3):
    """Decisions of three options (a wild, a tame card, a draw) where expert prefers the
    tame card unless an opponent is on one card; greedy always plays the wild."""
    from crates_sim.analysis import thumb as A

    opt, ctx = A._features()
    rng = np.random.default_rng(seed)
    rows = np.zeros((3 * n, len(opt)), np.float32)
    c = np.zeros((n, len(ctx)), np.float32)
    value = np.zeros(3 * n, np.float32)
    fewest = rng.integers(1, 6, n)
    c[:, ctx.index("min_opp_hand")] = fewest / 8.0
    c[:, ctx.index("hand")] = rng.integers(2, 9, n) / 8.0
    for d in range(n):
        w, t, a = 3 * d, 3 * d + 1, 3 * d + 2
        rows[w, opt.index("wild")] = 1
        rows[w, opt.index("value")] = 5.0
        rows[w, opt.index("highest_value")] = 1
        rows[t, opt.index("value")] = rng.integers(1, 4)
        rows[a, opt.index("action")] = 1
        good = w if fewest[d] == 1 else t
        value[[w, t, a]] = -10.0 + rng.normal(0, 0.1, 3)
        value[good] = 0.0
    decision = np.repeat(np.arange(n), 3)
    return A.from_arrays(c, rows, decision, value, np.arange(n), np.zeros(n, np.int8))


def test_rule_scores_and_fidelity_on_synthetic_decisions():
    from crates_sim.analysis import thumb as A

    data = _synthetic()
    greedy = A.fidelity(data, A.greedy_key(data))
    wild = A.fidelity(data, A.rule_scores(data, ("wild",), partnerships=False))
    assert 0.0 <= greedy["agreement"] < 0.5 and wild["agreement"] == 1.0
    assert wild["regret"] == pytest.approx(0.0, abs=1e-6) and greedy["regret"] > 5.0
    # no rules: greedy's choices
    np.testing.assert_array_equal(A.choose(data, A.rule_scores(data, ())),
                                  A.choose(data, A.greedy_key(data)))


def test_tree_fits_and_reports_its_rules():
    pytest.importorskip("sklearn")
    from crates_sim.analysis import thumb as A

    data = _synthetic()
    tree = A.fit_tree(data, depth=3, min_leaf=0.01)
    f = A.fidelity(data, A.tree_scores(tree, data))
    assert 0.0 <= f["agreement"] <= 1.0 and f["agreement"] > 0.9
    leaves = A.tree_rules(tree, data)
    assert leaves and all(0.0 <= leaf["p"] <= 1.0 for leaf in leaves)
    assert sum(leaf["share"] for leaf in leaves) == pytest.approx(1.0)
    words = " ".join(" and ".join(leaf["if"]) for leaf in leaves)
    assert "wild" in words or "opponent" in words
    assert "P " in A.render({"crates-individual": {
        "decisions": len(data), "held_out": int(A.held_out(data).sum()), "rules": leaves,
        "fidelity": {"tree": f}}})
