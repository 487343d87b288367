"""The report's summary: the three questions this toolkit exists for, answered first.

Contract. `answers(D)` returns three `Answer`s, in this order:

  * hoarding: does keeping 3s pay? Answered only where the dataset holds two strategies of
    the greedy family that differ in nothing but how they play 3s (`three_worth`: greedy
    and hoard3 keep them until forced, dump3 plays them first, keep3:three=W in between)
    and the design is clean for them: the strategies rotated over the seats so that each
    sits at every seat equally often, with the same partners. Then the headline is the
    keeper's win rate minus the dumper's per deal (95% t CI over deals) and a verdict
    ("pays", "costs", "no clear difference"). Where the seats are fixed, or the partners
    differ, the effect is confounded: the answer says with what, gives the `crates compare`
    command that measures it, and states no verdict.
  * pressures: how often do pressures happen? The share of hands with one (hands/), the
    pressures per game and the share of games with one, clustered 95% CIs. A rate of
    these strategies under these rules, not a cause.
  * seats: which seats are favoured? Win share per seat (per team in partnerships) against
    the fair share, clustered 95% CIs; a seat is named only where its CI misses the fair
    share. Where the seats play different strategies without rotation, seat and strategy
    are confounded: no verdict, and the command that measures seats cleanly.

Each Answer holds one plain sentence (`sentence`: figure and CI), what the data can and
cannot support (`support`), an optional command, and a small chart (`figure`). The
report shows them first, each with its chart beside it (`render.Section.answer`).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

import polars as pl

from . import stats
from .data import Data, cluster_means, collect
from .render import PALETTE, bars_ci, ci_text, figure, num

#: the greedy family: greedy shedding that differs only in how 3s are played
GREEDY_FAMILY = ("greedy", "hoard3", "dump3", "keep3")
#: a 3's worth kept (keep3's `three`) of the other members: greedy values a 3 at 0 and so
#: plays it only when forced, as hoard3 does (docs/findings.md); dump3 plays it first
FIXED_WORTH = {"greedy": 0.0, "hoard3": 0.0, "dump3": -100.0}
#: where the commands the summary suggests write (each names its own --out)
SUGGESTED_ROOT = "results"


@dataclass
class Answer:
    """One question of the summary, answered."""

    key: str  # hoarding | pressures | seats
    question: str
    sentence: str  # the answer, with its figure and 95% CI
    support: str  # what the data can and cannot support
    verdict: str | None  # a short verdict where the design allows one, else None
    command: str | None = None  # the command that measures what this dataset cannot
    figure: object = None  # a matplotlib figure
    caption: str = ""


def three_worth(spec: str) -> float | None:
    """How much a strategy keeps its 3s, as keep3's `three` (0 keeps them until forced in
    Crates, -100 plays them first); None outside the greedy family or with keep3's `late`."""
    name, *pairs = [p.strip() for p in str(spec).split(":")]
    if name not in GREEDY_FAMILY:
        return None
    params = {}
    for pair in pairs:
        key, _, raw = pair.partition("=")
        try:
            params[key] = float(raw)
        except ValueError:
            return None
    if name == "keep3":
        if params.get("late", 0.0) != 0.0:
            return None
        # every worth >= 0 plays as greedy; <= -50 (below an 8's 50 points) as dump3
        return float(min(max(params.get("three", 0.0), -100.0), 0.0))
    return FIXED_WORTH[name]


def _strategies(D: Data) -> list[str]:
    m = D.manifest
    return list(dict.fromkeys(m.get("entries") or m["strategies"]))


def _rotations(D: Data) -> list[list[str]]:
    """Strategy per seat of each rotation (one rotation where the seating is fixed)."""
    return [list(r) for r in (D.manifest.get("rotations") or [D.manifest["strategies"]])]


def _players_flags(D: Data) -> list[str]:
    args = ["--preset", D.preset, "--players", str(D.players)]
    default = type(D.rules).preset(D.rules.preset_name, D.players).partnerships
    if D.partnerships != default:
        args.append("--partnerships" if D.partnerships else "--no-partnerships")
    for key, value in D.rules.differences().items():
        if key != "partnerships":
            args += ["--set", f"{key}={value}"]
    return args


