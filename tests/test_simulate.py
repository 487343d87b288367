"""`crates simulate` and `crates_sim.simulate`: dataset, determinism, resume, refusals, errors."""

import errno
import json
import os
import subprocess
import sys
import textwrap
from io import StringIO
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl
import pyarrow.dataset as pads
import pytest
from click.testing import CliRunner

import crates_sim
from crates_sim import Rules
from crates_sim.cli.main import cli
from crates_sim.data.dataset import HANDS_SCHEMA, chunk_name
from crates_sim.data.progress import Progress
from crates_sim.data.schema import GAME_COLUMNS, HAND_COLUMNS, REASONS
from crates_sim.engine.api import run_games
from crates_sim.runs import runner

GAMES = 120
BASE = ["--games", str(GAMES), "--seed", "11", "-s", "greedy,random,random,random", "-q"]


def crates(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def frames(path):
    path = Path(path)
    games = pl.read_parquet(path / "games" / "*.parquet").sort("game", "seat")
    hands = pl.read_parquet(path / "hands" / "*.parquet").sort("game", "hand", "seat")
    return games, hands


def manifest(path):
    return json.loads((Path(path) / "manifest.json").read_text())


def same(path_a, path_b):
    ga, ha = frames(path_a)
    gb, hb = frames(path_b)
    assert ga.equals(gb)
    assert ha.equals(hb)


def leftovers(path):
    return [p for p in Path(path).rglob("*") if ".tmp-" in p.name]


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """An uninterrupted single-process run of BASE in 3 chunks of 40 games."""
    out = tmp_path_factory.mktemp("ref") / "run"
    res = crates("simulate", *BASE, "--workers", 1, "--chunk-size", 40, "--out", out)
    assert res.exit_code == 0, res.output
    return out


# ------------------------------------------------------------------ the dataset
def test_schema_dtypes_and_row_counts(reference):
    games, hands = frames(reference)
    assert games.columns == list(GAME_COLUMNS)
    assert hands.columns == list(HAND_COLUMNS)
    for cols, df in ((GAME_COLUMNS, games), (HAND_COLUMNS, hands)):
        for name, dtype in cols.items():
            want = pl.Categorical if dtype == "category" else pl.from_numpy(np.zeros(1, dtype)).dtypes[0]
            assert df.schema[name] == want, name
    assert games.height == GAMES * 4
    assert games["game"].unique().sort().to_list() == list(range(GAMES))
    assert set(games["strategy"].cast(pl.Utf8)) == {"greedy", "random"}
    assert games.filter(pl.col("seat") == 0)["strategy"].cast(pl.Utf8).unique().to_list() == ["greedy"]
    # classic Crates: 15 hands per game, every seat in every hand
    assert (games["hands"] == 15).all()
    assert hands.height == GAMES * 15 * 4
    assert set(hands["reason"].cast(pl.Utf8)) <= set(REASONS)
    # per-chunk files, compressed, readable by pandas and pyarrow as directories
    assert sorted(p.name for p in (reference / "games").iterdir()) == [chunk_name(i) for i in range(3)]
    meta = pads.dataset(reference / "hands", format="parquet")
    assert meta.schema.field("reason").type == HANDS_SCHEMA.field("reason").type
    import pyarrow.parquet as pq
    columns = pq.ParquetFile(reference / "hands" / chunk_name(0)).metadata.row_group(0)
    columns = {columns.column(i).path_in_schema: columns.column(i) for i in range(columns.num_columns)}
    # the per-seat numbers delta + snappy, the per-hand ones plain + LZ4 (HAND_PLAIN_COLUMNS)
    assert columns["points"].compression == "SNAPPY" and "DELTA_BINARY_PACKED" in columns["points"].encodings
    assert columns["dealer"].compression == "LZ4" and "DELTA_BINARY_PACKED" not in columns["dealer"].encodings
    pdf = pd.read_parquet(reference / "games")
    assert len(pdf) == GAMES * 4 and str(pdf["strategy"].dtype) == "category"
    assert pdf["seat"].dtype == np.int8


def test_manifest(reference):
    m = manifest(reference)
    assert m["status"] == "complete"
    assert m["preset"] == "classic" and m["players"] == 4 and m["partnerships"] is True
    assert m["rules"] == Rules.preset("classic", 4).to_dict()
    assert m["strategies"] == ["greedy", "random", "random", "random"]
    assert (m["seed"], m["games"], m["chunk_size"], m["detail"]) == (11, GAMES, 40, "hands")
    assert [c["state"] for c in m["chunks"]] == ["done"] * 3
    assert [(c["start"], c["games"]) for c in m["chunks"]] == [(0, 40), (40, 40), (80, 40)]
    assert m["version"] == crates_sim.__version__
    assert m["started"] and m["finished"] and m["games_per_second"] > 0
    assert m["command"].startswith("crates simulate --preset classic --players 4")
    assert m["turns"] > 0 and "capped_hands" in m and "dead_hands" in m


def test_rows_are_the_engines_games(reference):
    """Game i of seed S in the dataset is engine game i of seed S (what `trace` replays)."""
    games, _ = frames(reference)
    rules = Rules.preset("classic", 4)
    direct = run_games(rules, ["greedy", "random", "random", "random"], 11, 57, 2, detail="games")
    sub = games.filter(pl.col("game").is_in([57, 58]))
    assert sub["total"].to_list() == direct.games["total"].tolist()
    assert sub["rank"].to_list() == direct.games["rank"].tolist()


def test_same_rows_for_workers_and_chunk_sizes(reference, tmp_path):
    a = tmp_path / "two-workers"
    res = crates("simulate", *BASE, "--workers", 2, "--chunk-size", 25, "--out", a)
    assert res.exit_code == 0, res.output
    assert len(manifest(a)["chunks"]) == 5
    same(reference, a)
    b = tmp_path / "one-chunk"
    res = crates("simulate", *BASE, "--workers", 1, "--chunk-size", 1000, "--out", b)
    assert res.exit_code == 0, res.output
    assert len(manifest(b)["chunks"]) == 1
    same(reference, b)


def test_detail_games(tmp_path):
    out = tmp_path / "g"
    res = crates("simulate", "--games", 30, "--detail", "games", "--workers", 1, "--out", out, "-q")
    assert res.exit_code == 0, res.output
    assert not (out / "hands").exists()
    ds = crates_sim.Dataset(out)
    assert ds.games.collect().height == 120
    with pytest.raises(crates_sim.CratesError, match="detail=games"):
        _ = ds.hands


# ------------------------------------------------------------------ the Python API
def test_python_api(tmp_path):
    ds = crates_sim.simulate(Rules.preset("league", 3), "greedy,random,random", games=30, seed=5,
                             out=tmp_path / "api", workers=1, chunk_size=10)
    assert isinstance(ds.games, pl.LazyFrame) and isinstance(ds.hands, pl.LazyFrame)
    g = ds.games.collect()
    assert g.height == 90 and g["seat"].max() == 2
    assert ds.hands.select(pl.len()).collect().item() == 30 * 15 * 3
    assert ds.manifest["preset"] == "league" and ds.manifest["players"] == 3
    assert ds.path == tmp_path / "api" and "league" in repr(ds)
    # a preset spec string; players from the strategies
    ds2 = crates_sim.simulate("classic:seven_target=next", ["random"] * 4, games=8,
                              out=tmp_path / "spec", workers=1, detail="games")
    assert ds2.manifest["rules"]["seven_target"] == "next"
    with pytest.raises(crates_sim.CratesError, match="games must be at least 1"):
        crates_sim.simulate("classic", "random", games=0, out=tmp_path / "x")
    assert not (tmp_path / "x").exists()


def test_default_out_and_summary(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = crates("simulate", "--games", 8, "--seed", 3, "--workers", 1)
    assert res.exit_code == 0, res.output
    out = Path("results/classic-4p-random-s3")
    assert (out / "manifest.json").exists()
    assert "8 games of classic" in res.stdout
    assert "games/s" in res.stdout and "capped hands 0" in res.stdout
    assert "crates report results/classic-4p-random-s3" in res.stdout
    assert res.stderr == ""  # no progress bar when stderr is not a terminal
    res = crates("simulate", "-g", 4, "-n", 3, "--set", "seven_target=next", "-s", "greedy,random,random",
                 "--workers", 1, "-q")
    assert res.exit_code == 0 and res.output == ""
    assert Path("results/classic-seven_target=next-3p-greedy_random_random-s0/manifest.json").exists()


def test_rerun_of_a_complete_run_does_nothing(reference):
    before = manifest(reference)["chunks"]
    res = crates("simulate", *BASE[:-1], "--out", reference)
    assert res.exit_code == 0, res.output
    assert "already complete" in res.stdout
    assert manifest(reference)["chunks"] == before


def test_help_teaches():
    res = crates("simulate", "--help")
    assert res.exit_code == 0
    for text in ("Examples:", "--scheduler", "--overwrite", "manifest.json", "resume", "--chunk-size"):
        assert text in res.output


def test_progress_bar():
    buf = StringIO()
    bar = Progress(1000, done=100, enabled=True, stream=buf)
    bar.update(450)
    bar.close()
    text = buf.getvalue()
    assert "550/1,000 games" in text and "games/s" in text and "ETA" in text and text.endswith("\n")
    quiet = StringIO()
    Progress(10, enabled=False, stream=quiet).update(5)
    assert quiet.getvalue() == ""


# ------------------------------------------------------------------ resume
def test_resume_after_a_chunk_file_is_removed(reference, tmp_path):
    out = tmp_path / "r"
    args = ["simulate", *BASE, "--workers", 1, "--chunk-size", 40, "--out", out]
    assert crates(*args).exit_code == 0
    (out / "games" / chunk_name(1)).unlink()
    res = crates(*args)
    assert res.exit_code == 0, res.output
    m = manifest(out)
    assert m["status"] == "complete"
    assert m["runs"][-1]["chunks_run"] == 1 and m["runs"][-1]["chunks_kept"] == 2
    same(reference, out)


def test_resume_after_a_simulated_crash(reference, tmp_path):
    """A crash leaves: tmp files, a chunk file the manifest never recorded, a truncated file."""
    out = tmp_path / "crash"
    args = ["simulate", *BASE, "--workers", 1, "--chunk-size", 40, "--out", out]
    assert crates(*args).exit_code == 0
    m = manifest(out)
    m["status"] = "running"
    m["chunks"][2]["state"] = "pending"  # finished on disk, never recorded
    (out / "manifest.json").write_text(json.dumps(m))
    (out / "games" / f".{chunk_name(2)}.tmp-deadbeef0000").write_bytes(b"PAR1 half a file")
    (out / "hands" / chunk_name(1)).write_bytes(b"PAR1 truncated")  # recorded done but corrupt
    (out / ".manifest.json.tmp-deadbeef0000").write_text("{")
    res = crates(*args)
    assert res.exit_code == 0, res.output
    assert leftovers(out) == []
    assert manifest(out)["runs"][-1]["chunks_run"] == 2
    same(reference, out)


def test_resume_after_the_process_is_killed(reference, tmp_path):
    out = tmp_path / "killed"
    script = textwrap.dedent(f"""
        import os
        from crates_sim.runs import runner
        real = runner.run_chunk
        def dying(task):
            if task.index == 2:
                os._exit(9)  # killed outright, mid-run
            return real(task)
        runner.run_chunk = dying
        runner.simulate("classic", "greedy,random,random,random", games={GAMES}, seed=11,
                        out={str(out)!r}, workers=1, chunk_size=40)
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert proc.returncode == 9, proc.stderr
    m = manifest(out)
    assert m["status"] == "running"
    assert [c["state"] for c in m["chunks"]] == ["done", "done", "pending"]
    res = crates("simulate", *BASE, "--workers", 2, "--out", out)  # other workers: still resumes
    assert res.exit_code == 0, res.output
    assert manifest(out)["chunk_size"] == 40
    same(reference, out)


def test_ctrl_c_keeps_finished_chunks(reference, tmp_path, monkeypatch):
    out = tmp_path / "ctrl-c"
    real = runner.run_chunk

    def interrupted(task):
        if task.index == 1:
            raise KeyboardInterrupt
        return real(task)

    monkeypatch.setattr(runner, "run_chunk", interrupted)
    args = ["simulate", *BASE, "--workers", 1, "--chunk-size", 40, "--out", out]
    res = crates(*args)
    assert res.exit_code == 130
    assert "Interrupted: 1 of 3 chunks are finished" in res.stderr
    assert "crates simulate --preset classic" in res.stderr and "Traceback" not in res.output
    assert manifest(out)["status"] == "interrupted"
    monkeypatch.setattr(runner, "run_chunk", real)
    assert crates(*args).exit_code == 0
    same(reference, out)


def test_sigterm_stops_a_run_as_ctrl_c_does(tmp_path):
    """`kill PID` (SIGTERM, as a batch scheduler's time limit sends) on `crates simulate`
    with worker processes: the workers stop with it (Python's default left them running,
    orphaned, and the manifest saying "running"), the manifest says interrupted, and the
    command says how to resume."""
    import time

    psutil = pytest.importorskip("psutil")
    out = tmp_path / "term"
    proc = subprocess.Popen([sys.executable, "-m", "crates_sim", "simulate", "--games", "4000000",
                             "--seed", "12", "--workers", "2", "--out", str(out), "-q"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 240  # a cold start compiles the engine first
        children = []
        while time.monotonic() < deadline and proc.poll() is None:
            children = psutil.Process(proc.pid).children(recursive=True)
            if (out / "manifest.json").exists() and len(children) >= 3:  # forkserver + 2
                break
            time.sleep(0.2)
        assert proc.poll() is None and len(children) >= 3, "the run ended before its workers ran"
        time.sleep(0.5)
        proc.terminate()
        _stdout, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
        _gone, alive = psutil.wait_procs(children, timeout=20)
        for child in alive:  # a failing run leaves no workers burning the machine
            child.kill()
    assert not alive, f"workers left running: {alive}"
    assert proc.returncode == 130, stderr
    assert "Interrupted:" in stderr and "crates simulate --preset classic" in stderr
    assert "Traceback" not in stderr
    assert manifest(out)["status"] == "interrupted"


def test_disk_full_mid_run(reference, tmp_path, monkeypatch):
    out = tmp_path / "full"
    from crates_sim.data import dataset  # the one writer: simulate's chunks go through it

    real = dataset.write_parquet_atomic
    calls = []

    def filling(table, path, **options):
        calls.append(path)
        if len(calls) == 4:  # chunk 1's games file
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        return real(table, path, **options)

    monkeypatch.setattr(dataset, "write_parquet_atomic", filling)
    args = ["simulate", *BASE, "--workers", 1, "--chunk-size", 40, "--out", out]
    res = crates(*args)
    assert res.exit_code != 0
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.output
    assert "No space left on device" in res.stderr and "rerun the same command" in res.stderr
    m = manifest(out)  # still valid JSON, naming only complete chunks
    assert m["status"] == "failed"
    assert [c["state"] for c in m["chunks"]] == ["done", "pending", "pending"]
    monkeypatch.setattr(dataset, "write_parquet_atomic", real)
    assert crates(*args).exit_code == 0
    same(reference, out)


# ------------------------------------------------------------------ refusals
@pytest.mark.parametrize("change, message", [
    (["--seed", "12"], "seed 11 -> 12"),
    (["--games", "100"], "games 120 -> 100"),
    (["-s", "random"], "strategies greedy,random,random,random -> random,random,random,random"),
    (["--set", "seven_target=next"], "seven_target across -> next"),
    (["--detail", "games"], "detail hands -> games"),
])
def test_refuses_a_directory_of_another_run(reference, change, message):
    before = manifest(reference)
    args = list(BASE)
    for flag, value in zip(change[::2], change[1::2], strict=True):
        if flag in args:
            args[args.index(flag) + 1] = value
        else:
            args += [flag, value]
    res = crates("simulate", *args, "--out", reference)
    assert res.exit_code == 2
    assert res.stderr.count("\n") == 1
    assert "holds a different run" in res.stderr and message in res.stderr
    assert "--out" in res.stderr and "--overwrite" in res.stderr
    assert manifest(reference) == before


def test_refuses_other_chunk_size_and_foreign_dirs(reference, tmp_path):
    res = crates("simulate", *BASE, "--chunk-size", 7, "--out", reference)
    assert res.exit_code == 2 and "--chunk-size 40" in res.stderr
    foreign = tmp_path / "photos"
    foreign.mkdir()
    (foreign / "cat.jpg").write_text("meow")
    res = crates("simulate", *BASE, "--out", foreign)
    assert res.exit_code == 2 and "not a crates-sim dataset" in res.stderr
    assert sorted(os.listdir(foreign)) == ["cat.jpg"]


def test_overwrite_replaces_another_run(tmp_path):
    out = tmp_path / "o"
    assert crates("simulate", "-g", 10, "--seed", 1, "--workers", 1, "--out", out, "-q").exit_code == 0
    res = crates("simulate", "-g", 6, "--seed", 2, "--workers", 1, "--out", out, "--overwrite", "-q")
    assert res.exit_code == 0, res.output
    m = manifest(out)
    assert (m["seed"], m["games"], len(m["runs"])) == (2, 6, 1)
    assert pl.read_parquet(out / "games" / "*.parquet").height == 24


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize("args, message", [
    (["--preset", "poker"], "poker"),
    (["--set", "colour=red"], "unknown knob 'colour'"),
    (["--set", "seven_target=sideways"], "seven_target"),
    (["--set", "seven_target"], "name=value"),
    (["-s", "cleverest"], "unknown strategy 'cleverest'"),
    (["-s", "random,greedy"], "2 strategies for 4 players"),
    (["-n", "9"], "not 9"),
    (["--no-partnerships", "-n", "3", "--partnerships"], "partnerships need 4 players"),
    (["--games", "0"], "'--games' / '-g': 0 is not in the range x>=1"),
    (["--games", "-5"], "'--games' / '-g': -5 is not in the range x>=1"),
    (["--games", "lots"], "lots"),
    (["--seed", "-1"], "'--seed': -1 is not in the range 0<=x<="),
    (["--workers", "0"], "'--workers' / '-w': 0 is not in the range x>=1"),
    (["--chunk-size", "0"], "chunk size must be at least 1"),
    (["--scheduler", "nowhere"], "--scheduler takes tcp://HOST:PORT or local:K"),
    (["--scheduler", "local:2", "--workers", "2"], "--workers is for local runs"),
])
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, args, message):
    out = tmp_path / "never"
    res = crates("simulate", "-g", 5, "--out", out, *args)
    assert res.exit_code == 2
    assert message in res.stderr
    assert "Traceback" not in res.output
    if "Usage:" not in res.stderr:  # click's own option errors print usage + the error
        assert res.stderr.count("\n") == 1
    assert not out.exists()


def test_unwritable_directory(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    res = crates("simulate", "-g", 5, "--out", blocker / "sub", "--workers", 1)
    assert res.exit_code == 2
    assert res.stderr.count("\n") == 1 and "cannot write" in res.stderr
    res = crates("simulate", "-g", 5, "--out", blocker, "--workers", 1)
    assert res.exit_code == 2 and "is a file" in res.stderr
    if os.geteuid() != 0:  # root writes anywhere
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o500)
        res = crates("simulate", "-g", 5, "--out", ro / "run", "--workers", 1)
        assert res.exit_code == 2 and "Permission denied" in res.stderr


def _dies_on_chunk_1(task):
    if task.index == 1:
        os._exit(3)
    return runner.run_chunk(task)


def test_a_dead_worker_process_is_one_line_and_resumable(reference, tmp_path):
    out = tmp_path / "dead-worker"
    with pytest.raises(runner.RunFailed, match="worker process died.*rerun the same command"):
        crates_sim.simulate("classic", "greedy,random,random,random", games=GAMES, seed=11,
                            out=out, workers=2, chunk_size=40, _chunk_fn=_dies_on_chunk_1)
    m = manifest(out)
    assert m["status"] == "failed" and m["chunks"][1]["state"] == "pending"
    assert crates("simulate", *BASE, "--out", out).exit_code == 0
    same(reference, out)


def test_a_run_records_its_start_up_apart_from_its_play(tmp_path):
    ds = runner.simulate("classic", "random", games=300, seed=2, out=tmp_path / "s", workers=1,
                         chunk_size=100, detail="games")
    run = ds.manifest["runs"][-1]
    chunk_seconds = sum(c["seconds"] for c in ds.manifest["chunks"])
    assert 0 <= run["startup_seconds"] <= run["wall_seconds"] - chunk_seconds + 0.01


def test_totals_beyond_32_bits_are_kept_whole(tmp_path, monkeypatch):
    """Pressure points double with every pressure: a game's total or pressure points can
    leave 32 bits under rules where the stock runs dry very often. They are written whole
    (64-bit columns), not wrapped into negative numbers."""
    from crates_sim.engine import api as engine
    from crates_sim.engine import engine_nb as nb

    real = engine._call_kernel

    def huge(*args, **kwargs):
        games_out, win_out, rows, stats = real(*args, **kwargs)
        games_out[nb.G_PPOINTS][5] = 5 << 40  # game 1, seat 1 (4 seats a game)
        games_out[nb.G_TOTAL][5] = 3 << 40
        return games_out, win_out, rows, stats

    monkeypatch.setattr(engine, "_call_kernel", huge)
    res = run_games(Rules.preset("classic", 4), ["random"] * 4, 3, 0, 4)
    assert res.games["pressure_points"][5] == 5 << 40 and res.games["total"][5] == 3 << 40
    out = tmp_path / "wide"
    assert crates("simulate", *BASE, "--workers", 1, "--out", out).exit_code == 0
    games = pl.read_parquet(out / "games" / chunk_name(0))
    assert games["pressure_points"][5] == 5 << 40 and games["total"][5] == 3 << 40


@pytest.mark.parametrize("column,narrow_type", [("total", "int32"), ("pressures", "int16")])
def test_a_dataset_of_narrow_columns_is_read_but_not_resumed(tmp_path, column, narrow_type):
    """total and pressure_points are 64-bit and pressures 32-bit; a dataset of an older
    version (32-bit totals, 16-bit pressures) still reads, and resuming it is refused in
    one line (chunks of both widths would not read as one dataset)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    out = tmp_path / "old"
    assert crates("simulate", *BASE, "--workers", 1, "--chunk-size", 40, "--out", out).exit_code == 0
    m = manifest(out)
    first = out / "games" / chunk_name(0)
    table = pq.read_table(first)
    wide = table.schema.field(column).type
    narrow = table.set_column(table.schema.get_field_index(column), column,
                              table[column].cast(getattr(pa, narrow_type)()))
    for c in m["chunks"]:
        pq.write_table(narrow if c["index"] == 0 else pq.read_table(out / "games" / chunk_name(c["index"])),
                       out / "games" / chunk_name(c["index"]))
    m["chunks"][-1]["state"] = "pending"  # something left to run
    (out / "manifest.json").write_text(json.dumps(m))
    res = crates("simulate", *BASE, "--workers", 1, "--chunk-size", 40, "--out", out)
    assert res.exit_code != 0 and "Traceback" not in res.output
    assert res.stderr.count("\n") == 1, res.stderr
    assert f"older crates-sim ({narrow_type} {column})" in res.stderr, res.stderr
    assert crates("simulate", *BASE, "--workers", 1, "--chunk-size", 40, "--out", out,
                  "--overwrite").exit_code == 0
    assert pq.read_schema(first).field(column).type == wide


def test_a_run_on_one_worker_gives_its_hand_row_buffer_back(tmp_path):
    # chunks run in this process write their hand rows into a buffer reused from chunk to
    # chunk (`engine._rows_room`); the run's end drops it, so the caller keeps no 47 MB
    from crates_sim.engine import api as engine

    seen = []

    def chunk(task):
        stats = runner.run_chunk(task)
        seen.append(getattr(engine._reused, "rows", None) is not None)
        return stats

    runner.simulate(Rules.preset("classic", 4), "random", games=30, seed=1, out=tmp_path / "r",
                    workers=1, chunk_size=10, detail="hands", _chunk_fn=chunk)
    assert seen == [True, True, True]  # the buffer was there, chunk after chunk
    assert getattr(engine._reused, "rows", None) is None


def test_the_kernel_cache_is_keyed_on_every_file_that_defines_kernels():
    """numba checks a cached kernel against its own file only: the cache folder's hash
    (`_cache.source_hash`) must cover every file whose functions the kernels compile in,
    or an edit there would leave stale kernels (seen: bits.py was missed at first)."""
    import re

    from crates_sim.data import _cache

    root = Path(_cache.__file__).resolve().parents[2]
    # resolved: crates_sim/strategies is a link to the top-level strategies/ folder
    hashed = {p.resolve() for pattern in _cache._KERNEL_SOURCES for p in root.glob(pattern)}
    decorated = re.compile(r"^@(leaf|kernel|inline_once|allocating|counted_leaf|intrinsic)\b",
                           re.MULTILINE)
    defining = {p.resolve() for folder in ("crates_sim", "strategies")
                for p in (root / folder).rglob("*.py") if decorated.search(p.read_text())}
    assert len(defining) > 15
    assert defining <= hashed, sorted(str(p.relative_to(root)) for p in defining - hashed)


@pytest.mark.parametrize("via_cli", [False, True])
def test_the_simulate_path_parses_each_strategy_spec_once(tmp_path, monkeypatch, via_cli):
    from crates_sim import strategy

    calls = []
    real = strategy.parse_spec
    monkeypatch.setattr(strategy, "parse_spec", lambda spec: calls.append(spec) or real(spec))
    specs = "greedy,random:forget=0.5,dump3,greedy"
    if via_cli:
        res = CliRunner().invoke(cli, ["simulate", "--preset", "classic", "--players", "4",
                                       "--strategies", specs, "--games", "40", "--seed", "1",
                                       "--workers", "1", "--chunk-size", "10",
                                       "--out", str(tmp_path / "d")])
        assert res.exit_code == 0, res.output
    else:
        crates_sim.simulate(Rules.preset("classic", 4), specs, games=40, seed=1,
                            out=tmp_path / "d", workers=1, chunk_size=10)
    assert sorted(calls) == sorted(specs.split(","))


def test_automatic_chunks_are_equal_per_worker_and_larger_without_hand_rows():
    from crates_sim.runs.runner import GAMES_CHUNK_SIZE, auto_chunk_size, plan_chunks

    assert auto_chunk_size(1_000_000, 2) == 20_000  # 50 chunks
    # 25 chunks of 40,000 made 26, a multiple of the workers: they finish together
    assert auto_chunk_size(1_000_000, 2, GAMES_CHUNK_SIZE) == 38_462
    assert len(plan_chunks(1_000_000, 38_462)) == 26
    assert auto_chunk_size(300_000, 2, GAMES_CHUNK_SIZE) == 37_500  # at least 4 a worker
    assert auto_chunk_size(5_000, 2, GAMES_CHUNK_SIZE) == 1_250  # none under 1,000 games


def test_a_shared_fallback_cache_folder_is_not_trusted(tmp_path, monkeypatch, capsys):
    """numba's cache index is a pickle: the /tmp fallback folder is used only when it is
    ours and only we can write to it (issue 40's read for code run from data)."""
    import os
    import tempfile

    from crates_sim.data import _cache

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    mine = _cache.private_temp_folder()
    assert mine == tmp_path / f"crates-sim-{os.getuid()}"
    assert mine.stat().st_mode & 0o777 == 0o700
    mine.chmod(0o777)  # as if someone else had made it, open to all
    other = _cache.private_temp_folder()
    assert other != mine and other.parent == tmp_path
    assert "not using" in capsys.readouterr().err
