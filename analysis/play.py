"""Running games for `crates compare` and `crates balance`: seat rotations over one deal set.

The engine deals game i of seed S the same cards whatever the strategies and their seats,
so running the same seed and game numbers once per rotation of the strategies over the
seats plays every deal once per rotation (common random numbers). Each block of games is
run by `crates_sim.engine.run_games` and written to Parquet by the worker; only small
per-game summaries come back.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from crates_sim.errors import CratesError
from crates_sim.schema import REASONS

BLOCK = 5000  # games per engine call


def labels_for(strategies: list[str]) -> list[str]:
    """Entry labels: the spec, numbered where the same spec is entered twice (greedy#1, greedy#2)."""
    out = []
    for i, s in enumerate(strategies):
        out.append(f"{s}#{strategies[:i + 1].count(s)}" if strategies.count(s) > 1 else s)
    return out


def rotations(m: int, players: int, partnerships: bool) -> list[list[int]]:
    """Entry index per seat for each rotation: seat s plays entry (s + r) % m in rotation r.

    Every seat hosts every entry exactly once over the m rotations; with partnerships and
    two entries, each entry is a whole team, once as team 0 and once as team 1.
    """
    if m < 1:
        raise CratesError("give at least one strategy")
    if m > players:
        raise CratesError(f"{m} strategies for {players} seats: give at most one per seat")
    if partnerships and m != 2:
        raise CratesError("a partnership game compares two strategies (one per team); "
                          "give two, or use --no-partnerships")
    return [[(s + r) % m for s in range(players)] for r in range(m)]


@dataclass(frozen=True)
class Block:
    rules: object
    specs: tuple  # strategy spec per seat
    entries: tuple  # entry index per seat
    rotation: int
    seed: int
    start: int
    games: int
    detail: str
    out: str  # folder for the Parquet files
    tag: str


def _frame(cols: dict, categorical: dict) -> pl.DataFrame:
    data = {}
    for k, v in cols.items():
        if k in categorical:
            data[k] = pl.Series(k, [categorical[k][int(c)] for c in v] if k == "reason" else list(v),
                                dtype=pl.String).cast(pl.Categorical)
        else:
            data[k] = np.asarray(v)
    return pl.DataFrame(data)


def run_block(b: Block) -> pl.DataFrame:
    """Play one block, write games (and hands) Parquet, return per game x entry summaries."""
    from crates_sim import engine

    res = engine.run_games(b.rules, list(b.specs), b.seed, b.start, b.games, detail=b.detail)
    entries = np.asarray(b.entries, dtype=np.int8)
    g = _frame(res.games, {"strategy": None}).with_columns(
        rotation=pl.lit(b.rotation, dtype=pl.Int8), entry=pl.Series(entries[np.asarray(res.games["seat"])]))
    out = Path(b.out)
    (out / "games").mkdir(parents=True, exist_ok=True)
    g.write_parquet(out / "games" / f"{b.tag}.parquet", compression="zstd")
    if b.detail == "hands" and res.hands is not None:
        seat = np.asarray(res.hands["seat"])
        h = _frame(res.hands, {"reason": REASONS}).with_columns(
            rotation=pl.lit(b.rotation, dtype=pl.Int8), entry=pl.Series(entries[seat]),
            strategy=pl.Series(np.asarray(b.specs, dtype=object)[seat], dtype=pl.String),
            team=pl.Series((seat % 2) if b.rules.partnerships else seat, dtype=pl.Int8))
        (out / "hands").mkdir(parents=True, exist_ok=True)
        h.write_parquet(out / "hands" / f"{b.tag}.parquet", compression="zstd")
    per_game = g.group_by("game").agg(pl.col("win").sum().alias("_w"))
    return (g.join(per_game, on="game")
             .group_by("game", "entry")
             .agg(pl.col("total").mean().alias("score"), (pl.col("win").sum() / pl.col("_w").first()).alias("win"))
             .with_columns(rotation=pl.lit(b.rotation, dtype=pl.Int8))
             .sort("game", "entry"))


def play(rules, strategies: list[str], seed: int, start: int, games: int, out, detail="games",
         workers: int | None = 1, batch: int = 0, scheduler: str | None = None) -> pl.DataFrame:
    """Play games [start, start + games) once per rotation; return per game x rotation x entry
    summaries (score = mean final total of the entry's seats, win = its share of the win).

    scheduler: run the blocks on Dask ("tcp://HOST:PORT" or "local:K"), as `simulate` does."""
    plan = rotations(len(strategies), rules.players, rules.partnerships)
    blocks = []
    for r, entries in enumerate(plan):
        specs = tuple(strategies[e] for e in entries)
        for s in range(start, start + games, BLOCK):
            n = min(BLOCK, start + games - s)
            blocks.append(Block(rules, specs, tuple(entries), r, seed, s, n, detail, str(out),
                                f"b{batch:03d}-r{r}-g{s:09d}"))
    try:
        from crates_sim.runner import available_cpus, make_backend
    except ImportError:  # pragma: no cover - runner not there
        make_backend, available_cpus = None, lambda: 1
    workers = workers or available_cpus()
    workers = max(1, min(workers, len(blocks)))
    if scheduler:
        with make_backend(scheduler, None) as backend:
            parts = [res for _, res in backend.run(run_block, blocks)]
    elif make_backend is None or workers == 1:
        parts = [run_block(b) for b in blocks]
    else:
        with make_backend(None, workers) as backend:
            parts = [res for _, res in backend.run(run_block, blocks)]
    return pl.concat(parts).sort("game", "rotation", "entry")
