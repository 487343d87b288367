"""The rule designer's workbench (issue 24): the designer's measures on cases with known
answers, the engine's move counters, `crates balance --knobs` and `crates design`."""

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl
import pytest
from click.testing import CliRunner

import crates_sim.engine.api as engine
import crates_sim.engine.engine_nb as nb
from crates_sim.analysis import measures as ms
from crates_sim.analysis.data import Data, load
from crates_sim.analysis.design import Target, loss, parse_target
from crates_sim.analysis.knobs import knob_table, knob_values, knob_variants, marked, parse_knobs
from crates_sim.cli.main import cli
from crates_sim.errors import CratesError
from crates_sim.play.scenario import stacked_hand
from crates_sim.rules import Rules

sys.path.insert(0, str(Path(__file__).parent))
import synthetic  # noqa: E402


def by_key(rows):
    return {r["measure"] + (f".{r['group']}" if r["group"] else ""): r for r in rows}


# ------------------------------------------------------------------ the engine's counters
def test_a_stacked_hand_counts_moves_choices_and_options():
    # 3 players, upcard JC: seat 1 may play KC or AC (a choice of 2), then seat 2 (3C),
    # seat 0 (QC) and seat 1 (AC) have one legal card each: 4 moves, 1 choice, 5 options
    # (the last-card announcements are not moves)
    _, r = stacked_hand(Rules.preset("classic", 3), ["greedy"] * 3, [["6S", "QC"], ["KC", "AC"], ["3C", "5D"]], "JC")
    rows = r["rows"]
    assert (rows[:, nb.H_MOVES] == 4).all()
    assert (rows[:, nb.H_CHOICES] == 1).all()
    assert (rows[:, nb.H_OPTIONS] == 5).all()


def test_a_forced_draw_is_a_move_with_one_option():
    # 2 players, upcard 4H: seat 1 holds no heart, no 4 and no wild: a forced draw (one move,
    # one option, no choice); then seat 0 plays its only heart
    _, r = stacked_hand(Rules.preset("classic", 2), ["greedy"] * 2, [["5H"], ["KC"]], "4H", stock=["QS"])
    rows = r["rows"]
    assert rows[0, nb.H_MOVES] >= 2
    assert rows[0, nb.H_CHOICES] == 0
    assert rows[0, nb.H_OPTIONS] == rows[0, nb.H_MOVES]


@pytest.mark.parametrize("preset", ["classic", "crazy-eights", "league"])
def test_move_counters_are_consistent(preset):
    res = engine.run_games(Rules.preset(preset, 4), ["random", "greedy", "random", "greedy"], 3, 0, 30,
                           detail="hands")
    h = res.hands
    moves, choices, options, turns = (np.asarray(h[c], dtype=np.int64) for c in ("moves", "choices", "options",
                                                                                    "turns"))
    assert (moves > 0).all()
    assert (choices <= moves).all() and (moves <= turns).all()
    assert (options >= moves + choices).all()  # a choice has at least two options
    assert choices.sum() > 0


# ------------------------------------------------------------------ the game flow, by hand
def flow_data(points, pressure_points=None, lower_is_better=True):
    """A 2-player dataset from hand points (games x hands x 2)."""
    points = np.asarray(points)
    G, H, P = points.shape
    pp = np.zeros_like(points) if pressure_points is None else np.asarray(pressure_points)
    g, h, s = np.meshgrid(np.arange(G), np.arange(1, H + 1), np.arange(P), indexing="ij")
    hands = pl.DataFrame({"game": g.ravel(), "hand": h.ravel(), "seat": s.ravel(), "team": s.ravel(),
                          "points": points.ravel(), "pressure_points": pp.ravel(), "turns": np.full(g.size, 10),
                          "moves": np.full(g.size, 8), "choices": np.full(g.size, 2),
                          "options": np.full(g.size, 12)})
    totals = (points + pp).sum(axis=1)
    best = totals == (totals.min(axis=1, keepdims=True) if lower_is_better else totals.max(axis=1, keepdims=True))
    win = best / best.sum(axis=1, keepdims=True)
    games = pl.DataFrame({"game": np.repeat(np.arange(G), P), "seat": np.tile(np.arange(P), G),
                          "total": totals.ravel(), "win": win.ravel()})
    rules = Rules.preset("classic" if lower_is_better else "crazy-eights", 2)
    return Data(Path("."), {}, games.lazy(), hands.lazy(), 2, [], rules, rules.preset_name, [])


