"""`make demo`: a dataset whose report answers the three questions, and its report.

Contract. `make_demo(out, deals, seed, workers)` plays classic Crates, 4 players in
partnerships, `KEEPER` (greedy shedding that keeps its 3s until forced; in Crates it plays
exactly as greedy and hoard3) as one team against `DUMPER` (plays a legal 3 first) as the
other, on deals 0..deals-1 of `seed`, each deal twice with the teams swapped (the seats
rotated, as `crates compare` does), with per-hand rows (hands/). So the report can say
whether keeping 3s pays (the two differ only in their 3s, at every seat equally often on
the same deals), how often pressures happen, and which seats are favoured (every seat
hosts each strategy equally often). The dataset is OUT (made_by "compare", the rotated
schema `crates report` reads); `crates demo` (crates_sim/cli/demo.py) makes it and then
writes OUT/report.html (+ .md, PNGs).
"""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

from crates_sim.rules import Rules

KEEPER = "keep3:three=100"
DUMPER = "dump3"
DEALS = 20_000


def make_demo(out, deals: int = DEALS, seed: int = 1, workers: int | None = None, preset: str = "classic",
              players: int = 4) -> Path:
    """Write the demo dataset (module docstring) into `out`, replacing what is there."""
    from .blocks import open_dataset, play, rotations

    out = Path(out)
    if out.exists():
        shutil.rmtree(out)
    rules = Rules.preset(preset, players)
    specs = [KEEPER, DUMPER]
    plan = rotations(2, rules.players, rules.partnerships)
    command = shlex.join(["crates", "demo", "--deals", str(deals), "--seed", str(seed),
                          "--out", str(out)])
    with open_dataset(out, rules, specs, plan, seed, "hands", "compare", command) as writer:
        play(rules, specs, seed, 0, deals, out, "hands", workers, writer=writer, plan=plan)
    return out
