"""`crates simulate`: a thin command-line layer over `crates_sim.runs.runner.simulate`."""

from __future__ import annotations

import shlex
import sys
import time
from pathlib import Path

import click

from ..data.dataset import MANIFEST, Dataset
from ..errors import CratesError
from ..runs.runner import DETAILS, default_out, equivalent_command
from ..runs.runner import simulate as run_simulation
from ..strategy import parse_strategies
from .options import (
    Choice,
    games_option,
    out_option,
    overwrite_option,
    quiet_option,
    rules_options,
    scheduler_option,
    seed_option,
    strategies_option,
    workers_option,
)


def _summary(ds: Dataset, wall: float) -> str:
    m = ds.manifest
    run = m["runs"][-1]
    games = m["games"]
    ran = run["games_run"]
    compiled = run.get("compile_seconds", 0.0)
    playing = wall - compiled
    rate = ran / playing if playing > 0 and ran else 0.0
    who = ", ".join(m["strategies"]) if len(set(m["strategies"])) > 1 else f"{m['strategies'][0]} x{m['players']}"
    team = ", partnerships" if m["partnerships"] else ""
    lines = [f"{games:,} games of {m['rules_spec']} ({m['players']} players{team}; {who}; "
             f"seed {m['seed']})"]
    if run["chunks_kept"] and ran:
        lines.append(f"  resumed: {run['chunks_kept']} finished chunks kept, {ran:,} games run now")
    elif not ran:
        lines.append("  already complete: nothing to run")
    if ran:
        spent = f" (of which compiling the engine {compiled:.1f} s)" if compiled else ""
        lines.append(f"  wall time {wall:.1f} s{spent}, {rate:,.0f} games/s "
                     f"({run['workers']} worker{'s' if run['workers'] != 1 else ''}, {run['backend']})")
    lines.append(f"  capped hands {m['capped_hands']:,}, dead hands {m['dead_hands']:,}")
    parts = "games/" + (", hands/" if m["detail"] == "hands" else "")
    lines.append(f"  data: {ds.path}/  ({parts}, {MANIFEST})")
    lines.append(f"next: crates report {shlex.quote(str(ds.path))}")
    return "\n".join(lines)


@click.command()
@rules_options
@strategies_option()
@games_option(10_000, help="Number of games (numbered 0 .. G-1).")
@seed_option(help="Seed of the run")
@out_option(required=False, path_type=Path,
            help="Dataset directory [default: results/<preset>-<players>p-<strategies>-s<seed>].")
@workers_option
@click.option("--detail", type=Choice(DETAILS), default="hands", show_default=True,
              help="hands: games/ and hands/; games: games/ only (smaller, faster).")
@click.option("--chunk-size", type=int, default=None,
              help="Games per engine call and per Parquet file [default: up to 20,000; "
                   "40,000 with --detail games].")
@scheduler_option
@overwrite_option("run")
@quiet_option("No progress bar and no summary.")
def simulate(rules, strategies, games, seed, out, workers, detail, chunk_size, scheduler,
             overwrite, quiet):
    """Simulate many games and write them as a Parquet dataset.

    \b
    Examples:
      crates simulate --games 100000
          classic, 4 players in partnerships, random play, seed 0, every CPU
      crates simulate -p league -n 3 -s greedy,random,random -g 1000000 --seed 7
      crates simulate --set seven_target=next -s greedy,random,greedy,random --detail games
      crates simulate -g 10000000 --scheduler local:2 --out runs/dask-local
          Dask on this machine, two workers
      crates simulate -g 50000000 --scheduler tcp://HEAD:8786 --out /shared/run1
          a Dask cluster whose workers all see /shared

    \b
    The dataset (DIR is --out):
      DIR/games/*.parquet   one row per game x seat: total, rank, win, pressures ...
      DIR/hands/*.parquet   one row per game x hand x seat (not with --detail games)
      DIR/manifest.json     rules, strategies, seed, chunks and their state, timing
    Read it with polars (pl.scan_parquet("DIR/games/*.parquet")), pandas, pyarrow or
    DuckDB, or run `crates report DIR`.

    \b
    Game i of seed S is the same game whatever --workers, --chunk-size or --scheduler.
    Interrupted (Ctrl-C, killed, disk full)? To resume, run the same command again: finished chunks
    are kept and only the rest is run. A DIR holding a different run is refused unless
    you pass --overwrite.
    """
    strategies = parse_strategies(strategies, rules.players)
    if out is None:
        out = default_out(rules, strategies, seed)
    t0 = time.perf_counter()
    try:
        ds = run_simulation(rules, strategies, games=games, seed=seed, out=out, workers=workers,
                            chunk_size=chunk_size, detail=detail,
                            progress=not quiet and sys.stderr.isatty(), scheduler=scheduler,
                            overwrite=overwrite)
    except KeyboardInterrupt:
        done = total = "?"
        try:
            chunks = Dataset(out).manifest["chunks"]
            done, total = sum(c["state"] == "done" for c in chunks), len(chunks)
        except (CratesError, KeyError):
            pass
        command = equivalent_command(rules, strategies, games, seed, out, detail, chunk_size,
                                     scheduler)
        click.echo(f"\nInterrupted: {done} of {total} chunks are finished and kept in {out}. "
                   f"To resume, run the same command again:\n  {command}", err=True)
        sys.exit(130)
    if not quiet:
        click.echo(_summary(ds, time.perf_counter() - t0))
