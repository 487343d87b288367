"""`crates tournament`: any number of entrants, duplicate matches, Bradley–Terry ratings.

Contract. `tournament(rules, strategies, games, seed, out)` schedules matches between the
entrants (distinct strategy specs, two or more) and plays each as a duplicate match: deals
0..games-1 of `seed`, each once per rotation of the match's entrants over the seats
(`play.rotations`), so every entrant meets the same cards from every seat.

  * partnership games: a match is a pair of entrants, one per team (2 rotations);
  * individual games: a match is a table of `players` entrants (every such subset once,
    `players` rotations), so every pair of entrants meets equally often; with no more
    entrants than seats, one table of all of them.

Match results are Parquet: OUT/matches/<key>.parquet (per deal x rotation x entrant: score,
win share) and the games themselves as a dataset in OUT/matches/<key>/ (`crates report`
reads it). OUT/tournament.json holds the rules, seed and deals: a later run into the same
OUT with the same settings and more entrants plays only the matches not stored yet
(incremental), and rates the entrants it is given. A stored match file that cannot be read
(cut short, half copied) is named in one line and its match played again.

Ratings: in each game of a match, entrant a "beats" b when its score (its seats' total) is
better (ties count half); per deal, a's result against b is the mean over the rotations.
Bradley–Terry strengths are fitted to these results (MM iterations, half a virtual deal
each way for every pair so that a strategy that never loses keeps a finite rating) and put
on the Elo scale, R = 1500 + 400 log10(strength) with the mean at 1500: a 100-point gap is
a 64% expected score. 95% CIs resample the deals (the unit shared by every match: deal i is
the same cards in every match) with a seeded bootstrap, refitting each time. The win matrix
is each pair's mean result with the same bootstrap CIs. Outputs: ratings.csv (strategy,
rating, lo, hi, games), matrix.csv (strategy, opponent, score, lo, hi, deals),
tournament.html (leaderboard, heat map, one sample game per match as a replay page).
"""

from __future__ import annotations

import hashlib
import json
import re
import shlex
import time
import warnings
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl

from crates_sim.errors import CratesError

from .blocks import Block, open_dataset, read_stored, rotations, run_block
from .render import PALETTE, Document, ci_text, figure, num

FORMAT = "crates-sim tournament 1"
BOOT_REPS = 1000
PRIOR = 0.5  # virtual deals won each way by every pair (keeps ratings finite)
ELO0 = 1500.0


# ------------------------------------------------------------------ the schedule
def schedule(entrants: list[str], players: int, partnerships: bool) -> list[tuple[str, ...]]:
    """The matches: tuples of entrant specs (sorted), each played as one duplicate match.

    Partnerships: every pair. Individual: every `players`-subset (each pair of entrants
    then meets in C(m-2, players-2) tables), or one table of all the entrants when there
    are no more of them than seats."""
    ordered = sorted(entrants)
    if partnerships:
        return list(combinations(ordered, 2))
    if len(ordered) <= players:
        return [tuple(ordered)]
    return list(combinations(ordered, players))


def match_key(match: tuple[str, ...]) -> str:
    """A file-name-safe name of a match, unique for its entrants."""
    digest = hashlib.sha1("\0".join(match).encode()).hexdigest()[:10]
    words = re.sub(r"[^A-Za-z0-9=.-]+", "_", "-".join(s.split(":")[0].split("/")[-1] for s in match))
    return f"{words[:60]}-{digest}"


def _identity(rules, seed: int, games: int) -> dict:
    return json.loads(json.dumps({"format": FORMAT, "preset": rules.preset_name,
                                  "rules": rules.to_dict(), "players": rules.players,
                                  "partnerships": rules.partnerships, "seed": int(seed),
                                  "games": int(games)}))


def _check_out(out: Path, ident: dict) -> dict:
    """The stored tournament of OUT (its matches), or a fresh one; refuse one made with
    other rules, seed or deals, and a folder that is not a tournament."""
    path = out / "tournament.json"
    if path.exists():
        try:
            old = json.loads(path.read_text())
        except (OSError, ValueError) as exc:
            raise CratesError(f"{path} cannot be read ({exc}): choose another --out") from None
        diff = [k for k in ident if old.get(k) != ident[k]]
        if diff:
            raise CratesError(f"{out} holds a tournament with other {', '.join(diff)}: rerun with "
                              f"the same settings to add entrants, or choose another --out")
        return old
    if out.exists() and any(out.iterdir()):
        raise CratesError(f"{out} exists and is not a tournament folder: choose another --out")
    return {**ident, "matches": {}}


