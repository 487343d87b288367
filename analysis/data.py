"""Opening a dataset (of simulate, compare or balance) for analysis: lazy polars frames and the manifest.

The manifest is read through `crates_sim.data.dataset.read_manifest`, so every dataset has the
one schema of `crates_sim.data.manifest`; datasets that compare/balance wrote before that schema
are refused with one line (rerun the command to remake them).

Nothing here loads a dataset whole: `games` and `hands` are `polars.LazyFrame` scans of the
Parquet files, and `cluster_means` aggregates them down to one small row per cluster of
games before any statistics are computed (see `analysis.stats.ratio_ci`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl

from crates_sim.data.dataset import MANIFEST, read_manifest
from crates_sim.errors import CratesError
from crates_sim.rules import Rules

from . import stats

#: Games are grouped into at most this many clusters (game % CLUSTERS) for the intervals.
CLUSTERS = 1000
#: The polars engine for heavy collects (streams the Parquet scans in batches).
ENGINE = "streaming"


def collect(lf: pl.LazyFrame) -> pl.DataFrame:
    return lf.collect(engine=ENGINE)


@dataclass
class Data:
    """An opened dataset: lazy frames, manifest and what the analysis needs to know."""

    path: Path
    manifest: dict
    games: pl.LazyFrame
    hands: pl.LazyFrame | None
    players: int
    #: strategy spec per seat; empty where the strategies rotate over the seats
    strategies: list
    rules: Rules
    preset: str
    #: extra key columns that, with `game`, identify one game (e.g. ["rotation"])
    keys: list = field(default_factory=list)
    #: seat -> strategy, for grouping hands/ (which has no strategy column) by strategy
    seat_strategy: dict | None = None

    @property
    def family(self) -> str:
        return self.rules.family

    @property
    def lower_is_better(self) -> bool:
        return self.family == "crates"

    @property
    def partnerships(self) -> bool:
        return self.rules.partnerships

    @property
    def game_keys(self) -> list:
        return ["game", *self.keys]

    @property
    def has_hands(self) -> bool:
        return self.hands is not None

    @property
    def rules_spec(self) -> str:
        return self.rules.describe()


def _rules_from_manifest(m: dict, where) -> Rules:
    """The Rules of a manifest (every knob is in its `rules`); one line if they do not load."""
    try:
        return Rules.preset(m["preset"], m["players"], **m["rules"])
    except (CratesError, TypeError, ValueError) as exc:
        raise CratesError(f"{where}: its rules ({m.get('rules_spec')}) do not load in this version: "
                          f"{exc}") from None


def _parquet_files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("*.parquet") if not p.name.startswith("."))


def load(path) -> Data:
    """Open the dataset in directory `path`; a bad path is a one-line `CratesError`."""
    path = Path(path)
    if not path.exists():
        raise CratesError(f"{path}: no such directory")
    if not path.is_dir():
        raise CratesError(f"{path} is a file, not a dataset directory (give the --out folder of `crates simulate`)")
    mpath = path / MANIFEST
    if not mpath.is_file():
        raise CratesError(f"{path} is not a crates-sim dataset (no manifest.json); "
                          f"make one with `crates simulate --out {path}`")
    manifest = read_manifest(path)  # the one schema (crates_sim.data.manifest), or one line
    game_files = _parquet_files(path / "games")
    if not game_files:
        raise CratesError(f"{path} has no games/*.parquet: the run has not finished a chunk yet")
    hand_files = _parquet_files(path / "hands")
    games = pl.scan_parquet([str(p) for p in game_files])
    hands = pl.scan_parquet([str(p) for p in hand_files]) if hand_files else None
    names = games.collect_schema().names()
    missing = {"game", "seat", "total", "win"} - set(names)
    if missing:
        raise CratesError(f"{path}/games lacks the columns {', '.join(sorted(missing))}: not a crates-sim dataset")
    players = manifest["players"]
    rules = _rules_from_manifest(manifest, mpath)
    preset = manifest["preset"]
    # strategies per seat only where the seating is fixed (one rotation)
    strategies = list(manifest["strategies"]) if len(manifest["rotations"]) == 1 else []
    if "saturated" not in names:  # datasets from before the points ceiling
        games = games.with_columns(saturated=pl.lit(False))
    keys = [k for k in ("rotation",) if k in names]
    partners = rules.partnerships
    if hands is not None:
        hnames = hands.collect_schema().names()
        if "team" not in hnames:
            hands = hands.with_columns(team=pl.col("seat") % 2 if partners else pl.col("seat"))
    data = Data(path, manifest, games, hands, players, strategies, rules, preset, keys)
    if hands is not None and "strategy" not in hands.collect_schema().names() and strategies:
        # hands/ has no strategy column: group by seat and map (cheaper than a string column)
        data.seat_strategy = dict(enumerate(strategies))
    return data


def saturated_games(D: "Data") -> tuple[int, int]:
    """(games with a total at the points ceiling, games): such totals stand for "at least
    2**62" (docs/rules.md), so their score means are lower bounds; wins are exact."""
    counts = D.games.group_by(D.game_keys).agg(pl.col("saturated").any()).select(
        pl.col("saturated").sum().alias("k"), pl.len().alias("n")).collect()
    return int(counts["k"][0] or 0), int(counts["n"][0] or 0)


