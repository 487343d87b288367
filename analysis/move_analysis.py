"""Move-by-move analysis of a game log (`crates analyse LOG`, issue 31 §1).

Contract: `analyse(events, seats=None, samples=DEFAULT_SAMPLES, progress=None)` takes a
checked log (`crates_sim.play.replay.read_log`: from `crates trace`, `crates play --save`,
finished or not, a tournament's sample game) and returns a JSON-ready dict: the game, the
method (samples, streams, thresholds), one entry per analysed decision and a summary per
seat. `summary_lines(result)` is the text `crates analyse` prints. A log that the step
engine cannot play again choice for choice raises CratesError, one line.

How:
- The game is played again on the step engine (`crates_sim.play.step.Table`, every seat
  outside) from the log's header (rules, seed, game), each decision answered with what the
  log shows was chosen (`replay_decisions`, on `crates_sim.play.log_decisions`, the
  matching of `crates replay --html` too); an answer that is not a legal option, or a
  replay that comes out different from the log, is refused.
- At each card decision (a play, a play again after a 6, a count answer) of an analysed
  seat with 2+ options, `expert`'s search (`strategies.expert.expert_explain`) values every
  option from the mover's information only: the unseen cards are dealt consistently with
  what that seat saw, never the true deal. A value is the expected points to the end of
  the hand for the mover's side (`crates_sim.play.step.VALUE_UNIT`; Crates: the opponents'
  points minus its own, pressures included; Crazy Eights: the payout), higher is better,
  the unit `crates play`'s expert and adept hints use too.
- The search runs STREAMS (8) times on independent random streams of ceil(samples / STREAMS)
  deals each; a value is the mean over the streams and its uncertainty the standard error
  of that mean (the spread of the streams / sqrt(STREAMS)). The options share each stream's
  deals (common random numbers), so the loss of the chosen option against the best,
  `loss = value(best) - value(chosen)`, has its own, smaller standard error from the
  per-stream differences.
- "Best" is the option of the highest mean; every option within NOISE_Z standard errors
  of the difference from it is "as good within noise" (`near_best`). A decision whose
  chosen option is near-best counts as accurate and gets no label, whatever its loss;
  otherwise the loss is labelled by THRESHOLDS (points): inaccuracy >= 5, mistake >= 10,
  blunder >= 20 (a Crates card is worth 10-50 points, a covered 3 saves the card it covers).
- Per seat: decisions analysed, total and mean expected loss, the total change of win
  chance where a model fits the table (`win_model`), accuracy (the share of its decisions
  whose loss is under TOLERANCE = 2 points or within noise of the best, in percent), the count of each label and the three
  costliest decisions (hand, the seat's move number in the hand, log line, what was played
  against the best).
"""

from __future__ import annotations

import math

import numpy as np

from crates_sim import cards as C
from crates_sim.errors import CratesError
from crates_sim.play.step import VALUE_UNIT

#: default deals of the unseen cards per option, all streams together (expert plays with
#: 60): a classic 4-player game takes about 4 s a seat on 2 cores
DEFAULT_SAMPLES = 4000
#: independent searches per decision; their spread gives each value its uncertainty (a
#: standard error on STREAMS - 1 = 7 degrees of freedom)
STREAMS = 8
#: an option within NOISE_Z standard errors of the best is as good within noise (with 7
#: degrees of freedom, a difference of 0 lies within 2 s.e. with probability 0.91)
NOISE_Z = 2.0
#: a loss under this many points counts as accurate even where the search can tell it
TOLERANCE = 2.0
#: the labels of a loss beyond noise, by its size in points (lowest first)
THRESHOLDS = (("inaccuracy", 5.0), ("mistake", 10.0), ("blunder", 20.0))
#: the searched phases: card decisions (calls and announcements are not searched)
CARD_PHASES = (C.PH_PLAY, C.PH_AGAIN, C.PH_COUNT)
#: salt of the analysis streams (any number; keeps them apart from the game's own)
_SALT = 0x5EED_A11A


def _log_error(message: str) -> CratesError:
    return CratesError(f"the log does not replay on this engine: {message}")


def replay_decisions(events, visit=None):
    """Play the log's game again on a Table with every seat outside, answering each
    decision with the option the log shows chosen; before each answer call
    `visit(table, decision, option, event_index)` (when given). Returns the number of
    decisions. Raises CratesError (one line) when a logged choice is not a legal option,
    when the log stops before the game does (unless saved unfinished), or when the replay
    does not come out event for event as the log."""
    from crates_sim.play.log_decisions import LogMismatch, log_table, logged_decisions

    count = 0
    try:
        table = log_table(events)
        for d, option, at in logged_decisions(table, events):
            if visit is not None:
                visit(table, d, option, at)
            count += 1
    except LogMismatch as exc:
        raise _log_error(str(exc)) from None
    return count


