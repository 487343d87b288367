"""`crates train`: a thin command-line layer over `crates_sim.runs.train.train`."""

from __future__ import annotations

import re
import sys

import click

from ..errors import CratesError
from ..knob_space import TABLE_PARTS
from ..runs.train_adept import LEARNING_RATE, MAX_HIDDEN, VALUE_FLOOR
from .options import (
    Choice,
    games_option,
    out_option,
    overwrite_option,
    quiet_option,
    rules_options,
    scheduler_option,
    seed_option,
    workers_option,
)

#: the teacher `crates train` distils by default (docs/strategies.md, "apprentice"): expert
#: without its opponent model, the teacher of the shipped weights (so that the documented
#: command rebuilds them)
DEFAULT_TEACHER = "expert:infer=0"
#: adept's default teacher: expert with twice its samples (values less noisy; the
#: shipped networks' teacher)
ADEPT_TEACHER = "expert:samples=120"
#: `--tables every` (the default): every preset at every player count (knob_space.every_table)
#: and this many rule sets drawn from the whole knob space with --seed; the other choices are
#: `three` (knob_space.THREE_TABLES) and the parts of the table space in knob_space.TABLE_PARTS
ADEPT_RANDOM_TABLES = 41


@click.command()
@rules_options
@click.option("--player", type=Choice(["apprentice", "adept"]), default="apprentice",
              show_default=True,
              help="The learned player to rebuild: the linear apprentice, or adept's networks "
                   "(by default on classic partnerships, classic individual play and "
                   "crazy-eights, unless --preset/--players/--both name the tables).")
@click.option("--teacher", "-t", default=None, metavar="SPEC",
              help=f"The strategy whose choices the apprentice learns (any spec; a pimc teacher "
                   f"also gives its value of every option) [default: {DEFAULT_TEACHER}; "
                   f"adept: {ADEPT_TEACHER}].")
@click.option("--both", is_flag=True,
              help="Classic 4 players: games alternate between partnerships and individual play.")
@click.option("--per-table", is_flag=True,
              help="With --both: fit each table's weights on its own games (default: one fit).")
@click.option("--rounds", "-r", default=3, show_default=True, type=int,
              help="Rounds of expert iteration (a larger number continues a finished run).")
@games_option(60, help="Games per round (each records about sample x its card decisions).")
@click.option("--sample", default=0.1, type=float,
              help="Share of card decisions the teacher labels [default: 0.1; adept: 0.5].")
@click.option("--cap", default=10_000, show_default=True, type=int,
              help="Most decisions recorded per game.")
@click.option("--l2", default=0.001, show_default=True, type=float,
              help="Pull of the fit towards `tuned`'s weights (the start).")
@click.option("--gap-weight", default=0.0, show_default=True, type=float, metavar="POINTS",
              help="Weigh each decision in the fit by 0.5 + the teacher's value of its choice "
                   "minus its next best option's, at most POINTS (0: all alike; a pimc or "
                   "expert teacher).")
@click.option("--epochs", default=12, show_default=True, type=int,
              help="adept: passes of the fit over the data each round.")
@click.option("--members", default=1, show_default=True, type=click.IntRange(1, 2),
              help="adept: independent runs (seeds SEED, SEED+1, ...) in OUT/member-M, "
                   "their networks averaged into OUT/adept.json.")
@click.option("--tables", "table_set",
              type=Choice(["every", "three", *(part.name for part in TABLE_PARTS)]),
              default="every", show_default=True,
              help="adept, unless --preset/--players/--both name the tables: every preset at "
                   "every player count plus rule sets drawn from the whole knob space (with "
                   "--seed); three: classic with and without partnerships and crazy-eights "
                   "(adept:net=3's tables); " + "; ".join(part.help() for part in TABLE_PARTS)
                   + ".")
