"""Every command a page suggests runs as pasted (issue 39 §4).

The demo report, a `crates report`, a `compare`, a `balance` and a `design` page are
written (real engine, a few games); every `crates ...` command quoted in them (a span in
backticks with at least one argument) is collected, scaled down (--games and the like
made small, --out sent to a fresh folder, --workers 1) and run through click's CliRunner
in the order the pages give them; any non-zero exit fails. A command that names the
--out of an earlier suggested command (`crates report results/seats-...`) gets that
command's folder.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from click.testing import CliRunner

from crates_sim.cli.main import cli

#: a suggested command: `crates NAME ARG...` in backticks
COMMAND = re.compile(r"`(crates [a-z]+ [^`]+)`")
#: option -> its scaled-down value
SMALL = {"--games": "16", "--budget": "2", "--validate-games": "16", "--skill-games": "8", "--max-games": "32",
         "--rungs": "1"}
#: commands that take --workers
WORKERS = {"simulate", "compare", "balance", "design", "tournament", "sweep", "tune", "ladder"}


def suggested(*pages: Path) -> list[str]:
    """The `crates ...` commands quoted in the pages' Markdown, each once, in order."""
    found = []
    for page in pages:
        found += COMMAND.findall(page.read_text())
    return list(dict.fromkeys(found))


def scaled(command: str, tmp: Path, outs: dict) -> list[str]:
    """The command's arguments, small, writing under tmp; outs maps suggested folders to ours."""
    words = shlex.split(command)[1:]
    out = []
    i = 0
    while i < len(words):
        w = words[i]
        if w in SMALL and i + 1 < len(words):
            out += [w, SMALL[w]]
            i += 2
            continue
        if w in ("--out", "-o") and i + 1 < len(words):
            mine = str(tmp / f"out{len(outs)}")
            outs[words[i + 1]] = mine
            out += [w, mine]
            i += 2
            continue
        out.append(outs.get(w, w))
        i += 1
    if words[0] in WORKERS and "--workers" not in out:
        out += ["--workers", "1"]
    return out


def run_all(commands: list[str], tmp: Path) -> None:
    runner = CliRunner()
    outs: dict = {}
    for command in commands:
        args = scaled(command, tmp, outs)
        res = runner.invoke(cli, args)
        assert res.exit_code == 0, f"{command}\n  ran as: crates {shlex.join(args)}\n{res.output}"


def test_the_commands_the_pages_suggest_run_as_pasted(tmp_path):
    from crates_sim.analysis.demo import make_demo
    from crates_sim.analysis.report import report

    runner = CliRunner()
    demo = make_demo(tmp_path / "demo", deals=16, workers=1)
    report(demo, demo / "report.html")
    # a dataset with fixed seats: its report suggests a compare and a simulate + report
    sim = tmp_path / "sim"
    res = runner.invoke(cli, ["simulate", "--strategies", "greedy,random,hoard3,dump3", "--preset", "classic",
                              "--no-partnerships", "--games", "16", "--seed", "3", "--workers", "1", "--quiet",
                              "--out", str(sim)])
    assert res.exit_code == 0, res.output
    assert runner.invoke(cli, ["report", str(sim)]).exit_code == 0
    pages = [demo / "report.md", sim / "report.md"]
    for args, page in (
            (["compare", "--strategies", "greedy,random", "--games", "16", "--out", str(tmp_path / "cmp")],
             tmp_path / "cmp" / "compare.md"),
            (["balance", "--preset", "classic,classic:seven_target=next", "--games", "16", "--skill-games", "8",
              "--out", str(tmp_path / "bal")], tmp_path / "bal" / "balance.md"),
            (["design", "--preset", "classic", "--target", "first_player=0", "--target", "balance=max",
              "--knobs", "seven_target", "--budget", "2", "--games", "16", "--quiet", "--out",
              str(tmp_path / "des")], tmp_path / "des" / "design.md")):
        res = runner.invoke(cli, [*args, "--seed", "1", "--workers", "1"])
        assert res.exit_code == 0, res.output
        pages.append(page)
    commands = suggested(*pages)
    names = {shlex.split(c)[1] for c in commands}
    assert {"compare", "simulate", "report", "balance", "design"} <= names, commands
    for c in commands:
        if shlex.split(c)[1] in WORKERS - {"tournament"}:
            assert " --out " in f" {c} ", f"no --out: {c}"
    run_all(commands, tmp_path / "pasted")
