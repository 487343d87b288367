"""compare and balance on a Dask LocalCluster give the same results as locally."""

import pytest
from click.testing import CliRunner

pytest.importorskip("distributed")

from crates_sim import Rules  # noqa: E402
from crates_sim.analysis.play import play  # noqa: E402
from crates_sim.cli import cli  # noqa: E402


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
