"""Actions on a game state: seats and turns, drawing and pressures, cards into and out of
hands, the legal options, penalties.

Contract: kernels on G (see state_nb), no allocation. A kernel that may end the hand sets
st[S_ENDED] (`end_hand`); callers check it after every step that can.
"""

import numpy as np

from ..cards import (
    EV_DRAW,
    EV_PLAY,
    EV_PRESSURE,
    FAMILY_CRATES,
    K_FAMILY,
    K_MAX_TURNS,
    K_PENALTY,
    K_PSCOPE_TEAM,
    PEN_IMMEDIATE,
    POINTS_CEILING,
    PRESSURE_K_EXACT,
    RANK0_CARDS,
    REASON_CAP,
    REASON_DEAD,
    SUIT0_CARDS,
    W_PENALTY,
)
from ..core.jit import kernel, leaf
from ..core.rng_nb import shuffle_cards
from .indirect import call_decision
from .log_nb import log_reserve
from .state_nb import (
    ENG0,
    ENGINE_PRESSURE,
    OPA0,
    RNG0,
    S_CAP_DUE,
    S_COUNTERS,
    S_DIR,
    S_ENDED,
    S_N,
    S_OUT,
    S_PASSES,
    S_PICK,
    S_PILE_N,
    S_RANK,
    S_REASON,
    S_STOCK_N,
    S_SUIT,
    S_TOP,
    S_TURN,
    S_TURNS,
    S_WILDS,
    SV_CALL_HAND,
    SV_CALLED,
    SV_G_PPOINTS,
    SV_G_PRESSURES,
    SV_H_DRAWS,
    SV_H_PLAYS,
    SV_H_PPOINTS,
    SV_H_PRESSURES,
    SV_HAND_N,
    SV_HELD,
    SV_OWE,
    SV_PRESS_K,
    SV_TEAM,
    SV_TOTAL,
    SV_VOID_FREE,
    SV_VOIDS,
    at,
    nowrap,
    small,
    unpack,
)


@leaf
def seat_after(G, p, k):
    """The seat k places after p in the current direction."""
    g = unpack(G)
    st = g.st
    n = st[S_N]
    q = p + k * st[S_DIR]
    # no division (an idiv costs more than the rest of this), and no branch for the common
    # |k| <= n (a wrap is unpredictable): one select each way; the loops never run then
    q = q - n if q >= n else q
    q = q + n if q < 0 else q
    while q >= n:
        q -= n
    while q < 0:
        q += n
    return small(q)

@leaf
def advance(G, p, k):
    g = unpack(G)
    g.st[S_TURN] = seat_after(G, p, k)

@leaf
def end_hand(G, reason, out):
    g = unpack(G)
    st = g.st
    if st[S_ENDED] == 0:
        st[S_ENDED] = 1
        st[S_REASON] = reason
        st[S_OUT] = out

@leaf
def tick(G):
    """Count one play, draw or pass; end the hand with `cap` at max_turns_per_hand (unless
    a going-out play is resolving: `tick_play`)."""
    g = unpack(G)
    st = g.st
    st[S_TURNS] += 1
    if st[S_TURNS] >= g.rules[K_MAX_TURNS] and st[S_CAP_DUE] == 0:
        end_hand(G, REASON_CAP, -1)


@leaf
def tick_play(G, p):
    """`tick` for seat p's play. A play that empties p's hand resolves by the rules (its
    effects, then maybe `out`) before the cap can cut the hand: `play_on` applies a cap
    reached meanwhile after the turn, if the hand goes on."""
    g = unpack(G)
    if g.sv[at(p, SV_HAND_N)] == 0:
        g.st[S_CAP_DUE] = 1
    tick(G)

@leaf
def add_points(a, b):
    """a + b for points and totals (each at most POINTS_CEILING, and never below a few
    thousand negative): exact below the ceiling; a sum that would reach it, or a term
    already at it, is the ceiling (it absorbs: a total at the ceiling stays there)."""
    if a >= POINTS_CEILING or b >= POINTS_CEILING or b >= POINTS_CEILING - a:
        return np.int64(POINTS_CEILING)
    return a + b


@leaf
def pressure_points(k):
    """Points of a seat's (or team's) pressure number k + 1: 5 << k (5, 10, 20 ...), the
    ceiling from k = PRESSURE_K_EXACT + 1 on, where 5 << k no longer fits below it."""
    if k > PRESSURE_K_EXACT:
        return np.int64(POINTS_CEILING)
    return np.int64(5) << k