# ------------------------------------------------------------------ ratings
def match_outcomes(per: pl.DataFrame, k: int, lower_is_better: bool):
    """Per deal, each pair's result in one match: {(i, j): float[G]} with i < j entry
    indices; 1 = i beat j in every rotation, 0.5 a tie on balance."""
    per = per.sort("game", "rotation", "entry")
    G = per["game"].n_unique()
    R = per["rotation"].n_unique()
    s = per["score"].to_numpy().reshape(G, R, k)
    if lower_is_better:
        s = -s
    return {(i, j): ((s[:, :, i] > s[:, :, j]) + 0.5 * (s[:, :, i] == s[:, :, j])).mean(axis=1)
            for i, j in combinations(range(k), 2)}


def bradley_terry(W: np.ndarray, iters: int = 2000, tol: float = 1e-10) -> np.ndarray:
    """Bradley–Terry strengths (geometric mean 1) from win counts W[..., a, b] (a over b;
    any leading axes are fitted at once): Hunter's MM iterations."""
    m = W.shape[-1]
    N = W + np.swapaxes(W, -1, -2)
    wins = W.sum(axis=-1)
    p = np.ones(W.shape[:-1])
    for _ in range(iters):
        denom = (N / (p[..., :, None] + p[..., None, :])).sum(axis=-1)
        new = wins / np.maximum(denom, 1e-300)
        new /= np.exp(np.log(np.maximum(new, 1e-300)).mean(axis=-1, keepdims=True))
        done = np.max(np.abs(new - p)) < tol
        p = new
        if done:
            break
    assert p.shape[-1] == m
    return p


def elo(strength: np.ndarray) -> np.ndarray:
    """Bradley–Terry strengths on the Elo scale, the mean rating at ELO0."""
    r = 400.0 * np.log10(strength)
    return ELO0 + r - r.mean(axis=-1, keepdims=True)


def rate(results: list[tuple[tuple[int, ...], pl.DataFrame]], m: int, lower_is_better: bool,
         reps: int = BOOT_REPS, seed: int = 0) -> dict:
    """Ratings and win matrix with bootstrap CIs from match results: (entrant index per
    match entry, per deal x rotation x entry summaries) for each match."""
    D = None  # D[g, a, b]: a's results over b on deal g, summed over matches
    C = None  # deals compared
    for members, per in results:
        out = match_outcomes(per, len(members), lower_is_better)
        for (i, j), o in out.items():
            if D is None:
                D = np.zeros((len(o), m, m))
                C = np.zeros((len(o), m, m))
            if len(o) != D.shape[0]:
                raise CratesError("the stored matches have different numbers of deals")
            a, b = members[i], members[j]
            if a == b:
                continue
            D[:, a, b] += o
            D[:, b, a] += 1.0 - o
            C[:, a, b] += 1
            C[:, b, a] += 1
    if D is None:
        raise CratesError("no matches to rate")
    G = D.shape[0]
    prior = PRIOR * (1 - np.eye(m))
    W = D.sum(axis=0)
    N = C.sum(axis=0)
    rating = elo(bradley_terry(W + prior))
    share = np.where(N > 0, W / np.maximum(N, 1), np.nan)
    rng = np.random.default_rng(seed)
    boot_r = np.empty((reps, m))
    boot_s = np.empty((reps, m, m))
    block = 100
    for start in range(0, reps, block):
        idx = rng.integers(0, G, size=(min(block, reps - start), G))
        Wb = D[idx].sum(axis=1)  # (block, m, m)
        Nb = C[idx].sum(axis=1)
        boot_r[start:start + len(idx)] = elo(bradley_terry(Wb + prior))
        boot_s[start:start + len(idx)] = np.where(Nb > 0, Wb / np.maximum(Nb, 1), np.nan)
    lo, hi = np.quantile(boot_r, [0.025, 0.975], axis=0)
    with warnings.catch_warnings():  # the diagonal (no games with oneself) is all NaN
        warnings.simplefilter("ignore", RuntimeWarning)
        slo, shi = np.nanquantile(boot_s, [0.025, 0.975], axis=0)
    return {"rating": rating, "lo": lo, "hi": hi, "share": share, "share_lo": slo,
            "share_hi": shi, "deals": N, "wins": W, "deals_per_match": G}


