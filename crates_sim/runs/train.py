"""`crates train`: rebuild the apprentice's weights by expert iteration.

Contract: `train(rules, out, teacher, rounds, games, ...)` runs rounds 1..rounds into the
folder `out`, one subfolder per round (round-K/decisions.parquet, round-K/weights.json);
a round whose files exist is not run again, so rerunning the same command resumes, and a
larger --rounds continues. The weights of the round that did best against `tuned` are
also written as out/apprentice.json (the file the package ships:
strategies/apprentice.json).

A round:
1. **Positions and the teacher's choices.** `games` games of the rules (seed derived
   from --seed and the round), every seat played from outside (`step.Table`). The seat to
   move plays the current apprentice (round 1: `tuned`, the start); at each card decision
   with two or more options, with probability `sample`, the teacher (any strategy spec,
   asked on a fresh random stream) chooses too, and the features of every option
   (`apprentice.fill_features`) and the teacher's choice are recorded. The positions are
   thus those the apprentice reaches, labelled by the teacher (DAgger-style expert
   iteration). Stored as Parquet: one row per option (game, decision, option, chosen,
   f_<feature>...).
2. **Fit.** A softmax over each decision's options (conditional logit) with an L2
   penalty, by Newton's method in plain numpy, on every round's decisions so far; a
   tenth of the games are held out (`held_out`), and their loss and agreement with the
   teacher are reported (`fit_report`). With `gap_weight` each decision counts by what
   the teacher sees at stake in it (`gap_weights`: its value of its choice minus that of
   its next best option, capped).
3. **Strength.** The new weights play `eval_games` duplicate deals against `tuned`
   (seats rotated, common deals), in this process; the round's win-rate difference with
   its 95% CI is kept in round-K/weights.json.

The fit is pulled towards `tuned`'s weights (`apprentice.tuned_weights`, penalty l2), so
that what the teacher's choices do not settle stays as `tuned` has it. Iterating pays
only while the rounds get stronger: out/apprentice.json gets the weights of the round
with the best mean win-rate difference against `tuned`.

The games of a round run as tasks on the usual backends (worker processes, or Dask with
`scheduler`): each task plays one game and returns its decisions.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import CratesError

#: the phases of a card decision (cards.PH_PLAY, PH_COUNT, PH_AGAIN)
CARD_PHASES = (0, 1, 2)
HOLDOUT = 10


def held_out(game):
    """The games held out of the fit: pairs of games (0, 1), (20, 21) ..., a tenth, both
    tables alike when games alternate between two (`--both`)."""
    return (np.asarray(game) // 2) % HOLDOUT == 0
START = "tuned"


@dataclass(frozen=True)
class GenTask:
    rules: object
    teacher: str
    weights: tuple | None  # the apprentice that moves, its weights for this table (None: START)
    seed: int
    game: int
    sample: float
    cap: int  # most decisions recorded in the game
    index: int


def _fresh_stream(G, seat, words):
    from ..engine import engine_nb as nb

    at = nb.stream(1 + seat)
    G[at:at + 4] = words


def generate(task: GenTask) -> dict:
    """Play one game (every seat from outside) and record the teacher's card decisions:
    {'X': features (rows x F), 'decision': decision per row, 'option', 'chosen': 0/1,
    'value': a pimc or expert teacher's mean outcome of the option (`pimc_explain`,
    `expert_explain`; else NaN)}."""
    from ..engine import engine_nb as nb
    from ..play.step import Table
    from ..strategies.apprentice import N_FEATURES, fill_features
    from ..strategy import addresses, resolve

    F = N_FEATURES
    n = task.rules.players
    table = Table(task.rules, [None] * n, task.seed, task.game)
    (t_id,), (t_row,) = resolve([task.teacher])  # the one seat's id and parameters
    t_addr = int(addresses([task.teacher])[0])
    (s_id,), (s_row,) = resolve([START])
    w = None if task.weights is None else np.asarray(task.weights)
    rng = np.random.default_rng([task.seed, task.game, 7])
    teacher_name = task.teacher.split(":")[0]
    explain = teacher_name in ("pimc", "expert")
    if teacher_name == "pimc":
        from ..strategies.pimc import pimc_explain as explain_values
    elif teacher_name == "expert":
        from ..strategies.expert import expert_explain as explain_values
    X, dec, opt, chosen, values = [], [], [], [], []
    k = 0
    while not table.over and k < task.cap:
        phase = table.pending_phase
        d = table.pending
        options = np.asarray(d.options, dtype=np.int64)
        m = len(options)
        if phase not in CARD_PHASES or m < 2:
            if phase == 5:  # announce
                table.answer(1 if 1 in d.options else d.options[0])
            else:
                table.answer(d.options[int(nb.ask_strategy(table._G.copy(), int(s_id), s_row,
                                                           0))])
            continue
        feats = np.zeros(m * F)
        fill_features(d.obs, d.hand, d.pile, options, feats, 0)
        feats = feats.reshape(m, F)
        if rng.random() < task.sample:
            G = table._G.copy()
            _fresh_stream(G, d.seat, rng.integers(0, 2**62, 4))
            if explain:  # pimc, expert: its mean outcome of every option, and its pick
                means = np.zeros(m)
                explain_values(G, t_row, means)
                t = int(np.argmax(means))
                values.extend(means.tolist())
            else:
                t = int(nb.ask_strategy(G, int(t_id), t_row, t_addr))
                values.extend([np.nan] * m)
            if not 0 <= t < m:
                raise CratesError(f"teacher {task.teacher!r} made an illegal choice ({t})")
            X.append(feats)
            dec.extend([k] * m)
            opt.extend(range(m))
            chosen.extend(int(i == t) for i in range(m))
            k += 1
        if w is None:
            a = int(nb.ask_strategy(table._G.copy(), int(s_id), s_row, 0))
        else:
            a = int(np.argmax(feats @ w))
        table.answer(d.options[a])
    X = np.concatenate(X) if X else np.zeros((0, F))
    return {"X": X, "decision": np.asarray(dec, dtype=np.int64),
            "option": np.asarray(opt, dtype=np.int64), "chosen": np.asarray(chosen, dtype=np.int8),
            "value": np.asarray(values, dtype=np.float64), "game": task.game}


# ------------------------------------------------------------------ the data
def _to_frame(parts: list[dict]):
    import pandas as pd

    from ..strategies.apprentice import FEATURES

    frames = []
    for p in parts:
        df = pd.DataFrame(p["X"], columns=[f"f_{name}" for name in FEATURES])
        df.insert(0, "value", p["value"])
        df.insert(0, "chosen", p["chosen"])
        df.insert(0, "option", p["option"])
        df.insert(0, "decision", p["decision"])
        df.insert(0, "game", np.full(len(df), p["game"], dtype=np.int64))
        frames.append(df)
    return pd.concat(frames, ignore_index=True)


def _read_round(path):
    """A round's decisions.parquet; a damaged one (cut short, half copied) is one line that
    names it and how to play that round again."""
    import pandas as pd

    try:
        return pd.read_parquet(path)
    except Exception as exc:  # pyarrow and polars raise several kinds for a damaged file
        raise CratesError(f"{path} is damaged ({str(exc).splitlines()[0][:120]}): delete it "
                          f"and its round's weights.json, and rerun to play that round "
                          f"again") from None


def load_decisions(paths):
    """(X, group, chosen, game, value) of the decisions in these Parquet files: X rows are
    options, group numbers the decision of each row (0, 1, ... in order), chosen is 0/1,
    value the teacher's value of the option (NaN when it gave none)."""
    import pandas as pd

    from ..strategies.apprentice import FEATURES

    df = pd.concat([_read_round(p).assign(_file=i) for i, p in enumerate(paths)],
                   ignore_index=True)
    key = df["_file"].to_numpy() * 10**9 + df["game"].to_numpy() * 10**4 + df["decision"].to_numpy()
    change = np.r_[True, key[1:] != key[:-1]]
    group = np.cumsum(change) - 1
    X = df[[f"f_{name}" for name in FEATURES]].to_numpy(dtype=np.float64)
    return X, group, df["chosen"].to_numpy(dtype=np.float64), df["game"].to_numpy(), \
        df["value"].to_numpy(dtype=np.float64)