def _name(phase: int, option: int) -> str:
    from crates_sim.play.log_decisions import option_name

    return option_name(phase, option)


def _values(table, params, samples_each: int, salt: int):
    """(means, per-stream values) of every pending option: STREAMS searches of
    `samples_each` deals, each on its own stream of the mover's seat."""
    from crates_sim.core.rng_nb import seed_stream
    from crates_sim.engine import engine_nb as nb
    from crates_sim.strategies.expert import expert_explain

    d = table.pending
    runs = np.zeros((STREAMS, len(d.options)))
    row = params.copy()
    row[0] = samples_each
    for k in range(STREAMS):
        G = table.paused_copy()
        seed_stream(G, nb.RNG0 + 4 * (1 + d.seat), table.seed, table.game, salt * STREAMS + k)
        if not expert_explain(G, row, runs[k]):
            return None
    return runs


def label_of(loss: float, near_best: bool) -> str | None:
    """The label of a decision's loss in points (None: near-best, or under every threshold)."""
    if near_best:
        return None
    found = None
    for name, points in THRESHOLDS:
        if loss >= points:
            found = name
    return found


def analyse(events, seats=None, samples: int = DEFAULT_SAMPLES, progress=None) -> dict:
    """The analysis of a checked log (see the module doc). seats: the seats to analyse
    (default every seat); progress(done, total): called after each analysed decision."""
    from crates_sim.strategy import parse_strategies, resolve

    game = events[0]
    n = game["players"]
    seats = list(range(n)) if seats is None else sorted(set(seats))
    for s in seats:
        if not 0 <= s < n:
            raise CratesError(f"--seat {s} is not a seat of this {n}-player game (0-{n - 1})")
    if samples < STREAMS:
        raise CratesError(f"--samples must be at least {STREAMS} (one deal per stream)")
    samples_each = math.ceil(samples / STREAMS)
    (spec,) = parse_strategies(["expert"], 1)
    params = resolve([spec])[1][0]

    wmodel = _win_model(game)
    todo = []  # first pass: where the analysed decisions are (and the log checked)

    def find(table, d, option, at):
        if d.seat in seats and d.phase in CARD_PHASES and len(d.options) >= 2:
            todo.append(at)

    replay_decisions(events, find)
    total = len(todo)
    moves: list[dict] = []
    moves_in_hand: dict[tuple, int] = {}

    every = [0]  # decisions so far, every seat's: each has its own streams, whatever --seat

    def visit(table, d, option, at):
        every[0] += 1
        if d.phase not in CARD_PHASES:
            return
        key = (table.hand, d.seat)
        moves_in_hand[key] = moves_in_hand.get(key, 0) + 1
        if d.seat not in seats or len(d.options) < 2:
            return
        runs = _values(table, params, samples_each, _SALT + every[0])
        if runs is None:  # pragma: no cover - expert searches every card decision
            return
        moves.append(_judge(table, d, option, at, runs, moves_in_hand[key], wmodel))
        if progress is not None:
            progress(len(moves), total)

    replay_decisions(events, visit)
    return {"game": {k: game[k] for k in ("preset", "players", "seed", "game") if k in game}
            | {"strategies": game.get("strategies", []),
               "unfinished": events[-1]["ev"] != "game_end"},
            "method": {"strategy": spec, "samples": samples_each * STREAMS, "streams": STREAMS,
                       "noise_z": NOISE_Z, "tolerance": TOLERANCE, "thresholds": dict(THRESHOLDS),
                       "units": VALUE_UNIT,
                       "win_model": None if wmodel is None else wmodel["about"]},
            "seats": {str(s): _seat_summary([m for m in moves if m["seat"] == s], s, game)
                      for s in seats},
            "decisions": moves}


def _win_model(game: dict) -> dict | None:
    """The win-probability model of the log's table (analysis/win_model.py), or None."""
    from crates_sim.rules import PRESETS, Rules

    from .win_model import model_for

    if PRESETS.get(game["preset"], ("",))[0] != "crates":
        return None
    partners = bool(game["rules"].get("partnerships"))
    model = model_for(game["preset"], game["players"], partners)
    if model is None:
        return None
    try:
        own = Rules.preset(game["preset"], game["players"], partnerships=partners).to_dict()
    except Exception:  # pragma: no cover - the header was checked by the replay
        own = {}
    same = {k: v for k, v in own.items() if k != "first_dealer"} == {
        k: v for k, v in game["rules"].items() if k in own and k != "first_dealer"}
    model["partnerships"] = partners
    model["about"] = model["key"] + ("" if same else " (fitted on the preset's own knobs, "
                                                     "not this log's: approximate)")
    return model


