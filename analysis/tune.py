"""`crates tune`: search a strategy's parameters with CMA-ES against a field, then validate
the result on fresh deals (docs/analysis.md).

Contract:

- The search space: every declared parameter of the strategy (or those named by
  `--params`), except the ones the base spec fixes (`weights:w6=-10`). CMA-ES (the `cma`
  package) works in scaled coordinates y = (value - start) / scale, where start is the
  base spec's default and scale is a quarter of the declared range when the range is
  finite (the range is also CMA's bound), else max(1, |default|) (the bound, if any, is
  kept). `--sigma` (default 0.5) is CMA's initial step in those units. Whole-number
  parameters are rounded.
- The objective of a candidate: its win-rate difference against the field, the mean over
  the `--against` strategies of a duplicate comparison each (candidate and opponent
  rotated over the seats as `crates compare` does; with partnerships each is one team).
  Every candidate of generation g plays the same deals, games [g*G, (g+1)*G) of the
  search seed (common random numbers), so candidates are ranked on equal luck.
- Seeds: the search seed and the validation seed are derived from `--seed`
  (`derive_seed(seed, 1)` and `derive_seed(seed, 2)`); the validation never sees a
  search deal.
- Budget: `--budget` candidate evaluations; the search runs ceil(budget / popsize)
  whole generations (CMA may stop earlier if it converges).
- Checkpoint, after every generation: OUT/tune.csv is rewritten atomically with every
  evaluation so far, then OUT/tune.json (what the tune is, checked on a rerun like
  sweep.json, and the CMA state as data: every generation's asked points, `asks`, and the
  fitness told, `tells`, JSON numbers). A rerun of the same command resumes after the last
  generation recorded in tune.json (rows of a later, unrecorded generation are dropped): a
  fresh CMA from the same seed is asked again and told the recorded fitness, generation by
  generation (each asked point checked against the record), which leaves it exactly where
  an uninterrupted search was; a larger `--budget` continues a finished search. Nothing
  read back from the folder is executed: a tune.json of an older version holding a pickled
  CMA object (`cma`) is refused in one line, never unpickled.
- Validation: the centre of CMA's final distribution (its mean, in bounds, rounded as
  written to best.txt) is played on `--validate-games` deals of the validation seed
  against each `--against` strategy separately; `compare.paired_measures` gives the
  reported intervals (the best candidate of the search is flattered by its own noise).
  It is the same as `crates compare --strategies BEST,OPPONENT --seed VALIDATION_SEED
  --games N` with the same rules.
- Outputs: OUT/best.txt (one spec, usable as it stands), OUT/tune.csv, OUT/tune.html
  (+ .md, PNGs: learning curve, parameter paths, validation table), OUT/tune.json.

Games are played in-process by `engine.run_games` (no dataset is written), in blocks of at
most `play.BLOCK` games, on a pool of worker processes kept for the whole tune.
"""

from __future__ import annotations

import math
import os
import shlex
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from crates_sim.errors import CratesError, did_you_mean

STATE = "tune.json"
KIND = "crates tune"
SIGMA = 0.5
SEARCH, VALIDATE = 1, 2


def derive_seed(seed: int, what: int) -> int:
    """A seed below 2**63 derived from (seed, what) (numpy's SeedSequence: stable)."""
    a, b = np.random.SeedSequence([int(seed), int(what)]).generate_state(2, np.uint32)
    return int((int(a) << 32 | int(b)) % 2**63)


@dataclass(frozen=True)
class Dim:
    """One searched parameter: name, start value, scale, declared bounds, whole."""

    name: str
    start: float
    scale: float
    low: float
    high: float
    whole: bool

    def value(self, y: float) -> float:
        v = min(max(self.start + self.scale * float(y), self.low), self.high)
        return float(round(v)) if self.whole else float(f"{v:.6g}")

    def decimals(self) -> int:
        return 0 if self.whole else max(0, 2 - math.floor(math.log10(self.scale)))

    def rounded(self, v: float) -> float:
        return float(round(v, self.decimals()))


