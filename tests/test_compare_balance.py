"""`crates compare` and `crates balance`: designs, statistics, outputs and errors."""

import json
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner

import crates_sim.analysis.compare as compare_module
import crates_sim.engine.api as engine
from crates_sim.analysis.balance import balance, summary_lines
from crates_sim.analysis.blocks import labels_for, rotations
from crates_sim.analysis.compare import analyse, compare, pair_table, ranking_table
from crates_sim.analysis.render import Document
from crates_sim.cli.design import split_variants
from crates_sim.cli.main import cli
from crates_sim.errors import CratesError
from crates_sim.rules import Rules

sys.path.insert(0, str(Path(__file__).parent))
import fake_engine  # noqa: E402

INDIVIDUAL = Rules.preset("classic", 4, partnerships=False)
quiet = dict(workers=1, echo=lambda s: None)


@pytest.fixture
def fake(monkeypatch):
    monkeypatch.setattr(engine, "run_games", fake_engine.run_games)


def test_rotations_put_every_strategy_in_every_seat():
    plan = rotations(3, 4, False)
    for seat in range(4):
        assert sorted(r[seat] for r in plan) == [0, 1, 2]
    team = rotations(2, 4, True)
    assert team == [[0, 1, 0, 1], [1, 0, 1, 0]]  # each strategy plays both teams
    with pytest.raises(CratesError):
        rotations(3, 4, True)
    with pytest.raises(CratesError):
        rotations(5, 4, False)
    assert labels_for(["greedy", "greedy", "random"]) == ["greedy#1", "greedy#2", "random"]


def test_identical_strategies_differ_significantly_at_the_expected_rate(fake, tmp_path, monkeypatch):
    # "greedy" and "greedy:copy" play identically in the fake engine, with independent noise.
    # The rate is the statistics' (compare.analyse), so the 30 runs skip writing their pages:
    # the figures were nine tenths of this test's time; the tests below check the page.
    monkeypatch.setattr(compare_module, "document", lambda *a, **k: Document("not written"))
    monkeypatch.setattr(Document, "write", lambda self, path: {})
    significant = 0
    runs = 30
    for seed in range(runs):
        res = compare(INDIVIDUAL, ["greedy", "greedy:copy"], 60, seed, tmp_path / f"c{seed}", **quiet)
        significant += bool(res["pairs"]["significant"].iloc[0])
    assert significant <= 6  # 5% expected: 1.5 of 30; 7 or more has probability < 0.2%


def test_compare_finds_the_better_strategy_and_measures_the_design(fake, tmp_path):
    res = compare(INDIVIDUAL, ["greedy", "random"], 400, 1, tmp_path / "gr", **quiet)
    pair = res["pairs"].iloc[0]
    assert pair["significant"] and pair["win_lo"] > 0 and pair["better"] == "greedy"
    assert pair["score_lo"] < -30 < pair["score_hi"]  # the fake skill is 30 points per game
    assert list(res["ranking"]["strategy"]) == ["greedy", "random"]
    ratio = res["design"]["ratio"]
    assert ratio.lo > 2  # the deal's luck (sd 60 per hand) cancels in the duplicate design
    out = tmp_path / "gr"
    for name in ("compare.html", "compare.md", "pairs.csv", "ranking.csv", "compare.json", "per_deal.parquet",
                 "compare-pairs.png", "compare-ranking.png", "compare-design.png", "results/manifest.json"):
        assert (out / name).exists(), name
    assert list((out / "results" / "games").glob("*.parquet"))
    summary = json.loads((out / "compare.json").read_text())
    assert summary["games"] == 400 and summary["variance_ratio"]["estimate"] > 2


def heavy_tailed_deals(deals=3000, seed=11):
    """Per-deal results of 'steady' against 'swing' (2 entries, 1 rotation): steady wins 56%
    of the deals by a few points, and loses the rest by a few, but 1 deal in 200 hands it
    a pressure-heavy total (+/-5000 points, either sign), which swamps the mean score."""
    rng = np.random.default_rng(seed)
    steady_wins = rng.random(deals) < 0.56
    diff = np.where(steady_wins, -5.0, 5.0) + rng.normal(0, 1, deals)
    diff += np.where(rng.random(deals) < 0.005, rng.choice([-5000.0, 5000.0], deals), 0.0)
    rows = []
    for g in range(deals):
        rows += [{"game": g, "rotation": 0, "entry": 0, "score": 100 + diff[g], "win": float(diff[g] < 0)},
                 {"game": g, "rotation": 0, "entry": 1, "score": 100.0, "win": float(diff[g] >= 0)}]
    return pl.DataFrame(rows)


