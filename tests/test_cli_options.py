"""The shared options (crates_sim/cli/options.py) as every command sees them (issue 32 §4, §5).

Contract: usage errors are one line; `--out ""` is refused in one line by every command
that takes --out; each shared option has one spelling, short flag and range everywhere;
the older spellings still work, hidden from --help.
"""

import click
import pytest
from cli_checks import one_line
from click.testing import CliRunner

from crates_sim.cli.main import cli

SHARED = {"preset": ("--preset", "-p"), "players": ("--players", "-n"), "strategies": ("--strategies", "-s"),
          "games": ("--games", "-g"), "seed": ("--seed",), "out": ("--out", "-o"),
          "workers": ("--workers", "-w"), "scheduler": ("--scheduler",)}


def invoke(*args):
    return CliRunner().invoke(cli, list(args))


@pytest.mark.parametrize("args,phrase", [
    (["simulate", "--preset", "clasic"], "'clasic' is not one of"),
    (["simulate", "--detail", "hand"], "'hand' is not one of"),
    (["simulate", "--no-such-option"], "No such option"),
    (["simulat"], "No such command"),
    (["compare", "-s", "greedy,random"], "Missing option '--out'"),
    (["trace", "--seed", "-1"], "--seed"),
])
def test_usage_errors_are_one_line(args, phrase):
    one_line(invoke(*args), phrase, "--help)")


def _takes(name, param):
    return any(p.name == param for p in cli.commands[name].params)


@pytest.mark.parametrize("name", [n for n in sorted(cli.commands) if _takes(n, "out")])
def test_an_empty_out_is_refused_in_one_line(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    command = cli.commands[name]
    args = [name] + ["x" for p in command.params if isinstance(p, click.Argument) and p.required]
    one_line(invoke(*args, "--out", ""), "--out", "empty")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", sorted(cli.commands))
def test_each_shared_option_is_spelled_alike(name):
    ranges = {}
    for param in cli.commands[name].params:
        if param.name in SHARED and isinstance(param, click.Option):
            assert tuple(param.opts) == SHARED[param.name], (name, param.opts)
            ranges[param.name] = (repr(param.type), param.help)
    if "seed" in ranges:
        assert "0<=x<=9223372036854775807" in ranges["seed"][0]
    if "workers" in ranges:
        assert "x>=1" in ranges["workers"][0]


@pytest.mark.parametrize("old,new", [
    (["balance", "--variants", "classic,league"], ["balance", "--preset", "classic,league"]),
    (["balance", "-V", "classic,league"], ["balance", "-p", "classic,league"]),
    (["design", "--base", "league"], ["design", "--preset", "league"]),
])
def test_old_spellings_are_hidden_aliases(old, new, monkeypatch):
    """An alias reaches the command as its option does: both stop at the same next check."""
    seen = []
    from crates_sim.cli import design as module

    def capture(*args, **kwargs):
        seen.append(args[0] if args else kwargs)
        raise SystemExit(0)

    monkeypatch.setattr(module.Rules, "from_spec", staticmethod(lambda spec, players: capture(spec)))
    monkeypatch.setattr("crates_sim.analysis.design.parse_target", lambda t: capture(t))
    extra = ["--target", "balance=max"] if old[0] == "design" else []
    for args in (old, new):
        invoke(*args, *extra, "--out", "o")
    assert len(seen) == 2 and seen[0] == seen[1], seen
    help_text = invoke(old[0], "--help").output
    assert old[1] not in help_text.replace("--preset", "")


def test_an_alias_given_with_its_option_must_agree():
    one_line(invoke("tune", "keep3", "--against", "greedy", "--games", "10", "--games-per-eval", "20",
                    "--out", "o"), "--games-per-eval", "another spelling")


def test_rules_takes_a_spec_and_set():
    result = invoke("rules", "classic:seven_target=next", "--set", "spare_three=5")
    assert result.exit_code == 0, result.output
    assert "classic:seven_target=next,spare_three=5" in result.output.splitlines()[0]
    assert any(line.split()[:2] == ["*seven_target", "next"] for line in result.output.splitlines())
    one_line(invoke("rules", "classic", "--set", "bogus=1"), "unknown knob")
