"""`crates --help` and every command's --help run and show examples.

The commands are read from the click group itself, so a new command is covered without
editing this file.
"""

import click
import pytest
from click.testing import CliRunner

from crates_sim.cli.main import cli


def _commands(group, path=()):
    """(path of names, command) for every command under `group`, nested groups included."""
    for name, command in sorted(group.commands.items()):
        yield path + (name,), command
        if isinstance(command, click.Group):
            yield from _commands(command, path + (name,))


COMMANDS = [path for path, _ in _commands(cli)]


def _help(args):
    result = CliRunner().invoke(cli, [*args, "--help"])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result.output


def _example_lines(text):
    return [line.strip() for line in text.splitlines() if line.strip().startswith("crates ")]


def test_every_command_is_covered():
    # The group really is walked: the commands of cli.py, cli_simulate.py and the analysis.
    for name in ("rules", "trace", "replay", "strategies", "compile", "simulate", "report",
                 "compare", "balance"):
        assert (name,) in COMMANDS


def test_top_level_help_shows_examples():
    text = _help([])
    assert "Example" in text
    assert _example_lines(text)
    for path in COMMANDS:
        assert path[0] in text  # every command is listed


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
def test_command_help_runs_and_shows_an_example(path):
    text = _help(list(path))
    first = text.splitlines()[0]
    assert first.startswith("Usage: ") and " ".join(path) in first, first
    assert "Example" in text, f"`crates {' '.join(path)} --help` shows no Example(s) section"
    examples = _example_lines(text)
    assert examples, f"`crates {' '.join(path)} --help` shows no `crates ...` example line"


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
def test_examples_name_real_commands(path):
    """Each example line `crates NAME ...` names a command that exists."""
    for line in _example_lines(_help(list(path))):
        word = line.split()[1]
        assert word.startswith("-") or word in cli.commands, f"{line!r}: no command {word!r}"


@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
def test_short_help_option(path):
    assert _help(list(path)) == CliRunner().invoke(cli, [*path, "-h"]).output
