"""Every example of every `--help` runs as printed (issue 32 §4), scaled down.

Contract: the examples are the lines of `crates --help` and of each command's --help that
start with `crates ` (a line ending in `\\` continues on the next; two spaces or more end
the command and start its description; `| less` and the like are cut off). They run in the
order printed (the group's help first, then each command's, as `crates --help` lists them),
one after another in a temporary folder (two parts, each in a folder of its own:
FIRST_PART_ENDS), as a user pasting them would: an example may
read what an earlier one wrote, and two examples writing one folder would collide.
Each is scaled down before it runs: game, budget, round and rung counts made tiny, sweep
grids cut to 2 points, --workers 1 where it is free to choose, `$(cat FILE)` read, absolute
--out paths made relative. A remote Dask scheduler (tcp://HEAD:8786) becomes a local
cluster of one worker (`local:1`), so nothing beyond this machine is contacted. `crates
play` reads `q` (quit). A group's subcommands' helps (`crates rebuild win-model`) count as
commands' helps; the files the package ships that `crates rebuild ... --write` rewrites are
pointed at scratch copies, and `crates rebuild thumb` reads positions made for it (and
removed after) where its --data folder does not exist. The examples of NOT_RUN are only
parsed, for the reason given. The test fails on any example that exits non-zero.
"""

from __future__ import annotations

import importlib.util
import re
import shlex
import shutil
import time
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from crates_sim.cli.main import cli

ROOT = Path(__file__).resolve().parents[1]
#: tokens that make an example heavy (a search strategy): fewer games still
HEAVY = ("expert", "pimc", "apprentice")
#: counts an example runs with at most, and given when the command takes the option but the
#: example leaves its (large) default: option -> (light, heavy)
SMALL = {"--games": (16, 4), "--budget": (2, 2), "--validate-games": (8, 4), "--eval-games": (4, 4),
         "--rounds": (1, 1), "--rungs": (1, 1), "--max-games": (32, 8), "--cost": (1, 1),
         "--deficits": (4, 4), "--deals": (16, 4), "--positions": (16, 16)}
#: examples that may fail, and why (none now: every example runs as printed)
KNOWN: dict[str, str] = {}
#: crates rebuild thumb's tree needs the optional scikit-learn (the `rules` extra)
_HAS_SKLEARN = importlib.util.find_spec("sklearn") is not None
#: helps whose examples are not run here, and why
NOT_RUN = {"crates bench": "it measures speed for minutes on every core; "
                           "tests/test_rebuild_commands.py runs it with its measurements faked"}
SHORT = {"-g": "--games", "-b": "--budget", "-r": None}  # -r: --rounds (train) or --rungs (ladder)


def _help(path) -> str:
    result = CliRunner().invoke(cli, [*path, "--help"])
    assert result.exit_code == 0, result.output
    return result.output


def help_examples() -> list[tuple[str, str]]:
    """(the help it is in, the example command line) in the order printed."""
    ctx = click.Context(cli)
    order = [()]
    for name in cli.list_commands(ctx):
        order.append((name,))
        if isinstance(cli.commands[name], click.Group):
            order += [(name, sub) for sub in cli.commands[name].list_commands(ctx)]
    found = []
    for path in order:
        lines = _help(path).splitlines()
        i = 0
        while i < len(lines):
            line = lines[i].strip()
            i += 1
            if not line.startswith("crates "):
                continue
            while line.endswith("\\") and i < len(lines):
                line = line[:-1].rstrip() + " " + lines[i].strip()
                i += 1
            command = re.split(r"\s{2,}", line)[0]
            command = command.split(" | ")[0].strip()
            found.append((" ".join(("crates", *path)), command))
    return found


def _options_of(command: click.Command) -> dict[str, str]:
    """Every option spelling of `command` -> its parameter name."""
    spellings = {}
    for param in command.params:
        for opt in getattr(param, "opts", []) + getattr(param, "secondary_opts", []):
            spellings[opt] = param.name
    return spellings


