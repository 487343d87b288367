"""`crates bench` (`make bench`): the speed table (games/s, ns per turn, memory, start-up,
compile times).

    crates bench [--games N] [--big] [--huge]

Rows: preset x strategy. Columns: games/s on one core (the kernel alone, in this
process, the median of three runs), games/s on all cores (`simulate` with Parquet, --detail games, 10x the games or
at least STEADY_SECONDS' worth on every core, whichever is more:
from the call to its return, then "steady": from its first chunk's start, and that as a
multiple of the one-core figure). A row measures ROUNDS times, one core and all cores
alternately, and shows the medians: one run of either swings by ~5% on a shared VM, as
much as the ratio it is read for; ns per turn (plays + draws + passes), peak RSS. Then cold and warm start-up of a 1,000-game
`crates simulate` and the ten kernels that take longest to compile, the time from a new
user strategy file to a finished 1,000-game run, a user strategy that calls greedy
against greedy itself, pimc's turns per second against three greedy, with --big the 1,000,000-game classic run with --detail games and
hands, and with --huge 10,000,000 games (--detail games): each a fresh `crates simulate`
command, timed from start to exit, with the peak RSS of its processes (parent and workers
together).
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import click

from ..rules import PRESETS, Rules
from .options import games_option

#: the all-cores cell plays at least this many seconds' worth of games on every core
STEADY_SECONDS = 4
#: a row's one-core and all-cores cells are measured this many times, alternately
ROUNDS = 3

PLAYERS = {"classic": 4, "league": 4, "serbian": 4, "crazy-eights": 4, "very-crazy-eights": 4}


def _crates_cmd(*args, env=None):
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "crates_sim", *args], check=True, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def startup_times() -> tuple[float, float]:
    """Wall time of a 1,000-game `crates simulate` with an empty numba cache (cold), then
    with it (warm)."""
    cache = tempfile.mkdtemp(prefix="crates-cache-")
    out = tempfile.mkdtemp(prefix="crates-bench-")
    env = {**os.environ, "CRATES_SIM_CACHE": cache}  # an empty cache: everything compiles
    args = ("simulate", "--games", "1000", "--seed", "1", "--detail", "games", "--quiet",
            "--overwrite", "--out", out)
    try:
        cold = _crates_cmd(*args, env=env)
        warm = _crates_cmd(*args, env=env)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)
    return cold, warm


def compile_report(top: int = 10) -> list[tuple[float, float, str]]:
    """Compile the engine in this process (run it with an empty cache) and return the
    `top` kernels by their own LLVM time: (own seconds, seconds with what they compiled
    of their callees, name)."""
    import gc

    from numba.core.dispatcher import Dispatcher

    from ..engine.api import prepare

    prepare([])
    rows = []
    for obj in gc.get_objects():
        if not isinstance(obj, Dispatcher):
            continue
        for cres in obj.overloads.values():
            times = (getattr(cres, "metadata", None) or {}).get("pipeline_times", {})
            own = total = 0.0
            for passes in times.values():
                for name, t in passes.items():
                    spent = t.init + t.run + t.finalize
                    total += spent
                    if "lowering" in name:
                        own += spent
            rows.append((own, total, f"{obj.py_func.__module__}.{obj.py_func.__qualname__}"))
    rows.sort(reverse=True)
    return rows[:top]


def _cold_compile_report() -> list[str]:
    cache = tempfile.mkdtemp(prefix="crates-cache-")
    code = ("from crates_sim.cli.bench import compile_report\n"
            "for own, total, name in compile_report():\n"
            "    print(f'{own:6.1f} s {total:7.1f} s  {name}')")
    try:
        out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                             text=True, env={**os.environ, "CRATES_SIM_CACHE": cache})
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    return out.stdout.splitlines()


_USER_FILE = """
from numba import njit
from crates_sim.strategies.builtin import greedy_nb

@njit
def edited(params, obs, hand, pile, options, rng):
    # edit {stamp}
    return greedy_nb(params, obs, hand, pile, options, rng)
