"""A synthetic `crates simulate` dataset with exactly the schema, for the analysis tests.

`write_dataset(dir, ...)` writes DIR/games/*.parquet, DIR/hands/*.parquet (unless
detail="games") and DIR/manifest.json. The numbers are random but internally consistent
(game totals are the sums of hand points plus pressure points; ranks and win shares follow
from the totals), and a few knobs plant known answers for the tests.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from crates_sim.cards import CRATES_HAND_SIZES
from crates_sim.data import manifest as mf
from crates_sim.data.dataset import write_manifest
from crates_sim.data.schema import GAME_COLUMNS, HAND_COLUMNS, REASONS
from crates_sim.rules import Rules


def _table(cols: dict, schema: dict, dictionaries: dict) -> pa.Table:
    arrays, names = [], []
    for name, dtype in schema.items():
        values = cols[name]
        if dtype == "category":
            levels = dictionaries[name]
            codes = np.asarray([levels.index(v) for v in values] if values.dtype == object else values,
                               dtype=np.int8)
            arrays.append(pa.DictionaryArray.from_arrays(pa.array(codes), pa.array(list(levels))))
        else:
            arrays.append(pa.array(np.asarray(values).astype(dtype)))
        names.append(name)
    return pa.Table.from_arrays(arrays, names=names)


def _ranks(totals: np.ndarray, lower_better: bool = True):
    """Per row of totals (games x seats): rank (1 = best, ties share the best rank) and win share."""
    t = totals if lower_better else -totals
    rank = (t[:, None, :] < t[:, :, None]).sum(axis=2) + 1
    best = t == t.min(axis=1, keepdims=True)
    win = best / best.sum(axis=1, keepdims=True)
    return rank, win


def write_dataset(out, games: int = 200, players: int = 4, partnerships: bool | None = None,
                  strategies=("greedy",), seed: int = 1, detail: str = "hands",
                  seat_win: tuple | None = None, chunks: int = 2, preset: str = "classic",
                  dead_hands: bool = False, capped_hands: bool = False) -> Path:
    """Write a synthetic dataset to `out` and return its path.

    seat_win=(seat, share): that seat alone has the lowest total in exactly round(share *
    games) games (the first ones), another seat in the rest.
    dead_hands/capped_hands: whether a few hands end dead / capped (else none do).
    """
    out = Path(out)
    rng = np.random.default_rng(seed)
    rules = Rules.preset(preset, players, **({} if partnerships is None else {"partnerships": partnerships}))
    partners = rules.partnerships
    strategies = list(strategies) * (players if len(strategies) == 1 else 1)
    assert len(strategies) == players
    sizes = np.array(CRATES_HAND_SIZES, dtype=np.int8)
    H, P, G = len(sizes), players, games
    # --- hands: shape (G, H, P)
    g_idx = np.broadcast_to(np.arange(G)[:, None, None], (G, H, P))
    h_idx = np.broadcast_to(np.arange(1, H + 1)[None, :, None], (G, H, P))
    size = np.broadcast_to(sizes[None, :, None], (G, H, P))
    dealer = np.broadcast_to(((np.arange(H)) % P)[None, :, None], (G, H, P))
    seat = np.broadcast_to(np.arange(P)[None, None, :], (G, H, P))
    pos = (seat - dealer) % P
    outseat = rng.integers(0, P, size=(G, H))
    is_out = seat == outseat[:, :, None]
    cards_left = np.where(is_out, 0, rng.integers(1, size + 3))
    threes = np.where(is_out, 0, rng.binomial(np.minimum(cards_left, 4), 0.12))
    home = (~is_out) & (threes == cards_left) & (threes > 0)
    points = np.where(is_out, 0, np.where(home, -50 * threes, rng.integers(5, 60, size=(G, H, P)) * cards_left // 2))
    pressures = rng.binomial(1, 0.03, size=(G, H, P))
    reason = np.zeros((G, H), dtype=np.int8)  # out
    reason[rng.random((G, H)) < 0.05] = 1  # count_back
    if dead_hands:
        reason[rng.random((G, H)) < 0.01] = 2
    if capped_hands:
        reason[rng.random((G, H)) < 0.01] = 3
    reason = np.broadcast_to(reason[:, :, None], (G, H, P))
    turns = np.broadcast_to(rng.integers(10, 200, size=(G, H))[:, :, None], (G, H, P))
    draws = rng.integers(0, 20, size=(G, H, P))
    plays = rng.integers(0, 10, size=(G, H, P))
    # pressure points double per seat (or team) through the game
    pp = np.zeros((G, H, P), dtype=np.int64)
    taken = np.zeros((G, P), dtype=np.int64)  # pressures so far per seat, or per team
    for h in range(H):
        for s in range(P):
            u = s % 2 if partners else s
            k = pressures[:, h, s]
            pp[:, h, s] = np.where(k > 0, 5 * 2 ** taken[:, u], 0)
            taken[:, u] += k
    own = points.sum(axis=1) + pp.sum(axis=1)  # (G, P)
    if partners:
        team_tot = np.stack([own[:, t::2].sum(axis=1) for t in (0, 1)], axis=1)
        totals = team_tot[:, np.arange(P) % 2]
    else:
        totals = own.copy()
    if seat_win is not None:
        s_win, share = seat_win
        k = int(round(share * G))
        other = (s_win + 1) % P
        low = totals.min(axis=1) - 10
        totals[:k, s_win] = low[:k]
        totals[k:, other] = low[k:]
    rank, win = _ranks(totals, rules.family == "crates")
    # move points: half of them with a choice, three options on average at those and one
    # at the others (decisions: share 0.5 and branching 2.0 exactly)
    half = turns // 2
    hcols = {
        "moves": 2 * half, "choices": half, "options": 4 * half,
        "game": g_idx, "hand": h_idx, "size": size, "dealer": dealer, "pos": pos, "seat": seat,
        "points": points, "cards_left": cards_left, "threes_left": threes, "covered": np.minimum(threes, cards_left - threes),
        "home_run": home, "out": is_out, "pressures": pressures, "pressure_points": pp, "draws": draws,
        "plays": plays, "turns": turns, "reason": reason,
    }
    hcols = {k: np.ascontiguousarray(v).reshape(-1) for k, v in hcols.items()}
    gcols = {
        "game": np.repeat(np.arange(G), P), "seat": np.tile(np.arange(P), G),
        "strategy": np.array([strategies[s] for s in np.tile(np.arange(P), G)], dtype=object),
        "team": np.tile(np.arange(P) % 2 if partners else np.arange(P), G),
        "total": totals.reshape(-1), "rank": rank.reshape(-1), "win": win.reshape(-1),
        "pressures": pressures.sum(axis=1).reshape(-1), "pressure_points": pp.sum(axis=1).reshape(-1),
        "hands_out": is_out.sum(axis=1).reshape(-1), "home_runs": home.sum(axis=1).reshape(-1),
        "capped_hands": np.repeat((reason[:, :, 0] == 3).sum(axis=1), P),
        "hands": np.full(G * P, H), "saturated": np.zeros(G * P, dtype=bool),
    }
    levels = {"strategy": list(dict.fromkeys(strategies)), "reason": list(REASONS)}
    (out / "games").mkdir(parents=True, exist_ok=True)
    if detail == "hands":
        (out / "hands").mkdir(parents=True, exist_ok=True)
    bounds = np.linspace(0, G, chunks + 1).astype(int)
    for c in range(chunks):
        lo, hi = bounds[c], bounds[c + 1]
        gsel = slice(lo * P, hi * P)
        pq.write_table(_table({k: v[gsel] for k, v in gcols.items()}, GAME_COLUMNS, levels),
                       out / "games" / f"chunk-{c:06d}.parquet")
        if detail == "hands":
            hsel = slice(lo * P * H, hi * P * H)
            pq.write_table(_table({k: v[hsel] for k, v in hcols.items()}, HAND_COLUMNS, levels),
                           out / "hands" / f"chunk-{c:06d}.parquet")
    # the manifest of `crates simulate`, through the one schema (crates_sim.data.manifest)
    ident = mf.identity(rules, strategies, seed, G, detail)
    plan = [(int(bounds[c]), int(bounds[c + 1] - bounds[c])) for c in range(chunks)]
    manifest = mf.new_manifest(ident, rules.describe(), max(n for _, n in plan), plan,
                               f"crates simulate --games {G} --seed {seed} --out {out}")
    run = mf.new_run("inline", 1)
    run.update(games_run=G, chunks_run=chunks, wall_seconds=2.0, status="complete")
    manifest["runs"].append(run)
    for c in manifest["chunks"]:
        c["state"] = "done"
    mf.totals(manifest)
    manifest.update(status="complete", started="2026-01-01T00:00:00", finished="2026-01-01T00:00:02")
    write_manifest(manifest, out)
    return out
