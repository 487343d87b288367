"""`crates compare --tables ...`: one duplicate comparison per table, and one table of
their results (issue 38: a player's strength on every preset, player count and knob set).

Contract: `compare_tables(tables, strategies, games, seed, out, ...)` runs `compare` on
each rule set into OUT/TT-<preset>-<players>p[-p|-i], table TT with seed `seed + TT`
(fresh deals for every table), and writes OUT/tables.csv: per table and per pair of the
first strategy against each other one, the win-rate difference (points of win rate,
95% CI), the deals, the seed, the µs per turn of each (with `cost`), and the
`crates compare` command that plays that table alone. A table whose folder holds a
finished comparison is read back, not played again (an interrupted run resumes).
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from crates_sim.errors import CratesError

TABLE_COLUMNS = ("table", "rules", "players", "partnerships", "seed", "deals", "a", "b",
                 "win_diff", "win_lo", "win_hi", "us_a", "us_b", "command")


def folder_name(index: int, rules) -> str:
    """The table's subfolder: its index, preset, players and partnership setting."""
    side = ("-p" if rules.partnerships else "-i") if rules.family == "crates" and rules.players == 4 else ""
    return f"{index:02d}-{rules.preset_name}-{rules.players}p{side}"


def table_command(rules, strategies, games, seed, out, cost) -> str:
    """The `crates compare` command line that plays one table of the run alone."""
    from crates_sim.knob_space import spec

    extra = f" --cost {cost}" if cost else ""
    return (f"crates compare {spec(rules)} --strategies {','.join(strategies)} --games {games} "
            f"--seed {seed}{extra} --out {out}")


def compare_tables(tables, strategies, games, seed, out, workers=None, cost=0, echo=print,
                   scheduler=None) -> pd.DataFrame:
    """Compare `strategies` on every rule set of `tables` (see the module doc); returns the
    rows of OUT/tables.csv."""
    from crates_sim.analysis.compare import compare, cost_per_turn

    if not tables:
        raise CratesError("--tables: no tables to compare on")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for i, rules in enumerate(tables):
        folder = out / folder_name(i, rules)
        summary = folder / "compare.json"
        table_seed = seed + i
        if summary.is_file():
            data = json.loads(summary.read_text())
            pairs = pd.DataFrame(data["pairs"])
            costs = data.get("cost_us_per_turn", {})
            deals = data.get("games", games)
        else:
            res = compare(rules, strategies, games, table_seed, folder, workers=workers,
                          echo=lambda s: None, scheduler=scheduler)
            pairs, deals = res["pairs"], res["games"]
            costs = cost_per_turn(rules, strategies, cost, table_seed) if cost else {}
            if costs:
                data = json.loads(summary.read_text())
                data["cost_us_per_turn"] = costs
                summary.write_text(json.dumps(data, indent=1, default=float))
        for p in pairs.to_dict("records"):
            if strategies[0] not in (p["a"], p["b"]):
                continue
            sign = 1.0 if p["a"] == strategies[0] else -1.0
            lo, hi = sorted((sign * p["win_lo"], sign * p["win_hi"]))
            other = p["b"] if sign > 0 else p["a"]
            rows.append({"table": folder.name, "rules": rules.describe(), "players": rules.players,
                         "partnerships": rules.partnerships, "seed": table_seed, "deals": deals,
                         "a": strategies[0], "b": other, "win_diff": 100 * sign * p["win_diff"],
                         "win_lo": 100 * lo, "win_hi": 100 * hi,
                         "us_a": costs.get(strategies[0]), "us_b": costs.get(other),
                         "command": table_command(rules, strategies, games, table_seed,
                                                  folder, cost)})
            r = rows[-1]
            echo(f"{folder.name:<28} {r['a']} − {r['b']}: {r['win_diff']:+.1f} "
                 f"[{r['win_lo']:+.1f}, {r['win_hi']:+.1f}] points of win rate, {deals:,} deals")
    table = pd.DataFrame(rows, columns=list(TABLE_COLUMNS))
    table.to_csv(out / "tables.csv", index=False)
    return table