def test_ranking_and_significance_follow_the_win_rate_not_the_heavy_tailed_mean():
    # issue 32 §2: a clear win-rate difference read "significant: no" with no better strategy,
    # because the significance and the ranking followed the mean score
    res = analyse(heavy_tailed_deals(), ["swing", "steady"], lower_is_better=True)
    pair = res["pairs"].iloc[0]
    assert pair["win_lo"] > 0.05 and not pair["score_significant"]  # the case the test is about
    assert pair["significant"] and pair["better"] == "swing"
    assert list(res["ranking"]["strategy"]) == ["swing", "steady"]
    table = pair_table(res["pairs"])
    assert list(table.columns[:4]) == ["pair (a − b)", "win-rate difference (95% CI)", "significant (win rate)",
                                       "better"]
    assert table.iloc[0]["significant (win rate)"] == "yes"
    assert any("heavy-tailed" in c for c in table.columns)
    shown = ranking_table(res["ranking"])
    assert shown.columns[2] == "win share (95% CI)" and any("heavy-tailed" in c for c in shown.columns)


def test_precision_adds_games_until_reached(fake, tmp_path):
    res = compare(INDIVIDUAL, ["greedy", "random"], 40, 2, tmp_path / "p", precision=8.0, **quiet)
    assert res["reached"] and res["games"] > 40
    assert res["pairs"]["half_width"].max() < 8.0
    capped = compare(INDIVIDUAL, ["greedy", "random"], 40, 2, tmp_path / "q", precision=0.01, max_games=90, **quiet)
    assert capped["games"] == 90 and not capped["reached"]


def test_partnership_compare_runs_teams(fake, tmp_path):
    res = compare(Rules.preset("classic", 4), ["greedy", "random"], 50, 3, tmp_path / "t", **quiet)
    assert res["rotations"] == 2 and res["pairs"].iloc[0]["better"] in ("greedy", "–")


def test_compare_refuses_to_mix_results(fake, tmp_path):
    compare(INDIVIDUAL, ["greedy", "random"], 10, 1, tmp_path / "x", **quiet)
    with pytest.raises(CratesError, match="already holds"):
        compare(INDIVIDUAL, ["greedy", "random"], 10, 1, tmp_path / "x", **quiet)


def test_balance_identical_variants_agree_within_cis(fake, tmp_path):
    res = balance(["classic", "classic"], 4, "greedy,random", 60, 1, tmp_path / "b", **quiet)
    diffs = res["differences"]
    assert len(diffs) > 10
    ci = diffs[diffs["lo"].notna()]  # the tail shares are flags, without a CI
    assert ((ci["lo"] <= 0) & (ci["hi"] >= 0)).all()
    assert summary_lines(diffs)[0].startswith("No measure differs detectably between the variants")
    measures = set(res["measures"]["measure"])
    assert {"seat_win", "pos_points", "first_player", "pressures", "turns", "ends", "spread", "luck"} <= measures
    html = (tmp_path / "b" / "balance.html").read_text()
    for key in ("seat-win", "pos-points", "first-player", "pressures", "turns", "ends", "spread", "luck"):
        assert f"id='fig-{key}'" in html
    # in the fake engine the cards dealt to a seat explain ~90% of its score's variance
    luck = res["measures"][res["measures"]["measure"] == "luck"].set_index(["variant", "group"])["est"]
    assert luck[("classic#1", "deal")] > 0.6
    assert luck[("classic#1", "strategy")] < 0.05


def test_split_variants():
    assert split_variants("classic,league,classic:seven_target=next,out_rule=immediate,serbian") == [
        "classic", "league", "classic:seven_target=next,out_rule=immediate", "serbian"]


