"""The options every `crates` command shares, each declared once (issue 32 §4, §6).

Contract: a command takes the rule set, the strategies, the game count, the seed, the
output path, the worker count and the Dask scheduler through these decorator factories
only, so each option has one name, one short flag, one range and one help text across
the commands:

  --preset/-p, --players/-n, --partnerships, --set   `rules_options` (or `preset_option`
                                                      and `players_option` alone)
  --strategies/-s   `strategies_option`
  --games/-g        `games_option`       whole number >= 1
  --seed            `seed_option`        0 .. 2**63-1
  --out/-o          `out_option`         an empty path is refused (it would mean here)
  --workers/-w      `workers_option`     whole number >= 1 [default: every CPU]
  --scheduler       `scheduler_option`   tcp://HOST:PORT or local:K

Older spellings stay accepted, hidden from --help, through `hidden_alias` (for example
`design --games-per-trial`, `balance --variants/-V`); an alias given with its option is
refused unless they agree. A factory's `help` argument says what one unit is for that
command (a deal, a game, an entrant); the rest of the text is the option's own.
"""

from __future__ import annotations

import functools
import os

import click
from click.core import ParameterSource

from ..errors import did_you_mean
from ..rules import PRESETS, Rules

#: The seed's range in every command: what the runner takes (a seed below 2**63).
SEED_RANGE = click.IntRange(0, 2**63 - 1)
SCHEDULER_METAVAR = "tcp://HOST:PORT|local:K"


def preset_option(default: str | None = "classic", help: str | None = None, metavar=None):
    """--preset/-p: a preset name, optionally PRESET:knob=value,... (checked when built)."""
    text = help or (f"Rule set: {'|'.join(PRESETS)} (see `crates rules --list`), optionally with knobs "
                    f"as `crates balance` variants and `crates design`'s best.txt give them.")
    return click.option("--preset", "-p", default=default, show_default=default is not None,
                        callback=_preset_spec, metavar=metavar or "PRESET[:KNOB=VALUE,...]", help=text)


def players_option(fn):
    """--players/-n: the number of players (default 4)."""
    return click.option("--players", "-n", default=4, show_default=True, type=click.IntRange(2, None),
                        help="Number of players.")(fn)


def rules_options(fn):
    """--preset, --players, --partnerships/--no-partnerships, --set name=value ...: the
    command receives `rules` (a `Rules`) instead."""

    @preset_option()
    @players_option
    @click.option("--partnerships/--no-partnerships", default=None,
                  help="Crates with 4 players: seats 0+2 and 1+3 as teams (preset default).")
    @click.option("--set", "settings", multiple=True, metavar="KNOB=VALUE",
                  help="Override one rule knob, e.g. --set seven_target=next (repeatable).")
    @functools.wraps(fn)
    def wrapper(*args, preset, players, partnerships, settings, **kwargs):
        return fn(*args, rules=build_rules(preset, players, partnerships, settings), **kwargs)

    return wrapper


def build_rules(preset: str, players: int, partnerships=None, settings=()) -> Rules:
    """The `Rules` of a PRESET[:knob=value,...] spec, the partnerships flag and --set items."""
    name, _, rest = preset.partition(":")
    knobs = [s for s in rest.split(",") if s.strip()]
    return Rules.from_cli(name, players, partnerships, (*knobs, *settings))


def _preset_spec(ctx, param, value):
    """--preset: a preset name, or PRESET:knob=value,... (checked when the rules are built)."""
    if value is None:
        return None
    name = value.partition(":")[0].strip()
    if name not in PRESETS:
        raise click.BadParameter(f"{name!r} is not one of {', '.join(PRESETS)}"
                                 f"{did_you_mean(name, PRESETS)}")
    return value.strip()


def strategies_option(default: str | None = "random", required: bool = False,
                      help: str = "One strategy spec per seat, comma-separated, or one for every seat."):
    """--strategies/-s A,B,...: strategy specs (`crates strategies`)."""
    text = help + " Specs as `crates strategies` lists them."
    if required:  # no default at all: click 8.3 takes an explicit None as a value given
        return click.option("--strategies", "-s", required=True, metavar="A,B,...", help=text)
    return click.option("--strategies", "-s", default=default, show_default=default is not None,
                        metavar="A,B,...", help=text)


def games_option(default: int, help: str = "Games to play."):
    """--games/-g N (N >= 1)."""
    return click.option("--games", "-g", default=default, show_default=True, type=click.IntRange(1, None),
                        help=help)


def seed_option(help: str = "Seed of the deals", default: int = 0):
    """--seed S, 0 .. 2**63-1: game i of seed S is the same game in every command."""
    return click.option("--seed", default=default, show_default=True, type=SEED_RANGE,
                        help=f"{help}: game i of seed S is the same game in every command "
                             f"(0 .. 2**63-1).")


def out_option(required: bool = True, file: bool = False, help: str = "Output folder.",
               path_type=None, default: str | None = None):
    """--out/-o PATH; an empty PATH is refused in one line (it would write into the current
    folder). file: a file to write, not a folder; default: the PATH when none is given."""
    kind = OutPath(dir_okay=False, path_type=path_type) if file else \
        OutPath(file_okay=False, path_type=path_type)
    if default is not None:
        return click.option("--out", "-o", type=kind, default=default, show_default=True, help=help)
    if required:  # no default at all: click 8.3 takes an explicit None as a value given
        return click.option("--out", "-o", required=True, type=kind, help=help)
    return click.option("--out", "-o", type=kind, default=None, help=help)