"""


def new_user_file_run() -> float:
    """Seconds from a new (never compiled) user strategy file to a finished 1,000-game
    `crates simulate --workers 1`, the engine warm: what a user waits after an edit."""
    folder = tempfile.mkdtemp(prefix="crates-user-")
    path = Path(folder) / "mybot.py"
    path.write_text(_USER_FILE.format(stamp=time.time_ns()))
    try:
        return _crates_cmd("simulate", "--strategies", f"{path}:edited", "--games", "1000",
                           "--seed", "1", "--workers", "1", "--detail", "games", "--quiet",
                           "--out", str(Path(folder) / "out"))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _tight_loop():
    """A tight numba loop that plays basic Crazy Eights (issue 14's yardstick): four hands
    of five as arrays, a random legal card (8s wild, a random suit called), one draw when
    nothing is legal, a hand ends when a player is out or the stock is empty. Nothing
    else: no effects, counts, pressures, scoring or rows."""
    import numpy as np
    from numba import njit

    @njit(cache=True)
    def play(n_hands, seed):
        s = np.uint64(seed) | np.uint64(1)
        hands = np.empty((4, 52), dtype=np.int64)
        sizes = np.zeros(4, dtype=np.int64)
        deck = np.empty(52, dtype=np.int64)
        legal = np.empty(52, dtype=np.int64)
        turns = 0
        for _ in range(n_hands):
            for i in range(52):
                deck[i] = i
            for i in range(51, 0, -1):  # xorshift64 draws
                s ^= s << np.uint64(13)
                s ^= s >> np.uint64(7)
                s ^= s << np.uint64(17)
                j = np.int64((s >> np.uint64(32)) * np.uint64(i + 1) >> np.uint64(32))
                deck[i], deck[j] = deck[j], deck[i]
            top = 0
            for q in range(4):
                for k in range(5):
                    hands[q, k] = deck[top]
                    top += 1
                sizes[q] = 5
            up = deck[top]
            top += 1
            suit = up & 3
            rank = up >> 2
            p = 0
            while True:
                k = 0
                for i in range(sizes[p]):
                    c = hands[p, i]
                    legal[k] = i
                    k += ((c & 3) == suit) | ((c >> 2) == rank) | ((c >> 2) == 7)
                turns += 1
                if k == 0:
                    if top >= 52:
                        break
                    hands[p, sizes[p]] = deck[top]
                    sizes[p] += 1
                    top += 1
                else:
                    s ^= s << np.uint64(13)
                    s ^= s >> np.uint64(7)
                    s ^= s << np.uint64(17)
                    at = legal[np.int64((s >> np.uint64(32)) * np.uint64(k) >> np.uint64(32))]
                    c = hands[p, at]
                    sizes[p] -= 1
                    hands[p, at] = hands[p, sizes[p]]
                    rank = c >> 2
                    suit = np.int64(s & np.uint64(3)) if rank == 7 else c & 3
                    if sizes[p] == 0:
                        break
                p = p + 1 if p < 3 else 0
        return turns

    return play


def tight_loop_ns(hands: int = 2_000_000) -> float:
    """ns per turn (play or draw) of the tight loop, one core."""
    play = _tight_loop()
    play(100, 1)
    t0 = time.perf_counter()
    turns = play(hands, 7)
    return (time.perf_counter() - t0) / turns * 1e9


def _tree_rss_kb(pid: int) -> int:
    """Resident memory of process `pid` and all its descendants (Linux /proc), in KB."""
    total = 0
    stack = [pid]
    while stack:
        p = stack.pop()
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
            for task in Path(f"/proc/{p}/task").iterdir():
                stack += [int(c) for c in (task / "children").read_text().split()]
        except (OSError, ValueError):
            continue
    return total


class TreePeak:
    """Samples the total RSS of process `pid` and its descendants every 0.1 s until it ends."""

    def __init__(self, pid: int):
        self.pid = pid
        self.peak_kb = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self):
        while not self._stop.wait(0.1):
            self.peak_kb = max(self.peak_kb, _tree_rss_kb(self.pid))

    def stop(self) -> float:
        """Stop sampling; the peak in MB."""
        self._stop.set()
        self._thread.join()
        return self.peak_kb / 1024


def big_run(games: int, detail: str) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB, the command and its workers together) of
    `crates simulate` of `games` classic 4-player random games, run as a user runs it:
    a fresh command, the numba cache warm."""
    out = tempfile.mkdtemp(prefix="crates-bench-big-")
    args = [sys.executable, "-m", "crates_sim", "simulate", "--games", str(games), "--seed", "1",
            "--detail", detail, "--quiet", "--overwrite", "--out", out]
    try:
        t0 = time.perf_counter()
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL)
        peak = TreePeak(proc.pid)
        if proc.wait() != 0:
            raise SystemExit(f"bench: {' '.join(args)} failed")
        dt = time.perf_counter() - t0
        return dt, peak.stop()
    finally:
        shutil.rmtree(out, ignore_errors=True)