def test_cli_errors_are_one_line(tmp_path):
    runner = CliRunner()
    cases = [
        ["compare", "--strategies", "greedy", "--out", str(tmp_path / "a")],
        ["compare", "--strategies", "greedy,nosuch", "--out", str(tmp_path / "a")],
        ["compare", "--strategies", "greedy,random,greedy", "--out", str(tmp_path / "a")],
        ["compare", "--strategies", "greedy,random", "--games", "0", "--out", str(tmp_path / "a")],
        ["balance", "--variants", "classic,nosuch", "--out", str(tmp_path / "b")],
        ["balance", "--variants", "classic:seven_target=sideways", "--out", str(tmp_path / "b")],
        ["balance", "--variants", "classic", "--strategies", "greedy,random,random", "--out", str(tmp_path / "b")],
    ]
    for args in cases:
        res = runner.invoke(cli, args)
        assert res.exit_code != 0, args
        lines = [ln for ln in res.output.splitlines() if ln.strip()]
        assert len(lines) == 1 and lines[0].startswith("Error"), (args, res.output)


def test_real_engine_compare_and_balance(tmp_path):
    runner = CliRunner()
    res = runner.invoke(cli, ["compare", "--strategies", "greedy,random", "--games", "60", "--seed", "1",
                              "--out", str(tmp_path / "c"), "--workers", "1"])
    assert res.exit_code == 0, res.output
    assert "ranking:" in res.output and (tmp_path / "c" / "compare.html").exists()
    res = runner.invoke(cli, ["balance", "--variants", "classic,league", "--games", "40", "--seed", "1",
                              "--out", str(tmp_path / "b"), "--workers", "1"])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "b" / "balance.html").exists()
    # each variant is a dataset that `crates report` can read
    res = runner.invoke(cli, ["report", str(tmp_path / "b" / "variants" / "league")])
    assert res.exit_code == 0, res.output


# ------------------------------------------------------------------ balance: the rows of issue 12
def one_line_refusal(args, out):
    res = CliRunner().invoke(cli, args)
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert res.exit_code == 2, (args, res.output)
    assert len(lines) == 1 and lines[0].startswith("Error: "), (args, res.output)
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert not Path(out).exists(), "nothing is written on refusal"
    return lines[0]


def test_balance_refuses_to_mix_lower_wins_and_higher_wins_families(fake, tmp_path):
    out = tmp_path / "mixed"
    line = one_line_refusal(["balance", "--variants", "classic,crazy-eights", "--out", str(out)], out)
    assert "classic is Crates, lower scores win" in line and "crazy-eights is Crazy Eights, higher scores win" in line
    line = one_line_refusal(["balance", "--variants", "crazy-eights,league,serbian", "--players", "4",
                             "--out", str(out)], out)
    assert "mixes game families" in line
    with pytest.raises(CratesError, match="mixes game families"):
        balance(["very-crazy-eights", "serbian"], 4, "greedy", 10, 1, out, **quiet)
    assert not out.exists()


def test_balance_refuses_a_single_variant(fake, tmp_path):
    out = tmp_path / "one"
    line = one_line_refusal(["balance", "--variants", "classic", "--out", str(out)], out)
    assert "nothing to compare" in line and "crates report" in line
    line = one_line_refusal(["balance", "--variants", "classic:seven_target=next,out_rule=immediate",
                             "--out", str(out)], out)
    assert "nothing to compare" in line


