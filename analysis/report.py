"""`crates report DIR`: the sections of a dataset report (issue 5, docs/analysis.md).

Each section function takes the document and the opened dataset, aggregates with polars
lazy scans down to small tables (`analysis.data.cluster_means`), and adds text, tables and
figures. Nothing reads a dataset whole.
"""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl

from crates_sim.cards import CRATES_HAND_SIZES
from crates_sim.data.schema import REASONS
from crates_sim.rules import Rules

from . import stats, summary
from .data import (
    Data,
    clipped_histogram,
    cluster_expr,
    cluster_means,
    collect,
    cube_means,
    hand_cube,
    load,
    saturated_games,
)
from .render import PALETTE, Document, bars_ci, ci_col, ci_text, figure, lines_ci, num

SECTIONS = ("summary", "overview", "hoarding", "pressures", "seats", "flow")
#: figures every report of a Crates dataset with hands/ has (tests check them)
FIGURES = ("answer-hoarding", "answer-pressures", "answer-seats", "score-distribution", "win-share", "threes-held", "points-with-threes", "threes-effect",
           "pressures-by-size", "pressure-distribution", "seat-effects", "position-by-size",
           "deal-asymmetry", "hand-length", "hand-endings")


def _str_strategy(lf: pl.LazyFrame) -> pl.LazyFrame:
    return lf.with_columns(pl.col("strategy").cast(pl.String))


def _needs_hands(sec, what: str):
    sec.note(f"{what} needs per-hand rows: this dataset was simulated with `--detail games` "
             f"(no hands/). Run `crates simulate` again without `--detail games` for this part.")


def _better(D: Data) -> str:
    return "lower" if D.lower_is_better else "higher"


def _win_per_game(D: Data) -> float:
    """Sum of the win column over the seats of a game (1, or 2 where partners both get 1);
    a game is (game, rotation) in a rotated dataset."""
    row = collect(D.games.select(pl.col("win").sum().alias("w"), pl.struct(D.game_keys).n_unique().alias("g")))
    g = row["g"][0]
    return float(row["w"][0] / g) if g else 1.0


def tail_text(share: float) -> str:
    """'1.2%', '0.04%' or '0' for a share."""
    if share <= 0:
        return "0%"
    pct = 100 * share
    return f"{pct:.1f}%" if pct >= 0.1 else f"{pct:.2g}%"


# ------------------------------------------------------------------ summary
def summary_section(doc: Document, D: Data) -> list:
    """The three questions answered first (`analysis.summary`); returns the answers."""
    sec = doc.section("Summary: the three questions", "summary")
    answers = summary.answers(D)
    for a in answers:
        sec.answer(a.question, a.sentence, a.support, f"answer-{a.key}", a.figure, a.caption)
    return answers