def suggested_out(*parts: str) -> str:
    """The --out folder of a suggested command: results/<parts, as a file name>, so that the
    command runs as pasted (issue 39 §4)."""
    name = "-".join(re.sub(r"[^A-Za-z0-9]+", "-", p).strip("-") for p in parts if p)
    return f"{SUGGESTED_ROOT}/{name or 'run'}"


def compare_command(D: Data, a: str, b: str) -> str:
    """The `crates compare` command that measures a against b under this dataset's rules
    (with its --out: it runs as pasted)."""
    deals = int(collect(D.games.select(pl.col("game").n_unique())).item())  # not counting rotations
    games = max(2000, deals)
    return shlex.join(["crates", "compare", *_players_flags(D), "--strategies", f"{a},{b}",
                       "--games", str(games), "--seed", str(D.manifest["seed"]),
                       "--out", suggested_out("compare", a, b)])


def _label(spec: str) -> str:
    return f"{spec} (plays exactly as greedy in Crates)" if spec.split(":")[0] == "hoard3" else spec


# ------------------------------------------------------------------ design checks
def contrast_pair(D: Data) -> tuple[str, str] | None:
    """(keeper, dumper): the two greedy-family strategies of the dataset with the largest
    and smallest 3 worth, where they differ; else None."""
    worth = {s: three_worth(s) for s in _strategies(D)}
    family = {s: w for s, w in worth.items() if w is not None}
    if len(family) < 2:
        return None
    named = {"hoard3": 2, "dump3": 2, "keep3": 1}  # ties: the strategy named for its 3s
    keeper = max(family, key=lambda k: (family[k], named.get(k.split(":")[0], 0)))
    dumper = min(family, key=lambda k: (family[k], -named.get(k.split(":")[0], 0)))
    return (keeper, dumper) if family[keeper] > family[dumper] else None


def confounds(D: Data, a: str, b: str) -> list[str]:
    """What the design mixes into the a − b difference: seats (a and b not at every seat
    equally often) and, with partnerships, partners (a's partners not b's); [] when clean."""
    plans = _rotations(D)
    P = D.players
    out = []
    seat_a = [sum(r[s] == a for r in plans) for s in range(P)]
    seat_b = [sum(r[s] == b for r in plans) for s in range(P)]
    if len(set(seat_a)) > 1 or len(set(seat_b)) > 1 or sum(seat_a) != sum(seat_b):
        where = lambda name: ", ".join(str(s) for s in range(P) if any(r[s] == name for r in plans))  # noqa: E731
        fixed = "the seats are not rotated" if len(plans) == 1 else "the rotation does not seat them equally"
        out.append(f"{fixed}: {a} plays from seat {where(a)}, {b} from seat {where(b)}")
    if D.partnerships:
        def partners(name):
            return sorted({r[(s + 2) % P] for r in plans for s in range(P) if r[s] == name})
        pa, pb = partners(a), partners(b)
        if [p if p != a else "itself" for p in pa] != [p if p != b else "itself" for p in pb]:
            out.append(f"{a}'s partner is {' / '.join(pa)} and {b}'s is {' / '.join(pb)}")
    return out


# ------------------------------------------------------------------ the three answers
def _per_game_win(D: Data) -> float:
    row = collect(D.games.select(pl.col("win").sum().alias("w"),
                                 pl.struct(D.game_keys).n_unique().alias("g")))
    return float(row["w"][0] / row["g"][0]) if row["g"][0] else 1.0


