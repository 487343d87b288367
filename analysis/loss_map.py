"""Where a strategy loses its points (`crates analyse --strategies S,T --games N`, issue 31 §2).

Contract: `loss_map(rules, strategies, games, out, ...)` plays, for each strategy S, the
games 0..games-1 of `seed` with S against `against` (default expert), seated as `crates
compare --strategies S,against` seats them (game i in rotation i mod 2: in partnerships
S is one team, otherwise every other seat), analyses every card decision of S's seats
with `crates analyse`'s method (`move_analysis.analyse`: expert's search from the mover's
information only, `samples` deals per option) and writes into `out`:
- games/<strategy>.jsonl: one line per analysed game (its decisions, compact), appended as
  each game comes back (and games/<strategy>/analysis-N.json, the game's whole analysis,
  which the example positions' replay pages show): an interrupted run loses only the games in flight, and the same
  command again analyses only the missing ones (analyse.json keeps the settings; other
  settings are refused in one line unless --overwrite; more games or more strategies go on);
- strategies.csv: per strategy, per game at one of its seats: the expected loss in points
  (mean, and robust: the 10% trimmed mean, as `crates compare`'s robust difference) and in
  win chance (95% CIs over the seat-games), decisions, accuracy, labels;
- situations.csv: per strategy and situation (`move_analysis.SITUATIONS`: the decision
  kind, the rank played, hand size, an opponent or the partner on one card, the count in
  progress, 3s held, stock low, hand number), the decisions per game, the mean loss per
  occurrence (95% CI over decisions), the loss per game, its share of the strategy's loss
  and its excess (the loss per game beyond what as many decisions cost at the strategy's
  mean loss per decision: where it plays worse than its average), in points and win chance;
- loss.html (+ PNGs, loss.md): the tables, per situation a figure of the loss per game and
  per occurrence, the costliest example positions, each linked to its game's annotated
  replay page under replays/ (opened at the move);
- with `deficits` > 0, validation.csv: each strategy's measured win-rate deficit against
  `against` on `deficits` duplicate deals of seed + 1, seats rotated (`crates compare`,
  its folder kept under deficits/), next to its analysed loss per game, with the rank
  correlation (Spearman) and a least-squares line; analyse.json holds them too.

A game depends only on (rules, strategies, seed, game), so runs on any number of workers
give the same files.
"""

from __future__ import annotations

import json
import math
import re
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from crates_sim.errors import CratesError

from . import stats
from .move_analysis import SITUATIONS, THRESHOLDS, TOLERANCE

#: the measures of a decision's loss: (column prefix, words)
MEASURES = (("loss", "points"), ("win_loss", "points of win chance"))
#: the per-game figures set against the measured deficits, the headline first: the robust
#: one (a trimmed mean over the seat-games, as `crates compare`'s robust difference) because
#: a game's loss in points is heavy-tailed (pressures double: one decision late in a game
#: can cost thousands), and the win chance is near 0 a decision once a game is decided
VALIDATED = (("robust_loss", "points (trimmed mean over the seat-games)"), ("loss", "points (mean)"),
             ("win_loss", "win chance"))
def plural(label: str) -> str:
    """inaccuracy -> inaccuracies, mistake -> mistakes."""
    return label[:-1] + "ies" if label.endswith("y") else label + "s"


#: example positions shown per strategy
EXAMPLES = 3


@dataclass(frozen=True)
class GameTask:
    rules: object  # crates_sim.rules.Rules
    strategy: str
    against: str
    seed: int
    game: int
    samples: int


def seats_of(rules, game: int) -> list[int]:
    """The seats of the analysed strategy (entry 0) in game `game`: `crates compare`'s
    rotation game mod 2 (`blocks.rotations`)."""
    from .blocks import rotations

    plan = rotations(2, rules.players, rules.partnerships)
    return [s for s, entry in enumerate(plan[game % len(plan)]) if entry == 0]


