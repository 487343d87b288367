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
from crates_sim.rules import KNOBS, PRESETS, Rules

#: knobs left out of `--knobs all` and of the design space unless named: safety limits
SAFETY = ("max_hands", "max_turns_per_hand")
#: the values a whole-number or rank-set knob is tried at (one step from the base)
TRIED = {
    "spare_three": (0, 1, 5, 10),
    "hand_size": (3, 5, 7, 9),
    "target_score": (50, 150, 250),
    "max_hands": (10, 50),
    "max_turns_per_hand": (100, 300),
    "remove_ranks": ("K", "QK"),
}
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


def knob_values(base: str, knob: str, players: int) -> list:
    """The values `knob` is tried at, its base value left out."""
    rules = Rules.preset(base, players)
    current = rules.knobs[knob]
    kind = KNOBS[knob][1]
    if isinstance(kind, tuple):
        values = list(kind)
    elif kind is bool:
        values = [not current]
    else:
        values = list(TRIED.get(knob, ()))
    return [v for v in values if str(v) != str(current)]


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
    """knobs.csv: one row per knob value x measure (key or key:group): diff, lo, hi against the base."""
    by_label = {lab: (k, v) for lab, (k, v, _) in zip(labels[1:], variants, strict=True)}
    rows = []
    for _, d in diffs.iterrows():
        knob, value = by_label[d["variant"]]
        measure = d["measure"] + (f":{d['group']}" if d["group"] else "")
        rows.append({"knob": knob, "value": value, "measure": measure, "diff": d["diff"], "lo": d["lo"],
                     "hi": d["hi"]})
    return pd.DataFrame(rows, columns=["knob", "value", "measure", "diff", "lo", "hi"])


def marked(table: pd.DataFrame) -> pd.Series:
    """True where the 95% CI of the difference excludes 0."""
    return (table["lo"] > 0) | (table["hi"] < 0)


#: the measures the headline names the strongest knobs of, in this order
HEADLINE = ("first_player", "balance", "duration:turns", "turns", "decisions:share", "decisions:branching",
            "lead_changes:per_game", "decisive_hand:share", "drama:share", "comeback", "pressures",
            "skill_gap:greedy", "skill_gap:random", "luck:strategy")


def headline(table: pd.DataFrame, base_est: dict, per: int = 2) -> list[str]:
    """Per headline measure, the `per` knob values with the largest marked effect (CI
    excluding 0), with the base's value."""
    t = table[marked(table)]
    if t.empty:
        return ["No knob moves any measure beyond its 95% CI."]
    lines = []
    for m in HEADLINE:
        part = t[t["measure"] == m]
        if part.empty:
            continue
        top = part.reindex(part["diff"].abs().sort_values(ascending=False).index).head(per)
        effects = "; ".join(f"{r['knob']}={r['value']} {r['diff']:+.3g} [{r['lo']:+.3g}, {r['hi']:+.3g}]"
                            for _, r in top.iterrows())
        lines.append(f"{m} (base {base_est.get(m, float('nan')):.3g}): {effects}")
    return lines or ["No headline measure moves beyond its 95% CI."]


def write_knobs(out, table: pd.DataFrame, base_label: str, measures: pd.DataFrame, info: str) -> dict:
    """knobs.csv and knobs.html (+ .md, PNG): the heat map of effect x measure, colour the
    difference as a share of the base's value, marked (x) where the CI excludes 0."""
    from .render import Document, figure

    out = Path(out)
    table.to_csv(out / "knobs.csv", index=False)
    base = measures[measures["variant"] == base_label]
    base_est = {m + (f":{g}" if g else ""): e for m, g, e in zip(base["measure"], base["group"], base["est"],
                                                                   strict=True)}
    rows = list(dict.fromkeys(f"{k}={v}" for k, v in zip(table["knob"], table["value"], strict=True)))
    cols = list(dict.fromkeys(table["measure"]))
    rel = np.full((len(rows), len(cols)), np.nan)
    sig = np.zeros((len(rows), len(cols)), dtype=bool)
    mk = marked(table).to_numpy()
    for i, (_, r) in enumerate(table.iterrows()):
        a, b = rows.index(f"{r['knob']}={r['value']}"), cols.index(r["measure"])
        scale = max(abs(base_est.get(r["measure"], 0.0)), 1e-9)
        rel[a, b] = r["diff"] / scale
        sig[a, b] = mk[i]
    doc = Document(f"What each knob does: one-step deviations from {base_label}", info)
    sec = doc.section("Headline effects", "headline")
    sec.bullets(headline(table, base_est))
    fig, ax = figure("Effect of each knob value on each measure", "measure", "knob value",
                     size=(max(8, 0.42 * len(cols) + 3), max(4, 0.32 * len(rows) + 2)))
    lim = 0.5
    im = ax.imshow(np.clip(np.nan_to_num(rel), -lim, lim), cmap="RdBu_r", vmin=-lim, vmax=lim, aspect="auto")
    ax.set_xticks(range(len(cols)))
    ax.set_xticklabels(cols, rotation=70, ha="right", fontsize=7)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(rows, fontsize=7)
    for a in range(len(rows)):
        for b in range(len(cols)):
            if sig[a, b]:
                strong = abs(np.nan_to_num(rel[a, b])) > 0.6 * lim
                ax.text(b, a, "x", ha="center", va="center", fontsize=7, color="white" if strong else "black")
    fig.colorbar(im, ax=ax, label="difference / base value (clipped at ±50%)")
    sec.figure("heatmap", fig, "Each cell: the knob value's difference from the base, as a share of the "
                                     "base's value; x marks a 95% CI that excludes 0.")
    shown = table.copy()
    shown["CI excludes 0"] = np.where(marked(table), "x", "")
    sec.table(shown, "Every knob value x measure (difference from the base, 95% CI)")
    return doc.write(out / "knobs.html")