def hoarding_answer(D: Data) -> Answer:
    """Does keeping 3s pay? (module docstring)."""
    q = "Does 3-hoarding pay?"
    if D.family != "crates":
        return Answer("hoarding", q, "The question does not apply: 3s have no special value in Crazy Eights.",
                      "Nothing to measure in this family.", None)
    pair = contrast_pair(D)
    if pair is None:
        names = ", ".join(_strategies(D))
        cmd = compare_command(D, "greedy", "dump3")
        fig = _threes_held_figure(D)
        return Answer("hoarding", q,
                      f"This dataset cannot say: none of its strategies ({names}) differ only in how they play "
                      f"3s, so no difference in it is the effect of keeping them.",
                      "What it can show is how many 3s each strategy ends its hands with (the chart), and the "
                      "association of 3s held with the score (the 3-hoarding section below), which is not an "
                      "effect. Measure it with a keeper against a dumper, seats rotated: "
                      f"`{cmd}` (greedy keeps its 3s until forced; dump3 plays them first).",
                      None, cmd, fig, "3s held at the end of a hand per strategy, 95% CIs (a description, not "
                      "an effect).")
    keeper, dumper = pair
    mixed = confounds(D, keeper, dumper)
    cmd = compare_command(D, keeper, dumper)
    if mixed:
        return Answer("hoarding", q,
                      f"This dataset cannot say whether keeping 3s pays: {_label(keeper)} keeps its 3s and "
                      f"{dumper} plays them first, but {'; and '.join(mixed)}, so their difference mixes those "
                      f"effects with the effect of the 3s.",
                      f"No verdict: the design confounds it. The duplicate comparison `{cmd}` rotates the two "
                      f"over the seats on the same deals and measures it.",
                      None, cmd, _win_share_figure(D, [keeper, dumper], clean=False),
                      "Win share at this table, 95% CIs: seat and partner effects are mixed in (not an effect "
                      "of the 3s).")
    d = paired_win_difference(D, keeper, dumper)
    ci = d["diff"]
    verdict = "pays" if ci.lo > 0 else "costs" if ci.hi < 0 else "no clear difference"
    what = {"pays": "Keeping 3s pays", "costs": "Keeping 3s costs",
            "no clear difference": "Keeping 3s makes no clear difference"}[verdict]
    sentence = (f"{what}: {_label(keeper)} wins {ci_text(d['a'].estimate, d['a'].lo, d['a'].hi, 1, pct=True)} of "
                f"the games and {dumper} {ci_text(d['b'].estimate, d['b'].lo, d['b'].hi, 1, pct=True)}, a "
                f"win-rate difference of {_pp(ci)} (95% CI over {num(d['deals'])} deals).")
    support = ("The two strategies differ only in how they play 3s and sit at every seat equally often on the "
               "same deals (seats rotated), so the difference is the effect of keeping 3s rather than dumping "
               "them, for greedy shedding under these rules"
               + ("" if verdict != "no clear difference" else ", and it is too small to tell at this many deals")
               + f". It does not say what keeping 3s does for other strategies or other rules (`{cmd}` "
               "measures it for a pair you choose).")
    return Answer("hoarding", q, sentence, support, verdict, cmd, _win_share_figure(D, [keeper, dumper], clean=True),
                  "Win share of the 3-keeper and the 3-dumper, 95% CIs, seats rotated over the same deals.")


def _pp(ci: stats.CI) -> str:
    return f"{100 * ci.estimate:+.1f} points [{100 * ci.lo:+.1f}, {100 * ci.hi:+.1f}]"


def paired_win_difference(D: Data, a: str, b: str) -> dict:
    """Per deal (averaged over its rotations): a's and b's share of the win; their means and
    the paired difference a − b, each with a 95% t CI over deals."""
    per_game = _per_game_win(D)
    g = D.games.with_columns(pl.col("strategy").cast(pl.String)).filter(pl.col("strategy").is_in([a, b]))
    per = collect(g.group_by(*D.game_keys, "strategy").agg((pl.col("win").sum() / per_game).alias("w"))
                  .group_by("game", "strategy").agg(pl.col("w").mean())).pivot(
        on="strategy", index="game", values="w").fill_null(0.0)
    wa, wb = per[a].to_numpy(), per[b].to_numpy()
    return {"a": stats.mean_ci(wa), "b": stats.mean_ci(wb), "diff": stats.paired_diff_ci(wa, wb),
            "deals": len(per)}


