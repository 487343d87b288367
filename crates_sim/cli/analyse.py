"""`crates analyse LOG`: every decision of a game judged by expert's search (issue 31 §1).

Contract: a thin click command over crates_sim.analysis.move_analysis: reads the log
(`read_log`: a damaged log is one line), analyses the seats asked for, prints the summary
(stdout), writes --json, shows progress on stderr.
"""

from __future__ import annotations

import json
import sys
import time

import click

from ..errors import CratesError
from .options import OutPath

#: as analysis.move_analysis.DEFAULT_SAMPLES (not imported: --help stays light)
DEFAULT_SAMPLES = 4000

__all__ = ["analyse"]


@click.command()
@click.argument("log", type=click.Path(exists=True, dir_okay=False))
@click.option("--seat", "seats", multiple=True, type=click.IntRange(0, None),
              help="Analyse this seat only (repeatable) [default: every seat].")
@click.option("--samples", default=DEFAULT_SAMPLES, show_default=True, type=click.IntRange(8, None),
              help="Deals of the unseen cards per option, over 8 independent searches "
                   "(their spread is each value's uncertainty).")
@click.option("--json", "json_out", type=OutPath(dir_okay=False), default=None,
              help="Also write the whole analysis (every decision, every option) as JSON here.")
@click.option("--html", "html_out", type=OutPath(dir_okay=False), default=None,
              help="Also write the replay page (`crates replay --html`) with the annotations: "
                   "each decision's options and values, the loss, a per-move loss chart.")
@click.option("--moves", is_flag=True, help="Print every analysed decision, not just the summary.")
def analyse(log, seats, samples, json_out, html_out, moves):
    """Judge each card decision of a game log by expert's search (`crates trace`, `play --save`).

    The game is played again from the log (its rules, seed and game; a log that does not
    replay is refused in one line). At each play, play-again or count decision with two
    or more options, every option is valued by expert's search from the mover's
    information only (the unseen cards dealt as that seat could know them, never the true
    deal), in expected points to the end of the hand. The loss is the best option's value
    minus the chosen one's; "best" is claimed only beyond 2 standard errors of the search.
    Labels: inaccuracy >= 5, mistake >= 10, blunder >= 20 points. Per seat: the total
    expected loss, accuracy (the share of decisions losing under 2 points or within noise) and
    the three costliest decisions. Crates: each value's win chance too, from a model of
    P(win | margin, hands left) fitted on simulated games. docs/analysis.md, "Move-by-move
    analysis".

    \b
    Examples:
      crates trace -s expert,random,greedy,random --seed 3 --out a.jsonl
      crates analyse a.jsonl --seat 0
      crates analyse a.jsonl --samples 60 --json a-analysis.json   every seat, quicker
      crates analyse a.jsonl --seat 2 --samples 400 --html a.html
                                                 the replay page, annotated
      crates analyse a.jsonl --seat 1 --moves --samples 400
                                                 every decision with its options' values
    """
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
        try:
            with open(json_out, "w", encoding="utf-8") as fh:
                json.dump(result, fh, indent=1)
                fh.write("\n")
        except OSError as exc:
            raise CratesError(f"cannot write {json_out}: {exc.strerror or exc}") from None
        click.echo(f"wrote {json_out}", err=True)
    if html_out:
        from ..play.replay_html import write_page

        try:
            write_page(events, html_out, analysis=result)
        except OSError as exc:
            raise CratesError(f"cannot write {html_out}: {exc.strerror or exc}") from None
        click.echo(f"wrote {html_out}", err=True)