def game_specs(rules, strategy: str, against: str, game: int) -> list[str]:
    mine = set(seats_of(rules, game))
    return [strategy if s in mine else against for s in range(rules.players)]


def trace(task: GameTask) -> list[dict]:
    """The log of a task's game (as `crates trace` writes it)."""
    from crates_sim.play.pyagent_run import trace_game
    from crates_sim.strategy import parse_strategies

    specs = parse_strategies(game_specs(task.rules, task.strategy, task.against, task.game), task.rules.players)
    return json.loads(json.dumps(trace_game(task.rules, specs, task.seed, task.game)))


#: what a game's line keeps of each decision (move_analysis._judge's entry)
_KEEP = ("line", "hand", "move", "seat", "held", "top", "chosen", "best", "loss", "loss_se", "near_best",
         "label", "win_loss", "situation")


def analyse_game(task: GameTask) -> dict:
    """One game's line: its strategy and number, the analysed seats, whether they won, and
    each analysed decision (compact)."""
    from .move_analysis import analyse

    events = trace(task)
    seats = seats_of(task.rules, task.game)
    result = analyse(events, seats=seats, samples=task.samples)
    won = bool(set(events[-1]["winners"]) & set(seats))
    return {"strategy": task.strategy, "game": task.game, "seats": seats, "won": won,
            "decisions": [{k: d[k] for k in _KEEP} for d in result["decisions"]], "analysis": result}


def slug(spec: str) -> str:
    """A file name for a strategy spec."""
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", spec).strip("_") or "strategy"


def _read_lines(path: Path) -> dict[int, dict]:
    """The games already in a strategy's file (a line cut short by an interruption is skipped)."""
    done = {}
    if path.exists():
        for text in path.read_text(encoding="utf-8").splitlines():
            try:
                line = json.loads(text)
                done[int(line["game"])] = line
            except (ValueError, KeyError, TypeError):
                continue
    return done


def loss_map(rules, strategies: list[str], games: int, out, against: str = "expert", seed: int = 0,
             samples: int = 400, deficits: int = 0, workers: int | None = None, scheduler: str | None = None,
             overwrite: bool = False, command_line: str = "", progress=None, examples: bool = True) -> dict:
    """Run (or resume) the analysis described in the module doc; returns its summary (the
    tables as DataFrames under "strategies", "situations", "validation")."""
    from crates_sim.runs.runner import available_cpus, make_backend
    from crates_sim.runs.train import open_run
    from crates_sim.strategy import parse_strategies

    if not strategies:
        raise CratesError("--strategies: give at least one strategy to analyse")
    if len(set(strategies)) != len(strategies):
        raise CratesError("--strategies: each strategy once")
    for spec in (*strategies, against):  # each spec checked before anything runs
        parse_strategies([spec], rules.players)
    if rules.partnerships and rules.players % 2:  # pragma: no cover - Rules refuses it
        raise CratesError("partnerships need an even number of players")
    out = Path(out)
    settings = {"rules": rules.to_dict(), "preset": rules.preset_name, "players": rules.players,
                "against": against, "seed": seed, "samples": samples}
    open_run(out, settings, overwrite, command_line, meta_name="analyse.json", parts="**/*.*",
             what="an analysis")
    (out / "games").mkdir(exist_ok=True)
    t0 = time.perf_counter()
    done = {s: _read_lines(out / "games" / f"{slug(s)}.jsonl") for s in strategies}
    tasks = [GameTask(rules, s, against, seed, g, samples) for g in range(games) for s in strategies
             if g not in done[s]]
    total, finished = games * len(strategies), games * len(strategies) - len(tasks)
    if tasks:
        workers = workers or available_cpus()
        with make_backend(scheduler, None if scheduler else min(workers, len(tasks))) as backend:
            for task, line in backend.run(analyse_game, tasks):
                full = out / "games" / slug(task.strategy) / f"analysis-{task.game}.json"
                full.parent.mkdir(exist_ok=True)
                full.write_text(json.dumps(line.pop("analysis"), separators=(",", ":")))
                with open(out / "games" / f"{slug(task.strategy)}.jsonl", "a", encoding="utf-8") as fh:
                    fh.write(json.dumps(line, separators=(",", ":")) + "\n")
                done[task.strategy][task.game] = line
                finished += 1
                if progress is not None:
                    progress(finished, total, time.perf_counter() - t0)
    lines = {s: [done[s][g] for g in range(games)] for s in strategies}
    table, situ = summarise(lines)
    table.to_csv(out / "strategies.csv", index=False)
    situ.to_csv(out / "situations.csv", index=False)
    valid, fit = None, None
    if deficits:
        valid, fit = validate(rules, strategies, against, seed + 1, deficits, table, out / "deficits", workers,
                              scheduler)
        valid.to_csv(out / "validation.csv", index=False)
    wall = time.perf_counter() - t0
    meta = json.loads((out / "analyse.json").read_text())
    meta.update(strategies=strategies, games=games, seconds=round(wall, 1), fit=fit,
                per_strategy=table.to_dict("records"))
    (out / "analyse.json").write_text(json.dumps(meta, indent=1, default=float))
    result = {"strategies": table, "situations": situ, "validation": valid, "fit": fit, "out": str(out),
              "seconds": wall, "games": games, "against": against, "samples": samples, "seed": seed}
    pages = write_examples(lines, rules, against, seed, samples, out) if examples else {}
    result["paths"] = document(result, rules, lines, pages).write(out / "loss.html")
    return result


