"""`crates design`: search a family's rule knobs for a variant that meets a designer's targets.

Contract: `design(...)` runs (or resumes) an optuna TPE search over the knobs of the base
preset's family (every knob but the safety limits, or those named; categorical and
true/false knobs as categories, whole-number knobs as integer ranges, `knobs.RANGES`).
Every trial plays the same deals (seed, games 0..G-1: common random numbers), in memory
(no dataset is written), and is measured by `balance.measure` (+ `measures.skill_gap`
when a target names it). The objective, minimised, is the weighted sum over targets of
|est − value| / |value| (a VALUE target; |base est| for a value of 0) or ∓est / |base est|
(max / min).
Trial 0 is the base itself. The state (every finished trial) is OUT/design.json, written
after each trial: rerunning the same command resumes (the finished trials are given to a
new study, and the search goes on to --budget). The best trial is validated against the
base on fresh deals (a derived seed); OUT/best.txt holds its variant spec (for
`crates balance --preset` and `crates simulate --preset`), OUT/design.csv one row per
trial, OUT/design.html (+ .md, PNGs) the search's course and the best against the base.
"""

from __future__ import annotations

import math
import shlex
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl

from crates_sim.errors import CratesError
from crates_sim.rules import KNOBS, Rules

from .knobs import RANGES, REMOVE_CHOICES, SAFETY, family_knobs
from .players import DEFAULT_STRONG, held_across

STATE = "design.json"
KIND = "crates design"
SEARCH, VALIDATE = 11, 12
#: the trials the page lists, best first
BEST_SHOWN = 15
OBJECTIVE_NOTE = ("The objective is in units of the base's own values: a `=VALUE` target adds |est − VALUE| / "
                  "|VALUE| (|the base's est| when VALUE is 0, so the base adds 1), a `max` target −est / |the "
                  "base's est| (the base adds −1), `min` +est / |the base's est| (+1), each times its weight. So "
                  "the base's objective is a reference point, not a score of 0 = perfect: e.g. `first_player=0 "
                  "skill_gap=max` gives the base 1 − 1 = 0, and a variant must go below it.")


# ------------------------------------------------------------------ targets
@dataclass(frozen=True)
class Target:
    """measure (key, or key.group), goal (a number, "max" or "min") and weight."""

    measure: str
    group: str
    goal: str
    weight: float

    @property
    def name(self) -> str:
        return self.measure + (f".{self.group}" if self.group else "")

    def text(self) -> str:
        return f"{self.name}={self.goal}" + (f"@{self.weight:g}" if self.weight != 1 else "")


#: the group a target means when it names a measure with groups but none
DEFAULT_GROUP = {"decisions": "share", "lead_changes": "per_game", "decisive_hand": "share",
                 "drama": "share", "duration": "turns", "skill_gap": "greedy", "seat_win": "0",
                 "pos_points": "1", "ends": "dead", "luck": "strategy"}


def parse_target(text: str) -> Target:
    """`MEASURE[.GROUP]=VALUE|max|min[@WEIGHT]`, e.g. `duration.turns=600`, `balance=max@2`."""
    from .balance import MEASURES

    left, sep, right = text.partition("=")
    goal, _, weight = right.partition("@")
    name, _, group = left.strip().partition(".")
    if not sep or not goal.strip():
        raise CratesError(f"--target takes MEASURE=VALUE|max|min[@WEIGHT], not {text!r}")
    if name not in MEASURES:
        raise CratesError(f"--target: unknown measure {name!r}; measures: {', '.join(MEASURES)}")
    goal = goal.strip().lower()
    if goal not in ("max", "min"):
        try:
            float(goal)
        except ValueError:
            raise CratesError(f"--target {text}: the goal is a number, max or min, not {goal!r}") from None
    try:
        w = float(weight) if weight else 1.0
    except ValueError:
        raise CratesError(f"--target {text}: the weight after @ is a number, not {weight!r}") from None
    if not w > 0:
        raise CratesError(f"--target {text}: the weight must be positive")
    return Target(name, group.strip() or DEFAULT_GROUP.get(name, ""), goal, w)