def pressures_answer(D: Data) -> Answer:
    """How often do pressures happen? (module docstring)."""
    q = "How often do pressures happen?"
    if D.family != "crates":
        return Answer("pressures", q, "Never: Crazy Eights has no pressures (an empty stock means passing).",
                      "Nothing to measure in this family.", None)
    scope = D.rules.knobs.get("pressure_scope", "seat")
    unit = "team" if D.partnerships and scope == "team" else "seat"
    games = D.games.group_by(*D.game_keys).agg(pl.col("pressures").sum().alias("p"))
    pg = cluster_means(games, {"p": pl.col("p"), "any": pl.col("p") > 0})  # the seats' pressures, summed
    per_game = ci_text(pg["p"][0], pg["p_lo"][0], pg["p_hi"][0], 2)
    any_game = (f"every one of the {num(int(D.manifest['games_done']))} games" if pg["any_lo"][0] >= 1 else
                ci_text(pg["any"][0], pg["any_lo"][0], pg["any_hi"][0], 2 if pg["any_hi"][0] > 0.995 else 1,
                        pct=True) + " of games")
    fig, ax = figure("Pressures per hand by hand size", "hand size (cards dealt)", "hands with a pressure (%)",
                     size=(5.2, 3.4))
    if D.has_hands:
        hands = D.hands.group_by(*D.game_keys, "hand").agg(pl.col("size").first(), (pl.col("pressures").sum() > 0)
                                                          .alias("hit"))
        ph = cluster_means(hands, {"hit": pl.col("hit")})
        by = cluster_means(hands, {"hit": pl.col("hit")}, by=["size"])
        bars_ci(ax, [str(int(s)) for s in by["size"]], 100 * by["hit"], 100 * by["hit_lo"], 100 * by["hit_hi"],
                colors=PALETTE[1], label="hands with a pressure, 95% CI")
        ax.legend(fontsize=8)
        sentence = (f"Pressures happen in {ci_text(ph['hit'][0], ph['hit_lo'][0], ph['hit_hi'][0], 1, pct=True)} "
                    f"of hands and in {any_game}: {per_game} pressures per game, all seats together (95% CIs).")
        caption = "Share of hands with at least one pressure by hand size, 95% CIs: big hands leave a small stock."
    else:
        share = collect(games.select(pl.col("p").value_counts(sort=True))).unnest("p").sort("p").head(8)
        n = int(share["count"].sum())
        cis = [stats.proportion_ci(int(k), n) for k in share["count"]]
        bars_ci(ax, [str(int(k)) for k in share["p"]], [100 * c.estimate for c in cis], [100 * c.lo for c in cis],
                [100 * c.hi for c in cis], colors=PALETTE[1], label="share of games, 95% CI")
        ax.set_xlabel("pressures in a game")
        ax.set_ylabel("share of games (%)")
        ax.set_title("Pressures per game", fontsize=10)
        ax.legend(fontsize=8)
        sentence = f"Pressures happen in {any_game}: {per_game} pressures per game (95% CIs)."
        caption = "Share of games by the number of pressures in them, 95% CIs."
    names = ", ".join(_strategies(D))
    support = (f"A rate for these strategies ({names}) under these rules, over {num(int(D.manifest['games_done']))} "
               f"games: another strategy mix or rule set changes it, and the rate alone says nothing about what "
               f"causes pressures (each one costs 5 points, doubling per pressure of the {unit} in the game).")
    return Answer("pressures", q, sentence, support, "rate", None, fig, caption)


