"""What each knob does: one-step deviations from a base preset (`crates balance --knobs`).

Contract: `knob_values(base, knob, players)` lists the values a knob is tried at (every
value of a categorical or true/false knob; a few representative ones of a number or a
rank set), `knob_variants` the variant specs for `--knobs all|K1,K2,...` (each knob moved
alone from the base, everything else as the base has it), and `knob_table` /
`write_knobs` turn `crates balance`'s differences into knobs.csv (knob, value, measure,
diff, lo, hi; measure is `key` or `key:group`) and knobs.html, a heat map of effect x
measure with the cells whose 95% CI excludes 0 marked. The design space of `crates
design` (`search_space`) is the same knobs, with ranges for the whole-number ones.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from crates_sim.errors import CratesError
from crates_sim.knob_space import SAFETY, TRIED, knob_values  # noqa: F401 (balance's names)
from crates_sim.rules import KNOBS, PRESETS, Rules

#: design ranges of the whole-number knobs: (low, high, step)
RANGES = {
    "spare_three": (0, 10, 1),
    "hand_size": (3, 10, 1),
    "target_score": (50, 300, 50),
    "max_hands": (10, 200, 10),
    "max_turns_per_hand": (50, 1000, 50),
}
REMOVE_CHOICES = ("", "K", "QK", "JQK")


def family_knobs(base: str) -> list[str]:
    """The knobs of the base preset's family, in `crates rules` order."""
    if base not in PRESETS:
        raise CratesError(f"--base: unknown preset {base!r}; presets: {', '.join(PRESETS)}")
    return list(PRESETS[base][2])


def parse_knobs(text: str, base: str) -> list[tuple[str, list | None]]:
    """`all` or `K1,K2=V1|V2,...` -> [(knob, explicit values or None)]; one line if a knob is
    unknown or not of the base's family."""
    known = family_knobs(base)
    if text.strip() == "all":
        return [(k, None) for k in known if k not in SAFETY]
    out = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        name, _, vals = part.partition("=")
        name = name.strip()
        if name not in KNOBS:
            raise CratesError(f"--knobs: unknown knob {name!r}; knobs of {base}: {', '.join(known)}")
        if name not in known:
            raise CratesError(f"--knobs: {name} does not apply to {base} (knobs: {', '.join(known)})")
        out.append((name, [v.strip() for v in vals.split("|")] if vals else None))
    if not out:
        raise CratesError("--knobs: give `all` or knob names, e.g. --knobs seven_target,out_rule")
    return out


def knob_variants(base: str, knobs: list[tuple[str, list | None]], players: int, echo=None):
    """[(knob, value, spec)] for every value of every knob; values the rules refuse at this
    player count (partnerships with 3 players ...) are skipped, with a line to `echo`."""
    out = []
    for knob, values in knobs:
        for v in (values if values is not None else knob_values(base, knob, players)):
            spec = f"{base}:{knob}={str(v).lower() if isinstance(v, bool) else v}"
            try:
                Rules.from_spec(spec, players)
            except CratesError as exc:
                if values is not None:
                    raise
                if echo:
                    echo(f"  skipped {knob}={v}: {exc}")
                continue
            out.append((knob, str(v).lower() if isinstance(v, bool) else str(v), spec))
    if not out:
        raise CratesError("--knobs: no knob value to try")
    return out


def knob_table(diffs: pd.DataFrame, variants: list[tuple[str, str, str]], labels: list[str]) -> pd.DataFrame:
    """knobs.csv: one row per knob value x measure (key or key:group): diff, lo, hi against the
    base, and where the differences carry them p, q (Benjamini–Hochberg over every knob value
    x measure) and claimed (q < 5%; `balance.false_discovery`)."""
    by_label = {lab: (k, v) for lab, (k, v, _) in zip(labels[1:], variants, strict=True)}
    extra = [c for c in ("p", "q", "claimed", "tail_decided") if c in diffs]
    rows = []
    for _, d in diffs.iterrows():
        knob, value = by_label[d["variant"]]
        measure = d["measure"] + (f":{d['group']}" if d["group"] else "")
        rows.append({"knob": knob, "value": value, "measure": measure, "diff": d["diff"], "lo": d["lo"],
                     "hi": d["hi"], **{c: d[c] for c in extra}})
    return pd.DataFrame(rows, columns=["knob", "value", "measure", "diff", "lo", "hi", *extra])