def _win_chances(table, seat, values, model):
    """Each option's P(win) in percent: the model at the totals so far plus the option's
    expected margin change by the hand's end (`win_model`)."""
    from .win_model import HANDS, margins, win_probability

    margin = margins(table.totals, seat, model["partnerships"])
    left = max(HANDS - table.hand, 0)
    return [100.0 * win_probability(model, margin + v, left) for v in values]


def _judge(table, d, option, at, runs, move_no, wmodel=None) -> dict:
    """One decision's entry: every option's value and error, the best, the loss (and the
    change of the win chance, where a model fits the table)."""
    means = runs.mean(axis=0)
    se = runs.std(axis=0, ddof=1) / math.sqrt(STREAMS)
    best = int(np.argmax(means))
    chosen = d.options.index(option)
    diffs = runs[:, best:best + 1] - runs  # per stream, best minus each option
    diff_se = diffs.std(axis=0, ddof=1) / math.sqrt(STREAMS)
    gap = means[best] - means
    near = [bool(gap[i] <= NOISE_Z * diff_se[i] + 1e-9) for i in range(len(means))]
    loss = float(gap[chosen])
    win = None if wmodel is None else _win_chances(table, d.seat, means, wmodel)
    entry = {"line": at + 1, "hand": table.hand, "move": move_no, "seat": d.seat,
            "phase": _PHASE[d.phase],
            "held": " ".join(sorted((C.card_name(int(c)) for c in d.hand), key=_card_order)),
            "top": C.card_name(int(d.pile[-1])) if len(d.pile) else None,
            "options": [{"option": _name(d.phase, o), "value": round(float(means[i]), 2),
                         "se": round(float(se[i]), 2), "near_best": near[i]}
                        for i, o in enumerate(d.options)],
            "chosen": _name(d.phase, option), "best": _name(d.phase, d.options[best]),
            "loss": round(loss, 2), "loss_se": round(float(diff_se[chosen]), 2),
            "near_best": near[chosen], "label": label_of(loss, near[chosen]),
            "win_loss": None if win is None else round(win[best] - win[chosen], 2),
            "situation": situation_of(d, option)}
    if win is not None:
        for o, w in zip(entry["options"], win, strict=True):
            o["win"] = round(w, 1)
    return entry


_PHASE = {C.PH_PLAY: "play", C.PH_AGAIN: "play again", C.PH_COUNT: "count"}

#: the situations a decision is filed under (`situation_of`; `crates analyse --strategies`
#: sums the losses by each), in the order the report shows them
SITUATIONS = ("decision", "played", "hand size", "opponent on one card", "partner on one card",
              "count in progress", "3s held", "stock", "hand number")
#: a stock of this many cards or fewer is "low"
STOCK_LOW = 5


def _bucket(x: int, edges, low: int = 1) -> str:
    """x's bucket (x >= low) among `edges`, the buckets' upper bounds ascending (past the
    last, open): with edges (1, 2, 3, 5) the buckets are 1, 2, 3, 4-5 and 6+."""
    for high in edges:
        if x <= high:
            return str(high) if low == high else f"{low}-{high}"
        low = high + 1
    return f"{low}+"


