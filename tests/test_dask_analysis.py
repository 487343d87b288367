"""compare and balance on a Dask LocalCluster give the same results as locally."""

import pytest
from click.testing import CliRunner

pytest.importorskip("distributed")

from crates_sim import Rules  # noqa: E402
from crates_sim.analysis.blocks import play  # noqa: E402
from crates_sim.cli.main import cli  # noqa: E402


def test_play_on_a_local_cluster_equals_the_local_run(tmp_path):
    rules = Rules.preset("classic", 4)
    local = play(rules, ["greedy", "random"], 3, 0, 40, tmp_path / "a", workers=1)
    dask = play(rules, ["greedy", "random"], 3, 0, 40, tmp_path / "b", scheduler="local:2")
    assert local.equals(dask)


def test_compare_and_balance_take_a_scheduler(tmp_path):
    runner = CliRunner()
    result = runner.invoke(cli, ["compare", "--strategies", "greedy,random", "--games", "20",
                                 "--seed", "1", "--out", str(tmp_path / "c"),
                                 "--scheduler", "local:2"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "c" / "pairs.csv").exists()
    result = runner.invoke(cli, ["balance", "--variants", "classic,league", "--games", "10",
                                 "--seed", "1", "--out", str(tmp_path / "b"),
                                 "--scheduler", "tcp://127.0.0.1:1"])
    assert result.exit_code != 0 and "Traceback" not in result.output


def test_sweep_takes_a_scheduler(tmp_path):
    runner = CliRunner()
    args = ["sweep", "weights:w3=-10..10:2", "--against", "greedy", "--games", "12", "--seed", "2",
            "-q", "--out", str(tmp_path / "s")]
    local = runner.invoke(cli, [*args[:-1], str(tmp_path / "l"), "--workers", "1"])
    assert local.exit_code == 0, local.output
    result = runner.invoke(cli, [*args, "--scheduler", "local:1"])
    assert result.exit_code == 0, result.output
    import pandas as pd

    from crates_sim.data.dataset import read_manifest

    assert pd.read_csv(tmp_path / "s" / "sweep.csv").equals(pd.read_csv(tmp_path / "l" / "sweep.csv"))
    m = read_manifest(tmp_path / "s" / "points" / "000")
    assert m["runs"][-1]["backend"] == "dask local:1"
    bad = runner.invoke(cli, [*args[:-1], str(tmp_path / "b"), "--scheduler", "tcp://127.0.0.1:1"])
    assert bad.exit_code != 0 and "Traceback" not in bad.output


def test_tournament_on_a_local_cluster_equals_the_local_run(tmp_path):
    """Blocks of different matches share chunk numbers: each must still run (and once)."""
    runner = CliRunner()
    args = ["tournament", "-s", "greedy,random,tuned", "--games", "10", "--seed", "2", "--no-samples"]
    local = runner.invoke(cli, [*args, "--workers", "1", "--out", str(tmp_path / "l")])
    assert local.exit_code == 0, local.output
    dask = runner.invoke(cli, [*args, "--scheduler", "local:2", "--out", str(tmp_path / "d")])
    assert dask.exit_code == 0, dask.output
    assert (tmp_path / "l" / "ratings.csv").read_text() == (tmp_path / "d" / "ratings.csv").read_text()