# ------------------------------------------------------------------ overview
def overview(doc: Document, D: Data):
    sec = doc.section("Overview", "overview")
    m = D.manifest
    games = int(m["games_done"])
    seats = ", ".join(f"{s}: {name}" for s, name in enumerate(D.strategies))
    team = " (partnerships: seats 0+2 against 1+3)" if D.partnerships else ""
    run_time = []
    if m["started"]:
        run_time.append(f"started {m['started']}")
    if m["finished"]:
        run_time.append(f"finished {m['finished']}")
    wall = m["wall_seconds"]
    if wall is not None:
        run_time.append(f"{num(float(wall), 1)} s of simulation")
    gps = m["games_per_second"]
    if gps:
        run_time.append(f"{num(float(gps), 0)} games/s")
    items = [
        f"**Rules**: `{D.rules_spec}` ({D.family}; {_better(D)} game score wins)",
        f"**Players**: {D.players}{team}",
        f"**Strategies per seat**: {seats or 'rotated over the seats (see the tables)'}",
        f"**Games**: {num(games)}" + (f" (run status: {m['status']})" if m["status"] != "complete" else ""),
        f"**Seed**: {m['seed']}",
        f"**Detail**: {'hands and games' if D.has_hands else 'games only (--detail games)'}",
    ]
    if run_time:
        items.append("**Run**: " + ", ".join(run_time))
    sat, n_games = saturated_games(D)
    items.append(f"**Games with a total at the points ceiling** (2^62, docs/rules.md): {num(sat)} of "
                 f"{num(n_games)}" + (" — their totals read \"2^62 or more\": score means and spreads "
                                      "that include them are lower bounds; wins and ranks are exact"
                                      if sat else ""))
    if m["command"]:
        items.append(f"**Made by**: `{m['command']}` (run again into the same --out, a `crates simulate` resumes; "
                     f"the other commands want another --out)")
    sec.bullets(items)
    diff = D.rules.differences()
    base = Rules.preset(D.rules.preset_name, D.players).to_dict()
    if diff:
        sec.table(pd.DataFrame({"knob": list(diff), f"{D.preset} default": [str(base[k]) for k in diff],
                                "this run": [str(v) for v in diff.values()]}),
                  f"Knobs that differ from the {D.preset} preset")
    else:
        sec.text(f"Every knob is at the **{D.preset}** preset's value (`crates rules {D.preset}` lists them).")

    g = _str_strategy(D.games)
    per_game = _win_per_game(D)
    table = cluster_means(g, {"win": pl.col("win") / per_game, "total": pl.col("total")}, by=["strategy"])
    sd = collect(g.group_by("strategy").agg(pl.col("total").std().alias("sd"),
                                            pl.col("total").quantile(0.1).alias("p10"),
                                            pl.col("total").median().alias("p50"),
                                            pl.col("total").quantile(0.9).alias("p90"),
                                            pl.col("seat").unique().sort().cast(pl.String).str.join(",").alias("seats"))
                 ).to_pandas()
    table = table.merge(sd, on="strategy").sort_values("win", ascending=False)
    fair = 1.0 / D.players
    sec.table(pd.DataFrame({
        "strategy": table["strategy"], "seats": table["seats"],
        "win share per seat (95% CI)": ci_col(table, "win", 1, pct=True),
        "mean final score (95% CI)": ci_col(table, "total", 1),
        "sd": [num(v, 1) for v in table["sd"]],
        "10% / 50% / 90%": [f"{a:.0f} / {b:.0f} / {c:.0f}" for a, b, c in zip(table["p10"], table["p50"], table["p90"], strict=False)],
    }), f"Win share and final score per strategy (fair share per seat {100 * fair:.1f}%; {_better(D)} score is better)")

    hist, clip, tail = clipped_histogram(g, "total", by=["strategy"])
    fig, ax = figure("Final game score per strategy", "final game score (points, pressures included)"
                     + (f"; axis clipped at {num(clip, 0)}" if clip is not None else ""),
                     "share of seat-games (%)")
    for i, (name, part) in enumerate(hist.groupby("strategy", sort=True)):
        ax.step(part["left"] + part["width"] / 2, 100 * part["share"], where="mid", label=name,
                color=PALETTE[i % len(PALETTE)], lw=1.6)
    ax.legend(title="strategy")
    caption = ("Distribution of the final game score of a seat, per strategy "
               "(partners share their team total).")
    if clip is not None:
        shares = ", ".join(f"{r.strategy} {tail_text(r.tail_share)} (max {num(float(r.max), 0)})"
                           for r in tail.itertuples())
        everyone = float(collect(g.select((pl.col("total") > clip).mean())).item())
        line = f"{tail_text(everyone)} of seats above {num(clip, 0)} points"
        ax.text(0.98, 0.95, line, transform=ax.transAxes, ha="right", va="top", fontsize=9,
                bbox={"facecolor": "white", "alpha": 0.8, "edgecolor": "#999"})
        caption += (f" The axis stops at {num(clip, 0)} points (a round number above the 99th percentile): "
                    f"the long tail of pressure-heavy games would squash the rest into a spike. "
                    f"Beyond it: {shares}.")
        sec.text(f"**Score tail**: {line} (per strategy: {shares}); the figure's axis stops there.")
    sec.figure("score-distribution", fig, caption)

    fig, ax = figure("Win share per seat by strategy, with 95% CIs", "strategy", "win share per seat (%)")
    bars_ci(ax, list(table["strategy"]), 100 * table["win"], 100 * table["win_lo"], 100 * table["win_hi"],
            colors=[PALETTE[i % len(PALETTE)] for i in range(len(table))], ref=100 * fair,
            ref_label=f"fair share {100 * fair:.1f}%", label="win share")
    ax.legend()
    sec.figure("win-share", fig, "Share of the wins per seat a strategy occupied (ties split); error bars are 95% CIs.")

    strategies = sorted(set(D.strategies))
    if len(strategies) >= 2 and not D.keys:
        per = collect(g.group_by("game", "strategy").agg(pl.col("total").mean())).pivot(
            on="strategy", index="game", values="total").to_pandas()
        rows = []
        for a, b in combinations(strategies, 2):
            ci = stats.paired_diff_ci(per[a], per[b])
            rows.append({"pair": f"{a} − {b}", "mean score difference per game (95% CI)": ci.fmt(1),
                         "significant": "yes" if ci.significant else "no"})
        sec.table(pd.DataFrame(rows), "Paired score difference at the same table (the seats are not rotated, "
                  "so seat effects are mixed in: use `crates compare` for a clean comparison)")


