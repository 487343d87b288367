"""The designer's questions answered in words, first (issue 39 §1).

Contract: `answers(table, diffs, labels, games, skill_games)` gives one plain sentence per
question of `QUESTIONS` (fairness, length, pressures, luck and skill, drama and
comebacks): the base's figure with its 95% CI and unit, then per variant either the
change (claimed under the false-discovery control of `balance.false_discovery`) or "no
detectable change at N games: ±X unit" (X: the half-width of the difference's 95% CI).
`knob_lines(diffs, names, games)` says per knob value how many measures it moves
detectably and the largest of them, the knobs that change the game most first. Inputs
are `crates balance`'s measures and differences tables (measure, group, est/diff, lo, hi,
claimed); values are shown on the glossary's scale (`glossary.shown`).
"""

from __future__ import annotations

import math

import pandas as pd

from .glossary import entry, shown
from .render import decimals_for, human

#: question -> the (measure, group) pairs that answer it, the first the headline
QUESTIONS = (
    ("Fairness", (("first_player", ""), ("balance", ""), ("seat_win", None))),
    ("Length", (("duration", "turns"), ("duration", "hands"), ("turns", ""))),
    ("Pressures", (("pressures", ""),)),
    ("Luck and skill", (("skill_gap", "greedy"), ("skill_gap", "random"), ("luck", "strategy"),
                        ("luck", "deal"))),
    ("Drama and comebacks", (("comeback", ""), ("lead_changes", "per_game"), ("drama", "robust"))),
)
#: measures of a group the sentence names only where a variant moves them (seats)
ONLY_IF_CLAIMED = {("seat_win", None)}
#: the measures a knob's line names at most
PER_KNOB = 3


def half_width_text(measure: str, group: str, lo: float, hi: float) -> str:
    """`±X unit` of a difference's 95% CI."""
    t = entry(measure, group)
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return "no CI"
    w = (hi - lo) / 2 * t.mult
    u = t.delta_unit
    return f"±{human(w, decimals_for(w, w))}{'' if not u or u.startswith('%') else ' '}{u}"


def change_clause(d, games: int, unit: str = "games") -> str:
    """One variant's difference for a sentence: the change, or that none is detectable."""
    if bool(d.get("tail_decided", False)):
        return (f"under {d['variant']}, no verdict: a few games with doubling pressures decide "
                f"{entry(d['measure'], d['group']).name} (its robust companion is the measure to read)")
    if bool(d.get("claimed", False)):
        word = "higher" if d["diff"] > 0 else "lower"
        return (f"under {d['variant']} it is {word}: "
                f"{shown(d['measure'], d['group'], d['diff'], d['lo'], d['hi'], diff=True)}")
    return (f"under {d['variant']}, no detectable change at {games:,} {unit}: "
            f"{half_width_text(d['measure'], d['group'], d['lo'], d['hi'])}")


def _sign_note(measure: str, family: str) -> str:
    if measure == "first_player":
        return " (0 is fair; negative is an advantage, as lower scores win)" if family == "crates" else \
            " (0 is fair; positive is an advantage, as higher scores win)"
    if measure == "balance":
        return " (1: every seat wins equally often)"
    if measure == "skill_gap":
        return " (the strong player's win rate minus the weaker one's on the same deals)"
    return ""


def answers(table: pd.DataFrame, diffs: pd.DataFrame, labels: list[str], games: int,
            skill_games: int | None = None, family: str = "crates") -> list[str]:
    """One sentence per question (module doc), as Markdown bullets."""
    base = table[table["variant"] == labels[0]]
    out = []
    for question, keys in QUESTIONS:
        clauses = []
        for measure, group in keys:
            rows = base[base["measure"] == measure]
            if group is not None:
                rows = rows[rows["group"] == group]
            if rows.empty:
                continue
            if (measure, group) in ONLY_IF_CLAIMED:
                moved = diffs[(diffs["measure"] == measure) & diffs["claimed"]] if "claimed" in diffs else diffs[:0]
                clauses += [f"{entry(measure, r['group']).name}: {change_clause(r, games)}"
                            for r in moved.to_dict("records")]
                continue
            r = rows.iloc[0]
            d = diffs[(diffs["measure"] == measure) & (diffs["group"] == group)]
            if r["lo"] == r["hi"] and (d["diff"] == 0).all():
                continue  # the same in every game (15 hands in Crates): nothing to say
            skill = measure == "skill_gap" and skill_games
            n, unit = (skill_games, "deals") if skill else (games, "games")
            text = (f"{entry(measure, group).name} under {labels[0]} is "
                    f"{shown(measure, group, r['est'], r['lo'], r['hi'])}{_sign_note(measure, family)}")
            changes = [change_clause(x, n, unit) for x in d.to_dict("records")]
            clauses.append(text + ("; " + "; ".join(changes) if changes else ""))
        if clauses:
            body = ". ".join(c[0].upper() + c[1:] for c in clauses)
            out.append(f"**{question}.** {body}.")
    return out


def _answers(measure: str, group: str) -> bool:
    """Whether (measure, group) answers one of the designer's questions (named first)."""
    return any(m == measure and g in (None, group) for _, keys in QUESTIONS for m, g in keys)


def knob_lines(diffs: pd.DataFrame, names: dict, games: int) -> list[str]:
    """Per knob value (names: variant label -> `knob=value`), what it changes detectably,
    in words; the knob values that move the most measures first."""
    lines = []
    for label, part in diffs.groupby("variant", sort=False):
        name = names.get(label, label)
        tested = int(part["q"].notna().sum()) if "q" in part else len(part)
        hits = part[part["claimed"]] if "claimed" in part else part.iloc[0:0]
        if hits.empty:
            lines.append((0, f"**{name}**: no detectable change in any of its {tested} measures at {games:,} "
                             f"games."))
            continue
        first = [not _answers(m, g) for m, g in zip(hits["measure"], hits["group"], strict=True)]
        order = hits.assign(_rest=first).sort_values(["_rest", "p"] if "p" in hits else ["_rest"])
        top = order.drop(columns="_rest").head(PER_KNOB)
        said = "; ".join(f"{entry(r['measure'], r['group']).name} "
                         f"{shown(r['measure'], r['group'], r['diff'], r['lo'], r['hi'], diff=True)}"
                         for r in top.to_dict("records"))
        more = f" (and {len(hits) - len(top)} more)" if len(hits) > len(top) else ""
        lines.append((len(hits), f"**{name}** changes {len(hits)} of {tested} measures detectably: {said}{more}."))
    lines.sort(key=lambda x: -x[0])
    return [t for _, t in lines]
