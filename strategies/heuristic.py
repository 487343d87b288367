"""Heuristic built-in strategies (numba kernels): hoard3, dump3, keep3, aggressive, partner,
weights.

Same signature and view as `crates_sim.strategies.builtin` (see its docstring)::

    fn(params, obs, hand, pile, options, rng) -> int

The kernels are compiled without reference counting (`crates_sim.core.jit.leaf`): they use
scalar loops only and never allocate. Every one returns an index in [0, n_options). They
and the small helpers they call per option and per seat are `leaf`s (inlined by LLVM):
the engine's `decide` (`dispatch_nb.choose_nb`) carries them all inline, and a call
each would cost more than the helper's own work. The strategies that score each card
option (keep3, aggressive, partner, and `thumb`) share one loop, `best_card`, and give it
their scorer (a `leaf` too: numba compiles the loop once per scorer, inlined).

Card effects (which cards are wild, who a 7 or a jack hits) are read from the copy of the
rules array in the view, `obs[O_RULES:]`, so every preset and knob is played as it is.

Each strategy's declaration (`<NAME>_BUILTIN`: its text and parameters) and the named
slots of its parameters (`params[KEEP3_THREE]` ...) stand beside its decision function.
"""

import math

import numpy as np

from crates_sim.cards import (
    E_COUNT,
    E_FIVE,
    E_JACK,
    E_QUEEN5,
    E_SEVEN,
    E_SKIP,
    K_SEVEN_ACROSS,
    O_FAMILY,
    O_PARTNER,
    O_PHASE,
    O_PLAYERS,
    O_RULES,
    O_SEAT,
    O_SIZE,
    O_SUIT,
    PH_AGAIN,
    PH_ANNOUNCE,
    PH_CALL,
    PH_COUNT,
)
from crates_sim.core.jit import leaf
from crates_sim.core.rng_nb import rand_unit
from crates_sim.params import FORGET, Builtin, Param, slots
from crates_sim.strategies.builtin import announce_with, greedy_nb, longest_suit
from crates_sim.view import (
    effect,
    hand_size,
    is_action,
    is_wild,
    seat_after,
    total,
    value,
)

_R_3 = 2
_NEG = -1.0e18


# ================================================================ shared helpers
#: what a `best_card` scorer returns for a card it passes over (it never wins)
PASS = _NEG


@leaf
def best_card(score, ctx, obs, hand, pile, options):
    """Index of the card option with the highest `score(ctx, obs, hand, pile, card)` (ties:
    the first); draws and passes are passed over, as are cards scored PASS; -1 when no
    card is left. `ctx`: what the scorer needs that is the same for every card (a tuple)."""
    best = -1
    best_score = _NEG
    for i in range(options.shape[0]):
        c = options[i]
        if is_action(c):
            continue
        s = score(ctx, obs, hand, pile, c)
        if s > best_score:
            best_score = s
            best = i
    return best


@leaf
def announce_index(options, forget, rng):
    """The index of the option equal to the announce decision (options are [0, 1])."""
    want = announce_with(forget, rng)
    for i in range(options.shape[0]):
        if options[i] == want:
            return i
    return 0










@leaf
def seven_offset(obs):
    """How many places after me the seat is that a 7 of mine makes draw (seven_target)."""
    if obs[O_RULES + K_SEVEN_ACROSS] != 0 and obs[O_PLAYERS] >= 4:
        return 2
    return 1


@leaf
def hits(obs, card, phase, k):
    """Whether playing `card` makes the seat k places after me draw or lose a turn: a count
    (a 2, or an A/2 answering one), a skip, the VCE queen of spades hit the next player; a 5
    every other player; a 7 its target; a classic jack the other (2 players) or the previous
    (3 players) player."""
    if phase == PH_COUNT:
        return k == 1
    e = effect(obs, card)
    if e == E_COUNT or e == E_SKIP or e == E_QUEEN5:
        return k == 1
    if e == E_FIVE:
        return True
    if e == E_SEVEN:
        return k == seven_offset(obs)
    if e == E_JACK:
        n = obs[O_PLAYERS]
        return (n == 2 and k == 1) or (n == 3 and k == 2)
    return False






