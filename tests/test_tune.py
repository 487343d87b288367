"""`crates tune`: a tiny CMA-ES search end to end, resume, refusals and one-line errors."""

import json
import math
import shutil
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from crates_sim import Rules
from crates_sim.analysis.tune import derive_seed, plan_search
from crates_sim.cli.main import cli
from crates_sim.engine.api import run_games
from crates_sim.errors import CratesError
from crates_sim.strategy import parse_spec

BOTS = str(Path(__file__).parent / "data" / "mybots.py")
TINY = ["--against", "greedy,aggressive", "--popsize", "4", "--games-per-eval", "40",
        "--validate-games", "100", "--seed", "3", "--workers", "1", "-q"]


def _run(*args):
    return CliRunner().invoke(cli, ["tune", *map(str, args)])


def _one_line(res, phrase):
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert res.exit_code == 2 and "Traceback" not in res.output, res.output
    assert len(lines) == 1 and lines[0].startswith("Error: ") and phrase in lines[0], res.output


def test_plan_search_scales_and_seeds():
    base, shown, dims = plan_search("weights:w6=-10")
    assert base == "weights:w6=-10" and shown == "weights"
    assert [d.name for d in dims] == ["w0", "w1", "w2", "w3", "w4", "w5", "w7"]
    assert {d.name: d.scale for d in dims}["w1"] == 3.0  # unbounded: max(1, |default|)
    assert {d.name: d.scale for d in dims}["w4"] == 1.0
    _, _, dims = plan_search("keep3", ["three", "forget"])
    assert [(d.name, d.scale) for d in dims] == [("three", 50.0), ("forget", 0.25)]  # a quarter of the range
    assert dims[1].value(10) == 1.0 and dims[0].value(-0.5) == -25.0  # clipped into the declared range
    _, _, dims = plan_search("pimc", ["samples"])
    assert dims[0].whole and dims[0].value(0.0123) == float(round(30 + 0.0123 * dims[0].scale))
    assert derive_seed(1, 1) != derive_seed(1, 2) and 0 <= derive_seed(2**62, 1) < 2**63
    assert derive_seed(1, 1) == derive_seed(1, 1)


def test_tune_writes_everything_and_resumes(tmp_path):
    out = tmp_path / "t"
    res = _run("weights", *TINY, "--budget", 8, "--out", out)
    assert res.exit_code == 0, res.output
    assert "2 generations x 4 candidates (2 run now, 0 done before)" in res.output
    for name in ("best.txt", "tune.csv", "tune.html", "tune.md", "tune.json", "tune-curve.png", "tune-params.png"):
        assert (out / name).exists(), name
    table = pd.read_csv(out / "tune.csv")
    assert len(table) == 8 and list(table["generation"]) == [0] * 4 + [1] * 4
    assert set(table["n_deals"]) == {40}
    assert {"w0", "w7", "win_diff", "win_lo", "win_hi", "robust", "robust_lo", "robust_hi", "spec",
            "win_vs:greedy", "win_vs:aggressive"} <= set(table.columns)
    assert ((table["win_lo"] <= table["win_diff"]) & (table["win_diff"] <= table["win_hi"])).all()
    # the field's difference is the mean of the differences against each strategy
    assert (table["win_diff"] - (table["win_vs:greedy"] + table["win_vs:aggressive"]) / 2).abs().max() < 1e-12
    best = (out / "best.txt").read_text().strip()
    name, values = parse_spec(best)
    assert name == "weights" and sorted(values) == [f"w{i}" for i in range(8)]
    run_games(Rules.preset("classic", 4), [best, "greedy"] * 2, 1, 0, 3, detail="games")
    state = json.loads((out / "tune.json").read_text())
    assert state["status"] == "complete" and state["generations"] == 2 and state["best"] == best
    assert state["search_seed"] != state["validation_seed"]
    v = state["validation"]
    assert v["spec"] == best and [r["against"] for r in v["rows"]] == ["greedy", "aggressive", "field (mean)"]
    assert all(r["n_deals"] == 100 for r in v["rows"])
    html = (out / "tune.html").read_text()
    assert "id='fig-curve'" in html and "id='fig-params'" in html and "Validation" in html
    # the same command again: nothing played, the same files
    saved = (out / "tune.json").read_text()
    res = _run("weights", *TINY, "--budget", 8, "--out", out)
    assert res.exit_code == 0 and "(0 run now, 2 done before)" in res.output, res.output
    assert pd.read_csv(out / "tune.csv").equals(table)
    # a larger budget continues the search with one more generation
    res = _run("weights", *TINY, "--budget", 12, "--out", out)
    assert res.exit_code == 0 and "3 generations x 4 candidates (1 run now, 2 done before)" in res.output
    three = pd.read_csv(out / "tune.csv")
    assert len(three) == 12 and three.iloc[:8].equals(table)
    # killed after generation 3's rows reached tune.csv but before its checkpoint: the rows are
    # dropped and the generation is run again from the saved CMA state, on the same deals
    (out / "tune.json").write_text(saved)
    res = _run("weights", *TINY, "--budget", 12, "--out", out)
    assert res.exit_code == 0 and "(1 run now, 2 done before)" in res.output, res.output
    assert pd.read_csv(out / "tune.csv").equals(three)


