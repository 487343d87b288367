"""The rule designer's measures of `crates balance` and `crates design` (docs/analysis.md).

Contract: `designer_measures(D, ideal)` takes an opened dataset (`analysis.data.Data`, on
disk or built in memory by `design.trial_data`) with hands/ and returns rows
{measure, group, est, lo, hi, se} for balance, decisions, lead_changes, decisive_hand,
drama, comeback and duration; `skill_gap` plays its own duplicate games (a strong player
against greedy and against random) and returns the skill_gap rows. Every interval is a
95% CI: ratio estimators over clusters of games for means (`stats.ratio_ci`), a
jackknife over 20 groups of games for balance, a delta-method interval for spreads.

The game flow (leader, lead changes, the decisive hand, drama, comebacks) is computed from
running totals: per game and unit (a seat, or a team with partnerships), the hand points
plus pressure points summed hand by hand; they end at the game's final totals. The leader
after a hand holds the best running total alone (lowest in Crates, highest in Crazy
Eights); a tie for best leaves the lead where it was.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import polars as pl

from . import stats
from .data import CLUSTERS, Data, cluster_means, collect

JACKKNIFE_GROUPS = 20

#: the measures this module adds: key -> (title, unit, multiplier for display, group name)
DESIGNER_MEASURES = {
    "balance": ("Balance", "1 − largest gap between seats' win rates", 1, ""),
    "decisions": ("Decisions", "share of moves with a choice / options per move", 1, "part"),
    "lead_changes": ("Lead changes", "per game / per hand after the first", 1, "part"),
    "decisive_hand": ("Decisive hand", "share of the game / hand number", 1, "part"),
    "drama": ("Drama", "winner's worst deficit: points / in SDs of final totals", 1, "part"),
    "comeback": ("Comebacks", "share of games won from behind at mid-game (%)", 100, ""),
    "duration": ("Duration", "turns and hands per game, their spread; share in the ideal band", 1, "part"),
    "skill_gap": ("Skill gap", "win-rate difference of the strong player (points of win rate)", 1, "against"),
    "tail": ("Tail share", "share of a heavy-tailed measure made by the 1% most extreme games (%)", 100, "of"),
}
#: the share of games whose weight `tail_share` measures
TAIL = 0.01
#: a measure whose tail share is above this is decided by a few games (the page flags it)
TAIL_DECIDES = 0.5
#: the robust companions' bootstrap runs on at most this many values (`robust_ci`)
ROBUST_SAMPLE = 100_000
#: stored skill_gap = the win-rate difference (a share) x this: points of win rate
POINTS = 100.0


def row(measure: str, group: str, ci: stats.CI) -> dict:
    return {"measure": measure, "group": group, "est": float(ci.estimate), "lo": float(ci.lo),
            "hi": float(ci.hi), "se": float(ci.se)}


def tail_share(weights: np.ndarray, top: float = TAIL) -> float:
    """The share of sum(weights) (nonnegative, one per game) that the `top` share of games
    with the largest weights make up: near `top` for a light tail, near 1 when a few games
    decide a mean or a variance."""
    w = np.sort(np.abs(np.asarray(weights, dtype=float))[np.isfinite(weights)])[::-1]
    total = w.sum()
    if not len(w) or total <= 0:
        return float("nan")
    return float(w[:max(1, math.ceil(top * len(w)))].sum() / total)


def robust_ci(x: np.ndarray) -> stats.CI:
    """The 10% trimmed mean of x with its bootstrap CI (`stats.trimmed_mean_ci`); above
    ROBUST_SAMPLE values the interval's width comes from a seeded subsample of that size,
    scaled by sqrt(subsample / n) and centred on the full estimate (the bootstrap of 10^6
    values would take a minute)."""
    x = np.asarray(x, dtype=float)
    x = x[np.isfinite(x)]
    if len(x) <= ROBUST_SAMPLE:
        return stats.trimmed_mean_ci(x)
    est = stats.trimmed_mean(x)
    sub = np.random.default_rng(0).choice(x, ROBUST_SAMPLE, replace=False)
    ci = stats.trimmed_mean_ci(sub)
    f = math.sqrt(ROBUST_SAMPLE / len(x))
    return stats.CI(est, est - f * (ci.estimate - ci.lo), est + f * (ci.hi - ci.estimate), f * ci.se, len(x))


def tail_row(group: str, weights: np.ndarray) -> dict:
    """A `tail` row (no CI: a flag, not a measure to compare)."""
    nan = float("nan")
    return {"measure": "tail", "group": group, "est": tail_share(weights), "lo": nan, "hi": nan, "se": nan}


def per_game_mean(game: np.ndarray, values: np.ndarray) -> stats.CI:
    """Mean of a per-game value (NaN: undefined in that game, left out) with a cluster CI."""
    ok = np.isfinite(values)
    cl = np.asarray(game)[ok] % CLUSTERS
    sums = np.bincount(cl, weights=values[ok], minlength=CLUSTERS)
    counts = np.bincount(cl, minlength=CLUSTERS).astype(float)
    return stats.ratio_ci(sums, counts)


def jackknife(fn, groups: np.ndarray, conf: float = 0.95) -> stats.CI:
    """fn(mask) on all rows, with a delete-a-group jackknife interval over `groups`."""
    full = fn(np.ones(len(groups), dtype=bool))
    ks = np.unique(groups)
    if len(ks) < 3:
        return stats.CI(full, float("nan"), float("nan"), float("nan"), len(groups), conf)
    reps = np.array([fn(groups != k) for k in ks])
    k = len(ks)
    se = math.sqrt((k - 1) / k * ((reps - reps.mean()) ** 2).sum())
    q = stats.t_quantile(conf, k - 1)
    return stats.CI(full, full - q * se, full + q * se, se, len(groups), conf)


# ------------------------------------------------------------------ balance
def balance_measure(D: Data) -> list[dict]:
    """1 − (largest − smallest) seat win rate; a seat's win rate is its share of the win per
    game (1/k of a k-way tie for first; with partnerships both partners win)."""
    keys = D.game_keys
    df = collect(D.games.select(*keys, "seat", pl.col("win").cast(pl.Float64)))
    seat = df["seat"].to_numpy().astype(int)
    win = df["win"].to_numpy()
    game = df["game"].to_numpy()
    grp = game % JACKKNIFE_GROUPS
    P = int(seat.max()) + 1

    def bal(mask):
        s = np.bincount(seat[mask], weights=win[mask], minlength=P)
        n = np.bincount(seat[mask], minlength=P)
        rate = s / np.maximum(n, 1)
        return 1.0 - float(rate.max() - rate.min())

    ci = jackknife(bal, grp)
    return [row("balance", "", stats.CI(ci.estimate, ci.lo, min(ci.hi, 1.0), ci.se, ci.n))]


# ------------------------------------------------------------------ decisions
def decisions_measure(D: Data) -> list[dict]:
    """Share of move points with more than one legal option, and options per move point
    (the hands' moves/choices/options columns; datasets written before them: none)."""
    if D.hands is None or "moves" not in D.hands.collect_schema().names():
        return []
    h = D.hands.filter(pl.col("seat") == 0)
    cm = cluster_means(h, {"share": pl.col("choices"), "branching": pl.col("options")}, count=pl.col("moves"))
    out = []
    for name in ("share", "branching"):
        r = cm.iloc[0]
        out.append({"measure": "decisions", "group": name, "est": float(r[name]), "lo": float(r[f"{name}_lo"]),
                    "hi": float(r[f"{name}_hi"]), "se": float(r[f"{name}_se"])})
    return out


# ------------------------------------------------------------------ game flow
def running_totals(D: Data):
    """(game numbers, hands per game, running score array (games, hands, units)) where a
    larger score is better (Crates' totals negated)."""
    keys = D.game_keys
    unit = pl.col("team") if D.partnerships else pl.col("seat")
    h = (D.hands.select(*keys, "hand", unit.cast(pl.Int64).alias("u"),
                        (pl.col("points").cast(pl.Int64) + pl.col("pressure_points").cast(pl.Int64)).alias("p"))
         .group_by(*keys, "hand", "u").agg(pl.col("p").sum())
         .with_columns(pl.struct(keys).rank("dense").alias("gid")))
    df = collect(h)
    gid = df["gid"].to_numpy().astype(np.int64) - 1
    hand = df["hand"].to_numpy().astype(np.int64) - 1
    u = df["u"].to_numpy().astype(np.int64)
    p = df["p"].to_numpy().astype(float)
    G = int(gid.max()) + 1 if len(gid) else 0
    H = int(hand.max()) + 1 if len(hand) else 0
    U = int(u.max()) + 1 if len(u) else 0
    T = np.zeros((G, H, U))
    T[gid, hand, u] = p
    nh = np.zeros(G, dtype=np.int64)
    np.maximum.at(nh, gid, hand + 1)
    game = np.zeros(G, dtype=np.int64)
    game[gid] = df["game"].to_numpy()
    score = np.cumsum(T, axis=1)  # carried forward past a game's last hand
    if D.lower_is_better:
        score = -score
    return game, nh, score


def game_flow(game, nh, score) -> pd.DataFrame:
    """Per game: lead changes and hand transitions, the decisive hand, the winner's worst
    deficit (points, and as a share of the standard deviation of final totals over all the
    games), whether the winner was behind at mid-game. Games whose best final total is
    tied have no winner (their winner measures are NaN)."""
    G, H, U = score.shape
    best = score.max(axis=2)
    nbest = (score == best[:, :, None]).sum(axis=2)
    leader = np.where(nbest == 1, score.argmax(axis=2), -1)
    valid = np.arange(H)[None, :] < nh[:, None]
    changes = np.zeros(G)
    last = np.full(G, -1)
    for j in range(H):
        cur = np.where(valid[:, j], leader[:, j], -1)
        changes += (cur >= 0) & (last >= 0) & (cur != last)
        last = np.where(cur >= 0, cur, last)
    idx = np.arange(G)
    final = score[idx, nh - 1]
    winner = leader[idx, nh - 1]
    has = winner >= 0
    w = np.where(has, winner, 0)
    sw = score[idx[:, None], np.arange(H)[None, :], w[:, None]]  # (G, H) the winner's score
    leads = (leader == w[:, None]) | ~valid
    # decisive: the first hand from which the winner leads at every later hand
    not_lead = ~leads
    last_not = np.where(not_lead.any(axis=1), H - 1 - np.argmax(not_lead[:, ::-1], axis=1), -1)
    decisive = last_not + 2  # 1-based hand after which it leads for good
    deficit = np.where(valid, best - sw, 0.0).max(axis=1)
    # the spread: the standard deviation of a unit's final total over every game (as the
    # `spread` measure), one scale for the whole variant (a game's own range of final
    # totals can be a few points, and a share of it explodes)
    spread = float(final.std()) if final.size else 0.0
    mid = (nh + 1) // 2 - 1
    behind = sw[idx, mid] < best[idx, mid]
    nan = np.nan
    return pd.DataFrame({
        "game": game, "hands": nh, "lead_changes": changes,
        "transitions": np.maximum(nh - 1, 0).astype(float),
        "decisive_hand": np.where(has, decisive, nan), "decisive_share": np.where(has, decisive / nh, nan),
        "drama_points": np.where(has, deficit, nan),
        "drama_share": np.where(has, deficit / spread, nan) if spread > 0 else np.full(G, nan),
        "final_sum": final.sum(axis=1), "final_sq": (final ** 2).sum(axis=1),
        "comeback": np.where(has, behind.astype(float), nan),
    })


def flow_measures(D: Data) -> list[dict]:
    """lead_changes, decisive_hand, drama and comeback from the hands' running totals."""
    game, nh, score = running_totals(D)
    flow = game_flow(game, nh, score)
    score_units = score.shape[2]
    g = flow["game"].to_numpy()
    per_hand = stats.ratio_ci(*_cluster_sums(g, flow["lead_changes"].to_numpy(), flow["transitions"].to_numpy()))
    return [
        row("lead_changes", "per_game", per_game_mean(g, flow["lead_changes"].to_numpy())),
        row("lead_changes", "per_hand", per_hand),
        row("decisive_hand", "share", per_game_mean(g, flow["decisive_share"].to_numpy())),
        row("decisive_hand", "hand", per_game_mean(g, flow["decisive_hand"].to_numpy())),
        row("drama", "points", per_game_mean(g, flow["drama_points"].to_numpy())),
        row("drama", "share", drama_share(flow, score_units)),
        row("drama", "robust", robust_ci(flow["drama_points"].to_numpy())),
        tail_row("drama", flow["drama_points"].to_numpy()),
        row("comeback", "", per_game_mean(g, flow["comeback"].to_numpy())),
    ]


def drama_share(flow: pd.DataFrame, units: int) -> stats.CI:
    """The winners' mean worst deficit over the standard deviation of a unit's final total,
    with a jackknife interval over 20 groups of games (the scale is estimated too)."""
    deficit = flow["drama_points"].to_numpy()
    s1, s2 = flow["final_sum"].to_numpy(), flow["final_sq"].to_numpy()
    has = np.isfinite(deficit)

    def share(mask):
        n = mask.sum() * units
        sd = math.sqrt(max(s2[mask].sum() / n - (s1[mask].sum() / n) ** 2, 0.0)) if n else 0.0
        ok = mask & has
        return float(deficit[ok].mean() / sd) if sd > 0 and ok.any() else float("nan")

    return jackknife(share, flow["game"].to_numpy() % JACKKNIFE_GROUPS)


def _cluster_sums(game, num, den):
    cl = np.asarray(game) % CLUSTERS
    return (np.bincount(cl, weights=num, minlength=CLUSTERS), np.bincount(cl, weights=den, minlength=CLUSTERS))


# ------------------------------------------------------------------ duration
def parse_band(text: str | None):
    """`LO..HI` (turns per game) -> (lo, hi), or None."""
    from crates_sim.errors import CratesError

    if text is None or text == "":
        return None
    lo, sep, hi = str(text).partition("..")
    try:
        band = (float(lo), float(hi))
    except ValueError:
        band = None
    if not sep or band is None or band[0] > band[1] or band[0] < 0:
        raise CratesError(f"--ideal-turns takes LO..HI turns per game (e.g. 400..700), not {text!r}")
    return band


def duration_measures(D: Data, ideal=None) -> list[dict]:
    """Turns (plays + draws + passes) and hands per game, their standard deviations, and with
    an ideal band (lo, hi) the share of games whose turns lie inside it."""
    keys = D.game_keys
    df = collect(D.hands.filter(pl.col("seat") == 0).group_by(keys)
                 .agg(pl.col("turns").cast(pl.Int64).sum().alias("turns"), pl.len().alias("hands")))
    g = df["game"].to_numpy()
    turns = df["turns"].to_numpy().astype(float)
    hands = df["hands"].to_numpy().astype(float)
    out = [row("duration", "turns", per_game_mean(g, turns)),
           row("duration", "turns_sd", stats.sd_ci(turns)),
           row("duration", "hands", per_game_mean(g, hands)),
           row("duration", "hands_sd", stats.sd_ci(hands))]
    if ideal is not None:
        inside = ((turns >= ideal[0]) & (turns <= ideal[1])).astype(float)
        out.append(row("duration", "in_band", per_game_mean(g, inside)))
    return out


def designer_measures(D: Data, ideal=None) -> list[dict]:
    """Every designer's measure of one variant's dataset except skill_gap (module doc)."""
    out = balance_measure(D)
    if D.hands is None:
        return out
    return out + decisions_measure(D) + flow_measures(D) + duration_measures(D, ideal)


# ------------------------------------------------------------------ skill
WEAK = ("greedy", "random")


def skill_gap(rules, strong: str, games: int, seed: int, backend, echo=None) -> list[dict]:
    """The strong player's win-rate difference against greedy and against random, in points
    of win rate (percentage points: 48.1, not 0.481): duplicate games (the same deals, the two rotated over the seats as `crates compare` does), the
    difference of the two strategies' win shares per deal with a t interval over deals."""
    from .blocks import BLOCK, rotations
    from .tune import _play_all, _tasks, measures

    plan = rotations(2, rules.players, rules.partnerships)
    weak = [w for w in WEAK if w != strong]
    tasks = _tasks(rules, plan, [strong], weak, seed, 0, games, BLOCK)

    class _Quiet:
        def update(self, n):
            pass

    arr = _play_all(backend, tasks, (1, len(weak), len(plan), games), _Quiet())
    out = []
    z = stats.z_quantile(0.95)
    for j, w in enumerate(weak):
        m = measures(arr[0, j])
        se = (m["win_hi"] - m["win_lo"]) / (2 * z) if np.isfinite(m["win_hi"]) else float("nan")
        out.append({"measure": "skill_gap", "group": w, "est": POINTS * m["win_diff"], "lo": POINTS * m["win_lo"],
                    "hi": POINTS * m["win_hi"], "se": POINTS * se})
    return out
