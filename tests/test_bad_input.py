"""Bad or unusual input at the command line: one clear line (exit 2), never a traceback.

`crates rules --json` without a preset, and `crates replay` on logs that are cut short,
damaged or not logs at all.
"""

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from crates_sim.cli.main import cli
from crates_sim.play.replay import read_log
from crates_sim.rules import PRESETS


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def one_error_line(result, *phrases):
    """The command failed with exit 2 and exactly one line, `Error: ...`, holding phrases."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    for phrase in phrases:
        assert phrase in lines[0], lines[0]
    return lines[0]


# ------------------------------------------------------------------ crates rules --json
def test_rules_json_without_a_preset_prints_every_preset():
    result = invoke("rules", "--json")
    assert result.exit_code == 0, result.output
    every = json.loads(result.output)
    assert list(every) == list(PRESETS)
    for name in PRESETS:
        alone = json.loads(invoke("rules", name, "--json").output)
        assert every[name] == alone, name
    assert every["classic"]["partnerships"] is True
    assert every["league"]["jack_effect"] == "none"


def test_rules_json_without_a_preset_follows_players():
    every = json.loads(invoke("rules", "--json", "-n", "3").output)
    assert every["classic"]["partnerships"] is False  # no teams with 3 players
    assert every["classic"] == json.loads(invoke("rules", "classic", "--json", "-n", "3").output)


def test_rules_with_a_preset_and_the_list_are_unchanged():
    alone = json.loads(invoke("rules", "classic", "--json").output)
    assert alone["seven_target"] == "across" and "classic" not in alone
    listing = invoke("rules", "--list")
    assert listing.exit_code == 0
    assert [line.split()[0] for line in listing.output.splitlines()] == list(PRESETS)
    assert "crates rules PRESET" in invoke("rules").output


# ------------------------------------------------------------------ crates replay
@pytest.fixture(scope="module")
def log_lines(tmp_path_factory):
    """The lines of a real log: `crates trace --seed 1 --game 0`."""
    path = tmp_path_factory.mktemp("log") / "g.jsonl"
    result = invoke("trace", "--seed", "1", "--game", "0", "--out", path)
    assert result.exit_code == 0, result.output
    text = path.read_text()
    assert text.endswith("\n")
    return text.splitlines(keepends=True)


def write(tmp_path, text, name="g.jsonl"):
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return path


def test_a_whole_log_replays(tmp_path, log_lines):
    path = write(tmp_path, "".join(log_lines))
    result = invoke("replay", path)
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output
    assert len(read_log(path)) == len(log_lines)


def test_a_log_without_its_first_line(tmp_path, log_lines):
    path = write(tmp_path, "".join(log_lines[1:]))
    one_error_line(invoke("replay", path), str(path), "line 1", "'deal'", "'game' event",
                   "first line is missing")


def test_a_log_cut_in_the_middle_of_a_line(tmp_path, log_lines):
    text = "".join(log_lines)
    cut = len("".join(log_lines[:40])) + len(log_lines[40]) // 2
    path = write(tmp_path, text[:cut])
    one_error_line(invoke("replay", path), str(path), "line 41", "cut off", "truncated")


def test_a_log_cut_in_the_middle_of_its_first_line(tmp_path, log_lines):
    path = write(tmp_path, log_lines[0][:30])
    one_error_line(invoke("replay", path), str(path), "line 1", "cut off", "truncated")


def test_a_log_cut_between_lines(tmp_path, log_lines):
    path = write(tmp_path, "".join(log_lines[:100]))
    one_error_line(invoke("replay", path), str(path), "line 100", "'game_end'", "truncated")


@pytest.mark.parametrize("text", ["", "\n", "  \n\n"])
def test_an_empty_file(tmp_path, text):
    path = write(tmp_path, text)
    one_error_line(invoke("replay", path), str(path), "empty")


def test_a_line_that_is_not_json(tmp_path, log_lines):
    path = write(tmp_path, "".join(log_lines[:3]) + "garbage\n" + "".join(log_lines[3:]))
    one_error_line(invoke("replay", path), str(path), "line 4", "not JSON")


@pytest.mark.parametrize("line", ['[1, 2]\n', '{"seat": 1}\n', '"play"\n'])
def test_a_line_that_is_not_an_event(tmp_path, log_lines, line):
    path = write(tmp_path, "".join(log_lines[:5]) + line + "".join(log_lines[5:]))
    one_error_line(invoke("replay", path), str(path), "line 6", "not a game-log event")


def test_a_file_that_is_not_text(tmp_path):
    path = write(tmp_path, b"\x89PNG\r\n\x1a\n\xff\xfe\x00\x00")
    one_error_line(invoke("replay", path), str(path), "not UTF-8")


def test_a_game_event_without_its_preset(tmp_path, log_lines):
    game = json.loads(log_lines[0])
    del game["preset"]
    path = write(tmp_path, json.dumps(game) + "\n" + "".join(log_lines[1:]))
    one_error_line(invoke("replay", path), str(path), "line 1", "'game' event", "'preset'")


def _with_event(log_lines, no, change):
    """The log with line `no` (1-based) changed by `change(event)`."""
    ev = json.loads(log_lines[no - 1])
    change(ev)
    return "".join(log_lines[:no - 1]) + json.dumps(ev) + "\n" + "".join(log_lines[no:])


def _line_of(log_lines, kind):
    return next(no for no, line in enumerate(log_lines, 1) if json.loads(line)["ev"] == kind)


@pytest.mark.parametrize("kind,change,phrase", [
    ("play", lambda ev: ev.pop("card"), "no 'card' field"),
    ("play", lambda ev: ev.update(seat=9), "not a seat of a 4-player game"),
    ("play", lambda ev: ev.update(seat="two"), "not a whole number"),
    ("play", lambda ev: ev.update(card="ZZ"), "not a card"),
    ("draw", lambda ev: ev.pop("why"), "no 'why' field"),
    ("deal", lambda ev: ev["hands"].pop(), "one per player"),
    ("deal", lambda ev: ev.pop("hands"), "no 'hands' field"),
    ("hand_end", lambda ev: ev.update(points=None), "not a list"),
    ("hand_end", lambda ev: ev.update(out=7), "'out' is 7"),
    ("game_end", lambda ev: ev.pop("winners"), "no 'winners' field"),
    ("game", lambda ev: ev.update(preset="whist"), "not one of classic"),
    ("game", lambda ev: ev.update(players="4"), "'players'"),
])
def test_an_event_with_a_missing_or_wrong_field(tmp_path, log_lines, kind, change, phrase):
    no = _line_of(log_lines, kind)
    path = write(tmp_path, _with_event(log_lines, no, change))
    one_error_line(invoke("replay", path), str(path), f"line {no}", f"'{kind}' event", phrase)


def test_two_logs_in_one_file(tmp_path, log_lines):
    path = write(tmp_path, "".join(log_lines) * 2)
    one_error_line(invoke("replay", path), str(path), f"line {len(log_lines) + 1}",
                   "after the 'game_end'")


def test_a_second_game_header(tmp_path, log_lines):
    path = write(tmp_path, log_lines[0] + "".join(log_lines))
    one_error_line(invoke("replay", path), str(path), "line 2", "second 'game' event")


def test_blank_lines_and_unknown_events_are_passed_over(tmp_path, log_lines):
    text = log_lines[0] + "\n" + '{"ev": "comment", "text": "hi"}\n' + "".join(log_lines[1:])
    result = invoke("replay", write(tmp_path, text))
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output


def test_a_missing_log_file(tmp_path):
    result = invoke("replay", tmp_path / "nope.jsonl")
    assert result.exit_code == 2 and "does not exist" in result.output
    assert "Traceback" not in result.output


# ------------------------------------------------------------------ a script without a guard
SCRIPT = '''\

from crates_sim import simulate

with open("ran.txt", "a") as fh:  # one line each time this file runs
    fh.write("ran\\n")
ds = simulate("classic", "random", games=400, seed=1, out="out", chunk_size=100, {how})
run = ds.manifest["runs"][-1]
print("result", ds.complete, run["backend"], run["chunks_run"])
'''


def _run_script(tmp_path, how):
    script = tmp_path / "run.py"
    script.write_text(SCRIPT.format(how=how))
    proc = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout, (tmp_path / "ran.txt").read_text()


def test_a_script_without_a_main_guard_runs_on_worker_processes(tmp_path):
    stdout, ran = _run_script(tmp_path, "workers=2")
    assert "result True process 4" in stdout
    assert ran == "ran\n"  # the workers did not run the script again
    # the same games as a run in this process
    import crates_sim

    here = crates_sim.simulate("classic", "random", games=400, seed=1, out=tmp_path / "here",
                               workers=1, chunk_size=100)
    assert here.games.collect().equals(crates_sim.Dataset(tmp_path / "out").games.collect())


def test_a_script_without_a_main_guard_runs_on_a_local_dask_cluster(tmp_path):
    pytest.importorskip("distributed")
    stdout, ran = _run_script(tmp_path, 'scheduler="local:2"')
    assert "result True dask local:2 4" in stdout
    assert ran == "ran\n"


def test_hiding_main_puts_it_back(tmp_path):
    from crates_sim.runs.workers import main_hidden

    real = sys.modules["__main__"]
    with main_hidden():
        inside = sys.modules["__main__"]
        assert getattr(inside, "__file__", None) is None and inside.__spec__ is None
    assert sys.modules["__main__"] is real


# ------------------------------------------------------------------ import circles
def _module_names(root):
    """Every module of the crates_sim package at `root`, dotted below it ("engine.api"; a
    folder's __init__ is the folder's name), with its path."""
    out = {}
    for p in root.rglob("*.py"):
        parts = list(p.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if parts:
            out[".".join(parts)] = p
    return out


def _imports(name, path, modules):
    """The crates_sim modules that module `name` (at `path`) imports, anywhere in it."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()

    def add(target, names=()):
        for n in names:
            if f"{target}.{n}".strip(".") in modules:
                found.add(f"{target}.{n}".strip("."))
        if target in modules:
            found.add(target)

    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level > 0:
            base = package.split(".") if package else []
            base = base[:len(base) - (node.level - 1)] if node.level > 1 else base
            target = ".".join(base + ([node.module] if node.module else []))
            add(target, [a.name for a in node.names])
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("crates_sim."):
            add(node.module[len("crates_sim."):], [a.name for a in node.names])
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("crates_sim."):
                    add(a.name[len("crates_sim."):])
    return found


def test_no_import_circles_in_crates_sim():
    """No module of crates_sim/ (its folders included) imports, at the top or inside a
    function, one that imports it back, directly or through others."""
    modules = _module_names(Path(crates_sim_file()).parent)
    graph = {m: _imports(m, p, modules) - {m} for m, p in modules.items()}
    assert "runs.runner" not in graph["runs.dask_backend"]
    assert "runs.workers" in graph["runs.dask_backend"]

    def reaches(start, goal, seen):
        for nxt in graph[start]:
            if nxt == goal or nxt not in seen and (seen.add(nxt) or reaches(nxt, goal, seen)):
                return True
        return False

    circles = sorted(m for m in graph if reaches(m, m, set()))
    assert not circles, f"modules in an import circle: {circles}"


def crates_sim_file():
    import crates_sim

    return crates_sim.__file__
