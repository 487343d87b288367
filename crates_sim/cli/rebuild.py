"""`crates rebuild`: the commands that rebuild the data the package ships.

Contract: a click group of thin commands over the analyses, each deterministic for its
seed: `win-model` (crates_sim.analysis.win_model: analysis/win_model.json, the win
chances of `crates analyse`), `expert-cutoff` (crates_sim.strategies.expert_fit: expert's
learned value at the rollout cut, the VALUE block of strategies/expert.py) and `thumb`
(crates_sim.analysis.thumb: the rules of thumb drawn from expert's choices, which
strategies/thumb.py plays, and their fidelity) and `adept-measured`
(crates_sim.analysis.players: analysis/adept_measured.json, adept's distance from expert per
rule set, which balance and design print beside skill). Without --write, win-model,
expert-cutoff and adept-measured print what they make and change nothing. adept's and the apprentice's
weights are rebuilt by `crates train`.
"""

from __future__ import annotations

import json

import click

from ..analysis.thumb import DEPTH, KINDS
from ..analysis.win_model import FIT_GAMES
from .common import CratesGroup
from .options import OutPath, games_option, seed_option, write_text

__all__ = ["rebuild"]

#: expert_fit's POSITIONS and DEPTH (not imported: that module loads the engine)
POSITIONS = 6000
CUT_DEPTH = 15


@click.group(cls=CratesGroup)
def rebuild():
    """Rebuild a data file the package ships: the win model, expert's cutoff value, the rules of thumb.

    \b
    file                                 command                               time (2 cores)
    analysis/win_model.json              crates rebuild win-model --write      about a minute
    strategies/expert.py's VALUE block   crates rebuild expert-cutoff --write  about 30 s
    the rules of thumb (thumb.py's)      crates rebuild thumb                  about a minute
    strategies/apprentice.json           crates train                          see its --help
    strategies/adept.json                crates train --player adept           see its --help
    analysis/adept_measured.json         crates rebuild adept-measured DIR...  seconds (+ the compares)

    Each is deterministic for its seed; without --write, win-model and expert-cutoff
    print what they fit and change nothing.

    \b
    Examples:
      crates rebuild win-model --games 2000   a quick fit, printed, nothing written
      crates rebuild expert-cutoff --positions 1000
      crates rebuild thumb --data train/adept
    """


@rebuild.command("win-model")
@games_option(FIT_GAMES, help="Self-play games per table.")
@click.option("--write", is_flag=True, help="Rewrite analysis/win_model.json with the fit.")
def win_model(games, write):
    """Fit the win model of `crates analyse` (P(win | margin, hands left) per table).

    Per Crates table (classic, league, serbian x 2, 3, 4 players, 4 in partnerships), a
    logistic fit on the totals after every hand of `tuned` self-play games (seed 31); each
    table's coefficients are printed as they are fitted. --write rewrites the shipped
    analysis/win_model.json: about a minute on 2 cores at the default --games.

    \b
    Examples:
      crates rebuild win-model                 fit and print, write nothing
      crates rebuild win-model --write         rewrite analysis/win_model.json
      crates rebuild win-model --games 2000    a quick, rougher fit
    """
    from crates_sim.analysis.win_model import fit_all, write_models

    data = fit_all(games, echo=click.echo)
    if write:
        click.echo(f"wrote {write_models(data)}")


@rebuild.command("expert-cutoff")
@click.option("--positions", default=POSITIONS, show_default=True, type=click.IntRange(2, None),
              help="Positions per family (Crates, Crazy Eights).")
@seed_option(default=1, help="Seed of the positions")
@click.option("--depth", default=CUT_DEPTH, show_default=True, type=click.IntRange(1, None),
              help="The cut, in turns (expert's default depth).")
@click.option("--write", is_flag=True,
              help="Rewrite the VALUE block of strategies/expert.py (expert then recompiles).")