def test_another_tune_in_the_folder_is_refused_or_overwritten(tmp_path):
    out = tmp_path / "t"
    args = ["weights", "--params", "w3,w6", *TINY, "--budget", 4]
    assert _run(*args, "--out", out).exit_code == 0
    before = (out / "tune.csv").read_text()
    res = _run("weights", "--params", "w3,w5", *TINY, "--budget", 4, "--out", out)
    _one_line(res, "holds a different tune")
    assert (out / "tune.csv").read_text() == before
    res = _run("weights", "--params", "w3,w5", *TINY, "--budget", 4, "--out", out, "--overwrite")
    assert res.exit_code == 0, res.output
    table = pd.read_csv(out / "tune.csv")
    assert "w5" in table and "w6" not in table and len(table) == 4
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "mine.txt").write_text("keep")
    _one_line(_run(*args, "--out", tmp_path / "x"), "holds no tune")
    assert [p.name for p in (tmp_path / "x").iterdir()] == ["mine.txt"]


def test_fixed_parameters_stay_fixed_in_best(tmp_path):
    res = _run("weights:w6=-7:w0=1", *TINY, "--budget", 4, "--out", tmp_path / "t")
    assert res.exit_code == 0, res.output
    name, values = parse_spec((tmp_path / "t" / "best.txt").read_text().strip())
    assert values["w6"] == -7 and values["w0"] == 1 and len(values) == 8
    assert "w6" not in pd.read_csv(tmp_path / "t" / "tune.csv")


@pytest.mark.parametrize("args, phrase", [
    (["nope", "--against", "greedy"], "unknown strategy 'nope'"),
    (["weights", "--against", "nope"], "unknown strategy 'nope'"),
    (["weights", "--against", "greedy,greedy"], "given twice"),
    (["weights", "--against", "greedy", "--params", "w9"], "has no parameter 'w9'"),
    (["weights:w3=1", "--against", "greedy", "--params", "w3"], "both fixed"),
    (["greedy:forget=0", "--against", "random"], "nothing to tune"),
    (["weights", "--against", "greedy", "--budget", "0"], "'--budget' / '-b': 0 is not in the range x>=1"),
    (["weights", "--against", "greedy", "--games-per-eval", "1"], "--games-per-eval must be at least 2"),
    (["weights", "--against", "greedy", "--validate-games", "1"], "--validate-games must be at least 2"),
    (["weights", "--against", "greedy", "--popsize", "1"], "'--popsize': 1 is not in the range x>=2"),
    (["weights", "--against", "greedy", "--sigma", "0"], "--sigma must be a positive number"),
    (["weights", "--against", "greedy,random,dump3", "--params", ","], "name at least one parameter"),
    (["weights", "--against", "greedy", "--workers", "0"], "'--workers' / '-w': 0 is not in the range x>=1"),
    ([f"{BOTS}:peeker", "--against", "greedy"], "declares no parameters"),
])
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, args, phrase):
    out = tmp_path / "t"
    _one_line(_run(*args, "--out", out), phrase)
    assert not out.exists()