@click.option("--start", default=None, metavar="FILE|adept:net=K",
              help="adept: continue from these networks (a weights file, or a set adept "
                   "ships: adept:net=K): round 1's games are played by them and each fit "
                   "starts from them; the table kinds the tables do not play are kept as they "
                   "are (default: from nothing, round 1 played by the apprentice).")
@click.option("--refit", multiple=True, metavar="KIND",
              help="adept with --start: fit only this table kind's network (crates-individual, "
                   "crates-partnerships or eights-individual; repeat for more), the others "
                   "kept as --start has them [default: every kind the games reach].")
@click.option("--opponents", default=None, metavar="SPEC",
              help="adept: one side of each game (every other seat, alternating with the "
                   "game: in partnerships team 1+3, then team 0+2) plays SPEC between the "
                   "teacher's decisions, so the positions are those of games against it, "
                   "e.g. --opponents expert [default: the mover plays every seat].")
@click.option("--lr", type=click.FloatRange(0, min_open=True), default=None,
              help=f"adept: the fit's first step size [default: {LEARNING_RATE:g}].")
@click.option("--hidden", default=None, type=click.IntRange(8, MAX_HIDDEN),
              help="adept: hidden units of each network [default: 64 with --tables every, "
                   "else 32; with --start, the start's, and a larger H widens it: the new "
                   "units start with no say, so the fit starts from the start's play].")
@click.option("--lr-end", type=click.FloatRange(0, min_open=True), default=None,
              help="adept: the fit's step size falls from 0.003 to this over each round's "
                   "epochs (cosine; default: it stays 0.003).")
@click.option("--value-floor/--no-value-floor", default=None,
              help=f"adept: count an option the teacher values more than {VALUE_FLOOR:g} points "
                   f"below its decision's best as {VALUE_FLOOR:g} below it, in the fit and the "
                   "held-out regret (runs of pressures make rare options cost millions of "
                   "points, which a least-squares fit would follow; its runs hold out hashed "
                   "game numbers, so every table has held-out games) [default: on with "
                   "--tables every or a part of the table space (eights, crates, ...), off "
                   "with --tables three or tables named by --preset/--players/--both].")
@click.option("--eval-games", default=3000, show_default=True, type=int,
              help="Duplicate deals per round against `tuned` (the round's strength).")