def test_balance_one_strategy_plays_every_seat_of_a_partnership_preset(fake, tmp_path):
    out = tmp_path / "greedy"
    res = CliRunner().invoke(cli, ["balance", "--variants", "classic,league", "--strategies", "greedy",
                                   "--games", "30", "--seed", "2", "--out", str(out), "--workers", "1"])
    assert res.exit_code == 0, res.output
    assert Rules.preset("classic", 4).partnerships  # the preset is a partnership game
    for name in ("classic", "league"):
        m = json.loads((out / "variants" / name / "manifest.json").read_text())
        assert m["made_by"] == "balance" and m["partnerships"] == Rules.preset(name, 4).partnerships
        assert m["entries"] == ["greedy"] and m["rotations"] == [["greedy"] * 4]
        games = pl.read_parquet(out / "variants" / name / "games" / "*.parquet")
        assert set(games["strategy"].cast(pl.String)) == {"greedy"} and len(games) == 30 * 4
    assert "greedy at every seat" in (out / "balance.html").read_text()
    # the same partnership preset, one spec per seat
    out = tmp_path / "per-seat"
    res = CliRunner().invoke(cli, ["balance", "--variants", "classic,league", "--strategies",
                                   "greedy,greedy,random,random", "--games", "20", "--out", str(out),
                                   "--workers", "1"])
    assert res.exit_code == 0, res.output
    m = json.loads((out / "variants" / "classic" / "manifest.json").read_text())
    assert m["strategies"] == ["greedy", "greedy", "random", "random"] and m["entries"] == ["greedy", "random"]
    assert len(m["rotations"]) == 4
    for seat in range(4):  # every strategy plays from every seat equally often
        assert sorted(r[seat] for r in m["rotations"]) == ["greedy", "greedy", "random", "random"]
    hands = pl.read_parquet(out / "variants" / "classic" / "hands" / "*.parquet")
    per_seat = hands.group_by("seat", pl.col("strategy").cast(pl.String)).len()
    assert per_seat["len"].n_unique() == 1 and len(per_seat) == 8


def test_balance_per_seat_list_as_simulate_takes_it(fake, tmp_path):
    res = balance(["classic:partnerships=false", "league"], 4, "greedy,random,hoard3,dump3", 20, 3,
                  tmp_path / "b", **quiet)
    assert res["strategies"] == ["greedy", "random", "hoard3", "dump3"]
    m = json.loads((tmp_path / "b" / "variants" / "league" / "manifest.json").read_text())
    assert m["rotations"][0] == ["greedy", "random", "hoard3", "dump3"] and len(m["rotations"]) == 4
    with pytest.raises(CratesError, match="give one \\(every seat\\), two \\(one per team\\) or 4"):
        balance(["classic", "league"], 4, "greedy,random,hoard3", 20, 3, tmp_path / "c", **quiet)
    assert not (tmp_path / "c").exists()


def test_compare_reports_the_robust_and_win_measures(fake, tmp_path):
    res = compare(INDIVIDUAL, ["greedy", "random"], 120, 2, tmp_path / "rb", **quiet)
    pair = res["pairs"].iloc[0]
    assert pair["robust_lo"] <= pair["robust_diff"] <= pair["robust_hi"] < 0  # greedy scores lower
    assert pair["win_lo"] <= pair["win_diff"] <= pair["win_hi"]
    csv = (tmp_path / "rb" / "pairs.csv").read_text().splitlines()[0].split(",")
    assert {"robust_diff", "robust_lo", "robust_hi", "win_diff", "win_lo", "win_hi"} <= set(csv)
    md = (tmp_path / "rb" / "compare.md").read_text()
    assert "robust score difference (10% trimmed mean" in md and "Headline: the win-rate difference" in md
    saved = json.loads((tmp_path / "rb" / "compare.json").read_text())["pairs"][0]
    assert saved["robust_diff"] == pytest.approx(pair["robust_diff"])
    again = compare(INDIVIDUAL, ["greedy", "random"], 120, 2, tmp_path / "rb2", **quiet)
    assert again["pairs"].iloc[0]["robust_lo"] == pair["robust_lo"]  # the bootstrap is seeded


def test_balance_summary_reads_for_a_person():
    # issue 32 §5: "lead changes (part per_hand) is higher ..." read like internal names
    from crates_sim.analysis.balance import MEASURES, PLAIN

    rows = [{"variant": "league", "baseline": "classic", "measure": m, "group": g, "diff": 0.2, "lo": 0.1,
             "hi": 0.3, "se": 0.05, "z": 4.0}
            for m, g in [("lead_changes", "per_hand"), ("seat_win", "2"), ("pos_points", "0"), ("duration", "turns_sd"),
                         ("skill_gap", "random"), ("luck", "deal"), ("ends", "cap"), ("first_player", "")]]
    lines = summary_lines(pl.DataFrame(rows).to_pandas(), top=20)
    assert len(lines) == len(rows)
    for line in lines:
        assert "_" not in line and "part " not in line and "(95% CI)" in line, line
    assert "the chance that the lead changes after a hand is higher than under classic" in lines[0]
    assert "seat 2's share of the wins" in lines[1] and "percentage points" in lines[1]
    # every measure balance reports has a plain name
    assert {m for m, _ in PLAIN} >= set(MEASURES)


