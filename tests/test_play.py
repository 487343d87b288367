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


def test_a_quit_game_is_saved_as_a_log_that_replay_shows_up_to_where_it_stopped(tmp_path):
    """`play --save` after a quit: `replay` and `replay --html` read it to its last event
    (issue 32.5), and the move list names every seat's moves (yours too) in replay's
    words ("drew (cannot play)", never the raw code "cant_play")."""
    from click.testing import CliRunner

    from crates_sim.cli.main import cli

    log, page = tmp_path / "quit.jsonl", tmp_path / "quit.html"
    child = _spawn("--preset", "classic", "--players", "4", "--opponents", "greedy",
                   "--seed", "7", "--save", str(log))
    seen = ""
    for _ in range(12):
        child.expect(PROMPT)
        seen += child.before
        child.sendline("y" if child.match.group(0).startswith("announce") else "1")
    child.expect(PROMPT)
    seen += child.before
    child.sendline("q")
    child.expect("saved \\d+ events")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "you played" in seen or "you drew" in seen
    assert "cant_play" not in seen and "(five)" not in seen
    text = CliRunner().invoke(cli, ["replay", str(log)])
    assert text.exit_code == 0, text.output
    assert "stopped here, unfinished" in text.output and "Game over" not in text.output
    html = CliRunner().invoke(cli, ["replay", str(log), "--html", str(page)])
    assert html.exit_code == 0, html.output
    from crates_sim.play.replay import read_log
    from crates_sim.play.replay_html import page_data

    events = read_log(log)
    data = page_data(events)
    assert data["events"] == len(events) and not data["finished"] and data["decisions_found"]
    # a finished log cut short is still refused
    cut = tmp_path / "cut.jsonl"
    lines = log.read_text().splitlines()
    cut.write_text("\n".join([lines[0].replace(',"unfinished":true', "")] + lines[1:]) + "\n")
    refused = CliRunner().invoke(cli, ["replay", str(cut)])
    assert refused.exit_code != 0 and "truncated" in refused.output
