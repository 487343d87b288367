"""P(win | score margin, hands left): the win-probability model of `crates analyse`.

Contract: `win_probability(model, margin, hands_left)` is a seat's (its team's, with
partnerships) chance to win the game; `model_for(preset, players, partnerships)` is the
shipped model of that table (analysis/win_model.json), or None (Crazy Eights: no fixed
number of hands; a table not fitted). `crates rebuild win-model --write` rebuilds the
JSON (`fit_all`, `write_models`; about a minute on 2 cores); `--games N` sets the games
per table.

The model, per preset x players x partnerships (Crates family, 15 hands):

    margin = the mean total of the opposing units (seats, or the other team) - own total
    logit P(win) = a + b * m / sqrt(h + 1) + c * m / (h + 1),   m = margin / 100

where h is the number of hands still to deal after the current one ends. It is fitted by
logistic regression (Newton's method, fractional targets for shared wins) on the totals
after every hand of FIT_STRATEGY self-play games (`run_games`, seed FIT_SEED). At a
decision, `crates analyse` evaluates it at the totals so far plus each option's expected
margin change by the hand's end (P of the mean, not the mean of P: an approximation).
"""

from __future__ import annotations

import json
import math
from importlib import resources
from pathlib import Path

import numpy as np

#: the self-play of the fit (fast, and stronger than random), its seed, games per table
FIT_STRATEGY = "tuned"
FIT_SEED = 31
FIT_GAMES = 20000
#: the tables fitted
TABLES = [(preset, players, partners) for preset in ("classic", "league", "serbian")
          for players, partners in ((2, False), (3, False), (4, False), (4, True))]
HANDS = 15
_FILE = "win_model.json"
#: the shipped model file, which `crates rebuild win-model --write` rewrites
SHIPPED = Path(__file__).with_name(_FILE)
#: the command that rebuilds it, as the file names it
REBUILD = "crates rebuild win-model --write"


def key(preset: str, players: int, partnerships: bool) -> str:
    return f"{preset}/{players}/{'teams' if partnerships else 'seats'}"


def features(margin, hands_left):
    m = np.asarray(margin, dtype=float) / 100.0
    h = np.asarray(hands_left, dtype=float)
    return np.stack([np.ones_like(m), m / np.sqrt(h + 1.0), m / (h + 1.0)], axis=-1)


def win_probability(model: dict, margin: float, hands_left: int) -> float:
    z = float(features(margin, hands_left) @ np.asarray(model["coef"]))
    return 1.0 / (1.0 + math.exp(-max(min(z, 40.0), -40.0)))


def margins(totals, seat: int, partnerships: bool) -> float:
    """Own unit's margin over the opposing units' mean total (positive: ahead)."""
    n = len(totals)
    if partnerships:
        return float(totals[(seat + 1) % 2] - totals[seat % 2]) if n == 4 else 0.0
    others = [totals[q] for q in range(n) if q != seat]
    return float(sum(others) / len(others) - totals[seat])


_MODELS = None


def model_for(preset: str, players: int, partnerships: bool) -> dict | None:
    global _MODELS
    if _MODELS is None:
        try:
            text = resources.files("crates_sim.analysis").joinpath(_FILE).read_text()
            _MODELS = json.loads(text)["models"]
        except (OSError, ValueError, KeyError):  # pragma: no cover - a broken install
            _MODELS = {}
    found = _MODELS.get(key(preset, players, partnerships))
    return None if found is None else dict(found, key=key(preset, players, partnerships))


def logistic_fit(X, y, ridge: float = 1e-6, steps: int = 50):
    """Coefficients of logit P = X @ w for targets y in [0, 1] (Newton-Raphson)."""
    w = np.zeros(X.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(X @ w, -40, 40)))
        grad = X.T @ (y - p) - ridge * w
        hess = (X * (p * (1 - p))[:, None]).T @ X + ridge * np.eye(X.shape[1])
        step = np.linalg.solve(hess, grad)
        w += step
        if np.max(np.abs(step)) < 1e-9:
            break
    return w


def table_rows(preset: str, players: int, partners: bool, games: int, seed: int = FIT_SEED):
    """(margin, hands left, win) after every hand of `games` self-play games."""
    from crates_sim.engine.api import run_games
    from crates_sim.rules import Rules

    rules = Rules.preset(preset, players, partnerships=partners)
    r = run_games(rules, [FIT_STRATEGY] * players, seed, 0, games)
    n = players
    hands = r.hands
    cost = (hands["points"].astype(np.int64) + hands["pressure_points"]).reshape(games, HANDS, n)
    if partners:
        team = cost[:, :, 0::2].sum(axis=2), cost[:, :, 1::2].sum(axis=2)
        cost = np.stack([team[q % 2] for q in range(n)], axis=2)
    totals = np.cumsum(cost, axis=1).astype(float)  # games x hands x seats, after each hand
    win = r.games["win"].reshape(games, n).astype(float)
    m, h, y = [], [], []
    for q in range(n):
        if partners:
            margin = totals[:, :, (q + 1) % 2] - totals[:, :, q]
        else:
            margin = (totals.sum(axis=2) - totals[:, :, q]) / (n - 1) - totals[:, :, q]
        m.append(margin.ravel())
        h.append(np.tile(HANDS - np.arange(1, HANDS + 1), games))
        y.append(np.repeat(win[:, q], HANDS))
    return np.concatenate(m), np.concatenate(h), np.concatenate(y)


def fit_table(preset, players, partners, games) -> dict:
    m, h, y = table_rows(preset, players, partners, games)
    X = features(m, h)
    w = logistic_fit(X, y)
    p = 1.0 / (1.0 + np.exp(-np.clip(X @ w, -40, 40)))
    eps = 1e-12
    loss = float(-np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps)))
    return {"coef": [round(float(c), 6) for c in w], "games": games, "rows": int(len(y)),
            "log_loss": round(loss, 4), "base_rate": round(float(y.mean()), 4)}


def fit_all(games: int = FIT_GAMES, echo=print) -> dict:
    """The model file's content: every table of TABLES fitted on `games` self-play games
    (deterministic: seed FIT_SEED); `echo` gets a line per table as it is fitted."""
    models = {}
    for preset, players, partners in TABLES:
        models[key(preset, players, partners)] = fit_table(preset, players, partners, games)
        echo(f"{key(preset, players, partners)} {models[key(preset, players, partners)]}")
    return {"about": "P(win | margin, hands left) per table: see analysis/win_model.py; rebuilt by "
                     f"`{REBUILD}`",
            "features": "1, m/sqrt(h+1), m/(h+1); m = margin/100, h = hands left after this one",
            "strategy": FIT_STRATEGY, "seed": FIT_SEED, "models": models}


def write_models(data: dict, path=None) -> Path:
    """Write `fit_all`'s content as JSON to `path` (default: the shipped file)."""
    path = Path(path or SHIPPED)
    path.write_text(json.dumps(data, indent=1) + "\n")
    return path