@leaf
def is_opponent(obs, q):
    return q != obs[O_SEAT] and q != obs[O_PARTNER]


@leaf
def is_leader(obs, q):
    """q is an opponent whose game total is the best among the opponents (Crates: the lowest;
    Crazy Eights: the highest). With equal totals every opponent leads."""
    if not is_opponent(obs, q):
        return False
    crates = obs[O_FAMILY] == 0
    t = total(obs, q)
    for o in range(obs[O_PLAYERS]):
        if is_opponent(obs, o):
            u = total(obs, o)
            if (crates and u < t) or (not crates and u > t):
                return False
    return True


@leaf
def best_call(obs, hand, options, bonus_suit, bonus):
    """The option suit with most of my non-wild cards (+ `bonus` for `bonus_suit`); ties:
    the larger value held in that suit, then the first option."""
    best = 0
    best_score = _NEG
    for i in range(options.shape[0]):
        s = options[i]
        length = 0
        held = 0
        for j in range(hand.shape[0]):
            c = hand[j]
            if c % 4 == s and not is_wild(obs, c):
                length += 1
                held += value(obs, c)
        score = 1000.0 * length + held
        if s == bonus_suit:
            score += 1000.0 * bonus
        if score > best_score:
            best_score = score
            best = i
    return best


@leaf
def highest_value(obs, options, skip_threes, skip_wilds):
    """Index of the highest-valued card option (ties: the first), skipping 3s and/or
    wilds when asked; -1 when no card qualifies."""
    best = -1
    best_value = -1
    for i in range(options.shape[0]):
        c = options[i]
        if is_action(c):
            continue
        if skip_threes and c // 4 == _R_3:
            continue
        if skip_wilds and is_wild(obs, c):
            continue
        v = value(obs, c)
        if v > best_value:
            best_value = v
            best = i
    return best


@leaf
def first_card(options):
    """Index of the first card option (not a draw or pass); 0 when there is none."""
    for i in range(options.shape[0]):
        if not is_action(options[i]):
            return i
    return 0


# ================================================================ hoard3 / dump3
HOARD3_BUILTIN = Builtin("greedy, but plays a 3 only when it is its only legal card; greedy "
                         "already values a 3 lowest, so in Crates it plays exactly as greedy "
                         "(docs/findings.md)", {"forget": FORGET})
(HOARD3_FORGET,) = slots(HOARD3_BUILTIN)
DUMP3_BUILTIN = Builtin("plays a legal 3 first, otherwise greedy (the control for hoard3)",
                        {"forget": FORGET})
(DUMP3_FORGET,) = slots(DUMP3_BUILTIN)


@leaf
def hoard3_nb(params, obs, hand, pile, options, rng):
    """Save your threes: greedy (sheds its highest-scoring legal card, calls its longest
    suit, never draws by choice), but plays a 3 only when no other legal card exists.

    params: forget."""
    phase = obs[O_PHASE]
    if phase == PH_ANNOUNCE:
        return announce_index(options, params[HOARD3_FORGET], rng)
    if phase >= PH_CALL:
        return longest_suit(hand, options)
    best = highest_value(obs, options, True, False)
    if best < 0:
        best = highest_value(obs, options, False, False)
    if best < 0:
        return first_card(options)
    return best


@leaf
def dump3_nb(params, obs, hand, pile, options, rng):
    """Shed your threes: plays a legal 3 whenever it has one, otherwise greedy. The control
    for the 3-hoarding question.

    params: forget."""
    phase = obs[O_PHASE]
    if phase == PH_ANNOUNCE:
        return announce_index(options, params[DUMP3_FORGET], rng)
    if phase >= PH_CALL:
        return longest_suit(hand, options)
    for i in range(options.shape[0]):
        c = options[i]
        if not is_action(c) and c // 4 == _R_3:
            return i
    best = highest_value(obs, options, False, False)
    if best < 0:
        return first_card(options)
    return best