def _median(pairs):
    """The median of each field of a list of tuples."""
    return tuple(sorted(column)[len(column) // 2] for column in zip(*pairs, strict=True))


def one_core(rules, strategy, games, repeats=3) -> tuple[float, float]:
    """games/s and ns per turn of the kernel in this process, one core: the median of
    `repeats` runs of `games` games (one run swings by ~5% on this VM)."""
    from ..engine.api import run_games

    run_games(rules, [strategy] * rules.players, 0, 0, 20)  # load the kernels
    runs = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        res = run_games(rules, [strategy] * rules.players, 1, 0, games, detail="games")
        runs.append((time.perf_counter() - t0, res.turns))
    dt, turns = sorted(runs)[len(runs) // 2]
    return games / dt, dt / turns * 1e9


def all_cores(rules, strategy, games, detail="games") -> tuple[float, float]:
    """games/s of `simulate` on every core, Parquet written: from the call to its return,
    and from the first chunk's start on (without the start-up: the rate of a long run)."""
    from ..runs.runner import simulate

    out = tempfile.mkdtemp(prefix="crates-bench-")
    try:
        t0 = time.perf_counter()
        ds = simulate(rules, [strategy] * rules.players, games=games, seed=1, out=out,
                      detail=detail, overwrite=True)
        wall = time.perf_counter() - t0
        startup = ds.manifest["runs"][-1].get("startup_seconds", 0.0)
        return games / wall, games / (wall - startup)
    finally:
        shutil.rmtree(out, ignore_errors=True)


def env_step_us(wrapped: bool, games: int = 10) -> float:
    """Microseconds per step of the PettingZoo environment (classic 4p, every seat an
    agent) driven by a random agent: a uniformly random legal action from the mask."""
    import numpy as np

    from ..play import env as crates_env

    e = (crates_env.env if wrapped else crates_env.raw_env)(preset="classic", players=4)
    rng = np.random.default_rng(0)
    steps = 0
    t0 = time.perf_counter()
    for game in range(games):
        e.reset(seed=1, options={"game": game})
        for _agent in e.agent_iter():
            obs, _r, done, cut, _info = e.last()
            legal = np.flatnonzero(obs["action_mask"])
            e.step(None if done or cut else int(legal[rng.integers(len(legal))]))
            steps += 1
    return (time.perf_counter() - t0) / steps * 1e6


def rlcard_uno_step_us(games: int = 1000) -> float | None:
    """The same random agent on RLCard's `uno` environment (the yardstick of the env's
    speed), when rlcard is installed; None otherwise."""
    try:
        import numpy as np
        import rlcard
    except ImportError:
        return None
    e = rlcard.make("uno", config={"seed": 0})
    rng = np.random.default_rng(0)
    steps = 0
    t0 = time.perf_counter()
    for _ in range(games):
        state, _pid = e.reset()
        while not e.is_over():
            legal = list(state["legal_actions"])
            state, _pid = e.step(legal[rng.integers(len(legal))])
            steps += 1
    return (time.perf_counter() - t0) / steps * 1e6


def pimc_rate(games: int = 40) -> tuple[float, float]:
    """`pimc` (its defaults) in seat 0 against three `greedy`, classic 4p, one core: games/s
    and pimc's turns per second (its plays and draws: a decision each, most of them searched)."""
    from ..engine.api import run_games

    rules = Rules.preset("classic", 4)
    specs = ["pimc", "greedy", "greedy", "greedy"]
    run_games(rules, specs, 0, 0, 1)  # load the kernels
    t0 = time.perf_counter()
    res = run_games(rules, specs, 1, 0, games)
    dt = time.perf_counter() - t0
    mine = res.hands["seat"] == 0
    turns = int(res.hands["plays"][mine].sum() + res.hands["draws"][mine].sum())
    return games / dt, turns / dt


def peak_rss_mb() -> float:
    self_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    child_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(self_kb, child_kb) / 1024


#: the tables `crates bench` times adept on: (label, rules, games); those with draws at will
#: cost the most (more cards held, more options a turn)
ADEPT_TABLES = (
    ("classic 4p partnerships", Rules.preset("classic", 4), 1000),
    ("crazy-eights 4p", Rules.preset("crazy-eights", 4), 1000),
    ("classic 5p, draw_when_able=true", Rules.preset("classic", 5, draw_when_able=True), 200),
    ("classic 4p partnerships, draw_when_able=true", Rules.preset("classic", 4, draw_when_able=True), 200),
    ("very-crazy-eights 5p, draw_rule=unlimited",
     Rules.preset("very-crazy-eights", 5, draw_rule="unlimited"), 500),
    # the drawn rule sets nearest the bound (docs/strategies.md, "The same scores for
    # less"): a seat may draw instead of playing, so nearly every turn is scored; and
    # searched routes' tables
    ("drawn 12480 #03: very-crazy-eights 4p, draw one",
     Rules.from_spec("very-crazy-eights:draw_rule=one,hand_size=8,target_score=50,"
                     "first_dealer=random,remove_ranks=QK", 4), 300),
    ("drawn 12500 #05: league 4p partners, 8s wild",
     Rules.from_spec("league:partnerships=True,count_forced=False,seven_target=next,"
                     "nine_wild=False,last_card_penalty=next_turn,upcard_rule=serbian,"
                     "out_rule=after_effects,first_dealer=random,remove_ranks=9T", 4), 200),
    # the short-deck partnership table that ran over the bound with 12 deals (2.11 us a
    # turn alone; adept.PARTNERS_EIGHTS_SHORT_SEARCHES)
    ("short-deck 12550 #03: serbian 4p partners, 8s",
     Rules.from_spec("serbian:count_value=pips,count_forced=False,seven_target=across,"
                     "nine_wild=False,jack_effect=classic,pressure_scope=seat,six_exempt=False,"
                     "upcard_rule=as_played,spare_three=0,remove_ranks=7Q", 4), 200),
    # the drawn rule set nearest the bound without a search (1.84 us a turn alone over
    # 200 games, 1.9-2.1 over 1,000): hands of 8 cards, so many options a decision
    ("drawn 12560 #02: crazy-eights 5p, 8 cards",
     Rules.from_spec("crazy-eights:draw_rule=one,hand_size=8,target_score=200,"
                     "first_dealer=random,remove_ranks=A9", 5), 200),
    # the drawn rule set that ran over the bound before adept hoarded to the stock's last
    # card in partnerships without 5s (2.15 us a turn alone over 1,000 games, 1.5 since:
    # adept.HOARD_STOCK_PARTNERS_NO_FIVE)
    ("drawn 12570 #09: league 4p partners at will, 44",
     Rules.from_spec("league:partnerships=True,count_value=cards,count_forced=False,"
                     "nine_colour=own,pressure_scope=team,upcard_rule=call_only,"
                     "out_rule=after_effects,draw_when_able=True,first_dealer=random,"
                     "remove_ranks=5K", 4), 200),
)


@click.command()
@games_option(20_000, help="Games per measurement.")
@click.option("--big", is_flag=True, help="Also the 1,000,000-game runs.")
@click.option("--huge", is_flag=True, help="Also the 10,000,000-game run.")
def bench(games, big, huge):
    """Print the speed table: games/s per preset and strategy, ns per turn, start-up times.

    Per preset, random and greedy: games/s on one core and on every core (`simulate`,
    Parquet written), ns per turn and peak memory; then a tight Crazy Eights loop as the
    yardstick, a user strategy, the PettingZoo environment's step, pimc's turns per
    second, adept's µs a turn on ten tables, cold and warm start-up, the kernels slowest
    to compile, and with --big (or --huge) the 1,000,000 (10,000,000) game runs. It
    takes minutes and uses every core: run it on an idle machine (`make bench` runs it
    with --big).

    \b
    Examples:
      crates bench                  the table, 20,000 games per cell
      crates bench --games 5000     a quicker, noisier table
      crates bench --big            and the 1,000,000-game runs (make bench)
    """
    speed_table(games, big, huge)


def speed_table(games: int, big: bool = False, huge: bool = False) -> None:
    """Measure and print the table (`bench`'s docstring) with `games` games per cell."""
    from ..runs.runner import available_cpus

    cpus = available_cpus()
    print(f"crates-sim bench: {cpus} cores, {games} games per cell\n")
    print(f"{'preset':<18} {'strategy':<8} {'1 core g/s':>11} {f'{cpus} cores g/s':>13} "
          f"{'steady':>8} {'x 1 core':>8} {'ns/turn':>8} {'peak RSS MB':>12}")
    ns_of = {}
    greedy_ns = {}
    for preset in PRESETS:
        rules = Rules.preset(preset, PLAYERS[preset])
        for strategy in ("random", "greedy"):
            ones, alls = [], []
            for _ in range(ROUNDS):  # alternately, so that a slow minute slows both
                ones.append(one_core(rules, strategy, games))
                # a long run: at least ~4 s on all cores, so that its start and its last
                # chunks do not decide the steady rate (the rate of the long runs it stands for)
                alls.append(all_cores(rules, strategy, max(
                    games * 10, int(ones[-1][0] * cpus * STEADY_SECONDS))))
            rate1, ns = _median(ones)
            rate_all, steady = _median(alls)
            if strategy == "random":
                ns_of[preset] = ns
            else:
                greedy_ns[preset] = ns
            print(f"{preset:<18} {strategy:<8} {rate1:>11,.0f} {rate_all:>13,.0f} {steady:>8,.0f} "
                  f"{steady / rate1:>8.2f} {ns:>8.1f} {peak_rss_mb():>12.0f}", flush=True)
    print("greedy per turn over random: " + ", ".join(
        f"{preset} {greedy_ns[preset] / ns_of[preset] - 1:+.0%}" for preset in PRESETS))
    tight = tight_loop_ns()
    print(f"\ntight loop (basic Crazy Eights, arrays, random legal card): {tight:.1f} ns/turn; "
          f"crates-sim random: classic {ns_of['classic'] / tight:.2f}x it, crazy-eights "
          f"{ns_of['crazy-eights'] / tight:.2f}x, very-crazy-eights "
          f"{ns_of['very-crazy-eights'] / tight:.2f}x")
    examples = Path(__file__).resolve().parents[2] / "examples" / "strategies.py"
    rules = Rules.preset("classic", 4)
    rates = {}
    for spec in ("greedy", f"{examples}:greedy_again"):
        rate1, ns = one_core(rules, spec, games)
        rates[spec] = rate1
        label = "user greedy_again (calls greedy)" if spec != "greedy" else "greedy"
        print(f"classic 4p, one core, {label:<33} {rate1:>9,.0f} games/s {ns:>6.1f} ns/turn"
              + (f" ({rate1 / rates['greedy']:.2f}x greedy's games/s)" if spec != "greedy" else ""))
    env_step_us(False, 1)  # warm up
    env_step_us(True, 1)
    raw, wrapped, uno = env_step_us(False), env_step_us(True), rlcard_uno_step_us()
    print(f"\nPettingZoo env, random agent at every seat (classic 4p): raw_env {raw:.1f} us/step, "
          f"env() (checked_env) {wrapped:.1f} us/step"
          + (f"; RLCard uno {uno:.1f} us/step: env() {wrapped / uno:.2f}x uno's step, "
             f"raw_env {raw / uno:.2f}x" if uno else
             " (pip install rlcard to set RLCard's uno beside it)"))
    print("\nadept, one core, every seat (µs a turn over whole games; the bound is 2):")
    for label, rules, n in ADEPT_TABLES:
        print(f"  {label:<48} {one_core(rules, 'adept', n)[1] / 1000:>5.2f} µs/turn", flush=True)
    games_s, turns_s = pimc_rate()
    print(f"classic 4p, one core, pimc (samples=30, depth=10, weights rollouts) vs 3 greedy: "
          f"{games_s:,.1f} games/s, {turns_s:,.0f} pimc turns/s")
    cold, warm = startup_times()
    print(f"\nstart-up of a 1,000-game `crates simulate`: cold {cold:.1f} s, warm {warm:.2f} s")
    print(f"a new user strategy file to a finished 1,000-game run (--workers 1, engine warm): "
          f"{new_user_file_run():.1f} s")
    print("\nthe ten kernels slowest to compile (own LLVM time, time with their callees):")
    for line in _cold_compile_report():
        print("  " + line)
    runs = [(1_000_000, "games"), (1_000_000, "hands")] if big else []
    runs += [(10_000_000, "games")] if huge else []
    wall = {}
    for big_games, detail in runs:
        dt, peak = big_run(big_games, detail)
        wall[big_games, detail] = dt
        print(f"{big_games:,} classic 4p partnership games, random, --detail {detail}: "
              f"{dt:.1f} s ({big_games / dt:,.0f} games/s), peak RSS of all processes {peak:,.0f} MB"
              + (f" ({dt / wall[big_games, 'games'] - 1:+.0%} over --detail games)"
                 if detail == "hands" and (big_games, "games") in wall else ""), flush=True)

