"""`crates play` through a pseudo-terminal: a whole hand as a person plays it, bad keys,
the hint, quitting, and the saved log that `crates replay` reads."""

import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

PROMPT = r"(your move \[1-\d+, h hint, q quit\] |announce your last card\? \[y/n, h hint, q quit\] )"


def _spawn(*args, timeout=120):
    return pexpect.spawn(sys.executable, ["-m", "crates_sim", "play", *args], timeout=timeout,
                         encoding="utf-8", dimensions=(50, 120))


def test_a_whole_hand_through_a_terminal():
    child = _spawn("--preset", "classic", "--players", "4", "--seat", "0", "--opponents",
                   "greedy", "--seed", "7", "--hint", "greedy")
    child.expect("your hand: ")
    child.expect(PROMPT)
    child.sendline("zz")  # a bad key: a short message, never a traceback
    child.expect("not a move")
    child.expect(PROMPT)
    child.sendline("h")
    child.expect("greedy would: ")
    moves = 0
    while True:
        i = child.expect([PROMPT, "hand 1 ends"])
        if i == 1:
            break
        child.sendline("y" if child.match.group(0).startswith("announce") else "1")
        moves += 1
    child.expect("totals: ")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect("bye")
    child.expect(pexpect.EOF)
    child.close()
    assert moves >= 1 and child.exitstatus == 0
    assert "Traceback" not in (child.before or "")


def test_a_finished_game_is_saved_as_a_log_that_replay_reads(tmp_path):
    from click.testing import CliRunner

    from crates_sim.cli.main import cli

    log = tmp_path / "game.jsonl"
    child = _spawn("--preset", "crazy-eights", "--players", "2", "--opponents", "greedy",
                   "--seed", "3", "--save", str(log), timeout=300)
    while True:
        i = child.expect([PROMPT, "game over"])
        if i == 1:
            break
        child.sendline("y" if child.match.group(0).startswith("announce") else "1")
    child.expect("saved \\d+ events")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and Path(log).exists()
    result = CliRunner().invoke(cli, ["replay", str(log)])
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output and "seat 0 you" in result.output
