"""expert (issue 23): reproducible, legal in every preset, its parameters parsed, its 3s
bias obeyed, stronger than random; its cutoff fit, `crates ladder` and `compare --cost`."""

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

from crates_sim import CratesError, Rules
from crates_sim.cards import PH_AGAIN, PH_COUNT, PH_PLAY
from crates_sim.cli.main import cli
from crates_sim.engine import engine_nb as E
from crates_sim.engine.api import run_games
from crates_sim.play.step import Table
from crates_sim.strategy import BUILTINS, parse_spec, resolve

FAST = "expert:samples=3"


def test_parameters_are_declared_and_checked():
    name, values = parse_spec("expert:samples=8:temp=0.25:depth=6:value=0:three=-40")
    assert name == "expert" and values == {"samples": 8, "temp": 0.25, "depth": 6, "value": 0,
                                           "three": -40}
    _ids, params = resolve(["expert"])
    defaults = [p.default for p in BUILTINS["expert"][2].values()]
    assert params[0, :len(defaults)].tolist() == defaults
    for bad in ("expert:samples=0", "expert:temp=-1", "expert:value=2", "expert:samples=2.5",
                "expert:depth=x", "expert:lead=1"):
        with pytest.raises(CratesError):
            parse_spec(bad)


def test_games_are_reproducible_whatever_the_chunking():
    rules = Rules.preset("classic", 4)
    specs = [FAST, "greedy", FAST, "tuned"]
    a = run_games(rules, specs, 4, 0, 3, detail="games")
    b = run_games(rules, specs, 4, 1, 2, detail="games")
    assert a.games["total"][4:].tolist() == b.games["total"].tolist()
    assert run_games(rules, specs, 4, 0, 3, detail="games").games["total"].tolist() == \
        a.games["total"].tolist()


@pytest.mark.parametrize("preset,players", [("classic", 4), ("league", 3), ("serbian", 4),
                                            ("crazy-eights", 4), ("very-crazy-eights", 3)])
def test_expert_plays_legally_in_every_preset(preset, players):
    # an illegal pick stops the run with an error; deep, uncut, cold and dumping variants
    specs = [FAST, "random", "expert:samples=2:temp=0:depth=0:three=-20", "greedy"][:players]
    res = run_games(Rules.preset(preset, players), specs, 8, 0, 2)
    assert res.capped_hands == 0