def _decisions(lines: dict) -> pd.DataFrame:
    rows = []
    for s, games in lines.items():
        for g in games:
            for d in g["decisions"]:
                rows.append({"strategy": s, "game": g["game"], "seat": d["seat"], "loss": d["loss"],
                             "win_loss": d["win_loss"], "near_best": d["near_best"], "label": d["label"],
                             **{f"s:{k}": v for k, v in d["situation"].items()}})
    return pd.DataFrame(rows, columns=None if rows else ["strategy", "game", "seat", "loss", "win_loss",
                                                         "near_best", "label"])


def summarise(lines: dict) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(per strategy, per strategy x situation) tables from the games' lines."""
    per, situ = [], []
    for s, games in lines.items():
        seat_games = [(g["game"], seat) for g in games for seat in g["seats"]]
        n = len(seat_games)
        ds = _decisions({s: games})
        totals = {m: np.zeros(n) for m, _ in MEASURES}
        index = {k: i for i, k in enumerate(seat_games)}
        has_win = len(ds) > 0 and ds["win_loss"].notna().all()
        for m, _ in MEASURES:
            if len(ds) and (m == "loss" or has_win):
                sums = ds.groupby(["game", "seat"])[m].sum()
                for key, v in sums.items():
                    totals[m][index[key]] = v
        row = {"strategy": s, "games": len(games), "seat_games": n, "decisions": len(ds),
               "decisions_per_game": len(ds) / n if n else math.nan}
        for m, _ in MEASURES:
            ci = stats.mean_ci(totals[m]) if (m == "loss" or has_win) else None
            row.update({f"{m}_per_game": ci.estimate if ci else math.nan,
                        f"{m}_per_game_lo": ci.lo if ci else math.nan,
                        f"{m}_per_game_hi": ci.hi if ci else math.nan})
        robust = stats.trimmed_mean_ci(totals["loss"]) if n else None
        row.update({"robust_loss_per_game": robust.estimate if robust else math.nan,
                    "robust_loss_per_game_lo": robust.lo if robust else math.nan,
                    "robust_loss_per_game_hi": robust.hi if robust else math.nan})
        accurate = (ds["near_best"] | (ds["loss"] < TOLERANCE)) if len(ds) else pd.Series([], dtype=bool)
        row["accuracy"] = 100.0 * accurate.mean() if len(ds) else math.nan
        for name, _ in THRESHOLDS:
            row[f"{plural(name)}_per_game"] = (ds["label"] == name).sum() / n if n else math.nan
        row["won"] = float(np.mean([g["won"] for g in games])) if games else math.nan
        per.append(row)
        for dim in SITUATIONS:
            col = f"s:{dim}"
            if col not in ds:
                continue
            for value, grp in ds.groupby(col, sort=False):
                r = {"strategy": s, "situation": dim, "value": value, "decisions": len(grp),
                     "per_game": len(grp) / n}
                for m, _ in MEASURES:
                    if m == "win_loss" and not has_win:
                        r.update({f"{m}_each": math.nan, f"{m}_each_lo": math.nan, f"{m}_each_hi": math.nan,
                                  f"{m}_per_game": math.nan, f"{m}_share": math.nan,
                                  f"{m}_excess_per_game": math.nan})
                        continue
                    ci = stats.mean_ci(grp[m].to_numpy(float))
                    total = float(ds[m].sum())
                    r.update({f"{m}_each": ci.estimate, f"{m}_each_lo": ci.lo, f"{m}_each_hi": ci.hi,
                              f"{m}_per_game": float(grp[m].sum()) / n,
                              f"{m}_share": float(grp[m].sum()) / total if total > 0 else math.nan,
                              # beyond what the situation's frequency would cost at the mean rate
                              f"{m}_excess_per_game": (float(grp[m].sum()) - len(grp) * total / len(ds)) / n})
                situ.append(r)
    situ = pd.DataFrame(situ)
    if len(situ):
        order = {d: i for i, d in enumerate(SITUATIONS)}
        situ = situ.assign(_o=situ["situation"].map(order)).sort_values(
            ["strategy", "_o", "loss_per_game"], ascending=[True, True, False], kind="stable").drop(columns="_o")
    return pd.DataFrame(per), situ.reset_index(drop=True)