def seats_answer(D: Data) -> Answer:
    """Which seats are favoured? (module docstring)."""
    q = "Which seats are favoured?"
    per_game = _per_game_win(D)
    g = D.games
    if D.partnerships:
        by = cluster_means(g.filter(pl.col("seat") < 2), {"w": pl.col("win") * 2 / per_game}, by=["seat"])
        names = ["team 0 (seats 0+2)", "team 1 (seats 1+3)"]
        fair = 0.5
    else:
        by = cluster_means(g, {"w": pl.col("win") / per_game}, by=["seat"])
        names = [f"seat {int(s)}" for s in by["seat"]]
        fair = 1.0 / D.players
    fig, ax = figure("Win share by " + ("team" if D.partnerships else "seat"), "team" if D.partnerships else "seat",
                     "win share (%)", size=(5.2, 3.4))
    bars_ci(ax, [n.split(" (")[0] for n in names], 100 * by["w"], 100 * by["w_lo"], 100 * by["w_hi"],
            colors=PALETTE[0], ref=100 * fair, ref_label=f"fair {100 * fair:.0f}%", label="win share, 95% CI")
    ax.legend(fontsize=8, loc="lower right")
    caption = f"Win share by {'team' if D.partnerships else 'seat'}, 95% CIs; the line is the fair share."
    cells = [f"{n} {ci_text(w, lo, hi, 1, pct=True)}" for n, w, lo, hi in
             zip(names, by["w"], by["w_lo"], by["w_hi"], strict=True)]
    plans = _rotations(D)
    seat_mix = [tuple(sorted(r[s] for r in plans)) for s in range(D.players)]
    if len(set(seat_mix)) > 1:
        strat = ", ".join(f"seat {s}: {' / '.join(sorted(set(r[s] for r in plans)))}" for s in range(D.players))
        seats_out = suggested_out("seats", D.preset, "greedy")
        cmd = shlex.join(["crates", "simulate", *_players_flags(D), "--strategies", "greedy", "--games",
                          str(max(10000, int(D.manifest["games_done"]))), "--seed", str(D.manifest["seed"]),
                          "--out", seats_out])
        return Answer("seats", q,
                      f"This dataset cannot say: the seats play different strategies ({strat}) and are not "
                      f"rotated, so a seat's win share ({'; '.join(cells)}) mixes the seat with its strategy.",
                      f"No verdict: the design confounds seat and strategy. One strategy at every seat "
                      f"measures the seats: `{cmd}`, then `{shlex.join(['crates', 'report', seats_out])}`.",
                      None, cmd, fig, caption)
    off = [(n, w) for n, w, lo, hi in zip(names, by["w"], by["w_lo"], by["w_hi"], strict=True)
           if lo > fair or hi < fair]
    if not off:
        sentence = (f"No {'team' if D.partnerships else 'seat'} is clearly favoured: every win share is within its "
                    f"95% CI of the fair {100 * fair:.0f}% ({'; '.join(cells)}).")
        verdict = "none"
    else:
        best = max(off, key=lambda x: x[1])
        up = [n for n, w in off if w > fair]
        down = [n for n, w in off if w < fair]
        parts = []
        if up:
            parts.append(f"{' and '.join(up)} {'is' if len(up) == 1 else 'are'} favoured")
        if down:
            parts.append(f"{' and '.join(down)} {'is' if len(down) == 1 else 'are'} at a disadvantage")
        sentence = (f"{'; '.join(parts).capitalize()}: win shares {'; '.join(cells)} against a fair "
                    f"{100 * fair:.0f}% (95% CIs).")
        verdict = best[0]
    rotated = len(plans) > 1
    support = (("The strategies are rotated over the seats, so each seat hosts each of them equally often: a "
                "difference here is the seat's, for this strategy mix. " if rotated else
                "Every seat plays the same strategy, so a difference here is the seat's, for that strategy. ")
               + "It cannot say why (the deal order, the dealer playing last, the partnerships) nor whether it "
                 "holds for other strategies; the Seat effects section splits it by position after the dealer.")
    return Answer("seats", q, sentence, support, verdict, None, fig, caption)


def answers(D: Data) -> list[Answer]:
    """The three answers of the summary (module docstring)."""
    return [hoarding_answer(D), pressures_answer(D), seats_answer(D)]


# ------------------------------------------------------------------ charts
def _win_share_figure(D: Data, pair: list[str], clean: bool):
    d = paired_win_difference(D, *pair)
    cis = [d["a"], d["b"]]
    fig, ax = figure("Keeping 3s against dumping them" if clean else "Win share at this table (confounded)",
                     "strategy", "share of the games won (%)", size=(5.2, 3.4))
    bars_ci(ax, [p.replace(":", ":\n", 1) for p in pair], [100 * c.estimate for c in cis],
            [100 * c.lo for c in cis], [100 * c.hi for c in cis], colors=[PALETTE[0], PALETTE[1]],
            ref=100 * (0.5 if D.partnerships else 1 / D.players), ref_label="level", label="win share, 95% CI")
    ax.legend(fontsize=8, loc="lower right")
    return fig


def _threes_held_figure(D: Data):
    fig, ax = figure("3s held at the end of a hand", "strategy", "3s held (cards per seat)", size=(5.2, 3.4))
    if not D.has_hands or D.family != "crates":
        ax.text(0.5, 0.5, "needs per-hand rows (hands/)", ha="center", va="center", transform=ax.transAxes)
        return fig
    h = D.hands if "strategy" in D.hands.collect_schema().names() else D.hands.with_columns(
        strategy=pl.col("seat").replace_strict(getattr(D, "seat_strategy", {}), default="?"))
    tab = cluster_means(h.with_columns(pl.col("strategy").cast(pl.String)), {"t": pl.col("threes_left")},
                        by=["strategy"])
    bars_ci(ax, list(tab["strategy"]), tab["t"], tab["t_lo"], tab["t_hi"],
            colors=[PALETTE[i % len(PALETTE)] for i in range(len(tab))], label="mean, 95% CI")
    ax.legend(fontsize=8)
    return fig