GAMES = [
    # running totals (10,0) (10,20) (10,25) (40,25): leaders 1,0,0,1 -> 2 changes; seat 1 wins,
    # leads for good only after hand 4, was 15 behind at worst and behind at mid-game
    [[10, 0], [0, 20], [0, 5], [30, 0]],
    # seat 0 leads from the first hand: no change, decisive after hand 1, no deficit
    [[0, 10], [0, 10], [5, 0], [0, 0]],
    # tied throughout: no leader, no winner
    [[10, 10], [0, 0], [0, 0], [0, 0]],
]


def test_game_flow_known_answers():
    D = flow_data(GAMES)
    m = by_key(ms.flow_measures(D))
    assert m["lead_changes.per_game"]["est"] == pytest.approx(2 / 3)
    assert m["lead_changes.per_hand"]["est"] == pytest.approx(2 / 9)
    assert m["decisive_hand.hand"]["est"] == pytest.approx((4 + 1) / 2)
    assert m["decisive_hand.share"]["est"] == pytest.approx((1 + 0.25) / 2)
    assert m["drama.points"]["est"] == pytest.approx(15 / 2)
    finals = np.array([[40, 25], [5, 20], [10, 10]], dtype=float)
    assert m["drama.share"]["est"] == pytest.approx(15 / finals.std() / 2)
    assert m["comeback"]["est"] == pytest.approx(0.5)
    # Crazy Eights: the highest total leads; the same points mirror the answers
    E = flow_data(-np.asarray(GAMES), lower_is_better=False)
    e = by_key(ms.flow_measures(E))
    for key in ("lead_changes.per_game", "decisive_hand.share", "drama.points", "comeback"):
        assert e[key]["est"] == pytest.approx(m[key]["est"])


def test_pressure_points_count_in_the_running_totals():
    # game 1 of GAMES with 20 pressure points to seat 0 in hand 2: totals (0,10) (20,20) (25,20)
    # (25,20): seat 0 leads, a tie (the lead stays), then seat 1 -> one change; seat 1 wins,
    # leading for good after hand 3
    pp = np.zeros((1, 4, 2), dtype=int)
    pp[0, 1, 0] = 20
    m = by_key(ms.flow_measures(flow_data([GAMES[1]], pp)))
    assert m["lead_changes.per_game"]["est"] == 1
    assert m["decisive_hand.hand"]["est"] == 3


def test_balance_decisions_and_duration_on_a_synthetic_dataset(tmp_path):
    path = synthetic.write_dataset(tmp_path / "s", games=400, players=4, partnerships=False, seat_win=(0, 0.7))
    D = load(path)
    m = by_key(ms.designer_measures(D, ideal=(1000, 1600)))
    # seat 0 wins 70% of the games, seat 1 the rest: balance = 1 - 0.7
    assert m["balance"]["est"] == pytest.approx(0.3)
    assert m["balance"]["lo"] < 0.3 < m["balance"]["hi"]
    assert m["decisions.share"]["est"] == pytest.approx(0.5)
    assert m["decisions.branching"]["est"] == pytest.approx(2.0)
    h = pl.read_parquet(path / "hands").filter(pl.col("seat") == 0)
    per_game = h.group_by("game").agg(pl.col("turns").sum())["turns"].to_numpy()
    assert m["duration.turns"]["est"] == pytest.approx(per_game.mean())
    assert m["duration.turns_sd"]["est"] == pytest.approx(per_game.std(), rel=0.01)
    assert m["duration.hands"]["est"] == 15 and m["duration.hands_sd"]["est"] == 0
    assert m["duration.in_band"]["est"] == pytest.approx(((per_game >= 1000) & (per_game <= 1600)).mean())


