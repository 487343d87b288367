"""Running many games: chunk planning, backends, resume, and `simulate()`.

A run of G games is split into chunks of consecutive games. Each chunk is one call of
`engine.run_games` (one crossing into the numba kernels) and one Parquet file in
`games/` (and `hands/`), written atomically by whichever process ran it. The process
that called `simulate` owns manifest.json and rewrites it (atomically) after each chunk.

Game i of seed S depends only on (rules, strategies, S, i), so the dataset is the same
whatever the number of workers, the chunk size or the pattern of interruptions.

Backends run `run_chunk(task)` over the pending chunks and yield results as chunks finish:
  * inline  - in this process (workers=1);
  * process - a pool of worker processes that are reused across chunks (numba kernels are
              loaded once per process);
  * dask    - a Dask cluster (`scheduler="tcp://HOST:PORT"` or `"local:K"`), see dask_backend.

Other commands can reuse them: `with make_backend(scheduler, workers) as b:` then
`for task, result in b.run(fn, tasks)` runs the top-level function `fn` on each picklable
task and yields results as they finish (workers started on first use, stopped on exit or
error; Ctrl-C stops them). `fn` must live in an importable module: worker processes import
nothing from `__main__` (see workers.main_hidden), so scripts need no `__main__` guard.
"""

from __future__ import annotations

import hashlib
import os
import re
import shlex
import shutil
import signal
import socket
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from ..data import manifest as mf
from ..data.dataset import (
    GAMES,
    HANDS,
    MANIFEST,
    Dataset,
    chunk_name,
    discard_empty,
    games_table,
    hands_table,
    is_tmp,
    missing_folders,
    parquet_rows,
    write_chunk,
    write_manifest,
)
from ..data.progress import Progress
from ..data.schema import GAME_COLUMNS
from ..errors import CratesError
from ..rules import Rules
from ..strategy import Lineup, parse_strategies
from .workers import RunFailed, available_cpus, mp_context

#: Largest automatic chunk (games per engine call and per file).
DEFAULT_CHUNK_SIZE = 20_000
#: ... with --detail games, whose chunks hold no hand rows: a chunk's fixed costs (the
#: engine call's set-up, the file, its fsync, the handoff to the parent) then weigh more;
#: measured, very-crazy-eights random on 2 workers, three interleaved pairs: steady rate
#: 1.82 / 1.84 / 1.75x one core with chunks of 20,000, 1.88 / 1.90 / 1.79x with 40,000
GAMES_CHUNK_SIZE = 40_000
#: Smallest automatic chunk, so per-chunk overhead stays small.
MIN_AUTO_CHUNK = 1_000
#: Automatic chunking aims at this many chunks per worker, for load balance.
CHUNKS_PER_WORKER = 4
#: Automatic chunking starts each worker on a chunk this many times smaller than the rest,
#: doubling up to full size: the first chunks finish within seconds, so the progress bar
#: moves and an early Ctrl-C keeps work (a slow strategy's 18,750-game chunk took 25 s),
#: for a few more chunks. Which games a chunk holds never changes a game.
RAMP_FACTOR = 16
#: ... and ramps only chunks of at least this many games (small runs end quickly anyway)
RAMP_FROM = 1_600
DETAILS = ("hands", "games")