# ------------------------------------------------------------------ aggregation
def cluster_expr() -> pl.Expr:
    return (pl.col("game") % CLUSTERS).alias("_cluster")


def cluster_means(lf: pl.LazyFrame, values: dict, by: list | tuple = (), count: pl.Expr | None = None,
                  scale: float = 1.0, conf: float = 0.95, seat_strategy: dict | None = None) -> pd.DataFrame:
    """Means of expressions over the rows of `lf`, per group of `by`, with cluster CIs.

    values: name -> polars expression evaluated per row (e.g. pl.col("points")).
    count: the denominator per row (default: every row counts 1), e.g. one per game.
    scale: multiplies estimates and intervals (e.g. players, for a per-hand total).
    seat_strategy: seat -> strategy; when `by` has "strategy" and `lf` lacks that column, the
    rows are grouped by seat and the per-cluster sums of the seats of a strategy added up.
    Returns a pandas frame: the `by` columns, then for each value `name`, `name_lo`,
    `name_hi`, `name_se`, and `n` (rows) and `clusters`; sorted by `by`.
    """
    by = list(by)
    count = pl.len() if count is None else count.sum()
    aggs = [expr.cast(pl.Float64).sum().alias(f"{name}__s") for name, expr in values.items()]
    query = by
    mapped = bool(seat_strategy) and "strategy" in by and "strategy" not in lf.collect_schema().names()
    if mapped:
        query = ["seat" if b == "strategy" else b for b in by]
    small = collect(lf.group_by([*query, cluster_expr()]).agg(*aggs, count.cast(pl.Float64).alias("__n"),
                                                             pl.len().alias("__rows"))).to_pandas()
    if mapped:
        small["strategy"] = small["seat"].map(seat_strategy)
        small = small.drop(columns="seat").groupby([*by, "_cluster"], as_index=False, observed=True).sum()
    rows = []
    groups = small.groupby(by, sort=True, observed=True) if by else [((), small)]
    for key, part in groups:
        key = key if isinstance(key, tuple) else (key,)
        row = dict(zip(by, key, strict=False))
        for name in values:
            ci = stats.ratio_ci(part[f"{name}__s"].to_numpy(), part["__n"].to_numpy(), conf)
            row[name], row[f"{name}_lo"], row[f"{name}_hi"] = (ci.estimate * scale, ci.lo * scale, ci.hi * scale)
            row[f"{name}_se"] = ci.se * scale
        row["n"] = int(part["__rows"].sum())
        row["clusters"] = len(part)
        rows.append(row)
    out = pd.DataFrame(rows)
    return out.sort_values(by).reset_index(drop=True) if by and len(out) else out


def histogram(lf: pl.LazyFrame, column: str, by: list | tuple = (), width: float | None = None,
              bins: int = 40) -> pd.DataFrame:
    """Counts of `column` in equal-width bins (computed in polars), per group of `by`."""
    by = list(by)
    lo_hi = collect(lf.select(pl.col(column).min().alias("lo"), pl.col(column).max().alias("hi")))
    lo, hi = lo_hi["lo"][0], lo_hi["hi"][0]
    if lo is None:
        return pd.DataFrame(columns=[*by, "left", "width", "count", "share"])
    if width is None:
        span = max(float(hi - lo), 1.0)
        raw = span / bins
        mag = 10 ** np.floor(np.log10(raw))
        width = float(min((m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw), default=raw))
    start = np.floor(lo / width) * width
    counts = collect(lf.group_by([*by, ((pl.col(column) - start) / width).floor().alias("_bin")])
                     .agg(pl.len().alias("count"))).to_pandas()
    counts["left"] = start + counts["_bin"] * width
    counts["width"] = width
    total = counts.groupby(by, observed=True)["count"].transform("sum") if by else counts["count"].sum()
    counts["share"] = counts["count"] / total
    return counts.drop(columns="_bin").sort_values([*by, "left"]).reset_index(drop=True)


def nice_ceil(x: float) -> float:
    """The smallest of 1, 2, 2.5, 5 x 10^k at or above x (x > 0)."""
    if x <= 0:
        return 1.0
    mag = 10 ** np.floor(np.log10(x))
    return float(min(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= x * (1 - 1e-12)))