def _fmt(v: float, decimals: int) -> str:
    text = f"{v:.{decimals}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def plan_search(strategy: str, params: list[str] | None = None):
    """(base spec, shown name, [Dim]) for `weights:w6=-10` and optional parameter names."""
    from crates_sim.strategy import parse_spec

    from .sweep import _known

    name, fixed = parse_spec(strategy)
    shown, known = _known(name)
    if not known:
        raise CratesError(f"strategy {shown} declares no parameters: nothing to tune")
    if params:
        for p in params:
            if p not in known:
                raise CratesError(f"--params: strategy {shown} has no parameter {p!r}{did_you_mean(p, known)} "
                                  f"(parameters: {', '.join(known)})")
            if p in fixed:
                raise CratesError(f"--params: {p} is both fixed in {strategy!r} and tuned")
        if len(set(params)) != len(params):
            raise CratesError("--params: a parameter is named twice")
        names = [p for p in known if p in params]
    else:
        names = [p for p in known if p not in fixed]
    names = [p for p in names if known[p].low < known[p].high]
    if not names:
        raise CratesError(f"strategy {strategy}: every parameter is fixed: nothing to tune")
    dims = []
    for p in names:
        par = known[p]
        finite = math.isfinite(par.low) and math.isfinite(par.high)
        scale = (par.high - par.low) / 4 if finite else max(1.0, abs(par.default))
        dims.append(Dim(p, par.default, scale, par.low, par.high, par.whole))
    return strategy.strip(), shown, dims


def spec_of(base: str, dims: list[Dim], values, decimals: bool = False) -> str:
    return base + "".join(f":{d.name}={_fmt(v, d.decimals()) if decimals else f'{v:.10g}'}"
                          for d, v in zip(dims, values, strict=True))


def parse_against(text: str) -> list[str]:
    from crates_sim.strategy import parse_spec

    specs = [s.strip() for s in text.split(",") if s.strip()]
    if not specs:
        raise CratesError("--against: give at least one strategy")
    if len(set(specs)) != len(specs):
        raise CratesError("--against: a strategy is given twice")
    for s in specs:
        parse_spec(s)
    return specs


# ------------------------------------------------------------------ playing
@dataclass(frozen=True)
class Task:
    rules: object
    specs: tuple  # spec per seat
    mine: tuple  # True for the candidate's seats
    seed: int
    start: int
    games: int
    key: tuple  # (candidate, opponent, rotation, start)


def play_task(t: Task):
    """Play one block; per game: candidate's and opponent's mean final total and win share."""
    from crates_sim.engine import api as engine

    res = engine.run_games(t.rules, list(t.specs), t.seed, t.start, t.games, detail="games")
    P = t.rules.players
    total = np.asarray(res.games["total"], dtype=float).reshape(t.games, P)
    win = np.asarray(res.games["win"], dtype=float).reshape(t.games, P)
    m = np.asarray(t.mine, dtype=bool)
    shares = win.sum(axis=1)
    shares[shares == 0] = 1.0
    return np.stack([total[:, m].mean(axis=1), total[:, ~m].mean(axis=1),
                     win[:, m].sum(axis=1) / shares, win[:, ~m].sum(axis=1) / shares])


def _tasks(rules, plan, candidates, against, seed, start, games, block):
    out = []
    for k, spec in enumerate(candidates):
        for j, opp in enumerate(against):
            pair = (spec, opp)
            for r, entries in enumerate(plan):
                for s in range(start, start + games, block):
                    n = min(block, start + games - s)
                    out.append(Task(rules, tuple(pair[e] for e in entries), tuple(e == 0 for e in entries),
                                    seed, s, n, (k, j, r, s - start)))
    return out


def _play_all(backend, tasks, shape, bar):
    """Run the tasks; -> array (candidates, opponents, 4, games) averaged over rotations."""
    K, J, R, G = shape
    acc = np.zeros((K, J, 4, G))
    for task, arr in backend.run(play_task, tasks):
        k, j, _, s = task.key
        acc[k, j, :, s:s + task.games] += arr / R
        bar.update(task.games)
    return acc


def measures(arr) -> dict:
    """arr (4, G): the paired measures, candidate − opponent."""
    from .compare import paired_measures

    p = paired_measures(arr[0], arr[1], arr[2], arr[3])
    return {"n_deals": arr.shape[1], "win_diff": p["win_diff"], "win_lo": p["win_lo"], "win_hi": p["win_hi"],
            "robust": p["robust_diff"], "robust_lo": p["robust_lo"], "robust_hi": p["robust_hi"],
            "diff": p["score_diff"], "diff_lo": p["score_lo"], "diff_hi": p["score_hi"]}


