"""The Dask backend: same rows as a local run, survives a dead worker, clear errors."""

import functools
import json
import os
import sys
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

distributed = pytest.importorskip("distributed")
cloudpickle = pytest.importorskip("cloudpickle")

import crates_sim  # noqa: E402
from crates_sim.cli.main import cli  # noqa: E402
from crates_sim.data.dataset import chunk_name  # noqa: E402
from crates_sim.runs import dask_backend  # noqa: E402
from crates_sim.runs.runner import run_chunk  # noqa: E402

ARGS = ["--games", "60", "--seed", "5", "-s", "greedy,random", "-n", "2", "--chunk-size", "15", "-q"]

# The killing chunk function below travels to the workers by value, not by module name.
cloudpickle.register_pickle_by_value(sys.modules[__name__])


def crates(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def frames(path):
    path = Path(path)
    return (pl.read_parquet(path / "games" / "*.parquet").sort("game", "seat"),
            pl.read_parquet(path / "hands" / "*.parquet").sort("game", "hand", "seat"))


def same(a, b):
    (ga, ha), (gb, hb) = frames(a), frames(b)
    assert ga.equals(gb) and ha.equals(hb)


def manifest(path):
    return json.loads((Path(path) / "manifest.json").read_text())


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    out = tmp_path_factory.mktemp("ref") / "local"
    res = crates("simulate", *ARGS, "--workers", 1, "--out", out)
    assert res.exit_code == 0, res.output
    return out


@pytest.fixture(scope="module")
def cluster():
    """An 'existing' 2-worker cluster that tests reach by its tcp:// address."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=50) as lc:
        yield lc.scheduler_address


def test_local_cluster_equals_local_run(reference, tmp_path):
    out = tmp_path / "dask"
    res = crates("simulate", *ARGS, "--scheduler", "local:2", "--out", out)
    assert res.exit_code == 0, res.output
    m = manifest(out)
    assert m["status"] == "complete" and m["runs"][-1]["backend"] == "dask local:2"
    assert m["runs"][-1]["workers"] == 2
    assert len({c["worker"] for c in m["chunks"]}) >= 1
    same(reference, out)


def test_existing_cluster_and_resume(reference, tmp_path, cluster):
    out = tmp_path / "tcp"
    res = crates("simulate", *ARGS, "--scheduler", cluster, "--out", out)
    assert res.exit_code == 0, res.output
    same(reference, out)
    (out / "hands" / chunk_name(2)).unlink()
    res = crates("simulate", *ARGS, "--scheduler", cluster, "--out", out)
    assert res.exit_code == 0, res.output
    assert manifest(out)["runs"][-1]["chunks_run"] == 1
    same(reference, out)
    # a Dask run resumes locally too, and vice versa
    (out / "games" / chunk_name(0)).unlink()
    assert crates("simulate", *ARGS, "--workers", 1, "--out", out).exit_code == 0
    same(reference, out)


def _dies_once(marker, task):
    """Run the chunk, except that the first worker to reach chunk 1 dies outright."""
    if task.index == 1:
        try:
            fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            pass
        else:
            os.close(fd)
            os._exit(1)
    return run_chunk(task)


def test_a_killed_worker_still_gives_a_complete_dataset(reference, tmp_path, cluster):
    marker = tmp_path / "died"
    out = tmp_path / "killed"
    ds = crates_sim.simulate("classic", "greedy,random", games=60, seed=5, out=out,
                             chunk_size=15, scheduler=cluster,
                             _chunk_fn=functools.partial(_dies_once, str(marker)))
    assert marker.exists()  # a worker really died
    assert ds.manifest["status"] == "complete"
    same(reference, out)


def test_unreachable_scheduler(tmp_path, monkeypatch):
    monkeypatch.setattr(dask_backend, "CONNECT_TIMEOUT", 1)
    out = tmp_path / "never"
    res = crates("simulate", *ARGS, "--scheduler", "tcp://127.0.0.1:1", "--out", out)
    assert res.exit_code == 2
    assert res.stderr.count("\n") == 1
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:1" in res.stderr
    assert not out.exists()


def test_without_distributed_says_how_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails as if not installed
    res = crates("simulate", *ARGS, "--scheduler", "local:2", "--out", tmp_path / "x")
    assert res.exit_code == 2
    assert res.stderr == "Error: the Dask backend needs the optional extra: pip install 'crates-sim[dask]'\n"


def test_tune_on_dask_finds_what_local_workers_find(tmp_path):
    # the same search on a local Dask cluster: every evaluation and the validation agree
    import pandas as pd

    tiny = ["weights", "--against", "greedy", "--popsize", "4", "--budget", "4",
            "--games-per-eval", "20", "--validate-games", "40", "--seed", "3", "-q"]
    local = CliRunner().invoke(cli, ["tune", *tiny, "--workers", "1", "--out", str(tmp_path / "a")])
    assert local.exit_code == 0, local.output
    res = CliRunner().invoke(cli, ["tune", *tiny, "--scheduler", "local:2", "--out", str(tmp_path / "b")])
    assert res.exit_code == 0, res.output
    a, b = (pd.read_csv(tmp_path / d / "tune.csv") for d in ("a", "b"))
    assert len(a) == 4 and a.drop(columns=["seconds"], errors="ignore").equals(
        b.drop(columns=["seconds"], errors="ignore"))
    assert (tmp_path / "a" / "best.txt").read_text() == (tmp_path / "b" / "best.txt").read_text()
    state = json.loads((tmp_path / "b" / "tune.json").read_text())
    assert "--scheduler local:2" in state["command"]
