"""`crates analyse LOG`: every decision of a game judged by expert's search (issue 31 §1);
`crates analyse --strategies S,T --games N --out DIR`: where each strategy loses its
points, over many games (§2).

Contract: a thin click command whose two forms are two functions. With LOG (`_one_log`),
over crates_sim.analysis.move_analysis: reads the log (`read_log`: a damaged log is one
line), analyses the seats asked for, prints the summary (stdout), writes --json / --html,
shows progress on stderr. With --strategies (`_many`), over crates_sim.analysis.loss_map
(resumable folder, CSV + HTML, --deficits for the validation).
The two forms' options do not mix: one given to the other form is refused in one line.
"""

from __future__ import annotations

import json
import sys
import time

import click

from ..errors import CratesError
from .options import (
    OutPath,
    out_option,
    overwrite_option,
    quiet_option,
    rules_options,
    scheduler_option,
    seed_option,
    strategies_option,
    workers_option,
    write_text,
)

#: as analysis.move_analysis.DEFAULT_SAMPLES (not imported: --help stays light)
DEFAULT_SAMPLES = 4000
#: deals per option for --strategies (many games: a tenth of one log's default)
MANY_SAMPLES = 400
#: the options of each form (their parameter names), refused in the other
_LOG_ONLY = ("seats", "json_out", "html_out", "moves")
_MANY_ONLY = ("games", "against", "seed", "out", "deficits", "workers", "scheduler", "overwrite", "quiet",
              "preset", "players", "partnerships", "settings")

__all__ = ["analyse"]


@click.command()
@click.argument("log", type=click.Path(exists=True, dir_okay=False), required=False)
@click.option("--seat", "seats", multiple=True, type=click.IntRange(0, None),
              help="LOG: analyse this seat only (repeatable) [default: every seat].")
@click.option("--samples", default=None, type=click.IntRange(8, None),
              help=f"Deals of the unseen cards per option, over 8 independent searches (their spread "
                   f"is each value's uncertainty) [default: {DEFAULT_SAMPLES} for a LOG, "
                   f"{MANY_SAMPLES} with --strategies].")
@click.option("--json", "json_out", type=OutPath(dir_okay=False), default=None,
              help="LOG: also write the whole analysis (every decision, every option) as JSON here.")
@click.option("--html", "html_out", type=OutPath(dir_okay=False), default=None,
              help="LOG: also write the replay page (`crates replay --html`) with the annotations: "
                   "each decision's options and values, the loss, a per-move loss chart.")
@click.option("--moves", is_flag=True, help="LOG: print every analysed decision, not just the summary.")
@strategies_option(default=None, help="Instead of a LOG: analyse these strategies' own games, each against "
                                      "--against (seated as `crates compare` seats two strategies).")
@click.option("--games", "-g", default=None, type=click.IntRange(1, None),
              help="--strategies: games a strategy [default: 50].")
@click.option("--against", default="expert", show_default=True, metavar="SPEC",
              help="--strategies: the strategy at the other seats.")
@rules_options
@seed_option(help="--strategies: seed of the games")
@out_option(required=False, help="--strategies: the output folder (strategies.csv, situations.csv, "
                                 "loss.html; resumed when run again).")
@click.option("--deficits", default=0, show_default=True, type=click.IntRange(0, None), metavar="DEALS",
              help="--strategies: also measure each strategy's win-rate deficit against --against on "
                   "this many duplicate deals (seed + 1, `crates compare`) and how well the analysed "
                   "loss predicts it (Spearman, a fitted line).")
@workers_option
@scheduler_option
@overwrite_option("analysis")
@quiet_option()
@click.pass_context
def analyse(ctx, log, seats, samples, json_out, html_out, moves, strategies, games, against, rules, seed, out,
            deficits, workers, scheduler, overwrite, quiet):
    """Judge each card decision of a game log by expert's search, or find where strategies lose points.

    With a LOG (`crates trace`, `play --save`): the game is played again from the log (its
    rules, seed and game; a log that does not replay is refused in one line). At each play,
    play-again or count decision with two or more options, every option is valued by
    expert's search from the mover's information only (the unseen cards dealt as that seat
    could know them, never the true deal), in expected points to the end of the hand. The
    loss is the best option's value minus the chosen one's; "best" is claimed only beyond
    2 standard errors of the search. Labels: inaccuracy >= 5, mistake >= 10, blunder >= 20
    points. Per seat: the total expected loss, accuracy (the share of decisions losing
    under 2 points or within noise) and the three costliest decisions. Crates: each
    value's win chance too, from a model of P(win | margin, hands left) fitted on
    simulated games.

    With --strategies S,T,... --out DIR: each strategy plays --games games against
    --against and every one of its card decisions is analysed so; the losses are summed by
    situation (decision kind, rank played, hand size, an opponent or the partner on one
    card, count in progress, 3s held, stock low, hand number) into DIR/situations.csv,
    strategies.csv and loss.html (figures, the costliest positions linked into their
    replays). docs/analysis.md, "Move-by-move analysis" and "Where a strategy loses its
    points".

    \b
    Examples:
      crates trace -s expert,random,greedy,random --seed 3 --out a.jsonl
      crates analyse a.jsonl --seat 0
      crates analyse a.jsonl --samples 60 --json a-analysis.json   every seat, quicker
      crates analyse a.jsonl --seat 2 --samples 400 --html a.html
                                                 the replay page, annotated
      crates analyse a.jsonl --seat 1 --moves --samples 400
                                                 every decision with its options' values
      crates analyse --strategies greedy,random --games 2 --samples 40 --out where
                                                 where greedy and random lose points
      crates analyse -s greedy,dump3,random --against expert --games 2 --samples 40 \\
          --deficits 20 --out where3
                                                 and does the loss predict the strength?
    """
    _check_form(ctx, log, strategies)
    if strategies is not None:
        return _many(ctx, strategies, games, against, rules, seed, out, deficits, workers, scheduler, overwrite,
                     quiet, MANY_SAMPLES if samples is None else samples)
    return _one_log(log, seats, DEFAULT_SAMPLES if samples is None else samples, json_out, html_out, moves)