def clipped_histogram(lf: pl.LazyFrame, column: str, by: list | tuple = (), q: float = 0.99,
                      bins: int = 40):
    """A histogram readable under a heavy right tail: (counts, clip, tail).

    clip is a round number at or above the q-quantile of `column` (None when nothing lies
    beyond it); the bins cover the values up to clip, with shares of *all* rows; tail gives,
    per group of `by`, the share of rows above clip (`tail_share`) and their maximum.
    """
    by = list(by)
    row = collect(lf.select(pl.col(column).quantile(q).alias("q"), pl.col(column).max().alias("hi")))
    qv, hi = row["q"][0], row["hi"][0]
    clip = None if qv is None else nice_ceil(float(qv)) if qv > 0 else None
    if clip is None or hi <= clip:
        return histogram(lf, column, by, bins=bins), None, pd.DataFrame(columns=[*by, "tail_share", "max"])
    tail = collect(lf.group_by(by or pl.lit(0).alias("_all"))
                   .agg((pl.col(column) > clip).mean().alias("tail_share"), pl.col(column).max().alias("max"))
                   ).to_pandas().drop(columns=["_all"], errors="ignore")
    hist = histogram(lf.filter(pl.col(column) <= clip), column, by, bins=bins)
    if len(hist):
        if by:
            keep = hist.merge(tail, on=by, how="left")["tail_share"].fillna(0).to_numpy()
        else:
            keep = float(tail["tail_share"].iloc[0])
        hist["share"] = hist["share"] * (1 - keep)
    return hist, clip, tail.sort_values(by).reset_index(drop=True) if by else tail


# ------------------------------------------------------------------ one pass over hands/
def hand_cube(D: Data) -> pd.DataFrame:
    """Per-cluster sums of the hands/ measures by seat x size x pos, in one scan (cached on D).

    The report derives most of its hands tables from this small frame (`cube_means`) instead
    of scanning a large hands/ dataset once per table.
    """
    cached = getattr(D, "_cube", None)
    if cached is not None:
        return cached
    c = pl.col
    caught = c("cards_left") > 0
    with3 = c("threes_left") > 0
    f = pl.Float64
    sums = {
        "points": c("points"), "out": c("out"), "threes": c("threes_left"),
        "home": c("home_run"), "held": with3, "pressures": c("pressures"), "pressure_points": c("pressure_points"),
        "turns": c("turns"), "plays": c("plays"), "draws": c("draws"), "deals": c("seat") == c("dealer"),
        "hand1": c("hand") == 1, "games": (c("hand") == 1) & (c("seat") == 0),
        "hands": c("seat") == 0,
        "c3n": caught & with3, "c3p": pl.when(caught & with3).then(c("points")).otherwise(0),
        "c0n": caught & ~with3, "c0p": pl.when(caught & ~with3).then(c("points")).otherwise(0),
        "first_gap": c("points").cast(f) * ((c("pos") == 1).cast(f) * D.players - 1) / D.players,
    }
    keys = ["seat", "size", "pos"]
    if "strategy" in D.hands.collect_schema().names() and D.seat_strategy is None:
        keys = ["strategy", *keys]
    cube = collect(D.hands.group_by([*keys, cluster_expr()]).agg(
        pl.len().cast(f).alias("rows"), *[e.cast(f).sum().alias(n) for n, e in sums.items()])).to_pandas()
    if "strategy" not in cube.columns and D.seat_strategy:
        cube["strategy"] = cube["seat"].map(D.seat_strategy)
    if "strategy" in cube.columns:
        cube["strategy"] = cube["strategy"].astype(str)
    D._cube = cube
    return cube


def cube_means(cube: pd.DataFrame, values: dict, by: list | tuple = (), den: str = "rows",
               scale: float = 1.0, conf: float = 0.95) -> pd.DataFrame:
    """Like `cluster_means`, from a `hand_cube`: values maps an output name to a cube column
    (the numerator), `den` names the denominator column."""
    by = list(by)
    small = cube.groupby([*by, "_cluster"], as_index=False, observed=True)[list(dict.fromkeys([*values.values(), den, "rows"]))].sum()
    rows = []
    groups = small.groupby(by, sort=True, observed=True) if by else [((), small)]
    for key, part in groups:
        key = key if isinstance(key, tuple) else (key,)
        row = dict(zip(by, key, strict=False))
        for name, col in values.items():
            ci = stats.ratio_ci(part[col].to_numpy(), part[den].to_numpy(), conf)
            row[name], row[f"{name}_lo"], row[f"{name}_hi"] = (ci.estimate * scale, ci.lo * scale, ci.hi * scale)
            row[f"{name}_se"] = ci.se * scale
        row["n"] = int(part[den].sum())
        row["clusters"] = len(part)
        rows.append(row)
    out = pd.DataFrame(rows)
    return out.sort_values(by).reset_index(drop=True) if by and len(out) else out
