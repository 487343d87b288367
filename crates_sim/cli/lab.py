"""`crates sweep` and `crates tune`: a strategy's parameters, over a grid or searched.

Contract: thin click commands over crates_sim.analysis.sweep and .tune; each takes the
shared options of `options`. Older spellings kept hidden: `tune --games-per-eval`.
"""

from __future__ import annotations

import click

from ..errors import CratesError
from .options import (
    checked_workers as _workers,
)
from .options import (
    games_option,
    hidden_alias,
    out_option,
    overwrite_option,
    quiet_option,
    rules_options,
    scheduler_option,
    seed_option,
    workers_option,
)

__all__ = ["sweep", "tune"]


@click.command()
@click.argument("grid", nargs=-1, required=True, metavar="STRATEGY:PARAM=LOW..HIGH:N [SECOND]")
@rules_options
@click.option("--against", "-a", required=True, help="The baseline strategy every grid point plays against.")
@games_option(2000, help="Deals per grid point (each once per rotation of point and baseline over the seats).")
@seed_option(help="Seed of the deals (the same for every point)")
@out_option()
@overwrite_option("sweep")
@scheduler_option
@workers_option
@quiet_option()
def sweep(grid, rules, against, games, seed, out, overwrite, workers, quiet, scheduler):
    """Sweep a strategy parameter over a grid, each point against a baseline.

    A grid is STRATEGY:PARAM=LOW..HIGH:N: N evenly spaced values, both ends included,
    checked against the strategy's parameters and ranges (`crates strategies`). Two grids
    of the same strategy sweep their product (a heat map). Every point is a duplicate
    comparison against --against, as `crates compare` runs it: the same deals for every
    point, with the seats rotated. Writes OUT/sweep.csv (one row per point: the mean,
    robust and win-rate differences with 95% CIs), OUT/sweep.html (+ .md, PNGs: the curve
    or heat map, best point marked) and each point's games under OUT/points/.
    Rerunning the same command resumes: finished points are not played again.

    \b
    Examples:
      crates sweep "weights:w3=-60..60:13" --against greedy --preset classic --players 4 \\
          --games 20000 --seed 1 --out sw/w3
      crates sweep "weights:w3=-60..60:13" "weights:w5=0..40:5" --against greedy --out sw/w3w5
      crates sweep "aggressive:leader_weight=0..4:9" --against greedy --no-partnerships --out sw/lw
      crates sweep "keep3:three=-100..100:9" --against greedy --scheduler tcp://HEAD:8786 --out sw/k3
    """
    import sys

    from crates_sim.analysis.sweep import sweep as run_sweep

    res = run_sweep(rules, list(grid), against, games, seed, out, _workers(workers), overwrite=overwrite,
                    echo=lambda s: None if quiet else click.echo(s, err=True),
                    progress=not quiet and sys.stderr.isatty(), scheduler=scheduler)
    b = res["rows"].iloc[res["best"]]
    from crates_sim.analysis.render import ci_text

    click.echo(f"{len(res['rows'])} points ({res['ran']} played, {res['skipped']} already done) x "
               f"{games:,} deals in {res['wall']:.1f} s ({rules.describe()}, {rules.players} players)")
    click.echo(f"best: {b['spec']}  win-rate difference {ci_text(b['win_diff'], b['win_lo'], b['win_hi'], 1, pct=True)}"
               f", robust score difference {ci_text(b['robust'], b['robust_lo'], b['robust_hi'])}")
    click.echo(f"table: {res['paths']['html'].with_name('sweep.csv')}")
    click.echo(f"report: {res['paths']['html']}")


@click.command()
@click.argument("strategy", metavar="STRATEGY")
@rules_options
@click.option("--against", "-a", required=True,
              help="The field, comma-separated: the objective is the mean win-rate difference against them.")
@click.option("--params", default=None, metavar="P,Q,...",
              help="Tune only these parameters (default: every declared one not fixed in STRATEGY).")
@click.option("--budget", "-b", default=300, show_default=True, type=click.IntRange(1, None),
              help="Candidate evaluations (whole generations: ceil(budget / popsize) of them).")