# ================================================================ keep3
KEEP3_BUILTIN = Builtin(
    "greedy, but a 3 scores its value minus its worth kept (three + late x cards below the "
    "deal size): three=-100 dumps 3s, 0 is greedy, 100 hoards them",
    {"three": Param(0.0, -100.0, 100.0, "card points a 3 is worth keeping (-100: play it "
                                        "first; 100: only when forced)"),
     "late": Param(0.0, -20.0, 20.0, "worth added per card the hand is below its deal size"),
     "forget": FORGET})
KEEP3_THREE, KEEP3_LATE, KEEP3_FORGET = slots(KEEP3_BUILTIN)


@leaf
def keep3_nb(params, obs, hand, pile, options, rng):
    """How much is a 3 worth keeping? Greedy shedding (the highest-scoring legal card; calls
    its longest suit; never draws by choice), except that a 3 scores its value minus its
    worth kept:

        worth = three + late * max(deal size - cards in hand, 0)

    `three` runs from dumping 3s (-100: a 3 outscores every card, so it is played first,
    like dump3) through greedy (0: a 3 scores its value, 0 in Crates) to hoarding them
    (100: a 3 only when no other card is legal, like hoard3); `late` adds worth per card the
    hand is below its deal size (a 3 held when the hand ends covers a card). Ties: the
    first option, as greedy (so three=0, late=0 plays exactly as greedy).

    params: three (0), late (0), forget."""
    phase = obs[O_PHASE]
    if phase == PH_ANNOUNCE:
        return announce_index(options, params[KEEP3_FORGET], rng)
    if phase >= PH_CALL:
        return longest_suit(hand, options)
    below = obs[O_SIZE] - hand.shape[0]
    if below < 0:
        below = 0
    worth = params[KEEP3_THREE] + params[KEEP3_LATE] * below
    best = best_card(keep3_score, (worth,), obs, hand, pile, options)
    if best < 0:
        return first_card(options)
    return best


@leaf
def keep3_score(ctx, obs, hand, pile, c):
    """keep3's score of card c: its value, less `worth` (ctx) for a 3."""
    s = float(value(obs, c))
    if c // 4 == _R_3:
        s -= ctx[0]
    return s


# ================================================================ aggressive
AGGRESSIVE_BUILTIN = Builtin(
    "aims 2s, 4s, 5s and 7s at the leader and last-card players, keeps 8s/9s",
    {"leader_weight": Param(1.0, 0.0, math.inf, "how much hitting the leader counts against "
                                                "shedding points"),
     "forget": FORGET})
AGGRESSIVE_LEADER_WEIGHT, AGGRESSIVE_FORGET = slots(AGGRESSIVE_BUILTIN)


@leaf
def hit_value(obs, q, leader_weight):
    """How much making seat q draw (or lose a turn) is worth to me, in card points."""
    if q == obs[O_SEAT]:
        return 0.0
    if q == obs[O_PARTNER]:
        return -40.0 * (1.0 + leader_weight)
    v = 10.0
    if is_leader(obs, q):
        v += 30.0 * leader_weight
    if hand_size(obs, q) == 1:
        v += 40.0 * leader_weight
    return v


@leaf
def all_hits(obs, card, phase, leader_weight):
    """The value of the draws and skips `card` inflicts on the other seats when I play it."""
    h = 0.0
    for k in range(1, obs[O_PLAYERS]):
        if hits(obs, card, phase, k):
            h += hit_value(obs, seat_after(obs, k), leader_weight)
    return h


