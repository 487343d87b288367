"""Fit expert's learned value at the rollout cutoff (VALUE_CRATES, VALUE_EIGHTS in
`strategies/expert.py`) from engine-generated positions, and write them there.

Contract: `crates rebuild expert-cutoff [--positions N] [--seed S] [--depth D] [--write]`
(`fit_all`) regenerates the coefficients from scratch (deterministic for a seed) and
prints them with the fit's R^2; --write (`write`) rewrites the block between
`# BEGIN VALUE` and `# END VALUE` in expert.py (numba's cache then recompiles expert).
`python -m crates_sim.strategies.expert_fit ...` is its older name and runs it.

How: positions are the decisions of seat 0 in games of `tuned` (Table, seat 0 answered
by tuned's hint), the hidden cards dealt at random as expert deals them (pimc's
`_deal_hidden`, with the voids). From each, a random option is played out twice on the
same random streams by expert's rollout policy (softmax over tuned's scores, temp 0.5):
once cut after `depth` turns, once to the hand's end; the two agree on the first
`depth` turns. The target is the end's value minus the cut's value as it stands
(`hand_value`), clipped to its 1st and 99th percentiles, regressed (least squares) on `cut_features` at the cut. Crates: classic
4 players, partnerships and individual; Crazy Eights: crazy-eights with 3 and 4 players.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np

from crates_sim.cards import PH_AGAIN, PH_COUNT, PH_PLAY
from crates_sim.engine import engine_nb as E
from crates_sim.engine.api import engine_table, prepare
from crates_sim.play.step import Table
from crates_sim.rules import Rules

#: targets are clipped to their CLIP and 100 - CLIP percentiles
CLIP = 1.0
#: positions per family, and the cut (expert's default depth), by default
POSITIONS = 6000
DEPTH = 15
SETS = {"crates": [("classic", 4, True), ("classic", 4, False)],
        "eights": [("crazy-eights", 4, None), ("crazy-eights", 3, None)]}


def samples(rules, n_positions: int, seed: int, depth: int, keep: float = 0.25):
    """(features, targets) of n_positions cut rollouts of `rules` (module docstring)."""
    from crates_sim.params import N_PARAMS
    from crates_sim.strategies.expert import (
        EXPERT_DEPTH,
        EXPERT_SAMPLES,
        EXPERT_TEMP,
        EXPERT_VALUE,
        expert_position,
    )
    from crates_sim.strategies.pimc import _deal_hidden, _unseen

    rng = np.random.default_rng(seed)
    n = rules.players
    params = np.zeros(N_PARAMS)  # expert's row: uncut positions, tuned's softmax at 0.5
    params[EXPERT_SAMPLES], params[EXPERT_TEMP] = 1, 0.5
    params[EXPERT_DEPTH], params[EXPERT_VALUE] = 0, 0
    eng = engine_table()
    X, y = [], []
    game = 0
    while len(y) < n_positions:
        table = Table(rules, [None] + ["tuned"] * (n - 1), seed, game)
        game += 1
        while table.pending is not None and len(y) < n_positions:
            d = table.pending
            if d.phase in (PH_PLAY, PH_COUNT, PH_AGAIN) and rng.random() < keep:
                deal = expert_position(params, d.obs, d.hand, d.pile, eng)
                unseen = np.zeros(52, dtype=np.int64)
                k = _unseen(d.obs, d.hand, d.pile, unseen)
                voids = np.zeros(n, dtype=np.int64)  # plain random deals: no void inference
                s = rng.integers(1, 2**62, size=4).astype(np.int64)
                _deal_hidden(deal, d.seat, unseen, k, np.zeros(52, dtype=np.int64), voids,
                             voids.copy(), s)
                base = np.array([E.pressure_points(deal, q) for q in range(n)], dtype=np.int64)
                option = d.options[int(rng.integers(len(d.options)))]
                stream = int(rng.integers(1, 2**62))
                cut = E.copy_state(deal)
                E.limit_turns(cut, depth)
                full = E.copy_state(deal)
                for w in (cut, full):
                    E.seed_rollout(w, stream, 0)
                    E.force_first_decision(w, d.seat, option, d.phase == PH_AGAIN)
                    E.play_out(w)
                if E.is_cut(cut):
                    x = np.zeros(E.N_CUT_FEATURES)
                    E.cut_features(cut, d.seat, x)
                    X.append(x)
                    y.append(E.hand_value(full, d.seat, base) - E.hand_value(cut, d.seat, base))
            table.act(table.hint("tuned"))
    return np.array(X), np.array(y)


def fit(family: str, n_positions: int, seed: int, depth: int, echo=print):
    """Least-squares coefficients of the family's cutoff correction and the fit's R^2."""
    Xs, ys = [], []
    for i, (preset, players, partner) in enumerate(SETS[family]):
        rules = (Rules.preset(preset, players) if partner is None
                 else Rules.preset(preset, players, partnerships=partner))
        X, y = samples(rules, n_positions // len(SETS[family]), seed + i, depth)
        echo(f"  {family}: {preset} {players}p partnerships={partner}: {len(y)} positions")
        Xs.append(X)
        ys.append(y)
    X, y = np.vstack(Xs), np.concatenate(ys)
    lo, hi = np.percentile(y, [CLIP, 100 - CLIP])
    y = np.clip(y, lo, hi)  # runs of doubling pressures: a few huge targets would rule the fit
    coef, *_ = np.linalg.lstsq(X, y, rcond=None)
    resid = y - X @ coef
    r2 = 1.0 - resid.var() / max(y.var(), 1e-12)
    return coef, r2, len(y)


def write(path: Path, crates, eights) -> None:
    """Rewrite the VALUE block of expert.py with these coefficients."""
    text = path.read_text()
    block = ("# BEGIN VALUE\n"
             f"VALUE_CRATES = ({', '.join(f'{c:.6g}' for c in crates)})\n"
             f"VALUE_EIGHTS = ({', '.join(f'{c:.6g}' for c in eights)})\n"
             "# END VALUE")
    new = re.sub(r"# BEGIN VALUE.*?# END VALUE", block, text, flags=re.S)
    path.write_text(new)


def fit_all(positions: int = POSITIONS, seed: int = 1, depth: int = DEPTH, echo=print) -> dict:
    """{family: coefficients} of both families (SETS), each fitted on `positions`
    positions; `echo` gets each family's lines."""
    prepare(["expert"])
    found = {}
    for family in ("crates", "eights"):
        coef, r2, m = fit(family, positions, seed, depth, echo=echo)
        found[family] = coef
        echo(f"{family}: {m} positions, R^2 {r2:.3f}: ({', '.join(f'{c:.4g}' for c in coef)})")
    return found


def expert_source() -> Path:
    """The file `write` rewrites: strategies/expert.py."""
    from crates_sim.strategies import expert

    return Path(expert.__file__)


if __name__ == "__main__":  # the older name of `crates rebuild expert-cutoff` (it imports no command)
    import subprocess

    sys.exit(subprocess.call([sys.executable, "-m", "crates_sim", "rebuild", "expert-cutoff",
                              *sys.argv[1:]]))
