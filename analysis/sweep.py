"""`crates sweep`: one or two strategy parameters over a grid, each point a duplicate
comparison against a baseline (docs/analysis.md).

Every grid point plays the same deals (games 0..G-1 of the seed) once per rotation of
(point, baseline) over the seats, exactly as `crates compare` does (`play.play`), and is
summarised by `compare.paired_measures`: the mean score difference, the robust (trimmed
mean) score difference and the win-rate difference, point − baseline, each with its CI.

Layout of OUT::

    OUT/sweep.json                 what the sweep is (checked on a rerun) and its state
    OUT/points/NNN/                point NNN's dataset (made_by "sweep"), and
    OUT/points/NNN/per_deal.parquet  its per-deal summary, written last: the point is done
    OUT/sweep.csv, sweep.html (+ .md, PNGs)

A rerun of the same command skips every point whose per_deal.parquet and complete
manifest exist; a point interrupted half-way is removed and played again.
"""

from __future__ import annotations

import json
import math
import os
import shlex
import shutil
import time
from dataclasses import dataclass
from itertools import product
from pathlib import Path

import numpy as np
import pandas as pd

from crates_sim.data.dataset import MANIFEST, read_manifest, tmp_path, write_json_atomic
from crates_sim.data.progress import Progress
from crates_sim.errors import CratesError, did_you_mean
from crates_sim.strategy import BUILTINS, parse_spec

from .blocks import labels_for, open_dataset, play, read_stored, rotations
from .compare import ROBUST_NAME, _arrays, difference_columns, paired_measures
from .render import PALETTE, Document, ci_text, figure, lines_ci, num

STATE = "sweep.json"
KIND = "crates sweep"
COLUMNS = ("n_deals", "diff", "diff_lo", "diff_hi", "robust", "robust_lo", "robust_hi",
           "win_diff", "win_lo", "win_hi")
FORM = "STRATEGY:PARAM=LOW..HIGH:N, e.g. weights:w3=-60..60:13"


@dataclass(frozen=True)
class Axis:
    param: str
    values: tuple


def _known(name):
    if isinstance(name, tuple):
        from crates_sim.userstrat import declared_parameters, load_function

        return f"{name[0]}:{name[1]}", declared_parameters(load_function(*name)[2])
    return name, BUILTINS[name][2]