def validate(rules, strategies, against, seed, deals, table, folder: Path, workers, scheduler):
    """Each strategy's win-rate deficit against `against` (`crates compare`, `deals` deals
    of `seed`), beside its analysed loss per game; (table, fit) with the rank correlations."""
    from scipy.stats import spearmanr

    from .compare import compare

    rows = []
    for s in strategies:
        where = folder / slug(s)
        found = where / "compare.json"
        pair = None
        if found.exists():
            try:
                old = json.loads(found.read_text())
                if old.get("games") == deals and old.get("seed") == seed:
                    pair = old["pairs"][0]
            except (ValueError, KeyError, IndexError):
                pair = None
        if pair is None:
            if where.exists():
                import shutil

                shutil.rmtree(where)
            pair = compare(rules, [s, against], deals, seed, where, workers=workers, scheduler=scheduler,
                           echo=lambda *a: None)["pairs"].iloc[0].to_dict()
        rows.append({"strategy": s, "deficit": -100.0 * pair["win_diff"], "deficit_lo": -100.0 * pair["win_hi"],
                     "deficit_hi": -100.0 * pair["win_lo"], "deals": deals})
    v = pd.DataFrame(rows).merge(table[["strategy", *(f"{m}_per_game" for m, _ in VALIDATED)]], on="strategy")
    fit = {"deals": deals, "seed": seed, "against": against}
    for m, _ in VALIDATED:
        x, y = v[f"{m}_per_game"].to_numpy(float), v["deficit"].to_numpy(float)
        if len(v) >= 3 and np.isfinite(x).all() and np.ptp(x) > 0:
            rho, p = spearmanr(x, y)
            slope, intercept = np.polyfit(x, y, 1)
            r2 = 1.0 - float(np.sum((y - (slope * x + intercept)) ** 2)) / float(np.sum((y - y.mean()) ** 2) or 1.0)
            fit[m] = {"spearman": float(rho), "p": float(p), "slope": float(slope), "intercept": float(intercept),
                      "r2": r2}
        else:
            fit[m] = None
    return v, fit


