"""What a strategy sees, by name: njit accessors for the table view and the cards.

Contract: every function here is an `@njit` function (inlined into its caller by LLVM),
reads only its arguments and never allocates, so a decision function can call them in
its hot loop. A decision function has the signature::

    @njit
    def my_strategy(params, obs, hand, pile, options, rng) -> int

    params   float64[14]  the strategy's parameters, in the order it declares them (N_PARAMS)
    obs      int64[...]   the public view of the table: read it with the accessors below
    hand     int64[k]     your cards (empty when the dealer calls the upcard's suit blind)
    pile     int64[m]     the discard pile since the last reshuffle, top card last
    options  int64[n]     the legal choices; return an index into it, 0 <= index < n
    rng      int64[4]     your own random stream: `random_below(rng, k)`, `random_unit(rng)`

A card is ``rank * 4 + suit``: ranks ``A23456789TJQK`` = 0..12, suits ``CDHS`` = 0..3.
An option is a card, or `ACTION_DRAW` / `ACTION_PASS`, or a suit 0..3 (a call), or 0 / 1
(announce a last card? 1 = yes), by the `phase(obs)`.
"""

from .cards import (
    ACTION_DRAW,
    ACTION_PASS,
    E_WILD,
    E_WILD9,
    EFFECT,
    FAMILY_CRATES,
    O_COUNT,
    O_DEALER,
    O_DIR,
    O_FAMILY,
    O_HAND,
    O_PARTNER,
    O_PASSES,
    O_PER_SEAT,
    O_PHASE,
    O_PLAYED,
    O_PLAYERS,
    O_RANK,
    O_RULES,
    O_SEAT,
    O_SEATS,
    O_SIZE,
    O_STOCK_N,
    O_SUIT,
    O_TOP,
    OS_CALL_HAND,
    OS_CALLED,
    OS_HAND_N,
    OS_OWE,
    OS_PRESS_K,
    OS_PRESSURES,
    OS_TOTAL,
    OS_VOID_FREE,
    OS_VOIDS,
    PH_AGAIN,
    PH_ANNOUNCE,
    PH_BLIND_CALL,
    PH_CALL,
    PH_COUNT,
    PH_PLAY,
    VALUE,
)
from .core.jit import leaf
from .core.rng_nb import rand_below, rand_unit
from .params import Param, parameters, reads

__all__ = [
    "ACTION_DRAW", "ACTION_PASS", "PH_PLAY", "PH_COUNT", "PH_AGAIN", "PH_CALL", "PH_BLIND_CALL",
    "PH_ANNOUNCE", "phase", "me", "players", "partner", "dealer", "hand_number", "deal_size",
    "top_card", "current_suit", "current_rank", "direction", "active_count", "stock_size",
    "passes", "played_card", "is_crates", "lower_wins", "rule", "hand_size", "total",
    "pressures", "pressure_streak", "owes_penalty", "void_suits", "drawn_since_void",
    "called_suit", "drawn_since_call",
    "seat_after", "rank", "suit", "value", "effect", "is_wild", "is_action", "random_below",
    "random_unit", "parameters", "reads", "Param",
]


# ---------------------------------------------------------------- the decision
@leaf
def phase(obs):
    """What is being decided: PH_PLAY, PH_COUNT, PH_AGAIN (after your own 6), PH_CALL,
    PH_BLIND_CALL or PH_ANNOUNCE."""
    return obs[O_PHASE]


@leaf
def played_card(obs):
    """In a call: the wild card just played (-1 otherwise)."""
    return obs[O_PLAYED]


# ---------------------------------------------------------------- the table
@leaf
def me(obs):
    """Your seat."""
    return obs[O_SEAT]


@leaf
def players(obs):
    return obs[O_PLAYERS]


@leaf
def partner(obs):
    """Your partner's seat, -1 without partnerships."""
    return obs[O_PARTNER]


@leaf
def dealer(obs):
    return obs[O_DEALER]


@leaf
def hand_number(obs):
    """The hand being played, 1-based."""
    return obs[O_HAND]


@leaf
def deal_size(obs):
    """Cards dealt to each seat this hand."""
    return obs[O_SIZE]


@leaf
def top_card(obs):
    return obs[O_TOP]


@leaf
def current_suit(obs):
    """The suit to follow (a called suit after a wild)."""
    return obs[O_SUIT]