def _number(text: str, spec: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise CratesError(f"grid {spec!r}: {what} {text!r} is not a number (write {FORM})") from None
    if not math.isfinite(value):
        raise CratesError(f"grid {spec!r}: {what} must be a finite number")
    return value


def parse_axis(spec: str) -> tuple[str, Axis]:
    """`weights:w3=-60..60:13` -> ("weights", Axis("w3", (-60, -50, ..., 60))), checked
    against the strategy's declared parameters and their ranges. The strategy part may fix
    other parameters (`weights:w5=2:w3=-60..60:13`) or name a user's function
    (`bots.py:cautious:risk=0..1:5`)."""
    parts = spec.strip().rsplit(":", 2)
    if len(parts) != 3 or "=" not in parts[1] or ".." not in parts[1]:
        raise CratesError(f"grid {spec!r}: write {FORM}")
    base, middle, count = (p.strip() for p in parts)
    param, _, span = middle.partition("=")
    param = param.strip()
    low_text, _, high_text = span.partition("..")
    low, high = _number(low_text, spec, "LOW"), _number(high_text, spec, "HIGH")
    try:
        n = int(count)
    except ValueError:
        raise CratesError(f"grid {spec!r}: N {count!r} is not a whole number (write {FORM})") from None
    if n < 2:
        raise CratesError(f"grid {spec!r}: N must be at least 2 (the two ends)")
    if n > 1000:
        raise CratesError(f"grid {spec!r}: N={n} points is too many (at most 1000)")
    if not low < high:
        raise CratesError(f"grid {spec!r}: LOW must be below HIGH")
    name, fixed = parse_spec(base)
    shown, known = _known(name)
    if param not in known:
        raise CratesError(f"grid {spec!r}: strategy {shown} has no parameter {param!r}"
                          f"{did_you_mean(param, known)} "
                          f"(parameters: {', '.join(known) or 'none declared'})")
    if param in fixed:
        raise CratesError(f"grid {spec!r}: {param} is both fixed and swept")
    known[param].check(shown, param, low)
    known[param].check(shown, param, high)
    values = tuple(float(f"{v:.10g}") for v in np.linspace(low, high, n))
    if known[param].whole and any(v != int(v) for v in values):
        raise CratesError(f"grid {spec!r}: {param} takes whole numbers; choose N so that the "
                          f"step ({(high - low) / (n - 1):g}) is whole")
    return base, Axis(param, values)


def parse_grid(specs) -> tuple[str, list[Axis]]:
    """One or two axes of one strategy (two: their product)."""
    specs = [s for s in specs if s.strip()]
    if not specs:
        raise CratesError(f"give a grid: {FORM}")
    if len(specs) > 2:
        raise CratesError(f"give one or two grid specs, not {len(specs)}")
    parsed = [parse_axis(s) for s in specs]
    base = parsed[0][0]
    axes = [a for _, a in parsed]
    if len(parsed) == 2:
        if parse_spec(parsed[1][0]) != parse_spec(base):
            raise CratesError(f"a two-parameter grid sweeps one strategy: {parsed[0][0]!r} and "
                              f"{parsed[1][0]!r} differ")
        if axes[0].param == axes[1].param:
            raise CratesError(f"grid: {axes[0].param} is given twice")
    return base, axes


def point_spec(base: str, axes: list[Axis], values) -> str:
    return base + "".join(f":{a.param}={v:g}" for a, v in zip(axes, values, strict=True))


def command(rules, grid, against, games, seed, out, scheduler: str | None = None) -> str:
    args = ["crates", "sweep", *grid, "--against", against, "--preset", rules.preset_name,
            "--players", str(rules.players)]
    for key, value in rules.differences().items():
        args += ["--set", f"{key}={value}"]
    args += ["--games", str(games), "--seed", str(seed), "--out", str(out)]
    if scheduler:
        args += ["--scheduler", scheduler]
    return shlex.join(args)


def _identity(rules, grid, base, axes, against, games, seed) -> dict:
    return {"kind": KIND, "grid": list(grid), "strategy": base,
            "axes": {a.param: list(a.values) for a in axes}, "against": against,
            "rules": rules.to_dict(), "rules_spec": rules.describe(), "players": rules.players,
            "partnerships": bool(rules.partnerships), "games": games, "seed": seed}


def read_state(path: Path) -> dict:
    """A state file's JSON (sweep.json, tune.json); {} if it cannot be read."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def same_identity(old: dict, ident: dict) -> bool:
    return {k: old.get(k) for k in ident} == ident


def saved_state(out: Path, name: str, ident: dict, overwrite: bool, kind: str, describe, clear) -> dict | None:
    """The saved state OUT/name of this run (None: a fresh start), as tune and design keep
    it; refuse (one line, nothing written) another run's folder (`describe(old)` says what
    it holds) or a foreign folder; for --overwrite, remove the files matching `clear`."""
    state = out / name
    if state.exists():
        old = read_state(state)
        if not old and not overwrite:  # cut short or half copied: what it held cannot be known
            raise CratesError(f"{state} is damaged (not readable JSON): give --overwrite to start the "
                              f"{kind} again, or another --out")
        if same_identity(old, ident):
            return old
        if not overwrite:
            raise CratesError(f"{out} holds a different {kind} ({describe(old)}): give another --out, or "
                              f"--overwrite to replace it")
        for pattern in clear:
            for f in out.glob(pattern):
                if f.is_file():
                    f.unlink()
        return None
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise CratesError(f"{out} is not empty and holds no {kind}: give another --out")
    return None


def _prepare_out(out: Path, ident: dict, overwrite: bool) -> None:
    """Refuse (one line, nothing written) a folder holding something else; clear it for
    --overwrite."""
    state = out / STATE
    if state.exists():
        old = read_state(state)
        if not old and not overwrite:
            raise CratesError(f"{state} is damaged (not readable JSON): give --overwrite to start the "
                              f"sweep again, or another --out")
        if same_identity(old, ident):
            return
        if not overwrite:
            raise CratesError(f"{out} holds a different sweep ({' '.join(old.get('grid', ['?']))} against "
                              f"{old.get('against', '?')}): give another --out, or --overwrite to replace it")
        shutil.rmtree(out / "points", ignore_errors=True)
        for f in out.glob("sweep*"):
            if f.is_file():
                f.unlink()
        return
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise CratesError(f"{out} is not empty and holds no sweep: give another --out")


def _point_done(folder: Path) -> bool:
    if not (folder / "per_deal.parquet").exists() or not (folder / MANIFEST).exists():
        return False
    try:
        return read_manifest(folder).get("status") == "complete"
    except CratesError:
        return False


def _write_csv(df: pd.DataFrame, path: Path) -> None:
    tmp = tmp_path(path)
    df.to_csv(tmp, index=False)
    os.replace(tmp, path)


def sweep(rules, grid, against: str, games: int, seed: int, out, workers: int | None = None,
          overwrite: bool = False, echo=print, progress: bool = False, scheduler: str | None = None) -> dict:
    """Run (or resume) the sweep and write sweep.csv and sweep.html; return the rows and counts.
    scheduler: play each point's blocks on Dask ("tcp://HOST:PORT" or "local:K"), as compare does."""
    if games < 2:
        raise CratesError("--games must be at least 2")
    base, axes = parse_grid(grid)
    parse_spec(against)
    plan = rotations(2, rules.players, rules.partnerships)
    points = list(product(*(a.values for a in axes)))
    specs = [point_spec(base, axes, v) for v in points]
    out = Path(out)
    ident = _identity(rules, list(grid), base, axes, against, games, seed)
    _prepare_out(out, ident, overwrite)
    cmd = command(rules, grid, against, games, seed, out, scheduler)
    try:
        out.mkdir(parents=True, exist_ok=True)
        write_json_atomic({**ident, "command": cmd, "points": len(points), "status": "running"}, out / STATE)
    except OSError as exc:
        raise CratesError(f"cannot write the sweep: {exc.filename or out}: {exc.strerror or exc}") from None
    t0 = time.perf_counter()
    per_point = games * len(plan)
    done = [_point_done(out / "points" / f"{i:03d}") for i in range(len(points))]
    bar = Progress(len(points) * per_point, done=sum(done) * per_point, enabled=progress)
    rows, ran = [], 0
    lower = rules.family == "crates"
    try:
        for i, (values, spec) in enumerate(zip(points, specs, strict=True)):
            folder = out / "points" / f"{i:03d}"
            per = read_stored(folder / "per_deal.parquet", f"point {i + 1} ({spec})", echo) if done[i] else None
            if per is None:  # not played, interrupted or damaged
                done[i] = False
                if folder.exists():  # interrupted: play it again from the start
                    shutil.rmtree(folder)
                entries = [spec, against]
                labels = labels_for(entries)
                with open_dataset(folder, rules, entries, plan, seed, "games", "sweep", cmd, labels) as writer:
                    per = play(rules, entries, seed, 0, games, folder, "games", workers, writer=writer, plan=plan,
                               scheduler=scheduler)
                tmp = tmp_path(folder / "per_deal.parquet")
                per.write_parquet(tmp)
                os.replace(tmp, folder / "per_deal.parquet")
                ran += 1
                bar.update(per_point)
            _, score, win = _arrays(per, 2)
            sc, wn = score.mean(axis=1), win.mean(axis=1)
            p = paired_measures(sc[:, 0], sc[:, 1], wn[:, 0], wn[:, 1])
            row = {a.param: v for a, v in zip(axes, values, strict=True)}
            row.update(n_deals=len(sc), diff=p["score_diff"], diff_lo=p["score_lo"], diff_hi=p["score_hi"],
                       robust=p["robust_diff"], robust_lo=p["robust_lo"], robust_hi=p["robust_hi"],
                       win_diff=p["win_diff"], win_lo=p["win_lo"], win_hi=p["win_hi"], spec=spec)
            rows.append(row)
            if not progress:
                state = "done before" if done[i] else "played"
                echo(f"  point {i + 1}/{len(points)} {spec}: win-rate difference "
                     f"{ci_text(row['win_diff'], row['win_lo'], row['win_hi'], 1, pct=True)} ({state})")
    finally:
        bar.close()
    wall = time.perf_counter() - t0
    table = pd.DataFrame(rows)
    best = int(table["win_diff"].to_numpy().argmax())
    _write_csv(table, out / "sweep.csv")
    result = {"rows": table, "axes": axes, "base": base, "against": against, "best": best, "ran": ran,
              "skipped": len(points) - ran, "wall": wall, "games": games, "seed": seed, "command": cmd,
              "lower": lower}
    doc = document(result, rules)
    result["paths"] = doc.write(out / "sweep.html")
    write_json_atomic({**ident, "command": cmd, "points": len(points), "status": "complete",
                       "best": {k: (v.item() if hasattr(v, "item") else v) for k, v in table.iloc[best].items()}},
                      out / STATE)
    return result


