"""Load (or compile, on a cold cache) the engine once in this process before any test, so
worker processes started by the tests find the kernels in numba's cache."""

import pytest


@pytest.fixture(scope="session", autouse=True)
def warm_engine():
    from crates_sim import Rules
    from crates_sim.engine.api import run_games

    run_games(Rules.preset("classic", 4), ["random"] * 4, 0, 0, 1)
    run_games(Rules.preset("crazy-eights", 4), ["greedy"] * 4, 0, 0, 1)


#: the modules that take longest (seconds on two cores, cold: `pytest --durations`), run
#: first so that `make test`'s two workers (pytest-xdist, --dist loadscope) end together:
#: a long module started last would leave one core idle while it runs
SLOW_FIRST = ("test_help_examples.py", "test_pasted_commands.py", "test_compare_balance.py",
              "test_report.py", "test_loss_map.py", "test_dask_analysis.py")


def pytest_collection_modifyitems(config, items):
    """Run SLOW_FIRST's modules first, in that order (stable: the rest keep theirs)."""
    rank = {name: i for i, name in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))