# ------------------------------------------------------------------ issue 39 §3: multiple comparisons
def test_balance_claims_hold_a_false_discovery_rate_on_a_null_variant():
    """classic against classic:first_dealer=random: the games differ, the measures should not.
    A 95% CI that misses 0 somewhere among ~27 measures happens on most seeds (11 of these 20);
    claims under Benjamini–Hochberg (and with tail-decided measures flagged, not tested) on at
    most 2 of 20 (1 measured). In memory, greedy at every seat, 200 deals: ~9 s on 2 cores."""
    import pandas as pd

    from crates_sim.analysis.balance import differences, measure, tested_count
    from crates_sim.analysis.design import trial_data
    from crates_sim.runs.runner import InlineBackend

    seeds, games, claims = 20, 200, 0
    for seed in range(seeds):
        rows = []
        for label, spec in (("classic", "classic"), ("random dealer", "classic:first_dealer=random")):
            D = trial_data(Rules.from_spec(spec, 4), ["greedy"], seed, games, InlineBackend())
            rows += [{"variant": label, **m.__dict__} for m in measure(D)]
        diffs = differences(pd.DataFrame(rows), ["classic", "random dealer"])
        assert tested_count(diffs) >= 20
        claims += bool(diffs["claimed"].any())
        lines = summary_lines(diffs)
        assert (lines[0].startswith("No measure differs detectably")) == (not diffs["claimed"].any())
    assert claims <= 2, f"{claims} of {seeds} seeds claim a difference"


# ------------------------------------------------------------------ issue 39 §2, §6: one scale, human numbers, players
def test_pages_show_human_numbers_on_one_scale():
    from crates_sim.analysis.glossary import entry, shown
    from crates_sim.analysis.render import ci_human

    assert ci_human(2013.4, 1990.2, 2040.7, signed=True) == "+2,013 [+1,990, +2,041]"
    assert "e-" not in ci_human(-6.121093e-31, -1e-30, 1e-30, signed=True)
    assert ci_human(-1.1125e-02, -0.02, -0.002, signed=True) == "-0.0111 [-0.0200, -0.0020]"
    assert shown("skill_gap", "greedy", 48.1, 45.0, 51.2) == "48.1 [45.0, 51.2] points of win rate"
    assert shown("seat_win", "0", 0.251, 0.24, 0.262) == "25.1 [24.0, 26.2]% of games"
    assert shown("first_player", "", -0.012, -0.5, 0.4, diff=True).endswith("points a hand")
    assert "negative figure is an advantage" in entry("first_player", "").convention


