"""`crates trace` and `crates replay`: one game as a JSON Lines log, and a log as a
play-by-play or a page.

Contract: `trace` writes game I of seed S from the same kernel as `crates simulate` (event
recording on); `replay` reads such a log (refusing a damaged one in one line naming the
file and the line) and prints it, or writes the self-contained HTML page (--html).
"""

from __future__ import annotations

import json

import click

from ..errors import CratesError
from .options import OutPath, out_option, rules_options, seed_option, strategies_option, write_text

__all__ = ["replay", "trace"]


@click.command()
@rules_options
@strategies_option()
@seed_option(help="Seed of the run")
@click.option("--game", "game", default=0, show_default=True, type=click.IntRange(0, None),
              help="Game index within the seed's run.")
@out_option(required=False, file=True, help="Write the log here (default: standard output).")
def trace(rules, strategies, seed, game, out):
    """Write one game as a JSON Lines log (the events are in docs/log-format.md).

    The log comes from the same kernel as `crates simulate` with event recording on, so
    game I of seed S here is row for row the game I of a simulate run with seed S.

    \b
    Examples:
      crates trace --seed 7 --game 0 --out game.jsonl
      crates trace -p league -n 3 -s greedy,random,random --seed 1 --game 42
      crates replay game.jsonl
    """
    from ..play.pyagent_run import trace_game
    from ..strategy import parse_strategies

    specs = parse_strategies(strategies, rules.players)
    events = trace_game(rules, specs, seed, game)
    text = "\n".join(json.dumps(e, separators=(",", ":")) for e in events) + "\n"
    if out:
        write_text(out, text)
        end = events[-1]
        click.echo(f"wrote {len(events)} events to {out}; totals {end['totals']}, "
                   f"winners {end['winners']}", err=True)
    else:
        click.echo(text, nl=False)


@click.command()
@click.argument("log", type=click.Path(exists=True, dir_okay=False))
@click.option("--html", "html_out", type=OutPath(dir_okay=False), default=None,
              help="Write a page to watch the game instead: one self-contained HTML file.")
def replay(log, html_out):
    """Print a game log from `crates trace` as a play-by-play (or a page: --html).

    Each deal with the hands, each play with its effect, calls, draws and why, pressures,
    each hand's scores with the 3-covering shown, and the running totals. A log that is
    cut short or damaged is refused with one line naming the file and the line.

    \b
    Examples:
      crates trace --seed 1 --game 0 --out g.jsonl
      crates replay g.jsonl
      crates replay g.jsonl | less
      crates replay g.jsonl --html g.html   the table, step by step (arrow keys, a slider),
                                            the options at each decision, the 3-covering
    """
    from ..play.replay import play_by_play, read_log

    try:
        events = read_log(log)
        if html_out:
            from ..play.replay_html import write_page

            try:
                path = write_page(events, html_out)
            except OSError as exc:
                raise CratesError(f"cannot write {html_out}: {exc.strerror or exc}") from None
            click.echo(f"wrote {path}", err=True)
            return
        lines = play_by_play(events)
    except ValueError as exc:
        raise CratesError(str(exc)) from None
    except (KeyError, IndexError, TypeError) as exc:  # read_log checks; this is a backstop
        raise CratesError(f"{log}: cannot replay this log ({type(exc).__name__}: {exc})") from None
    click.echo("\n".join(lines))
