"""`crates sweep`: grid parsing and its errors, 1- and 2-parameter sweeps, resume, refusals."""

import sys
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

import crates_sim.engine.api as engine
from crates_sim.analysis.sweep import parse_axis, parse_grid, point_spec
from crates_sim.cli.main import cli
from crates_sim.errors import CratesError

sys.path.insert(0, str(Path(__file__).parent))
import fake_engine  # noqa: E402

COLUMNS = ["n_deals", "diff", "diff_lo", "diff_hi", "robust", "robust_lo", "robust_hi",
           "win_diff", "win_lo", "win_hi"]


@pytest.fixture
def fake(monkeypatch):
    monkeypatch.setattr(engine, "run_games", fake_engine.run_games)


def _run(*args):
    return CliRunner().invoke(cli, ["sweep", *args])


def test_parse_grid():
    base, axis = parse_axis("weights:w3=-60..60:13")
    assert base == "weights" and axis.param == "w3"
    assert axis.values == tuple(range(-60, 61, 10))
    base, axes = parse_grid(["weights:w5=2:w3=0..1:3", "weights:w5=2:w0=-1..1:2"])
    assert base == "weights:w5=2" and [a.param for a in axes] == ["w3", "w0"]
    assert point_spec(base, axes, (0.5, -1.0)) == "weights:w5=2:w3=0.5:w0=-1"
    assert parse_axis("pimc:samples=10..40:4")[1].values == (10, 20, 30, 40)
    with pytest.raises(CratesError, match="whole"):
        parse_axis("pimc:samples=1..2:3")


@pytest.mark.parametrize("grid, message", [
    (["weights:w9=0..1:3"], "has no parameter 'w9'"),
    (["weights:w3=0..1"], "STRATEGY:PARAM=LOW..HIGH:N"),
    (["weights:w3=1..0:3"], "LOW must be below HIGH"),
    (["weights:w3=0..1:1"], "N must be at least 2"),
    (["weights:w3=x..1:3"], "is not a number"),
    (["greedy:forget=0..2:3"], "out of range"),
    (["nope:x=0..1:3"], "unknown strategy"),
    (["weights:w3=0..1:2", "greedy:forget=0..1:2"], "sweeps one strategy"),
    (["weights:w3=0..1:2", "weights:w3=0..2:2"], "given twice"),
    (["weights:w3=1:w3=0..1:2"], "both fixed and swept"),
])
def test_grid_errors_are_one_line_and_write_nothing(tmp_path, grid, message):
    out = tmp_path / "sw"
    res = _run(*grid, "--against", "greedy", "--out", str(out))
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert res.exit_code == 2 and len(lines) == 1 and message in lines[0], res.output
    assert not out.exists()


def test_bad_baseline_is_refused(tmp_path):
    res = _run("weights:w3=0..1:2", "--against", "nope", "--out", str(tmp_path / "sw"))
    assert res.exit_code == 2 and "unknown strategy 'nope'" in res.output
    assert not (tmp_path / "sw").exists()


