"""What every measure of `crates balance`, `--knobs` and `crates design` means, on one scale.

Contract: `entry(measure, group)` gives a measure's `Term`: its meaning, its unit as a page
shows it, the multiplier from the stored value (measures.csv, knobs.csv, design.csv keep
full precision: shares as fractions, skill_gap in points of win rate) to the shown one,
the unit of a difference, its sign convention and fair value where one exists, and
whether a few games with doubling pressures can decide it (`heavy`). `shown(...)` formats
a value or a difference with its CI for a page (`render.ci_human`); `glossary_table(...)`
is the glossary a page carries for the measures it shows.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from .render import ci_human

PCT = 100.0


@dataclass(frozen=True)
class Term:
    """One measure (or one part of it) for a person."""

    name: str  # short name, as a table row
    meaning: str
    unit: str  # of a value as shown
    mult: float = 1.0  # stored value -> shown value
    diff_unit: str = ""  # of a difference as shown (default: unit)
    convention: str = ""  # sign convention, fair value
    heavy: bool = False  # a few games with doubling pressures can decide it

    @property
    def delta_unit(self) -> str:
        return self.diff_unit or self.unit


_WIN = ("Crates: lower scores win, so a negative figure is an advantage; Crazy Eights: higher scores win, "
        "so a positive one is.")
_HEAVY = ("heavy-tailed: a few games with long runs of doubling pressures (the k-th costs 5·2^(k−1)) can "
          "decide it; read it with its robust companion")

#: (measure, group or None for every group) -> Term
TERMS = {
    ("seat_win", None): Term("win share of seat {g}", "the share of the games seat {g} wins (ties split; both "
                             "partners win with partnerships)", "% of games", PCT, "percentage points",
                             "fair: 100/players % a seat (25% with 4 players)"),
    ("pos_points", None): Term("hand points, {g} after the dealer", "mean hand points of the player {g} seats "
                               "after the dealer (0: the dealer, who plays last; 1: the first player)",
                               "points a hand", convention=_WIN),
    ("first_player", ""): Term("first-player advantage", "the first player's (the dealer's left) hand points "
                               "minus the table's mean in the same hand", "points a hand",
                               convention="0 is fair. " + _WIN),
    ("pressures", ""): Term("pressure rate", "pressures (draws from an empty stock) per game, all seats "
                            "together", "pressures a game"),
    ("turns", ""): Term("hand length", "turns per hand (plays + draws + passes)", "turns a hand"),
    ("ends", "dead"): Term("dead hands", "the share of hands that end dead (no card left to draw)",
                           "% of hands", PCT, "percentage points"),
    ("ends", "cap"): Term("capped hands", "the share of hands stopped at the turn limit", "% of hands", PCT,
                          "percentage points"),
    ("saturated", ""): Term("games at the points ceiling", "the share of games in which a total reached 2^62",
                            "% of games", PCT, "percentage points"),
    ("spread", ""): Term("spread of final scores", "the standard deviation of a seat's (a team's with "
                         "partnerships) final score", "points", heavy=True, convention=_HEAVY),
    ("spread", "robust"): Term("spread, robust", "the 10% trimmed mean of |final score − median final score| "
                               "(the typical distance from the middle; the rare huge games cut)", "points",
                               convention="the robust companion of the spread"),
    ("luck", "strategy"): Term("variance share: skill", "the share of a final score's variance explained by "
                               "the strategies (skill)", "% of variance", PCT, "percentage points"),
    ("luck", "seat"): Term("variance share: seat", "the share of a final score's variance explained by the "
                           "seat", "% of variance", PCT, "percentage points"),
    ("luck", "deal"): Term("variance share: deal", "the share of a final score's variance explained by the "
                           "cards dealt (luck of the deal)", "% of variance", PCT, "percentage points"),
    ("luck", "residual"): Term("variance share: the rest", "the share of a final score's variance left to the "
                               "luck of the play (draws, the others' choices)", "% of variance", PCT,
                               "percentage points"),
    ("balance", ""): Term("balance", "1 − (the largest − the smallest seat win rate), on a 0-1 scale", "",
                          convention="1 is perfectly balanced"),
    ("decisions", "share"): Term("moves with a choice", "the share of move points with more than one legal "
                                 "option", "% of moves", PCT, "percentage points"),
    ("decisions", "branching"): Term("options per move", "the mean number of legal options per move point",
                                     "options a move"),
    ("lead_changes", "per_game"): Term("lead changes per game", "how often the leader (the best running "
                                       "total alone) changes in a game", "changes a game"),
    ("lead_changes", "per_hand"): Term("lead changes per hand", "the chance that the lead changes after a "
                                       "hand (after the first)", "% of hands", PCT, "percentage points"),
    ("decisive_hand", "share"): Term("decisive hand, share", "how far into the game the winner takes the lead "
                                     "for good", "% of the game", PCT, "percentage points",
                                     "lower: settled early; 100%: settled in the last hand"),
    ("decisive_hand", "hand"): Term("decisive hand", "the hand after which the winner leads to the end",
                                    "hand number"),
    ("drama", "points"): Term("drama, points", "the winner's worst deficit to the leader during the game",
                              "points", heavy=True, convention="higher: more drama. " + _HEAVY),
    ("drama", "share"): Term("drama, in spreads", "the winner's worst deficit in units of the spread of final "
                             "scores", "spreads", heavy=True, convention="higher: more drama. " + _HEAVY),
    ("drama", "robust"): Term("drama, robust", "the 10% trimmed mean of the winner's worst deficit", "points",
                              convention="the robust companion of drama"),
    ("comeback", ""): Term("comebacks", "the share of games won by a seat (team) behind the leader after the "
                           "middle hand", "% of games", PCT, "percentage points"),
    ("duration", "turns"): Term("turns per game", "turns (plays + draws + passes) per game", "turns a game"),
    ("duration", "turns_sd"): Term("turns per game, SD", "the standard deviation of the turns per game",
                                   "turns"),
    ("duration", "hands"): Term("hands per game", "hands per game", "hands a game"),
    ("duration", "hands_sd"): Term("hands per game, SD", "the standard deviation of the hands per game", "hands"),
    ("duration", "in_band"): Term("games in the ideal band", "the share of games whose turns lie in "
                                  "--ideal-turns", "% of games", PCT, "percentage points"),
    ("skill_gap", None): Term("skill gap against {g}", "the strong player's win rate minus {g}'s on the same "
                              "deals (duplicate games, seats rotated)", "points of win rate",
                              convention="0: no skill shows; 100: the strong player always wins"),
    ("tail", None): Term("tail share of {g}", "the share of the {g} measure that the 1% most extreme games "
                         "make up", "% of the measure", PCT, "percentage points",
                         "above 50%: a few games decide the measure"),
}


def entry(measure: str, group: str = "") -> Term:
    """The Term of (measure, group); a plain fallback for a measure without one."""
    t = TERMS.get((measure, group)) or TERMS.get((measure, None))
    if t is None:
        return Term(measure.replace("_", " ") + (f" ({group})" if group else ""), measure.replace("_", " "), "")
    g = str(group).replace("_", " ")
    return Term(t.name.format(g=g), t.meaning.format(g=g), t.unit, t.mult, t.diff_unit, t.convention, t.heavy)


def shown(measure: str, group: str, est, lo=None, hi=None, diff: bool = False, unit: bool = True) -> str:
    """A value (or, with diff, a signed difference) with its CI and unit, as a page shows it."""
    t = entry(measure, group)
    text = ci_human(est, lo if lo is not None else float("nan"), hi if hi is not None else float("nan"),
                    signed=diff, mult=t.mult)
    u = t.delta_unit if diff else t.unit
    if not unit or not u or text == "–":
        return text
    return f"{text}{'' if u.startswith('%') else ' '}{u}"


def glossary_table(keys) -> pd.DataFrame:
    """The glossary of the (measure, group) pairs given, in their order, once each."""
    rows = []
    for m, g in dict.fromkeys((m, g) for m, g in keys):
        t = entry(m, g)
        rows.append({"measure": t.name, "key": m + (f":{g}" if g else ""), "meaning": t.meaning, "unit": t.unit,
                     "sign, fair value, caveat": t.convention})
    return pd.DataFrame(rows)
