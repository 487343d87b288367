"""`apprentice`: a fast policy distilled from a search player (expert iteration).

Contract: for a card decision (play, count, play again) the apprentice scores every
legal option with a linear function of N_FEATURES option features (`fill_features`: the
card's value and effect, 3s and wilds held, hits on opponents and the partner, the suit
it makes current and what the next seat is known to lack, going out, the count ...) and
plays the best (`temp` > 0: samples softmax(score / temp) from its own stream). Suit
calls and last-card announcements follow greedy (the longest suit; announce, `forget`).

The weights are data, not code: two vectors, one for tables without partnerships and one
for partnership play. They ship as `apprentice.json` beside this module
(rebuilt by `crates train`), are loaded once per process into a float64 buffer
(`weights_buffer`), and the kernel reads them through that buffer's address, which the
engine table carries (`engine.engine_table`, slot ENGINE_APPRENTICE). The kernels are
thus cached once, whatever the weights. The same buffer holds the scratch rows of
features of the decision being made (a process plays one decision at a time), so a
decision allocates nothing. With no weights buffer (an engine table of zeros) the
apprentice plays as greedy.

Like pimc it is not compiled into the engine: the engine calls `apprentice_entry` by
address. `crates train` (`crates_sim.runs.train`) rebuilds the weights; docs/strategies.md
gives the features, the training and the cost.
"""

import json
import os
from importlib import resources

import numpy as np

from crates_sim.cards import (
    E_COUNT,
    E_FIVE,
    E_JACK,
    E_QUEEN5,
    E_REVERSE,
    E_SEVEN,
    E_SIX,
    E_SKIP,
    O_COUNT,
    O_PARTNER,
    O_PER_SEAT,
    O_PHASE,
    O_PLAYERS,
    O_SEATS,
    O_SIZE,
    O_STOCK_N,
    O_SUIT,
    OS_VOID_FREE,
    OS_VOIDS,
    PH_ANNOUNCE,
    PH_CALL,
    PH_COUNT,
    RANK0_CARDS,
    SUIT0_CARDS,
)
from crates_sim.core.jit import kernel, leaf
from crates_sim.core.rng_nb import rand_unit
from crates_sim.engine import engine_nb as E
from crates_sim.engine.bits import card_mask, popcount
from crates_sim.engine.indirect import float_array_at
from crates_sim.errors import CratesError
from crates_sim.params import FORGET, Builtin, Param, slots
from crates_sim.strategies.builtin import announce_with, greedy_nb, longest_suit
from crates_sim.strategies.heuristic import TUNED, hits, is_leader, is_opponent
from crates_sim.view import effect, hand_size, is_action, is_wild, seat_after, value

#: option features (`fill_features`; names in FEATURES): N_BASE of their own
FEATURES = (
    "action", "action_x_count", "action_x_hand", "value", "value_x_opp_le2",
    "value_x_opp_1", "value_x_hand", "wild", "wild_x_hand_le2", "wild_x_wilds_held", "three",
    "three_x_late", "three_x_threes_held", "three_x_hand_le2", "e_count", "e_skip", "e_five",
    "e_six", "e_seven", "e_reverse", "e_jack", "e_queen5", "opp_hits", "partner_hits",
    "leader_hits", "hits_next_last_card", "keeps_suit", "changes_suit", "left_in_suit",
    "none_left_in_suit", "goes_out", "leaves_one", "answers_count", "six_follow",
    "next_opp_void", "next_partner_void", "suit_seen", "highest_value", "wild_x_opp_1",
    "mate_last_x_keeps_suit",
)
#: and each of these option features (above) times each of these context scalars
CROSSED = ("value", "wild", "three", "opp_hits", "keeps_suit", "left_in_suit", "action")
CONTEXT = ("hand", "min_opp_hand", "stock", "pile", "mate_hand")
FEATURES = FEATURES + tuple(f"{a}_by_{b}" for a in CROSSED for b in CONTEXT)
N_BASE = 40
#: the feature (14-21) that is 1 for an option whose card has effect e (cards.E_*), -1
#: for effects without one (none, wilds)
EFFECT_FEATURE = np.full(E_QUEEN5 + 1, -1, dtype=np.int64)
for _slot, _e in enumerate((E_COUNT, E_SKIP, E_FIVE, E_SIX, E_SEVEN, E_REVERSE, E_JACK, E_QUEEN5)):
    EFFECT_FEATURE[_e] = 14 + _slot
