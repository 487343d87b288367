"""`crates compare`: a duplicate tournament between strategies (docs/analysis.md).

Every deal (game number i of the seed) is played once per rotation of the strategies over
the seats, so each strategy meets the same cards from every seat and the deal's share of
the variance leaves the differences (in Crates a small share, about 1-2% of a hand's: the
page says so and reports the measured saving). Results per deal are averaged over the rotations; pair
differences and their t intervals are over deals, which are independent.

The headline is the win rate: pairs are marked significant, and a better strategy named, on
the win-rate difference, and the ranking is by win share. The mean score is a secondary
column labelled heavy-tailed (rare pressure-heavy deals dominate it), beside the robust
trimmed-mean score difference.
"""

from __future__ import annotations

import json
import math
import shlex
import time
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl

from crates_sim.errors import CratesError

from . import stats
from .blocks import compare_command as command
from .blocks import labels_for, open_dataset, play, rotations
from .render import PALETTE, Document, bars_ci, ci_text, figure, num

DEFAULT_MAX_GAMES = 1_000_000


def _arrays(per: pl.DataFrame, m: int):
    """per (game, rotation, entry, score, win) -> score and win arrays of shape (G, R, m)."""
    per = per.sort("game", "rotation", "entry")
    games = per["game"].unique().sort().to_numpy()
    R = per["rotation"].n_unique()
    G = len(games)
    score = per["score"].to_numpy().reshape(G, R, m)
    win = per["win"].to_numpy().reshape(G, R, m)
    return games, score, win


