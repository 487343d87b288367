"""The `crates` command, in click: `main` holds the group (`crates_sim.cli.cli` is it) and
registers every command; a module per family of commands: `reference` (rules,
strategies), `logs` (trace, replay), `compile`, `simulate`, `play` (the terminal game's
loop), `train`, `report`, `analyse`, `contests` (compare, tournament, ladder), `design`
(balance, design), `lab` (sweep, tune), `rebuild` (the data files the package ships: the
win model, expert's cutoff value, the rules of thumb), `demo` (`make demo`) and `bench`
(`make bench`'s speed table); the shared options (`options`) and one-line errors
(`common`). The analyses themselves live in `crates_sim.analysis`.
"""

from ..lazy import front_getattr

__getattr__ = front_getattr(__name__, __file__, "main")