# ------------------------------------------------------------------ the fit
def _probs(X, group, w):
    s = X @ w
    n = group[-1] + 1
    top = np.full(n, -np.inf)
    np.maximum.at(top, group, s)
    e = np.exp(s - top[group])
    z = np.bincount(group, e, minlength=n)
    return e / z[group], s, top, z


def loss(X, group, chosen, w, weight=None) -> float:
    """Mean negative log-likelihood of the chosen options (per decision; weight: one
    weight per decision, mean 1, default equal)."""
    p, *_ = _probs(X, group, w)
    n = group[-1] + 1
    on = chosen > 0
    c = chosen[on] if weight is None else chosen[on] * weight[group[on]]
    return float(-(c * np.log(np.maximum(p[on], 1e-300))).sum() / n)


def agreement(X, group, chosen, w) -> float:
    """Share of decisions where the best-scored option (the first of equals) is the chosen."""
    s = X @ w
    n = group[-1] + 1
    order = np.lexsort((np.arange(len(s)), -s, group))  # per group: best first
    first = order[np.r_[True, group[order][1:] != group[order][:-1]]]
    return float(chosen[first].sum() / n)


def gap_weights(group, chosen, value, cap):
    """One weight per decision for the fit (`crates train --gap-weight`): 0.5 + the
    teacher's value of its choice minus that of its next best option, at most `cap`
    (points), scaled to mean 1, so that the decisions where the teacher sees the most at
    stake count the most. Decisions without the teacher's values (NaN) count as gap 0."""
    n = group[-1] + 1
    v = np.where(np.isfinite(value), value, 0.0)
    best = np.full(n, -np.inf)
    np.maximum.at(best, group, np.where(chosen > 0, v, -np.inf))
    rest = np.full(n, -np.inf)
    np.maximum.at(rest, group, np.where(chosen > 0, -np.inf, v))
    gap = np.where(np.isfinite(best) & np.isfinite(rest), best - rest, 0.0)
    weight = 0.5 + np.clip(gap, 0.0, cap)
    return weight / weight.mean()


