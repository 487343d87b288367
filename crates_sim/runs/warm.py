"""`crates compile` (and `make setup`): everything a documented command compiles, compiled
into numba's cache at once, on every core there is (two processes at most), and timed.

Contract: `compile_everything()` leaves numba's cache holding what the README's commands
load: the engine's roots (with `decide` and with `no_decide`: `api._roots`), every
built-in adapter of `strategy.EXTERNAL` (pimc, expert, apprentice, ...), and what the
step engine and the replays compile on first use (`crates play`, `crates replay`,
`--html`, a Python agent's table): those are compiled by using them on one short game.
It returns the seconds it took, and what it compiled (empty when the cache was warm).

How the work is shared: the jobs (`_JOBS`: compiles first, largest first, then the
short game) are claimed one at a time by this process and by a helper process, each
claim a file made with O_EXCL in a scratch folder, so that whoever is free takes the next
one; the short game waits until every compile is done (it would compile them again).
On one core this process claims them all.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

#: the jobs, in the order they are claimed: (name, phase). Phase 0 jobs compile one root or
#: adapter; phase 1 jobs use what they built (they wait for every phase 0 job to be done).
#: Ordered by CPU seconds of a cold compile, most first (measured one by one): play_on
#: 7.7, drivers 5.2, the adapters 4-5 each, decide 4.9; the rest well under 1 s.
_ROOTS = ("play_on", "drivers", "decide", "no_decide", "pressure")
_USE = ("short_game",)


def _jobs() -> list[tuple[str, int]]:
    """Every job of a full compile, in claiming order (module doc)."""
    from ..strategy import every_adapter

    big = ["root:play_on", "root:drivers"] + [f"adapter:{n}" for n in every_adapter()]
    small = ["root:decide", "root:no_decide", "root:pressure"]
    return [(j, 0) for j in big + small] + [(f"use:{u}", 1) for u in _USE]


def _root(name: str):
    """(dispatcher, argument types) of the engine's root `name`."""
    from ..engine import api

    by_kernel = {k.py_func.__name__: (k, sig) for k, sig, _ in api._roots(True) + api._roots(False)}
    kernel_name = {"play_on": "play_on", "drivers": "play_games_nb", "decide": "decide",
                   "no_decide": "no_decide", "pressure": "pressure_entry"}[name]
    return by_kernel[kernel_name]


def _adapter(name: str):
    """(dispatcher, argument types) of the built-in adapter `name` (a label of
    strategy.every_adapter), or None when its module does not import (a strategy being
    written)."""
    import importlib

    from ..engine.indirect import DECISION_ARGS
    from ..strategy import every_adapter

    module, func = every_adapter()[name]
    try:
        return getattr(importlib.import_module(module), func), DECISION_ARGS
    except (ImportError, AttributeError):  # pragma: no cover - not there: nothing to compile
        return None


def _short_game() -> None:
    """Use on one short game what the step engine and the replays compile on first call:
    a traced game as text and as a page (the page plays it again on the step engine),
    and a table with a seat played from outside against each kind of bot."""
    from ..engine.api import trace_game
    from ..play.replay import play_by_play
    from ..play.replay_html import render
    from ..play.step import Table
    from ..rules import Rules

    rules = Rules.preset("classic", 4)
    events = trace_game(rules, ["random"] * 4, 0, 0)
    play_by_play(events)
    render(events)
    table = Table(rules, [None, "greedy", "pimc:samples=2", "random"], 0, 0, record=True)
    for _ in range(40):  # a few decisions: every kernel on the way is loaded or compiled
        if table.pending is None:
            break
        table.act(table.pending.options[0])
    table.events(names=None)


def _run_job(job: str) -> None:
    kind, name = job.split(":", 1)
    if kind == "use":
        _short_game()
        return
    target = _root(name) if kind == "root" else _adapter(name)
    if target is not None:
        kernel, sig = target
        from ..engine.api import _in_cache, _signature

        if not _in_cache(kernel, _signature(sig)):
            kernel.compile(sig)


def _claim(folder: Path, index: int) -> bool:
    try:
        os.close(os.open(folder / f"claim-{index}", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        return True
    except FileExistsError:
        return False


def work(folder: str) -> list[str]:
    """Claim and run jobs (`_jobs`) until none is left; returns the ones this process ran.
    The helper process runs this too, on the same `folder`."""
    folder = Path(folder)
    jobs = _jobs()
    ran = []
    for index, (job, phase) in enumerate(jobs):
        if phase == 1:  # wait until every compile is done, by whichever process (a helper
            deadline = time.monotonic() + 600  # that died with a claim: go on without it)
            while not all((folder / f"done-{i}").exists() for i, (_, p) in enumerate(jobs)
                          if p == 0) and time.monotonic() < deadline:
                time.sleep(0.05)
        if not _claim(folder, index):
            continue
        try:
            _run_job(job)
        finally:
            (folder / f"done-{index}").touch()
        ran.append(job)
    return ran


def _cold() -> bool:
    """Whether any root or adapter is missing from numba's cache."""
    from ..engine.api import _in_cache, _signature

    for job, phase in _jobs():
        if phase:
            continue
        kind, name = job.split(":", 1)
        target = _root(name) if kind == "root" else _adapter(name)
        if target is not None and not _in_cache(target[0], _signature(target[1])):
            return True
    return False


def compile_everything(echo=None) -> tuple[float, bool]:
    """Compile (or find in the cache) everything a documented command uses (module doc).
    `echo(line)` hears one line before a cold compile starts. Returns (seconds, whether
    anything had to be compiled)."""
    import subprocess
    import tempfile

    from ..data.machine import available_cpus

    t0 = time.perf_counter()
    if not _cold():
        _short_game()  # loads in about a second; compiles what a first use would
        return time.perf_counter() - t0, False
    cores = min(available_cpus(), 2)
    if echo:
        echo(f"compiling the engine and every built-in strategy (first run on this machine, "
             f"on {cores} core{'s' if cores > 1 else ''}) ...")
    with tempfile.TemporaryDirectory(prefix="crates-compile-") as folder:
        helper = None
        if cores > 1:
            helper = subprocess.Popen(
                [sys.executable, "-c", f"from crates_sim.runs.warm import work; work({folder!r})"],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            work(folder)
            if helper is not None:
                helper.wait()
        finally:
            if helper is not None and helper.poll() is None:
                helper.kill()
                helper.wait()
    from ..engine.api import prepare

    prepare(["pimc"])  # load what the helper compiled (and anything it failed to: compiled)
    return time.perf_counter() - t0, True