@games_option(4000, help="Deals per evaluation, shared by a generation's candidates (each once per rotation, "
                         "against every strategy of the field).")
@hidden_alias("--games-per-eval", to="games", type=click.IntRange(1, None))
@click.option("--popsize", default=None, type=click.IntRange(2, None),
              help="Candidates per generation (default: CMA's, 4 + 3 ln n).")
@click.option("--sigma", default=0.5, show_default=True, type=float,
              help="CMA's initial step, in units of each parameter's scale (docs/analysis.md).")
@click.option("--validate-games", default=20000, show_default=True, type=click.IntRange(1, None),
              help="Fresh deals on which the result is validated against each strategy of the field.")
@seed_option(help="Seed from which the search's and the validation's deal seeds are derived")
@out_option()
@overwrite_option("tune")
@workers_option
@scheduler_option
@quiet_option()
def tune(strategy, rules, against, params, budget, games, popsize, sigma, validate_games, seed, out,
         overwrite, workers, scheduler, quiet):
    """Tune a strategy's parameters with CMA-ES against a field of strategies.

    STRATEGY is a spec whose declared parameters are searched (`crates strategies`);
    parameters it fixes stay fixed (weights:w6=-10). Every candidate of a generation plays
    the same deals (common random numbers), each a duplicate comparison with the seats
    rotated against every --against strategy; the objective is the mean win-rate
    difference. The result (the centre of CMA's final distribution) is validated on fresh
    deals against each strategy separately, and those intervals are the ones reported.
    Writes OUT/best.txt (a spec usable in --strategies), OUT/tune.csv (every evaluation),
    OUT/tune.html (+ .md, PNGs) and OUT/tune.json (the checkpoint). Rerunning the same
    command resumes after the last finished generation; a larger --budget continues.

    \b
    Examples:
      crates tune weights --against greedy,aggressive --preset classic --players 4 \\
          --budget 300 --games 4000 --seed 1 --out tune/w
      crates tune weights:w0=1 --params w3,w5,w7 --against greedy --no-partnerships --out tune/w357
      crates tune "keep3" --against greedy,dump3 --budget 60 --games 2000 --out tune/k3
      crates tune weights --against greedy --scheduler tcp://HEAD:8786 --out tune/w-dask
      crates tune weights --against expert:samples=16 --budget 40 --games 200 --out tune/we

    \b
    A search player in the field (pimc, expert) costs 1,000-10,000x a heuristic's turn
    (`crates strategies`): size --budget and --games to match.
    """
    import sys

    from crates_sim.analysis.render import ci_text
    from crates_sim.analysis.tune import tune as run_tune

    names = None
    if params is not None:
        names = [p.strip() for p in params.split(",") if p.strip()]
        if not names:
            raise CratesError("--params: name at least one parameter")
    res = run_tune(rules, strategy, against, out, budget, games, names, popsize, sigma, validate_games, seed,
                   _workers(workers), overwrite=overwrite,
                   echo=lambda s: None if quiet else click.echo(s, err=True),
                   progress=not quiet and sys.stderr.isatty(), scheduler=scheduler)
    click.echo(f"{res['generations']} generations x {res['popsize']} candidates ({res['ran']} run now, "
               f"{res['resumed']} done before) x {games:,} deals; search {res['search_seconds']:.1f} s, "
               f"this run {res['wall']:.1f} s ({rules.describe()}, {rules.players} players)")
    v = res["validation"]
    click.echo(f"best: {res['best']}")
    click.echo(f"validated on {v['games']:,} fresh deals (seed {res['validation_seed']}):")
    for r in v["rows"]:
        click.echo(f"  vs {r['against']}: win-rate difference {ci_text(r['win_diff'], r['win_lo'], r['win_hi'], 1, pct=True)}"
                   f", robust score difference {ci_text(r['robust'], r['robust_lo'], r['robust_hi'])}")
    click.echo(f"table: {res['paths']['html'].with_name('tune.csv')}")
    click.echo(f"report: {res['paths']['html']}")

