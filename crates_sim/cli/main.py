"""The `crates` command line: a thin layer over the Python API."""

import json

import click

from .. import __version__
from ..errors import CratesError, did_you_mean
from ..rules import KNOB_HELP, KNOBS, PRESETS, Rules
from .common import CratesGroup
from .options import (
    OutPath,
    build_rules,
    out_option,
    players_option,
    rules_options,
    seed_option,
    strategies_option,
    write_text,
)


@click.group(cls=CratesGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="crates-sim")
def cli():
    """crates-sim: simulate Crates and Crazy Eights between strategies and report on it.

    \b
    Examples, to start with:
      crates rules --list                          the rule presets
      crates strategies                            the built-in strategies and their parameters
      crates simulate --games 10000 --out runs/first
                                                   classic 4-player partnership games, random play
      crates trace --game 0 --out g.jsonl          one game as a JSON Lines log
      crates replay g.jsonl                        that log as a play-by-play
      crates report runs/first                     an HTML report of a simulate dataset
    """


@cli.command()
@click.argument("preset", required=False, metavar="[PRESET[:KNOB=VALUE,...]]")
@click.option("--list", "list_", is_flag=True, help="List the presets.")
@players_option
@click.option("--set", "settings", multiple=True, metavar="KNOB=VALUE",
              help="Override one rule knob, e.g. --set seven_target=next (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print the knobs as JSON.")
def rules(preset, list_, players, settings, as_json):
    """Print a preset's knobs, or list the presets (--list, or no PRESET).

    PRESET may carry knobs, as --preset takes it (classic:seven_target=next), and --set
    overrides any knob: the knobs shown are the rules a command given the same would play.
    With --json and no PRESET, every preset's knobs as one JSON object
    {preset: {knob: value}}.

    \b
    Examples:
      crates rules --list
      crates rules league -n 3
      crates rules classic --json
      crates rules classic:seven_target=next --set spare_three=5
      crates rules --json              every preset's knobs
    """
    if preset is None and settings:
        raise CratesError("--set needs a PRESET, e.g. crates rules classic --set seven_target=next")
    if as_json and preset is None:
        every = {}
        for name, (_, (lo, hi), _, _) in PRESETS.items():
            every[name] = Rules.preset(name, min(max(players, lo), hi)).to_dict()
        click.echo(json.dumps(every, indent=2))
        return
    if list_ or preset is None:
        for name, (family, (lo, hi), _, desc) in PRESETS.items():
            click.echo(f"{name:<18} {family:<7} {lo}-{hi} players  {desc}")
        if not list_:
            click.echo("\n(`crates rules PRESET` for its knobs)")
        return
    name = preset.partition(":")[0].strip()
    if name not in PRESETS:
        raise CratesError(f"unknown preset {name!r}{did_you_mean(name, PRESETS)}; "
                          f"presets: {', '.join(PRESETS)}")
    lo, hi = PRESETS[name][1]
    clamped = min(max(players, lo), hi)
    the_rules = build_rules(preset, clamped, None, settings)
    values = the_rules.to_dict()
    if as_json:
        click.echo(json.dumps(values, indent=2))
        return
    changed = the_rules.differences()
    title = the_rules.describe() if changed else name
    click.echo(f"{title} ({the_rules.family}, {lo}-{hi} players); shown for {the_rules.players} players")
    for key, value in values.items():
        allowed = KNOBS[key][1]
        allowed = "|".join(allowed) if isinstance(allowed, tuple) else allowed.__name__
        mark = "*" if key in changed else " "
        click.echo(f" {mark}{key:<19} {str(value):<14} {allowed:<32} {KNOB_HELP[key]}")
    if changed:
        click.echo("\n* changed from the preset")
    click.echo("\nOverride any knob with --set name=value, e.g. --set seven_target=next")

@cli.command()
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


@cli.command()
def strategies():
    """List the built-in strategies, their parameters, and how to use your own.

    \b
    A spec is NAME or NAME:key=value:key=value, e.g.  greedy:forget=0.1
    Your own: an @njit function in a .py file (or an importable module), named as
      --strategies mybots.py:cautious,greedy,greedy,greedy
    See docs/strategies.md for the interface and a worked example.

    \b
    Examples:
      crates strategies
      crates simulate -s greedy:forget=0.1 --games 10000
      crates simulate -s mybots.py:cautious,greedy,greedy,greedy
    """
    from ..strategy import BUILTINS, describe_range

    for name, (_, description, params) in BUILTINS.items():
        click.echo(f"{name:<11} {description}")
        for key, param in params.items():
            click.echo(f"{'':<11}   {key}={param.default:g}  {param.text} "
                       f"[{describe_range(param)}]")
    click.echo("\nYour own: FILE.py:FUNCTION or package.module:FUNCTION (see docs/strategies.md)")


@cli.command()
@click.option("--strategies", "-s", default="", metavar="A,B,...",
              help="Also compile these strategies' adapters (pimc, your FILE.py:FUNCTION).")
def compile(strategies):
    """Compile the engine into numba's cache, so that the first run starts at once.

    Compiles what every documented command uses: the engine, every built-in strategy
    (pimc, expert, apprentice ...), the step engine of `play` and the replays. Cold (a
    new machine, an upgrade) it takes 18-40 s on two cores; then every later
    command loads it from the cache in about a second. --strategies also compiles (and
    checks) your own. `make setup` runs this; a command run on a cold cache compiles
    what it needs by itself.

    \b
    Examples:
      crates compile
      crates compile --strategies pimc
      crates compile --strategies mybots.py:cautious   (checks that it compiles)
    """
    import time

    from ..engine.api import prepare
    from ..engine.warm import compile_everything
    from ..strategy import parse_spec

    specs = [s.strip() for s in strategies.split(",") if s.strip()]
    for spec in specs:
        parse_spec(spec)
    t0 = time.perf_counter()
    seconds, cold = compile_everything(echo=lambda line: click.echo(line, err=True))
    seconds += prepare(specs) if specs else 0.0
    state = f"compiled in {seconds:.0f} s" if cold or seconds > 0.5 else "loaded from the cache"
    click.echo(f"engine and built-in strategies ready ({state}; {time.perf_counter() - t0:.1f} s)",
               err=True)


@cli.command()
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


from .simulate import simulate  # noqa: E402

cli.add_command(simulate)

from .play import play  # noqa: E402

cli.add_command(play)

from .train import train  # noqa: E402

cli.add_command(train)

from .contests import compare, ladder, tournament  # noqa: E402
from .design import balance, design  # noqa: E402
from .lab import sweep, tune  # noqa: E402
from .report import report  # noqa: E402

for command in (report, compare, balance, sweep, tune, tournament, design, ladder):
    cli.add_command(command)

from .analyse import analyse  # noqa: E402

cli.add_command(analyse)