# ------------------------------------------------------------------ the folder
def command(rules, strategy, against, params, budget, games, popsize, sigma, validate, seed, out,
            scheduler: str | None = None) -> str:
    args = ["crates", "tune", strategy, "--against", ",".join(against)]
    if params:
        args += ["--params", ",".join(params)]
    args += ["--preset", rules.preset_name, "--players", str(rules.players)]
    for key, value in rules.differences().items():
        args += ["--set", f"{key}={value}"]
    args += ["--budget", str(budget), "--games-per-eval", str(games)]
    if popsize:
        args += ["--popsize", str(popsize)]
    if sigma != SIGMA:
        args += ["--sigma", f"{sigma:g}"]
    args += ["--validate-games", str(validate), "--seed", str(seed), "--out", str(out)]
    if scheduler:
        args += ["--scheduler", scheduler]
    return shlex.join(args)


def _identity(rules, base, dims, against, games, popsize, sigma, seed) -> dict:
    return {"kind": KIND, "strategy": base, "params": [d.name for d in dims], "against": against,
            "rules": rules.to_dict(), "rules_spec": rules.describe(), "players": rules.players,
            "partnerships": bool(rules.partnerships), "games_per_eval": games, "popsize": popsize,
            "sigma": sigma, "seed": seed}


def _load_state(out: Path, ident: dict, overwrite: bool) -> dict | None:
    """The saved state of this tune (None: a fresh start); refuse another tune or a foreign
    folder with one line, nothing written; clear it for --overwrite."""
    from .sweep import saved_state

    return saved_state(out, STATE, ident, overwrite, "tune",
                       lambda old: f"{old.get('strategy', '?')} against {','.join(old.get('against') or ['?'])}",
                       ["tune*", "best.txt"])


def _advance(es, ys, fitness: list[float], dims: list[Dim]):
    """Tell CMA one generation's fitness; -> (the centre's values, sigma, stop conditions).
    The search and the replay of a resumed tune share this step, so that both make the same
    calls and leave CMA in the same state."""
    es.tell(ys, fitness)
    centre = es.result.xfavorite
    stopped = {k: (v if isinstance(v, (int, float, str)) else str(v)) for k, v in es.stop().items()}
    return [d.value(y) for d, y in zip(dims, centre, strict=True)], float(es.sigma), stopped


def _replay(es, saved: dict, state: Path, dims: list[Dim], sigma: float):
    """Bring a fresh CMA (made from the tune's seed) to the saved generation by replaying the
    recorded asks and tells, data only: -> (generations, asks, tells, means, sigmas, stopped).
    A saved state holding a pickled CMA object (an older version's `cma`) is refused, never
    unpickled: unpickling runs whatever the file holds."""
    if "cma" in saved:
        raise CratesError(f"{state} holds its CMA state as a Python pickle (an older crates tune), which "
                          f"is not loaded since it could run code: start the tune again in a new folder "
                          f"(another --out, or --overwrite)")
    damaged = CratesError(f"{state} is damaged (its record of CMA's asks and tells cannot be read): give "
                          f"--overwrite to start the tune again")
    asks, tells, done = saved.get("asks"), saved.get("tells"), saved.get("generations")
    if not (isinstance(done, int) and done >= 0 and isinstance(asks, list) and isinstance(tells, list)
            and len(asks) == len(tells) == done):
        raise damaged
    means, sigmas, stopped = [[d.start for d in dims]], [sigma], {}
    for g in range(done):
        try:
            want, fitness = np.asarray(asks[g], dtype=float), np.asarray(tells[g], dtype=float)
        except (TypeError, ValueError):
            raise damaged from None
        if want.shape != (es.popsize, len(dims)) or fitness.shape != (es.popsize,) or not (
                np.isfinite(want).all() and np.isfinite(fitness).all()):
            raise damaged
        ys = es.ask()
        if not np.array_equal(np.asarray(ys, dtype=float), want):
            raise CratesError(f"{state}: CMA does not ask again the points recorded for generation {g + 1} "
                              f"(the record was changed, or made with another version of cma or numpy): "
                              f"give --overwrite to start the tune again")
        mean, step, stopped = _advance(es, ys, [float(f) for f in fitness], dims)
        means.append(mean)
        sigmas.append(step)
    return done, [list(a) for a in asks], [list(t) for t in tells], means, sigmas, stopped


def _write_csv(rows: list[dict], path: Path) -> None:
    import pandas as pd

    from crates_sim.data.dataset import tmp_path

    tmp = tmp_path(path)
    pd.DataFrame(rows).to_csv(tmp, index=False)
    os.replace(tmp, path)


