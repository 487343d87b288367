"""A fast stand-in for `crates_sim.engine.api.run_games` with the same contract, for analysis tests.

Game i of seed s: each seat's deal luck depends only on (seed, i, seat) (not on the
strategies), each strategy has a fixed skill (points subtracted), and the play adds noise
that depends on (seed, i, seat, the seat's strategy and the whole seating), so that two
rotations of identical strategies are different games of the same deal.
"""

import zlib

import numpy as np

from crates_sim.cards import CRATES_HAND_SIZES
from crates_sim.data.schema import GAME_COLUMNS, HAND_COLUMNS
from crates_sim.engine.api import ChunkResult

SKILL = {"greedy": 30.0, "hoard3": 20.0, "dump3": 20.0, "random": 0.0}


def _key(*parts) -> int:
    return zlib.crc32("|".join(map(str, parts)).encode())


def run_games(rules, strategies, seed, game_start, n_games, detail="hands", reuse_rows=False):
    P = rules.players
    H = len(CRATES_HAND_SIZES)
    gcols = {k: [] for k in GAME_COLUMNS}
    hcols = {k: [] for k in HAND_COLUMNS}
    seating = ",".join(strategies)
    for g in range(game_start, game_start + n_games):
        deal = np.random.default_rng([seed, g]).normal(0, 60, size=(H, P))  # per hand x seat
        play = np.random.default_rng([seed, g, _key(seating)]).normal(0, 20, size=(H, P))
        pts = np.empty((H, P))
        for s in range(P):
            pts[:, s] = 40 + deal[:, s] + play[:, s] - SKILL.get(strategies[s].split(":")[0], 0) / H
        pts = np.round(pts).astype(int)
        own = pts.sum(axis=0)
        if rules.partnerships:
            team = np.array([own[0] + own[2], own[1] + own[3]])
            totals = team[np.arange(P) % 2]
        else:
            totals = own
        best = totals == totals.min()
        rank = (totals[None, :] < totals[:, None]).sum(axis=1) + 1
        for s in range(P):
            gcols["game"].append(g)
            gcols["seat"].append(s)
            gcols["strategy"].append(strategies[s])
            gcols["team"].append(s % 2 if rules.partnerships else s)
            gcols["total"].append(totals[s])
            gcols["rank"].append(rank[s])
            gcols["win"].append(best[s] / best.sum())
            for k in ("pressures", "pressure_points", "hands_out", "home_runs", "capped_hands",
                      "saturated"):
                gcols[k].append(0)
            gcols["hands"].append(H)
        if detail == "hands":
            for h in range(H):
                dealer = h % P
                for s in range(P):
                    row = {"game": g, "hand": h + 1, "size": CRATES_HAND_SIZES[h], "dealer": dealer,
                           "pos": (s - dealer) % P, "seat": s, "points": pts[h, s], "cards_left": 1,
                           "threes_left": 0, "covered": 0, "home_run": False, "out": False,
                           "pressures": 0, "pressure_points": 0, "draws": 1, "plays": 1, "turns": 10,
                           "reason": 0, "moves": 8, "choices": 4, "options": 14}
                    for k, v in row.items():
                        hcols[k].append(v)
    games = {k: np.array(v, dtype=object if t == "category" else t) for (k, v), t in
             zip(gcols.items(), GAME_COLUMNS.values(), strict=True)}
    hands = None
    if detail == "hands":
        hands = {k: np.array(v, dtype=np.int8 if t == "category" else t) for (k, v), t in
                 zip(hcols.items(), HAND_COLUMNS.values(), strict=True)}
    return ChunkResult(games, hands, turns=10 * H * n_games, capped_hands=0, dead_hands=0)