class Choice(click.Choice):
    """click.Choice whose refusal of a typo says "did you mean ..." (errors.did_you_mean)."""

    def convert(self, value, param, ctx):
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            hint = did_you_mean(value, self.choices)
            if not hint:
                raise
            self.fail(f"{value!r} is not one of {', '.join(map(str, self.choices))}{hint}", param, ctx)


class OutPath(click.Path):
    """click.Path for an output: an empty (or blank) path is refused before it becomes
    `.`, and one that cannot be written (`unwritable`) before any work is done."""

    def convert(self, value, param, ctx):
        if isinstance(value, str) and not value.strip():
            self.fail("give a path: an empty one would write into the current folder", param, ctx)
        path = super().convert(value, param, ctx)
        why = unwritable(os.fspath(path), folder=not self.file_okay)
        if why:
            self.fail(why, param, ctx)
        return path


def write_text(path, text: str) -> None:
    """Write `text` to the file `path`, making its missing folders (as `unwritable` allows);
    a failure is one line (CratesError)."""
    from ..errors import CratesError

    try:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        raise CratesError(f"cannot write {path}: {exc.strerror or exc}") from None


def unwritable(path: str, folder: bool = False) -> str | None:
    """Why `path` (a file, or with `folder` a folder to write into) cannot be written, in
    one line; None when it can. Tried for real (a file made and removed in the folder that
    would hold it, an existing file opened to append), so a read-only disk or another
    user's folder is caught too."""
    import tempfile

    target = os.path.abspath(path)
    if os.path.isdir(target) and not folder:
        return f"{path} is a folder, not a file"
    if os.path.exists(target) and not os.path.isdir(target):
        if folder:
            return f"{path} is a file, not a folder"
        try:
            with open(target, "a"):
                return None
        except OSError as exc:
            return f"cannot write {path}: {exc.strerror or exc}"
    at = target if folder and os.path.isdir(target) else os.path.dirname(target)
    while not os.path.exists(at):
        at = os.path.dirname(at)
    if not os.path.isdir(at):
        return f"cannot write {path}: {at} is a file, not a folder"
    try:
        with tempfile.NamedTemporaryFile(dir=at, prefix=".crates-write-check-"):
            return None
    except OSError as exc:
        return f"cannot write {path}: {at}: {exc.strerror or exc}"


def workers_option(fn):
    """--workers/-w K (K >= 1): local worker processes."""
    return click.option("--workers", "-w", type=click.IntRange(1, None), default=None,
                        help="Local worker processes [default: every CPU].")(fn)


def scheduler_option(fn):
    """--scheduler tcp://HOST:PORT|local:K: run on a Dask cluster."""
    return click.option("--scheduler", default=None, metavar=SCHEDULER_METAVAR,
                        help="Run on a Dask cluster: an existing one (tcp://HEAD:8786) or one "
                             "started here (local:K); needs crates-sim[dask].")(fn)


def strong_option(default: str, help: str = "The strong player of skill_gap"):
    """--strong SPEC: the strong player of skill_gap (balance, design), one declaration."""
    return click.option(
        "--strong", default=default, show_default=True,
        help=f"{help} (its win-rate difference against greedy and random). adept reads the rules; "
             "where the rule sets compared would route it to different networks it plays the "
             "networks trained across tables on all of them (adept:route=0; adept:route=1 keeps "
             "the routes). The default, adept:stock=4:dry=4, is adept searching as expert does, in "
             "Crates, the draws near an empty stock where a seat may draw beside a card and every "
             "card decision while the stock holds 4 cards or fewer, and plain adept in Crazy "
             "Eights; adept:search=2 is stronger where adept is far from expert near a hand's "
             "end, at more cost.")


def overwrite_option(what: str):
    """--overwrite: replace a different `what` (a run, a sweep ...) already in the output folder."""
    return click.option("--overwrite", is_flag=True, help=f"Replace a different {what} in OUT.")


def quiet_option(help: str = "No progress on stderr."):
    """--quiet/-q: no progress (and, where said, no summary)."""
    return click.option("--quiet", "-q", is_flag=True, help=help)


def hidden_alias(*names: str, to: str, type=None):
    """A hidden option `names` (an older spelling) that sets the parameter `to`.

    Given alone it stands for `to`; given with `to` on the command line it must agree.
    """
    dest = f"alias_{to}_{names[0].lstrip('-').replace('-', '_')}"

    def decorate(fn):
        @click.option(*names, dest, type=type, default=None, hidden=True, expose_value=True)
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            value = kwargs.pop(dest)
            if value is not None:
                ctx = click.get_current_context()
                given = ctx.get_parameter_source(to) == ParameterSource.COMMANDLINE
                if given and kwargs[to] != value:
                    raise click.UsageError(f"{names[0]} is another spelling of --{to.replace('_', '-')}: "
                                           f"give one of them", ctx)
                kwargs[to] = value
            return fn(*args, **kwargs)

        return wrapper

    return decorate


__all__ = ["SEED_RANGE", "Choice", "OutPath", "build_rules", "checked_workers", "games_option", "hidden_alias", "out_option", "overwrite_option",
           "players_option", "preset_option", "quiet_option", "rules_options", "scheduler_option", "seed_option", "strategies_option",
           "unwritable", "workers_option", "write_text"]


def checked_workers(value):
    """--workers as the analyses take it: None (every CPU) or a count >= 1."""
    if value is not None and value < 1:
        from ..errors import CratesError

        raise CratesError("--workers must be at least 1")
    return value