def fit(X, group, chosen, l2=1e-3, w0=None, iters=30, tol=1e-7, prior=None, weight=None):
    """Softmax regression over each decision's options (conditional logit) with penalty
    l2 * |w - prior|^2 / 2 per decision (prior: zeros by default), by Newton's method;
    `chosen` may be soft (each decision's rows summing to 1); weight: one weight per
    decision (mean 1; default equal, `gap_weights`). Returns the weights."""
    F = X.shape[1]
    n = group[-1] + 1
    prior = np.zeros(F) if prior is None else np.asarray(prior, dtype=np.float64)
    w = prior.copy() if w0 is None else np.asarray(w0, dtype=np.float64).copy()
    dw = np.ones(n) if weight is None else np.asarray(weight, dtype=np.float64)
    rw = None if weight is None else dw[group]
    for _ in range(iters):
        p, *_ = _probs(X, group, w)
        mean = np.zeros((n, F))
        np.add.at(mean, group, p[:, None] * X)
        target = np.zeros((n, F))
        np.add.at(target, group, chosen[:, None] * X)
        grad = (dw[:, None] * (mean - target)).sum(axis=0) / n + l2 * (w - prior)
        D = X - mean[group]
        H = (D * (p if rw is None else p * rw)[:, None]).T @ D / n + l2 * np.eye(F)
        step = np.linalg.solve(H, grad)
        # damped: halve the step until the loss goes down
        f0 = loss(X, group, chosen, w, weight) + 0.5 * l2 * (w - prior) @ (w - prior)
        t = 1.0
        while t > 1e-4:
            w1 = w - t * step
            if loss(X, group, chosen, w1, weight) + 0.5 * l2 * (w1 - prior) @ (w1 - prior) <= f0:
                break
            t /= 2
        w = w1
        if np.abs(t * step).max() < tol:
            break
    return w