def _costliest(lines: dict, strategy: str, k: int = EXAMPLES) -> list[dict]:
    out = [dict(d, game=g["game"]) for g in lines[strategy] for d in g["decisions"] if d["label"]]
    return sorted(out, key=lambda d: -d["loss"])[:k]


def write_examples(lines, rules, against, seed, samples, out: Path) -> dict:
    """The annotated replay pages of the games that hold each strategy's costliest
    decisions (replays/<strategy>-game-N.html); {(strategy, game): relative path}."""
    from crates_sim.play.replay_html import write_page

    from .move_analysis import analyse

    pages = {}
    for s in lines:
        for d in _costliest(lines, s):
            key = (s, d["game"])
            if key in pages:
                continue
            task = GameTask(rules, s, against, seed, d["game"], samples)
            path = Path("replays") / f"{slug(s)}-game-{d['game']}.html"
            full = out / "games" / slug(s) / f"analysis-{d['game']}.json"
            if not (out / path).exists():
                events = trace(task)
                try:
                    analysis = json.loads(full.read_text())
                except (OSError, ValueError):  # gone or damaged: analysed again
                    analysis = analyse(events, seats=seats_of(rules, d["game"]), samples=samples)
                write_page(events, out / path, analysis=analysis)
            pages[key] = path.as_posix()
    return pages


def document(result: dict, rules, lines: dict, pages: dict):
    """The loss.html document."""
    from .render import Document, bars_ci, ci_col, figure, num

    table, situ = result["strategies"], result["situations"]
    doc = Document(
        "Where the strategies lose their points",
        f"{rules.describe()}, {rules.players} players · against {result['against']} · "
        f"{num(result['games'])} games a strategy (seed {result['seed']}, seated as `crates compare` seats "
        f"them) · every card decision of the strategy's seats valued by expert's search from the mover's "
        f"information, {result['samples']} deals per option. A loss is the best option's value minus the "
        f"chosen one's, in expected points to the end of the hand (and, from the win model, in points of "
        f"win chance). docs/analysis.md, \"Where a strategy loses its points\".")
    sec = doc.section("Per strategy, per game at one of its seats")
    shown = pd.DataFrame({
        "strategy": table["strategy"], "seat-games": table["seat_games"],
        "decisions a game": table["decisions_per_game"].map(lambda x: num(x, 1)),
        "loss a game (points, robust)": ci_col(table, "robust_loss_per_game", 1),
        "loss a game (points, mean)": ci_col(table, "loss_per_game", 1),
        "loss a game (win chance)": ci_col(table, "win_loss_per_game", 2),
        "accuracy %": table["accuracy"].map(lambda x: num(x, 1)),
        **{f"{plural(n)} a game": table[f"{plural(n)}_per_game"].map(lambda x: num(x, 2)) for n, _ in THRESHOLDS}})
    sec.table(shown, "Expected loss per game at one seat with 95% CIs over the seat-games (robust: the "
                     "10% trimmed mean, bootstrap CI; a few pressure-heavy games can swamp the mean).")
    fig, ax = figure("Expected loss per game (robust)", "", "points per game at one seat")
    bars_ci(ax, list(table["strategy"]), table["robust_loss_per_game"], table["robust_loss_per_game_lo"],
            table["robust_loss_per_game_hi"])
    sec.figure("loss_per_strategy", fig, "Each strategy's expected loss per game (trimmed mean), 95% CIs.")
    if result["validation"] is not None:
        _validation_section(doc, result)
    if len(situ):
        top = doc.section("The costliest situations")
        for s in table["strategy"]:
            part = situ[situ["strategy"] == s]
            worst = part.sort_values("loss_excess_per_game", ascending=False).head(8)
            each = part[part["decisions"] >= 20].sort_values("loss_each", ascending=False).head(8)
            top.text(f"**{s}**: the situations that cost the most points per game beyond the strategy's mean "
                     f"rate, and the most per occurrence (20+ decisions).")
            top.table(_situ_table(worst), f"{s}: the costliest situations per game, beyond the mean rate.")
            top.table(_situ_table(each), f"{s}: the situations that cost the most per occurrence.")
        figs = doc.section("By situation")
        for dim in SITUATIONS:
            part = situ[situ["situation"] == dim]
            if not len(part):
                continue
            figs.figure(f"situation_{slug(dim)}", _situation_figure(part, dim, list(table["strategy"])),
                        f"{dim}: loss per game (left) and per occurrence with 95% CIs (right), per strategy.")
    ex = doc.section("Example positions")
    ex.text("Each strategy's costliest labelled decisions; a link opens its game's annotated replay at the move.")
    items = []
    for s in table["strategy"]:
        for d in _costliest(lines, s):
            page = pages.get((s, d["game"]))
            words = (f"{s}, game {d['game']}, seat {d['seat']}, hand {d['hand']} move {d['move']}: played "
                     f"{d['chosen']}, best {d['best']}, −{d['loss']:.1f} points ({d['label']}); held "
                     f"{d['held']}, top {d['top']}")
            items.append((words, f"{page}#{d['line']}" if page else None))
    if any(href for _, href in items):
        ex.links([(w, h) for w, h in items if h])
    rest = [w for w, h in items if not h] or ([] if items else ["no labelled decision"])
    if rest:
        ex.bullets(rest)
    return doc


