"""Option bundles and error handling shared by the `crates` commands."""

import functools

import click

from ..errors import CratesError
from ..rules import PRESETS, Rules


def rules_options(fn):
    """--preset, --players, --partnerships/--no-partnerships, --set name=value ..."""

    @click.option("--preset", "-p", default="classic", show_default=True, callback=_preset_spec,
                  metavar="PRESET[:KNOB=VALUE,...]",
                  help=f"Rule set: {'|'.join(PRESETS)} (see `crates rules --list`), optionally with knobs "
                       f"as `crates balance` variants and `crates design`'s best.txt give them.")
    @click.option("--players", "-n", default=4, show_default=True, type=int,
                  help="Number of players.")
    @click.option("--partnerships/--no-partnerships", default=None,
                  help="Crates with 4 players: seats 0+2 and 1+3 as teams (preset default).")
    @click.option("--set", "settings", multiple=True, metavar="KNOB=VALUE",
                  help="Override one rule knob, e.g. --set seven_target=next (repeatable).")
    @functools.wraps(fn)
    def wrapper(*args, preset, players, partnerships, settings, **kwargs):
        name, _, rest = preset.partition(":")
        knobs = [s for s in rest.split(",") if s.strip()]
        rules = Rules.from_cli(name, players, partnerships, (*knobs, *settings))
        return fn(*args, rules=rules, **kwargs)

    return wrapper


def _preset_spec(ctx, param, value):
    """--preset: a preset name, or PRESET:knob=value,... (checked when the rules are built)."""
    name = value.partition(":")[0].strip()
    if name not in PRESETS:
        raise click.BadParameter(f"{name!r} is not one of {', '.join(PRESETS)}")
    return value.strip()


class CratesGroup(click.Group):
    """A group whose commands turn `CratesError` into one line on stderr and exit 2."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except CratesError as exc:
            click.echo(f"Error: {exc}", err=True)
            ctx.exit(2)
