"""manifest.json: what a dataset directory holds, and whether a new run may continue it.

The manifest records the run's identity (rules, players, strategies, seed, games, detail),
its chunk plan with each chunk's state and counts, timing, the package version and the
command. It is rewritten atomically after every finished chunk, so after a crash it
names exactly the chunks whose files are complete.
"""

from __future__ import annotations

import json
import time

from . import __version__

FORMAT = "crates-sim dataset"
FORMAT_VERSION = 1

#: Manifest keys that must be equal for a run to continue (resume) a directory.
IDENTITY = ("preset", "rules", "players", "partnerships", "strategies", "seed", "games", "detail")

def now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


def identity(rules, strategies, seed, games, detail) -> dict:
    """The identity fields of a run, JSON-normalised (as they read back from the file)."""
    ident = {
        "preset": rules.preset_name,
        "rules": rules.to_dict(),
        "players": rules.players,
        "partnerships": rules.partnerships,
        "strategies": list(strategies),
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
        else:
            out.append(f"{key} {a} -> {b}")
    return out


def new_manifest(ident: dict, rules_spec: str, chunk_size: int, plan, command: str) -> dict:
    m = {"format": FORMAT, "format_version": FORMAT_VERSION, "status": "running"}
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
        "turns": 0,
        "capped_hands": 0,
        "dead_hands": 0,
        "runs": [],
        "chunks": [{"index": i, "start": int(start), "games": int(n), "state": "pending"}
                   for i, (start, n) in enumerate(plan)],
    })
    return m


def totals(m: dict) -> None:
    """Refresh the run totals from the finished chunks."""
    done = [c for c in m["chunks"] if c["state"] == "done"]
    for key in ("turns", "capped_hands", "dead_hands"):
        m[key] = int(sum(c.get(key, 0) for c in done))
    wall = sum(r.get("wall_seconds", 0.0) for r in m["runs"] if r.get("games_run"))
    m["wall_seconds"] = round(wall, 3)
    games_done = sum(c["games"] for c in done)
    m["games_done"] = games_done
    m["games_per_second"] = round(games_done / wall, 1) if wall > 0 else None