N_CROSSED = len(CROSSED)
#: a compact row (the decision's): the N_BASE features, then the crossed ones uncrossed
N_COMPACT = N_BASE + N_CROSSED
N_FEATURES = len(FEATURES)
#: the buffer: [0] format, [1] features, then the weights from W0, the scratch rows from X0
FORMAT = 1.0
W0 = 8
MAX_WEIGHTS = 504
X0 = W0 + MAX_WEIGHTS
MAX_OPTIONS = 64
BUFFER_LEN = X0 + (MAX_OPTIONS + 1) * N_FEATURES
#: the file the weights ship in (in this package), and the variable that overrides it
WEIGHTS_FILE = "apprentice.json"
WEIGHTS_ENV = "CRATES_APPRENTICE_WEIGHTS"


# ================================================================ features
@leaf
def _suit_of(counts, s):
    return counts[0] if s == 0 else counts[1] if s == 1 else counts[2] if s == 2 else counts[3]


@leaf
def _void_in(obs, q, s):
    """Whether seat q is known to hold no card of suit s (a void shown, nothing drawn since)."""
    at = O_SEATS + q * O_PER_SEAT
    return ((obs[at + OS_VOIDS] >> s) & 1) != 0 and obs[at + OS_VOID_FREE] == 0


@leaf
def _cross(out, at, k, x, crossed, c0, c1, c2, c3, c4):
    """Option feature x (CROSSED[k]): times the five context scalars into its five slots
    (crossed), or as it is into slot N_BASE + k (the decision's compact rows, which
    `apprentice_choice` crosses through the weights once per decision instead)."""
    if x == 0.0:
        return
    if not crossed:
        out[at + N_BASE + k] = x
        return
    j = at + N_BASE + 5 * k
    out[j] = x * c0
    out[j + 1] = x * c1
    out[j + 2] = x * c2
    out[j + 3] = x * c3
    out[j + 4] = x * c4


@kernel
def fill_features(obs, hand, pile, options, out, base):
    """The N_FEATURES features of every option into out[base + i * N_FEATURES + j] (option
    i, feature j; FEATURES names them). A draw or pass has the action features only."""
    option_rows(obs, hand, pile, options, out, base, N_FEATURES, True)