@seed_option(help="Seed of the games")
@out_option(help="Output folder (rerun the same command there to resume).")
@overwrite_option("training run")
@workers_option
@scheduler_option
@quiet_option()
@click.pass_context
def train(ctx, rules, player, teacher, both, per_table, rounds, games, sample, cap, l2, gap_weight,
          epochs, members, table_set, start, refit, opponents, lr, hidden, lr_end, value_floor,
          eval_games, seed, out, overwrite, workers, scheduler, quiet):
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
      crates train --both --scheduler local:2 --out train/app-dask
      cp train/app/apprentice.json strategies/apprentice.json  ship them
      crates train --player adept --rounds 4 --games 4800 --out train/adept
          (round 4's networks across every table, adept:net=12: docs/strategies.md)
      crates train --player adept --tables three --members 2 --rounds 3 --games 6000 \\
          --out train/adept3   (adept:net=3's networks)
      crates train --player adept --preset league --players 2 --hidden 128 --rounds 3 \\
          --games 8000 --seed 10811 --out train/league-2p-h128
          (the two-player league specialist, adept:net=14)
      crates train --player adept --tables eights --start adept:net=12 \\
          --rounds 1 --games 9600 --epochs 6 --lr 0.001 --lr-end 0.0001 --seed 6601 \\
          --out train/adept-eights   (the shipped Crazy Eights network: docs/strategies.md)
      crates train --player adept --tables crates --start train/adept-eights/adept.json \\
          --refit crates-individual --rounds 2 --games 9600 --epochs 6 --lr 0.001 \\
          --lr-end 0.0001 --seed 8801 --out train/adept-crates   (adept:net=21)
      crates train --player adept --tables partnerships \\
          --start train/adept-crates/adept.json --refit crates-partnerships \\
          --rounds 2 --games 9600 --epochs 6 --lr 0.001 --lr-end 0.0001 \\
          --seed 10101 --out train/adept-partners   (adept:net=13)
      crates train --player adept --tables crates --start adept:net=21 \\
          --refit crates-individual --hidden 128 --rounds 2 --games 9600 --epochs 6 \\
          --lr 0.001 --lr-end 0.0001 --seed 10901 --out train/adept-crates-wide
          (the shipped Crates individual network, widened to 128 units)
      crates train --player adept --tables partnerships-short-deck --start adept:net=27 \\
          --refit crates-partnerships --opponents expert --rounds 2 --games 8000 \\
          --epochs 6 --lr 0.001 --lr-end 0.0001 --seed 12520 --out train/adept-partners-opp
          (positions of games against expert: docs/strategies.md)

    With --player adept each round plays --games games in which the teacher (pimc or
    expert) values every option of a --sample of the card decisions from the mover's
    information; the decision's and the options' rows go to OUT/round-K/data/ (one file
    per block of games, so an interrupted run resumes where it stopped), and adept's
    networks are fitted to the values' advantages (plain numpy, Adam), one per table
    kind, checked on held-out games (the teacher's regret and agreement). The mover is
    the apprentice in round 1 and the previous round's adept after. By default the games
    cycle through 70 tables: every preset at every player count, with and without
    partnerships, and 41 rule sets drawn from the whole knob space with --seed; from
    round 3 on, 30 focus tables join them (every preset with 2 players, draw_when_able
    on four Crates tables, classic partnerships with each knob value `crates balance
    --knobs all` tries). The networks read the rules (docs/strategies.md).
    OUT/adept.json is the last round's networks; --members K runs K such runs (seeds
    SEED..SEED+K-1) in OUT/member-M and writes their mean.
    """
    from ..runs.train import train as run_train

    if workers is not None and workers < 1:
        raise CratesError("--workers must be at least 1")
    if player == "adept":
        return _train_adept(ctx, rules, teacher or ADEPT_TEACHER, both, rounds, games,
                            0.5 if ctx.get_parameter_source("sample").name == "DEFAULT" else sample,
                            epochs, seed, out, overwrite, workers, scheduler, quiet,
                            members, lr_end, table_set, hidden, value_floor, start, lr, refit,
                            opponents)
    for name in ("members", "lr_end", "table_set", "hidden", "value_floor", "start", "lr",
                 "refit", "opponents"):
        if ctx.get_parameter_source(name).name != "DEFAULT":
            flag = {"table_set": "tables"}.get(name, name).replace("_", "-")
            raise CratesError(f"--{flag} is for --player adept")
    teacher = teacher or DEFAULT_TEACHER
    tables = [rules]
    if both:
        if rules.family != "crates" or rules.players != 4:
            raise CratesError("--both needs 4 players in a Crates preset (partnerships exist)")
        from ..rules import Rules

        knobs = {k: v for k, v in rules.knobs.items() if k != "partnerships"}
        tables = [Rules(rules.preset_name, 4, {**knobs, "partnerships": p}) for p in (True, False)]
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


def _start_file(value: str) -> str:
    """The weights file `--start` names: a file, or `adept:net=K` for set K as shipped."""
    from pathlib import Path

    from ..strategies.adept import N_NETS, shipped_weights_path

    shipped = re.fullmatch(r"adept:net=(\d+)", value.strip())
    if shipped:
        if int(shipped[1]) >= N_NETS:
            raise click.BadParameter(f"{value}: adept ships sets 0 to {N_NETS - 1}",
                                     param_hint="--start")
        return str(shipped_weights_path(int(shipped[1])))
    if not Path(value).is_file():
        raise click.BadParameter(f"{value}: no such weights file (a file, or adept:net=K for a "
                                 f"set adept ships)", param_hint="--start")
    return value


def _named_tables(ctx) -> bool:
    """Whether the command line names the rules (else adept learns the tables --tables names)."""
    return any(ctx.get_parameter_source(name).name != "DEFAULT"
               for name in ("preset", "players", "partnerships", "settings", "both"))


def _train_adept(ctx, rules, teacher, both, rounds, games, sample, epochs, seed, out, overwrite,
                 workers, scheduler, quiet, members=1, lr_end=None, table_set="every",
                 hidden=None, value_floor=None, start=None, lr=None, refit=(), opponents=None):
    """`crates train --player adept`: `crates_sim.runs.train_adept.train_adept`."""
    from ..knob_space import FOCUS_FROM, THREE_TABLES, focus_tables, table_part, training_tables
    from ..rules import Rules
    from ..runs.train_adept import train_members

    every = not _named_tables(ctx) and table_set == "every"
    # a round on one part of the table space (one family, Crates partnerships, two-player
    # tables, draws at will, ...): knob_space.TABLE_PARTS
    part = None if _named_tables(ctx) or table_set in ("every", "three") else table_part(table_set)
    # (a --start network keeps its width unless --hidden widens it: train_adept.widen_net)
    hidden = hidden or (64 if every and start is None else None)
    focus = []
    if every:
        tables = training_tables(seed, ADEPT_RANDOM_TABLES)
        focus = focus_tables()
    elif part is not None:
        tables = part.draw(seed)
    elif not _named_tables(ctx):
        tables = [Rules.from_cli(name, 4, p) for name, p in THREE_TABLES]
    elif both:
        if rules.family != "crates" or rules.players != 4:
            raise CratesError("--both needs 4 players in a Crates preset (partnerships exist)")
        knobs = {k: v for k, v in rules.knobs.items() if k != "partnerships"}
        tables = [Rules(rules.preset_name, 4, {**knobs, "partnerships": p}) for p in (True, False)]
    else:
        tables = [rules]
    command = " ".join(["crates", "train", *sys.argv[2:]]) if len(sys.argv) > 2 else ""
    try:
        res = train_members(tables, out, members, teacher=teacher, rounds=rounds, games=games,
                            sample=sample, seed=seed, epochs=epochs, workers=workers,
                            scheduler=scheduler, overwrite=overwrite, lr_end=lr_end,
                            hidden=hidden, robust=(every or part is not None)
                            if value_floor is None else value_floor, focus=focus,
                            focus_from=FOCUS_FROM if focus else None,
                            start=None if start is None else _start_file(start), lr=lr,
                            refit=tuple(refit), opponents=opponents,
                            echo=lambda s: None if quiet else click.echo(s, err=True),
                            progress=not quiet and sys.stderr.isatty(), command=command)
    except KeyboardInterrupt:  # Ctrl-C, or a SIGTERM (crates_sim.cli.common)
        click.echo(f"\nInterrupted: the blocks of games played so far and the rounds fitted "
                   f"are kept in {out}; run the same command again to resume where it "
                   f"stopped.", err=True)
        sys.exit(130)
    n = len(res["rounds"])
    click.echo(f"{n} round{'' if n == 1 else 's'} in {res['wall']:.1f} s")
    for m, run in enumerate(res.get("members", [res])):
        if members > 1:
            click.echo(f"member {m}:")
        for name, fit in (run["rounds"][-1] or {}).items():
            h = fit.get("held_out", {})
            if h.get("decisions"):
                click.echo(f"  {name}: held-out regret {h['regret']:.2f} points a decision, "
                           f"agreement with the teacher {h['agreement']:.1%} "
                           f"({h['decisions']:,} decisions)")
    if start is None:
        click.echo(f"networks: {out}/adept.json (ship them: cp {out}/adept.json "
                   f"strategies/adept.json)")
    else:  # a refit of a set: shipped as a set of its own, played where a route sends it
        click.echo(f"networks: {out}/adept.json (a set of its own: cp {out}/adept.json "
                   f"strategies/adept-NAME.json, then name it in adept.NET_FILES and route "
                   f"it: docs/strategies.md, Routes)")