def test_plan_search_errors():
    with pytest.raises(CratesError, match="named twice"):
        plan_search("weights", ["w1", "w1"])
    assert math.isinf(plan_search("weights")[2][0].high)


def test_no_traceback_when_the_folder_cannot_be_written(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    res = _run("weights", *TINY, "--budget", 4, "--out", blocker / "sub")
    assert res.exit_code == 2 and "Traceback" not in res.output, res.output
    shutil.rmtree(tmp_path)


def test_a_damaged_checkpoint_is_one_line(tmp_path):
    # issue 32 §5: a state file cut short is named, with what to do, not a traceback
    from crates_sim.analysis.sweep import saved_state

    out = tmp_path / "t"
    out.mkdir()
    (out / "tune.json").write_text('{"strategy": "weights", "aga')
    with pytest.raises(CratesError, match=r"tune.json is damaged .*--overwrite"):
        saved_state(out, "tune.json", {"strategy": "weights"}, False, "tune", lambda old: "?", ["tune*"])
    assert saved_state(out, "tune.json", {"strategy": "weights"}, True, "tune", lambda old: "?", ["tune*"]) is None
    assert not (out / "tune.json").exists()


def test_a_resumed_tune_matches_one_run_straight_through(tmp_path):
    # the CMA state is rebuilt by replaying the recorded asks and tells: stopping after one
    # generation and resuming gives the same candidates, rows and result as no stop at all
    straight, stopped = tmp_path / "straight", tmp_path / "stopped"
    assert _run("weights", *TINY, "--budget", 12, "--out", straight).exit_code == 0
    assert _run("weights", *TINY, "--budget", 4, "--out", stopped).exit_code == 0
    res = _run("weights", *TINY, "--budget", 12, "--out", stopped)
    assert res.exit_code == 0 and "3 generations x 4 candidates (2 run now, 1 done before)" in res.output, res.output
    assert pd.read_csv(stopped / "tune.csv").equals(pd.read_csv(straight / "tune.csv"))
    assert (stopped / "best.txt").read_text() == (straight / "best.txt").read_text()
    a, b = (json.loads((d / "tune.json").read_text()) for d in (straight, stopped))
    for key in ("asks", "tells", "means", "sigmas", "cma_stop", "generations"):
        assert a[key] == b[key], key
    assert "cma" not in a and len(a["asks"]) == len(a["tells"]) == 3


class _WritesAFile:
    """Unpickled, it creates a file: what a tune.json sent by someone else could hold."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return open, (self.path, "w")


def test_a_pickled_cma_state_is_refused_and_never_unpickled(tmp_path):
    # issue 40 newcomer 9: resuming a tune folder must not run code from it
    import base64
    import pickle

    out, planted = tmp_path / "t", tmp_path / "planted.txt"
    assert _run("weights", *TINY, "--budget", 4, "--out", out).exit_code == 0
    state = json.loads((out / "tune.json").read_text())
    state["cma"] = base64.b64encode(pickle.dumps(_WritesAFile(str(planted)))).decode("ascii")
    (out / "tune.json").write_text(json.dumps(state))
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    _one_line(_run("weights", *TINY, "--budget", 8, "--out", out), "start the tune again in a new folder")
    assert not planted.exists()
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


@pytest.mark.parametrize("damage, phrase", [
    (lambda s: s.pop("asks"), "asks and tells cannot be read"),
    (lambda s: s.__setitem__("tells", s["tells"][:-1] + [["x"] * 4]), "asks and tells cannot be read"),
    (lambda s: s["asks"][0].pop(), "asks and tells cannot be read"),
    (lambda s: s["asks"][0][0].__setitem__(0, s["asks"][0][0][0] + 1e-9), "does not ask again the points"),
])
def test_a_damaged_record_of_asks_and_tells_is_one_line(tmp_path, damage, phrase):
    out = tmp_path / "t"
    assert _run("weights", *TINY, "--budget", 4, "--out", out).exit_code == 0
    state = json.loads((out / "tune.json").read_text())
    damage(state)
    (out / "tune.json").write_text(json.dumps(state))
    res = _run("weights", *TINY, "--budget", 8, "--out", out)
    _one_line(res, phrase)
    assert "--overwrite" in res.output