def _read_rows(path: Path, generations: int) -> list[dict]:
    import pandas as pd

    if generations == 0:
        return []
    try:
        table = pd.read_csv(path)
    except (OSError, ValueError):
        table = None
    if table is None or "generation" not in table or set(range(generations)) - set(table["generation"]):
        raise CratesError(f"{path} lacks evaluations of the finished generations: "
                          f"give --overwrite to start the tune again")
    table = table[table["generation"] < generations]
    return table.to_dict("records")


def tune(rules, strategy: str, against: str, out, budget: int = 300, games: int = 4000,
         params: list[str] | None = None, popsize: int | None = None, sigma: float = SIGMA,
         validate_games: int = 20000, seed: int = 0, workers: int | None = None,
         overwrite: bool = False, echo=print, progress: bool = False,
         scheduler: str | None = None) -> dict:
    """Run (or resume) the search, validate its result; write best.txt, tune.csv, tune.html.

    scheduler: play each generation's blocks on Dask ("tcp://HOST:PORT" or "local:K"), as
    sweep and compare do; the results are the same as on local workers."""
    import cma

    from crates_sim.data.dataset import write_json_atomic
    from crates_sim.data.progress import Progress
    from crates_sim.runs.runner import available_cpus, make_backend

    from .blocks import BLOCK, rotations
    from .render import ci_text

    if budget < 1:
        raise CratesError("--budget must be at least 1 evaluation")
    if games < 2:
        raise CratesError("--games-per-eval must be at least 2")
    if validate_games < 2:
        raise CratesError("--validate-games must be at least 2")
    if popsize is not None and popsize < 2:
        raise CratesError("--popsize must be at least 2")
    if not (sigma > 0 and math.isfinite(sigma)):
        raise CratesError("--sigma must be a positive number")
    if not 0 <= seed < 2**63:
        raise CratesError("--seed must be from 0 to 2**63 - 1")
    base, shown, dims = plan_search(strategy, params)
    field = parse_against(against)
    plan = rotations(2, rules.players, rules.partnerships)
    x0 = np.zeros(len(dims))
    lower = [(d.low - d.start) / d.scale if math.isfinite(d.low) else -np.inf for d in dims]
    upper = [(d.high - d.start) / d.scale if math.isfinite(d.high) else np.inf for d in dims]
    opts = {"seed": derive_seed(seed, 3) % 2**31 + 1, "verbose": -9, "bounds": [lower, upper]}
    if popsize:
        opts["popsize"] = popsize
    fresh_es = cma.CMAEvolutionStrategy(x0, sigma, opts)
    lam = fresh_es.popsize
    out = Path(out)
    ident = _identity(rules, base, dims, field, games, lam, sigma, seed)
    saved = _load_state(out, ident, overwrite)
    if saved:  # before anything is written: a refused state leaves the folder as it was
        done, asks, tells, means, sigmas, stopped = _replay(fresh_es, saved, out / STATE, dims, sigma)
    else:
        done, asks, tells, means, sigmas, stopped = 0, [], [], [[d.start for d in dims]], [sigma], {}
    es = fresh_es
    cmd = command(rules, strategy, field, params, budget, games, popsize, sigma, validate_games, seed, out,
                  scheduler)
    s_seed, v_seed = derive_seed(seed, SEARCH), derive_seed(seed, VALIDATE)
    generations = math.ceil(budget / lam)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CratesError(f"cannot write the tune: {exc.filename or out}: {exc.strerror or exc}") from None
    if saved:
        try:
            search_seconds = float(saved.get("search_seconds", 0.0))
        except (TypeError, ValueError):
            search_seconds = 0.0
        rows = _read_rows(out / "tune.csv", done)
    else:
        search_seconds, rows = 0.0, []
    resumed = done
    validation = (saved or {}).get("validation")

    def save(status, **extra):
        write_json_atomic({**ident, "command": cmd, "status": status, "budget": budget,
                           "search_seed": s_seed, "validation_seed": v_seed, "generations": done,
                           "evaluations": len(rows), "search_seconds": round(search_seconds, 2),
                           "means": means, "sigmas": sigmas, "cma_stop": stopped,
                           "validation": validation, **extra, "asks": asks, "tells": tells}, out / STATE)

    todo = max(0, generations - done) if not stopped else 0
    block = min(BLOCK, games)
    per_gen = lam * len(field) * len(plan) * games
    v_total = len(field) * len(plan) * validate_games
    workers = workers or available_cpus()
    bar = Progress(todo * per_gen + v_total, enabled=progress)
    t_start = time.perf_counter()
    try:
        with make_backend(scheduler, None if scheduler else workers) as backend:
            if not saved:
                save("running")
            while done < generations and not stopped:
                t0 = time.perf_counter()
                ys = es.ask()
                values = [[d.value(y) for d, y in zip(dims, yy, strict=True)] for yy in ys]
                specs = [spec_of(base, dims, v) for v in values]
                acc = _play_all(backend, _tasks(rules, plan, specs, field, s_seed, done * games, games, block),
                                (lam, len(field), len(plan), games), bar)
                scores = []
                for k, spec in enumerate(specs):
                    m = measures(acc[k].mean(axis=0))
                    row = {"generation": done, "candidate": k, "evaluation": len(rows),
                           **{d.name: v for d, v in zip(dims, values[k], strict=True)}, **m}
                    for j, opp in enumerate(field):
                        row[f"win_vs:{opp}"] = float((acc[k, j, 2] - acc[k, j, 3]).mean())
                    row["spec"] = spec
                    rows.append(row)
                    scores.append(m["win_diff"])
                fitness = [-float(s) for s in scores]
                mean, sig, stopped = _advance(es, ys, fitness, dims)
                asks.append([[float(v) for v in y] for y in ys])
                tells.append(fitness)
                done += 1
                means.append(mean)
                sigmas.append(sig)
                search_seconds += time.perf_counter() - t0
                _write_csv(rows, out / "tune.csv")
                save("running")
                if not progress:
                    gen = rows[-lam:]
                    top = max(gen, key=lambda r: r["win_diff"])
                    med = float(np.median([r["win_diff"] for r in gen]))
                    echo(f"  generation {done}/{generations}: best win-rate difference "
                         f"{ci_text(top['win_diff'], top['win_lo'], top['win_hi'], 1, pct=True)}, "
                         f"median {100 * med:+.1f}%, sigma {es.sigma:.3g}")
            centre = es.result.xfavorite
            best_values = [d.rounded(d.value(y)) for d, y in zip(dims, centre, strict=True)]
            best = spec_of(base, dims, best_values, decimals=True)
            if not (validation and validation.get("spec") == best and validation.get("games") == validate_games):
                t0 = time.perf_counter()
                acc = _play_all(backend, _tasks(rules, plan, [best], field, v_seed, 0, validate_games,
                                                min(BLOCK, validate_games)),
                                (1, len(field), len(plan), validate_games), bar)
                vrows = [{"against": opp, **measures(acc[0, j])} for j, opp in enumerate(field)]
                vrows.append({"against": "field (mean)", **measures(acc[0].mean(axis=0))})
                validation = {"spec": best, "games": validate_games, "rows": vrows,
                              "seconds": round(time.perf_counter() - t0, 2)}
                ran_validation = True
            else:
                ran_validation = False
                bar.total -= v_total  # validated before: nothing left to play
    finally:
        bar.close()
    wall = time.perf_counter() - t_start
    from crates_sim.data.dataset import tmp_path

    tmp = tmp_path(out / "best.txt")
    tmp.write_text(best + "\n", encoding="utf-8")
    os.replace(tmp, out / "best.txt")
    _write_csv(rows, out / "tune.csv")
    result = {"rows": rows, "dims": dims, "base": base, "shown": shown, "against": field, "best": best,
              "best_values": best_values, "validation": validation, "means": means, "sigmas": sigmas,
              "generations": done, "ran": done - resumed, "resumed": resumed, "popsize": lam,
              "search_seconds": search_seconds, "wall": wall, "games": games, "seed": seed,
              "search_seed": s_seed, "validation_seed": v_seed, "command": cmd, "stopped": stopped,
              "ran_validation": ran_validation, "lower": rules.family == "crates", "budget": budget}
    doc = document(result, rules)
    result["paths"] = doc.write(out / "tune.html")
    save("complete", best=best)
    return result