def _situ_table(part: pd.DataFrame) -> pd.DataFrame:
    from .render import ci_col, num

    return pd.DataFrame({"situation": part["situation"], "value": part["value"],
                         "decisions a game": part["per_game"].map(lambda x: num(x, 2)),
                         "loss each": ci_col(part, "loss_each", 2),
                         "loss a game": part["loss_per_game"].map(lambda x: num(x, 1)),
                         "beyond the mean rate": part["loss_excess_per_game"].map(lambda x: f"{x:+.1f}"),
                         "share of the loss": part["loss_share"].map(lambda x: f"{100 * x:.0f}%"
                                                                   if math.isfinite(x) else "–")})


def _situation_figure(part: pd.DataFrame, dim: str, strategies: list[str]):
    import matplotlib.pyplot as plt

    from .render import PALETTE

    values = list(dict.fromkeys(part["value"]))
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    width = 0.8 / max(len(strategies), 1)
    x = np.arange(len(values))
    for k, s in enumerate(strategies):
        p = part[part["strategy"] == s].set_index("value").reindex(values)
        axes[0].bar(x + k * width, p["loss_per_game"], width, label=s, color=PALETTE[k % len(PALETTE)])
        err = np.vstack([p["loss_each"] - p["loss_each_lo"], p["loss_each_hi"] - p["loss_each"]])
        axes[1].bar(x + k * width, p["loss_each"], width, yerr=np.nan_to_num(err), capsize=2,
                    color=PALETTE[k % len(PALETTE)])
    for ax, title in zip(axes, ("points lost per game", "points lost per occurrence"), strict=True):
        ax.set_xticks(x + width * (len(strategies) - 1) / 2, values, rotation=30 if len(values) > 6 else 0)
        ax.set_title(f"{dim}: {title}", fontsize=10)
        ax.grid(axis="y", alpha=0.3)
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    return fig