@leaf
def option_rows(obs, hand, pile, options, out, base, F, crossed):
    """The rows of `fill_features` (row i at out[base + i * F]), or with crossed False
    the compact rows: the N_BASE features, then the N_CROSSED crossed option features
    uncrossed. Returns the five context scalars (CONTEXT)."""
    phase = obs[O_PHASE]
    n_hand = hand.shape[0]
    me_partner = obs[O_PARTNER]
    players = obs[O_PLAYERS]
    # my hand: cards per suit (tame: not wild), 3s and wilds held
    # (as card masks, without a branch per card: the suits of a hand are not predictable)
    held = np.int64(0)
    wild_held = np.int64(0)
    for j in range(n_hand):
        d = hand[j]
        held |= np.int64(1) << d
        wild_held |= np.int64(1 if is_wild(obs, d) else 0) << d
    tame_held = held & ~wild_held
    wilds = popcount(wild_held)
    threes = popcount(tame_held & (RANK0_CARDS << 8))  # rank 2: the 3s
    tame = (popcount(tame_held & SUIT0_CARDS), popcount(tame_held & (SUIT0_CARDS << 1)),
            popcount(tame_held & (SUIT0_CARDS << 2)), popcount(tame_held & (SUIT0_CARDS << 3)))
    longest = 0
    for s in range(1, 4):
        if _suit_of(tame, s) > _suit_of(tame, longest):
            longest = s
    # the pile as a card mask: the cards of a suit seen are one popcount away
    seen = card_mask(pile, 0, pile.shape[0])
    min_opp = 99
    for q in range(players):
        if is_opponent(obs, q) and hand_size(obs, q) < min_opp:
            min_opp = hand_size(obs, q)
    # the opponents that lead or are on last card (a hit on them counts twice): found once,
    # when the first option that hits anyone needs them
    targets = -1
    mate_last = me_partner >= 0 and hand_size(obs, me_partner) == 1
    below = obs[O_SIZE] - n_hand
    if below < 0:
        below = 0
    q1 = seat_after(obs, 1)
    next_opp = is_opponent(obs, q1)
    count = obs[O_COUNT]
    best_value = -1
    for i in range(options.shape[0]):
        c = options[i]
        if not is_action(c) and value(obs, c) > best_value:
            best_value = value(obs, c)
    hand8 = n_hand / 8.0
    # the context scalars (CONTEXT)
    ctx0 = hand8
    ctx1 = min(min_opp, 8) / 8.0
    ctx2 = min(obs[O_STOCK_N], 40) / 20.0
    ctx3 = min(pile.shape[0], 40) / 20.0
    ctx4 = hand_size(obs, me_partner) / 8.0 if me_partner >= 0 else 0.0
    for i in range(options.shape[0]):
        at = base + i * F
        for j in range(F):
            out[at + j] = 0.0
        c = options[i]
        if is_action(c):
            out[at + 0] = 1.0
            out[at + 1] = count / 4.0
            out[at + 2] = hand8
            _cross(out, at, 6, 1.0, crossed, ctx0, ctx1, ctx2, ctx3, ctx4)
            continue
        v = value(obs, c) / 10.0
        wild = is_wild(obs, c)
        three = (c >> 2) == 2
        e = effect(obs, c)
        out[at + 3] = v
        out[at + 4] = v if min_opp <= 2 else 0.0
        out[at + 5] = v if min_opp == 1 else 0.0
        out[at + 6] = v * hand8
        if wild:
            out[at + 7] = 1.0
            out[at + 8] = 1.0 if n_hand <= 2 else 0.0
            out[at + 9] = wilds - 1.0
            out[at + 38] = 1.0 if min_opp == 1 else 0.0
        if three:
            out[at + 10] = 1.0
            out[at + 11] = below / 8.0
            out[at + 12] = threes - 1.0
            out[at + 13] = 1.0 if n_hand <= 2 else 0.0
        slot = EFFECT_FEATURE[e] if 0 <= e < EFFECT_FEATURE.shape[0] else -1
        if slot >= 0:  # the card's effect, one-hot
            out[at + slot] = 1.0
        opp_hits = 0.0
        mate_hits = 0.0
        lead_hits = 0.0
        hitting = (phase == PH_COUNT or e == E_COUNT or e == E_SKIP or e == E_FIVE
                   or e == E_SEVEN or e == E_JACK or e == E_QUEEN5)  # else `hits` is False
        if hitting and targets < 0:
            targets = 0
            for q in range(players):
                if is_opponent(obs, q) and (hand_size(obs, q) == 1 or is_leader(obs, q)):
                    targets |= 1 << q
        for k in range(1, players if hitting else 1):
            if not hits(obs, c, phase, k):
                continue
            q = seat_after(obs, k)
            if is_opponent(obs, q):
                opp_hits += 1.0
                if (targets >> q) & 1:
                    lead_hits += 1.0
                if k == 1 and hand_size(obs, q) == 1:
                    out[at + 25] = 1.0
            else:
                mate_hits += 1.0
        out[at + 22] = opp_hits
        out[at + 23] = mate_hits
        out[at + 24] = lead_hits
        s = c & 3
        keeps = not wild and s == obs[O_SUIT]
        if keeps:
            out[at + 26] = 1.0
            if mate_last:
                out[at + 39] = 1.0
        elif not wild:
            out[at + 27] = 1.0
        new_suit = longest if wild else s
        left = _suit_of(tame, new_suit) - (0 if wild else 1)
        out[at + 28] = left / 4.0
        out[at + 29] = 1.0 if left <= 0 else 0.0
        out[at + 30] = 1.0 if n_hand == 1 else 0.0
        out[at + 31] = 1.0 if n_hand == 2 else 0.0
        if phase == PH_COUNT:
            out[at + 32] = count / 4.0
        if e == E_SIX and n_hand > 1 and left > 0:
            out[at + 33] = 1.0
        if _void_in(obs, q1, new_suit):
            if next_opp:
                out[at + 34] = 1.0
            else:
                out[at + 35] = 1.0
        out[at + 36] = popcount(seen & (SUIT0_CARDS << new_suit)) / 13.0
        out[at + 37] = 1.0 if value(obs, c) == best_value else 0.0
        _cross(out, at, 0, v, crossed, ctx0, ctx1, ctx2, ctx3, ctx4)
        _cross(out, at, 1, 1.0 if wild else 0.0, crossed, ctx0, ctx1, ctx2, ctx3, ctx4)
        _cross(out, at, 2, 1.0 if three else 0.0, crossed, ctx0, ctx1, ctx2, ctx3, ctx4)
        _cross(out, at, 3, opp_hits, crossed, ctx0, ctx1, ctx2, ctx3, ctx4)
        _cross(out, at, 4, out[at + 26], crossed, ctx0, ctx1, ctx2, ctx3, ctx4)
        _cross(out, at, 5, out[at + 28], crossed, ctx0, ctx1, ctx2, ctx3, ctx4)
    return ctx0, ctx1, ctx2, ctx3, ctx4