def scaled(command: str, folder: Path) -> list[str]:
    """The example's arguments (after `crates`), scaled down to run in seconds."""
    command = re.sub(r"\$\(cat ([^)]+)\)", lambda m: (folder / m.group(1)).read_text().strip(), command)
    words = shlex.split(command)[1:]
    name = words[0]
    if name not in cli.commands:
        return words
    command, i = cli.commands[name], 1
    while isinstance(command, click.Group) and i < len(words) and words[i] in command.commands:
        command, i = command.commands[words[i]], i + 1  # a group's subcommand
    spellings = _options_of(command)
    heavy = any(h in w for w in words for h in HEAVY) or name in ("ladder", "train")
    given = set()
    out = words[:i]
    while i < len(words):
        word = words[i]
        long = SHORT.get(word, word)
        if word == "-r":
            long = "--rounds" if name == "train" else "--rungs"
        param = spellings.get(word)
        if param is not None:
            given.add(param)
        if long in SMALL and i + 1 < len(words):
            out += [word, str(min(int(words[i + 1]), SMALL[long][heavy]))]
            i += 2
            continue
        if word == "--scheduler" and i + 1 < len(words):
            out += [word, "local:1"]
            i += 2
            continue
        if word in ("--out", "-o") and i + 1 < len(words):
            out += [word, words[i + 1].lstrip("/")]
            i += 2
            continue
        if name == "sweep" and re.fullmatch(r"[^=]+:[^=]+=[-\d.]+\.\.[-\d.]+:\d+", word):
            word = re.sub(r":\d+$", ":2", word)
        out.append(word)
        i += 1
    if name == "analyse" and len(words) > 1 and not words[1].startswith("-"):
        return out  # a LOG's analysis: --games, --workers ... belong to the other form
    for long, (light, weight) in SMALL.items():
        if long in spellings and long != "--deficits" and spellings[long] not in given and long != "--cost":
            out += [long, str(weight if heavy else light)]
    if name == "train" and "adept" in words:  # adept's fit needs 20 games at least
        out = [w if w != "4" or out[k - 1] not in ("--games", "-g") else "20" for k, w in enumerate(out)]
    if "precision" in given and "max_games" not in given:
        out += ["--max-games", str(SMALL["--max-games"][heavy])]
    if "--workers" in spellings and not {"workers", "scheduler"} & given:
        out += ["--workers", "1"]
    if name == "balance" and "skill_games" not in given:
        out += ["--skill-games", "4"]
    return out


EXAMPLES = help_examples()


def test_the_examples_are_found():
    assert len(EXAMPLES) >= 50, EXAMPLES
    helps = {where for where, _ in EXAMPLES}
    assert {f"crates {name}" for name in cli.commands} <= helps


def test_no_example_names_a_real_looking_remote_scheduler():
    """Remote schedulers are a placeholder host, never a private-looking address."""
    for where, command in EXAMPLES:
        for address in re.findall(r"tcp://(\S+)", command):
            assert address == "HEAD:8786", f"{where}: {command}"


def test_the_same_folder_is_not_written_by_two_different_examples():
    """Two examples writing one --out folder would collide (a different run there is
    refused)."""
    seen = {}
    for _where, command in EXAMPLES:
        words = shlex.split(re.sub(r"\$\([^)]*\)", "X", command))
        for flag in ("--out", "-o"):
            if flag in words:
                out = words[words.index(flag) + 1]
                # a file is simply rewritten; a tournament grows by its entrants
                if Path(out).suffix == "" and words[1] != "tournament" and command not in KNOWN:
                    assert out not in seen or seen[out] == command, (out, seen.get(out), command)
                seen[out] = command