def _one_log(log, seats, samples, json_out, html_out, moves):
    """`crates analyse LOG`: every decision of one game (analysis.move_analysis)."""
    from ..analysis.move_analysis import analyse as run
    from ..analysis.move_analysis import summary_lines
    from ..play.replay import read_log

    try:
        events = read_log(log)
    except ValueError as exc:
        raise CratesError(str(exc)) from None
    t0 = time.perf_counter()
    tty = sys.stderr.isatty()
    shown = [0]

    def progress(done, total):
        """A line every tenth of the way (on a terminal, one line kept up to date)."""
        tenth = done * 10 // total
        if not tty and tenth == shown[0] and done != total:
            return
        shown[0] = tenth
        text = f"analysed {done}/{total} decisions ({time.perf_counter() - t0:.0f} s)"
        click.echo(f"\r{text}" if tty else text, err=True, nl=not tty or done == total)

    try:
        result = run(events, seats=list(seats) or None, samples=samples, progress=progress)
    except (KeyError, IndexError, TypeError) as exc:  # read_log checks; this is a backstop
        raise CratesError(f"{log}: cannot analyse this log ({type(exc).__name__}: {exc})") from None
    result["method"]["seconds"] = round(time.perf_counter() - t0, 1)
    click.echo("\n".join(summary_lines(result, every=moves)))
    if json_out:
        write_text(json_out, json.dumps(result, indent=1) + "\n")
        click.echo(f"wrote {json_out}", err=True)
    if html_out:
        from ..play.replay_html import write_page

        try:
            write_page(events, html_out, analysis=result)
        except OSError as exc:
            raise CratesError(f"cannot write {html_out}: {exc.strerror or exc}") from None
        click.echo(f"wrote {html_out}", err=True)


def _given(ctx, name: str) -> bool:
    from click.core import ParameterSource

    return ctx.get_parameter_source(name) not in (ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP, None)


def _flag(ctx, name: str) -> str:
    param = next(p for p in ctx.command.params if p.name == name)
    return max(param.opts, key=len)


def _check_form(ctx, log, strategies) -> None:
    """One form at a time: a LOG or --strategies, each with its own options."""
    if log is not None and strategies is not None:
        raise click.UsageError("give a LOG or --strategies, not both", ctx)
    if log is None and strategies is None:
        raise click.UsageError("give a LOG to analyse (`crates trace --out a.jsonl`), or --strategies "
                               "S,T,... --out DIR", ctx)
    wrong = [n for n in (_MANY_ONLY if log is not None else _LOG_ONLY) if _given(ctx, n)]
    if wrong:
        other = "--strategies" if log is not None else "a LOG"
        raise click.UsageError(f"{_flag(ctx, wrong[0])} goes with {other}"
                               + (" (a log's header gives its rules)" if wrong[0] in
                                  ("preset", "players", "partnerships", "settings") else ""), ctx)


def _many(ctx, strategies, games, against, rules, seed, out, deficits, workers, scheduler, overwrite, quiet,
          samples):
    """`crates analyse --strategies`: the loss map (analysis.loss_map)."""
    from ..analysis.loss_map import loss_map, summary_lines
    from ..strategy import split_specs

    if out is None:
        raise click.UsageError("--strategies needs --out DIR (the folder of the tables and loss.html)", ctx)
    specs = split_specs(strategies)
    t0 = time.perf_counter()

    def progress(done, total, seconds):
        if quiet:
            return
        left = seconds / max(done - progress.start, 1) * (total - done) if done > progress.start else 0
        click.echo(f"analysed {done}/{total} games ({seconds:.0f} s, about {left:.0f} s left)", err=True)

    progress.start = 0
    result = loss_map(rules, specs, games or 50, out, against=against, seed=seed, samples=samples,
                      deficits=deficits, workers=workers, scheduler=scheduler, overwrite=overwrite,
                      command_line=" ".join(["crates", *sys.argv[1:]]), progress=progress)
    result["seconds"] = time.perf_counter() - t0
    click.echo("\n".join(summary_lines(result)))