def loss(targets: list[Target], est: dict, base: dict) -> float:
    """The objective of one trial (lower is better): see the module doc."""
    total = 0.0
    for t in targets:
        v = est.get(t.name, float("nan"))
        if not math.isfinite(v):
            return float("inf")
        if t.goal in ("max", "min"):
            scale = max(abs(base.get(t.name, 0.0)), 1e-6)
            total += t.weight * (-v if t.goal == "max" else v) / scale
        else:
            g = float(t.goal)
            scale = abs(g) if g != 0 else max(abs(base.get(t.name, 0.0)), 1e-6)
            total += t.weight * abs(v - g) / scale
    return total


# ------------------------------------------------------------------ the space
def search_space(base: str, names: list[str] | None, players: int) -> dict:
    """knob -> optuna distribution, for the base's family (names: only those)."""
    import optuna.distributions as od

    known = family_knobs(base)
    if names is None:
        names = [k for k in known if k not in SAFETY]
        if players != 4:
            names = [k for k in names if k != "partnerships"]
    space = {}
    for k in names:
        if k not in KNOBS:
            raise CratesError(f"--knobs: unknown knob {k!r}; knobs of {base}: {', '.join(known)}")
        if k not in known:
            raise CratesError(f"--knobs: {k} does not apply to {base} (knobs: {', '.join(known)})")
        kind = KNOBS[k][1]
        if isinstance(kind, tuple):
            space[k] = od.CategoricalDistribution(list(kind))
        elif kind is bool:
            space[k] = od.CategoricalDistribution([False, True])
        elif kind is int:
            lo, hi, step = RANGES[k]
            space[k] = od.IntDistribution(lo, hi, step=step)
        else:
            space[k] = od.CategoricalDistribution(list(REMOVE_CHOICES))
    if not space:
        raise CratesError("--knobs: nothing to search")
    return space


def spec_of(base: str, params: dict, players: int) -> str:
    """The variant spec of a trial's knob values: the base with the knobs that differ."""
    rules = Rules.preset(base, players, **{k: v for k, v in params.items()})
    return rules.describe()


def base_params(base: str, space: dict, players: int) -> dict:
    rules = Rules.preset(base, players)
    out = {}
    for k, dist in space.items():
        v = rules.knobs[k]
        if hasattr(dist, "choices") and v not in dist.choices:
            v = str(v)
        out[k] = v
    return out


# ------------------------------------------------------------------ playing, in memory
@dataclass(frozen=True)
class Block:
    rules: object
    seating: object
    seed: int
    start: int
    games: int


def play_block(b: Block):
    """One block of a trial: its games and hands as Arrow tables (the rotated schema)."""
    from crates_sim.data.dataset import games_table, hands_table
    from crates_sim.engine import api as engine

    st = b.seating
    res = engine.run_games(b.rules, list(st.specs), b.seed, b.start, b.games, detail="hands")
    return games_table(res.games, list(st.specs), st), hands_table(res.hands, st)


def trial_data(rules, specs: list[str], seed: int, games: int, backend):
    """Play `games` deals of `rules` with the balance seating of `specs` (every rotation) in
    memory; -> an `analysis.data.Data` over the results (no files)."""
    import pyarrow as pa

    from crates_sim.data.dataset import Seating

    from .blocks import BLOCK, seating_plan
    from .data import Data

    entries, entry_specs, plan = seating_plan(specs, rules.players, rules.partnerships)
    levels = tuple(dict.fromkeys(entry_specs))
    blocks = [Block(rules, Seating(r, tuple(e), tuple(entry_specs[i] for i in e), levels, rules.partnerships),
                    seed, s, min(BLOCK, games - s))
              for r, e in enumerate(plan) for s in range(0, games, BLOCK)]
    gparts, hparts = [], []
    for _, (g, h) in backend.run(play_block, blocks):
        gparts.append(g)
        hparts.append(h)
    games_df = pl.from_arrow(pa.concat_tables(gparts))
    hands_df = pl.from_arrow(pa.concat_tables(hparts))
    return Data(Path("."), {}, games_df.lazy(), hands_df.lazy(), rules.players,
                entry_specs if len(plan) == 1 else [], rules, rules.preset_name, ["rotation"])