# ------------------------------------------------------------------ the report
def validation_command(rules, spec: str, opponent: str, games: int, seed: int) -> str:
    """The `crates compare` command of one validation row, with its own --out."""
    from .blocks import compare_command
    from .summary import suggested_out

    return compare_command(rules, [spec, opponent], games, seed, suggested_out("validate", spec, opponent),
                           None, 0, None)


def document(result: dict, rules):
    import pandas as pd

    from .compare import difference_columns
    from .render import PALETTE, Document, ci_text, figure, num

    rows = pd.DataFrame(result["rows"])
    dims, v = result["dims"], result["validation"]
    lower = result["lower"]
    G = result["games"]
    field = ", ".join(result["against"])
    doc = Document(f"Tuning {result['shown']} against {field} ({rules.describe()}, {rules.players} players)",
                   f"CMA-ES over {', '.join(d.name for d in dims)} of `{result['base']}`: {result['generations']} "
                   f"generations of {result['popsize']} candidates ({len(rows)} evaluations), each candidate a "
                   f"duplicate comparison against every strategy of the field on the same {num(G)} deals per "
                   f"generation (games g×{G}..(g+1)×{G}−1 of search seed {result['search_seed']}), seats "
                   f"rotated. Objective: the mean win-rate difference against the field. Search time "
                   f"{result['search_seconds']:.0f} s. Command: `{result['command']}`.")
    sec = doc.section("Result, validated on fresh deals", "validation")
    vt = pd.DataFrame(v["rows"])
    beats = all(r["win_lo"] > 0 for r in v["rows"][:-1])
    sec.text(f"**Result** (the centre of CMA's final distribution, rounded): `{v['spec']}`, written to "
             f"best.txt. Validated on {num(v['games'])} deals of validation seed {result['validation_seed']}, "
             f"which the search never played, against each strategy separately (the same as the `crates "
             f"compare` commands below). "
             + ("It beats every strategy of the field on win rate (every interval above 0)."
                if beats else "It does not beat every strategy of the field on win rate."))
    sec.table(pd.DataFrame({
        "against": vt["against"], "deals": vt["n_deals"],
        **difference_columns(vt)}),
        f"Validation: result − opponent ({'negative' if lower else 'positive'} score differences favour the result)")
    sec.text("Each validation row is this duplicate comparison (it runs as pasted):")
    sec.bullets([f"`{validation_command(rules, v['spec'], opp, v['games'], result['validation_seed'])}`"
                 for opp in result["against"]])
    if len(rows):
        top = rows.iloc[int(rows["win_diff"].to_numpy().argmax())]
        sec.note(f"The best single evaluation of the search, `{top['spec']}` (generation {int(top['generation'])}), "
                 f"scored {ci_text(top['win_diff'], top['win_lo'], top['win_hi'], 1, pct=True)} on its "
                 f"generation's deals; the best of many noisy evaluations is flattered, which is why the "
                 f"distribution's centre is validated instead.")
    if len(rows):
        sec = doc.section("Learning curve", "curve")
        gen = rows.groupby("generation")["win_diff"]
        g = np.array(sorted(rows["generation"].unique())) + 1
        fig, ax = figure("Win-rate difference against the field per generation", "generation",
                         "win-rate difference (percentage points)")
        ax.plot(g, 100 * gen.max().to_numpy(), marker="o", color=PALETTE[0], label="best candidate")
        ax.plot(g, 100 * gen.median().to_numpy(), marker="s", color=PALETTE[1], label="median candidate")
        ax.fill_between(g, 100 * gen.min().to_numpy(), 100 * gen.max().to_numpy(), color=PALETTE[0],
                        alpha=0.12, label="all candidates")
        ax.axhline(0, color="grey", ls="--", lw=1)
        ax.axhline(100 * v["rows"][-1]["win_diff"], color=PALETTE[2], ls=":", lw=1.5,
                   label="result, validated")
        ax.legend()
        sec.figure("curve", fig, "Each generation's candidates on their shared deals (in-search figures) and "
                   "the result's validated difference against the field.")
        sec = doc.section("How the parameters moved", "params")
        means = np.array(result["means"], dtype=float)
        x = np.arange(len(means))
        fig, ax = figure("CMA's mean per generation (scaled: (value − start) / scale)", "generation",
                         "scaled value")
        for i, d in enumerate(dims):
            ax.plot(x, (means[:, i] - d.start) / d.scale, marker=".", color=PALETTE[i % len(PALETTE)],
                    label=d.name)
        ax.axhline(0, color="grey", ls="--", lw=1)
        ax.legend(ncol=4, fontsize=8)
        sec.figure("params", fig, "The centre of the search distribution after each generation (0: the start), "
                   "in units of each parameter's scale.")
        sec.table(pd.DataFrame({"parameter": [d.name for d in dims], "start": [f"{d.start:g}" for d in dims],
                                "scale": [f"{d.scale:g}" for d in dims],
                                "result": [_fmt(b, d.decimals()) for d, b in zip(dims, result["best_values"], strict=True)]}),
                  "Start, scale and result of each parameter")
    return doc