def fit_report(X, group, chosen, game, w) -> dict:
    """Held-out (`held_out`) and training loss and agreement of weights w."""
    held = held_out(game)
    out = {}
    for name, mask in (("train", ~held), ("held_out", held)):
        if not mask.any():
            continue
        g = group[mask]
        g = np.unique(g, return_inverse=True)[1]
        out[f"{name}_loss"] = loss(X[mask], g, chosen[mask], w)
        out[f"{name}_agreement"] = agreement(X[mask], g, chosen[mask], w)
        out[f"{name}_decisions"] = int(g[-1] + 1)
    return out


def _row(rules) -> int:
    """The row of a table's weights: 0 without partnerships, 1 with them."""
    return 1 if rules.partnerships else 0


def table_report(X, group, chosen, game, w, tables) -> dict:
    """`fit_report` of the weights rows w, each table's games (game % len(tables)) scored
    with its own row; the figures pooled over the tables (weighted by decisions)."""
    parts = []
    for i, t in enumerate(tables):
        mine = game % len(tables) == i
        if mine.any():
            gi = np.unique(group[mine], return_inverse=True)[1]
            parts.append(fit_report(X[mine], gi, chosen[mine], game[mine], w[_row(t)]))
    out = {}
    for key in parts[0]:
        if key.endswith("_decisions"):
            out[key] = sum(p.get(key, 0) for p in parts)
    for key in parts[0]:
        if not key.endswith("_decisions"):
            side = key.split("_")[0] + ("_out" if key.startswith("held") else "")
            n = f"{side}_decisions"
            out[key] = sum(p[key] * p[n] for p in parts if key in p) / max(out[n], 1)
    return out


# ------------------------------------------------------------------ strength
def strength(rules, w, games: int, seed: int) -> dict:
    """The apprentice with weights w against `tuned`: duplicate deals, seats rotated, in
    this process; the paired win-rate difference with its 95% CI."""
    from crates_sim.analysis.blocks import rotations
    from crates_sim.analysis.tune import _tasks, measures, play_task

    from ..strategies.apprentice import set_weights

    old = set_weights(w)
    try:
        plan = rotations(2, rules.players, rules.partnerships)
        acc = np.zeros((4, games))
        for t in _tasks(rules, plan, ["apprentice"], [START], seed, 0, games, games):
            acc += play_task(t) / len(plan)
    finally:
        set_weights(old)
    m = measures(acc)
    return {"vs": START, "play": _table_name(rules), "games": games, "win_diff": m["win_diff"], "win_lo": m["win_lo"],
            "win_hi": m["win_hi"]}


# ------------------------------------------------------------------ the rounds
def open_run(out: Path, settings: dict, overwrite: bool, command_line: str, meta_name: str = "train.json",
             parts: str = "round-*/**/*", what: str = "a training run") -> None:
    """Make `out` the folder of a resumable run of these settings (its `meta_name`): a
    folder of a run with the same settings is resumed, one with others refused in one line
    unless `overwrite` (then its files matching `parts` are deleted). `crates train` and
    `crates analyse --strategies` keep their folders so."""
    out.mkdir(parents=True, exist_ok=True)
    meta = out / meta_name
    if meta.exists() and not overwrite:
        try:
            old = json.loads(meta.read_text())
        except ValueError:
            raise CratesError(f"{meta} is damaged: give --overwrite to start again") from None
        if old.get("settings") != settings:
            raise CratesError(f"{out} holds {what} with other settings: give the same "
                              f"options to resume it, or --overwrite")
    elif overwrite:
        for p in sorted(out.glob(parts), reverse=True):
            if p.is_file():
                p.unlink()
    meta.write_text(json.dumps({"settings": settings, "command": command_line}, indent=1))


def _mean_diff(info) -> float:
    """A round's mean win-rate difference against the start over its tables."""
    return float(np.mean([s["win_diff"] for s in info["strength"]]))


def _table_name(rules) -> str:
    return "partnerships" if rules.partnerships else "individual"