def _scratch_shipped_files(folder: Path, monkeypatch) -> None:
    """Point what `crates rebuild ... --write` rewrites at copies in `folder`."""
    from crates_sim.analysis import players, win_model
    from crates_sim.strategies import expert_fit

    expert = folder / "shipped-expert.py"
    expert.write_text(expert_fit.expert_source().read_text())
    monkeypatch.setattr(expert_fit, "expert_source", lambda: expert)
    monkeypatch.setattr(win_model, "SHIPPED", folder / "shipped-win_model.json")
    monkeypatch.setattr(players, "measured_path", lambda: folder / "shipped-adept_measured.json")


def _run(args, folder: Path):
    """Run one example; `crates rebuild thumb` gets positions made for it where its --data
    folder is missing (removed after: a later example may train into it)."""
    made = None
    if args[:2] == ["rebuild", "thumb"]:
        from test_rebuild_commands import thumb_positions

        data = folder / (args[args.index("--data") + 1] if "--data" in args else "train/adept")
        if not data.exists():
            made = thumb_positions(data)
            args = [*args, "--rounds", "1", "--every", "1", "--kinds", "crates-individual"]
    try:
        return CliRunner().invoke(cli, args, input="q\n")
    finally:
        if made is not None:
            shutil.rmtree(made)


#: the examples run in two parts, each in a folder of its own, so that `make test`'s two
#: workers share them (about 100 s each on two cores): the helps up to and including this
#: one, and the rest. No example of the second part reads what one of the first wrote.
FIRST_PART_ENDS = "crates compare"


def parts() -> tuple[list, list]:
    """EXAMPLES split after the last example of FIRST_PART_ENDS's help."""
    last = max(i for i, (where, _) in enumerate(EXAMPLES) if where == FIRST_PART_ENDS)
    return EXAMPLES[:last + 1], EXAMPLES[last + 1:]


def run_examples(examples, tmp_path, monkeypatch, capsys):
    """Run `examples` in order in tmp_path, as printed (scaled: the module doc); fail on any
    that exits non-zero."""
    pytest.importorskip("distributed")  # examples run on local:1 Dask clusters
    _scratch_shipped_files(tmp_path, monkeypatch)
    shutil.copy(ROOT / "examples" / "strategies.py", tmp_path / "mybots.py")
    for name in ("agents.py", "strategies.py"):
        (tmp_path / "examples").mkdir(exist_ok=True)
        shutil.copy(ROOT / "examples" / name, tmp_path / "examples" / name)
    monkeypatch.chdir(tmp_path)
    failures, timings = [], []
    for where, command in examples:
        args = scaled(command, tmp_path)
        if where in NOT_RUN or (args[:2] == ["rebuild", "thumb"] and not _HAS_SKLEARN):
            continue
        t0 = time.perf_counter()
        result = _run(args, tmp_path)
        timings.append((time.perf_counter() - t0, command))
        if result.exit_code != 0 and command not in KNOWN:
            failures.append(f"{where}: {command}\n  ran: crates {shlex.join(args)}\n  exit "
                            f"{result.exit_code}: {result.output.strip()[-600:]!s} {result.exception!r}")
    with capsys.disabled():
        slowest = ", ".join(f"{s:.1f} s {c[:40]}" for s, c in sorted(timings, reverse=True)[:3])
        print(f"\n{len(examples)} help examples run ({sum(s for s, _ in timings):.0f} s; slowest: {slowest})")
    assert not failures, "\n".join(failures)


def test_the_two_parts_hold_every_example_once():
    first, second = parts()
    assert first and second and first + second == EXAMPLES


# Two classes, not one parametrized test: `--dist loadscope` gives each class to a worker.
@pytest.mark.figures  # every page's figures drawn, as a user runs them (tests/conftest.py)
class TestEveryHelpExampleRunsAsPrinted:
    def test_up_to_compare(self, tmp_path, monkeypatch, capsys):
        run_examples(parts()[0], tmp_path, monkeypatch, capsys)


@pytest.mark.figures
class TestEveryHelpExampleRunsAsPrintedFromCompile:
    def test_from_compile_on(self, tmp_path, monkeypatch, capsys):
        run_examples(parts()[1], tmp_path, monkeypatch, capsys)