def confirm_command(rules, spec: str, against: str, games: int, seed: int) -> str:
    """The `crates compare` command that checks the best point on fresh deals (with --out)."""
    from .blocks import compare_command
    from .summary import suggested_out

    return compare_command(rules, [spec, against], games, seed, suggested_out("confirm", spec, against),
                           None, 0, None)


def document(result: dict, rules) -> Document:
    table, axes, best = result["rows"], result["axes"], result["best"]
    lower = result["lower"]
    G = result["games"]
    names = " × ".join(a.param for a in axes)
    doc = Document(f"Sweep of {result['base']} over {names} against {result['against']} "
                   f"({rules.describe()}, {rules.players} players)",
                   f"{len(table)} grid points, each a duplicate comparison against `{result['against']}` on the same "
                   f"{num(G)} deals (games 0..{G - 1} of seed {result['seed']}), with the seats rotated. Differences are "
                   f"point − {result['against']}: a higher win-rate difference is better; "
                   f"{'lower' if lower else 'higher'} scores are better. Command: `{result['command']}`.")
    b = table.iloc[best]
    sec = doc.section("Best point", "best")
    sec.text(f"**Best point** (highest win-rate difference, the headline measure): `{b['spec']}`: win-rate "
             f"difference {ci_text(b['win_diff'], b['win_lo'], b['win_hi'], 1, pct=True)}, {ROBUST_NAME} score "
             f"difference {ci_text(b['robust'], b['robust_lo'], b['robust_hi'])}, mean score difference (heavy-tailed) "
             f"{ci_text(b['diff'], b['diff_lo'], b['diff_hi'])} points per game. The best of many points "
             f"is flattered by its own noise: confirm it on another seed, e.g. "
             f"`{confirm_command(rules, b['spec'], result['against'], G, result['seed'] + 1)}`.")
    sec = doc.section("Curve" if len(axes) == 1 else "Heat map", "curve")
    if len(axes) == 1:
        a = axes[0].param
        x = table[a].to_numpy()
        fig, ax = figure(f"Win-rate difference against {result['against']} by {a}", a,
                         "win-rate difference (percentage points)")
        lines_ci(ax, x, 100 * table["win_diff"], 100 * table["win_lo"], 100 * table["win_hi"],
                 "win-rate difference, 95% CI", PALETTE[0])
        ax.plot([x[best]], [100 * b["win_diff"]], marker="*", ms=16, color=PALETTE[3], ls="none",
                label=f"best: {a}={x[best]:g}")
        ax.axhline(0, color="grey", ls="--", lw=1)
        ax.legend()
        sec.figure("win", fig, "Win-rate difference (point − baseline) with 95% CIs; the star marks the best point.")
        fig, ax = figure(f"Score difference against {result['against']} by {a}", a,
                         f"points per game ({'negative' if lower else 'positive'} = point better)")
        lines_ci(ax, x, table["robust"], table["robust_lo"], table["robust_hi"],
                 f"{ROBUST_NAME}, bootstrap 95% CI", PALETTE[1], marker="s")
        lines_ci(ax, x, table["diff"], table["diff_lo"], table["diff_hi"], "mean (heavy-tailed), 95% CI", PALETTE[0])
        ax.axvline(x[best], color=PALETTE[3], ls=":", lw=1.5, label="best point (win rate)")
        ax.axhline(0, color="grey", ls="--", lw=1)
        ax.legend()
        sec.figure("score", fig, "Robust and mean score differences per deal (point − baseline), with 95% CIs.")
    else:
        (ax0, ax1) = axes
        for key, label, scale in (("win_diff", "win-rate difference (percentage points)", 100),
                                  ("robust", f"{ROBUST_NAME} score difference (points)", 1)):
            grid = (table.pivot(index=ax1.param, columns=ax0.param, values=key) * scale).to_numpy()
            fig, ax = figure(f"{label.split(' (')[0].capitalize()} against {result['against']}",
                             ax0.param, ax1.param, size=(7.5, 5.2))
            ax.grid(False)
            cmap = "RdBu_r" if (key == "robust" and lower) else "RdBu"
            lim = float(np.nanmax(np.abs(grid))) or 1.0
            im = ax.imshow(grid, origin="lower", aspect="auto", cmap=cmap, vmin=-lim, vmax=lim)
            ax.set_xticks(range(len(ax0.values)))
            ax.set_xticklabels([f"{v:g}" for v in ax0.values])
            ax.set_yticks(range(len(ax1.values)))
            ax.set_yticklabels([f"{v:g}" for v in ax1.values])
            if grid.size <= 200:
                for (r, c), v in np.ndenumerate(grid):
                    ax.text(c, r, f"{v:.1f}", ha="center", va="center", fontsize=7)
            bx = ax0.values.index(b[ax0.param])
            by = ax1.values.index(b[ax1.param])
            ax.plot([bx], [by], marker="*", ms=20, color="gold", mec="black", ls="none", label="best point")
            ax.legend(loc="upper right")
            fig.colorbar(im, ax=ax, label=label)
            sec.figure("heat-" + key.replace("_", "-"), fig, f"{label} at each grid point (point − baseline); "
                       "the star marks the best point by win rate.")
    sec = doc.section("Every point", "points")
    cols = {a.param: [f"{v:g}" for v in table[a.param]] for a in axes}
    sec.table(pd.DataFrame({**cols, "deals": table["n_deals"],
                            **difference_columns(table),
                            "best": ["★" if i == best else "" for i in range(len(table))]}),
              f"Every grid point against {result['against']} (point − baseline)")
    return doc