def marked(table: pd.DataFrame) -> pd.Series:
    """True where a difference is claimed under the false-discovery control (`claimed`), or,
    for a table without it, where its 95% CI excludes 0."""
    if "claimed" in table:
        return table["claimed"].astype(bool)
    return (table["lo"] > 0) | (table["hi"] < 0)


#: the measures the headline names the strongest knobs of, in this order (grouped by question)
HEADLINE = ("first_player", "balance", "duration:turns", "turns", "decisions:share", "decisions:branching",
            "lead_changes:per_game", "decisive_hand:share", "drama:robust", "comeback", "pressures",
            "skill_gap:greedy", "skill_gap:random", "luck:strategy")
#: the heat map's columns, by family of measure: (family, measures)
HEAT_FAMILIES = (("fairness", ("first_player", "balance")),
                 ("length", ("duration:turns", "turns")),
                 ("choices", ("decisions:share", "decisions:branching")),
                 ("pressures", ("pressures",)),
                 ("drama", ("lead_changes:per_game", "decisive_hand:share", "comeback", "drama:robust",
                            "spread:robust")),
                 ("skill", ("skill_gap:greedy", "skill_gap:random", "luck:strategy")))
#: the heat map's colour: the difference as a share of the base's value, clipped here
CLIP = 0.5
#: the heat map's widest size (inches at 100 dpi): the page's column, so it is shown unscaled at 1280 px
HEAT_WIDTH = 9.7
#: the heat map's colour of a cell with no detectable change
NO_CHANGE = "#e6e6e6"


def _split(measure: str) -> tuple[str, str]:
    key, _, group = measure.partition(":")
    return key, group


def headline(table: pd.DataFrame, base_est: dict, per: int = 2) -> list[str]:
    """Per headline measure, the `per` knob values with the largest claimed effect, with the
    base's value, in the glossary's units."""
    from .glossary import entry, shown

    t = table[marked(table)]
    if t.empty:
        return ["No knob moves any measure detectably (5% false-discovery rate over every knob value x measure)."]
    lines = []
    for m in HEADLINE:
        part = t[t["measure"] == m]
        if part.empty:
            continue
        key, group = _split(m)
        top = part.reindex(part["diff"].abs().sort_values(ascending=False).index).head(per)
        effects = "; ".join(f"{r['knob']}={r['value']} {shown(key, group, r['diff'], r['lo'], r['hi'], diff=True)}"
                            for _, r in top.iterrows())
        lines.append(f"{entry(key, group).name} (base {shown(key, group, base_est.get(m, float('nan')))}): "
                     f"{effects}")
    return lines or ["No headline measure moves detectably."]


def heat_map(table: pd.DataFrame, base_est: dict):
    """The heat map (matplotlib figure): rows the knob values grouped by knob, columns the
    headline measures grouped by family; colour the difference over the base's value
    (clipped at ±CLIP), x where claimed. Sized to be read at 1280 px without scaling."""
    import numpy as np

    from .glossary import entry
    from .render import figure

    present = set(table["measure"])
    cols = [(fam, m) for fam, ms in HEAT_FAMILIES for m in ms if m in present]
    rows = list(dict.fromkeys(zip(table["knob"], table["value"], strict=True)))
    rel = np.full((len(rows), len(cols)), np.nan)
    sig = np.zeros((len(rows), len(cols)), dtype=bool)
    index = {m: j for j, (_, m) in enumerate(cols)}
    mk = marked(table).to_numpy()
    for i, r in enumerate(table.to_dict("records")):
        if r["measure"] not in index:
            continue
        a, b = rows.index((r["knob"], r["value"])), index[r["measure"]]
        rel[a, b] = r["diff"] / max(abs(base_est.get(r["measure"], 0.0)), 1e-9)
        sig[a, b] = mk[i]
    fig, ax = figure("What each knob value does to each measure", "", "",
                     size=(min(HEAT_WIDTH, 0.5 * len(cols) + 3.4), max(4.5, 0.34 * len(rows) + 2.6)))
    import matplotlib

    # grey: no detectable change (the noise of a near-0 base is not coloured)
    cmap = matplotlib.colormaps["RdBu_r"].with_extremes(bad=NO_CHANGE)
    shade = np.ma.masked_invalid(np.where(sig, np.clip(rel, -CLIP, CLIP), np.nan))
    im = ax.imshow(shade, cmap=cmap, vmin=-CLIP, vmax=CLIP, aspect="auto")
    ax.grid(False)
    ax.set_xticks(range(len(cols)))
    ax.set_xticklabels([entry(*_split(m)).name for _, m in cols], rotation=40, ha="right", fontsize=10)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([f"{k}={v}" for k, v in rows], fontsize=10)
    for j in range(1, len(cols)):  # families apart
        if cols[j][0] != cols[j - 1][0]:
            ax.axvline(j - 0.5, color="black", lw=1.2)
    for i in range(1, len(rows)):  # knobs apart
        if rows[i][0] != rows[i - 1][0]:
            ax.axhline(i - 0.5, color="grey", lw=0.8)
    top = ax.secondary_xaxis("top")
    starts = {}
    for j, (fam, _) in enumerate(cols):
        starts.setdefault(fam, []).append(j)
    top.set_xticks([sum(v) / len(v) for v in starts.values()])
    top.set_xticklabels(list(starts), fontsize=10, fontweight="bold", rotation=25, ha="left")
    for a in range(len(rows)):
        for b in range(len(cols)):
            if sig[a, b]:
                strong = abs(np.nan_to_num(rel[a, b])) > 0.6 * CLIP
                ax.text(b, a, "x", ha="center", va="center", fontsize=11, fontweight="bold",
                        color="white" if strong else "black")
    fig.colorbar(im, ax=ax, label=f"difference / base value (clipped at ±{100 * CLIP:.0f}%)")
    return fig