def test_who_measured_skill_says_where_each_player_was_validated():
    from crates_sim.analysis.players import stronger_here, validation, who_measured

    classic, seven = Rules.preset("classic", 4), Rules.from_spec("classic:seven_target=next", 4)
    assert validation("tuned", classic).startswith("validated on this rule set")
    assert "changes seven_target" in validation("adept:net=3", seven)
    assert "league is not one of them" in validation("tuned", Rules.preset("league", 4))
    assert "fitted to no table" in validation("greedy", seven)
    lines = who_measured("tuned", ("greedy", "random"), {"classic": classic, "next": seven})
    assert len(lines) == 2 and lines[1].startswith("**next**: tuned: not validated")
    # the adept that reads the rules: its measured figure against expert where it was
    # measured (analysis/adept_measured.json), a warning where that figure is well below
    # expert, and says when a knob set is not one it was measured on
    serbian3 = validation("adept", Rules.preset("serbian", 3))
    assert serbian3.startswith("+4.7 [+1.0, +8.4] points of win rate against expert") and "seed 62910" in serbian3
    assert "understates" not in validation("adept", Rules.preset("crazy-eights", 3))
    drawing = Rules.from_spec("classic:draw_when_able=true", 4)
    shipped = validation("adept", drawing)  # with its draw bonus and its hoard there
    assert shipped.startswith("+95.1 [+93.8, +96.4]") and "seed 62040" in shipped
    assert "understates" not in shipped
    unhoarded = validation("adept:hoard=0", drawing)  # adept's games before the hoard
    assert unhoarded.startswith("+96.3 [+95.1, +97.5]") and "seed 62040" in unhoarded
    before = validation("adept:draw=0", drawing)  # adept's games before the bonus
    assert before.startswith("-18.8 [-23.1, -14.5]") and "understates what strong play gets" in before
    assert "--strong adept:stock=4" in before  # where the network alone loses most
    searched = validation("adept:stock=4:draw=0", drawing)
    assert searched.startswith("+3.8 [-0.5, +8.1]") and "seed 54951" in searched
    assert "understates" not in searched and "adept:stock=4:draw=0 searches" in searched
    # where the stock search cannot fire, adept:stock=4 plays adept's games: adept's figure
    assert validation("adept:stock=4", Rules.preset("serbian", 3)).startswith("+4.7 [+1.0, +8.4]")
    # two-player classic is above expert since the wide specialist: no warning there
    assert "understates" not in validation("adept:stock=4", Rules.preset("classic", 2))
    far = Rules.from_spec("classic:remove_ranks=QK", 4)  # -25.7, no draws at will
    assert "understates" in validation("adept:stock=4", far)
    assert "--strong adept:dry=4" in validation("adept:stock=4", far)
    # in Crazy Eights (no pressures) the search near the hand's end
    assert "--strong adept:search=2" in stronger_here("adept", Rules.preset("crazy-eights", 2))
    # and where the spec already searches near an empty stock
    assert "--strong adept:search=2" in stronger_here("adept:dry=4", far)
    assert "but not on this rule set" in validation("adept:temp=0", seven)
    assert "not on this rule set" in validation("adept", Rules.preset("classic", 4, partnerships=False,
                                                                   remove_ranks="QK"))
    assert "not on this rule set as adept:search=1" in validation("adept:search=1", seven)