# ================================================================ the decision
APPRENTICE_BUILTIN = Builtin(
    "a linear policy over 75 option features, distilled from a search "
    "player by `crates train`; a turn costs about 5x greedy's, "
    "1/160 of pimc's (docs/strategies.md)",
    {"temp": Param(0.0, 0.0, 100.0, "softmax temperature (0: always the best "
                                    "score; > 0: samples from its stream)"),
     "forget": FORGET},
    adapter="apprentice_entry")
APPRENTICE_TEMP, APPRENTICE_FORGET = slots(APPRENTICE_BUILTIN)


@kernel
def apprentice_choice(params, obs, hand, pile, options, rng, buf):
    """The apprentice's option index, with the weights and scratch of `buf` (the weights
    buffer; an empty one: greedy). params: temp (0: the best score), forget."""
    phase = obs[O_PHASE]
    if phase == PH_ANNOUNCE:
        return announce_with(params[APPRENTICE_FORGET], rng)
    if phase >= PH_CALL:
        return longest_suit(hand, options)
    n = options.shape[0]
    if n == 1:
        return 0
    F = N_COMPACT
    if buf.shape[0] < BUFFER_LEN or buf[1] != N_FEATURES or n > MAX_OPTIONS:
        return greedy_nb(params, obs, hand, pile, options, rng)
    c0, c1, c2, c3, c4 = option_rows(obs, hand, pile, options, buf, X0, F, False)
    # the weights for this table: without partnerships, or with them
    wat = W0 if obs[O_PARTNER] < 0 else W0 + N_FEATURES
    # the crossed weights times this decision's context, once: one weight per crossed
    # feature (kept in the rows' slot after the last option's)
    at_eff = X0 + n * F
    for k in range(N_CROSSED):
        j = wat + N_BASE + 5 * k
        buf[at_eff + k] = (buf[j] * c0 + buf[j + 1] * c1 + buf[j + 2] * c2 + buf[j + 3] * c3
                           + buf[j + 4] * c4)
    best = 0
    best_score = -1.0e300
    temp = params[APPRENTICE_TEMP]
    for i in range(n):
        s = 0.0
        at = X0 + i * F
        for j in range(N_BASE):
            s += buf[wat + j] * buf[at + j]
        for k in range(N_CROSSED):
            s += buf[at_eff + k] * buf[at + N_BASE + k]
        buf[at] = s  # the row is read: keep the score in its first slot
        if s > best_score:
            best_score = s
            best = i
    if temp <= 0.0:
        return best
    return sample_scores(buf, X0, F, n, best, temp, rng)


@leaf
def sample_scores(buf, at, stride, n, best, temp, rng):
    """An option drawn with probability proportional to exp((score - best's) / temp), the
    scores at buf[at + i * stride] (the apprentice's and adept's softmax, temp > 0), from
    the decision's stream; `best` if rounding leaves the draw unspent."""
    top = buf[at + best * stride]
    total = 0.0
    for i in range(n):
        total += np.exp((buf[at + i * stride] - top) / temp)
    u = rand_unit(rng, 0) * total
    for i in range(n):
        u -= np.exp((buf[at + i * stride] - top) / temp)
        if u < 0.0:
            return i
    return best