def test_parse_band():
    assert ms.parse_band("400..700") == (400, 700)
    assert ms.parse_band(None) is None
    for bad in ("700..400", "400", "a..b"):
        with pytest.raises(CratesError):
            ms.parse_band(bad)


def test_skill_gap_sees_greedy_beat_random():
    from crates_sim.runs.runner import InlineBackend

    rows = ms.skill_gap(Rules.preset("classic", 4, partnerships=False), "greedy", 300, 1, InlineBackend())
    assert [r["group"] for r in rows] == ["random"]
    assert rows[0]["lo"] > 10  # points of win rate


# ------------------------------------------------------------------ knobs
def test_knob_values_and_variants():
    assert knob_values("classic", "seven_target", 4) == ["next"]
    assert knob_values("classic", "last_card_penalty", 4) == ["forfeit", "immediate"]
    assert knob_values("classic", "partnerships", 4) == [False]
    assert 3 not in knob_values("classic", "spare_three", 4)
    every = [k for k, _ in parse_knobs("all", "classic")]
    assert "max_turns_per_hand" not in every and "seven_target" in every and "hand_size" not in every
    # partnerships do not exist for 3 players: skipped, not an error
    skipped = []
    plan = knob_variants("classic", parse_knobs("partnerships,spare_three=0|10", "classic"), 3, echo=skipped.append)
    assert [s for _, _, s in plan] == ["classic:spare_three=0", "classic:spare_three=10"]
    assert skipped and "partnerships" in skipped[0]
    for bad in ("nosuch", "hand_size", ""):
        with pytest.raises(CratesError):
            parse_knobs(bad, "classic")


def test_knob_table_marks_cis_that_exclude_zero():
    diffs = pd.DataFrame({"variant": ["v1", "v1", "v2"], "measure": ["turns", "seat_win", "balance"],
                          "group": ["", "0", ""], "diff": [1.0, 0.1, -0.2], "lo": [0.5, -0.1, -0.3],
                          "hi": [1.5, 0.3, -0.1]})
    t = knob_table(diffs, [("seven_target", "next", "s1"), ("spare_three", "0", "s2")], ["base", "v1", "v2"])
    assert list(t.columns) == ["knob", "value", "measure", "diff", "lo", "hi"]
    assert list(t["measure"]) == ["turns", "seat_win:0", "balance"]
    assert list(marked(t)) == [True, False, True]


def test_balance_knobs_cli_writes_the_table_and_heat_map(tmp_path):
    out = tmp_path / "k"
    res = CliRunner().invoke(cli, ["balance", "--knobs", "seven_target,spare_three=0", "--base", "classic",
                                   "--games", "30", "--skill-games", "0", "--seed", "1", "--workers", "1",
                                   "--ideal-turns", "500..1500", "--out", str(out)])
    assert res.exit_code == 0, res.output
    t = pd.read_csv(out / "knobs.csv")
    assert list(t.columns) == ["knob", "value", "measure", "diff", "lo", "hi", "p", "q", "claimed", "tail_decided"]
    assert set(zip(t["knob"], t["value"].astype(str), strict=True)) == {("seven_target", "next"), ("spare_three", "0")}
    for key in ("balance", "decisions:share", "lead_changes:per_game", "decisive_hand:share", "drama:points",
                "comeback", "duration:turns", "duration:in_band"):
        assert key in set(t["measure"]), key
    html = (out / "knobs.html").read_text()
    assert "fig-heatmap" in html and "detectable" in html and "Glossary" in html
    measures = pd.read_csv(out / "measures.csv")
    assert "skill_gap" not in set(measures["measure"])
    cmd = json.loads((out / "balance.json").read_text())["command"]
    assert "--knobs seven_target,spare_three=0 --preset classic" in cmd and "--variants" not in cmd


