"""`thumb`: `greedy` plus the rules of thumb drawn from `expert`'s play (issue 31 part 3).

Contract: for a card decision (play, count, play again) thumb scores every legal card as
greedy does, by its card points (a draw or pass is never chosen while a card is legal),
and adds what each rule that is switched on says; it plays the first option of the best
score (so with every rule off it plays exactly greedy's games). The rules, each a 0/1
parameter, in the words of docs/findings.md ("How strong players play Crates"):

- `wild`: keep your 8s and 9s (the wild cards): play one only when your other legal
  cards are 3s and aces (or there are none), or when an opponent is down to one card
  (then shed its points while you can);
- `six`: play a 6 you can follow (you keep another card of its suit) before any other
  card that is not wild: you shed two cards in one turn;
- `hit` (off by default: the tree's data suggested it, the table refuted it): in
  partnerships, aim at the opponents: a card that makes an opponent draw or lose a turn
  counts 15 points more per opponent it hits, one that hits your partner (a 7 across the
  table) 15 less (individual play: the rule does nothing);
- `suit`: between cards of equal points, stay in the suit in play.

They are `crates_sim.analysis.thumb`'s hand translation of the decision tree fitted to
expert's choices (that module measures each rule's agreement with expert on the same
data). Suit calls and last-card announcements follow greedy (the longest suit; announce,
`forget`). The player sees only the seat's view (its hand, the pile, the options, hand
sizes and the table's scalars), as every built-in does.

Like adept it is not compiled into the engine: the engine calls `thumb_entry` by
address (its declaration, THUMB_BUILTIN, names it), so adding it recompiled nothing and
the golden games keep their meaning.
"""

from crates_sim.cards import E_SIX, O_PARTNER, O_PHASE, O_PLAYERS, O_SUIT, PH_ANNOUNCE, PH_CALL
from crates_sim.core.jit import kernel, leaf
from crates_sim.engine import engine_nb as E
from crates_sim.params import FORGET, Builtin, Param, slots
from crates_sim.strategies.builtin import announce_with, longest_suit
from crates_sim.strategies.heuristic import best_card, hits, is_opponent
from crates_sim.view import effect, hand_size, is_wild, seat_after, value

THUMB_BUILTIN = Builtin(
    "greedy plus rules of thumb drawn from expert's choices (keep wilds "
    "unless an opponent is on one card; a 6 you can follow first; stay in "
    "suit on ties; hit=1 adds one that does not pay), each switchable (0/1); "
    "all off is greedy (docs/findings.md)",
    {"wild": Param(1.0, 0.0, 1.0, "1: play an 8 or 9 only when the other legal cards "
                                  "are 3s and aces, or an opponent holds one card",
                   whole=True),
     "six": Param(1.0, 0.0, 1.0, "1: a 6 you can follow (another card of its suit "
                                 "kept) before any other tame card", whole=True),
     "hit": Param(0.0, 0.0, 1.0, "1: in partnerships a card counts 15 points more per "
                                 "opponent it hits, 15 less if it hits the partner "
                                 "(measured: it loses)",
                  whole=True),
     "suit": Param(1.0, 0.0, 1.0, "1: between cards of equal points, the one in the "
                                  "suit in play", whole=True),
     "forget": FORGET},
    adapter="thumb_entry")
THUMB_WILD, THUMB_SIX, THUMB_HIT, THUMB_SUIT, THUMB_FORGET = slots(THUMB_BUILTIN)
#: the rules, in the order of their parameters (THUMB_WILD .. THUMB_SUIT)
RULES = ("wild", "six", "hit", "suit")
#: what a rule does to a card's score (card points): a kept wild scores WILD_FLOOR plus
#: its points / 100 (an 8 1.5, a 9 1.3): below every tame card but the ace (1) and the 3 (0)
WILD_FLOOR = 1.0
SIX_BONUS = 100.0   # above every tame card
HIT_POINTS = 15.0   # per seat hit
SUIT_TIE = 0.01     # below one card point: breaks ties only


@leaf
def _min_opp_hand(obs):
    """The fewest cards an opponent holds."""
    fewest = 99
    for q in range(obs[O_PLAYERS]):
        if is_opponent(obs, q) and hand_size(obs, q) < fewest:
            fewest = hand_size(obs, q)
    return fewest


@leaf
def _can_follow(obs, hand, card):
    """Whether the hand keeps another tame (not wild) card of `card`'s suit."""
    for j in range(hand.shape[0]):
        d = hand[j]
        if d != card and (d & 3) == (card & 3) and not is_wild(obs, d):
            return True
    return False


@leaf
def thumb_nb(params, obs, hand, pile, options, rng):
    """thumb's option index. params: wild, six, hit, suit (1 on, 0 off), forget."""
    phase = obs[O_PHASE]
    if phase == PH_ANNOUNCE:
        return announce_with(params[THUMB_FORGET], rng)
    if phase >= PH_CALL:
        return longest_suit(hand, options)
    rule_wild = params[THUMB_WILD] != 0.0
    rule_six = params[THUMB_SIX] != 0.0
    rule_hit = params[THUMB_HIT] != 0.0 and obs[O_PARTNER] >= 0
    rule_suit = params[THUMB_SUIT] != 0.0
    fewest = _min_opp_hand(obs) if rule_wild else 99
    best = best_card(thumb_score, (rule_wild, rule_six, rule_hit, rule_suit, fewest, phase),
                     obs, hand, pile, options)
    if best < 0:
        return 0
    return best


@leaf
def thumb_score(ctx, obs, hand, pile, card):
    """thumb's score of a card (ctx: the four rules on or off, the fewest cards an
    opponent holds, the phase): greedy's points with the rules' bonuses."""
    rule_wild, rule_six, rule_hit, rule_suit, fewest, phase = ctx
    score = float(value(obs, card))
    wild = is_wild(obs, card)
    if rule_wild and wild and fewest > 1:
        score = WILD_FLOOR + score / 100.0
    if rule_six and not wild and effect(obs, card) == E_SIX and hand.shape[0] > 1 \
            and _can_follow(obs, hand, card):
        score += SIX_BONUS
    if rule_hit:
        for k in range(1, obs[O_PLAYERS]):
            if hits(obs, card, phase, k):
                if is_opponent(obs, seat_after(obs, k)):
                    score += HIT_POINTS
                else:
                    score -= HIT_POINTS
    if rule_suit and not wild and (card & 3) == obs[O_SUIT]:
        score += SUIT_TIE
    return score


@kernel
def thumb_entry(G, seat, n_options):
    """thumb's decision adapter: the engine calls it by address."""
    params, obs, hand, pile, options, rng = E.decision_views(G, seat, n_options)
    return thumb_nb(params, obs, hand, pile, options, rng)