def nash_average(share: np.ndarray, iters: int = 20000) -> dict:
    """A second view for intransitive results (Balduzzi et al.'s Nash averaging, without
    the maximum-entropy selection): the symmetric zero-sum game whose payoff is
    A[a, b] = share[a, b] - 1/2, solved by multiplicative weights (the average strategy
    converges to a Nash equilibrium). Returns the mixture (`weight`, the entrants an
    opponent must mix to be unexploitable), each entrant's expected result against it
    (`score`: 0.5 for those in its support, less for the others) and the equilibrium's
    exploitability (how far from an exact one, in share of games)."""
    A = np.nan_to_num(share - 0.5)
    np.fill_diagonal(A, 0.0)
    m = len(A)
    w = np.ones(m) / m
    total = np.zeros(m)
    eta = np.sqrt(8 * np.log(max(m, 2)) / iters)
    for _ in range(iters):
        total += w
        gain = A @ w  # each entrant's result against the current mixture
        w = w * np.exp(eta * (gain - gain.max()))
        w /= w.sum()
    p = total / iters
    score = 0.5 + A @ p
    return {"weight": p, "score": score, "exploitability": float((A @ p).max())}


def intransitive(labels, share, lo, hi) -> list[tuple[str, str, str]]:
    """Triples a > b > c > a in which each result's CI lies above one half (cycles the
    ratings cannot show)."""
    m = len(labels)
    beats = [[bool(lo[a, b] > 0.5) for b in range(m)] for a in range(m)]
    return [(labels[a], labels[b], labels[c]) for a in range(m) for b in range(m) for c in range(m)
            if a < b and a < c and beats[a][b] and beats[b][c] and beats[c][a]]


# ------------------------------------------------------------------ playing
@dataclass(frozen=True)
class MatchBlock:
    """A block of one match's games (`play.Block`) with a number unique in the run (the
    Dask backend names tasks by `index`: blocks of different matches share chunk numbers)."""

    index: int
    key: str  # the match
    block: Block


def run_match_block(task: MatchBlock):
    """`play.run_block` for a block of a tournament's match."""
    return run_block(task.block)


