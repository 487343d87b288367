"""`crates balance`: rule variants side by side (docs/analysis.md).

Each variant is played on the same game numbers and seed with the strategies rotated over
the seats (as in `crates compare`), written as a dataset under OUT/variants/<name>/, and
measured: seat and dealer-position advantage, first-player advantage, pressure rate,
hand length, dead and capped hands, the spread of final scores and a luck/skill index.
"""

from __future__ import annotations

import json
import math
import re
import shlex
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl

from crates_sim.errors import CratesError
from crates_sim.rules import Rules
from crates_sim.strategy import parse_strategies

from . import stats
from .blocks import labels_for, open_dataset, play, seating_plan
from .data import Data, cluster_means, collect, load, saturated_games
from .glossary import entry, glossary_table, shown
from .measures import DESIGNER_MEASURES, designer_measures
from .players import DEFAULT_STRONG, HELD_NOTE, held_across
from .render import PALETTE, Document, figure, num

JACKKNIFE_GROUPS = 20


@dataclass
class M:
    """One measured value of one variant."""

    measure: str  # key
    group: str  # "" or the seat / position / part
    est: float
    lo: float
    hi: float
    se: float


MEASURES = {
    "seat_win": ("Win share by seat", "win share (%)", 100, "seat"),
    "pos_points": ("Hand points by position after the dealer", "mean hand points (points per seat)", 1, "position after the dealer"),
    "first_player": ("First-player advantage", "first player's points − table mean (points per hand)", 1, ""),
    "pressures": ("Pressure rate", "pressures per game (count)", 1, ""),
    "turns": ("Hand length", "turns per hand (plays + draws + passes)", 1, ""),
    "ends": ("Dead and capped hands", "share of hands (%)", 100, "end"),
    "saturated": ("Games with a total at the points ceiling", "share of games (%)", 100, ""),
    "spread": ("Spread of final scores", "standard deviation of a final score below the points ceiling (points)", 1,
               "part"),
    "luck": ("Luck/skill index", "share of final-score variance (%)", 100, "part"),
    **DESIGNER_MEASURES,
}


def _from_frame(key, df, name, group_col=None, fmt=str) -> list[M]:
    out = []
    for _, row in df.iterrows():
        g = fmt(row[group_col]) if group_col else ""
        out.append(M(key, g, row[name], row[f"{name}_lo"], row[f"{name}_hi"], row[f"{name}_se"]))
    return out


def _wilson(key, group, k, n) -> M:
    ci = stats.proportion_ci(k, n)
    return M(key, group, ci.estimate, ci.lo, ci.hi, ci.se)


def luck_skill(D: Data) -> dict:
    """Variance shares of a final score: strategy (skill), seat, deal, and the rest (luck of the play).

    Rows are seats (teams with partnerships: one row per team); the deal is the cards of one
    seat in one game (game x seat), repeated once per rotation. Factors enter in that order
    (sequential sums of squares) with the small-group correction of
    `stats.variance_decomposition(adjusted=True)`. CIs by jackknife over 20 groups of deals.
    """
    g = D.games
    if D.partnerships:
        g = g.filter(pl.col("seat") < 2)
    keys = ["game", *D.keys]
    who = "entry" if "entry" in g.collect_schema().names() else "strategy"
    df = collect(g.select(*keys, "seat", pl.col(who).cast(pl.String).alias("who"), "total"))
    y = df["total"].to_numpy().astype(float)
    game = df["game"].to_numpy()
    seat = df["seat"].to_numpy()
    # the cards a seat gets are fixed by (game, seat): the deal factor is that cell
    cell = game * 64 + seat
    facs = {"strategy": df["who"].to_numpy(), "seat": seat, "deal": cell}
    if len(np.unique(cell)) == len(cell):  # one rotation: the deal cannot be told from the play
        facs.pop("deal")
    full = stats.variance_decomposition(y, facs, adjusted=True)
    grp = game % JACKKNIFE_GROUPS
    k = len(np.unique(grp))
    reps = []
    if k >= 3:
        for j in np.unique(grp):
            keep = grp != j
            reps.append(stats.variance_decomposition(y[keep], {n: v[keep] for n, v in facs.items()}, adjusted=True))
    out = {}
    q = stats.t_quantile(0.95, max(k - 1, 1))
    for name in ("strategy", "seat", "deal", "residual"):
        if name not in full:
            continue
        est = full[name]
        if reps:
            vals = np.array([r[name] for r in reps])
            se = math.sqrt((k - 1) / k * ((vals - vals.mean()) ** 2).sum())
        else:
            se = float("nan")
        out[name] = M("luck", name, est, max(0.0, est - q * se), min(1.0, est + q * se), se)
    return out