@leaf
def aggressive_nb(params, obs, hand, pile, options, rng):
    """Hit the leader: aims 2s, 4s, 5s and 7s (every card that makes a player draw or lose a
    turn) at the opponent with the best game total and at anyone on last card; keeps 8s and
    9s as escapes (plays a wild only when nothing else is legal); otherwise sheds its
    highest-scoring card; calls the suit it holds most (wilds not counted).

    A card scores its value + the hits it makes (an opponent 10, +30 x leader_weight if it
    leads, +40 x leader_weight if on last card; the partner -40 x (1 + leader_weight)).
    In the Crazy Eights family: greedy with wilds kept.

    params: leader_weight (1.0), forget."""
    phase = obs[O_PHASE]
    if phase == PH_ANNOUNCE:
        return announce_index(options, params[AGGRESSIVE_FORGET], rng)
    if phase >= PH_CALL:
        return best_call(obs, hand, options, -1, 0.0)
    family = obs[O_FAMILY]
    if family != 0:
        best = highest_value(obs, options, False, True)
        if best < 0:
            best = highest_value(obs, options, False, False)
        if best < 0:
            return first_card(options)
        return best
    best = best_card(aggressive_score, (phase, params[AGGRESSIVE_LEADER_WEIGHT]), obs, hand,
                     pile, options)
    if best < 0:  # only wilds (or nothing) left: the escape
        best = highest_value(obs, options, False, False)
    if best < 0:
        return first_card(options)
    return best


@leaf
def aggressive_score(ctx, obs, hand, pile, c):
    """aggressive's score of card c (ctx: phase, leader_weight): its value plus the hits
    it makes; a wild is kept (PASS)."""
    if is_wild(obs, c):
        return PASS
    return value(obs, c) + all_hits(obs, c, ctx[0], ctx[1])


# ================================================================ partner
PARTNER_BUILTIN = Builtin(
    "team play: no 7s or 5s on the partner, calls the partner's suit, lets it out",
    {"forget": FORGET,
     "feed_cost": Param(1000.0, 0.0, math.inf, "points a 7 at the partner costs (1000: "
                                               "never, unless forced)")})
PARTNER_FORGET, PARTNER_FEED_COST = slots(PARTNER_BUILTIN)


@leaf
def partner_suit(obs, pile):
    """The suit of my partner's likely last play: with 4 players the partner plays two turns
    before me, so the card two below the top (three after my own 6); -1 when unknown."""
    back = 3 if obs[O_PHASE] == PH_AGAIN else 2
    at = pile.shape[0] - back
    if at < 0:
        return -1
    return pile[at] % 4


@leaf
def partner_nb(params, obs, hand, pile, options, rng):
    """Play for the team: greedy shedding, but never feeds the partner (no 7 at the partner,
    no 5 while the partner is on last card: each only when nothing else is legal), calls the
    partner's likely suit (that of its last play, read from the pile) when it holds no
    longer suit, and lets the partner go out: while the partner is on last card it keeps to
    the partner's suit, skips the opponent in between with a 4, and calls the partner's suit.
    Without partnerships it is greedy.

    params: forget, feed_cost (points a 7 at the partner costs while the partner holds more
    than one card; 1000: only when forced. Measured in classic 4-player partnership games
    against greedy, 0 does better than 1000: a 7 shed is worth more than the card it feeds)."""
    phase = obs[O_PHASE]
    if phase == PH_ANNOUNCE:
        return announce_index(options, params[PARTNER_FORGET], rng)
    mate = obs[O_PARTNER]
    if mate < 0:
        return greedy_nb(params, obs, hand, pile, options, rng)
    mate_last = hand_size(obs, mate) == 1
    psuit = partner_suit(obs, pile)
    if phase >= PH_CALL:
        # the partner's suit wins ties; outright while the partner is on last card
        return best_call(obs, hand, options, psuit,
                         100.0 if mate_last else 0.5)
    best = best_card(partner_score, (phase, mate, mate_last, psuit, params[PARTNER_FEED_COST]),
                     obs, hand, pile, options)
    if best < 0:
        return first_card(options)
    return best


