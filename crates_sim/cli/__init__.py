"""The `crates` command: click commands, a thin layer over the Python API (`main`
holds the command group; `crates_sim.cli.cli` is it).
"""

from ..lazy import front_getattr

__getattr__ = front_getattr(__name__, __file__, "main")
