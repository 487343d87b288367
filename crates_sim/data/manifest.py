"""manifest.json: the one schema of every dataset directory, and whether a new run may continue it.

Every dataset - written by `crates simulate`, by `crates compare` (OUT/results/), by
`crates balance` (OUT/variants/<name>/), and by any later command that plays games - has a
manifest with the same keys (`KEYS`), written through `crates_sim.data.dataset`:

    format, format_version   "crates-sim dataset", FORMAT_VERSION
    made_by                  the command that made it: one of COMMANDS
    status                   running, complete, failed or interrupted
    preset, rules            the preset name and every knob in force (Rules.to_dict())
    rules_spec               the rules as one spec string (Rules.describe())
    players, partnerships
    strategies               the strategy spec of each seat in the first (for simulate the
                             only) seating
    entries                  the strategies entered: labels the `entry` column indexes
                             (simulate: the distinct specs of `strategies`)
    rotations                each seating played: the entry label of each seat (simulate:
                             one seating, `strategies`)
    seed, games, detail      games = game numbers 0..games-1 of seed, each played once per
                             rotation; detail "hands" (games/ and hands/) or "games"
    chunk_size, chunks       the files: chunk i is games/chunk-<i>.parquet (and hands/)
    version, command         package version; the command line that makes the dataset
    started, finished, wall_seconds, games_per_second, games_done, turns, capped_hands,
    dead_hands, runs         timing and totals (every run that added chunks in `runs`)

The simulate manifest is rewritten atomically after every finished chunk, so after a crash
it names exactly the chunks whose files are complete.
"""

from __future__ import annotations

import json
import time

from .._version import __version__
from ..errors import CratesError

FORMAT = "crates-sim dataset"
#: 2: `made_by`, `entries`, `rotations` and `games_done` in every manifest (1: simulate only)
FORMAT_VERSION = 2

#: Commands that write datasets (`made_by`).
COMMANDS = ("simulate", "compare", "balance", "sweep", "tune", "tournament")

#: Every key of a manifest, in the order they are written.
KEYS = ("format", "format_version", "made_by", "status", "preset", "rules", "rules_spec", "players",
        "partnerships", "strategies", "entries", "rotations", "seed", "games", "detail", "chunk_size",
        "version", "command", "started", "finished", "wall_seconds", "games_per_second", "games_done",
        "turns", "capped_hands", "dead_hands", "runs", "chunks")

#: Manifest keys that must be equal for a run to continue (resume) a directory.
IDENTITY = ("made_by", "preset", "rules", "players", "partnerships", "strategies", "seed", "games",
            "detail")

#: Manifest formats of datasets written by compare/balance before there was one schema.
_OLD_FORMATS = {"crates-sim compare": "crates compare", "crates-sim balance variant": "crates balance"}


def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


def identity(rules, strategies, seed, games, detail, made_by: str = "simulate", entries=None,
             rotations=None) -> dict:
    """The identity fields of a run, JSON-normalised (as they read back from the file).

    strategies: spec per seat of the first seating; entries: the labels of the strategies
    entered (default: the distinct specs); rotations: entry label per seat of each seating
    (default: the one seating `strategies`).
    """
    if made_by not in COMMANDS:
        raise ValueError(f"made_by must be one of {COMMANDS}, not {made_by!r}")
    strategies = list(strategies)
    ident = {
        "made_by": made_by,
        "preset": rules.preset_name,
        "rules": rules.to_dict(),
        "players": rules.players,
        "partnerships": rules.partnerships,
        "strategies": strategies,
        "entries": list(entries) if entries is not None else list(dict.fromkeys(strategies)),
        "rotations": ([list(r) for r in rotations] if rotations is not None else [strategies]),
        "seed": int(seed),
        "games": int(games),
        "detail": detail,
    }
    return json.loads(json.dumps(ident))


def differences(old: dict, new_identity: dict) -> list[str]:
    """Human-readable differences between a manifest and a new run's identity."""
    out = []
    for key in IDENTITY:
        a, b = old.get(key), new_identity[key]
        if a == b:
            continue
        if key == "rules" and isinstance(a, dict):
            keys = sorted(set(a) | set(b), key=lambda k: (k not in b, k))
            parts = [f"{k} {a.get(k, '-')} -> {b.get(k, '-')}" for k in keys if a.get(k) != b.get(k)]
            out.append("rules (" + ", ".join(parts) + ")")
        elif key == "strategies" and isinstance(a, list):
            out.append(f"strategies {','.join(a)} -> {','.join(b)}")
        elif key == "made_by":
            out.append(f"made by crates {a}, not crates {b}")
        else:
            out.append(f"{key} {a} -> {b}")
    return out