def write_knobs(out, table: pd.DataFrame, base_label: str, measures: pd.DataFrame, info: str,
                games: int | None = None, who: list[str] | None = None) -> dict:
    """knobs.csv and knobs.html (+ .md, PNG): what each knob does in words, the heat map, the
    full table (human numbers, units, claimed), who measured skill (who: one line per rule
    set, `players.who_measured`) and the glossary."""
    from .glossary import entry, glossary_table, shown
    from .render import Document
    from .verdicts import knob_lines

    out = Path(out)
    table.to_csv(out / "knobs.csv", index=False)
    base = measures[measures["variant"] == base_label]
    base_est = {m + (f":{g}" if g else ""): e for m, g, e in zip(base["measure"], base["group"], base["est"],
                                                                   strict=True)}
    doc = Document(f"What each knob does: one-step deviations from {base_label}", info)
    sec = doc.section("What changes the game most", "words")
    split = table.assign(variant=[f"{k}={v}" for k, v in zip(table["knob"], table["value"], strict=True)],
                         group=[_split(m)[1] for m in table["measure"]])
    split["measure"] = [_split(m)[0] for m in table["measure"]]
    if "claimed" in split:
        sec.bullets(knob_lines(split, {}, games or 0))
        n = int(split["q"].notna().sum())
        sec.text(f"{n} differences tested (every knob value x measure); a change is called detectable only under a "
                 f"5% false-discovery rate across all of them (Benjamini–Hochberg). Measures that a few games with "
                 f"doubling pressures decide (the spread, drama in points and in spreads) are flagged, not tested: "
                 f"read their robust companions.")
    sec = doc.section("Headline effects", "headline")
    sec.bullets(headline(table, base_est))
    sec.figure("heatmap", heat_map(table, base_est),
               "Rows: knob values, grouped by knob; columns: measures, grouped by family. Only detectable "
               "changes (5% false-discovery rate, marked x) are coloured: red, the measure is higher than under "
               "the base, blue, lower, as a share of the base's value (the colour stops at "
               f"±{100 * CLIP:.0f}%); grey: no detectable change. Every measure is in the table below.")
    shown_t = pd.DataFrame({
        "knob": table["knob"], "value": table["value"],
        "measure": [entry(*_split(m)).name for m in table["measure"]],
        "difference from the base (95% CI)": [shown(*_split(m), d, lo, hi, diff=True) for m, d, lo, hi in
                                               zip(table["measure"], table["diff"], table["lo"], table["hi"],
                                                   strict=True)],
        "detectable": np.where(marked(table), "x", np.where(table["tail_decided"].astype(bool), "flagged: a few "
                                                            "games decide it", ""))
        if "tail_decided" in table else np.where(marked(table), "x", "")})
    sec.table(shown_t, "Every knob value x measure (difference from the base, 95% CI)")
    if who:
        sec = doc.section("Who measured skill", "who")
        sec.text("The skill gap is the strong player's win rate minus greedy's and random's on the same deals; "
                 "a player fitted to one rule set may lose ground under a knob value for its own reasons, not "
                 "the rule's. Per rule set, the players and whether each was validated there:")
        sec.bullets(who)
    sec = doc.section("Glossary", "glossary")
    sec.table(glossary_table(_split(m) for m in dict.fromkeys(table["measure"])), "Glossary")
    return doc.write(out / "knobs.html")