def measure(D: Data, ideal=None) -> list[M]:
    """Every balance measure of one variant's dataset (skill_gap aside: `measures.skill_gap`
    plays games of its own); ideal: (lo, hi) turns per game for duration's in_band."""
    res: list[M] = []
    P = D.players
    g = D.games
    per_game = collect(g.select(pl.col("win").sum() / pl.struct("game", *D.keys).n_unique())).item()
    res += _from_frame("seat_win", cluster_means(g, {"w": pl.col("win") / per_game}, by=["seat"]), "w", "seat",
                       lambda v: str(int(v)))
    h = D.hands
    res += _from_frame("pos_points", cluster_means(h, {"p": pl.col("points")}, by=["pos"]), "p", "pos",
                       lambda v: str(int(v)))
    fp = cluster_means(h, {"f": pl.col("points").cast(pl.Float64) * ((pl.col("pos") == 1).cast(pl.Float64) * P - 1) / P},
                       scale=P)
    res += _from_frame("first_player", fp, "f")
    first = (pl.col("hand") == 1) & (pl.col("seat") == 0)
    res += _from_frame("pressures", cluster_means(h, {"p": pl.col("pressures")}, count=first), "p")
    res += _from_frame("turns", cluster_means(h, {"t": pl.col("turns")}), "t")
    ends = collect(h.filter(pl.col("seat") == 0).group_by(pl.col("reason").cast(pl.String)).agg(pl.len().alias("n")))
    counts = dict(zip(ends["reason"].to_list(), ends["n"].to_list(), strict=True))
    n = sum(counts.values())
    res += [_wilson("ends", r, counts.get(r, 0), n) for r in ("dead", "cap")]
    sat, n_games = saturated_games(D)
    res.append(_wilson("saturated", "", sat, n_games))
    # the spread of final scores, over the games whose totals are exact (below the ceiling)
    gs = g.filter(pl.col("seat") < 2) if D.partnerships else g
    gs = gs.filter(~pl.col("saturated"))
    mean = collect(gs.select(pl.col("total").cast(pl.Float64).mean())).item()
    var = cluster_means(gs, {"v": (pl.col("total").cast(pl.Float64) - mean) ** 2})
    v, vlo, vhi, vse = (float(var[c][0]) for c in ("v", "v_lo", "v_hi", "v_se"))
    sd = math.sqrt(max(v, 0))
    res.append(M("spread", "", sd, math.sqrt(max(vlo, 0)), math.sqrt(max(vhi, 0)), vse / (2 * sd) if sd else 0.0))
    res += spread_companions(gs)
    res += list(luck_skill(D).values())
    res += [M(**r) for r in designer_measures(D, ideal)]
    return res


def spread_companions(gs) -> list[M]:
    """The spread's robust companion (the trimmed mean distance of a final score from the
    median, bootstrap CI) and its tail share (the 1% most extreme games' part of the sum of
    squares): a few games with doubling pressures can decide the spread (issue 39 §3)."""
    from .measures import robust_ci, tail_row

    totals = collect(gs.select(pl.col("total").cast(pl.Float64)))["total"].to_numpy()
    if not len(totals):
        return []
    dist = np.abs(totals - np.median(totals))
    ci = robust_ci(dist)
    return [M("spread", "robust", ci.estimate, ci.lo, ci.hi, ci.se),
            M(**tail_row("spread", (totals - totals.mean()) ** 2))]


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._=+-]+", "_", text).strip("._") or "variant"


FAMILY_WORDS = {"crates": "Crates, lower scores win", "eights": "Crazy Eights, higher scores win"}


