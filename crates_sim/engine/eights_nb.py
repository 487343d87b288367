"""The Crazy Eights turn (draw rules one / must_play / unlimited, passes on an empty stock,
the Very Crazy Eights effects through the rules array's effect table).

Contract: kernels on G, as crates_nb.
"""

from ..cards import (
    ACTION_DRAW,
    ACTION_PASS,
    COUNT_ADD,
    DRAW_ONE,
    DRAW_UNLIMITED,
    E_COUNT,
    E_QUEEN5,
    E_REVERSE,
    E_SKIP,
    EFFECT,
    EV_PASS,
    K_DRAW_RULE,
    K_DRAW_WHEN_ABLE,
    PH_PLAY,
    REASON_BLOCK,
    REASON_OUT,
    W_CANT_PLAY,
    W_VCE_QUEEN,
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
    seat_after,
    tick,
)
from .decide_nb import decide_fast, play_chosen
from .log_nb import log_reserve
from .state_nb import (
    S_COUNT,
    S_DIR,
    S_ENDED,
    S_N,
    S_PASSES,
    S_STOCK_N,
    SV_HAND_N,
    at,
    note_options,
    unpack,
)


@kernel
def pass_turn(G, p):
    g = unpack(G)
    st = g.st
    lp = log_reserve(G, EV_PASS, 1)
    if lp >= 0:
        g.log[lp] = p
    st[S_PASSES] += 1
    tick(G)
    if st[S_ENDED] != 0:
        return
    if st[S_PASSES] >= st[S_N]:
        end_hand(G, REASON_BLOCK, -1)
        return
    advance(G, p, 1)

@leaf
def eights_play(G, p, card):
    g = unpack(G)
    R, st, sv = g.rules, g.st, g.sv
    eff = R[EFFECT + card]
    play_chosen(G, p, card)
    if st[S_ENDED] != 0:
        return
    if sv[at(p, SV_HAND_N)] == 0:
        end_hand(G, REASON_OUT, p)
        return
    skip = 1
    if eff == E_COUNT:
        st[S_COUNT] = R[COUNT_ADD + card]
    elif eff == E_SKIP:
        skip = 2
    elif eff == E_REVERSE:
        st[S_DIR] = -st[S_DIR]
    elif eff == E_QUEEN5:
        draw_n(G, seat_after(G, p, 1), 5, W_VCE_QUEEN)
        skip = 2
    if st[S_ENDED] == 0:
        advance(G, p, skip)

@inline_once
def eights_turn(G, p):
    """Seat p's whole turn under the Crazy Eights rules (draw_rule one/must_play/unlimited);
    True (nothing done) when p faces a count: the caller then makes p's `count_turn`."""
    g = unpack(G)
    R, st, sv, opts = g.rules, g.st, g.sv, g.opts
    if st[S_COUNT] > 0:
        return True  # a count: `count_turn`, which the caller makes
    rule = R[K_DRAW_RULE]
    voluntary = rule == DRAW_UNLIMITED or (rule == DRAW_ONE and R[K_DRAW_WHEN_ABLE] != 0)
    start = 0  # the first card of the hand that may match (see below)
    while st[S_ENDED] == 0:
        k = legal_options(G, p, start)
        empty = st[S_STOCK_N] == 0
        if k == 0:
            note_options(G, 0)
            if empty:
                pass_turn(G, p)
                return False
            note_void(G, p)
            draw_fast(G, p, W_CANT_PLAY)
            st[S_PASSES] = 0
            if rule == DRAW_ONE:
                if st[S_ENDED] == 0:
                    advance(G, p, 1)
                return False
            # no card matched and the top is the same: only the drawn card may match now
            start = sv[at(p, SV_HAND_N)] - 1
            continue
        if voluntary:
            opts[k] = ACTION_PASS if empty else ACTION_DRAW
            k += 1
        note_options(G, k)
        choice = decide_fast(G, p, PH_PLAY, k, -1)
        if st[S_ENDED] != 0:
            return False
        if choice == ACTION_PASS:
            pass_turn(G, p)
            return False
        if choice == ACTION_DRAW:
            draw_one(G, p, W_VOLUNTARY)
            start = 0  # some cards matched: look at them all again
            st[S_PASSES] = 0
            if rule == DRAW_ONE:
                if st[S_ENDED] == 0:
                    advance(G, p, 1)
                return False
            continue
        eights_play(G, p, choice)
        return False
    return False