def chunk_record(index: int, start: int, games: int, rotation: int | None = None) -> dict:
    c = {"index": int(index), "start": int(start), "games": int(games), "state": "pending"}
    if rotation is not None:
        c["rotation"] = int(rotation)
    return c


def new_manifest(ident: dict, rules_spec: str, chunk_size: int, plan, command: str) -> dict:
    """A fresh manifest (status running) with every key of KEYS.

    plan: (first game, games) per chunk, or (first game, games, rotation) in a rotated design.
    """
    m = {"format": FORMAT, "format_version": FORMAT_VERSION, "made_by": ident.get("made_by", "simulate"),
         "status": "running"}
    m.update(ident)
    m.update({
        "rules_spec": rules_spec,
        "chunk_size": int(chunk_size),
        "version": __version__,
        "command": command,
        "started": now(),
        "finished": None,
        "wall_seconds": 0.0,
        "games_per_second": None,
        "games_done": 0,
        "turns": 0,
        "capped_hands": 0,
        "dead_hands": 0,
        "runs": [],
        "chunks": [chunk_record(i, *p) for i, p in enumerate(plan)],
    })
    return {k: m[k] for k in KEYS}


def new_run(backend: str, workers: int, chunks_kept: int = 0, compile_seconds: float = 0.0,
            invoked_as: str = "") -> dict:
    """The record of one run (one invocation that adds chunks) in `runs`."""
    return {"started": now(), "ended": None, "backend": backend, "workers": int(workers),
            "chunks_run": 0, "games_run": 0, "chunks_kept": int(chunks_kept), "wall_seconds": 0.0,
            "compile_seconds": round(float(compile_seconds), 3), "status": "running",
            "invoked_as": invoked_as}


def totals(m: dict) -> None:
    """Refresh the run totals from the finished chunks.

    games_done counts games played (a game played in each of R rotations counts R times),
    so games_per_second is the engine's rate.
    """
    done = [c for c in m["chunks"] if c["state"] == "done"]
    for key in ("turns", "capped_hands", "dead_hands"):
        m[key] = int(sum(c.get(key, 0) for c in done))
    wall = sum(r.get("wall_seconds", 0.0) for r in m["runs"] if r.get("games_run"))
    m["wall_seconds"] = round(wall, 3)
    games_done = sum(c["games"] for c in done)
    m["games_done"] = games_done
    m["games_per_second"] = round(games_done / wall, 1) if wall > 0 else None


def upgrade(m, where) -> dict:
    """The manifest `m` (read from `where`) in the current schema, or a one-line CratesError.

    A version-1 manifest (written by `crates simulate` before compare and balance shared the
    schema) is upgraded in memory: it gains made_by "simulate", entries, rotations and
    games_done. Manifests that compare/balance wrote before the schema was shared are
    refused: rerunning that command remakes them.
    """
    if not isinstance(m, dict):
        raise CratesError(f"{where} is not a crates-sim dataset manifest")
    fmt = m.get("format")
    if fmt in _OLD_FORMATS:
        raise CratesError(f"{where} was written by an older `{_OLD_FORMATS[fmt]}` (manifest format "
                          f"{fmt!r}): rerun that command with this version to remake it")
    if fmt != FORMAT:
        raise CratesError(f"{where} is not a crates-sim dataset manifest (format {fmt!r})")
    version = m.get("format_version")
    if version == 1:
        m = dict(m)
        strategies = list(m.get("strategies") or [])
        m["format_version"] = FORMAT_VERSION
        m.setdefault("made_by", "simulate")
        m.setdefault("entries", list(dict.fromkeys(strategies)))
        m.setdefault("rotations", [strategies])
        m.setdefault("games_done", sum(c.get("games", 0) for c in m.get("chunks", [])
                                       if c.get("state") == "done"))
        m = {**{k: m[k] for k in KEYS if k in m}, **m}
    elif version != FORMAT_VERSION:
        raise CratesError(f"{where} has manifest format_version {version!r}; this crates-sim "
                          f"({__version__}) reads {FORMAT_VERSION}")
    missing = [k for k in KEYS if k not in m]
    if missing:
        raise CratesError(f"{where} lacks the manifest keys {', '.join(missing)}")
    if m["made_by"] not in COMMANDS:
        raise CratesError(f"{where}: made_by {m['made_by']!r} is not a crates command")
    return m