def check_variants(variants: list[str], rules: list[Rules]) -> None:
    """Refuse what cannot be compared: one variant, or variants of both families."""
    if len(variants) < 2:
        raise CratesError(f"--variants: {variants[0] if variants else 'one variant'} alone has nothing "
                          f"to compare: give two or more (e.g. --variants classic,league), or run one "
                          f"rule set with `crates simulate` and `crates report`")
    families = {r.family for r in rules}
    if len(families) > 1:
        by = {f: next(v for v, r in zip(variants, rules, strict=True) if r.family == f) for f in families}
        parts = [f"{by[f]} is {FAMILY_WORDS.get(f, f)}" for f in sorted(families)]
        raise CratesError(f"--variants mixes game families ({'; '.join(parts)}): their measures are not "
                          f"comparable, so run one `crates balance` per family")


def strategy_specs(strategies) -> list[str]:
    specs = [s.strip() for s in (strategies.split(",") if isinstance(strategies, str) else strategies) if s.strip()]
    if not specs:
        raise CratesError("give at least one strategy")
    for spec in specs:
        parse_strategies(spec, 1)  # validates the name
    return specs


def command(variants, players, specs, games, seed, out, scheduler, extra=()) -> str:
    """The `crates balance` command line of this run (each variant manifest's `command`);
    extra: the designer's options as given (--ideal-turns, --strong, --skill-games, --knobs)."""
    # a --knobs run names its variants by its knobs (extra), not by --variants
    named = [] if "--knobs" in extra else ["--preset", ",".join(variants)]
    args = ["crates", "balance", *named, "--players", str(players),
            "--strategies", ",".join(specs), "--games", str(games), "--seed", str(seed), "--out", str(out)]
    if scheduler:
        args += ["--scheduler", scheduler]
    return shlex.join([*args, *extra])