@kernel
def apprentice_entry(G, seat, n_options):
    """The apprentice's decision adapter: the engine calls it by address; the weights
    come by the address in the engine table of G (0: none, then it plays greedy)."""
    params, obs, hand, pile, options, rng = E.decision_views(G, seat, n_options)
    address = G[E.ENG0 + E.ENGINE_APPRENTICE]
    if address == 0:
        return greedy_nb(params, obs, hand, pile, options, rng)
    buf = float_array_at(address, BUFFER_LEN)
    return apprentice_choice(params, obs, hand, pile, options, rng, buf)


# ================================================================ the weights
_BUFFER = []


def shipped_weights_path():
    """The weights file shipped in the package."""
    return resources.files("crates_sim.strategies").joinpath(WEIGHTS_FILE)


def read_weights(path=None) -> np.ndarray:
    """The weights in a weights file (default: $CRATES_APPRENTICE_WEIGHTS, else the shipped
    one), as rows [without partnerships, with them]: JSON {"features": [names], "weights":
    [numbers], "partnership_weights": [numbers] (optional: else the same), ...}."""
    path = path or os.environ.get(WEIGHTS_ENV) or shipped_weights_path()
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
        names = list(data["features"])
        w = np.asarray(data["weights"], dtype=np.float64)
        wp = np.asarray(data.get("partnership_weights", data["weights"]), dtype=np.float64)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise CratesError(f"apprentice weights {path}: cannot read them ({exc})") from None
    if names != list(FEATURES) or w.shape != (N_FEATURES,) or wp.shape != (N_FEATURES,):
        raise CratesError(f"apprentice weights {path}: made for other features "
                          f"({len(names)} features, this version has {N_FEATURES})")
    return np.stack([w, wp])


def weights_buffer() -> np.ndarray:
    """This process's weights buffer (loaded once: `read_weights`)."""
    if not _BUFFER:
        buf = np.zeros(BUFFER_LEN, dtype=np.float64)
        buf[0] = FORMAT
        buf[1] = N_FEATURES
        buf[W0:W0 + 2 * N_FEATURES] = read_weights().ravel()
        _BUFFER.append(buf)
    return _BUFFER[0]


def weights_address() -> int:
    """The address of this process's weights buffer (for the engine table)."""
    return int(weights_buffer().ctypes.data)


def set_weights(w) -> np.ndarray:
    """Play with weights `w` in this process from now on: rows [without partnerships, with
    them], or one vector for both (the buffer is rewritten in place, so engine tables
    already made see them); returns the previous rows."""
    buf = weights_buffer()
    old = buf[W0:W0 + 2 * N_FEATURES].reshape(2, N_FEATURES).copy()
    buf[W0:W0 + 2 * N_FEATURES] = np.broadcast_to(np.asarray(w, dtype=np.float64),
                                                  (2, N_FEATURES)).ravel()
    return old


def tuned_weights() -> np.ndarray:
    """`tuned`'s eight weights (heuristic.TUNED) on the apprentice's features: where
    `crates train` starts, and what its fit is pulled towards (its features include
    `weights`' eight, `left_in_suit` counted in quarters)."""
    w0, w1, w2, w3, w4, w5, w6, w7 = TUNED
    w = np.zeros(N_FEATURES)
    for name, v in (("value", w0), ("wild", w1), ("three", w2), ("opp_hits", w3),
                    ("partner_hits", -w3), ("keeps_suit", w4), ("left_in_suit", 4 * w5),
                    ("action", w6), ("leader_hits", w7)):
        w[FEATURES.index(name)] = v
    return w


def write_weights(path, w, info=None) -> None:
    """Write weights `w` (rows [without partnerships, with them], or one vector for both)
    and `info` (a dict of how they were made) as a weights file."""
    w = np.broadcast_to(np.asarray(w, dtype=np.float64), (2, N_FEATURES))
    data = {"features": list(FEATURES), "weights": [round(float(x), 6) for x in w[0]],
            "partnership_weights": [round(float(x), 6) for x in w[1]], **(info or {})}
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=1)
        fh.write("\n")
