"""`make bench`: the speed table of issue 3 (games/s, ns per turn, memory, start-up).

    python -m crates_sim.bench [--games N] [--big]

Rows: preset x strategy. Columns: games/s on one core (the kernel alone, in this
process), games/s on all cores (`simulate` with Parquet, --detail games), ns per turn
(plays + draws + passes), peak RSS. Then cold and warm start-up of `crates trace`, and
with --big the 1,000,000-game classic run with --detail games and hands.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

from .engine import run_games
from .rules import PRESETS, Rules
from .runner import available_cpus, simulate

PLAYERS = {"classic": 4, "league": 4, "serbian": 4, "crazy-eights": 4, "very-crazy-eights": 4}


def _crates_cmd(*args, env=None):
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "crates_sim", *args], check=True, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def startup_times() -> tuple[float, float]:
    """Wall time of `crates trace` with an empty numba cache (cold), then with it (warm)."""
    cache = tempfile.mkdtemp(prefix="crates-cache-")
    env = {**os.environ, "CRATES_SIM_CACHE": cache}  # an empty cache: everything compiles
    try:
        cold = _crates_cmd("trace", "--seed", "1", "--out", os.devnull, env=env)
        warm = _crates_cmd("trace", "--seed", "1", "--out", os.devnull, env=env)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    return cold, warm


def one_core(rules, strategy, games) -> tuple[float, float]:
    run_games(rules, [strategy] * rules.players, 0, 0, 20)  # load the kernels
    t0 = time.perf_counter()
    res = run_games(rules, [strategy] * rules.players, 1, 0, games, detail="games")
    dt = time.perf_counter() - t0
    return games / dt, dt / res.turns * 1e9


def all_cores(rules, strategy, games, detail="games") -> float:
    out = tempfile.mkdtemp(prefix="crates-bench-")
    try:
        t0 = time.perf_counter()
        simulate(rules, [strategy] * rules.players, games=games, seed=1, out=out,
                 detail=detail, overwrite=True)
        return games / (time.perf_counter() - t0)
    finally:
        shutil.rmtree(out, ignore_errors=True)


def peak_rss_mb() -> float:
    self_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    child_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(self_kb, child_kb) / 1024


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20_000, help="games per measurement")
    ap.add_argument("--big", action="store_true", help="also the 1,000,000-game runs")
    args = ap.parse_args(argv)
    cpus = available_cpus()
    print(f"crates-sim bench: {cpus} cores, {args.games} games per cell\n")
    print(f"{'preset':<18} {'strategy':<8} {'1 core g/s':>11} {f'{cpus} cores g/s':>13} "
          f"{'ns/turn':>8} {'peak RSS MB':>12}")
    for preset in PRESETS:
        rules = Rules.preset(preset, PLAYERS[preset])
        for strategy in ("random", "greedy"):
            rate1, ns = one_core(rules, strategy, args.games)
            rate_all = all_cores(rules, strategy, args.games * 2)
            print(f"{preset:<18} {strategy:<8} {rate1:>11,.0f} {rate_all:>13,.0f} {ns:>8.0f} "
                  f"{peak_rss_mb():>12.0f}", flush=True)
    cold, warm = startup_times()
    print(f"\nstart-up of `crates trace` (one game): cold {cold:.1f} s, warm {warm:.2f} s")
    if args.big:
        rules = Rules.preset("classic", 4)
        for detail in ("games", "hands"):
            out = tempfile.mkdtemp(prefix="crates-bench-big-")
            t0 = time.perf_counter()
            simulate(rules, ["random"] * 4, games=1_000_000, seed=1, out=out, detail=detail,
                     overwrite=True)
            dt = time.perf_counter() - t0
            shutil.rmtree(out, ignore_errors=True)
            print(f"1,000,000 classic 4p partnership games, random, --detail {detail}: "
                  f"{dt:.1f} s ({1e6 / dt:,.0f} games/s), peak RSS {peak_rss_mb():.0f} MB",
                  flush=True)


if __name__ == "__main__":
    main()
