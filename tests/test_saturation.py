"""Totals that never wrap: points and totals are exact below the points ceiling (2**62),
the ceiling from where they would reach it, and winners are decided by the exact totals
(docs/rules.md, "Points past 64 bits")."""

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner
from log_check import check_log
from test_scenarios import run

from crates_sim.cards import POINTS_CEILING
from crates_sim.cli.main import cli
from crates_sim.engine.api import run_games, trace_game
from crates_sim.rules import Rules

CEIL = POINTS_CEILING


def test_the_ceiling_is_stated():
    assert CEIL == 2 ** 62 == 4611686018427387904


def test_the_issues_game_ends_with_both_totals_at_the_ceiling_and_the_right_winner():
    # seed 43672, game 8: 87 pressures for seat 0, 78 for seat 1. Before the ceiling the
    # totals wrapped to [-6917529027641081410, 8286623314361713401] and seat 0 "won".
    rules = Rules.preset("serbian", 2, draw_when_able=True)
    events = trace_game(rules, ["random", "random"], seed=43672, game=8)
    end = events[-1]
    assert end["totals"] == [CEIL, CEIL]
    pressures = [sum(1 for e in events if e["ev"] == "pressure" and e["seat"] == q) for q in (0, 1)]
    assert pressures == [87, 78]
    assert end["winners"] == [1]  # 5 (2**78 - 1) + ... < 5 (2**87 - 1) + ...
    check_log(events)  # every point and total as the exact integers say, winners included


@pytest.mark.parametrize("before, first, second, total", [
    # pressure counts just below the ceiling: 5 << 58 and 5 << 59 are exact, and so is
    # their sum (4,323,455,642,275,676,160 + 20 < 2**62)
    (58, 5 << 58, 5 << 59, 20 + (5 << 58) + (5 << 59)),
    # the 61st pressure would be 5 << 60 > 2**62: its points are the ceiling, and so is
    # the total
    (59, 5 << 59, CEIL, CEIL),
    (70, CEIL, CEIL, CEIL),
])
def test_pressure_points_at_the_boundary(before, first, second, total):
    # the stacked hand of test_scenarios.test_pressures_double_and_dead_hand: seat 0
    # takes two pressures (its `before`-th and next), then the hand is dead; QH scores 20
    b, r, events = run("classic", 2, [["QH"], ["2C"]], "KC", [], full_stock=False,
                       pressures=[before, 0])
    assert b == ["play 1 2C", f"pressure 0 {first}", "draw 0 KC count",
                 f"pressure 0 {second} dead", "end dead None"]
    assert r["points"] == [20, 0]
    assert r["totals"] == [total, 0]


@pytest.mark.parametrize("start, total", [
    (CEIL - 36, CEIL - 1),  # 5 + 10 + 20 more: exact, one below the ceiling
    (CEIL - 35, CEIL),  # reaches it
    (CEIL, CEIL),  # stays there (it absorbs)
])
def test_a_total_near_the_ceiling(start, total):
    b, r, _ = run("classic", 2, [["QH"], ["2C"]], "KC", [], full_stock=False,
                  totals=[start, 0])
    assert b[1] == "pressure 0 5" and r["totals"] == [total, 0]


def _draw_when_able_games(n_games):
    rules = Rules.preset("classic", 4, draw_when_able=True)
    return rules, run_games(rules, ["random"] * 4, seed=9, game_start=0, n_games=n_games)


def test_no_total_wraps_and_saturated_games_are_flagged():
    rules, res = _draw_when_able_games(60)
    g = res.games
    total, sat = np.asarray(g["total"]), np.asarray(g["saturated"])
    assert (total >= -10_000).all() and (total <= CEIL).all()
    per_game_sat = (total.reshape(-1, 4) >= CEIL).any(axis=1)
    assert per_game_sat.any()  # this knob runs the stock dry again and again
    assert (sat.reshape(-1, 4) == per_game_sat[:, None]).all()  # the flag: the whole game
    # one win per game; a total at the ceiling never beats one below it
    win = np.asarray(g["win"]).reshape(-1, 4)
    t = total.reshape(-1, 4)
    assert np.allclose(win[:, [0, 1]].sum(axis=1), 1.0)
    for i in range(t.shape[0]):
        if t[i].min() < CEIL:
            assert (win[i][t[i] >= CEIL] == 0).all()


def test_logs_of_saturated_games_check_out_exactly():
    rules, res = _draw_when_able_games(12)
    t = np.asarray(res.games["total"]).reshape(-1, 4)
    ranks = np.asarray(res.games["rank"]).reshape(-1, 4)
    both = [i for i in range(t.shape[0]) if (t[i] >= CEIL).all()]
    assert both, "no game with both teams at the ceiling"
    for i in both[:4]:
        events = trace_game(rules, ["random"] * 4, seed=9, game=i)
        check_log(events)  # winners by the exact totals
        winners = events[-1]["winners"]
        assert sorted(np.flatnonzero(ranks[i] == 1).tolist()) == winners


def test_simulate_and_report_show_the_saturated_games(tmp_path):
    out = tmp_path / "sat"
    runner = CliRunner()
    res = runner.invoke(cli, ["simulate", "--preset", "classic", "--players", "4", "--strategies",
                              "random", "--games", "200", "--seed", "9", "--set",
                              "draw_when_able=true", "--out", str(out), "--workers", "1"])
    assert res.exit_code == 0, res.output
    g = pl.read_parquet(out / "games")
    assert g["total"].min() >= -10_000
    k = g.filter(pl.col("saturated"))["game"].n_unique()
    assert 0 < k <= 200
    res = runner.invoke(cli, ["report", str(out), "--out", str(tmp_path / "r.html")])
    assert res.exit_code == 0, res.output
    html = (tmp_path / "r.html").read_text()
    assert f"points ceiling</b> (2^62, docs/rules.md): {k} of 200" in html


def test_balance_counts_the_saturated_games(tmp_path):
    res = CliRunner().invoke(cli, ["balance", "--variants", "classic,classic:draw_when_able=true",
                                   "--strategies", "random", "--games", "40", "--seed", "9",
                                   "--out", str(tmp_path / "bal")])
    assert res.exit_code == 0, res.output
    m = pl.read_csv(tmp_path / "bal" / "measures.csv")
    sat = m.filter(pl.col("measure") == "saturated")
    assert sat.height == 2
    shares = dict(zip(sat["variant"].to_list(), sat["est"].to_list(), strict=True))
    assert shares["classic"] == 0 and shares["classic:draw_when_able=True"] > 0
