"""`crates demo`: `make demo`'s dataset (keep3 against dump3, seats rotated) and its report.

Contract: a thin click command over crates_sim.analysis.demo.make_demo and
crates_sim.analysis.report: it writes the dataset into OUT (replacing what is there), then
OUT/report.html, and prints the report's three answers. Game i of seed S is the game
`crates compare` plays as deal i of seed S.
"""

from __future__ import annotations

import time

import click

from .options import out_option, seed_option, workers_option

__all__ = ["demo"]

#: where `make demo` writes
DEMO_OUT = "results/demo"


@click.command()
@click.option("--deals", default=20_000, show_default=True, type=click.IntRange(1, None),
              help="Deals, each played twice with the teams swapped.")
@seed_option(default=1)
@out_option(default=DEMO_OUT, help="Output folder (replaced): the dataset and report.html.")
@workers_option
def demo(deals, seed, out, workers):
    """Play keep-3s against dump-3s in classic partnerships and report on it (`make demo`).

    One team keeps its 3s until forced (keep3:three=100), the other plays a legal 3 first
    (dump3); each deal is played twice, the teams swapped, with per-hand rows. The report
    (OUT/report.html) answers whether keeping 3s pays, how often pressures happen and
    which seats are favoured. OUT is replaced.

    \b
    Examples:
      crates demo                                   20,000 deals into results/demo
      crates demo --deals 2000 --seed 2 --out results/demo-small
      crates report results/demo-small --out demo.html
    """
    from crates_sim.analysis.demo import DUMPER, KEEPER, make_demo
    from crates_sim.analysis.report import report

    t0 = time.perf_counter()
    path = make_demo(out, deals, seed, workers)
    t1 = time.perf_counter()
    click.echo(f"demo: {deals:,} deals x 2 seatings ({KEEPER} and {DUMPER} as teams, swapped) "
               f"in {t1 - t0:.1f} s: {path}")
    res = report(path, path / "report.html")
    for a in res["answers"]:
        click.echo(f"  {a.question} {a.sentence.replace('**', '')}")
    click.echo(f"report: {res['html']} ({time.perf_counter() - t1:.1f} s)")
