"""Load (or compile, on a cold cache) the engine once in this process before any test, so
worker processes started by the tests find the kernels in numba's cache; run the slowest
modules first; and draw the pages' figures only where a test is about them.

Figures: every page's figures are built in every test (their data, axes, bars, legends),
but drawing them to PNG (matplotlib's layout and rasterising, 0.15-0.3 s a figure) was a
third of the suite's time on two cores (cold, `make test`: 398 s with every figure drawn,
264 s with none). So they are drawn only in the tests marked `figures`: every `--help`
example (tests/test_help_examples.py, which writes every kind of page) and the tests that
look at the PNGs. Elsewhere `render.png_bytes` gives a 1x1 PNG. Processes the tests start
(workers, `crates` run as a command) draw as usual.
"""

import pytest


@pytest.fixture(scope="session", autouse=True)
def warm_engine():
    from crates_sim import Rules
    from crates_sim.engine.api import run_games

    run_games(Rules.preset("classic", 4), ["random"] * 4, 0, 0, 1)
    run_games(Rules.preset("crazy-eights", 4), ["greedy"] * 4, 0, 0, 1)


#: the modules that take longest (seconds on two cores, cold: `pytest --durations`), run
#: first so that `make test`'s two workers (pytest-xdist, --dist loadscope, in this order:
#: --no-loadscope-reorder) end together: a long module started last would leave one core
#: idle while it runs. The help examples come in two halves (two classes), one a worker
SLOW_FIRST = ("test_help_examples.py", "test_pasted_commands.py", "test_compare_balance.py",
              "test_report.py", "test_loss_map.py", "test_dask_analysis.py")


def pytest_collection_modifyitems(config, items):
    """Run SLOW_FIRST's modules first, in that order (stable: the rest keep theirs)."""
    rank = {name: i for i, name in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


#: a valid 1x1 PNG: what a figure is written as outside the `figures` tests
BLANK_PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                          "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082")


@pytest.fixture(autouse=True)
def undrawn_figures(request, monkeypatch):
    """Outside the tests marked `figures`, a page's figures are built but not drawn (module
    doc)."""
    if request.node.get_closest_marker("figures"):
        return
    import matplotlib.pyplot as plt

    from crates_sim.analysis import render

    def blank(fig) -> bytes:
        plt.close(fig)
        return BLANK_PNG

    monkeypatch.setattr(render, "png_bytes", blank)