# ------------------------------------------------------------------ 3-hoarding
def hoarding(doc: Document, D: Data):
    sec = doc.section("3-hoarding", "hoarding")
    if D.family != "crates":
        sec.note("3s have no special value in Crazy Eights: this section is about Crates only.")
        return
    sec.text("A 3 left in hand at the end of a hand covers one other card (the 3 and its card score 3 "
             "together), and a hand of only 3s is a home run (−50 per 3). Holding 3s lowers the "
             "points of a hand that is caught with cards, but a player who keeps 3s goes out less often.")
    g = _str_strategy(D.games)
    home = cluster_means(g, {"home_runs": pl.col("home_runs")}, by=["strategy"])
    if not D.has_hands:
        sec.table(pd.DataFrame({"strategy": home["strategy"],
                                "home runs per seat per game (95% CI)": ci_col(home, "home_runs", 3)}),
                  "Home runs")
        _needs_hands(sec, "3s held at the end of each hand and their effect on scores")
        return
    h = D.hands
    cube = hand_cube(D)
    held = cube_means(cube, {"threes": "threes", "home": "home"}, by=["strategy", "size"])
    fig, ax = figure("3s held at the end of a hand", "hand size (cards dealt)", "3s held at hand end (cards per seat)")
    for i, (name, part) in enumerate(held.groupby("strategy", sort=True)):
        lines_ci(ax, part["size"], part["threes"], part["threes_lo"], part["threes_hi"], name, PALETTE[i % len(PALETTE)])
    ax.legend(title="strategy")
    sec.figure("threes-held", fig, "Mean number of 3s a seat still holds when the hand ends, with 95% CIs.")
    overall = cube_means(cube, {"threes": "threes", "home": "home", "held": "held"}, by=["strategy"])
    overall = overall.merge(home, on="strategy")
    sec.table(pd.DataFrame({
        "strategy": overall["strategy"],
        "3s held at hand end (95% CI)": ci_col(overall, "threes", 3),
        "hands ending with a 3 held": ci_col(overall, "held", 1, pct=True),
        "home runs per hand": ci_col(overall, "home", 2, pct=True),
        "home runs per seat per game": ci_col(overall, "home_runs", 3),
    }), "3s held and home runs per strategy")
    hr = held.pivot(index="size", columns="strategy", values="home").reset_index()
    hr.columns = [str(c) for c in hr.columns]
    hr = hr.rename(columns={"size": "hand size"})
    for c in hr.columns[1:]:
        hr[c] = [f"{100 * v:.2f}%" for v in hr[c]]
    sec.table(hr, "Home-run frequency (share of a seat's hands) by hand size")

    def caught(by):
        parts = [cube_means(cube, {"points": f"c{k}p"}, by=by, den=f"c{k}n").assign(three=label)
                 for k, label in (("0", "no 3 held"), ("3", "with a 3 held"))]
        return pd.concat(parts).sort_values([*by[:1], "three"]).reset_index(drop=True)

    pts = caught(["size"])
    fig, ax = figure("Hand points with and without a 3 held", "hand size (cards dealt)",
                     "mean hand points (points, seats with cards left)")
    for i, (name, part) in enumerate(pts.groupby("three", sort=True)):
        lines_ci(ax, part["size"], part["points"], part["points_lo"], part["points_hi"], name, PALETTE[i])
    ax.legend()
    sec.figure("points-with-threes", fig, "Mean points of a hand for seats caught with cards, split by whether "
               "they held a 3 at the end (home runs included), with 95% CIs.")
    pts_all = caught(["strategy"])
    sec.table(pd.DataFrame({"strategy": pts_all["strategy"], "3 held": pts_all["three"],
                            "mean hand points (95% CI)": ci_col(pts_all, "points", 1),
                            "hands": [num(int(v)) for v in pts_all["n"]]}),
              "Hand points of seats caught with cards, with and without a 3 held")

    # effect of holding 3s on the game score: per game x seat
    per = collect(h.group_by("game", *D.keys, "seat").agg(pl.col("threes_left").sum().alias("x"),
                                                          pl.col("points").sum().alias("y")))
    x, y = per["x"].to_numpy().astype(float), per["y"].to_numpy().astype(float)
    slope = stats.ols_slope_ci(x, y, clusters=per["game"].to_numpy() % 1000)
    per_b = per.lazy().with_columns(xb=pl.col("x").clip(0, 8))
    binned = cluster_means(per_b, {"y": pl.col("y")}, by=["xb"])
    fig, ax = figure("Game score by 3s held at hand ends", "3s held at hand ends over the game (cards; 8 = 8 or more)",
                     "seat's own game points (points, pressures excluded)")
    lines_ci(ax, binned["xb"], binned["y"], binned["y_lo"], binned["y_hi"], "mean with 95% CI", PALETTE[0])
    xs = np.array([0, 8])
    ax.plot(xs, y.mean() + slope.estimate * (xs - x.mean()), "--", color=PALETTE[1],
            label=f"least squares: {slope.estimate:+.1f} points per 3")
    ax.legend()
    sec.figure("threes-effect", fig, "A seat's own points over a game (the sum of its hand points) against the "
               "number of 3s it held when its hands ended, with 95% CIs.")
    sec.text(f"Each 3 held at the end of a hand goes with **{slope.estimate:+.1f} points** "
             f"[{slope.lo:+.1f}, {slope.hi:+.1f}] on the seat's game score (95% CI). This is an "
             f"association, not a controlled effect: seats that end hands holding 3s also end them with cards.")
    ans = summary.hoarding_answer(D)
    if ans.verdict is not None:
        sec.text(f"**The controlled effect** (the summary's answer): {ans.sentence}")
    else:
        sec.note(ans.sentence + " " + ans.support)