def _validation_section(doc, result):
    from .render import figure, num

    v, fit = result["validation"], result["fit"]
    sec = doc.section("Does the analysed loss predict the strength?")
    sec.text(f"Each strategy's win-rate deficit against {fit['against']} on {num(fit['deals'])} duplicate deals "
             f"(seed {fit['seed']}, seats rotated: `crates compare`) beside its analysed loss per game.")
    sec.table(pd.DataFrame({
        "strategy": v["strategy"], "loss a game (robust)": v["robust_loss_per_game"].map(lambda x: num(x, 1)),
        "loss a game (mean)": v["loss_per_game"].map(lambda x: num(x, 1)),
        "loss a game (win chance)": v["win_loss_per_game"].map(lambda x: num(x, 2)),
        "deficit (points of win rate)": [f"{d:.1f} [{lo:.1f}, {hi:.1f}]" for d, lo, hi in
                                         zip(v["deficit"], v["deficit_lo"], v["deficit_hi"], strict=True)]}))
    sec.bullets([f"{words}: Spearman {f['spearman']:.2f} (p {f['p']:.3f}); deficit ≈ {f['intercept']:.1f} + "
                 f"{f['slope']:.3f} × loss, R² {f['r2']:.2f}"
                 for (m, words) in VALIDATED if (f := fit.get(m))])
    fig, ax = figure("Analysed loss and measured deficit", "analysed loss per game (points, trimmed mean)",
                     "win-rate deficit (points)")
    ax.errorbar(v["robust_loss_per_game"], v["deficit"], yerr=[v["deficit"] - v["deficit_lo"], v["deficit_hi"] - v["deficit"]],
                fmt="o", capsize=3)
    for _, r in v.iterrows():
        ax.annotate(r["strategy"], (r["robust_loss_per_game"], r["deficit"]), fontsize=8, xytext=(4, 4),
                    textcoords="offset points")
    if fit.get("robust_loss"):
        f = fit["robust_loss"]
        xs = np.linspace(v["robust_loss_per_game"].min(), v["robust_loss_per_game"].max(), 20)
        ax.plot(xs, f["intercept"] + f["slope"] * xs, "--", color="grey")
    sec.figure("validation", fig, "Deficit against the reference (95% CIs) by analysed loss per game.")


def summary_lines(result: dict) -> list[str]:
    """The terminal summary of `crates analyse --strategies`."""
    t = result["strategies"]
    out = [f"{result['games']} games a strategy against {result['against']} (seed {result['seed']}, "
           f"{result['samples']} deals per option), {result['seconds']:.0f} s"]
    for _, r in t.iterrows():
        out.append(f"  {r['strategy']:<18} loss {r['robust_loss_per_game']:6.1f} [{r['robust_loss_per_game_lo']:.1f}, "
                   f"{r['robust_loss_per_game_hi']:.1f}] points a game (mean {r['loss_per_game']:.1f})"
                   + ("" if not math.isfinite(r["win_loss_per_game"]) else
                      f", {r['win_loss_per_game']:.1f} of win chance")
                   + f"; accuracy {r['accuracy']:.0f}%; {r['decisions_per_game']:.0f} decisions a game")
        situ = result["situations"]
        if len(situ):
            worst = situ[situ["strategy"] == r["strategy"]].sort_values("loss_excess_per_game",
                                                                         ascending=False).head(3)
            for _, w in worst.iterrows():
                out.append(f"      worst: {w['situation']} {w['value']}: {w['loss_each']:.2f} points each "
                           f"({w['per_game']:.1f} decisions a game, {w['loss_per_game']:.1f} points a game, "
                           f"+{w['loss_excess_per_game']:.1f} beyond its mean rate)")
    v, fit = result["validation"], result["fit"]
    if v is not None:
        out.append(f"deficit against {fit['against']} ({fit['deals']} duplicate deals of seed {fit['seed']}):")
        for _, r in v.iterrows():
            out.append(f"  {r['strategy']:<18} {r['deficit']:6.1f} [{r['deficit_lo']:.1f}, {r['deficit_hi']:.1f}]")
        for m, words in VALIDATED:
            if fit.get(m):
                out.append(f"  by the loss in {words}: Spearman {fit[m]['spearman']:.2f}, "
                           f"R² {fit[m]['r2']:.2f} (deficit ≈ {fit[m]['intercept']:.1f} + "
                           f"{fit[m]['slope']:.3f} × loss)")
    out.append(f"wrote {result['out']}/loss.html, strategies.csv, situations.csv"
               + (", validation.csv" if v is not None else ""))
    return out


__all__ = ["GameTask", "analyse_game", "loss_map", "seats_of", "summarise", "summary_lines", "validate"]