@kernel
def add_to_unit(G, s, field, v):
    """Add v to `field` of seat s and of its partner (the seats of its team), as points
    (`add_points`: saturating at the ceiling)."""
    g = unpack(G)
    sv = g.sv
    for q in range(g.st[S_N]):
        if sv[at(q, SV_TEAM)] == sv[at(s, SV_TEAM)]:
            sv[at(q, field)] = add_points(sv[at(q, field)], v)

@leaf
def colour(suit):
    return 1 if suit == 1 or suit == 2 else 0

@kernel
def pressure(G, p):
    """Stock empty: seat p takes a pressure; reshuffle, or end the hand `dead`."""
    g = unpack(G)
    R, st, sv, stock, pile = g.rules, g.st, g.sv, g.stock, g.pile
    k = sv[at(p, SV_PRESS_K)]
    points = pressure_points(k)
    if R[K_PSCOPE_TEAM] != 0:
        add_to_unit(G, p, SV_PRESS_K, 1)
    else:
        sv[at(p, SV_PRESS_K)] += 1
    sv[at(p, SV_G_PRESSURES)] += 1
    sv[at(p, SV_G_PPOINTS)] = add_points(sv[at(p, SV_G_PPOINTS)], points)
    sv[at(p, SV_H_PRESSURES)] += 1
    sv[at(p, SV_H_PPOINTS)] = add_points(sv[at(p, SV_H_PPOINTS)], points)
    add_to_unit(G, p, SV_TOTAL, points)
    m = st[S_PILE_N] - 1
    if m <= 0:
        lp = log_reserve(G, EV_PRESSURE, 3)
        if lp >= 0:
            g.log[lp] = p
            g.log[lp + 1] = points
            g.log[lp + 2] = -1
        end_hand(G, REASON_DEAD, -1)
        return False
    for i in range(m):
        stock[i] = pile[i]
    pile[0] = pile[m]
    st[S_PILE_N] = 1
    shuffle_cards(stock, m, G, RNG0)
    st[S_STOCK_N] = m
    lp = log_reserve(G, EV_PRESSURE, 3 + m)
    if lp >= 0:
        log = g.log
        log[lp] = p
        log[lp + 1] = points
        log[lp + 2] = m
        for i in range(m):
            log[lp + 3 + i] = stock[m - 1 - i]
    return True

@kernel
def pressure_entry(G, p, _unused):
    """`pressure(G, p)` called by address (`pressured`), as an int (1: cards to draw); the
    third argument only fills the signature of a call by address (`indirect.DECISION_ARGS`)."""
    return 1 if pressure(G, p) else 0


@leaf
def pressured(G, p):
    """`pressure(G, p)` through the engine table: a pressure is rare, and its code (a
    shuffle, the log) was inlined with `draw_one` at every place that draws."""
    return call_decision(G[ENG0 + ENGINE_PRESSURE], G, p, 0)


@kernel
def draw_one(G, p, why):
    """Seat p draws the top card (pressure first if the stock is empty). False: no card."""
    g = unpack(G)
    R, st = g.rules, g.st
    if st[S_ENDED] != 0:
        return False
    if st[S_STOCK_N] == 0:
        if R[K_FAMILY] != FAMILY_CRATES:
            return False
        if pressured(G, p) == 0:
            return False
    take_top(G, p, why)
    return True

@leaf
def take_top(G, p, why):
    """Seat p takes the top card of the (not empty) stock."""
    g = unpack(G)
    st, sv, hands, stock = g.st, g.sv, g.hands, g.stock
    st[S_STOCK_N] -= 1
    card = small(stock[small(st[S_STOCK_N])])
    hands[p * 52 + small(sv[at(p, SV_HAND_N)])] = card
    sv[at(p, SV_HAND_N)] += 1
    sv[at(p, SV_HELD)] |= np.int64(1) << card
    sv[at(p, SV_H_DRAWS)] += 1
    # a card drawn after a void may be of that suit (branch-free: draws come at random)
    sv[at(p, SV_VOID_FREE)] += sv[at(p, SV_VOIDS)] != 0
    lp = log_reserve(G, EV_DRAW, 3)
    if lp >= 0:
        g.log[lp] = p
        g.log[lp + 1] = card
        g.log[lp + 2] = why
    tick(G)

@leaf
def draw_fast(G, p, why):
    """`draw_one` with its common case inline: the most frequent turn saves a call."""
    st = unpack(G).st
    if st[S_ENDED] == 0 and st[S_STOCK_N] > 0:
        take_top(G, p, why)
        return True
    return draw_one(G, p, why)