def expert_cutoff(positions, seed, depth, write):
    """Fit expert's learned value at the rollout cut (VALUE_CRATES, VALUE_EIGHTS).

    From decisions of `tuned` games, the hidden cards dealt as expert deals them, a random
    option is played out twice on the same streams, cut after --depth turns and to the
    hand's end; the coefficients of 12 features at the cut are fitted by least squares to
    the difference and printed with the fit's R^2. --write puts them into
    strategies/expert.py (about 30 s per 20,000 positions on one core).

    \b
    Examples:
      crates rebuild expert-cutoff --positions 1000             a quick fit, printed
      crates rebuild expert-cutoff --positions 20000 --write    the shipped coefficients
    """
    from crates_sim.strategies.expert_fit import expert_source, fit_all
    from crates_sim.strategies.expert_fit import write as write_value

    found = fit_all(positions, seed, depth, echo=click.echo)
    if write:
        path = expert_source()
        write_value(path, found["crates"], found["eights"])
        click.echo(f"written to {path}")


@rebuild.command()
@click.option("--data", "data_dir", default="train/adept", show_default=True,
              type=click.Path(file_okay=False),
              help="A `crates train --player adept` folder (its positions and expert's values).")
@click.option("--rounds", default="1,2", show_default=True, help="Its rounds to read, comma-separated.")
@click.option("--every", default=2, show_default=True, type=click.IntRange(1, None),
              help="Read every N-th block file (2: half the positions).")
@click.option("--depth", default=DEPTH, show_default=True, type=click.IntRange(1, None),
              help="The decision tree's depth.")
@click.option("--kinds", default=",".join(KINDS), show_default=True,
              help="Table kinds (adept's TABLES), comma-separated.")
@click.option("--json", "json_out", type=OutPath(dir_okay=False), default=None,
              help="Also write the report as JSON here.")
def thumb(data_dir, rounds, every, depth, kinds, json_out):
    """Draw the rules of thumb from expert's choices and measure how well they agree.

    A shallow decision tree (scikit-learn: pip install 'crates-sim[rules]') of "this
    option is expert's best" over named features of the option and the decision, fitted on
    the positions of a `crates train --player adept` folder; its leaves are printed in
    words, then, on held-out decisions, the agreement with expert and the regret (points
    per decision) of greedy, the tree, each rule of the `thumb` player, thumb, the
    apprentice and adept. About a minute on 2 cores at the defaults.

    \b
    Examples:
      crates rebuild thumb --data train/adept --json thumb.json
          (train/adept: made by crates train --player adept --games 6000 --rounds 2)
    """
    from crates_sim.analysis.thumb import load, render, report

    try:
        round_numbers = tuple(int(r) for r in rounds.split(","))
    except ValueError:
        raise click.BadParameter(f"{rounds!r}: give round numbers, e.g. 1,2",
                                 param_hint="--rounds") from None
    tables = load(data_dir, round_numbers, every,
                  tuple(k.strip() for k in kinds.split(",") if k.strip()))
    result = report(tables, depth=depth)
    click.echo(render(result))
    if json_out:
        write_text(json_out, json.dumps(result, indent=1) + "\n")


@rebuild.command("adept-measured")
@click.argument("folders", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False))
@click.option("--write", is_flag=True, help="Rewrite analysis/adept_measured.json with these rows.")
def adept_measured(folders, write):
    """Gather adept's measured distance from expert per rule set, which `balance` and `design`
    print beside every skill measure (analysis/adept_measured.json).

    FOLDERS are `crates compare --strategies adept,expert` outputs: a --tables run (its
    tables.csv) or one comparison (its compare.json); a rule set in two folders keeps the
    first folder's row. Without --write the file's text is printed. The shipped file comes
    from the runs in docs/strategies.md that its "about" names, newest first (the
    compares take a few hours on 2 cores in all).

    \b
    Examples:
      crates compare --strategies adept,expert --preset classic:draw_when_able=true \\
          --games 1000 --seed 39200 --cost 10 --out cmp/ae-dwa
      crates rebuild adept-measured cmp/ae-dwa          print the file it would write
    """
    from crates_sim.analysis.players import measured_path, measured_rows, measured_text

    text = measured_text(measured_rows(folders))
    if not write:
        click.echo(text, nl=False)
        return
    path = measured_path()
    path.write_text(text, encoding="utf-8")
    click.echo(f"wrote {path}")
