"""`crates report`: every section and figure, detail=games datasets, CLI errors."""

import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from crates_sim.analysis.report import FIGURES, SECTIONS, report
from crates_sim.cli.main import cli

sys.path.insert(0, str(Path(__file__).parent))
from synthetic import write_dataset  # noqa: E402


def _check_complete(paths, folder: Path, stem="report"):
    html = paths["html"].read_text()
    for key in SECTIONS:
        assert f"<section id='{key}'>" in html
    for name in FIGURES:
        assert f"id='fig-{name}'" in html, name
        assert (folder / f"{stem}-{name}.png").stat().st_size > 1000
    assert "data:image/png;base64," in html
    md = paths["markdown"].read_text()
    assert html.index("<section id='summary'>") < html.index("<section id='overview'>")
    for title in ("Summary: the three questions", "Overview", "3-hoarding", "Pressures", "Seat effects", "Game flow"):
        assert f"## {title}" in md
    return html, md


@pytest.mark.figures
@pytest.mark.parametrize("partnerships", [True, False])
def test_synthetic_report_has_every_section_and_figure(tmp_path, partnerships):
    ds = write_dataset(tmp_path / "ds", games=120, partnerships=partnerships,
                       strategies=("hoard3", "dump3", "greedy", "random"), dead_hands=True)
    paths = report(ds)
    html, md = _check_complete(paths, ds)
    assert "cannot say whether keeping 3s pays" in md  # fixed seats: no verdict
    assert ("By team" in md) == partnerships
    # capped hands are shown although there are none
    assert re.search(r"\| cap \| 0 \| 0\.000%", md)
    assert "**Capped hands**: 0" in md


def test_detail_games_dataset_says_what_needs_hands(tmp_path):
    ds = write_dataset(tmp_path / "g", games=60, detail="games")
    paths = report(ds, tmp_path / "out" / "g.html")
    md = paths["markdown"].read_text()
    assert md.count("needs per-hand rows") >= 3
    assert "Capped and dead hands (always shown)" in md
    assert (tmp_path / "out" / "g-win-share.png").exists()


def test_cli_report_and_errors(tmp_path):
    runner = CliRunner()
    ds = write_dataset(tmp_path / "ds", games=40)
    res = runner.invoke(cli, ["report", str(ds), "--out", str(tmp_path / "r.html")])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "r.html").exists() and (tmp_path / "r.md").exists()
    for bad, msg in [(tmp_path / "missing", "no such directory"), (tmp_path, "not a crates-sim dataset"),
                     (tmp_path / "r.html", "is a file")]:
        res = runner.invoke(cli, ["report", str(bad)])
        assert res.exit_code != 0
        lines = [ln for ln in res.output.splitlines() if ln.strip()]
        assert len(lines) == 1 and msg in lines[0], res.output
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "manifest.json").write_text("{}")
    res = runner.invoke(cli, ["report", str(tmp_path / "empty")])
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert res.exit_code == 2 and len(lines) == 1 and "not a crates-sim dataset manifest" in lines[0], res.output


def test_help_has_examples():
    runner = CliRunner()
    for cmd in ("report", "compare", "balance"):
        res = runner.invoke(cli, [cmd, "--help"])
        assert res.exit_code == 0 and "Examples" in res.output


@pytest.mark.figures
def test_report_of_a_small_real_run(tmp_path):
    import crates_sim

    ds = crates_sim.simulate("classic", "greedy,random,greedy,random", games=150, seed=3,
                             out=tmp_path / "real", workers=1)
    paths = report(ds.path)
    html, md = _check_complete(paths, Path(ds.path))
    assert "Pressures per game" in md and "Best position" in md


def test_hand_cube_matches_direct_aggregation(tmp_path):
    import polars as pl

    from crates_sim.analysis.data import cluster_means, cube_means, hand_cube, load

    D = load(write_dataset(tmp_path / "ds", games=80, partnerships=False, strategies=("greedy", "random", "greedy", "random")))
    cube = hand_cube(D)
    for by in (["pos"], ["size", "seat"], ["strategy"]):
        a = cube_means(cube, {"points": "points", "out": "out"}, by=by)
        b = cluster_means(D.hands, {"points": pl.col("points"), "out": pl.col("out")}, by=by,
                          seat_strategy=D.seat_strategy)
        for col in ("points", "points_lo", "points_hi", "out", "out_hi"):
            assert a[col].to_numpy() == pytest.approx(b[col].to_numpy())
    turns = cube_means(cube, {"t": "turns"})["t"][0]
    direct = D.hands.filter(pl.col("seat") == 0).select(pl.col("turns").mean()).collect().item()
    assert turns == pytest.approx(direct)


