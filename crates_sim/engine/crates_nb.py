"""The Crates turn: plays and their effects (counts, skips, 5s, 6s, 7s, reverses, jacks),
the upcard rule, and penalties owed at a hand's end.

Contract: kernels on G; every effect and knob is read from the rules array (EFFECT + card,
K_*), never from a preset name.
"""

from ..cards import (
    ACTION_DRAW,
    COUNT_ADD,
    E_COUNT,
    E_FIVE,
    E_JACK,
    E_REVERSE,
    E_SEVEN,
    E_SIX,
    E_SKIP,
    E_WILD,
    E_WILD9,
    EFFECT,
    K_DRAW_WHEN_ABLE,
    K_OUT,
    K_PENALTY,
    K_SEVEN_ACROSS,
    K_UPCARD,
    OUT_IMMEDIATE,
    PEN_FORFEIT,
    PH_AGAIN,
    PH_BLIND_CALL,
    PH_CALL,
    PH_PLAY,
    REASON_OUT,
    UP_CALL_ONLY,
    UP_SERBIAN,
    W_CANT_PLAY,
    W_COOPER,
    W_FIVE,
    W_JACK,
    W_PENALTY,
    W_SEVEN,
    W_SIX_FAIL,
    W_VOLUNTARY,
)
from ..core.jit import inline_once, kernel, leaf
from .actions_nb import (
    advance,
    draw_fast,
    draw_n,
    draw_one,
    end_hand,
    legal_options,
    note_void,
    penalise,
    seat_after,
)
from .counts_nb import draw_count
from .decide_nb import call_suit, decide_fast, play_chosen
from .log_nb import log_call
from .state_nb import (
    S_AGAIN,
    S_COUNT,
    S_DEALER,
    S_DIR,
    S_ENDED,
    S_LAST,
    S_N,
    S_OUT,
    S_OUT_SEQ,
    S_REASON,
    S_SUIT,
    S_TURN,
    SV_HAND_N,
    SV_OUT_ORDER,
    SV_OWE,
    at,
    note_options,
    unpack,
)

#: the Crates effects that draw cards or replay (bit e: effect e), see `crates_effect`
DRAWING_EFFECTS = (1 << E_FIVE) | (1 << E_SIX) | (1 << E_SEVEN) | (1 << E_JACK)


@leaf
def crates_effect(G, p, card):
    """Apply the effect of `card` played by p (or the dealer's upcard under as_played).

    Returns 1 when p must play again (a 6 with cards left), else 0 with the turn passed on
    or the hand ended."""
    g = unpack(G)
    R, st, sv = g.rules, g.st, g.sv
    n = st[S_N]
    eff = R[EFFECT + card]
    # The effect of a random card is unpredictable, so a jump to its code is mispredicted
    # most of the time: the effects that only set the table (count, skip, reverse) are
    # selects, and one branch leads to the effects that draw (5, 6, 7, jack).
    add = R[COUNT_ADD + card]
    st[S_COUNT] = add if eff == E_COUNT else st[S_COUNT]
    skip = 2 if eff == E_SKIP else 1
    d = st[S_DIR]
    st[S_DIR] = -d if eff == E_REVERSE and n > 2 else d
    if (DRAWING_EFFECTS >> eff) & 1:
        if eff == E_FIVE:
            for i in range(1, n):
                draw_one(G, seat_after(G, p, i), W_FIVE)
        elif eff == E_SIX:
            if sv[at(p, SV_HAND_N)] == 0:
                draw_one(G, p, W_COOPER)
                if st[S_ENDED] == 0:
                    advance(G, p, 1)
                return 0
            return 1
        elif eff == E_SEVEN:
            k = 2 if R[K_SEVEN_ACROSS] != 0 and n >= 4 else 1
            draw_one(G, seat_after(G, p, k), W_SEVEN)
        elif n == 2:  # E_JACK
            draw_one(G, seat_after(G, p, 1), W_JACK)
        elif n == 3:
            draw_one(G, seat_after(G, p, -1), W_JACK)
    if st[S_ENDED] != 0:
        return 0
    if sv[at(p, SV_HAND_N)] == 0:
        if st[S_COUNT] > 0:
            st[S_OUT_SEQ] += 1
            sv[at(p, SV_OUT_ORDER)] = st[S_OUT_SEQ]
        else:
            end_hand(G, REASON_OUT, p)
            return 0
    advance(G, p, skip)
    return 0

