"""`crates rules` and `crates strategies`: what the presets' knobs and the built-in
strategies are.

Contract: `rules` prints a preset's knobs (or lists the presets, or every preset as JSON)
as the rules a command given the same --preset/--set would play; `strategies` lists the
built-in strategies with their parameters. Neither plays a game.
"""

from __future__ import annotations

import json

import click

from ..errors import CratesError, did_you_mean
from ..rules import KNOB_HELP, KNOBS, PRESETS, Rules
from .options import build_rules, players_option

__all__ = ["rules", "strategies"]


@click.command()
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


@click.command()
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
