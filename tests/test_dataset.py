"""The one dataset writer (crates_sim.data.dataset) and the one manifest schema (crates_sim.data.manifest).

simulate, compare and balance write their Parquet chunks and manifest.json through it:
atomically, and with the same manifest keys everywhere.
"""

import json
import os
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

import crates_sim.data.dataset as dataset
import crates_sim.engine.api as engine
from crates_sim.analysis.balance import balance
from crates_sim.analysis.compare import compare
from crates_sim.analysis.data import load
from crates_sim.cli.main import cli
from crates_sim.data import manifest as mf
from crates_sim.data.dataset import (
    GAMES_SCHEMA,
    HANDS_SCHEMA,
    ROTATED_GAMES_SCHEMA,
    ROTATED_HANDS_SCHEMA,
    Dataset,
    DatasetWriter,
    write_json_atomic,
    write_parquet_atomic,
)
from crates_sim.errors import CratesError
from crates_sim.rules import Rules
from crates_sim.runs.runner import simulate

sys.path.insert(0, str(Path(__file__).parent))
import fake_engine  # noqa: E402

quiet = dict(workers=1, echo=lambda s: None)


@pytest.fixture
def fake(monkeypatch):
    monkeypatch.setattr(engine, "run_games", fake_engine.run_games)
    monkeypatch.setattr(engine, "prepare", lambda *a, **k: 0.0)


@pytest.fixture
def three(fake, tmp_path):
    """One dataset of each command (fake engine): simulate, compare (OUT/results), balance."""
    rules = Rules.preset("classic", 4, partnerships=False)
    sim = tmp_path / "sim"
    simulate(rules, "greedy,random,greedy,random", games=30, seed=1, out=sim, workers=1, chunk_size=10)
    compare(rules, ["greedy", "random"], 20, 1, tmp_path / "cmp", **quiet)
    balance(["classic", "league"], 4, "greedy,random", 20, 1, tmp_path / "bal", **quiet)
    return {"simulate": sim, "compare": tmp_path / "cmp" / "results",
            "balance": tmp_path / "bal" / "variants" / "classic"}


def read(path):
    return json.loads((Path(path) / "manifest.json").read_text())


def leftovers(root):
    return [p for p in Path(root).rglob("*") if dataset.is_tmp(p.name)]


# ------------------------------------------------------------------ atomic writes
def test_a_failed_parquet_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "t.parquet"
    old = pa.table({"x": [1, 2, 3]})
    write_parquet_atomic(old, path)

    def half_then_fail(table, fh, **kw):
        fh.write(b"PAR1 half a file")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(dataset.pq, "write_table", half_then_fail)
    with pytest.raises(OSError):
        write_parquet_atomic(pa.table({"x": [9]}), path)
    monkeypatch.undo()
    assert pq.read_table(path).equals(old)
    assert os.listdir(tmp_path) == ["t.parquet"]


def test_a_failed_json_write_leaves_the_old_manifest(tmp_path):
    path = tmp_path / "manifest.json"
    write_json_atomic({"a": 1}, path)
    with pytest.raises(TypeError):
        write_json_atomic({"a": 2, "b": object()}, path)  # fails half-way through the dump
    assert json.loads(path.read_text()) == {"a": 1}
    assert os.listdir(tmp_path) == ["manifest.json"]


def test_writes_go_through_a_temporary_name_and_os_replace(tmp_path, monkeypatch):
    seen = []
    real = os.replace

    def spy(src, dst):
        seen.append((Path(src).name, Path(dst).name))
        assert Path(src).exists() and dataset.is_tmp(Path(src).name)
        real(src, dst)

    monkeypatch.setattr(dataset.os, "replace", spy)
    write_parquet_atomic(pa.table({"x": [1]}), tmp_path / "a.parquet")
    write_json_atomic({"a": 1}, tmp_path / "m.json")
    assert [dst for _, dst in seen] == ["a.parquet", "m.json"]


def test_compare_and_balance_chunks_are_written_by_the_writer(fake, tmp_path, monkeypatch):
    written = []
    real = dataset.write_parquet_atomic
    monkeypatch.setattr(dataset, "write_parquet_atomic", lambda t, p, **kw: (written.append(Path(p)), real(t, p, **kw)))
    compare(Rules.preset("classic", 4, partnerships=False), ["greedy", "random"], 12, 1, tmp_path / "c", **quiet)
    files = sorted(p.relative_to(tmp_path / "c" / "results") for p in (tmp_path / "c" / "results").rglob("*.parquet"))
    assert files and sorted(p.relative_to(tmp_path / "c" / "results") for p in written) == files
    assert {p.name for p in written} == {"chunk-000000.parquet", "chunk-000001.parquet"}  # 2 rotations
    assert not leftovers(tmp_path)


