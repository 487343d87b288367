"""Load (or compile, on a cold cache) the engine once in this process before any test, so
worker processes started by the tests find the kernels in numba's cache."""

import pytest


@pytest.fixture(scope="session", autouse=True)
def warm_engine():
    from crates_sim import Rules
    from crates_sim.engine.api import run_games

    run_games(Rules.preset("classic", 4), ["random"] * 4, 0, 0, 1)
    run_games(Rules.preset("crazy-eights", 4), ["greedy"] * 4, 0, 0, 1)