@leaf
def current_rank(obs):
    return obs[O_RANK]


@leaf
def direction(obs):
    """+1 clockwise (to the dealer's left), -1 after a reverse."""
    return obs[O_DIR]


@leaf
def active_count(obs):
    """Cards the next player must draw unless the count is answered (0: no count)."""
    return obs[O_COUNT]


@leaf
def stock_size(obs):
    return obs[O_STOCK_N]


@leaf
def passes(obs):
    """Passes in a row (Crazy Eights, empty stock)."""
    return obs[O_PASSES]


@leaf
def is_crates(obs):
    """True in the Crates family (lowest total wins), False in Crazy Eights (highest wins)."""
    return obs[O_FAMILY] == FAMILY_CRATES


@leaf
def lower_wins(obs):
    return obs[O_FAMILY] == FAMILY_CRATES


@leaf
def rule(obs, slot):
    """Entry `slot` of the rules array (a K_* knob, or EFFECT/VALUE/... + card)."""
    return obs[O_RULES + slot]


@leaf
def seat_after(obs, k):
    """The seat k places after you in the current direction."""
    n = obs[O_PLAYERS]
    return ((obs[O_SEAT] + k * obs[O_DIR]) % n + n) % n


# ---------------------------------------------------------------- per seat
@leaf
def hand_size(obs, seat):
    return obs[O_SEATS + seat * O_PER_SEAT + OS_HAND_N]


@leaf
def total(obs, seat):
    """The seat's game total so far."""
    return obs[O_SEATS + seat * O_PER_SEAT + OS_TOTAL]


@leaf
def pressures(obs, seat):
    """Pressures the seat has taken this game."""
    return obs[O_SEATS + seat * O_PER_SEAT + OS_PRESSURES]


@leaf
def pressure_streak(obs, seat):
    """The seat's pressure doubling counter (its next pressure costs 5 * 2**streak)."""
    return obs[O_SEATS + seat * O_PER_SEAT + OS_PRESS_K]


@leaf
def owes_penalty(obs, seat):
    """1 when the seat owes a last-card penalty."""
    return obs[O_SEATS + seat * O_PER_SEAT + OS_OWE]


@leaf
def void_suits(obs, seat):
    """Bit s set: the seat could not play on suit s this hand, so it held none then."""
    return obs[O_SEATS + seat * O_PER_SEAT + OS_VOIDS]


@leaf
def drawn_since_void(obs, seat):
    """Cards the seat drew after it showed a void (they may be of that suit)."""
    return obs[O_SEATS + seat * O_PER_SEAT + OS_VOID_FREE]


@leaf
def called_suit(obs, seat):
    """The suit the seat called with a wild, while that wild is its last play this hand
    (-1: none). A seat that calls its longest suit held the most of this one then."""
    return obs[O_SEATS + seat * O_PER_SEAT + OS_CALLED] - 1


@leaf
def drawn_since_call(obs, seat):
    """Cards the seat has drawn since its call (`called_suit`; 0 without one)."""
    at = O_SEATS + seat * O_PER_SEAT
    return obs[at + OS_HAND_N] - obs[at + OS_CALL_HAND] if obs[at + OS_CALLED] != 0 else 0


# ---------------------------------------------------------------- cards
@leaf
def rank(card):
    """0..12 for A23456789TJQK."""
    return card >> 2


@leaf
def suit(card):
    """0..3 for CDHS."""
    return card & 3


@leaf
def value(obs, card):
    """The card's score value when left in hand, under these rules."""
    return obs[O_RULES + VALUE + card]


@leaf
def effect(obs, card):
    """The card's effect code under these rules (cards.E_*)."""
    return obs[O_RULES + EFFECT + card]


@leaf
def is_wild(obs, card):
    """An 8, or a 9 where nine_wild."""
    e = obs[O_RULES + EFFECT + card]
    return e == E_WILD or e == E_WILD9


@leaf
def is_action(option):
    """A draw or a pass, not a card."""
    return option == ACTION_DRAW or option == ACTION_PASS


# ---------------------------------------------------------------- randomness
@leaf
def random_below(rng, k):
    """A uniform integer in [0, k) from your stream."""
    return rand_below(rng, 0, k)


@leaf
def random_unit(rng):
    """A uniform float in [0, 1) from your stream."""
    return rand_unit(rng, 0)