def _settings(tables, teacher, games, sample, cap, seed, l2, per_table=False, gap_weight=0.0):
    return {"rules": [t.to_dict() for t in tables], "players": [t.players for t in tables],
            "partnerships": [bool(t.partnerships) for t in tables], "teacher": teacher,
            "games": games, "sample": sample, "cap": cap, "seed": seed, "l2": l2,
            **({"per_table": True} if per_table else {}),
            **({"gap_weight": gap_weight} if gap_weight else {})}


def command(tables, out, teacher, rounds, games, sample, cap, seed, l2=0.001,
            per_table=False, gap_weight=0.0) -> str:
    """The `crates train` command line of a run."""
    rules = tables[0]
    play = " --both" if len(tables) > 1 else "" if rules.partnerships else " --no-partnerships"
    return (f"crates train --preset {rules.preset_name} --players {rules.players}{play}"
            f"{' --per-table' if per_table else ''} --teacher {teacher} "
            f"--rounds {rounds} --games {games} --sample {sample:g} --cap {cap} --seed {seed} "
            f"--l2 {l2:g}{f' --gap-weight {gap_weight:g}' if gap_weight else ''} --out {out}")


def train(rules, out, teacher: str, rounds: int = 3, games: int = 40, sample: float = 0.1,
          cap: int = 10_000, seed: int = 0, l2: float = 0.001, eval_games: int = 2000,
          workers: int | None = None, scheduler: str | None = None, overwrite: bool = False,
          echo=print, progress: bool = False, per_table: bool = False,
          gap_weight: float = 0.0) -> dict:
    """Expert iteration into the folder `out` (see the module doc). `rules`: a Rules, or a
    list of them (games alternate between them: `crates train --both`, partnerships and
    individual play); per_table: fit each table's weights on its own games (default: one
    fit on all, used by both); gap_weight > 0: weigh each decision in the fit by what the
    teacher sees at stake in it, up to that many points (`gap_weights`; a pimc or expert
    teacher). Returns {'weights', 'rounds': [per-round dict], 'wall'}."""
    from ..data.progress import Progress
    from ..strategies.apprentice import read_weights, tuned_weights, write_weights
    from ..strategy import parse_strategies
    from .runner import available_cpus, make_backend

    tables = list(rules) if isinstance(rules, (list, tuple)) else [rules]
    rules = tables[0]
    (teacher,) = parse_strategies([teacher], 1)
    for name, value, low in (("rounds", rounds, 1), ("games", games, 4), ("cap", cap, 1),
                             ("eval_games", eval_games, 2)):
        if value < low:
            raise CratesError(f"--{name.replace('_', '-')} must be at least {low}, not {value}")
    if not 0.0 < sample <= 1.0:
        raise CratesError(f"--sample must be in (0, 1], not {sample:g}")
    if gap_weight < 0:
        raise CratesError(f"--gap-weight must be 0 (off) or more, not {gap_weight:g}")
    if gap_weight and teacher.split(":")[0] not in ("pimc", "expert"):
        raise CratesError(f"--gap-weight needs a teacher that gives its value of every "
                          f"option (pimc, expert), not {teacher!r}")
    if scheduler and workers is not None:
        raise CratesError("--workers is for local runs; with --scheduler the cluster's workers "
                          "play the games (local:K starts K of them)")
    workers = workers or available_cpus()
    out = Path(out)
    settings = _settings(tables, teacher, games, sample, cap, seed, l2, per_table, gap_weight)
    open_run(out, settings, overwrite, command(tables, out, teacher, rounds, games, sample,
                                               cap, seed, l2, per_table, gap_weight))
    t0 = time.perf_counter()
    results = []
    w = None
    paths = []
    for r in range(1, rounds + 1):
        folder = out / f"round-{r}"
        data, wfile = folder / "decisions.parquet", folder / "weights.json"
        if wfile.exists() and data.exists():
            try:
                info = json.loads(wfile.read_text())
            except ValueError:
                raise CratesError(f"{wfile} is damaged: delete it and rerun to fit that round "
                                  f"again") from None
            w = read_weights(wfile)
            paths.append(data)
            results.append({**info, "weights": w.tolist()})
            echo(f"round {r}: done before (held-out agreement {info['held_out_agreement']:.1%})")
            continue
        folder.mkdir(exist_ok=True)
        tr = time.perf_counter()
        if not data.exists():
            r_seed = seed * 1000 + r
            tasks = [GenTask(tables[g % len(tables)], teacher,
                             None if w is None else tuple(w[_row(tables[g % len(tables)])].tolist()),
                             r_seed, g, sample, cap, g)
                     for g in range(games)]
            bar = Progress(games, enabled=progress)
            parts = []
            with make_backend(scheduler, None if scheduler else workers) as backend:
                for _task, part in backend.run(generate, tasks):
                    parts.append(part)
                    bar.update(1)
            bar.close()
            parts.sort(key=lambda p: p["game"])
            tmp = data.with_suffix(".tmp")
            _to_frame(parts).to_parquet(tmp, index=False)
            os.replace(tmp, data)
        t_gen = time.perf_counter() - tr
        paths.append(data)
        X, group, chosen, game, value = load_decisions(paths)
        held = held_out(game)
        if not (~held).any() or not held.any():
            raise CratesError("too few decisions recorded to fit and check the weights: give "
                              "more --games or a larger --sample")
        tf = time.perf_counter()
        # one fit on every game, in both rows (rows: without partnerships, with them), or
        # with per_table one per table on its own games; rounded as the weights file keeps
        # them, so that a resumed run goes on from the same
        w_new = np.zeros((2, X.shape[1]))
        for i, t in enumerate(tables if per_table else tables[:1]):
            mine = ~held & ((game % len(tables) == i) if per_table else True)
            gi = np.unique(group[mine], return_inverse=True)[1]
            weight = gap_weights(gi, chosen[mine], value[mine], gap_weight) if gap_weight else None
            fitted = np.round(fit(X[mine], gi, chosen[mine], l2=l2,
                                  w0=None if w is None else w[_row(t)], prior=tuned_weights(),
                                  weight=weight), 6)
            w_new[_row(t) if per_table and len(tables) > 1 else [0, 1]] = fitted
        info = {"round": r, **table_report(X, group, chosen, game, w_new, tables),
                "generate_seconds": round(t_gen, 1), "fit_seconds": round(time.perf_counter() - tf, 1)}
        if w is not None:
            info["previous_held_out_agreement"] = table_report(X, group, chosen, game, w,
                                                               tables)["held_out_agreement"]
        te = time.perf_counter()
        info["strength"] = [strength(t, w_new, eval_games, seed * 1000 + 500 + r)
                            for t in tables]
        info["eval_seconds"] = round(time.perf_counter() - te, 1)
        w = w_new
        write_weights(wfile, w, {**info, "teacher": teacher})
        results.append({**info, "weights": w.tolist()})
        vs = "; ".join(f"{_table_name(t)} {100 * s['win_diff']:+.1f} [{100 * s['win_lo']:+.1f}, "
                       f"{100 * s['win_hi']:+.1f}]" for t, s in zip(tables, info["strength"],
                                                                  strict=True))
        echo(f"round {r}: {info['held_out_decisions']:,} held-out decisions, agreement with "
             f"the teacher {info['held_out_agreement']:.1%} (train {info['train_agreement']:.1%}"
             f"), loss {info['held_out_loss']:.3f}; against {START} ({eval_games:,} deals): "
             f"{vs} points; {time.perf_counter() - tr:.0f} s")
    # iterate while it pays: ship the round that did best against the start
    best = max(range(len(results)), key=lambda i: (_mean_diff(results[i]), i))
    w = np.asarray(results[best]["weights"]) if "weights" in results[best] else w
    write_weights(out / "apprentice.json", w, {"teacher": teacher, "round": best + 1,
                                               "rounds": len(results),
                                               "strength": results[best]["strength"],
                                               "command": command(tables, out, teacher, rounds,
                                                                  games, sample, cap, seed, l2,
                                                                  per_table, gap_weight)})
    return {"weights": w, "best_round": best + 1, "rounds": results,
            "wall": time.perf_counter() - t0}