def balance(variants: list[str], players: int, strategies, games: int, seed: int, out,
            workers: int | None = None, echo=print, scheduler: str | None = None, ideal=None,
            strong: str = DEFAULT_STRONG, skill_games: int | None = None, extra=()) -> dict:
    """Play each variant on the same deals and measure it; write OUT/ (docs/analysis.md).

    ideal: (lo, hi) turns per game (duration's in_band). skill_gap: `strong` against greedy
    and against random on skill_games duplicate deals per variant (default games // 4;
    0: not measured), seed as the variants' deals.

    strategies: one spec (every seat plays it), one spec per seat (that seating, rotated so
    every strategy plays from every seat), or fewer specs rotated over the seats (two with
    partnerships: one per team). Refused before anything is written: fewer than two
    variants, variants of both game families, strategies that do not fit a variant.
    """
    if games < 2:
        raise CratesError("--games must be at least 2")
    if not variants:
        raise CratesError("give at least two variants, e.g. --variants classic,league")
    rules = [Rules.from_spec(v, players) for v in variants]
    check_variants(variants, rules)
    labels = labels_for([r.describe() if ":" in v else v for v, r in zip(variants, rules, strict=True)])
    specs = strategy_specs(strategies)
    given = (specs, strong)
    specs, strong = [held_across(s, rules) for s in specs], held_across(strong, rules)
    if (specs, strong) != given:
        echo(f"  {HELD_NOTE}")
    plans = [seating_plan(specs, r.players, r.partnerships) for r in rules]  # validates before running
    out = Path(out)
    root = out / "variants"
    if root.exists() and any(root.rglob("*.parquet")):
        raise CratesError(f"{out} already holds balance results: give another --out")
    cmd = command(variants, players, given[0], games, seed, out, scheduler, extra)
    skill_games = max(games // 4, 2) if skill_games is None else skill_games
    if skill_games:
        parse_strategies(strong, 1)
        if skill_games < 2:
            raise CratesError("--skill-games must be 0 (no skill_gap) or at least 2")
    t0 = time.perf_counter()
    timing = {"play": 0.0, "measure": 0.0, "skill": 0.0}
    rows = []
    for label, r, (entries, entry_specs, plan) in zip(labels, rules, plans, strict=True):
        vdir = root / _slug(label)
        echo(f"  {label}: {num(games)} games x {len(plan)} rotation(s)")
        t1 = time.perf_counter()
        with open_dataset(vdir, r, entry_specs, plan, seed, "hands", "balance", cmd, entries) as writer:
            play(r, entry_specs, seed, 0, games, vdir, "hands", workers, scheduler=scheduler, writer=writer,
                 plan=plan)
        t2 = time.perf_counter()
        D = load(vdir)
        for m in measure(D, ideal):
            rows.append({"variant": label, **m.__dict__})
        t3 = time.perf_counter()
        if skill_games:
            echo(f"  {label}: skill_gap, {strong} against greedy and random on {num(skill_games)} deals")
            for m in skill_rows(r, strong, skill_games, seed, workers, scheduler):
                rows.append({"variant": label, **m})
        timing["play"] += t2 - t1
        timing["measure"] += t3 - t2
        timing["skill"] += time.perf_counter() - t3
    table = pd.DataFrame(rows)
    diffs = differences(table, labels)
    table.to_csv(out / "measures.csv", index=False)
    diffs.to_csv(out / "differences.csv", index=False)
    shown = list(dict.fromkeys(specs))
    result = {"measures": table, "differences": diffs, "labels": labels, "strategies": shown, "games": games,
              "seed": seed, "players": players, "wall": time.perf_counter() - t0, "timing": timing,
              "strong": strong, "skill_games": skill_games, "command": cmd, "rules": rules,
              "held": (specs, strong) != given,
              "family": rules[0].family,
              "seating": "every seat" if len(shown) == 1 else "rotated over the seats"}
    (out / "balance.json").write_text(json.dumps(
        {"variants": labels, "players": players, "strategies": specs, "games": games, "seed": seed,
         "command": cmd, "measures": table.to_dict("records"), "differences": diffs.to_dict("records"),
         "summary": summary_lines(diffs)}, indent=1, default=float))
    doc = document(result)
    result["paths"] = doc.write(out / "balance.html")
    result["document"] = doc
    return result


def skill_rows(rules, strong: str, games: int, seed: int, workers=None, scheduler=None) -> list[dict]:
    """skill_gap rows of one variant (`measures.skill_gap`), on local workers or Dask."""
    from crates_sim.runs.runner import available_cpus, make_backend

    from .measures import skill_gap

    with make_backend(scheduler, None if scheduler else (workers or available_cpus())) as backend:
        return skill_gap(rules, strong, games, seed, backend)


def differences(table: pd.DataFrame, labels: list[str]) -> pd.DataFrame:
    """Each variant minus the first, per measure and group, with a normal 95% CI.

    The variants are played on the same deals, which correlates their results positively,
    so treating them as independent makes these intervals conservative (wider).
    """
    base = table[table["variant"] == labels[0]].set_index(["measure", "group"])
    rows = []
    z = stats.z_quantile(0.95)
    for label in labels[1:]:
        other = table[table["variant"] == label].set_index(["measure", "group"])
        for key in other.index:
            if key not in base.index:
                continue
            a, b = other.loc[key], base.loc[key]
            d = float(a["est"] - b["est"])
            se = math.sqrt(float(a["se"]) ** 2 + float(b["se"]) ** 2) if np.isfinite(a["se"]) and np.isfinite(b["se"]) else float("nan")
            rows.append({"variant": label, "baseline": labels[0], "measure": key[0], "group": key[1], "diff": d,
                         "lo": d - z * se, "hi": d + z * se, "se": se,
                         "z": abs(d) / se if se and np.isfinite(se) else (0.0 if d == 0 else float("inf"))})
    cols = ["variant", "baseline", "measure", "group", "diff", "lo", "hi", "se", "z"]
    out = pd.DataFrame(rows, columns=cols)
    out["tail_decided"] = [tail_decided(table, labels[0], v, m, g)
                           for v, m, g in zip(out["variant"], out["measure"], out["group"], strict=True)]
    return false_discovery(out)


#: heavy-tailed (measure, group) -> the tail row that says whether a few games decide it
TAIL_OF = {("spread", ""): "spread", ("drama", "share"): "spread", ("drama", "points"): "drama"}


def tail_decided(table: pd.DataFrame, base: str, variant: str, measure: str, group: str) -> bool:
    """Whether the 1% most extreme games make up more than half of this heavy-tailed measure
    in the base or the variant (`measures.TAIL_DECIDES`): then it is flagged, not tested."""
    from .measures import TAIL_DECIDES

    of = TAIL_OF.get((measure, group))
    if of is None:
        return False
    t = table[(table["measure"] == "tail") & (table["group"] == of) & table["variant"].isin([base, variant])]
    return bool((t["est"] > TAIL_DECIDES).any())


#: the false-discovery rate the summary's claims are held to (Benjamini–Hochberg)
FDR = 0.05


def false_discovery(diffs: pd.DataFrame, rate: float = FDR) -> pd.DataFrame:
    """diffs with `p` (two-sided, normal), `q` (Benjamini–Hochberg adjusted over every
    difference tested: every measure x variant with a finite standard error) and `claimed`
    (q < rate). A difference without a standard error (a flag such as the tail share, or
    the same value in every game), or one that a few games decide (`tail_decided`), is not
    tested: p and q are NaN."""
    from scipy.stats import false_discovery_control, norm

    out = diffs.copy()
    se = out["se"].to_numpy(dtype=float) if len(out) else np.zeros(0)
    d = out["diff"].to_numpy(dtype=float) if len(out) else np.zeros(0)
    tested = np.isfinite(se) & (se > 0) & np.isfinite(d)
    if "tail_decided" in out:
        tested &= ~out["tail_decided"].to_numpy(dtype=bool)
    p = np.full(len(out), np.nan)
    p[tested] = 2 * norm.sf(np.abs(d[tested]) / se[tested])
    q = np.full(len(out), np.nan)
    if tested.any():
        q[tested] = false_discovery_control(p[tested], method="bh")
    out["p"], out["q"] = p, q
    out["claimed"] = np.nan_to_num(q, nan=1.0) < rate
    return out


def tested_count(diffs: pd.DataFrame) -> int:
    """How many differences the false-discovery control covered."""
    return int(np.isfinite(diffs["q"]).sum()) if "q" in diffs else 0


def multiplicity_line(diffs: pd.DataFrame) -> str:
    """What the summary's claims are held to, and how many differences were tested."""
    if diffs.empty:
        return "No difference tested."
    if "q" not in diffs:
        diffs = false_discovery(diffs)
    n = tested_count(diffs)
    k = int(diffs["claimed"].sum())
    variants = diffs["variant"].nunique()
    return (f"{n} differences tested ({n // max(variants, 1)} measures x {variants} "
            f"variant{'s' if variants > 1 else ''} against {diffs['baseline'].iloc[0]}); a difference is claimed "
            f"only under a {100 * FDR:.0f}% false-discovery rate across all of them (Benjamini–Hochberg): "
            f"{k} claimed. A 95% CI that misses 0 is not enough on its own: among {n} true nulls about "
            f"{0.05 * n:.1f} would.")


#: (measure, group) -> what it is, for a person; "{g}" is the group (a seat, a position, ...)
PLAIN = {
    ("seat_win", None): "seat {g}'s share of the wins",
    ("pos_points", None): "the mean hand points of the player {g} seats after the dealer",
    ("pos_points", "0"): "the dealer's mean hand points",
    ("pos_points", "1"): "the mean hand points of the first player (the dealer's left)",
    ("first_player", ""): "the first player's edge (hand points against the table's mean)",
    ("pressures", ""): "the number of pressures per game",
    ("turns", ""): "the number of turns per hand",
    ("ends", "dead"): "the share of hands that end dead (no cards left to draw)",
    ("ends", "cap"): "the share of hands stopped at the turn limit",
    ("saturated", ""): "the share of games with a total at the points ceiling",
    ("spread", ""): "the spread (standard deviation) of final scores",
    ("spread", "robust"): "the robust spread of final scores (trimmed mean distance from the median)",
    ("drama", "robust"): "the winner's worst deficit during the game (10% trimmed mean, points)",
    ("tail", None): "the share of the {g} measure made by the 1% most extreme games",
    ("luck", "strategy"): "the share of a final score's variance due to the strategies (skill)",
    ("luck", "seat"): "the share of a final score's variance due to the seat",
    ("luck", "deal"): "the share of a final score's variance due to the cards dealt (luck)",
    ("luck", "residual"): "the share of a final score's variance due to the luck of the play",
    ("balance", ""): "the balance between seats (1 − the widest gap between seats' win rates)",
    ("decisions", "share"): "the share of moves with a real choice",
    ("decisions", "branching"): "the number of options per move",
    ("lead_changes", "per_game"): "the number of lead changes per game",
    ("lead_changes", "per_hand"): "the chance that the lead changes after a hand",
    ("decisive_hand", "share"): "how far into the game (share of its hands) the winner is settled",
    ("decisive_hand", "hand"): "the hand after which the winner is settled",
    ("drama", "points"): "the winner's worst deficit during the game (points)",
    ("drama", "share"): "the winner's worst deficit during the game (in SDs of final totals)",
    ("comeback", ""): "the share of games won from behind at mid-game",
    ("duration", "turns"): "the number of turns per game",
    ("duration", "turns_sd"): "the spread (SD) of the turns per game",
    ("duration", "hands"): "the number of hands per game",
    ("duration", "hands_sd"): "the spread (SD) of the hands per game",
    ("duration", "in_band"): "the share of games whose length is in the ideal band",
    ("skill_gap", None): "how much more often the strong player wins against {g}",
}


def plain_name(measure: str, group: str) -> str:
    """What a (measure, group) of the tables is, in words for a person (no internal keys)."""
    text = PLAIN.get((measure, group)) or PLAIN.get((measure, None))
    if text is None:
        title, _unit, _mult, gname = MEASURES.get(measure, (measure.replace("_", " "), "", 1, ""))
        text = title.lower() + (f" ({gname} {group})" if group else "")
    return text.format(g=group)


def _describe(row) -> str:
    what = plain_name(row["measure"], row["group"])
    d = shown(row["measure"], row["group"], row["diff"], row["lo"], row["hi"], diff=True)
    direction = "higher" if row["diff"] > 0 else "lower"
    return (f"Under **{row['variant']}**, {what} is {direction} than under {row['baseline']}: "
            f"{d} (95% CI).")


def summary_lines(diffs: pd.DataFrame, top: int = 6) -> list[str]:
    """The summary: the differences from the first variant claimed under the false-discovery
    control (`false_discovery`; not merely a 95% CI that misses 0), the clearest first, each
    one plain sentence."""
    if diffs.empty:
        return ["Only one variant: nothing to compare."]
    if "claimed" not in diffs:
        diffs = false_discovery(diffs)
    sig = diffs[diffs["claimed"]]
    if sig.empty:
        return [f"No measure differs detectably between the variants ({tested_count(diffs)} differences tested, "
                f"false-discovery rate {100 * FDR:.0f}%)."]
    return [_describe(r) for _, r in sig.sort_values("z", ascending=False).head(top).iterrows()]


def document(result: dict) -> Document:
    """balance.html: the answers in words first, the claims and what they are held to, who
    measured skill, every measure per variant (human numbers, units), the glossary, then a
    section per measure."""
    from . import verdicts
    from .players import who_measured

    labels, table, diffs = result["labels"], result["measures"], result["differences"]
    doc = Document(f"Rule variants side by side: {', '.join(labels)} ({result['players']} players)",
                   f"{num(result['games'])} games per variant (seed {result['seed']}; the same deals for every "
                   f"variant that deals the same cards), strategies {', '.join(result['strategies'])} "
                   f"{'at every seat' if result.get('seating') == 'every seat' else 'rotated over the seats'}. "
                   f"Brackets are 95% CIs; differences are against {labels[0]}."
                   + (f" Skill gap: {result['strong']} against greedy and random on {num(result['skill_games'])} "
                      f"duplicate deals per variant." if result.get("skill_games") else "")
                   + (f" {HELD_NOTE[0].upper()}{HELD_NOTE[1:]}." if result.get("held") else "")
                   + (f" Made by `{result['command']}` (to run it again, give another --out)." if result.get("command") else ""))
    sec = doc.section("The answers", "answers")
    sec.bullets(verdicts.answers(table, diffs, labels, result["games"], result.get("skill_games"),
                                 result.get("family", "crates")))
    sec.text(multiplicity_line(diffs))
    flagged = diffs[diffs["tail_decided"]] if "tail_decided" in diffs else diffs[:0]
    if not flagged.empty:
        names = sorted({entry(m, g).name for m, g in zip(flagged["measure"], flagged["group"], strict=True)})
        sec.note(f"Decided by a few games: {', '.join(names)}. In {', '.join(sorted(set(flagged['variant'])))} "
                 f"or {labels[0]} the 1% most extreme games make up more than half of it (a run of doubling "
                 f"pressures), so it is flagged and not tested; read its robust companion (spread, robust; "
                 f"drama, robust) instead.")
    sec = doc.section("Summary: the detectable differences", "summary")
    sec.bullets(summary_lines(diffs))
    if result.get("skill_games") and result.get("rules"):
        sec = doc.section("Who measured skill", "who")
        sec.text(f"The skill gap is {result['strong']}'s win rate minus greedy's and random's on the same deals. "
                 f"A player that learned or was tuned on one rule set may lose ground under another for its own "
                 f"reasons, not the rule's; per rule set, the players and whether each was validated there:")
        sec.bullets(who_measured(result["strong"], ("greedy", "random"), dict(zip(labels, result["rules"],
                                                                                   strict=True))))
    wide = []
    for key in MEASURES:
        part = table[table["measure"] == key]
        for grp, rows in part.groupby("group", sort=False):
            t = entry(key, grp)
            line = {"measure": t.name, "unit": t.unit}
            for _, r in rows.iterrows():
                line[r["variant"]] = shown(key, grp, r["est"], r["lo"], r["hi"], unit=False)
            wide.append(line)
    sec = doc.section("Every measure", "measures")
    sec.table(pd.DataFrame(wide), "Every measure per variant (95% CI), in the unit of its row")
    sec = doc.section("Glossary", "glossary")
    sec.text("What each measure means, its unit and its sign convention. The CSVs (measures.csv, "
             "differences.csv) keep full precision: shares as fractions (0.39 = 39%), skill_gap in points "
             "of win rate.")
    sec.table(glossary_table(zip(table["measure"], table["group"], strict=True)), "Glossary")
    for key, (title, unit, mult, gname) in MEASURES.items():
        part = table[table["measure"] == key]
        if part.empty:
            continue
        s = doc.section(title, key)
        groups = list(dict.fromkeys(part["group"]))
        fig, ax = figure(f"{title} by variant", gname or "variant", unit)
        if key == "luck":
            bottom = np.zeros(len(labels))
            for i, grp in enumerate(groups):
                vals = np.array([float(part[(part["variant"] == v) & (part["group"] == grp)]["est"].sum()) * mult
                                 for v in labels])
                ax.bar(labels, vals, bottom=bottom, color=PALETTE[i % len(PALETTE)],
                       label={"strategy": "strategy (skill)", "deal": "deal (luck of the cards)", "seat": "seat",
                              "residual": "the rest (luck of the play)"}[grp])
                bottom += vals
            ax.set_xlabel("variant")
            ax.legend(fontsize=8)
        else:
            width = 0.8 / len(labels)
            xs = np.arange(len(groups))
            for i, v in enumerate(labels):
                rows = part[part["variant"] == v].set_index("group").reindex(groups)
                est, lo, hi = (rows[c].to_numpy(dtype=float) * mult for c in ("est", "lo", "hi"))
                ax.bar(xs + (i - (len(labels) - 1) / 2) * width, est, width=width, color=PALETTE[i % len(PALETTE)],
                       label=v, yerr=np.vstack([np.nan_to_num(est - lo), np.nan_to_num(hi - est)]), capsize=3)
            ax.set_xticks(xs)
            ax.set_xticklabels(groups if gname else [""] * len(groups))
            ax.legend(title="variant", fontsize=8)
        s.figure(key.replace("_", "-"), fig, f"{title}, the variants side by side (error bars: 95% CIs).")
        d = diffs[diffs["measure"] == key]
        if not d.empty:
            s.table(pd.DataFrame({
                "variant": d["variant"], "measure": [entry(key, g).name for g in d["group"]],
                f"difference vs {labels[0]} (95% CI)": [shown(key, g, a, b, c, diff=True) for g, a, b, c in
                                                         zip(d["group"], d["diff"], d["lo"], d["hi"], strict=True)],
                "claimed (5% FDR)": ["flagged: tail" if t else "yes" if c else "no"
                                     for c, t in zip(d["claimed"], d["tail_decided"], strict=True)]}),
                    f"Difference from {labels[0]}")
    return doc