def tournament(rules, strategies: list[str], games: int, seed: int, out, workers: int | None = None,
               scheduler: str | None = None, echo=print, reps: int = BOOT_REPS,
               samples: bool = True) -> dict:
    """Play the matches OUT lacks, rate the entrants, write ratings.csv, matrix.csv and
    tournament.html (see the module doc); returns the result tables and timings."""
    from crates_sim.data.dataset import Seating
    from crates_sim.runs.runner import available_cpus, make_backend

    entrants = [s.strip() for s in strategies if s.strip()]
    if len(entrants) < 2:
        raise CratesError("--strategies: give at least two entrants")
    dup = sorted({s for s in entrants if entrants.count(s) > 1})
    if dup:
        raise CratesError(f"--strategies: {', '.join(dup)} entered twice (entrants are distinct)")
    if games < 2:
        raise CratesError("--games must be at least 2")
    out = Path(out)
    state = _check_out(out, _identity(rules, seed, games))
    matches = schedule(entrants, rules.players, rules.partnerships)
    stored = {}
    for mt in matches:  # a damaged match file (cut short, half copied) is said and played again
        key = match_key(mt)
        if key in state["matches"]:
            per = read_stored(out / "matches" / f"{key}.parquet", f"the match {' v '.join(mt)}", echo)
            if per is not None:
                stored[key] = per
    todo = [mt for mt in matches if match_key(mt) not in stored]
    echo(f"{len(entrants)} entrants, {len(matches)} matches of {num(games)} deals "
         f"({len(matches) - len(todo)} stored, {len(todo)} to play)")
    from crates_sim.play.pyagent import python_specs
    from crates_sim.play.pyagent_run import note_slowdown

    for mt in todo:  # a run with Python agents says how much slower it is
        if python_specs(mt):
            plan = rotations(len(mt), rules.players, rules.partnerships)
            note_slowdown(rules, [mt[e] for e in plan[0]], echo=echo, again=True)
            break
    t0 = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    (out / "matches").mkdir(exist_ok=True)
    writers, blocks, plans = {}, [], {}
    try:
        for mt in todo:
            key = match_key(mt)
            plan = rotations(len(mt), rules.players, rules.partnerships)
            plans[key] = plan
            folder = out / "matches" / key
            if folder.exists():  # a match cut short: played again
                import shutil

                shutil.rmtree(folder)
            cmd = command(rules, entrants, games, seed, out, scheduler)
            w = writers[key] = open_dataset(folder, rules, list(mt), plan, seed, "games", "tournament", cmd)
            levels = tuple(mt)
            seatings = [Seating(r, tuple(e), tuple(mt[i] for i in e), levels, rules.partnerships)
                        for r, e in enumerate(plan)]
            spans = [(s, min(5000, games - s)) for s in range(0, games, 5000)]
            idx = w.add_chunks([(s, n, st.rotation) for st in seatings for s, n in spans])
            pairs = [(st, sp) for st in seatings for sp in spans]
            blocks += [MatchBlock(len(blocks) + j, key, Block(rules, st, seed, s, n, "games", str(folder), i))
                       for j, (i, (st, (s, n))) in enumerate(zip(idx, pairs, strict=True))]
        parts: dict[str, list] = {k: [] for k in writers}
        left = {k: sum(1 for b in blocks if b.key == k) for k in writers}
        if blocks:
            n_workers = max(1, min(workers or available_cpus(), len(blocks)))
            with make_backend(scheduler, None if scheduler else n_workers) as backend:
                for task, (summary, stats) in backend.run(run_match_block, blocks):
                    key = task.key
                    writers[key].done(task.block.index, stats)
                    parts[key].append(summary)
                    left[key] -= 1
                    if left[key] == 0:
                        per = pl.concat(parts[key]).sort("game", "rotation", "entry")
                        tmp = out / "matches" / f".{key}.parquet.tmp"
                        per.write_parquet(tmp)  # atomic: a match file is whole or absent
                        tmp.replace(out / "matches" / f"{key}.parquet")
                        stored[key] = per
                        writers[key].close()
                        mt = next(m for m in todo if match_key(m) == key)
                        state["matches"][key] = {"entrants": list(mt), "rotations": plans[key]}
                        _save_state(out, state)
                        done = sum(1 for v in left.values() if v == 0)
                        echo(f"  match {done}/{len(todo)}: {' v '.join(mt)} "
                             f"({time.perf_counter() - t0:.1f} s)")
    finally:
        for w in writers.values():
            if w.m["status"] == "running":
                w.close("failed")
    played = time.perf_counter() - t0
    _save_state(out, state)
    index = {s: i for i, s in enumerate(entrants)}
    results = []
    for mt in matches:
        per = stored[match_key(mt)]
        results.append((tuple(index[s] for s in mt), per))
    lower = rules.family == "crates"
    r = rate(results, len(entrants), lower, reps=reps, seed=seed)
    per_game = {s: 0 for s in entrants}
    for mt in matches:
        plan = state["matches"][match_key(mt)]["rotations"]
        for s in mt:
            per_game[s] += games * len(plan)
    ratings = pd.DataFrame({"strategy": entrants, "rating": r["rating"], "lo": r["lo"], "hi": r["hi"],
                            "games": [per_game[s] for s in entrants]})
    ratings = ratings.sort_values("rating", ascending=False).reset_index(drop=True)
    rows = []
    for a, sa in enumerate(entrants):
        for b, sb in enumerate(entrants):
            if a != b:
                rows.append({"strategy": sa, "opponent": sb, "score": r["share"][a, b],
                             "lo": r["share_lo"][a, b], "hi": r["share_hi"][a, b],
                             "deals": int(r["deals"][a, b])})
    matrix = pd.DataFrame(rows)
    ratings.round(1).to_csv(out / "ratings.csv", index=False)
    matrix.round(4).to_csv(out / "matrix.csv", index=False)
    links = sample_games(rules, matches, state, seed, out, echo) if samples else []
    nash = nash_average(r["share"])
    nash = {"table": pd.DataFrame({"strategy": entrants, "weight": nash["weight"], "score": nash["score"]})
            .sort_values(["weight", "score"], ascending=False).reset_index(drop=True),
            "exploitability": nash["exploitability"],
            "cycles": intransitive(entrants, r["share"], r["share_lo"], r["share_hi"])}
    result = {"ratings": ratings, "matrix": matrix, "matches": len(matches), "played": len(todo),
              "wall": played, "entrants": entrants, "games": games, "links": links,
              "boot": r, "nash": nash}
    doc = document(result, rules, seed)
    result["paths"] = doc.write(out / "tournament.html")
    return result


