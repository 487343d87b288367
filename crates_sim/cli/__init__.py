"""The `crates` command, in click: `main` holds the group (`crates_sim.cli.cli` is it) and
rules, trace, replay, strategies, compile; a module per family of commands: `simulate`,
`play` (the terminal game's loop), `train`, `report`, `analyse`, `contests` (compare,
tournament, ladder), `design` (balance, design) and `lab` (sweep, tune); the shared
options (`options`), one-line errors (`common`), and `make bench`'s speed table
(`bench`). The analyses themselves live in `crates_sim.analysis`.
"""

from ..lazy import front_getattr

__getattr__ = front_getattr(__name__, __file__, "main")