def test_the_measured_adept_is_the_one_that_plays_those_games():
    """A spec that searches where it plays stands for itself in analysis/adept_measured.json;
    one whose search cannot fire on the rule set plays adept's games and reads adept's row."""
    from crates_sim.analysis.players import measured_spec

    at_will = Rules.from_spec("classic:draw_when_able=true", 4)
    assert measured_spec("adept:stock=4", Rules.preset("classic", 4)) == "adept"
    assert measured_spec("adept:stock=4", Rules.preset("crazy-eights", 4)) == "adept"
    assert measured_spec("adept:stock=4", at_will) == "adept:stock=4"
    assert measured_spec("adept:stock=4:samples=60:route=0", at_will) == "adept:stock=4"
    assert measured_spec("adept:samples=30:stock=4", at_will) == "adept:stock=4:samples=30"
    assert measured_spec("adept:search=2", Rules.preset("classic", 4)) == "adept:search=2"
    assert measured_spec("adept:temp=0", at_will) == "adept"
    # dry searches near an empty stock wherever Crates has one; Crazy Eights has no pressures
    assert measured_spec("adept:dry=4", Rules.preset("classic", 4)) == "adept:dry=4"
    assert measured_spec("adept:stock=4:dry=4", at_will) == "adept:stock=4:dry=4"
    assert measured_spec("adept:dry=4", Rules.preset("crazy-eights", 4)) == "adept"
    # a search that cannot fire is left out: stock=4:dry=4 plays dry=4's games without draws at will
    assert measured_spec("adept:stock=4:dry=4", Rules.preset("classic", 4)) == "adept:dry=4"
    assert measured_spec("adept:stock=4:dry=4:samples=30", Rules.preset("classic", 4)) \
        == "adept:dry=4:samples=30"
    assert measured_spec("adept:stock=4:dry=4", Rules.preset("crazy-eights", 4)) == "adept"
    # where the shipped adept searches the dry stock by a searched route (no card wild, no
    # draws at will), route=2 is the networks alone: a row of its own
    no_wild = Rules.preset("classic", 4, nine_wild=False, remove_ranks="8")
    assert measured_spec("adept", no_wild) == "adept"
    assert measured_spec("adept:route=2", no_wild) == "adept:route=2"
    assert measured_spec("adept:route=2", Rules.preset("classic", 4)) == "adept"
    # a searched route's settings spelt out are the shipped adept; other depths and margins
    # are named (adept:dry=2:samples=8:depth=6: the route of partnerships where only the 8s
    # are wild before it searched the close calls alone, with 12 deals)
    from crates_sim.strategies.adept import PARTNERS_EIGHTS_SEARCH, searched_route_of, searched_spec

    eights_only = Rules.preset("serbian", 4, nine_wild=False)
    assert measured_spec(searched_spec(PARTNERS_EIGHTS_SEARCH), eights_only) == "adept"
    assert measured_spec("adept:dry=2:samples=8:depth=6", eights_only) \
        == "adept:dry=2:samples=8:depth=6"
    two_at_will = Rules.preset("league", 2, nine_wild=False, draw_when_able=True)
    spelt = searched_spec(searched_route_of(two_at_will))
    assert measured_spec(spelt, two_at_will) == "adept"
    # route=2 drops the draw bonus there: not the shipped adept's games
    assert measured_spec(spelt + ":route=2", two_at_will) != "adept"
    assert measured_spec("adept:dry=2:samples=12:depth=6:margin=8:route=0", eights_only) \
        == "adept:dry=2:samples=12:depth=6:margin=8"
    assert measured_spec("adept:dry=3:samples=8:depth=6", no_wild) == "adept"
    # the pressure war (war) follows the draw bonus: named where it changes adept's games
    assert measured_spec("adept:war=0", at_will) == "adept:war=0"
    assert measured_spec("adept:war=10", at_will) == "adept"
    assert measured_spec("adept:war=0", Rules.preset("classic", 4)) == "adept"
    assert measured_spec("adept:draw=0:war=0", at_will) == "adept:draw=0"
    assert measured_spec("adept:draw=0:war=10", at_will) == "adept:draw=0:war=10"
    assert measured_spec("adept:stock=4:war=0", at_will) == "adept:stock=4:war=0"
    # the hoard (hoard) fires with 3 players or more where the draw bonus plays
    three = Rules.preset("classic", 3, draw_when_able=True)
    assert measured_spec("adept:hoard=0", three) == "adept:hoard=0"
    assert measured_spec("adept:hoard=4", three) == "adept"
    assert measured_spec("adept:war=0:hoard=0", three) == "adept:war=0:hoard=0"
    assert measured_spec("adept:draw=0:hoard=0", three) == "adept:draw=0"
    assert measured_spec("adept:hoard=0", Rules.preset("classic", 2, draw_when_able=True)) == "adept"
    assert measured_spec("adept:hoard=0", Rules.preset("classic", 4)) == "adept"
    # with 5 players the shipped bonus is 10 (DRAW_AT_WILL_BONUS_FIVE): 25 is a row of its own
    five = Rules.preset("classic", 5, draw_when_able=True)
    assert measured_spec("adept:draw=10", five) == "adept"
    assert measured_spec("adept:draw=25", five) == "adept:draw=25"
    assert measured_spec("adept:draw=25:hoard=0", five) == "adept:draw=25:hoard=0"
    assert measured_spec("adept:draw=25", three) == "adept"
    # with partners at will, route=2 is neither the shipped adept (it hoards) nor hoard=0
    # (which searches by the route): a row of its own
    assert measured_spec("adept:route=2", at_will) == "adept:route=2"
    assert measured_spec("adept:hoard=0", at_will) == "adept:hoard=0"


def test_adept_is_held_to_its_own_networks_where_it_searches_one_rule_set_and_not_another():
    from crates_sim.analysis.players import held_across
    from crates_sim.strategies.adept import route_of

    # two two-player Crates rule sets that play the same networks (set 23), one searched
    # (no wild card), the other not (draws at will, the 8s and 9s wild)
    searched = Rules.preset("classic", 2, nine_wild=False, remove_ranks="8")
    not_searched = Rules.preset("classic", 2, spare_three=5, draw_when_able=True)
    assert route_of(searched) == route_of(not_searched)
    assert held_across("adept", [searched, not_searched]) == "adept:route=0"
    assert held_across("adept", [searched, searched]) == "adept"
    from crates_sim.analysis.players import validation

    assert "adept:dry=3:samples=8:depth=6" in validation("adept", searched)
    assert "the networks alone" in validation("adept:route=2", searched)
    assert "dry=3" not in validation("adept", not_searched)