def test_clipped_histogram_shows_the_tail_as_a_share():
    import numpy as np
    import polars as pl

    from crates_sim.analysis.data import clipped_histogram

    rng = np.random.default_rng(0)
    body = rng.integers(0, 90, size=995)  # 99.5% of the seats score 0..89
    total = np.concatenate([body, [600_000] * 5]).astype(float)  # 0.5% score 600,000
    lf = pl.LazyFrame({"total": total, "strategy": ["greedy"] * 1000})
    hist, clip, tail = clipped_histogram(lf, "total", by=["strategy"])
    assert clip == 100  # a round number above the 99th percentile (about 89)
    assert hist["left"].max() < 100  # no bin out at 600,000
    assert tail["tail_share"].iloc[0] == pytest.approx(0.005) and tail["max"].iloc[0] == 600_000
    assert hist["share"].sum() + 0.005 == pytest.approx(1.0)  # shares are of every seat
    _, none, _ = clipped_histogram(pl.LazyFrame({"total": body.astype(float)}), "total")
    assert none is None  # no tail beyond a round number: the axis is not clipped


def test_report_states_the_score_tail(tmp_path):
    import polars as pl

    ds = write_dataset(tmp_path / "ds", games=100, partnerships=False)
    chunk = sorted((ds / "games").glob("*.parquet"))[0]
    games = pl.read_parquet(chunk)
    games = games.with_columns(pl.when(pl.col("game") == games["game"].min()).then(600_000)
                               .otherwise(pl.col("total")).cast(games.schema["total"]).alias("total"))
    games.write_parquet(chunk)  # one game of 100 (4 seat rows of 400) runs to 600,000 points
    md = report(ds)["markdown"].read_text()
    assert "1.0% of seats above" in md and "max 600,000" in md


# ------------------------------------------------------------------ the summary (issue 32 §1)
def _answers(paths):
    return {a.key: a for a in paths["answers"]}


def test_summary_answers_the_three_questions_on_the_demo_design(tmp_path):
    # `make demo`'s design, scaled down: a 3-keeper team against a 3-dumper team, seats rotated
    from crates_sim.analysis.demo import DUMPER, KEEPER, make_demo

    ds = make_demo(tmp_path / "demo", deals=600, seed=1, workers=1)
    paths = report(ds)
    a = _answers(paths)
    assert [x.key for x in paths["answers"]] == ["hoarding", "pressures", "seats"]
    hoard = a["hoarding"]
    # the controlled effect: both strategies at every seat, on the same deals
    assert hoard.verdict in ("pays", "costs", "no clear difference")
    assert KEEPER in hoard.sentence and DUMPER in hoard.sentence
    assert re.search(r"win-rate difference of [+-]\d+\.\d points \[[+-]\d+\.\d, [+-]\d+\.\d\]", hoard.sentence)
    assert "seats rotated" in hoard.support and "does not say" in hoard.support
    assert hoard.verdict == "pays"  # keeping 3s wins 61% of 20,000 deals in the full demo; 600 deals are plenty
    press = a["pressures"]
    assert re.search(r"Pressures happen in \d+\.\d% \[\d+\.\d, \d+\.\d\] of hands", press.sentence)
    assert "says nothing about what causes" in press.support
    seats = a["seats"]
    assert seats.verdict is not None and "team 0 (seats 0+2)" in seats.sentence and "%" in seats.sentence
    assert "rotated over the seats" in seats.support
    md = paths["markdown"].read_text()
    summary = md[md.index("## Summary"):md.index("## Overview")]
    for q in ("Does 3-hoarding pay?", "How often do pressures happen?", "Which seats are favoured?"):
        assert f"### {q}" in summary
    assert summary.count("![") == 3  # a chart beside each answer
    html = paths["html"].read_text()
    assert html.count("<div class='answer'") == 3 and "id='fig-answer-seats'" in html


def test_summary_states_no_verdict_where_the_seats_confound_it(tmp_path):
    # issue 32 §1: seats greedy,random,hoard3,dump3 fixed: hoard3's partner is greedy and dump3's
    # random, and the seats are not rotated
    import crates_sim

    ds = crates_sim.simulate("classic", "greedy,random,hoard3,dump3", games=200, seed=5,
                             out=tmp_path / "mixed", workers=1)
    paths = report(ds.path)
    a = _answers(paths)
    hoard = a["hoarding"]
    assert hoard.verdict is None
    assert "cannot say" in hoard.sentence and "not rotated" in hoard.sentence
    assert "hoard3's partner is greedy and dump3's is random" in hoard.sentence
    assert hoard.command.startswith("crates compare") and "--strategies hoard3,dump3" in hoard.command
    assert hoard.command in hoard.support
    seats = a["seats"]
    assert seats.verdict is None and "cannot say" in seats.sentence and "crates simulate" in seats.command
    md = paths["markdown"].read_text()
    assert "pays here" not in md and "hoarding 3s pays" not in md.lower()
    assert "(plays exactly as greedy in Crates)" in md


def test_summary_without_a_3_contrast_says_what_measures_it(tmp_path):
    ds = write_dataset(tmp_path / "r", games=60, partnerships=False, strategies=("random",) * 4)
    hoard = _answers(report(ds))["hoarding"]
    assert hoard.verdict is None and "cannot say" in hoard.sentence
    assert "--strategies greedy,dump3" in hoard.command and "--no-partnerships" in hoard.command