@leaf
def note_void(G, p):
    """Seat p could not play: it showed it holds no card of the current suit (public)."""
    g = unpack(G)
    st, sv = g.st, g.sv
    # the first void restarts the count of cards drawn since (a select, not a branch)
    sv[at(p, SV_VOID_FREE)] = sv[at(p, SV_VOID_FREE)] if sv[at(p, SV_VOIDS)] != 0 else 0
    sv[at(p, SV_VOIDS)] |= 1 << st[S_SUIT]

@kernel
def draw_n(G, p, k, why):
    for _ in range(k):
        if not draw_one(G, p, why):
            return

@leaf
def remove_card(G, p, card):
    """Take `card` out of seat p's hand (the last card fills its place)."""
    g = unpack(G)
    st, sv, hands = g.st, g.sv, g.hands
    n = small(sv[at(p, SV_HAND_N)])
    where = small(G[OPA0 + small(st[S_PICK])])  # where the option just chosen sits, if it is this card
    if where >= n or hands[p * 52 + where] != card:
        where = -1
        for i in range(n):
            if hands[p * 52 + i] == card:
                where = i
                break
        if where < 0:
            return
    hands[p * 52 + where] = hands[p * 52 + n - 1]
    sv[at(p, SV_HAND_N)] = n - 1
    sv[at(p, SV_HELD)] &= ~(np.int64(1) << card)

@leaf
def put_on_pile(G, p, card, call, announce):
    """Seat p's played card goes on the pile and becomes the top; the play is logged."""
    g = unpack(G)
    st, sv, pile = g.st, g.sv, g.pile
    pile[small(st[S_PILE_N])] = card
    st[S_PILE_N] += 1
    st[S_TOP] = card
    st[S_RANK] = card // 4
    st[S_SUIT] = call if call >= 0 else card % 4
    sv[at(p, SV_H_PLAYS)] += 1
    sv[at(p, SV_CALLED)] = call + 1  # (-1: no call, 0)
    sv[at(p, SV_CALL_HAND)] = sv[at(p, SV_HAND_N)]
    st[S_PASSES] = 0
    lp = log_reserve(G, EV_PLAY, 4)
    if lp >= 0:
        log = g.log
        log[lp] = p
        log[lp + 1] = card
        log[lp + 2] = call
        log[lp + 3] = announce
    tick_play(G, p)

#: `options_in` looks at this many places of a hand that has no more cards
SCAN = 8


@leaf
def options_in(G, p, start, mask):
    """Write the cards of seat p's hand whose bit is set in `mask` (bit c: card c) into
    opts, in hand order, and where each sits into G[OPA0:]; returns their number.

    Only the cards from position `start` of the hand are looked at: a caller that knows
    the cards before it do not match (it drew after finding nothing) passes the drawn
    card's position, not 0."""
    g = unpack(G)
    hands, opts = g.hands, g.opts
    k = 0
    if (g.sv[at(p, SV_HELD)] & mask) == 0:  # nothing to play (most draws): no scan
        return k
    base = p * 52
    n = g.sv[at(p, SV_HAND_N)]
    if start == 0 and n <= SCAN:
        # a hand of up to SCAN cards (nearly every hand): all SCAN places are looked at,
        # those past its end counted out, so the loop runs the same number of times every
        # turn and its exit is never mispredicted (the cards past the end are stale cards
        # of this seat's row: a valid card each, their option written over or unused)
        for i in range(SCAN):
            c = small(hands[nowrap(base + i)])
            opts[k] = c
            G[OPA0 + k] = i
            k += ((mask >> c) & 1) & (i < n)
        return k
    for i in range(start, n):
        c = small(hands[nowrap(base + i)])
        # branch-free: whether a random hand's card matches is unpredictable
        opts[k] = c
        G[OPA0 + k] = i
        k += (mask >> c) & 1
    return k

@leaf
def legal_options(G, p, start):
    """Write the cards seat p may play on the top card into opts (`options_in`, from
    position `start` of the hand); returns their number."""
    st = unpack(G).st
    # the cards that may be played: of the suit, of the rank, or wild (a mask, bit c: c)
    legal = (SUIT0_CARDS << st[S_SUIT]) | (RANK0_CARDS << (st[S_RANK] * 4)) | st[S_WILDS]
    return options_in(G, p, start, legal)

@leaf
def count_options(G, p):
    """Write the cards seat p may answer a count with (S_COUNTERS) into opts; returns
    their number."""
    return options_in(G, p, 0, unpack(G).st[S_COUNTERS])

@leaf
def penalise(G, p, missed):
    """Apply a missed last-card call: draw two now, or owe them (next turn / forfeit)."""
    g = unpack(G)
    if missed == 0:
        return
    if g.rules[K_PENALTY] == PEN_IMMEDIATE:
        draw_n(G, p, 2, W_PENALTY)
    else:
        g.sv[at(p, SV_OWE)] = 1