@inline_once
def crates_play_step(G, p, again):
    """One play step of seat p (again=1: the step after p's own 6). Returns 1 to play again."""
    g = unpack(G)
    R, st, sv, opts = g.rules, g.st, g.sv, g.opts
    k = legal_options(G, p, 0)
    if k == 0:
        note_options(G, 0)
        note_void(G, p)
        draw_fast(G, p, W_SIX_FAIL if again else W_CANT_PLAY)
        if st[S_ENDED] == 0:
            advance(G, p, 1)
        return 0
    if R[K_DRAW_WHEN_ABLE] != 0:
        opts[k] = ACTION_DRAW
        k += 1
    note_options(G, k)
    card = decide_fast(G, p, PH_AGAIN if again else PH_PLAY, k, -1)
    if st[S_ENDED] != 0:
        return 0
    if card == ACTION_DRAW:
        draw_one(G, p, W_VOLUNTARY)
        if st[S_ENDED] == 0:
            advance(G, p, 1)
        return 0
    eff = R[EFFECT + card]
    missed = play_chosen(G, p, card)
    if st[S_ENDED] != 0:
        return 0
    penalise(G, p, missed)
    if st[S_ENDED] != 0:
        return 0
    if sv[at(p, SV_HAND_N)] == 0 and R[K_OUT] == OUT_IMMEDIATE and eff != E_SIX:
        end_hand(G, REASON_OUT, p)
        return 0
    return crates_effect(G, p, card)

@inline_once
def crates_turn(G, p):
    """Seat p's whole turn under the Crates rules; True (nothing done) when p faces a
    count: the caller then makes p's `count_turn` (one call site in `play_on`)."""
    g = unpack(G)
    R, st, sv = g.rules, g.st, g.sv
    if st[S_AGAIN] == 0:
        if sv[at(p, SV_OWE)] != 0:
            sv[at(p, SV_OWE)] = 0
            draw_n(G, p, 2, W_PENALTY)
            if st[S_ENDED] != 0:
                return False
            if R[K_PENALTY] == PEN_FORFEIT:
                if st[S_COUNT] > 0:
                    draw_count(G, p)
                    if st[S_ENDED] != 0:
                        return False
                advance(G, p, 1)
                return False
        if st[S_COUNT] > 0:
            return True  # a count: `count_turn`, which the caller makes
    again = st[S_AGAIN]
    while True:
        st[S_AGAIN] = 0
        if crates_play_step(G, p, again) == 0:
            return False
        if st[S_ENDED] != 0:
            return False
        again = 1
        st[S_AGAIN] = 1

@kernel
def crates_upcard(G, up):
    """Apply the upcard rule; sets whose turn it is first."""
    g = unpack(G)
    R, st = g.rules, g.st
    dealer = st[S_DEALER]
    rule = R[K_UPCARD]
    eff = R[EFFECT + up]
    advance(G, dealer, 1)
    if rule == UP_CALL_ONLY or rule == UP_SERBIAN:
        wild = eff == E_WILD or (eff == E_WILD9 and rule == UP_CALL_ONLY)
        if wild:
            call = call_suit(G, dealer, up, -1, PH_BLIND_CALL)
            log_call(G, dealer, call)
            st[S_SUIT] = call
        elif rule == UP_SERBIAN and eff == E_COUNT:
            st[S_COUNT] = R[COUNT_ADD + up]
        return
    # as_played: the upcard counts as played by the dealer
    if eff == E_WILD or eff == E_WILD9:
        call = call_suit(G, dealer, up, -1, PH_CALL)
        log_call(G, dealer, call)
        st[S_SUIT] = call
        return
    if crates_effect(G, dealer, up) == 1:  # a 6: the dealer takes a turn first
        st[S_TURN] = dealer
        st[S_AGAIN] = 1

@kernel
def settle_penalties(G):
    """forfeit: penalties still owed when a hand ends are drawn before scoring."""
    g = unpack(G)
    _R, st, sv = g.rules, g.st, g.sv
    n = st[S_N]
    reason = st[S_REASON]
    out = st[S_OUT]
    start = st[S_LAST]
    st[S_ENDED] = 0
    for i in range(1, n + 1):
        q = seat_after(G, start, i)
        if sv[at(q, SV_OWE)] != 0:
            sv[at(q, SV_OWE)] = 0
            draw_n(G, q, 2, W_PENALTY)
            if st[S_ENDED] != 0:
                break
    st[S_ENDED] = 1
    st[S_REASON] = reason
    st[S_OUT] = out