# ------------------------------------------------------------------ pressures
def pressures(doc: Document, D: Data):
    sec = doc.section("Pressures", "pressures")
    if D.family != "crates":
        sec.note("Crazy Eights has no pressures (an empty stock means passing): this section is about Crates only.")
        return
    scope = D.rules.knobs.get("pressure_scope", "seat")
    unit = "team" if D.partnerships and scope == "team" else "seat"
    sec.text(f"A pressure is a draw from an empty stock: 5 points, doubling with each further pressure "
             f"of the same {unit} in the game (5, 10, 20, 40, …).")
    g = _str_strategy(D.games)
    by_seat = cluster_means(g, {"pressures": pl.col("pressures"), "points": pl.col("pressure_points")}, by=["seat"])
    by_strat = cluster_means(g, {"pressures": pl.col("pressures"), "points": pl.col("pressure_points")}, by=["strategy"])
    if D.has_hands:
        h = D.hands
        cube = hand_cube(D)
        pg = cube_means(cube, {"pressures": "pressures", "points": "pressure_points"}, den="games")
        ph = cube_means(cube, {"pressures": "pressures"}, den="hands")
        # hands with a pressure: distinct (game, hand) among the rows with one, over all hands
        hit = collect(h.filter(pl.col("pressures") > 0).select("game", *D.keys, "hand").unique()
                      .group_by(cluster_expr()).agg(pl.len().alias("k"))).to_pandas()
        n_h = collect(h.filter(pl.col("seat") == 0).group_by(cluster_expr()).agg(pl.len().alias("n"))).to_pandas()
        both = n_h.merge(hit, on="_cluster", how="left").fillna({"k": 0})
        a = stats.ratio_ci(both["k"].to_numpy(), both["n"].to_numpy())
        any_hand = {"any": [a.estimate], "any_lo": [a.lo], "any_hi": [a.hi]}
        lines = [f"**Pressures per game**: {ci_text(pg['pressures'][0], pg['pressures_lo'][0], pg['pressures_hi'][0], 3)} "
                 f"(pressure points per game {ci_text(pg['points'][0], pg['points_lo'][0], pg['points_hi'][0], 1)})",
                 f"**Pressures per hand**: {ci_text(ph['pressures'][0], ph['pressures_lo'][0], ph['pressures_hi'][0], 4)}; "
                 f"hands with at least one pressure: {ci_text(any_hand['any'][0], any_hand['any_lo'][0], any_hand['any_hi'][0], 2, pct=True)}"]
        sec.bullets(lines)
        by_size = cube_means(cube, {"pressures": "pressures"}, by=["size"], den="hands")
        fig, ax = figure("Pressures per hand by hand size", "hand size (cards dealt)", "pressures per hand (count)")
        lines_ci(ax, by_size["size"], by_size["pressures"], by_size["pressures_lo"], by_size["pressures_hi"],
                 "all seats, 95% CI", PALETTE[1])
        ax.legend()
        sec.figure("pressures-by-size", fig, "Mean number of pressures in a hand (all seats together), with 95% CIs. "
                   "Big hands leave a small stock.")
    else:
        tot = cluster_means(g, {"pressures": pl.col("pressures")}, scale=D.players)
        sec.bullets([f"**Pressures per game**: {ci_text(tot['pressures'][0], tot['pressures_lo'][0], tot['pressures_hi'][0], 3)}"])
        _needs_hands(sec, "Pressures per hand and by hand size")
    sec.table(pd.DataFrame({"seat": by_seat["seat"], "pressures per game (95% CI)": ci_col(by_seat, "pressures", 3),
                            "pressure points per game (95% CI)": ci_col(by_seat, "points", 1)}),
              "Pressures taken by each seat")
    sec.table(pd.DataFrame({"strategy": by_strat["strategy"],
                            "pressures per seat per game (95% CI)": ci_col(by_strat, "pressures", 3),
                            "pressure points per seat per game (95% CI)": ci_col(by_strat, "points", 1)}),
              "Pressures by strategy")

    # distribution: how far the doubling goes (per seat, or per team where pressures count per team)
    by_unit = g.group_by("game", *D.keys, unit).agg(pl.col("pressures").sum())
    dist = collect(by_unit.group_by("pressures").agg(pl.len().alias("n"))).to_pandas().sort_values("pressures")
    dist["share"] = dist["n"] / dist["n"].sum()
    total = int(dist["n"].sum())
    cis = [stats.proportion_ci(k, total) for k in dist["n"]]
    fig, ax = figure("How far the doubling goes", f"pressures taken by one {unit} in a game (count)",
                     f"share of {unit}-games (%, log scale)")
    labels = [str(int(k)) for k in dist["pressures"]]
    bars_ci(ax, labels, [100 * c.estimate for c in cis], [100 * c.lo for c in cis], [100 * c.hi for c in cis],
            colors=PALETTE[1], label=f"share of {unit}-games, 95% CI")
    ax.set_yscale("log")
    ax.legend()
    sec.figure("pressure-distribution", fig, f"Distribution of the number of pressures a {unit} takes in a game; "
               f"the k-th pressure of a {unit} costs 5·2^(k−1) points.")
    sec.table(pd.DataFrame({"pressures in the game": labels,
                            "the last one cost": ["–" if k == 0 else num(5 * 2 ** (int(k) - 1)) for k in dist["pressures"]],
                            f"{unit}-games": [num(int(v)) for v in dist["n"]],
                            "share": [f"{100 * c.estimate:.3f}%" for c in cis]}),
              f"Pressures per {unit} per game")

    # would the winner change without pressure points?
    if D.has_hands:
        own = D.hands.group_by("game", *D.keys, "team").agg(pl.col("points").sum().alias("clean"))
        gg = g.select("game", *D.keys, "seat", "team", "total").join(own, on=["game", *D.keys, "team"], how="left")
    else:
        pp = g.group_by("game", *D.keys, "team").agg(pl.col("pressure_points").sum().alias("pp"))
        gg = g.select("game", *D.keys, "seat", "team", "total").join(pp, on=["game", *D.keys, "team"]).with_columns(
            clean=pl.col("total") - pl.col("pp"))
    sign = 1 if D.lower_is_better else -1
    keys = ["game", *D.keys]
    changed = gg.with_columns(
        w1=(sign * pl.col("total")) == (sign * pl.col("total")).min().over(keys),
        w2=(sign * pl.col("clean")) == (sign * pl.col("clean")).min().over(keys),
    ).group_by(keys).agg((pl.col("w1") != pl.col("w2")).any().alias("changed"))
    row = collect(changed.select(pl.col("changed").sum().alias("k"), pl.len().alias("n")))
    ci = stats.proportion_ci(int(row["k"][0]), int(row["n"][0]))
    sec.text(f"**Winner changed by pressure points**: in {num(int(row['k'][0]))} of {num(int(row['n'][0]))} games "
             f"({ci_text(ci.estimate, ci.lo, ci.hi, 2, pct=True)}, Wilson 95% CI) the winner (or the set of "
             f"tied winners) would differ if pressure points were not counted.")