def _save_state(out: Path, state: dict) -> None:
    tmp = out / "tournament.json.tmp"
    tmp.write_text(json.dumps(state, indent=1))
    tmp.replace(out / "tournament.json")


def sample_games(rules, matches, state, seed: int, out: Path, echo) -> list[tuple[str, str]]:
    """One sample game per match (deal 0, the first rotation) as a log and a replay page
    in OUT/games/; returns (match, page path relative to OUT)."""
    from crates_sim.play.pyagent_run import trace_game
    from crates_sim.play.replay_html import write_page

    folder = out / "games"
    folder.mkdir(exist_ok=True)
    links = []
    for mt in matches:
        key = match_key(mt)
        page = folder / f"{key}.html"
        if not page.exists():
            plan = state["matches"][key]["rotations"]
            events = trace_game(rules, [mt[e] for e in plan[0]], seed, 0)
            (folder / f"{key}.jsonl").write_text(
                "\n".join(json.dumps(e, separators=(",", ":")) for e in events) + "\n")
            write_page(events, page)
        links.append((" v ".join(mt), f"games/{page.name}"))
    return links


def command(rules, strategies, games, seed, out, scheduler=None) -> str:
    """The `crates tournament` command line of this tournament."""
    args = ["crates", "tournament", "--preset", rules.preset_name, "--players", str(rules.players)]
    if not rules.partnerships and rules.players == 4:
        args.append("--no-partnerships")
    for key, value in rules.differences().items():
        if key != "partnerships":
            args += ["--set", f"{key}={value}"]
    args += ["--strategies", ",".join(strategies), "--games", str(games), "--seed", str(seed),
             "--out", str(out)]
    if scheduler:
        args += ["--scheduler", scheduler]
    return shlex.join(args)