def situation_of(d, option) -> dict:
    """The situations of a decision `d` (a `step.Decision`) answered with `option`, each by a
    value a player would name (SITUATIONS): what kind of decision, the rank played (or draw,
    pass), the hand size, whether an opponent or the partner holds one card, the count in
    progress, the 3s held, the stock low or not, the hand number. Only the seat's view."""
    from crates_sim import view as V

    obs = d.obs
    n, me, mate = int(V.players(obs)), int(V.me(obs)), int(V.partner(obs))
    sizes = [int(V.hand_size(obs, q)) for q in range(n)]
    opp_one = any(sizes[q] == 1 for q in range(n) if q not in (me, mate))
    count = int(V.active_count(obs))
    threes = sum(1 for c in d.hand if int(c) // 4 == C.R_3)  # a card is rank * 4 + suit
    played = "draw" if option == C.ACTION_DRAW else "pass" if option == C.ACTION_PASS else \
        C.card_name(int(option))[0]
    return {"decision": _PHASE[d.phase], "played": played,
            "hand size": _bucket(sizes[me], (1, 2, 3, 5, 8)),
            "opponent on one card": "yes" if opp_one else "no",
            "partner on one card": "no partner" if mate < 0 else "yes" if sizes[mate] == 1 else "no",
            "count in progress": "none" if count == 0 else _bucket(count, (2, 4)),
            "3s held": _bucket(threes, (0, 1), low=0),
            "stock": "low" if int(V.stock_size(obs)) <= STOCK_LOW else "not low",
            "hand number": _bucket(int(V.hand_number(obs)), (5, 10, 15))}


def _card_order(name: str):
    return (C.RANKS.index(name[0]), name[1])


def _accurate(move: dict) -> bool:
    return move["near_best"] or move["loss"] < TOLERANCE


def _seat_summary(moves: list[dict], seat: int, game: dict) -> dict:
    names = game.get("strategies", [])
    total = sum(m["loss"] for m in moves)
    costly = sorted(moves, key=lambda m: -m["loss"])[:3]
    return {"strategy": names[seat] if seat < len(names) else None,
            "decisions": len(moves),
            "total_loss": round(total, 1),
            "mean_loss": round(total / len(moves), 2) if moves else None,
            "accuracy": round(100.0 * sum(_accurate(m) for m in moves) / len(moves), 1) if moves else None,
            "labels": {name: sum(m["label"] == name for m in moves) for name, _ in THRESHOLDS},
            "win_loss": (round(sum(m["win_loss"] for m in moves), 1)
                         if moves and moves[0]["win_loss"] is not None else None),
            "costliest": [{k: m[k] for k in ("line", "hand", "move", "phase", "held", "top", "chosen",
                                             "best", "loss", "loss_se", "label", "win_loss")}
                          for m in costly]}


def summary_lines(result: dict, every: bool = False) -> list[str]:
    """The text of `crates analyse`: a header, per seat its summary and its three costliest
    decisions; `every`: each analysed decision too."""
    g, m = result["game"], result["method"]
    out = [f"{g['preset']} · {g['players']} players · seed {g['seed']} · game {g['game']}"
           + (" · unfinished" if g["unfinished"] else ""),
           f"values: {m['strategy']} search from the mover's information, {m['samples']} deals "
           f"per option in {m['streams']} streams; values and loss in {m['units']}; "
           f"labels beyond noise ({m['noise_z']:g} s.e.): " + ", ".join(
               f"{k} >= {v:g}" for k, v in m["thresholds"].items())
           + (f"; win chances: model {m['win_model']}" if m["win_model"] else "")]
    if every:
        out.append("")
        for d in result["decisions"]:
            opts = "  ".join(f"{o['option']} {o['value']:+.1f}±{o['se']:.1f}"
                             + (f" ({o['win']:.0f}%)" if "win" in o else "")
                             + ("*" if o["option"] == d["chosen"] else "") for o in d["options"])
            mark = f"  {d['label'].upper()}" if d["label"] else ""
            out.append(f"  hand {d['hand']:>2} move {d['move']:>2} seat {d['seat']} ({d['phase']}, holds "
                       f"{d['held']}; top {d['top']}): loss {d['loss']:.1f}{mark}   {opts}")
    for seat, s in result["seats"].items():
        out.append("")
        who = f"seat {seat}" + (f" ({s['strategy']})" if s["strategy"] else "")
        if not s["decisions"]:
            out.append(f"{who}: no decision with a choice to analyse")
            continue
        labels = ", ".join(f"{v} {k}{'s' if v != 1 else ''}".replace("ys", "ies") for k, v in s["labels"].items())
        win = "" if s["win_loss"] is None else f" ({s['win_loss']:.1f} points of win chance)"
        out.append(f"{who}: {s['decisions']} decisions, expected loss {s['total_loss']:.1f} points{win} "
                   f"= {s['mean_loss']:.2f} a decision, accuracy {s['accuracy']:.0f}% "
                   f"(loss under {TOLERANCE:g} points or within noise); {labels}")
        for c in s["costliest"]:
            if c["loss"] <= 0:
                continue
            tag = f" {c['label']}" if c["label"] else " (within noise)" if c["loss"] <= NOISE_Z * c["loss_se"] else ""
            wl = "" if c["win_loss"] is None else f", win chance -{c['win_loss']:.1f}%"
            out.append(f"  hand {c['hand']}, move {c['move']} (line {c['line']}): played {c['chosen']}, "
                       f"best {c['best']}: -{c['loss']:.1f} ± {c['loss_se']:.1f} points{wl}{tag}"
                       f"   [held {c['held']}; top {c['top']}]")
    return out


__all__ = ["DEFAULT_SAMPLES", "STREAMS", "THRESHOLDS", "TOLERANCE", "analyse", "label_of", "replay_decisions",
           "summary_lines"]