@leaf
def partner_score(ctx, obs, hand, pile, c):
    """partner's score of card c (ctx: phase, the partner's seat, whether it is on last
    card, its suit, feed_cost): its value, the partner fed or helped out."""
    phase, mate, mate_last, psuit, feed_cost = ctx
    e = effect(obs, c)
    s = float(value(obs, c))
    if e == E_SEVEN and phase != PH_COUNT:
        if seat_after(obs, seven_offset(obs)) == mate:
            s -= 1000.0 if mate_last else feed_cost
        else:
            s += 10.0
    elif e == E_FIVE:
        s += -1000.0 if mate_last else 10.0
    elif phase == PH_COUNT or e == E_COUNT:
        if seat_after(obs, 1) == mate:
            s -= 200.0 if mate_last else 20.0
    elif e == E_SKIP and mate_last and seat_after(obs, 2) == mate:
        s += 100.0  # the partner plays next
    if mate_last and phase != PH_COUNT:
        if not is_wild(obs, c) and c % 4 == obs[O_SUIT] and obs[O_SUIT] == psuit:
            s += 60.0  # keep the partner's suit
    return s


# ================================================================ weights
#: what each weight of `weights` multiplies (the features: `weights_choice`)
WEIGHT_TEXT = ("card value shed / 10", "is a wild (8; 9 in Crates)", "is a 3",
               "opponents hit minus partners hit", "keeps the current suit",
               "my cards left in the suit the play makes current", "is a draw or pass",
               "leaders and last-card opponents hit")


def _weights(*defaults) -> dict:
    """w0..w7 of the `weights` scorer with these defaults (features: docs/strategies.md)."""
    return {f"w{i}": Param(float(d), text=t)
            for i, (d, t) in enumerate(zip(defaults, WEIGHT_TEXT, strict=True))}


WEIGHTS_BUILTIN = Builtin("linear scorer over 8 option features (w0..w7), for tuning runs",
                          _weights(1.0, -3.0, -1.0, 1.0, 0.0, 0.5, -10.0, 1.0))
(WEIGHTS_W0, WEIGHTS_W1, WEIGHTS_W2, WEIGHTS_W3, WEIGHTS_W4, WEIGHTS_W5, WEIGHTS_W6,
 WEIGHTS_W7) = slots(WEIGHTS_BUILTIN)
#: how many weights `weights` (and `softmax`, `tuned`) reads
N_WEIGHTS = len(WEIGHTS_BUILTIN.params)
#: `tuned`: the result of (docs/strategies.md)
#:   crates tune weights --against greedy,aggressive,partner,dump3,weights --preset classic
#:       --players 4 --budget 300 --games-per-eval 4000 --seed 1 --out tune
TUNED = (2.69, -12.75, -1.75, -1.5, -0.19, 1.57, -2.8, 1.64)
#: `weights` with tuned's defaults (the same id and kernel: it reads WEIGHTS_W*)
TUNED_BUILTIN = Builtin("weights with the weights `crates tune` found against the five "
                        "heuristics (classic 4-player partnerships; docs/strategies.md)",
                        _weights(*TUNED))


@leaf
def weights_nb(params, obs, hand, pile, options, rng):
    """A linear scorer for tuning runs (`weights_choice` without noise)."""
    return weights_decision(params, obs, hand, options, rng, False)


@leaf
def softmax_nb(params, obs, hand, pile, options, rng):
    """`weights` randomised: option i is played with probability proportional to
    exp(sum(w_j * feature_ij)), the weights params[WEIGHTS_W0..WEIGHTS_W7] (a temperature T is folded in:
    pass w / T). Drawn by the Gumbel-max trick, one uniform per option from the seat's
    stream. expert's rollouts play it with `tuned`'s weights (`strategies/expert.py`)."""
    return weights_decision(params, obs, hand, options, rng, True)


