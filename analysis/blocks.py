"""Blocks of games for the analyses (compare, balance, sweep, tune, tournament, design):
seat rotations over one deal set.

The engine deals game i of seed S the same cards whatever the strategies and their seats,
so running the same seed and game numbers once per rotation of the strategies over the
seats plays every deal once per rotation (common random numbers). Each block of games is
one chunk of a dataset: run by `crates_sim.engine.api.run_games`, written by the worker through
`crates_sim.data.dataset.write_chunk` (atomic Parquet, the rotated schema) and recorded in the
manifest by the `DatasetWriter` here; only small per-game summaries come back.
"""

from __future__ import annotations

import contextlib
import shlex
from dataclasses import dataclass

import polars as pl

from crates_sim.data import manifest as mf
from crates_sim.data.dataset import DatasetWriter, Seating, games_table, hands_table, write_chunk
from crates_sim.errors import CratesError

BLOCK = 5000  # games per engine call


def read_stored(path, what: str, echo=print) -> pl.DataFrame | None:
    """A stored result (Parquet) of an earlier run, or None where it is missing or damaged
    (cut short by a full disk, a half-finished copy): then one line says which file and that
    `what` is played again, and the file is removed."""
    from pathlib import Path

    path = Path(path)
    if not path.exists():
        return None
    try:
        return pl.read_parquet(path)
    except Exception as exc:  # polars raises ComputeError, OSError, ... for a damaged file
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        echo(f"{path} is damaged ({reason}): playing {what} again")
        path.unlink(missing_ok=True)
        return None


def labels_for(strategies: list[str]) -> list[str]:
    """Entry labels: the spec, numbered where the same spec is entered twice (greedy#1, greedy#2)."""
    out = []
    for i, s in enumerate(strategies):
        out.append(f"{s}#{strategies[:i + 1].count(s)}" if strategies.count(s) > 1 else s)
    return out


def rotations(m: int, players: int, partnerships: bool) -> list[list[int]]:
    """Entry index per seat for each rotation: seat s plays entry (s + r) % m in rotation r.

    Every seat hosts every entry exactly once over the m rotations; with partnerships and
    two entries, each entry is a whole team, once as team 0 and once as team 1. One entry
    sits at every seat (one rotation).
    """
    if m < 1:
        raise CratesError("give at least one strategy")
    if m > players:
        raise CratesError(f"{m} strategies for {players} seats: give at most one per seat")
    if partnerships and m > 2:
        raise CratesError("a partnership game compares two strategies (one per team); "
                          "give two, or use --no-partnerships")
    return [[(s + r) % m for s in range(players)] for r in range(m)]


def seating_plan(specs: list[str], players: int, partnerships: bool):
    """(entry labels, entry specs, entry index per seat of each rotation) for `crates balance`.

    One spec (or the same spec everywhere): every seat plays it, one rotation. One spec per
    seat (as `crates simulate --strategies a,b,c,d` takes them): that seating and its
    distinct cyclic shifts, so every strategy plays from every seat (and partners stay
    partners: seats s and s+2 shift together); seats with the same spec are one entry.
    Fewer specs than seats: `rotations` (at most two with partnerships, one per team).
    """
    if len(set(specs)) == 1:
        return [specs[0]], [specs[0]], [[0] * players]
    if len(specs) == players:
        entries = list(dict.fromkeys(specs))
        seat_entry = [entries.index(s) for s in specs]
        plan = []
        for r in range(players):
            shifted = [seat_entry[(s + r) % players] for s in range(players)]
            if shifted not in plan:
                plan.append(shifted)
        return entries, entries, plan
    if partnerships and len(specs) > 2:
        raise CratesError(f"{len(specs)} strategies for a partnership game of {players}: give one (every "
                          f"seat), two (one per team) or {players} (one per seat)")
    return labels_for(specs), list(specs), rotations(len(specs), players, partnerships)


def rotated_identity(rules, specs: list[str], labels: list[str], plan, seed: int, games: int,
                     detail: str, made_by: str) -> dict:
    """The manifest identity of a rotated design (entry specs, their labels, the plan)."""
    return mf.identity(rules, [specs[e] for e in plan[0]], seed, games, detail, made_by=made_by,
                       entries=labels, rotations=[[labels[e] for e in r] for r in plan])


@dataclass(frozen=True)
class Block:
    rules: object
    seating: Seating
    seed: int
    start: int
    games: int
    detail: str
    out: str  # the dataset folder
    index: int  # chunk number


