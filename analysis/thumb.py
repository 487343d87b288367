"""Rules of thumb from strong play: an interpretable model of `expert`'s choices, and how
well the `thumb` player's rules agree with expert (issue 31 part 3).

Contract:
- Data: the positions `crates train --player adept` stores (`DIR/round-K/data/*.npz`,
  `crates_sim.runs.train_adept.Data`): per card decision with two or more options the
  context row (adept.CONTEXT_FEATURES), per option its row (adept.OPTION_FEATURES) and
  expert's mean value of it (expected points to the hand's end, higher is better), the
  game (held out: game % 10 == 0, as the training holds them out) and the table kind
  (adept.TABLES). `load` reads them per table kind.
- `fit_tree(data)`: a shallow scikit-learn decision tree (depth DEPTH, seeded) over
  NAMED, human-readable features of the option and the decision (`design`); its label is
  "this option is expert's best of its decision"; it is fitted on the games not held out.
  It chooses, per decision, the option of the highest predicted probability, ties broken
  as greedy breaks them (the most card points, then the first option).
- `tree_rules(tree)`: its leaves in words (the conditions, the chance that an option
  there is expert's choice, the share of options there).
- `rule_scores(data, rules)`: the scores of the `thumb` player (strategies/thumb.py) with
  those rules switched on, computed from the same rows, so that each rule's agreement
  with expert is measured on the data it was drawn from.
- `fidelity(data, scores)`: on the held-out decisions, the share where the choice is
  expert's best option (agreement) and expert's value of its best option minus its value
  of the choice (regret, points per decision). `report(...)` gives, per table kind,
  greedy's, the tree's, each rule's, thumb's, the apprentice's and adept's.
- `crates rebuild thumb --data DIR` prints the rules in words and the fidelity table
  (deterministic: sorted files, seeded tree); `--json PATH` writes it.
  `python -m crates_sim.analysis.thumb ...` is its older name and runs it.

scikit-learn is an optional extra (`pip install crates-sim[rules]`): only `fit_tree`
and the command need it; no kernel and no other command does.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

#: the tree's depth, its smallest leaf (a share of the training options) and its seed
DEPTH = 4
MIN_LEAF = 0.005
SEED = 0
#: the table kinds analysed by default (adept.TABLES): classic Crates first
KINDS = ("crates-individual", "crates-partnerships")
#: the option's features the tree sees: name in adept.OPTION_FEATURES -> (scale, words
#: when true or "x <= t", words when false or "x > t"); a binary feature has scale 0
OPTION_WORDS = {
    "value": (10.0, "the card is worth {op} {t} points", None),
    "wild": (0, "the card is wild (an 8 or 9)", "the card is not wild"),
    "three": (0, "the card is a 3", "the card is not a 3"),
    "e_count": (0, "the card starts or answers a count (a 2 or an A)", "the card starts no count"),
    "e_skip": (0, "the card skips the next player (a 4)", "the card is not a 4"),
    "e_five": (0, "the card makes everyone draw (a 5)", "the card is not a 5"),
    "e_six": (0, "the card lets you play again (a 6)", "the card is not a 6"),
    "e_seven": (0, "the card makes a player draw (a 7)", "the card is not a 7"),
    "e_reverse": (0, "the card reverses play (a T)", "the card is not a T"),
    "opp_hits": (1.0, "it hits {op} {t} opponent(s)", None),
    "partner_hits": (0, "it hits your partner", "it does not hit your partner"),
    "leader_hits": (1.0, "it hits {op} {t} leading or one-card opponent(s)", None),
    "keeps_suit": (0, "it stays in the suit in play", "it changes the suit"),
    "left_in_suit": (4.0, "you keep {op} {t} cards of the suit it makes current", None),
    "goes_out": (0, "it is your last card", "it is not your last card"),
    "six_follow": (0, "it is a 6 you can follow (you keep a card of its suit)",
                   "it is not a 6 you can follow"),
    "next_opp_void": (0, "the next opponent has shown a void in the suit it makes current",
                      "the next player has shown no void in its suit"),
    "suit_seen": (13.0, "{op} {t} cards of the suit it makes current are on the pile", None),
    "highest_value": (0, "it is your highest-points legal card (greedy's choice)",
                      "it is not your highest-points legal card"),
    "action": (0, "it is a draw", "it is a card"),
}
CONTEXT_WORDS = {
    "hand": (8.0, "you hold {op} {t} cards", None),
    "min_opp_hand": (8.0, "the shortest opponent hand has {op} {t} cards", None),
    "stock": (20.0, "the stock has {op} {t} cards", None),
    "mate_hand": (8.0, "your partner holds {op} {t} cards", None),
    "phase_count": (0, "a count is on", "no count is on"),
    "options": (8.0, "you have {op} {t} legal options", None),
    "threes_held": (4.0, "you hold {op} {t} 3(s)", None),
    "wilds_held": (4.0, "you hold {op} {t} wild card(s)", None),
    "standing": (100.0, "your side leads by {op} {t} points", None),
    "hand_points": (100.0, "your hand would score {op} {t} points now", None),
}
#: the thumb player's rules (strategies/thumb.py), in order; DEFAULT_RULES: those on in `thumb`
RULES = ("wild", "six", "suit", "hit")
DEFAULT_RULES = ("wild", "six", "suit")
RULE_WORDS = {
    "wild": "keep your 8s and 9s: play a wild only when your other legal cards are 3s and "
            "aces, or when an opponent is down to one card",
    "six": "play a 6 you can follow (you keep a card of its suit) before any other tame card",
    "suit": "between cards of equal points, stay in the suit in play",
    "hit": "in partnerships, a card counts 15 points more per opponent it hits and 15 less "
           "if it hits your partner",
}


def _features():
    from crates_sim.strategies.adept import CONTEXT_FEATURES, OPTION_FEATURES

    return list(OPTION_FEATURES), list(CONTEXT_FEATURES)


# ================================================================ the data
def load(data_dir, rounds=(1, 2), every: int = 2, kinds=KINDS) -> dict:
    """{table kind name: Data} of the block files of these rounds (every `every`-th file,
    in sorted order) under data_dir/round-K/data."""
    from crates_sim.errors import CratesError
    from crates_sim.runs.train_adept import Data
    from crates_sim.strategies.adept import TABLES

    paths = []
    for r in rounds:
        paths += sorted(Path(data_dir, f"round-{r}", "data").glob("block-*.npz"))[::max(every, 1)]
    if not paths:
        raise CratesError(f"no positions under {data_dir}/round-{{{','.join(map(str, rounds))}}}"
                          f"/data: make them with `crates train --player adept --out "
                          f"{data_dir}` (or name the folder with --data)")
    data = Data(paths)
    return {name: data.select(data.kind == TABLES.index(name)) for name in kinds}


def from_arrays(ctx, rows, decision, value, game, kind) -> object:
    """A Data from arrays (as a block file holds them): for tests and other sources."""
    from crates_sim.runs.train_adept import Data

    data = object.__new__(Data)
    data.ctx = np.asarray(ctx, np.float32)
    data.rows = np.asarray(rows, np.float32)
    data.group = np.asarray(decision, np.int64)
    data.value = np.asarray(value, np.float32)
    data.game = np.asarray(game, np.int32)
    data.kind = np.asarray(kind, np.int8)
    return data


def design(data):
    """(X, names, words): the tree's inputs per option row, their names and their
    (scale, true/<= words, false/> words)."""
    opt, ctx = _features()
    cols = [data.rows[:, opt.index(n)] for n in OPTION_WORDS]
    cols += [data.ctx[data.group, ctx.index(n)] for n in CONTEXT_WORDS]
    names = list(OPTION_WORDS) + [f"ctx_{n}" for n in CONTEXT_WORDS]
    words = list(OPTION_WORDS.values()) + list(CONTEXT_WORDS.values())
    return np.stack(cols, axis=1).astype(np.float32), names, words


def choose(data, scores) -> np.ndarray:
    """Per decision, the row of the highest score (ties: the first row)."""
    g = data.group
    order = np.lexsort((np.arange(len(g)), -np.asarray(scores, np.float64), g))
    return order[np.r_[True, g[order][1:] != g[order][:-1]]] if len(g) else order


def greedy_key(data) -> np.ndarray:
    """greedy's score of every row: the card's points (a draw or pass: never while a card
    is legal)."""
    opt, _ = _features()
    points = data.rows[:, opt.index("value")].astype(np.float64) * 10.0
    return np.where(data.rows[:, opt.index("action")] > 0, -1.0e9, points)


def held_out(data) -> np.ndarray:
    """The held-out decisions (game % 10 == 0)."""
    return np.asarray(data.game) % 10 == 0


def fidelity(data, scores, decisions=None) -> dict:
    """Agreement with expert's best option and regret (points per decision) of the choice
    of the highest score, on `decisions` (a mask; default the held-out ones)."""
    decisions = held_out(data) if decisions is None else decisions
    chosen = choose(data, scores)
    best = choose(data, data.value)
    v = data.value.astype(np.float64)
    n = int(decisions.sum())
    if n == 0:
        return {"decisions": 0, "agreement": float("nan"), "regret": float("nan")}
    return {"decisions": n,
            "agreement": float((chosen == best)[decisions].mean()),
            "regret": float((v[best] - v[chosen])[decisions].mean())}


# ================================================================ the tree
def fit_tree(data, depth: int = DEPTH, min_leaf: float = MIN_LEAF, seed: int = SEED):
    """The decision tree of "is this option expert's choice", fitted on the decisions not
    held out (scikit-learn's DecisionTreeClassifier; needs the `rules` extra)."""
    try:
        from sklearn.tree import DecisionTreeClassifier
    except ImportError:  # pragma: no cover - the optional extra
        from crates_sim.errors import CratesError

        raise CratesError("the rules of thumb need scikit-learn: pip install "
                          "'crates-sim[rules]' (or pip install scikit-learn)") from None
    X, _, _ = design(data)
    best = choose(data, data.value)
    label = np.zeros(len(X), np.int8)
    label[best] = 1
    train = ~held_out(data)[data.group]
    tree = DecisionTreeClassifier(max_depth=depth, min_samples_leaf=min_leaf,
                                  random_state=seed)
    tree.fit(X[train], label[train])
    return tree


def tree_scores(tree, data) -> np.ndarray:
    """The tree's score of every row: P(expert's choice), ties broken as greedy's."""
    X, _, _ = design(data)
    p = tree.predict_proba(X)
    p = p[:, list(tree.classes_).index(1)] if 1 in tree.classes_ else np.zeros(len(X))
    return p + 1e-9 * np.maximum(greedy_key(data), -1.0)


def _condition(words, value, true_side):
    scale, yes, no = words
    if scale == 0:
        return no if true_side else yes  # "x <= 0.5" is the feature's false side
    t = value * scale
    if abs(t - np.floor(t) - 0.5) < 0.05:  # a split between whole numbers: name them
        return yes.format(op="at most" if true_side else "at least",
                          t=f"{np.floor(t) if true_side else np.ceil(t):g}")
    return yes.format(op="at most" if true_side else "more than", t=f"{round(t, 1):g}")


def tree_rules(tree, data) -> list[dict]:
    """The tree's leaves, in words: {"if": [conditions], "p": P(expert's choice),
    "share": the share of the options there}, the likeliest first."""
    _, names, words = design(data)
    t = tree.tree_
    one = list(tree.classes_).index(1) if 1 in tree.classes_ else None
    total = t.weighted_n_node_samples[0]
    out = []

    def walk(node, path):
        if t.children_left[node] == -1:
            counts = t.value[node][0]
            p = float(counts[one] / counts.sum()) if one is not None else 0.0
            out.append({"if": path, "p": p, "share": float(t.weighted_n_node_samples[node] / total)})
            return
        f, thr = t.feature[node], t.threshold[node]
        walk(t.children_left[node], path + [_condition(words[f], thr, True)])
        walk(t.children_right[node], path + [_condition(words[f], thr, False)])

    walk(0, [])
    del names
    return sorted(out, key=lambda r: -r["p"])


# ================================================================ the thumb player's rules
def rule_scores(data, rules=DEFAULT_RULES, partnerships=None) -> np.ndarray:
    """The `thumb` player's score of every row with these rules on (strategies/thumb.py
    plays the first option of the best score; no rules: greedy)."""
    from crates_sim.strategies import thumb as T

    opt, ctx = _features()
    R = data.rows
    s = greedy_key(data).copy()
    wild = R[:, opt.index("wild")] > 0
    if partnerships is None:
        partnerships = bool(len(data.kind)) and bool(np.all(np.asarray(data.kind) % 2 == 1))
    if "wild" in rules:
        fewest = np.rint(data.ctx[data.group, ctx.index("min_opp_hand")] * 8.0)
        keep = wild & (fewest > 1)
        s = np.where(keep, T.WILD_FLOOR + s / 100.0, s)
    if "six" in rules:
        s = s + T.SIX_BONUS * (R[:, opt.index("six_follow")] > 0)
    if "hit" in rules and partnerships:
        s = s + T.HIT_POINTS * (R[:, opt.index("opp_hits")] - R[:, opt.index("partner_hits")])
    if "suit" in rules:
        s = s + T.SUIT_TIE * (R[:, opt.index("keeps_suit")] > 0)
    return s


def apprentice_scores(data, partnerships: bool) -> np.ndarray:
    """The shipped apprentice's score of every row (its compact rows are the first
    N_COMPACT features of adept's; its five context scalars are adept's first five)."""
    from crates_sim.strategies.apprentice import N_BASE, N_COMPACT, N_CROSSED, read_weights

    w = read_weights()[1 if partnerships else 0]
    rows = data.rows[:, :N_COMPACT].astype(np.float64)
    c = data.ctx[data.group, :5].astype(np.float64)
    s = rows[:, :N_BASE] @ w[:N_BASE]
    for k in range(N_CROSSED):
        s += rows[:, N_BASE + k] * (c @ w[N_BASE + 5 * k:N_BASE + 5 * k + 5])
    return s


def adept_scores(data, kind: str):
    """The shipped adept's score of every row (None: no network for this kind)."""
    from crates_sim.runs.train_adept import scores
    from crates_sim.strategies.adept import read_weights, shipped_weights_path

    net = read_weights(shipped_weights_path()).get(kind)
    return None if net is None else scores(net, data)


# ================================================================ the report
def report(tables: dict, depth: int = DEPTH, baselines: bool = True) -> dict:
    """Per table kind: the tree's rules in words and the fidelity (agreement, regret) on
    held-out decisions of greedy, the tree, greedy + each rule, thumb, the apprentice
    and adept."""
    out = {}
    for kind, data in tables.items():
        partnerships = kind.endswith("partnerships")
        tree = fit_tree(data, depth=depth)
        rows = {"greedy": fidelity(data, greedy_key(data)),
                f"tree (depth {depth})": fidelity(data, tree_scores(tree, data))}
        for r in RULES:
            rows[f"greedy + {r}"] = fidelity(data, rule_scores(data, (r,), partnerships))
        rows["thumb (" + " + ".join(DEFAULT_RULES) + ")"] = fidelity(
            data, rule_scores(data, DEFAULT_RULES, partnerships))
        rows["thumb + hit"] = fidelity(data, rule_scores(data, RULES, partnerships))
        if baselines:
            rows["apprentice"] = fidelity(data, apprentice_scores(data, partnerships))
            s = adept_scores(data, kind)
            if s is not None:
                rows["adept"] = fidelity(data, s)
        out[kind] = {"decisions": len(data), "held_out": int(held_out(data).sum()),
                     "rules": tree_rules(tree, data), "fidelity": rows}
    return out


def render(result: dict) -> str:
    """The report as text: per table kind the tree's leaves in words, then the table."""
    lines = ["Rules of thumb from expert's choices (the thumb player's rules):"]
    lines += [f"  {r}: {RULE_WORDS[r]}" + ("" if r in DEFAULT_RULES else " (off in thumb)")
              for r in RULES]
    for kind, r in result.items():
        lines += ["", f"== {kind}: {r['decisions']:,} decisions, {r['held_out']:,} held out",
                  "the tree's leaves (P = chance that an option there is expert's choice):"]
        for leaf in r["rules"]:
            lines.append(f"  P {leaf['p']:.2f} ({leaf['share']:.1%} of options): "
                         + " and ".join(leaf["if"]))
        lines.append("fidelity on held-out decisions: agreement with expert, regret (points "
                     "per decision)")
        for name, f in r["fidelity"].items():
            lines.append(f"  {name:32s} {f['agreement']:6.1%}  {f['regret']:6.2f}")
    return "\n".join(lines)


if __name__ == "__main__":  # the older name of `crates rebuild thumb` (it imports no command)
    import subprocess

    sys.exit(subprocess.call([sys.executable, "-m", "crates_sim", "rebuild", "thumb", *sys.argv[1:]]))