@leaf
def weights_decision(params, obs, hand, options, rng, noisy):
    """Every decision of `weights` (noisy False) and `softmax` (True): calls its longest
    suit, always announces, scores the options of a card decision (`weights_choice`)."""
    phase = obs[O_PHASE]
    if phase == PH_ANNOUNCE:
        return announce_index(options, 0.0, rng)
    if phase >= PH_CALL:
        return longest_suit(hand, options)
    return weights_choice(params, obs, hand, options, rng, noisy)


@leaf
def weights_choice(params, obs, hand, options, rng, noisy):
    """The card decision of `weights` (noisy False) and `softmax` (noisy True: Gumbel
    noise added to every option's score). A linear scorer for tuning runs: each option scores sum(w_i * feature_i) and the best
    wins (ties: the first). Calls its longest suit; always announces.

    Features of a card option (a draw or pass has only f6 = 1):
      w0  value shed: the card's score value / 10
      w1  is a wild (8; 9 in Crates)
      w2  is a 3
      w3  opponents hit minus partners hit: seats the card makes draw or lose a turn
          (a count, a skip, a 5, a 7, a classic jack, the VCE queen of spades)
      w4  keeps the current suit (a non-wild card of the current suit)
      w5  my cards left in the suit the play makes current (a wild: my longest suit)
      w6  is a draw or pass (a voluntary draw, declining a count)
      w7  leaders and last-card opponents hit (counted within w3's hits)."""
    phase = obs[O_PHASE]
    cur_suit = obs[O_SUIT]
    n = obs[O_PLAYERS]
    # my cards per suit (all, and not wild), counted once: w5's "cards left in the suit"
    # is then a lookup per option instead of a pass over the hand
    s0 = s1 = s2 = s3 = 0
    t0 = t1 = t2 = t3 = 0
    for j in range(hand.shape[0]):
        d = hand[j]
        tame = 0 if is_wild(obs, d) else 1
        sd = d % 4
        if sd == 0:
            s0 += 1
            t0 += tame
        elif sd == 1:
            s1 += 1
            t1 += tame
        elif sd == 2:
            s2 += 1
            t2 += tame
        else:
            s3 += 1
            t3 += tame
    longest_tame = max(max(t0, t1), max(t2, t3))
    best = 0
    best_score = _NEG
    for i in range(options.shape[0]):
        c = options[i]
        if is_action(c):
            s = params[WEIGHTS_W6]
        else:
            r = c // 4
            wild = is_wild(obs, c)
            n_hits = 0.0
            lead_hits = 0.0
            for k in range(1, n):
                if not hits(obs, c, phase, k):
                    continue
                q = seat_after(obs, k)
                if is_opponent(obs, q):
                    n_hits += 1.0
                    if is_leader(obs, q) or hand_size(obs, q) == 1:
                        lead_hits += 1.0
                else:
                    n_hits -= 1.0
            # my cards left in the suit this play makes current (c is in my hand: a
            # wild's own suit count of tame cards does not include it; a tame card's does)
            if wild:
                left = longest_tame
            else:
                sc = c % 4
                left = (s0 if sc == 0 else s1 if sc == 1 else s2 if sc == 2 else s3) - 1
            s = (params[WEIGHTS_W0] * value(obs, c) / 10.0
                 + params[WEIGHTS_W1] * (1.0 if wild else 0.0)
                 + params[WEIGHTS_W2] * (1.0 if r == _R_3 else 0.0)
                 + params[WEIGHTS_W3] * n_hits
                 + params[WEIGHTS_W4] * (1.0 if (not wild and c % 4 == cur_suit) else 0.0)
                 + params[WEIGHTS_W5] * left
                 + params[WEIGHTS_W7] * lead_hits)
        if noisy:  # Gumbel-max: argmax of score + Gumbel noise draws from the softmax
            s -= np.log(-np.log(rand_unit(rng, 0) * 0.9999999999 + 1e-12))
        if s > best_score:
            best_score = s
            best = i
    return best
