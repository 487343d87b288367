"""`make demo`: a dataset whose report answers the three questions, and its report.

Contract. `make_demo(out, deals, seed, workers)` plays classic Crates, 4 players in
partnerships, `KEEPER` (greedy shedding that keeps its 3s until forced; in Crates it plays
exactly as greedy and hoard3) as one team against `DUMPER` (plays a legal 3 first) as the
other, on deals 0..deals-1 of `seed`, each deal twice with the teams swapped (the seats
rotated, as `crates compare` does), with per-hand rows (hands/). So the report can say
whether keeping 3s pays (the two differ only in their 3s, at every seat equally often on
the same deals), how often pressures happen, and which seats are favoured (every seat
hosts each strategy equally often). The dataset is OUT (made_by "compare", the rotated
schema `crates report` reads); `main` then writes OUT/report.html (+ .md, PNGs).

    python -m crates_sim.analysis.demo [--deals 20000] [--seed 1] [--out results/demo]
"""

from __future__ import annotations

import argparse
import shlex
import shutil
import time
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
    command = shlex.join(["python", "-m", "crates_sim.analysis.demo", "--deals", str(deals), "--seed", str(seed),
                          "--out", str(out)])
    with open_dataset(out, rules, specs, plan, seed, "hands", "compare", command) as writer:
        play(rules, specs, seed, 0, deals, out, "hands", workers, writer=writer, plan=plan)
    return out


def main(argv=None) -> int:
    """Make the demo dataset and its report; print where they are."""
    from .report import report

    ap = argparse.ArgumentParser(prog="python -m crates_sim.analysis.demo", description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=DEALS, help=f"deals, each played twice (default {DEALS:,})")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="results/demo")
    ap.add_argument("--workers", type=int, default=None)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    out = make_demo(args.out, args.deals, args.seed, args.workers)
    t1 = time.perf_counter()
    print(f"demo: {args.deals:,} deals x 2 seatings ({KEEPER} and {DUMPER} as teams, swapped) in {t1 - t0:.1f} s: {out}")
    res = report(out, out / "report.html")
    for a in res["answers"]:
        print(f"  {a.question} {a.sentence.replace('**', '')}")
    print(f"report: {res['html']} ({time.perf_counter() - t1:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