# ------------------------------------------------------------------------- planning
def auto_chunk_size(games: int, workers: int, largest: int = DEFAULT_CHUNK_SIZE) -> int:
    """Equal chunks of at most `largest` games and at least MIN_AUTO_CHUNK, at
    least CHUNKS_PER_WORKER per worker, and as many for every worker where that can be:
    the workers then finish together (a worker left alone with the last chunk idles the
    others: a 650k-game run on 2 cores lost 2% to 33 chunks of 20,000)."""
    workers = max(1, workers)
    chunks = max(CHUNKS_PER_WORKER * workers, -(-games // largest))
    chunks = -(-chunks // workers) * workers  # a multiple of the workers
    if games < chunks * MIN_AUTO_CHUNK:  # too small to split so finely
        chunks = max(1, games // MIN_AUTO_CHUNK)
        if chunks >= workers:
            chunks -= chunks % workers
    return max(1, min(largest, -(-games // chunks)))


def plan_chunks(games: int, chunk_size: int, ramp_workers: int = 0) -> list[tuple[int, int]]:
    """(first game, number of games) of each chunk, in order. ramp_workers > 0 (automatic
    chunking): each of that many workers' first chunk_size games come as chunks of 1/16,
    1/16, 1/8, 1/4 and the rest (about 1/2) of it (RAMP_FACTOR), then full chunks."""
    plan, start = [], 0
    if ramp_workers and chunk_size >= RAMP_FROM:
        steps = RAMP_FACTOR.bit_length() - 1
        parts = [chunk_size >> steps] + [chunk_size >> k for k in range(steps, 1, -1)]
        for n in [*parts, chunk_size - sum(parts)]:
            for _ in range(ramp_workers):
                if start < games:
                    plan.append((start, min(n, games - start)))
                    start += plan[-1][1]
    return plan + [(s, min(chunk_size, games - s)) for s in range(start, games, chunk_size)]


def default_out(rules: Rules, strategies: list[str], seed: int, root="results") -> Path:
    """results/<preset>[-<knob changes>]-<players>p-<strategies>-s<seed>, file-name safe."""
    diff = rules.differences()
    preset = rules.preset_name + "".join(f"-{k}={v}" for k, v in diff.items())
    strat = strategies[0] if len(set(strategies)) == 1 else "_".join(strategies)
    name = f"{preset}-{rules.players}p-{strat}-s{seed}"
    name = re.sub(r"[^A-Za-z0-9._=+-]+", "_", name).strip("._") or "run"
    if len(name) > 120:
        digest = hashlib.sha1(name.encode()).hexdigest()[:10]
        name = f"{name[:100]}-{digest}"
    return Path(root) / name


def equivalent_command(rules: Rules, strategies, games, seed, out, detail, chunk_size=None,
                       scheduler=None) -> str:
    """The `crates simulate` command line that makes (or resumes) this run."""
    args = ["crates", "simulate", "--preset", rules.preset_name, "--players", str(rules.players)]
    for key, value in rules.differences().items():
        args += ["--set", f"{key}={value}"]
    strat = strategies[0] if len(set(strategies)) == 1 else ",".join(strategies)
    args += ["--strategies", strat, "--games", str(games), "--seed", str(seed),
             "--out", str(out)]
    if detail != "hands":
        args += ["--detail", detail]
    if chunk_size:
        args += ["--chunk-size", str(chunk_size)]
    if scheduler:
        args += ["--scheduler", scheduler]
    return shlex.join(args)


# ------------------------------------------------------------------------- one chunk
@dataclass(frozen=True)
class ChunkTask:
    """Everything a worker needs to run one chunk and write its files (small, picklable)."""

    rules: Rules
    strategies: Lineup  # parsed once, in the parent (its addresses are found in the worker)
    seed: int
    index: int
    start: int
    games: int
    detail: str
    out: str


def run_chunk(task: ChunkTask) -> dict:
    """Run one chunk's games and write its Parquet file(s) atomically; return its counts."""
    # imported here: `import crates_sim` stays free of numba (pyagent_run.run_games is the
    # engine's, or the step engine's for Python agents)
    from ..play.pyagent_run import run_games

    t0 = time.perf_counter()
    res = run_games(task.rules, task.strategies, task.seed, task.start, task.games,
                    detail=task.detail, reuse_rows=True)  # written out below
    hands = hands_table(res.hands) if task.detail == "hands" else None
    stats = write_chunk(task.out, task.index, games_table(res.games, list(task.strategies)),
                        hands)
    stats.update(turns=int(res.turns), capped_hands=int(res.capped_hands),
                 dead_hands=int(res.dead_hands), seconds=round(time.perf_counter() - t0, 4),
                 worker=f"{socket.gethostname()}:{os.getpid()}")
    return stats


# ------------------------------------------------------------------------- backends
class InlineBackend:
    """Runs chunks one after another in this process."""

    name = "inline"

    def __init__(self):
        self.workers = 1

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        # the chunks ran here: their hand-row buffer goes with the run (the engine is
        # only looked up, not imported: a run with nothing left to do never loaded it)
        engine = sys.modules.get("crates_sim.engine.api")
        if engine is not None:
            engine.release_rows()
        return False

    def run(self, fn, tasks):
        for task in tasks:
            yield task, fn(task)


def _ignore_sigint():
    # Ctrl-C reaches the whole process group; only the parent decides what to do.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _mp_context():
    # Forkserver on Linux, spawn elsewhere; the workers import no main script, so a plain
    # script that calls simulate() without an `if __name__ == "__main__":` guard works.
    return mp_context(preload=["crates_sim.runs.runner", "crates_sim.engine.api", "crates_sim.runs.worker_preload"])


class ProcessBackend:
    """A pool of `workers` processes, each reused for many chunks (and across `run` calls:
    `crates tune` runs one batch per generation on the same workers)."""

    name = "process"

    def __init__(self, workers: int):
        self.workers = workers
        self.pool = None

    def __enter__(self):
        return self

    def run(self, fn, tasks):
        tasks = list(tasks)
        if not tasks:
            return
        if self.pool is None:
            self.pool = ProcessPoolExecutor(max_workers=min(self.workers, len(tasks)),
                                            mp_context=_mp_context(), initializer=_ignore_sigint)
        futures = {self.pool.submit(fn, task): task for task in tasks}
        try:
            for fut in as_completed(futures):
                yield futures[fut], fut.result()
        except BrokenProcessPool:
            raise RunFailed("a worker process died (killed, out of memory, or it failed as it "
                            "started: see any messages above)") from None

    def abort(self):
        """Stop the workers now. They are terminated and reaped before the pool shuts down,
        so the pool's manager thread sees them gone and ends: a shutdown that did not wait
        for it left that thread reading a closed pipe as the interpreter exited (a "Bad file
        descriptor" traceback after Ctrl-C or SIGTERM on a loaded machine)."""
        if self.pool is None:
            return
        processes = list(getattr(self.pool, "_processes", {}).values())
        for proc in processes:
            try:
                proc.terminate()
            except (OSError, ValueError):  # pragma: no cover - already gone
                pass
        for proc in processes:
            try:
                proc.join(timeout=10)
                if proc.is_alive():  # pragma: no cover - a worker that ignores SIGTERM
                    proc.kill()
                    proc.join(timeout=5)
            except (OSError, ValueError, AssertionError):  # pragma: no cover - already reaped
                pass
        self.pool.shutdown(wait=True, cancel_futures=True)
        self.pool = None

    def __exit__(self, exc_type, *exc):
        if self.pool is not None:
            if exc_type is None:
                self.pool.shutdown(wait=True)
            else:
                self.abort()
        return False


def make_backend(scheduler, workers):
    if scheduler:
        from .dask_backend import DaskBackend

        return DaskBackend(scheduler)
    if workers == 1:
        return InlineBackend()
    return ProcessBackend(workers)


# ------------------------------------------------------------------------- the run
def _whole(name, value, low):
    if isinstance(value, bool):
        raise CratesError(f"{name} must be a whole number, not {value!r}")
    try:
        number = int(value)
        if number != value:
            raise ValueError
    except (TypeError, ValueError):
        raise CratesError(f"{name} must be a whole number, not {value!r}") from None
    if number < low:
        raise CratesError(f"{name} must be at least {low}, not {number}")
    return number


def _coerce(rules, strategies, games, seed, workers, chunk_size, detail):
    if isinstance(rules, str):
        if isinstance(strategies, str):
            count = len([s for s in strategies.split(",") if s.strip()])
        else:
            count = len(list(strategies))
        rules = Rules.from_spec(rules, count if count > 1 else 4)
    if not isinstance(rules, Rules):
        raise CratesError(f"rules must be a Rules or a preset name, not {type(rules).__name__}")
    strategies = parse_strategies(strategies, rules.players)
    games = _whole("games", games, 1)
    seed = _whole("seed", seed, 0)
    if seed >= 2**63:
        raise CratesError(f"seed must be below 2**63, not {seed}")
    if workers is not None:
        workers = _whole("workers", workers, 1)
    if chunk_size is not None:
        chunk_size = _whole("chunk size", chunk_size, 1)
    if detail not in DETAILS:
        raise CratesError(f"detail must be hands or games, not {detail!r}")
    return rules, strategies, games, seed, workers, chunk_size


#: the games/ columns that older versions wrote narrower (32-bit totals and pressure points;
#: 16-bit pressures, 8-bit in hands/, which a pressure war overflows)
_WIDENED = ("total", "pressures")


def _refuse_narrow(out: Path, old: dict) -> None:
    """A dataset whose chunks have the narrower columns of older versions (_WIDENED) is not
    resumed: chunks of both widths would not read as one dataset."""
    for c in old.get("chunks", []):
        if c.get("state") != "done":
            continue
        try:
            schema = pq.read_schema(out / GAMES / chunk_name(c["index"]))
        except (OSError, pa.ArrowException):
            return  # a missing or damaged chunk is run again anyway
        for name in _WIDENED:
            if name not in schema.names:
                continue
            field = schema.field(name)
            if field.type != pa.from_numpy_dtype(GAME_COLUMNS[name]):
                raise CratesError(f"{out} was made by an older crates-sim ({field.type} {name}): "
                                  f"remake it with --overwrite, or choose another --out")
        return


def _inspect(out: Path, ident: dict, overwrite: bool, chunk_size):
    """The existing manifest to resume (or None for a fresh run); refuse a foreign DIR."""
    if overwrite or not out.exists():
        return None
    if not out.is_dir():
        raise CratesError(f"--out {out} exists and is not a directory")
    man = out / MANIFEST
    if not man.exists():
        try:
            entries = [p.name for p in out.iterdir()]
        except OSError as exc:
            raise CratesError(f"cannot read {out}: {exc.strerror or exc}") from None
        if any(not is_tmp(name) for name in entries):
            raise CratesError(f"{out} exists and is not a crates-sim dataset: choose another "
                              f"--out, or --overwrite")
        return None
    try:
        old = Dataset(out).manifest
    except CratesError as exc:
        raise CratesError(f"{exc}: choose another --out, or --overwrite") from None
    if old.get("format") != mf.FORMAT:
        raise CratesError(f"{out} is not a crates-sim dataset: choose another --out, or --overwrite")
    diff = mf.differences(old, ident)
    if diff:
        raise CratesError(f"{out} holds a different run ({'; '.join(diff)}): choose another "
                          f"--out, or --overwrite to replace it")
    _refuse_narrow(out, old)
    if chunk_size and chunk_size != old.get("chunk_size"):
        raise CratesError(
            f"{out} was started with --chunk-size {old.get('chunk_size')}: resume with that "
            f"(or no --chunk-size), or choose another --out, or --overwrite")
    return old


def _clean(out: Path, keep: set[str]):
    """Remove temporary files, and chunk files of chunks that are not done (stale)."""
    for part in (GAMES, HANDS):
        folder = out / part
        if not folder.is_dir():
            continue
        for path in folder.iterdir():
            if is_tmp(path.name) or (path.suffix == ".parquet" and path.name not in keep):
                path.unlink()
    for path in out.iterdir():
        if is_tmp(path.name):
            path.unlink()


def _os_error(exc: OSError, out: Path) -> str:
    where = exc.filename or out
    return f"{where}: {exc.strerror or exc}"


def _prepare(out: Path, old, ident, rules, strategies, detail, chunk_size, workers, command):
    """Create or reopen DIR and return the manifest of this run (written to disk)."""
    try:
        if old is None:
            if out.exists():
                for part in (GAMES, HANDS):
                    if (out / part).exists():
                        shutil.rmtree(out / part)
                if (out / MANIFEST).exists():
                    (out / MANIFEST).unlink()
            largest = GAMES_CHUNK_SIZE if detail == "games" else DEFAULT_CHUNK_SIZE
            size = chunk_size or auto_chunk_size(ident["games"], workers, largest)
            plan = plan_chunks(ident["games"], size, 0 if chunk_size else workers)
            m = mf.new_manifest(ident, rules.describe(), size, plan,
                                command)
        else:
            m = old
            # A chunk counts as done only if its files are there with the recorded rows.
            for c in m["chunks"]:
                if c["state"] != "done":
                    continue
                ok = parquet_rows(out / GAMES / chunk_name(c["index"])) == c.get("game_rows")
                if detail == "hands":
                    ok = ok and parquet_rows(out / HANDS / chunk_name(c["index"])) == c.get("hand_rows")
                if not ok:
                    c["state"] = "pending"
            if any(c["state"] != "done" for c in m["chunks"]):
                m["finished"] = None
            m["status"] = "running"
            m["command"] = command
        out.mkdir(parents=True, exist_ok=True)
        (out / GAMES).mkdir(exist_ok=True)
        if detail == "hands":
            (out / HANDS).mkdir(exist_ok=True)
        keep = {chunk_name(c["index"]) for c in m["chunks"] if c["state"] == "done"}
        _clean(out, keep)
        write_manifest(m, out)
    except OSError as exc:
        raise CratesError(f"cannot write the dataset: {_os_error(exc, out)}") from None
    return m


def simulate(rules, strategies="random", games: int = 10_000, seed: int = 0, out=None,
             workers: int | None = None, chunk_size: int | None = None, detail: str = "hands",
             progress: bool = False, scheduler: str | None = None, overwrite: bool = False,
             *, _chunk_fn=None) -> Dataset:
    """Simulate `games` games and write them as a Parquet dataset; return the Dataset.

    Args:
        rules: a `Rules` (e.g. `Rules.preset("classic", 4)`) or a preset spec such as
            "classic" or "league:seven_target=next" (players from the strategies, else 4).
        strategies: one spec per seat, as a list or "a,b,c,d"; one spec is used for all.
        games: number of games (game numbers 0 .. games-1).
        seed: the run's seed; game i of seed S is the same game in every run.
        out: the dataset directory (default results/<preset>-<players>p-<strategies>-s<seed>).
        workers: local worker processes (default: every CPU); 1 runs in this process.
        chunk_size: games per engine call and per Parquet file (default: up to 20,000, 40,000
            with detail "games", fewer
            so that every worker gets several chunks).
        detail: "hands" writes games/ and hands/; "games" writes games/ only.
        progress: draw a progress bar on stderr.
        scheduler: run on Dask: "tcp://HOST:PORT" (an existing cluster; `out` must be a
            path every worker can write) or "local:K" (a LocalCluster of K processes).
        overwrite: replace whatever run `out` holds instead of refusing a different one.

    An existing `out` made by the same run (rules, strategies, seed, games, detail) is
    resumed: finished chunks are kept and only the rest is run. A different run there is
    refused with CratesError, as is bad input. Ctrl-C (KeyboardInterrupt) stops the
    workers, keeps the finished chunks and re-raises.
    """
    t0 = time.perf_counter()
    rules, strategies, games, seed, workers, chunk_size = _coerce(
        rules, strategies, games, seed, workers, chunk_size, detail)
    out = Path(out) if out is not None else default_out(rules, strategies, seed)
    if scheduler:
        out = out.absolute()  # workers elsewhere must get the full shared path
    ident = mf.identity(rules, strategies, seed, games, detail)
    command = equivalent_command(rules, strategies, games, seed, out, detail, chunk_size, scheduler)
    old = _inspect(out, ident, overwrite, chunk_size)
    if scheduler and workers is not None:
        raise CratesError("--workers is for local runs; with --scheduler the cluster's workers "
                          "run the chunks (local:K starts K of them)")
    if workers is None:
        workers = available_cpus()
    backend = make_backend(scheduler, workers)
    chunk_fn = _chunk_fn or run_chunk
    compile_seconds = 0.0
    if _chunk_fn is None and not (scheduler and scheduler.startswith("tcp://")):
        # Load (or compile, once per machine) the engine here, before any worker starts:
        # the workers then load it from numba's cache instead of compiling side by side.
        from ..engine import api as engine

        compile_seconds = engine.prepare(strategies, load=backend.name == "inline")
        from ..play.pyagent_run import note_slowdown

        note_slowdown(rules, strategies, again=True)  # Python agents: how much slower the run is

    made = missing_folders(out) if old is None else []  # a new run that fails at once: removed
    with backend:
        m = _prepare(out, old, ident, rules, strategies, detail, chunk_size, backend.workers, command)
        todo = [c for c in m["chunks"] if c["state"] != "done"]
        tasks = [ChunkTask(rules, strategies, seed, c["index"], c["start"], c["games"],
                           detail, str(out)) for c in todo]
        run = {"started": mf.now(), "ended": None, "backend": backend.name,
               "workers": backend.workers, "chunks_run": 0, "games_run": 0,
               "chunks_kept": len(m["chunks"]) - len(todo), "wall_seconds": 0.0,
               "compile_seconds": round(compile_seconds, 3),
               "status": "running", "invoked_as": shlex.join(sys.argv)}
        m["runs"].append(run)
        first = min((c["games"] for c in todo), default=0)
        bar = Progress(games, done=games - sum(c["games"] for c in todo), enabled=progress,
                       note=f"(starting {backend.workers} worker{'s' if backend.workers != 1 else ''}; "
                            f"the first chunks hold {first:,} games)")
        status = "failed"
        refused = False

        def kept():
            done = sum(c["state"] == "done" for c in m["chunks"])
            return (f"{done} of {len(m['chunks'])} chunks are finished and kept in {out}: "
                    f"fix this and rerun the same command to resume")

        def save():
            run["wall_seconds"] = round(time.perf_counter() - t0, 3)
            run["ended"] = mf.now()
            mf.totals(m)
            write_manifest(m, out)

        try:
            for task, stats in backend.run(chunk_fn, tasks):
                if scheduler and not (out / GAMES / chunk_name(task.index)).exists():
                    raise RunFailed(
                        f"chunk {task.index} was written by Dask worker {stats.get('worker')} but "
                        f"{out} here does not have it: --out must be a path that this machine "
                        f"and every worker share")
                if run["chunks_run"] == 0 and "seconds" in stats:
                    # from the call to the first chunk's start: imports, the engine's load
                    # (or compile), the workers' start
                    run["startup_seconds"] = round(time.perf_counter() - t0 - stats["seconds"], 3)
                chunk = m["chunks"][task.index]
                chunk.update(stats)
                chunk["state"] = "done"
                run["chunks_run"] += 1
                run["games_run"] += task.games
                save()
                bar.update(task.games)
            status = "complete"
        except KeyboardInterrupt:
            status = "interrupted"
            raise
        except OSError as exc:
            hint = ""
            if scheduler and isinstance(exc, FileNotFoundError):
                hint = " (is --out a path that every Dask worker shares?)"
            raise RunFailed(f"cannot write {_os_error(exc, out)}{hint}; {kept()}") from None
        except RunFailed as exc:
            raise RunFailed(f"{exc}; {kept()}") from None
        except CratesError:  # refused (a strategy's illegal choice ...): see below
            refused = True
            raise
        finally:
            bar.close()
            run["status"] = status
            m["status"] = status
            if status == "complete" and (run["chunks_run"] or not m.get("finished")):
                m["finished"] = mf.now()
            try:
                if refused and old is None and not any(c["state"] == "done" for c in m["chunks"]):
                    discard_empty(out, made)  # a new run refused before any chunk: no folder left
                else:
                    save()
            except OSError as exc:
                if status == "complete":
                    raise RunFailed(f"cannot write {_os_error(exc, out)}; {kept()}") from None
    return Dataset(out)