def evaluate(rules, specs, seed, games, backend, targets, ideal, strong, skill_games) -> dict:
    """Every measure of one variant as {key or key.group: (est, lo, hi, se)}."""
    from .balance import measure
    from .measures import skill_gap

    D = trial_data(rules, specs, seed, games, backend)
    rows = [m.__dict__ for m in measure(D, ideal)]
    if any(t.measure == "skill_gap" for t in targets) and skill_games:
        rows += skill_gap(rules, strong, skill_games, seed, backend)
    return {r["measure"] + (f".{r['group']}" if r["group"] else ""): (r["est"], r["lo"], r["hi"], r["se"])
            for r in rows}


# ------------------------------------------------------------------ the folder
def _identity(base, players, space, targets, specs, games, seed, ideal, strong, skill_games) -> dict:
    return {"kind": KIND, "base": base, "players": players, "knobs": list(space),
            "targets": [t.text() for t in targets], "strategies": specs, "games_per_trial": games,
            "seed": seed, "ideal_turns": list(ideal) if ideal else None, "strong": strong,
            "skill_games": skill_games}


def _load_state(out: Path, ident: dict, overwrite: bool) -> dict | None:
    from .sweep import saved_state

    return saved_state(out, STATE, ident, overwrite, "design search",
                       lambda old: f"{old.get('base', '?')}, targets {' '.join(old.get('targets') or ['?'])}",
                       ["design*", "validation.csv", "best.txt"])


def command(base, players, knobs, targets, budget, games, validate, specs, seed, out, ideal_text, strong,
            skill_games, scheduler) -> str:
    args = ["crates", "design", "--preset", base, "--players", str(players)]
    if knobs:
        args += ["--knobs", ",".join(knobs)]
    for t in targets:
        args += ["--target", t.text()]
    args += ["--budget", str(budget), "--games", str(games), "--validate-games", str(validate),
             "--strategies", ",".join(specs), "--seed", str(seed), "--out", str(out)]
    if ideal_text:
        args += ["--ideal-turns", ideal_text]
    if strong != DEFAULT_STRONG:
        args += ["--strong", strong]
    if skill_games is not None:
        args += ["--skill-games", str(skill_games)]
    if scheduler:
        args += ["--scheduler", scheduler]
    return shlex.join(args)


def _json_value(v):
    return v.item() if isinstance(v, np.generic) else v


