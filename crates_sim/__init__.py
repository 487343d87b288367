"""crates-sim: a Monte Carlo strategy-analysis toolkit for Crates and Crazy Eights.

Here: the cards and the kernels' shared constants (`cards`), rule sets (`rules`) and the
knob space learned players train on (`knob_space`), strategy specs (`strategy`), their
ids and the built-ins' registry (`strategy_ids`), a strategy's parameters and the
built-ins' declarations (`params`), users' own strategies (`userstrat`) and what a
strategy sees (`view`), the one user error (`errors`), lazy folder fronts (`lazy`), the
PettingZoo path (`env`) and the version (`_version`). Folders: the numba primitives
below every compiled strategy (`core`: jit decorators, random streams), the numba engine
(`engine`), one game at a time (`play`), many games (`runs`), datasets (`data`), the
analyses (`analysis`), the built-in strategies (`strategies`) and the `crates` command
(`cli`). Their imports run one way (pyproject.toml's import-linter contract).
"""

from ._version import __version__  # a leaf: data.manifest reads it there too
from .data._cache import configure_numba_cache  # noqa: E402

configure_numba_cache()  # before any kernel is defined: see _cache.py

from .data.dataset import Dataset  # noqa: E402
from .errors import CratesError  # noqa: E402
from .rules import Rules  # noqa: E402
from .runs.runner import simulate  # noqa: E402

__all__ = ["CratesError", "Dataset", "Rules", "__version__", "simulate"]