# ------------------------------------------------------------------ one schema
def test_simulate_compare_and_balance_write_one_manifest_schema(three):
    manifests = {cmd: read(path) for cmd, path in three.items()}
    for cmd, m in manifests.items():
        assert list(m) == list(mf.KEYS), cmd  # the same keys, in the same order
        assert m["made_by"] == cmd and m["format"] == mf.FORMAT and m["format_version"] == mf.FORMAT_VERSION
        assert m["status"] == "complete" and m["finished"]
        assert m["rules"] == Rules.preset(m["preset"], 4, **m["rules"]).to_dict()
        assert len(m["strategies"]) == m["players"] == 4
        assert all(len(r) == 4 and set(r) <= set(m["entries"]) for r in m["rotations"])
        assert [c["state"] for c in m["chunks"]] == ["done"] * len(m["chunks"])
        assert m["games_done"] == m["games"] * len(m["rotations"])
        assert m["command"].startswith(f"crates {cmd} ")
        for key, value in m.items():  # the same types everywhere
            assert type(value) is type(manifests["simulate"][key]) or value is None or key in (
                "games_per_second", "wall_seconds"), (cmd, key)
    assert manifests["simulate"]["rotations"] == [["greedy", "random", "greedy", "random"]]
    assert manifests["compare"]["entries"] == ["greedy", "random"]
    assert len(manifests["compare"]["rotations"]) == 2
    assert manifests["balance"]["detail"] == "hands" and manifests["compare"]["detail"] == "games"


def test_every_dataset_reads_back_with_its_parquet_schema(three):
    for cmd, path in three.items():
        ds = Dataset(path)
        assert ds.complete and ds.manifest["made_by"] == cmd
        rotated = cmd != "simulate"
        schema = pq.read_schema(next((path / "games").glob("chunk-*.parquet")))
        assert schema.equals(ROTATED_GAMES_SCHEMA if rotated else GAMES_SCHEMA), cmd
        if ds.manifest["detail"] == "hands":
            schema = pq.read_schema(next((path / "hands").glob("chunk-*.parquet")))
            assert schema.equals(ROTATED_HANDS_SCHEMA if rotated else HANDS_SCHEMA), cmd
        D = load(path)
        assert D.rules.describe() == ds.manifest["rules_spec"]
        assert D.strategies == ([] if rotated and len(ds.manifest["rotations"]) > 1 else ds.manifest["strategies"])
        assert not leftovers(path)


def test_a_version_1_simulate_manifest_is_upgraded_and_resumes(fake, three):
    path = three["simulate"]
    m = read(path)
    for key in ("made_by", "entries", "rotations", "games_done"):
        m.pop(key)
    m["format_version"] = 1
    (path / "manifest.json").write_text(json.dumps(m))
    assert load(path).strategies == ["greedy", "random", "greedy", "random"]
    assert Dataset(path).manifest["made_by"] == "simulate"
    rules = Rules.preset("classic", 4, partnerships=False)
    simulate(rules, "greedy,random,greedy,random", games=30, seed=1, out=path, workers=1)  # resumes
    m = read(path)
    assert list(m) == list(mf.KEYS) and m["format_version"] == mf.FORMAT_VERSION
    assert m["runs"][-1]["chunks_kept"] == 3 and m["runs"][-1]["games_run"] == 0


@pytest.mark.parametrize("fmt,command", [("crates-sim compare", "crates compare"),
                                         ("crates-sim balance variant", "crates balance")])
def test_old_compare_and_balance_datasets_are_refused_in_one_line(three, fmt, command):
    path = three["compare"]
    old = {"format": fmt, "preset": "classic", "knobs": {}, "players": 4, "strategies": None}
    (path / "manifest.json").write_text(json.dumps(old))
    with pytest.raises(CratesError, match=f"older `{command}`"):
        load(path)
    res = CliRunner().invoke(cli, ["report", str(path)])
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert res.exit_code == 2 and len(lines) == 1 and "rerun" in lines[0], res.output
    assert "Traceback" not in res.output and not (path / "report.html").exists()