def run_block(b: Block):
    """Play one block, write it as chunk `b.index` of the dataset; return (per game x entry
    summaries, the chunk's counts for the manifest)."""
    import os
    import socket
    import time

    from crates_sim.play.pyagent_run import (
        run_games,  # the engine's (Python agents: the step engine)
    )

    t0 = time.perf_counter()
    st = b.seating
    res = run_games(b.rules, list(st.specs), b.seed, b.start, b.games, detail=b.detail)
    gtab = games_table(res.games, list(st.specs), st)
    htab = hands_table(res.hands, st) if b.detail == "hands" and res.hands is not None else None
    stats = write_chunk(b.out, b.index, gtab, htab)
    stats.update(turns=int(res.turns), capped_hands=int(res.capped_hands), dead_hands=int(res.dead_hands),
                 seconds=round(time.perf_counter() - t0, 4), worker=f"{socket.gethostname()}:{os.getpid()}")
    g = pl.from_arrow(gtab.select(["game", "entry", "total", "win"]))
    per_game = g.group_by("game").agg(pl.col("win").sum().alias("_w"))
    summary = (g.join(per_game, on="game")
                .group_by("game", "entry")
                .agg(pl.col("total").mean().alias("score"), (pl.col("win").sum() / pl.col("_w").first()).alias("win"))
                .with_columns(rotation=pl.lit(st.rotation, dtype=pl.Int8))
                .sort("game", "entry"))
    return summary, stats


def compare_command(rules, strategies, games, seed, out, precision, max_games, scheduler) -> str:
    """The `crates compare` command line of this comparison (the manifest's `command`)."""
    args = ["crates", "compare", "--preset", rules.preset_name, "--players", str(rules.players)]
    for key, value in rules.differences().items():
        args += ["--set", f"{key}={value}"]
    args += ["--strategies", ",".join(strategies), "--games", str(games), "--seed", str(seed), "--out", str(out)]
    if precision is not None:
        args += ["--precision", str(precision), "--max-games", str(max_games)]
    if scheduler:
        args += ["--scheduler", scheduler]
    return shlex.join(args)


def open_dataset(out, rules, specs: list[str], plan, seed: int, detail: str, made_by: str, command: str,
                 labels: list[str] | None = None) -> DatasetWriter:
    """A new rotated-design dataset in `out` (its games are added by `play`)."""
    labels = labels or labels_for(specs)
    ident = rotated_identity(rules, specs, labels, plan, seed, 0, detail, made_by)
    return DatasetWriter(out, ident, rules.describe(), command)


def play(rules, strategies: list[str], seed: int, start: int, games: int, out, detail="games",
         workers: int | None = 1, batch: int = 0, scheduler: str | None = None,
         writer: DatasetWriter | None = None, plan=None) -> pl.DataFrame:
    """Play games [start, start + games) once per rotation; return per game x rotation x entry
    summaries (score = mean final total of the entry's seats, win = its share of the win).

    strategies: one spec per entry; plan: entry index per seat of each rotation (default
    `rotations`). The games become chunks of the dataset of `writer` (default: a new
    dataset in `out`, made_by "compare", closed at the end).
    scheduler: run the blocks on Dask ("tcp://HOST:PORT" or "local:K"), as `simulate` does.
    batch: unused (kept for callers; chunk numbers continue across calls)."""
    if plan is None:
        plan = rotations(len(strategies), rules.players, rules.partnerships)
    own = writer is None
    if own:
        command = compare_command(rules, strategies, games, seed, out, None, None, scheduler)
        writer = open_dataset(out, rules, list(strategies), plan, seed, detail, "compare", command)
    from crates_sim.play.pyagent_run import note_slowdown

    note_slowdown(rules, [strategies[e] for e in plan[0]], again=True)  # Python agents: how much slower
    levels = tuple(dict.fromkeys(strategies))
    spans = [(s, min(BLOCK, start + games - s)) for s in range(start, start + games, BLOCK)]
    seatings = [Seating(r, tuple(entries), tuple(strategies[e] for e in entries), levels, rules.partnerships)
                for r, entries in enumerate(plan)]
    indices = writer.add_chunks([(s, n, st.rotation) for st in seatings for s, n in spans])
    blocks = [Block(rules, st, seed, s, n, detail, str(writer.out), i)
              for i, (st, (s, n)) in zip(indices, ((st, sp) for st in seatings for sp in spans), strict=True)]
    from crates_sim.runs.runner import available_cpus, make_backend

    workers = workers or available_cpus()
    workers = max(1, min(workers, len(blocks)))
    parts = []
    with writer if own else contextlib.nullcontext():  # its own dataset: closed (or failed) here
        with make_backend(scheduler, None if scheduler else workers) as backend:
            writer.run.update(backend=backend.name, workers=backend.workers)
            for block, (summary, stats) in backend.run(run_block, blocks):
                writer.done(block.index, stats)
                parts.append(summary)
    return pl.concat(parts).sort("game", "rotation", "entry")