def test_balance_measures_skill_gap_with_a_given_strong_player(tmp_path):
    out = tmp_path / "b"
    res = CliRunner().invoke(cli, ["balance", "--variants", "classic,league", "--games", "20", "--skill-games", "40",
                                   "--strong", "greedy", "--seed", "1", "--workers", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    m = pd.read_csv(out / "measures.csv")
    sg = m[m["measure"] == "skill_gap"]
    assert list(sg["group"]) == ["random", "random"]
    assert "--strong greedy" in json.loads((out / "balance.json").read_text())["command"]


def test_balance_knobs_refusals(tmp_path):
    runner = CliRunner()
    for args in (["balance", "--knobs", "nosuch", "--out", str(tmp_path / "a")],
                 ["balance", "--knobs", "all", "--variants", "classic,league", "--out", str(tmp_path / "a")],
                 ["balance", "--out", str(tmp_path / "a")],
                 ["balance", "--variants", "classic,league", "--ideal-turns", "9..1", "--out", str(tmp_path / "a")]):
        res = runner.invoke(cli, args)
        assert res.exit_code == 2, (args, res.output)
        assert res.output.startswith("Error"), res.output
        assert not (tmp_path / "a").exists()


# ------------------------------------------------------------------ design
def test_parse_target_and_loss():
    t = parse_target("duration=600@2")
    assert (t.measure, t.group, t.goal, t.weight) == ("duration", "turns", "600", 2.0)
    assert parse_target("balance=max").name == "balance"
    assert parse_target("skill_gap.random=min").name == "skill_gap.random"
    for bad in ("nosuch=1", "balance", "balance=big", "balance=max@-1"):
        with pytest.raises(CratesError):
            parse_target(bad)
    targets = [Target("duration", "turns", "600", 1.0), Target("balance", "", "max", 2.0),
               Target("first_player", "", "0", 1.0)]
    base = {"duration.turns": 800, "balance": 0.9, "first_player": -1.0}
    est = {"duration.turns": 660, "balance": 0.95, "first_player": -0.5}
    assert loss(targets, est, base) == pytest.approx(60 / 600 - 2 * 0.95 / 0.9 + 0.5 / 1.0)


def test_design_resumes_from_its_checkpoint_and_writes_a_usable_best(tmp_path):
    out = tmp_path / "d"
    args = ["design", "--base", "classic", "--knobs", "seven_target,spare_three,out_rule", "--target",
            "first_player=0", "--target", "balance=max@0.5", "--games-per-trial", "24", "--validate-games", "24",
            "--seed", "2", "--workers", "1", "--out", str(out)]
    runner = CliRunner()
    res = runner.invoke(cli, [*args, "--budget", "3"])
    assert res.exit_code == 0, res.output
    assert "3 trials (3 run now, 0 done before)" in res.output
    first = pd.read_csv(out / "design.csv")
    assert list(first["trial"]) == [0, 1, 2] and first["spec"].iloc[0] == "classic"
    res = runner.invoke(cli, [*args, "--budget", "5"])
    assert res.exit_code == 0, res.output
    assert "5 trials (2 run now, 3 done before)" in res.output
    table = pd.read_csv(out / "design.csv")
    assert list(table["trial"]) == [0, 1, 2, 3, 4]
    pd.testing.assert_frame_equal(table.iloc[:3].drop(columns="seconds"), first.drop(columns="seconds"))
    best = (out / "best.txt").read_text().strip()
    assert best == table.loc[table["objective"].idxmin(), "spec"]
    Rules.from_spec(best, 4)
    assert (out / "design.html").exists() and (out / "validation.csv").exists()
    # simulate takes best.txt as a --preset
    res = runner.invoke(cli, ["simulate", "--preset", best, "--games", "4", "--workers", "1", "--quiet",
                              "--out", str(tmp_path / "sim")])
    assert res.exit_code == 0, res.output
    manifest = json.loads((tmp_path / "sim" / "manifest.json").read_text())
    assert manifest["rules_spec"] == best
    # another search in the same folder is refused
    res = runner.invoke(cli, [*args[:-2], "--target", "comeback=min", "--out", str(out)])
    assert res.exit_code == 2 and "different design" in res.output