# ------------------------------------------------------------------ seat effects
def _deals(D: Data) -> pd.DataFrame:
    """Deals per seat per game: from hands/ when present, else from the rules (first dealer 0)."""
    if D.has_hands:
        d = cube_means(hand_cube(D), {"deals": "deals"}, by=["seat"], den="hand1")
        return d[["seat", "deals"]]
    hands = CRATES_HAND_SIZES if D.family == "crates" else ()
    if not hands:
        return pd.DataFrame({"seat": range(D.players), "deals": [np.nan] * D.players})
    return pd.DataFrame({"seat": range(D.players),
                         "deals": [sum(1 for i in range(len(hands)) if i % D.players == s) for s in range(D.players)]})


def seats(doc: Document, D: Data):
    sec = doc.section("Seat effects", "seats")
    g = D.games
    per_game = _win_per_game(D)
    fair = 1.0 / D.players
    by_seat = cluster_means(g, {"win": pl.col("win") / per_game, "total": pl.col("total")}, by=["seat"])
    deals = _deals(D)
    by_seat = by_seat.merge(deals, on="seat", how="left")
    if len(set(D.strategies)) > 1:
        sec.note("The seats play different strategies in this dataset, so seat and position effects are mixed "
                 "with strategy effects. Give every seat the same strategy (or use `crates balance`, which "
                 "rotates the strategies) for clean seat effects.")
    nh = len(CRATES_HAND_SIZES)
    if D.family == "crates":
        counts = [sum(1 for i in range(nh) if i % D.players == s) for s in range(D.players)]
        lucky = [s for s in range(D.players) if counts[s] == max(counts)]
        sec.text(f"A game has {nh} hands and the deal moves one seat left each hand, so with {D.players} "
                 f"players seats {', '.join(map(str, lucky))} deal {max(counts)} times and the others "
                 f"{min(counts)} (when seat 0 deals first). The dealer plays last in a hand.")
    table = pd.DataFrame({"seat": by_seat["seat"], "deals per game": [num(v, 2) for v in by_seat["deals"]],
                          "win share (95% CI)": ci_col(by_seat, "win", 1, pct=True),
                          "mean final score (95% CI)": ci_col(by_seat, "total", 1)})
    if D.has_hands:
        hp = cube_means(hand_cube(D), {"points": "points", "out": "out"}, by=["seat"])
        table["mean hand points (95% CI)"] = ci_col(hp, "points", 2)
        table["hands gone out"] = ci_col(hp, "out", 1, pct=True)
    sec.table(table, f"By absolute seat (fair win share {100 * fair:.1f}%)")

    fig, axes = _two_panels("Seat effects", D)
    ax = axes[0]
    bars_ci(ax, [str(s) for s in by_seat["seat"]], 100 * by_seat["win"], 100 * by_seat["win_lo"], 100 * by_seat["win_hi"],
            colors=PALETTE[0], ref=100 * fair, ref_label=f"fair {100 * fair:.1f}%", label="win share")
    ax.set_title("Win share by seat, 95% CIs", fontsize=10)
    ax.set_xlabel("seat")
    ax.set_ylabel("win share (%)")
    ax.legend(loc="lower right")
    ax = axes[1]
    lines_ci(ax, by_seat["seat"], by_seat["total"], by_seat["total_lo"], by_seat["total_hi"],
             "mean final score, 95% CI", PALETTE[2])
    ax.set_xticks(list(by_seat["seat"]))
    ax.set_title(f"Mean final score by seat ({_better(D)} is better)", fontsize=10)
    ax.set_xlabel("seat")
    ax.set_ylabel("final game score (points)")
    ax.legend(loc="lower right")
    sec.figure("seat-effects", fig, "Win share and mean final score by absolute seat, with 95% CIs.")

    if D.partnerships:
        by_team = cluster_means(g.filter(pl.col("seat") < 2), {"win": pl.col("win") * 2 / per_game,
                                                               "total": pl.col("total")}, by=["team"])
        sec.table(pd.DataFrame({"team": ["0 (seats 0+2)", "1 (seats 1+3)"][: len(by_team)],
                                "win share (95% CI)": ci_col(by_team, "win", 1, pct=True),
                                "mean team score (95% CI)": ci_col(by_team, "total", 1)}), "By team")

    fig, ax = figure("Deals per game by seat", "seat", "hands dealt per game (count)")
    ax.bar([str(s) for s in deals["seat"]], deals["deals"], color=PALETTE[4], label="hands dealt")
    ax.legend()
    sec.figure("deal-asymmetry", fig, f"How the {nh if D.family == 'crates' else ''} deals of a game fall on the seats.")

    if not D.has_hands:
        _needs_hands(sec, "The effect of the position after the dealer")
        return
    pos = cube_means(hand_cube(D), {"points": "points", "out": "out"}, by=["pos"])
    best = pos.sort_values("points", ascending=D.lower_is_better).iloc[0]
    names = {0: "dealer", 1: "dealer's left (plays first)"}
    pos_name = [names.get(int(p), f"{int(p)} after the dealer") for p in pos["pos"]]
    sec.table(pd.DataFrame({"position": pos_name, "mean hand points (95% CI)": ci_col(pos, "points", 2),
                            "hands gone out": ci_col(pos, "out", 1, pct=True)}),
              "By position after the dealer (all hand sizes)")
    sec.text(f"Best position: **{names.get(int(best['pos']), str(int(best['pos'])) + ' after the dealer')}** "
             f"with {ci_text(best['points'], best['points_lo'], best['points_hi'], 2)} points per hand.")
    ps = cube_means(hand_cube(D), {"points": "points"}, by=["size", "pos"])
    fig, ax = figure("Hand points by position after the dealer", "hand size (cards dealt)",
                     "mean hand points (points per seat)")
    for i, (p, part) in enumerate(ps.groupby("pos", sort=True)):
        lines_ci(ax, part["size"] + (i - D.players / 2) * 0.06, part["points"], part["points_lo"], part["points_hi"],
                 names.get(int(p), f"{int(p)} after dealer"), PALETTE[i % len(PALETTE)])
    ax.legend(title="position")
    sec.figure("position-by-size", fig, "Mean hand points by the seat's position after the dealer, per hand size, "
               "with 95% CIs (the dealer plays last).")
    pivot = ps.assign(cell=ci_col(ps, "points", 1)).pivot(index="size", columns="pos", values="cell").reset_index()
    pivot.columns = ["hand size"] + [names.get(int(c), f"{int(c)} after dealer") for c in pivot.columns[1:]]
    sec.table(pivot, "Mean hand points (95% CI) by hand size and position after the dealer")


