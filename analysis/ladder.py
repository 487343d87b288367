"""`crates ladder`: a skill ladder of one rule set (issue 23, as Ludii's SkillTrace and
TAG's SkillLadder do).

Contract: `ladder(rules, rungs, games, seed, out, ...)` plays `expert` with 1, 2, 4, ...
2**(rungs-1) samples per decision, each rung against the rung below in a duplicate
comparison (`crates compare`: the same deals, seats rotated), and returns one row per
rung: the upper rung's share of the two rungs' wins (its win share over the sum of
both, 50% = level) and the win-rate difference with its 95% CI and whether that CI misses 0
(`significant`; the win rate is the headline throughout, as in `crates compare`). The rungs that still
win at least 55% measure how much skill (search) the rule set rewards: a game of pure
luck stops climbing at once, a game of skill keeps rewarding more search.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from crates_sim.errors import CratesError

#: a rung "still wins" when its share of the two rungs' wins is at least this
WINS = 0.55


def rung_spec(samples: int, base: str = "expert") -> str:
    """The spec of the rung with `samples` deals per decision."""
    return f"{base}:samples={samples}"


def ladder(rules, rungs: int, games: int, seed: int, out, workers=None, echo=print,
           base: str = "expert") -> pd.DataFrame:
    """Play the ladder (module docstring); writes OUT/ladder.csv, OUT/ladder.json and each
    rung's comparison under OUT/rung-K/. Returns the rungs' table."""
    from .compare import compare

    if rungs < 1:
        raise CratesError("--rungs must be at least 1")
    if games < 2:
        raise CratesError("--games must be at least 2")
    out = Path(out)
    rows = []
    for k in range(1, rungs + 1):
        lower, upper = rung_spec(2 ** (k - 1), base), rung_spec(2 ** k, base)
        res = compare(rules, [upper, lower], games, seed + k, out / f"rung-{k}", workers=workers,
                      echo=echo)
        pair = res["pairs"].iloc[0]
        rank = res["ranking"].set_index("strategy")
        w_up, w_low = float(rank.loc[upper, "win"]), float(rank.loc[lower, "win"])
        share = w_up / (w_up + w_low) if w_up + w_low > 0 else 0.5
        rows.append({"rung": k, "upper": upper, "lower": lower, "deals": int(res["games"]),
                     "share": share, "win_diff": float(pair["win_diff"]),
                     "win_lo": float(pair["win_lo"]), "win_hi": float(pair["win_hi"]),
                     "significant": bool(pair["win_significant"]), "wins": share >= WINS, "seconds": round(res["wall"], 1)})
        echo(f"  rung {k}: {upper} vs {lower}: {100 * share:.1f}% of the wins, difference "
             f"{100 * pair['win_diff']:+.1f} points [{100 * pair['win_lo']:+.1f}, "
             f"{100 * pair['win_hi']:+.1f}] ({res['wall']:.0f} s)")
    table = pd.DataFrame(rows)
    table.to_csv(out / "ladder.csv", index=False)
    summary = {"preset": rules.preset_name, "players": rules.players,
               "partnerships": rules.partnerships, "seed": seed, "games": games,
               "rungs_winning": int(table["wins"].sum()), "threshold": WINS,
               "rungs": table.to_dict("records")}
    (out / "ladder.json").write_text(json.dumps(summary, indent=1, default=float))
    return table
