"""`crates train`: a thin command-line layer over `crates_sim.runs.train.train`."""

from __future__ import annotations

import sys

import click

from ..errors import CratesError
from .common import rules_options

#: the teacher `crates train` distils by default (docs/strategies.md, "apprentice"): expert
#: without its opponent model, the teacher of the shipped weights (so that the documented
#: command rebuilds them)
DEFAULT_TEACHER = "expert:infer=0"


@click.command()
@rules_options
@click.option("--teacher", "-t", default=DEFAULT_TEACHER, show_default=True, metavar="SPEC",
              help="The strategy whose choices the apprentice learns (any spec; a pimc teacher "
                   "also gives its value of every option).")
@click.option("--both", is_flag=True,
              help="Classic 4 players: games alternate between partnerships and individual play.")
@click.option("--per-table", is_flag=True,
              help="With --both: fit each table's weights on its own games (default: one fit).")
@click.option("--rounds", "-r", default=3, show_default=True, type=int,
              help="Rounds of expert iteration (a larger number continues a finished run).")
@click.option("--games", "-g", default=60, show_default=True, type=int,
              help="Games per round (each records about sample x its card decisions).")
@click.option("--sample", default=0.1, show_default=True, type=float,
              help="Share of card decisions the teacher labels.")
@click.option("--cap", default=10_000, show_default=True, type=int,
              help="Most decisions recorded per game.")
@click.option("--l2", default=0.001, show_default=True, type=float,
              help="Pull of the fit towards `tuned`'s weights (the start).")
@click.option("--gap-weight", default=0.0, show_default=True, type=float, metavar="POINTS",
              help="Weigh each decision in the fit by 0.5 + the teacher's value of its choice "
                   "minus its next best option's, at most POINTS (0: all alike; a pimc or "
                   "expert teacher).")
@click.option("--eval-games", default=3000, show_default=True, type=int,
              help="Duplicate deals per round against `tuned` (the round's strength).")
@click.option("--seed", default=0, show_default=True, type=int, help="Seed of the games.")
@click.option("--out", "-o", required=True, type=click.Path(file_okay=False),
              help="Output folder (rerun the same command there to resume).")
@click.option("--overwrite", is_flag=True, help="Replace a different training run in OUT.")
@click.option("--workers", type=int, default=None, help="Worker processes (default: every CPU).")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT|local:K",
              help="Play the games on a Dask cluster, as `crates simulate --scheduler`.")
@click.option("--quiet", "-q", is_flag=True, help="No progress on stderr.")
def train(rules, teacher, both, per_table, rounds, games, sample, cap, l2, gap_weight, eval_games,
          seed, out, overwrite, workers, scheduler, quiet):
    """Rebuild the apprentice's weights by expert iteration.

    Each round plays --games games in which the current apprentice moves (round 1:
    `tuned`) and the teacher labels a --sample of the card decisions; the features of
    every option and the teacher's choice go to OUT/round-K/decisions.parquet. A softmax
    over the options is then fitted to every round's decisions (plain numpy, Newton's
    method; --both --per-table: one weight vector per table, each on its own games;
    --gap-weight: the decisions where the teacher sees more at stake count more), checked on
    held-out games (agreement with the teacher) and played against `tuned` on
    duplicate deals. OUT/round-K/weights.json holds each round's weights and
    figures; OUT/apprentice.json the best round's against `tuned`, the file the package ships as
    strategies/apprentice.json. Rerunning the same command resumes after the last
    finished round; a larger --rounds continues.

    \b
    Examples:
      crates train --both --per-table --gap-weight 30 -r 3 -g 1500 --sample 0.3 --out train/app
          (the shipped weights: docs/strategies.md)
      crates train --teacher pimc --rounds 2 --games 20 --out train/quick
      crates train --no-partnerships --teacher pimc:samples=100:depth=16 --out train/ind
      crates train --both --scheduler local:2 --out train/app
      cp train/app/apprentice.json strategies/apprentice.json  ship them
    """
    from ..runs.train import train as run_train

    tables = [rules]
    if both:
        if rules.family != "crates" or rules.players != 4:
            raise CratesError("--both needs 4 players in a Crates preset (partnerships exist)")
        from ..rules import Rules

        knobs = {k: v for k, v in rules.knobs.items() if k != "partnerships"}
        tables = [Rules(rules.preset_name, 4, {**knobs, "partnerships": p}) for p in (True, False)]
    if workers is not None and workers < 1:
        raise CratesError("--workers must be at least 1")
    res = run_train(tables, out, teacher, rounds=rounds, games=games, sample=sample, cap=cap,
                    seed=seed, l2=l2, eval_games=eval_games, workers=workers,
                    scheduler=scheduler, overwrite=overwrite, per_table=per_table,
                    gap_weight=gap_weight,
                    echo=lambda s: None if quiet else click.echo(s, err=True),
                    progress=not quiet and sys.stderr.isatty())
    last = res["rounds"][-1]
    click.echo(f"{len(res['rounds'])} rounds in {res['wall']:.1f} s; held-out agreement with "
               f"the teacher {last['held_out_agreement']:.1%}")
    for s in last["strength"]:
        click.echo(f"  against {s['vs']} ({s['play']}, {s['games']:,} deals): "
                   f"{100 * s['win_diff']:+.1f} points [{100 * s['win_lo']:+.1f}, "
                   f"{100 * s['win_hi']:+.1f}]")
    click.echo(f"weights: {out}/apprentice.json")