def design_variances(score: np.ndarray, a: int, b: int, reps: int = 200, seed: int = 0) -> dict:
    """Variance per deal of the a - b difference under three designs, all on the games played.

    duplicate: every rotation on the same deal (what compare does);
    independent deals: rotation r's result taken from another deal (as if each rotation
    had been dealt afresh: a and b still share a table);
    separate tables: a's and b's results from different deals.
    Returns the variances and the variance ratio independent/duplicate with a bootstrap CI.
    """
    G, R, _ = score.shape
    if G < 2 * R + 2:
        return {}
    g = np.arange(G)
    k1 = max(1, G // (2 * R))
    dup = score[:, :, a].mean(axis=1) - score[:, :, b].mean(axis=1)
    ind = np.mean([score[(g + r * k1) % G, r, a] - score[(g + r * k1) % G, r, b] for r in range(R)], axis=0)
    sep = (np.mean([score[(g + r * k1) % G, r, a] for r in range(R)], axis=0)
           - np.mean([score[(g + r * k1 + k1 * R + 1) % G, r, b] for r in range(R)], axis=0))
    v = {"duplicate": float(dup.var(ddof=1)), "independent deals": float(ind.var(ddof=1)),
         "separate tables": float(sep.var(ddof=1))}
    if v["duplicate"] == 0:
        return {"variances": v, "ratio": None}
    pair = np.column_stack([dup, ind])

    def ratio(x):
        return x[..., 1].var(axis=-1, ddof=1) / np.maximum(x[..., 0].var(axis=-1, ddof=1), 1e-300)

    ci = stats.bootstrap_ci(pair, ratio, reps=reps, seed=seed, axis_stat=True)
    return {"variances": v, "ratio": ci}


ROBUST_NAME = f"{round(100 * stats.TRIM)}% trimmed mean"


def difference_columns(rows) -> dict:
    """The four table columns of a − b comparisons (`paired_measures`' fields per row, a
    DataFrame or a dict of columns: win_diff, win_lo/_hi, robust/_lo/_hi, diff/_lo/_hi): the
    win-rate difference with its 95% CI, whether that CI misses 0, the robust and the
    mean score differences with theirs; as the sweep's and the tune's pages show them."""

    def cis(key, bounds, **fmt):
        return [ci_text(e, lo, hi, **fmt) for e, lo, hi in
                zip(rows[key], rows[f"{bounds}_lo"], rows[f"{bounds}_hi"], strict=True)]

    return {"win-rate difference (95% CI)": cis("win_diff", "win", digits=1, pct=True),
            "significant (win rate)": ["yes" if lo > 0 or hi < 0 else "no"
                                       for lo, hi in zip(rows["win_lo"], rows["win_hi"], strict=True)],
            f"{ROBUST_NAME} (95% CI)": cis("robust", "robust"),
            "mean score difference (heavy-tailed, 95% CI)": cis("diff", "diff")}


def paired_measures(sc_a, sc_b, win_a, win_b, conf: float = 0.95, seed: int = 0) -> dict:
    """The three paired measures of a − b over deals (per-deal scores and win shares):
    mean score difference (t CI), robust score difference (trimmed mean of the per-deal
    differences, seeded bootstrap CI) and win-rate difference (t CI; the headline)."""
    d = stats.paired_diff_ci(sc_a, sc_b, conf)
    r = stats.trimmed_mean_ci(np.asarray(sc_a, dtype=float) - np.asarray(sc_b, dtype=float),
                              conf=conf, seed=seed)
    w = stats.paired_diff_ci(win_a, win_b, conf)
    return {"score_diff": d.estimate, "score_lo": d.lo, "score_hi": d.hi, "half_width": d.half_width,
            "robust_diff": r.estimate, "robust_lo": r.lo, "robust_hi": r.hi,
            "win_diff": w.estimate, "win_lo": w.lo, "win_hi": w.hi,
            "significant": w.significant, "win_significant": w.significant,
            "score_significant": d.significant, "robust_significant": r.significant}


def better_by_win(p: dict, a: str, b: str) -> str:
    """The better of a and b by the headline (the win-rate difference), or '–' where its
    95% CI holds 0."""
    if not p["win_significant"]:
        return "–"
    return a if p["win_diff"] > 0 else b


def analyse(per: pl.DataFrame, labels: list[str], lower_is_better: bool, conf: float = 0.95) -> dict:
    """Pair table, ranking and design variances from per game x rotation x entry summaries.

    The headline is the win rate: a pair's "significant" and "better" follow the win-rate
    difference, and the ranking is by win share (the mean score, heavy-tailed, is a
    secondary column: a few pressure-heavy deals can swamp it)."""
    m = len(labels)
    games, score, win = _arrays(per, m)
    sc, wn = score.mean(axis=1), win.mean(axis=1)
    pairs = []
    for a, b in combinations(range(m), 2):
        p = paired_measures(sc[:, a], sc[:, b], wn[:, a], wn[:, b], conf)
        better = better_by_win(p, labels[a], labels[b])
        pairs.append({"a": labels[a], "b": labels[b], **p, "better": better, "deals": len(games)})
    rank = []
    rel = sc - sc.mean(axis=1, keepdims=True)
    for k in range(m):
        r = stats.mean_ci(rel[:, k], conf)
        w = stats.mean_ci(wn[:, k], conf)
        s = stats.mean_ci(sc[:, k], conf)
        rank.append({"strategy": labels[k], "score": s.estimate, "score_lo": s.lo, "score_hi": s.hi,
                     "vs_field": r.estimate, "vs_field_lo": r.lo, "vs_field_hi": r.hi,
                     "win": w.estimate, "win_lo": w.lo, "win_hi": w.hi})
    rank = (pd.DataFrame(rank).assign(_tie=lambda r: r["vs_field"] * (1 if lower_is_better else -1))
            .sort_values(["win", "_tie"], ascending=[False, True]).drop(columns="_tie").reset_index(drop=True))
    rank.insert(0, "rank", range(1, m + 1))
    design = design_variances(score, 0, 1) if m >= 2 else {}
    return {"pairs": pd.DataFrame(pairs), "ranking": rank, "design": design, "games": len(games),
            "rotations": score.shape[1]}


def compare(rules, strategies: list[str], games: int, seed: int, out, precision: float | None = None,
            max_games: int = DEFAULT_MAX_GAMES, workers: int | None = None, echo=print,
            conf: float = 0.95, scheduler: str | None = None) -> dict:
    """Run the duplicate tournament (adding games for --precision) and write its outputs."""
    if games < 2:
        raise CratesError("--games must be at least 2")
    if precision is not None and precision <= 0:
        raise CratesError("--precision must be a positive number of points")
    if len(strategies) < 2:
        raise CratesError("--strategies: give at least two strategies to compare")
    labels = labels_for(strategies)
    plan = rotations(len(strategies), rules.players, rules.partnerships)
    out = Path(out)
    raw = out / "results"
    if raw.exists() and any(raw.rglob("*.parquet")):
        raise CratesError(f"{out} already holds compare results: give another --out")
    t0 = time.perf_counter()
    parts, done = [], 0
    target = games
    with open_dataset(raw, rules, list(strategies), plan, seed, "games", "compare",
                      command(rules, strategies, games, seed, out, precision, max_games, scheduler),
                      labels) as writer:
        while True:
            parts.append(play(rules, strategies, seed, done, target - done, raw, "games", workers,
                              scheduler=scheduler, writer=writer, plan=plan))
            done = target
            per = pl.concat(parts)
            result = analyse(per, labels, rules.family == "crates", conf)
            worst = float(result["pairs"]["half_width"].max()) if len(result["pairs"]) else 0.0
            if precision is None or not math.isfinite(worst) or worst < precision or done >= max_games:
                break
            need = math.ceil(done * (worst / precision) ** 2 * 1.1)
            target = int(min(max_games, max(need, done + max(100, done // 4))))
            echo(f"  {num(done)} games: widest CI half-width {worst:.2f} > {precision}; going to {num(target)}")
    manifest = writer.m
    wall = time.perf_counter() - t0
    result.update(wall=wall, precision=precision, max_games=max_games,
                  reached=None if precision is None else bool(worst < precision), labels=labels)
    per.write_parquet(out / "per_deal.parquet")
    result["pairs"].to_csv(out / "pairs.csv", index=False)
    result["ranking"].to_csv(out / "ranking.csv", index=False)
    summary = {k: manifest[k] for k in ("made_by", "preset", "rules_spec", "players", "partnerships",
                                        "entries", "rotations", "seed", "games", "command")}
    summary.update(wall_seconds=round(wall, 3), dataset=str(raw))
    summary.update(pairs=result["pairs"].to_dict("records"), ranking=result["ranking"].to_dict("records"),
                   precision=precision, precision_reached=result["reached"])
    if result["design"] and result["design"]["ratio"] is not None:
        d = result["design"]
        summary["design_variances"] = d["variances"]
        summary["variance_ratio"] = {"estimate": d["ratio"].estimate, "lo": d["ratio"].lo, "hi": d["ratio"].hi}
    (out / "compare.json").write_text(json.dumps(summary, indent=1, default=float))
    result["command"] = manifest["command"]
    result["dataset"] = str(raw)
    doc = document(result, rules, seed, plan)
    result["paths"] = doc.write(out / "compare.html")
    result["document"] = doc
    return result


def cost_per_turn(rules, strategies: list[str], games: int, seed: int,
                  reference: tuple[str, ...] = ("greedy",)) -> dict:
    """Microseconds per turn of each strategy (and of the `reference` ones), measured in
    this process on one core: games 0..games-1 of `seed` with the strategy in every seat
    (so every turn is one of its decisions, engine included), the strategies timed in
    turn, after one warm-up game each; a fast strategy is timed on 10x as many games
    again until the timing takes a second. Returns {spec: us per turn}."""
    from crates_sim.engine.api import prepare, run_games

    specs = list(dict.fromkeys([*strategies, *reference]))
    prepare(specs)
    out = {}
    for spec in specs:
        table = [spec] * rules.players
        run_games(rules, table, seed, 10**6, 1, detail="games")  # warm (a game not timed)
        n = games
        while True:
            t0 = time.perf_counter()
            res = run_games(rules, table, seed, 0, n, detail="games")
            wall = time.perf_counter() - t0
            if wall >= 1.0 or n >= 100 * games:
                break
            n *= 10
        out[spec] = 1e6 * wall / max(res.turns, 1)
    return out


def cost_lines(costs: dict, baseline: str) -> list[str]:
    """`spec: N us/turn (x the baseline's)` for each strategy of `cost_per_turn`."""
    base = costs[baseline]
    return [f"  {spec}: {us:,.3g} us/turn ({us / base:.3g}x {baseline})" for spec, us in costs.items()]


MEAN_SCORE_NAME = "mean score difference per game (heavy-tailed, 95% CI)"


def pair_table(pairs: pd.DataFrame, digits: int = 2) -> pd.DataFrame:
    """The pairs as printed and shown: the headline (win-rate difference), its significance
    and the better strategy first; the score measures after, the mean labelled heavy-tailed."""
    return pd.DataFrame({
        "pair (a − b)": [f"{a} − {b}" for a, b in zip(pairs["a"], pairs["b"], strict=True)],
        "win-rate difference (95% CI)": [ci_text(e, lo, hi, 1, pct=True) for e, lo, hi in
                                         zip(pairs["win_diff"], pairs["win_lo"], pairs["win_hi"], strict=True)],
        "significant (win rate)": ["yes" if s else "no" for s in pairs["win_significant"]],
        "better": pairs["better"],
        f"robust score difference ({ROBUST_NAME}, 95% CI)": [
            ci_text(e, lo, hi, digits) for e, lo, hi in
            zip(pairs["robust_diff"], pairs["robust_lo"], pairs["robust_hi"], strict=True)],
        MEAN_SCORE_NAME: [ci_text(e, lo, hi, digits) for e, lo, hi in
                          zip(pairs["score_diff"], pairs["score_lo"], pairs["score_hi"], strict=True)],
    })


def ranking_table(rank: pd.DataFrame) -> pd.DataFrame:
    """The ranking as shown: win share (the headline, ranked on) first, then the mean score
    (heavy-tailed) and the score against the field of the same deals."""
    return pd.DataFrame({
        "rank": rank["rank"], "strategy": rank["strategy"],
        "win share (95% CI)": [ci_text(e, lo, hi, 1, pct=True) for e, lo, hi in
                               zip(rank["win"], rank["win_lo"], rank["win_hi"], strict=True)],
        "mean score (heavy-tailed, 95% CI)": [ci_text(e, lo, hi, 1) for e, lo, hi in
                                              zip(rank["score"], rank["score_lo"], rank["score_hi"], strict=True)],
        "score vs field (heavy-tailed, 95% CI)": [ci_text(e, lo, hi, 2) for e, lo, hi in
                                                  zip(rank["vs_field"], rank["vs_field_lo"], rank["vs_field_hi"], strict=True)],
    })


def document(result: dict, rules, seed: int, plan) -> Document:
    labels = result["labels"]
    lower = rules.family == "crates"
    G = result["games"]
    doc = Document(f"Duplicate comparison: {', '.join(labels)} ({rules.describe()}, {rules.players} players)",
                   f"{num(G)} deals (games 0..{G - 1} of seed {seed}), each played {len(plan)} times with the "
                   f"strategies rotated over the seats: {num(G * len(plan))} games in {result['wall']:.1f} s. "
                   f"{'Lower' if lower else 'Higher'} scores are better. Intervals are 95% t intervals over deals."
                   + (f" Made by `{result['command']}` (to run it again, give another --out); its games are a dataset: "
                      f"`{shlex.join(['crates', 'report', result['dataset']])}`." if result.get("command") else ""))
    sec = doc.section("Seating", "seating")
    sec.table(pd.DataFrame({"rotation": range(len(plan)),
                            **{f"seat {s}": [labels[r[s]] for r in plan] for s in range(rules.players)}}),
              "Who sits where in each rotation")
    if rules.partnerships:
        sec.text("Partnerships: seats 0+2 against 1+3, so each strategy plays once as each team; "
                 "a strategy's score is its team's total.")
    sec = doc.section("Pairs", "pairs")
    pairs = result["pairs"]
    sec.table(pair_table(pairs), "Paired differences per deal, a − b: the win-rate difference (the headline), "
              f"the {ROBUST_NAME} of the score differences (bootstrap CI) and their mean (score: points, "
              "pressures included)")
    sec.text("**Headline: the win-rate difference.** It is bounded, so no single deal can swamp it, and it is "
             "what a player wants to know. The score measures follow: the mean counts every point but, in "
             f"partnership games, rare deals with long runs of doubling pressures dominate it; the {ROBUST_NAME} "
             f"of the per-deal differences cuts the {round(100 * stats.TRIM)}% most extreme deals at each end.")
    if result["precision"] is not None:
        verdict = "reached" if result["reached"] else f"not reached within the cap of {num(result['max_games'])} games"
        sec.text(f"**Precision**: every score CI half-width below {result['precision']} points was {verdict}: "
                 f"{num(G)} deals ({num(G * len(plan))} games); widest half-width {pairs['half_width'].max():.2f}.")
    y = np.arange(len(pairs))
    names = [f"{a} − {b}" for a, b in zip(pairs["a"], pairs["b"], strict=True)]
    fig, ax = figure("Win-rate difference, a − b (the headline)", "win-rate difference (points of %; positive = a better)",
                     "pair")
    ax.errorbar(100 * pairs["win_diff"], y, xerr=100 * np.vstack([pairs["win_diff"] - pairs["win_lo"],
                                                                  pairs["win_hi"] - pairs["win_diff"]]),
                fmt="o", capsize=4, color=PALETTE[0], label="win-rate difference, 95% CI")
    ax.axvline(0, color="grey", ls="--", lw=1, label="no difference")
    ax.set_yticks(y)
    ax.set_yticklabels(names)
    ax.legend()
    sec.figure("pairs", fig, "Win-rate difference per deal for each pair, with 95% CIs: a pair is significant "
               "where its interval misses 0.")
    fig, ax = figure("Score difference per game, a − b (secondary)",
                     f"points per game ({'negative' if lower else 'positive'} = a better)", "pair")
    ax.errorbar(pairs["score_diff"], y + 0.12, xerr=np.vstack([pairs["score_diff"] - pairs["score_lo"],
                                                               pairs["score_hi"] - pairs["score_diff"]]),
                fmt="o", capsize=4, color=PALETTE[2], label="mean difference (heavy-tailed), 95% CI")
    ax.errorbar(pairs["robust_diff"], y - 0.12, xerr=np.vstack([pairs["robust_diff"] - pairs["robust_lo"],
                                                                pairs["robust_hi"] - pairs["robust_diff"]]),
                fmt="s", capsize=4, color=PALETTE[1], label=f"{ROBUST_NAME}, bootstrap 95% CI")
    ax.axvline(0, color="grey", ls="--", lw=1, label="no difference")
    ax.set_yticks(y)
    ax.set_yticklabels(names)
    ax.legend()
    sec.figure("pairs-score", fig, f"Mean (heavy-tailed) and {ROBUST_NAME} score difference per deal for each "
               "pair, with 95% CIs.")

    sec = doc.section("Ranking", "ranking")
    rank = result["ranking"]
    sec.table(ranking_table(rank), "Ranking by win share (the headline); the score columns are secondary: "
              "the mean is heavy-tailed (a few pressure-heavy deals can dominate it)")
    fig, ax = figure("Win share by strategy", "strategy", "share of the wins (%)")
    bars_ci(ax, list(rank["strategy"]), 100 * rank["win"], 100 * rank["win_lo"], 100 * rank["win_hi"],
            colors=[PALETTE[i % len(PALETTE)] for i in range(len(rank))], ref=100 / len(rank),
            ref_label="equal share", label="win share, 95% CI")
    ax.legend()
    sec.figure("ranking", fig, "Share of the wins of each strategy over all rotations, with 95% CIs.")

    sec = doc.section("What the duplicate design saves", "design")
    d = result["design"]
    if d and d["ratio"] is None:
        sec.text(f"The {labels[0]} − {labels[1]} difference is the same on every deal (variance 0): the duplicate "
                 f"design removes all of the variance of the deal here; with the rotations on different deals "
                 f"it would be {d['variances']['independent deals']:.1f} per deal.")
    elif d:
        v, r = d["variances"], d["ratio"]
        sec.text(f"Variance per deal of the {labels[0]} − {labels[1]} difference, measured on these games: "
                 f"duplicate {v['duplicate']:.1f}, with the rotations on different deals "
                 f"{v['independent deals']:.1f}, with the two strategies at separate tables {v['separate tables']:.1f}. "
                 f"Repeating the deal removes **{100 * (1 - 1 / r.estimate):.0f}%** of the variance "
                 f"(independent/duplicate = {r.fmt(2)}, bootstrap 95% CI): independent deals would need "
                 f"about {r.estimate:.1f}× as many games for the same precision.")
        fig, ax = figure("Variance of a pair difference per deal by design", "design",
                         "variance per deal (points²)")
        ax.bar(list(v), list(v.values()), color=[PALETTE[0], PALETTE[3], PALETTE[1]], label=f"{labels[0]} − {labels[1]}")
        ax.legend()
        sec.figure("design", fig, "The same games regrouped: duplicate (as played), rotations on different deals, "
                   "strategies at separate tables.")
    else:
        sec.note("Too few games to measure the variance of the other designs.")
    if lower:
        sec.text(DEAL_SHARE_NOTE)
    return doc


#: what repeating the deal can remove in Crates (issue 39 §3; docs/analysis.md)
DEAL_SHARE_NOTE = ("What to expect in Crates: the duplicate design removes the deal's share of the variance and "
                   "little else. The cards dealt explain only about 1-2% of a hand's variance; after the deal, "
                   "the order of the stock carries about 99% of what remains, and the two seatings' outcomes of "
                   "one deal barely correlate (between −0.13 and +0.01). So a ratio near 1 is the expected "
                   "saving here, not a fault; the win rate is still the paired, bounded headline.")