def design(base: str, targets: list[Target], out, budget: int = 40, games: int = 2000,
           knobs: list[str] | None = None, players: int = 4, strategies="greedy,random", seed: int = 0,
           validate_games: int | None = None, ideal=None, ideal_text: str | None = None, strong: str = DEFAULT_STRONG,
           skill_games: int | None = None, workers: int | None = None, scheduler: str | None = None,
           overwrite: bool = False, echo=print) -> dict:
    """Run (or resume) the search, validate the best trial; write OUT/ (module doc)."""
    import optuna

    from crates_sim.data.dataset import write_json_atomic
    from crates_sim.runs.runner import available_cpus, make_backend

    from .balance import differences, strategy_specs
    from .tune import derive_seed

    if budget < 1:
        raise CratesError("--budget must be at least 1 trial")
    if games < 2:
        raise CratesError("--games-per-trial must be at least 2")
    if not targets:
        raise CratesError("give at least one --target, e.g. --target balance=max")
    if len({t.name for t in targets}) != len(targets):
        raise CratesError("--target: a measure is targeted twice")
    validate_games = 2 * games if validate_games is None else validate_games
    if validate_games < 2:
        raise CratesError("--validate-games must be at least 2")
    skill_n = max(games // 4, 2) if skill_games is None else skill_games
    if any(t.measure == "skill_gap" for t in targets) and skill_n < 2:
        raise CratesError("a skill_gap target needs --skill-games of at least 2")
    if any(t.name == "duration.in_band" for t in targets) and ideal is None:
        raise CratesError("a duration.in_band target needs --ideal-turns LO..HI")
    specs = strategy_specs(strategies)
    space = search_space(base, knobs, players)
    Rules.preset(base, players)
    out = Path(out)
    given = (specs, strong)
    # the candidates are not known in advance, so adept is held to one set of networks
    specs, strong = [held_across(s, None) for s in specs], held_across(strong, None)
    ident = _identity(base, players, space, targets, specs, games, seed, ideal, strong, skill_n)
    saved = _load_state(out, ident, overwrite)
    out.mkdir(parents=True, exist_ok=True)
    cmd = command(base, players, knobs, targets, budget, games, validate_games, given[0], seed, out, ideal_text,
                  given[1], skill_games, scheduler)
    trials = list(saved["trials"]) if saved else []
    search_seed = derive_seed(seed, SEARCH)
    sampler = optuna.samplers.TPESampler(seed=(search_seed + len(trials)) % 2**31, n_startup_trials=8)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(direction="minimize", sampler=sampler)
    for t in trials:
        study.add_trial(optuna.trial.create_trial(
            params=t["params"], distributions=space,
            value=t["objective"] if t["objective"] is not None else 1e300))
    if not trials:
        study.enqueue_trial(base_params(base, space, players))
    base_est = {k: v[0] for k, v in trials[0]["measures"].items()} if trials else None
    resumed = len(trials)
    t0 = time.perf_counter()

    def save():
        write_json_atomic({**ident, "command": cmd, "trials": trials}, out / STATE)
        _write_csv(trials, targets, space, out / "design.csv")

    with make_backend(scheduler, None if scheduler else (workers or available_cpus())) as backend:
        while len(trials) < budget:
            trial = study.ask(space)
            params = {k: _json_value(v) for k, v in trial.params.items()}
            t1 = time.perf_counter()
            try:
                rules = Rules.preset(base, players, **params)
            except CratesError as exc:  # a combination the rules refuse: a bad trial
                study.tell(trial, float("inf"))
                trials.append({"trial": len(trials), "params": params, "spec": "", "objective": None,
                               "measures": {}, "seconds": 0.0, "note": str(exc)})
                save()
                continue
            est = evaluate(rules, specs, seed, games, backend, targets, ideal, strong, skill_n)
            if base_est is None:
                base_est = {k: v[0] for k, v in est.items()}
            obj = loss(targets, {k: v[0] for k, v in est.items()}, base_est)
            study.tell(trial, obj if math.isfinite(obj) else float("inf"))
            trials.append({"trial": len(trials), "params": params, "spec": rules.describe(), "objective": obj,
                           "measures": {t.name: list(est.get(t.name, (float("nan"),) * 4)) for t in targets},
                           "seconds": round(time.perf_counter() - t1, 2)})
            save()
            done = [x for x in trials if x["objective"] is not None]
            best = min(done, key=lambda x: x["objective"])
            shown = ", ".join(f"{t.name} {est.get(t.name, (float('nan'),))[0]:.4g}" for t in targets)
            # one numbering: the trial's own number (0 is the base), as design.csv and best have it
            echo(f"trial {trials[-1]['trial']} ({len(trials)} of {budget}): objective {obj:.4g} ({shown}) "
                 f"{rules.describe()}  [best {best['objective']:.4g}: trial {best['trial']}]")
        search_seconds = time.perf_counter() - t0
        done = [x for x in trials if x["objective"] is not None]
        best = min(done, key=lambda x: x["objective"])
        (out / "best.txt").write_text(best["spec"] + "\n")
        vseed = derive_seed(seed, VALIDATE)
        echo(f"validating {best['spec']} against {base} on {validate_games:,} fresh deals (seed {vseed})")
        rules_best = Rules.from_spec(best["spec"], players)
        rules_base = Rules.preset(base, players)
        vb = evaluate(rules_base, specs, vseed, validate_games, backend, targets, ideal, strong,
                      max(validate_games // 4, 2) if skill_games is None else skill_games)
        vx = evaluate(rules_best, specs, vseed, validate_games, backend, targets, ideal, strong,
                      max(validate_games // 4, 2) if skill_games is None else skill_games)
    table = _validation_table(vb, vx, targets, base, best["spec"])
    diffs = differences(table, [base, best["spec"]]) if best["spec"] != base else pd.DataFrame()
    vrows = []
    for t in targets:
        b, x = vb.get(t.name, (np.nan,) * 4), vx.get(t.name, (np.nan,) * 4)
        d = diffs[(diffs["measure"] == t.measure) & (diffs["group"] == t.group)] if len(diffs) else diffs
        vrows.append({"target": t.text(), "base": b[0], "base_lo": b[1], "base_hi": b[2], "best": x[0],
                      "best_lo": x[1], "best_hi": x[2],
                      "diff": float(d["diff"].iloc[0]) if len(d) else 0.0,
                      "diff_lo": float(d["lo"].iloc[0]) if len(d) else 0.0,
                      "diff_hi": float(d["hi"].iloc[0]) if len(d) else 0.0})
    validation = pd.DataFrame(vrows)
    validation.to_csv(out / "validation.csv", index=False)
    verdict = verdict_line(validation, targets, base, best["spec"], validate_games)
    result = {"best": best, "trials": trials, "validation": validation, "validation_seed": vseed,
              "validate_games": validate_games, "resumed": resumed, "ran": len(trials) - resumed,
              "search_seconds": search_seconds, "wall": time.perf_counter() - t0, "base": base,
              "targets": targets, "games": games, "seed": seed, "players": players, "specs": specs,
              "command": cmd, "base_objective": trials[0]["objective"], "verdict": verdict, "strong": strong,
              "rules_best": rules_best}
    result["paths"] = document(result).write(out / "design.html")
    return result


def improved(t: Target, base: float, diff: float, lo: float, hi: float) -> bool:
    """Whether the best variant moves target t's way with a CI that excludes no change."""
    if t.goal == "max":
        return lo > 0
    if t.goal == "min":
        return hi < 0
    toward = float(t.goal) - base
    return (lo > 0 and toward > 0 and abs(base + diff - float(t.goal)) < abs(toward)) or \
        (hi < 0 and toward < 0 and abs(base + diff - float(t.goal)) < abs(toward))


def verdict_line(validation: pd.DataFrame, targets, base: str, best: str, games: int) -> str:
    """In words: whether the best variant beats the base on the fresh deals, per target."""
    if best == base:
        return (f"No variant beat the base: the best trial of the search is {base} itself, so there is nothing "
                f"to adopt.")
    better = [t.text() for t, r in zip(targets, validation.to_dict("records"), strict=True)
              if improved(t, r["base"], r["diff"], r["diff_lo"], r["diff_hi"])]
    if len(better) == len(targets):
        return (f"The best variant, {best}, beats {base} on {games:,} fresh deals on every target "
                f"({', '.join(better)}): each difference's 95% CI lies on the target's side.")
    if better:
        rest = [t.text() for t in targets if t.text() not in better]
        return (f"The best variant, {best}, beats {base} on {games:,} fresh deals on {', '.join(better)} "
                f"only; on {', '.join(rest)} no better than the base can be told.")
    return (f"No variant beat the base on {games:,} fresh deals: the search's best, {best}, is not detectably "
            f"better than {base} on any target (every difference's 95% CI includes no change). Its lead in "
            f"the search was the noise of the search's own deals; keep {base}, or search with more --games.")


def _validation_table(vb: dict, vx: dict, targets, base: str, best: str) -> pd.DataFrame:
    rows = []
    for label, est in ((base, vb), (best, vx)):
        for t in targets:
            e = est.get(t.name)
            if e is not None:
                rows.append({"variant": label, "measure": t.measure, "group": t.group, "est": e[0], "lo": e[1],
                             "hi": e[2], "se": e[3]})
    return pd.DataFrame(rows)


def _write_csv(trials, targets, space, path: Path) -> None:
    rows = []
    for t in trials:
        r = {"trial": t["trial"], "spec": t["spec"], "objective": t["objective"], "seconds": t["seconds"]}
        for k in space:
            r[k] = t["params"].get(k)
        for tg in targets:
            m = t["measures"].get(tg.name, [np.nan] * 4)
            r[tg.name], r[f"{tg.name}_lo"], r[f"{tg.name}_hi"] = m[0], m[1], m[2]
        rows.append(r)
    pd.DataFrame(rows).to_csv(path, index=False)


def document(result: dict):
    from .glossary import entry, glossary_table, shown
    from .render import Document, figure

    trials = [t for t in result["trials"] if t["objective"] is not None]
    best = result["best"]
    doc = Document(f"Rule design from {result['base']}: {' '.join(t.text() for t in result['targets'])}",
                   f"{len(result['trials'])} trials of optuna's TPE over the knobs of {result['base']}'s family, "
                   f"each on the same {result['games']:,} deals (seed {result['seed']}), strategies "
                   f"{', '.join(result['specs'])}, {result['players']} players. Trial 0 is the base. "
                   f"Command: `{result['command']}`")
    sec = doc.section("Best variant", "best")
    if result.get("verdict"):
        sec.text(f"**{result['verdict']}**")
    sec.bullets([f"best of the search: `{best['spec']}` (trial {best['trial']}, objective {best['objective']:.4g}; "
                 f"the base's {result['base_objective']:.4g}, lower is better)",
                 f"validated on {result['validate_games']:,} fresh deals (seed {result['validation_seed']}) "
                 f"against {result['base']}, below",
                 OBJECTIVE_NOTE])
    v = result["validation"]
    names = [t.measure for t in result["targets"]]
    groups = [t.group for t in result["targets"]]
    sec.table(pd.DataFrame({"target": v["target"],
                            "unit": [entry(m, g).unit for m, g in zip(names, groups, strict=True)],
                            result["base"]: [shown(m, g, a, b, c, unit=False) for m, g, a, b, c in
                                             zip(names, groups, v["base"], v["base_lo"], v["base_hi"], strict=True)],
                            "best": [shown(m, g, a, b, c, unit=False) for m, g, a, b, c in
                                     zip(names, groups, v["best"], v["best_lo"], v["best_hi"], strict=True)],
                            "best − base": [shown(m, g, a, b, c, diff=True, unit=False) for m, g, a, b, c in
                                            zip(names, groups, v["diff"], v["diff_lo"], v["diff_hi"],
                                                strict=True)]}),
              "Validation: the best variant against the base on fresh deals (95% CIs)")
    if any(t.measure == "skill_gap" for t in result["targets"]) and result.get("rules_best") is not None:
        from crates_sim.rules import Rules as _Rules

        from .players import who_measured

        rules = {result["base"]: _Rules.preset(result["base"], result["players"]), best["spec"]: result["rules_best"]}
        sec.text("**Who measured skill.** The skill gap is the strong player's win rate minus greedy's and random's "
                 "on the same deals; a player fitted to one rule set may lose ground under another for its own "
                 "reasons, not the rule's:")
        sec.bullets(who_measured(result.get("strong", DEFAULT_STRONG), ("greedy", "random"), rules))
    sec.table(glossary_table(zip(names, groups, strict=True)), "What the targets' measures mean")
    s2 = doc.section("The search's course", "course")
    fig, ax = figure("Objective per trial (lower is better)", "trial", "objective")
    xs = [t["trial"] for t in trials]
    ys = [t["objective"] for t in trials]
    ax.plot(xs, ys, "o", ms=4, label="trial")
    ax.plot(xs, np.minimum.accumulate(ys), "-", label="best so far")
    ax.legend(fontsize=8)
    s2.figure("course", fig, "Each trial's objective and the best so far.")
    top = sorted(trials, key=lambda t: t["objective"])[:BEST_SHOWN]
    s2.table(pd.DataFrame([{"trial": t["trial"], "objective": round(t["objective"], 4), "variant": t["spec"]}
                           for t in top]),
             f"The {len(top)} best trials" if len(top) < len(trials) else f"All {len(top)} trials, best first")
    return doc