# ------------------------------------------------------------------ the page
def document(result: dict, rules, seed: int) -> Document:
    """tournament.html: leaderboard, ratings figure, heat map of the win matrix, samples."""
    ratings, matrix = result["ratings"], result["matrix"]
    G = result["games"]
    lower = rules.family == "crates"
    doc = Document(f"Tournament: {len(ratings)} entrants ({rules.describe()}, {rules.players} players)",
                   f"{result['matches']} duplicate matches of {num(G)} deals (games 0..{G - 1} of seed "
                   f"{seed}), each deal played once per rotation of the match's entrants over the seats "
                   f"({result['played']} matches played in this run, in {result['wall']:.1f} s). In each game "
                   f"an entrant beats another when its score is {'lower' if lower else 'higher'}; ratings "
                   f"are Bradley–Terry strengths on the Elo scale (mean 1500; +100 = a 64% expected score), "
                   f"with 95% CIs from {BOOT_REPS} bootstrap resamples of the deals.")
    sec = doc.section("Leaderboard", "leaderboard")
    sec.table(pd.DataFrame({"rank": range(1, len(ratings) + 1), "strategy": ratings["strategy"],
                            "rating (95% CI)": [ci_text(e, lo, hi, 0) for e, lo, hi in
                                                zip(ratings["rating"], ratings["lo"], ratings["hi"], strict=True)],
                            "games": ratings["games"]}),
              "Bradley–Terry ratings, Elo scale, bootstrap 95% CIs")
    fig, ax = figure("Ratings", "rating (Elo scale)", "strategy", size=(7.5, max(3.0, 0.8 + 0.45 * len(ratings))))
    y = np.arange(len(ratings))[::-1]
    ax.errorbar(ratings["rating"], y, xerr=np.vstack([ratings["rating"] - ratings["lo"],
                                                      ratings["hi"] - ratings["rating"]]),
                fmt="o", capsize=4, color=PALETTE[0], label="rating, 95% CI")
    ax.axvline(ELO0, color="grey", ls="--", lw=1, label="field mean")
    ax.set_yticks(y)
    ax.set_yticklabels(ratings["strategy"])
    ax.legend()
    sec.figure("ratings", fig, "Each entrant's rating with its bootstrap 95% CI.")

    sec = doc.section("Win matrix", "matrix")
    order = list(ratings["strategy"])
    m = len(order)
    P = np.full((m, m), np.nan)
    cells = {(r.strategy, r.opponent): r for r in matrix.itertuples()}
    for i, a in enumerate(order):
        for j, b in enumerate(order):
            if a != b and (a, b) in cells:
                P[i, j] = cells[a, b].score
    fig, ax = figure("Share of games won against each opponent", "opponent", "strategy",
                     size=(max(6.0, 1.6 + 1.0 * m), max(4.5, 1.0 + 0.8 * m)))
    im = ax.imshow(100 * P, cmap="RdBu", vmin=0, vmax=100)
    for i in range(m):
        for j in range(m):
            if i != j and np.isfinite(P[i, j]):
                c = cells[order[i], order[j]]
                ax.text(j, i, f"{100 * c.score:.0f}%\n[{100 * c.lo:.0f}, {100 * c.hi:.0f}]",
                        ha="center", va="center", fontsize=7)
    ax.set_xticks(range(m))
    ax.set_xticklabels(order, rotation=45, ha="right")
    ax.set_yticks(range(m))
    ax.set_yticklabels(order)
    ax.grid(False)
    fig.colorbar(im, ax=ax, label="% of games the row entrant beat the column entrant")
    sec.figure("matrix", fig, "The row entrant's share of the games against the column entrant "
               "(ties count half), with bootstrap 95% CIs; blue: the row entrant is better.")
    sec.table(pd.DataFrame({"strategy": matrix["strategy"], "opponent": matrix["opponent"],
                            "share of games won (95% CI)": [ci_text(e, lo, hi, 1, pct=True) for e, lo, hi in
                                                            zip(matrix["score"], matrix["lo"], matrix["hi"], strict=True)],
                            "deals": matrix["deals"]}), "Every pair, both ways")
    sec = doc.section("Intransitivity: a Nash average", "nash")
    nash = result["nash"]
    if nash["cycles"]:
        sec.text("**Intransitive triples** (each result's 95% CI above one half): "
                 + "; ".join(f"{a} > {b} > {c} > {a}" for a, b, c in nash["cycles"])
                 + ". A single rating cannot order these: the Nash average below can.")
    else:
        sec.text("No intransitive triple: no a > b > c > a in which every result's 95% CI lies "
                 "above one half, so the ratings order the entrants without contradiction.")
    t = nash["table"]
    sec.table(pd.DataFrame({"strategy": t["strategy"], "weight in the Nash mixture": [f"{w:.3f}" for w in t["weight"]],
                            "share of games against the mixture": [f"{100 * s:.1f}%" for s in t["score"]]}),
              "Nash averaging (the zero-sum game of the win matrix; equilibrium by multiplicative "
              f"weights; exploitability {100 * nash['exploitability']:.2f} percentage points)")
    sec.text("The Nash mixture is the field an opponent would have to face to gain nothing by "
             "picking an entrant: entrants with weight hold their own against it (50%); the "
             "others' shortfall is how much worse than the mixture they are. Unlike the ratings, "
             "it does not reward beating weak entrants that are entered many times.")
    if result["links"]:
        sec = doc.section("Sample games", "samples")
        sec.text("One game per match (deal 0, first rotation), to watch step by step:")
        sec.links(result["links"])
    return doc