def test_three_bias_dumps_or_keeps_threes():
    table = Table(Rules.preset("classic", 4), [None, "greedy", "greedy", "greedy"], 3, 0)
    dumped = kept = 0
    while table.pending is not None and dumped < 3:
        d = table.pending
        threes = [o for o in d.options if o < 52 and o // 4 == 2]
        if d.phase in (PH_PLAY, PH_COUNT, PH_AGAIN) and threes and len(threes) < len(d.options):
            assert table.hint("expert:samples=2:three=-1000") in threes
            assert table.hint("expert:samples=2:three=1000") not in threes
            dumped += 1
            kept += 1
        table.act(table.hint("greedy"))
    assert dumped >= 1 and kept == dumped


def test_hints_value_every_option():
    table = Table(Rules.preset("crazy-eights", 3), [None, "greedy", "greedy"], 7, 0)
    seen = 0
    while table.pending is not None and seen < 3:
        d = table.pending
        if d.phase in (PH_PLAY, PH_COUNT, PH_AGAIN) and len(d.options) > 1:
            values = table.hint_values(FAST)
            assert set(values) == set(d.options) and all(math.isfinite(v) for v in values.values())
            best = max(values, key=values.get)
            assert table.hint(FAST) == best
            seen += 1
        table.act(table.hint("greedy"))
    assert seen == 3


def test_the_learned_cutoff_changes_crazy_eights_play():
    rules = Rules.preset("crazy-eights", 4)
    cut = run_games(rules, ["expert:samples=4", "greedy"] * 2, 2, 0, 2, detail="games")
    uncut = run_games(rules, ["expert:samples=4:value=0", "greedy"] * 2, 2, 0, 2, detail="games")
    assert cut.turns != uncut.turns or cut.games["total"].tolist() != uncut.games["total"].tolist()


def test_expert_beats_random():
    # partnerships, 12 games (much luck: greedy wins 10 of these): expert's team scores
    # lower (better) than random's in most, and fewer points on average
    res = run_games(Rules.preset("classic", 4), [FAST, "random"] * 2, 11, 0, 12, detail="games")
    totals = np.asarray(res.games["total"]).reshape(12, 4)
    assert (totals[:, 0] < totals[:, 1]).sum() >= 8
    assert totals[:, 0].mean() < totals[:, 1].mean() - 200


def test_the_cutoff_fit_learns_from_engine_positions(tmp_path):
    from crates_sim.strategies import expert_fit

    X, y = expert_fit.samples(Rules.preset("classic", 4), 30, 1, 4)
    assert X.shape == (30, E.N_CUT_FEATURES) and y.shape == (30,) and (X[:, 0] == 1).all()
    assert np.isfinite(X).all() and np.isfinite(y).all()
    src = tmp_path / "expert.py"
    src.write_text("a = 1\n# BEGIN VALUE\nVALUE_CRATES = (0.0,)\n# END VALUE\nb = 2\n")
    expert_fit.write(src, [1.5] * 12, [-2.0] * 12)
    ns = {}
    exec(src.read_text(), ns)
    assert ns["VALUE_CRATES"] == (1.5,) * 12 and ns["VALUE_EIGHTS"] == (-2.0,) * 12 and ns["b"] == 2


def test_ladder_and_compare_cost(tmp_path):
    runner = CliRunner()
    res = runner.invoke(cli, ["ladder", "-p", "crazy-eights", "-n", "3", "--rungs", "1",
                              "--games", "2", "--workers", "1", "--out", str(tmp_path / "l")])
    assert res.exit_code == 0, res.output
    assert "rungs winning >= 55%" in res.output
    data = json.loads((tmp_path / "l" / "ladder.json").read_text())
    assert data["rungs"][0]["upper"] == "expert:samples=2" and 0 <= data["rungs"][0]["share"] <= 1
    res = runner.invoke(cli, ["compare", "--no-partnerships", "--strategies", "greedy,random",
                              "--games", "2", "--workers", "1", "--cost", "1",
                              "--out", str(tmp_path / "c")])
    assert res.exit_code == 0, res.output
    costs = json.loads((tmp_path / "c" / "compare.json").read_text())["cost_us_per_turn"]
    assert set(costs) == {"greedy", "random"} and all(v > 0 for v in costs.values())
    res = runner.invoke(cli, ["ladder", "--rungs", "0", "--out", str(tmp_path / "m")])
    assert res.exit_code != 0 and "rungs" in res.output


def test_the_teacher_decides_from_a_plain_view():
    # expert_choice: the standard view plus the engine table, as a distilling module calls it
    from crates_sim.engine.api import engine_table
    from crates_sim.strategies.expert import expert_choice

    _ids, params = resolve(["expert:samples=4"])
    table = Table(Rules.preset("classic", 4), [None, "greedy", "greedy", "greedy"], 5, 0)
    seen = 0
    while table.pending is not None and seen < 5:
        d = table.pending
        options = np.array(d.options, dtype=np.int64)
        rng = np.array([7, 8, 9, seen], dtype=np.int64)
        k = expert_choice(params[0], d.obs, d.hand, d.pile, options, rng, engine_table())
        assert 0 <= k < len(options)
        again = expert_choice(params[0], d.obs, d.hand, d.pile, options,
                              np.array([7, 8, 9, seen], dtype=np.int64), engine_table())
        assert again == k  # the same stream, the same decision
        seen += 1
        table.act(d.options[k])
    assert seen == 5


def test_the_view_shows_a_call_until_the_caller_plays_again():
    # every seat stepped from outside, random choices: after a seat plays a wild and calls,
    # every view shows its call (1 + suit) and its hand's size then, until it plays again
    # (the wild is on the pile, with its call, after the caller's last-card announcement)
    from crates_sim import view
    from crates_sim.cards import (
        O_HAND,
        O_PER_SEAT,
        O_SEATS,
        OS_CALL_HAND,
        OS_CALLED,
        PH_ANNOUNCE,
        PH_CALL,
    )

    n = 4
    table = Table(Rules.preset("classic", n), [None] * n, 17, 0)
    gen = np.random.default_rng(3)
    expected = [(0, None)] * n
    wild_by = hand = -1
    calls = checked = 0
    while table.pending is not None and calls < 12:
        d = table.pending
        if d.obs[O_HAND] != hand:  # a new hand: no calls yet
            hand, expected, wild_by = d.obs[O_HAND], [(0, None)] * n, -1
        for q in range(n):
            if q == d.seat and d.phase == PH_ANNOUNCE:
                continue
            called, size = expected[q]
            assert d.obs[O_SEATS + q * O_PER_SEAT + OS_CALLED] == called
            assert view.called_suit(d.obs, q) == called - 1
            if called:
                assert d.obs[O_SEATS + q * O_PER_SEAT + OS_CALL_HAND] == size
                checked += 1
        option = int(d.options[gen.integers(len(d.options))])
        if d.phase == PH_CALL and wild_by == d.seat:
            expected[d.seat] = (option + 1, len(d.hand))
            calls += 1
        elif d.phase in (PH_PLAY, PH_COUNT, PH_AGAIN) and option < 52:
            expected[d.seat] = (0, None)
            wild_by = d.seat if view.is_wild(d.obs, option) else -1
        table.act(option)
    assert calls == 12 and checked > 30


def test_the_opponent_model_weighs_a_deal_by_the_call_seen():
    from crates_sim.cards import O_PER_SEAT, O_PLAYERS, O_SEATS, OS_CALL_HAND, OS_CALLED, OS_HAND_N
    from crates_sim.strategies.expert import call_likelihood

    obs = np.zeros(200, dtype=np.int64)
    obs[O_PLAYERS] = 3
    for q, (size, called, held) in enumerate([(5, 0, 0), (4, 1 + 2, 3), (3, 0, 0)]):
        obs[O_SEATS + q * O_PER_SEAT + OS_HAND_N] = size
        obs[O_SEATS + q * O_PER_SEAT + OS_CALLED] = called
        obs[O_SEATS + q * O_PER_SEAT + OS_CALL_HAND] = held
    # seat 0 decides; seat 1 called hearts (suit 2) holding 3 cards, then drew one
    hearts = np.array([2, 6, 10, 1, 3, 7, 11], dtype=np.int64)  # 3 hearts held, a diamond drawn
    clubs = np.array([0, 4, 8, 2, 3, 7, 11], dtype=np.int64)  # 3 clubs held, a heart drawn
    assert call_likelihood(obs, 0, hearts, 0.0) == pytest.approx(0.25)  # no model: uniform
    assert call_likelihood(obs, 0, hearts, 2.0) == pytest.approx(np.exp(6) / (np.exp(6) + 3))
    assert call_likelihood(obs, 0, clubs, 2.0) == pytest.approx(1 / (np.exp(6) + 3))
    assert call_likelihood(obs, 1, hearts, 2.0) == 1.0  # a seat's own call is no evidence