def _two_panels(title, D):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 4.2), dpi=100)
    fig.suptitle(title, fontsize=11)
    for ax in axes:
        ax.grid(True, alpha=0.3)
    return fig, axes


# ------------------------------------------------------------------ game flow
def flow(doc: Document, D: Data):
    sec = doc.section("Game flow", "flow")
    m = D.manifest
    if not D.has_hands:
        capped = collect(D.games.group_by("game", *D.keys).agg(pl.col("capped_hands").max()).select(
            pl.col("capped_hands").sum()))[0, 0]
        hands_total = collect(D.games.group_by("game", *D.keys).agg(pl.col("hands").max()).select(pl.col("hands").sum()))[0, 0]
        ci = stats.proportion_ci(int(capped or 0), int(hands_total or 0))
        dead = int(m["dead_hands"])  # the engine's count, in every manifest
        dci = stats.proportion_ci(dead, int(hands_total or 0))
        rows = [{"end": "cap", "hands": num(int(capped or 0)), "share (Wilson 95% CI)": ci_text(ci.estimate, ci.lo, ci.hi, 3, pct=True)},
                {"end": "dead", "hands": num(dead), "share (Wilson 95% CI)": ci_text(dci.estimate, dci.lo, dci.hi, 3, pct=True)}]
        sec.table(pd.DataFrame(rows), "Capped and dead hands (always shown)")
        _needs_hands(sec, "Turns, plays and draws per hand and the full list of hand endings")
        return
    h = D.hands
    # turns is the same on every seat's row of a hand: its mean over rows is per hand
    per_hand = cube_means(hand_cube(D), {"plays": "plays", "draws": "draws"}, by=["size"], den="hands").merge(
        cube_means(hand_cube(D), {"turns": "turns"}, by=["size"]).drop(columns=["n", "clusters"]), on="size")
    sec.table(pd.DataFrame({"hand size": per_hand["size"], "turns per hand (95% CI)": ci_col(per_hand, "turns", 1),
                            "plays per hand": ci_col(per_hand, "plays", 1), "draws per hand": ci_col(per_hand, "draws", 1),
                            "hands": [num(int(n)) for n in per_hand["n"]]}),
              "Length of a hand (all seats together; turns = plays + draws + passes)")
    fig, ax = figure("Length of a hand", "hand size (cards dealt)", "per hand, all seats (count)")
    for i, name in enumerate(("turns", "plays", "draws")):
        lines_ci(ax, per_hand["size"], per_hand[name], per_hand[f"{name}_lo"], per_hand[f"{name}_hi"], name, PALETTE[i])
    ax.legend()
    sec.figure("hand-length", fig, "Mean turns, plays and draws per hand by hand size, with 95% CIs.")

    ends = collect(h.filter(pl.col("seat") == 0).group_by(pl.col("reason").cast(pl.String)).agg(pl.len().alias("n"))).to_pandas()
    counts = dict(zip(ends["reason"], ends["n"], strict=False))
    total = int(sum(counts.values()))
    rows, cis = [], []
    relevant = REASONS if D.family == "crates" else REASONS
    for r in relevant:
        k = int(counts.get(r, 0))
        ci = stats.proportion_ci(k, total)
        cis.append(ci)
        rows.append({"end": r, "hands": num(k), "share (Wilson 95% CI)": ci_text(ci.estimate, ci.lo, ci.hi, 3, pct=True)})
    sec.table(pd.DataFrame(rows), f"How hands end ({num(total)} hands; capped and dead hands always shown)")
    fig, ax = figure("How hands end", "end reason", "share of hands (%)")
    bars_ci(ax, list(relevant), [100 * c.estimate for c in cis], [100 * c.lo for c in cis], [100 * c.hi for c in cis],
            colors=[PALETTE[i % len(PALETTE)] for i in range(len(relevant))], label="share, Wilson 95% CI")
    for i, r in enumerate(relevant):
        ax.annotate(num(int(counts.get(r, 0))), (i, 100 * cis[i].hi), ha="center", va="bottom", fontsize=8)
    ax.legend()
    sec.figure("hand-endings", fig, "Share of hands by end reason (numbers are counts): out, count_back (a count "
               "drawn ended it), dead (no cards left to draw), cap (turn limit), block (Crazy Eights).")
    capped, dead = int(counts.get("cap", 0)), int(counts.get("dead", 0))
    sec.text(f"**Capped hands**: {num(capped)}; **dead hands**: {num(dead)} of {num(total)}.")


# ------------------------------------------------------------------ the report
def build(D: Data) -> Document:
    doc = Document(f"Crates-sim report: {D.rules_spec}, {D.players} players, "
                   f"{num(int(D.manifest['games_done']))} games",
                   f"Dataset `{D.path}`. Brackets are 95% confidence intervals, over independent deals "
                   f"(docs/analysis.md).")
    doc.answers = summary_section(doc, D)
    overview(doc, D)
    hoarding(doc, D)
    pressures(doc, D)
    seats(doc, D)
    flow(doc, D)
    return doc


def report(path, out=None) -> dict:
    """Write the report of the dataset at `path`; returns the written paths."""
    D = load(path)
    out = Path(out) if out is not None else Path(path) / "report.html"
    doc = build(D)
    paths = doc.write(out)
    return {**paths, "document": doc, "answers": doc.answers}