def test_one_parameter_sweep_writes_csv_and_html_and_resumes(fake, tmp_path):
    out = tmp_path / "sw"
    args = ["weights:w3=-60..60:3", "--against", "greedy", "--no-partnerships", "--games", "30",
            "--seed", "1", "--workers", "1", "--out", str(out)]
    res = _run(*args)
    assert res.exit_code == 0, res.output
    assert "3 points (3 played, 0 already done)" in res.output
    table = pd.read_csv(out / "sweep.csv")
    assert list(table.columns[:11]) == ["w3", *COLUMNS]
    assert list(table["w3"]) == [-60, 0, 60] and set(table["n_deals"]) == {30}
    for m in ("diff", "robust", "win"):
        est = table["win_diff" if m == "win" else m]
        assert ((table[f"{m}_lo"] <= est) & (est <= table[f"{m}_hi"])).all()
    # the fake engine gives weights no skill and greedy 30 points: every point loses to greedy
    assert (table["diff"] > 0).all()
    html = (out / "sweep.html").read_text()
    assert "id='fig-win'" in html and "Best point" in html
    # resume: a second run plays nothing and rewrites no point
    stamps = {p: p.stat().st_mtime_ns for p in out.glob("points/*/*")}
    res = _run(*args)
    assert res.exit_code == 0 and "3 points (0 played, 3 already done)" in res.output, res.output
    assert {p: p.stat().st_mtime_ns for p in out.glob("points/*/*")} == stamps
    assert pd.read_csv(out / "sweep.csv").equals(table)
    # a point interrupted half-way (no per_deal.parquet) is played again, alone
    (out / "points" / "001" / "per_deal.parquet").unlink()
    res = _run(*args)
    assert "3 points (1 played, 2 already done)" in res.output, res.output
    assert pd.read_csv(out / "sweep.csv").equals(table)  # the same deals: the same answer
    # a damaged point (its per_deal.parquet cut short): one line naming it, played again
    victim = out / "points" / "002" / "per_deal.parquet"
    victim.write_bytes(victim.read_bytes()[:-30])
    res = _run(*args)
    assert res.exit_code == 0 and "3 points (1 played, 2 already done)" in res.output, res.output
    assert f"{victim} is damaged" in res.output and "playing point 3" in res.output
    assert pd.read_csv(out / "sweep.csv").equals(table)
    # a different sweep in the same folder: one line, nothing changed; --overwrite replaces it
    other = ["weights:w3=0..1:2", *args[1:]]
    res = _run(*other)
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert res.exit_code == 2 and len(lines) == 1 and "holds a different sweep" in lines[0]
    assert pd.read_csv(out / "sweep.csv").equals(table)
    res = _run(*other, "--overwrite")
    assert res.exit_code == 0 and "2 points (2 played" in res.output, res.output
    assert list(pd.read_csv(out / "sweep.csv")["w3"]) == [0, 1]
    assert not (out / "points" / "002").exists()


def test_two_parameter_sweep_is_a_grid_with_a_heat_map(fake, tmp_path):
    out = tmp_path / "grid"
    res = _run("weights:w3=0..1:2", "weights:w5=0..40:3", "--against", "random", "--games", "20",
               "--workers", "1", "--out", str(out))
    assert res.exit_code == 0, res.output
    table = pd.read_csv(out / "sweep.csv")
    assert list(table.columns[:12]) == ["w3", "w5", *COLUMNS] and len(table) == 6
    assert sorted(zip(table["w3"], table["w5"], strict=True)) == [(a, b) for a in (0, 1) for b in (0, 20, 40)]
    html = (out / "sweep.html").read_text()
    assert "id='fig-heat-win-diff'" in html and "Heat map" in html


def test_not_a_sweep_folder_is_refused(tmp_path):
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "mine.txt").write_text("keep")
    res = _run("weights:w3=0..1:2", "--against", "greedy", "--out", str(tmp_path / "x"))
    assert res.exit_code == 2 and "holds no sweep" in res.output
    assert sorted(p.name for p in (tmp_path / "x").iterdir()) == ["mine.txt"]


def test_real_engine_sweep(tmp_path):
    res = _run("weights:w3=-10..10:2", "--against", "greedy", "--games", "20", "--seed", "2",
               "--workers", "1", "--out", str(tmp_path / "real"))
    assert res.exit_code == 0, res.output
    table = pd.read_csv(tmp_path / "real" / "sweep.csv")
    assert len(table) == 2 and set(table["n_deals"]) == {20}
    from crates_sim.data.dataset import read_manifest

    m = read_manifest(tmp_path / "real" / "points" / "000")
    assert m["made_by"] == "sweep" and m["status"] == "complete" and m["entries"] == ["weights:w3=-10", "greedy"]