def test_manifest_checks(tmp_path):
    with pytest.raises(CratesError, match="not a crates-sim dataset manifest"):
        mf.upgrade({"format": "photos"}, "x")
    with pytest.raises(CratesError, match="format_version 9"):
        mf.upgrade({"format": mf.FORMAT, "format_version": 9}, "x")
    rules = Rules.preset("classic", 4)
    m = mf.new_manifest(mf.identity(rules, ["greedy"] * 4, 0, 10, "hands"), "classic", 10, [(0, 10)], "c")
    assert mf.upgrade(m, "x") is m
    del m["entries"]
    with pytest.raises(CratesError, match="lacks the manifest keys entries"):
        mf.upgrade(m, "x")
    with pytest.raises(ValueError):
        mf.identity(rules, ["greedy"] * 4, 0, 10, "hands", made_by="nosuch")


def test_the_writer_refuses_a_filled_folder_and_records_a_failure(tmp_path):
    rules = Rules.preset("classic", 4)
    ident = mf.identity(rules, ["greedy"] * 4, 0, 0, "games", made_by="compare")
    with pytest.raises(RuntimeError):  # before any chunk: nothing is left behind (issue 40.6)
        with DatasetWriter(tmp_path / "d", ident, "classic", "crates compare ...") as w:
            w.add_chunks([(0, 10, 0), (10, 10, 0)])
            raise RuntimeError("boom")
    assert not (tmp_path / "d").exists()
    with pytest.raises(RuntimeError):  # after one: the failure is recorded, the chunk kept
        with DatasetWriter(tmp_path / "d", ident, "classic", "crates compare ...") as w:
            w.add_chunks([(0, 10, 0), (10, 10, 0)])
            (tmp_path / "d" / "games" / "chunk-000000.parquet").write_bytes(b"x")
            w.done(0, {"game_rows": 40})
            raise RuntimeError("boom")
    m = read(tmp_path / "d")
    assert m["status"] == "failed" and m["chunks"][1]["state"] == "pending" and m["games"] == 20
    with pytest.raises(CratesError, match="already holds a dataset"):
        DatasetWriter(tmp_path / "d", ident, "classic", "crates compare ...")


@pytest.mark.parametrize("preset", ["classic", "crazy-eights"])
def test_hand_rows_are_the_same_whether_a_chunk_takes_one_kernel_call_or_many(preset, monkeypatch):
    # the kernel fills one array per column; a chunk that outgrows them is played in more
    # calls, whose rows are joined: the columns must not depend on it
    import numpy as np

    rules = Rules.preset(preset, 3)
    one = engine.run_games(rules, ["greedy", "random", "greedy"], 4, 10, 40, detail="hands")
    monkeypatch.setattr(engine, "_rows_per_game", lambda rules: 1)  # room for one game a call
    many = engine.run_games(rules, ["greedy", "random", "greedy"], 4, 10, 40, detail="hands")
    assert len(one.hands["game"]) >= 40 * 3
    assert set(one.hands["game"].tolist()) == set(range(10, 50))
    for name, col in one.hands.items():
        assert np.array_equal(col, many.hands[name]), name
        assert col.dtype == many.hands[name].dtype


@pytest.mark.parametrize("preset", ["classic", "crazy-eights"])
def test_hand_rows_in_the_reused_buffer_are_those_of_fresh_arrays(preset, monkeypatch):
    # run_chunk writes hand rows into one buffer per thread; a bigger chunk before a smaller
    # one leaves stale rows past the smaller one's end, which must not be taken as its rows
    import numpy as np

    rules = Rules.preset(preset, 3)
    specs = ["greedy", "random", "greedy"]
    engine.run_games(rules, specs, 5, 0, 60, detail="hands", reuse_rows=True)
    fresh = engine.run_games(rules, specs, 4, 10, 20, detail="hands")
    reused = engine.run_games(rules, specs, 4, 10, 20, detail="hands", reuse_rows=True)
    assert set(reused.hands["game"].tolist()) == set(range(10, 30))
    for name, col in fresh.hands.items():
        assert np.array_equal(col, reused.hands[name]), name
    # many kernel calls for one chunk: only the first part may live in the buffer
    monkeypatch.setattr(engine, "_rows_per_game", lambda rules: 1)
    parts = engine.run_games(rules, specs, 4, 10, 20, detail="hands", reuse_rows=True)
    for name, col in fresh.hands.items():
        assert np.array_equal(col, parts.hands[name]), name
