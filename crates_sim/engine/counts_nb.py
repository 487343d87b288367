"""Counts: answering an active count (2s, As; Very Crazy Eights 2s) or drawing it.

Contract: kernels on G. `count_turn` is a whole turn of a seat facing a count, for both
families (the rules array says which cards answer and whether answering is forced).
"""

import numpy as np

from ..cards import (
    ACTION_DRAW,
    COUNT_ADD,
    FAMILY_CRATES,
    K_COUNT_FORCED,
    K_COUNT_WHY,
    K_FAMILY,
    K_OUT,
    OUT_AFTER,
    OUT_IMMEDIATE,
    PH_COUNT,
    REASON_COUNT_BACK,
    REASON_OUT,
)
from ..core.jit import inline_once, kernel
from .actions_nb import advance, count_options, draw_one, end_hand, penalise
from .decide_nb import decide_fast, play_chosen
from .state_nb import (
    S_COUNT,
    S_ENDED,
    S_N,
    S_OUT_SEQ,
    SV_HAND_N,
    SV_OUT_ORDER,
    at,
    note_options,
    unpack,
)


@kernel
def count_resolved(G):
    """A count was drawn: end the hand if someone emptied their hand during it."""
    g = unpack(G)
    R, st, sv = g.rules, g.st, g.sv
    n = st[S_N]
    first = -1
    best = np.int64(1) << 60
    any_emptied = False
    for q in range(n):
        if sv[at(q, SV_OUT_ORDER)] >= 0:
            any_emptied = True
            if sv[at(q, SV_HAND_N)] == 0 and sv[at(q, SV_OUT_ORDER)] < best:
                best = sv[at(q, SV_OUT_ORDER)]
                first = q
            sv[at(q, SV_OUT_ORDER)] = -1
    if not any_emptied:
        return
    if first >= 0:
        end_hand(G, REASON_OUT, first)
    elif R[K_OUT] == OUT_AFTER:
        end_hand(G, REASON_COUNT_BACK, -1)

@kernel
def draw_count(G, p):
    """Seat p takes the active count's cards; the count ends."""
    g = unpack(G)
    R, st = g.rules, g.st
    k = st[S_COUNT]
    why = R[K_COUNT_WHY]
    for _ in range(k):
        if not draw_one(G, p, why):
            break
    st[S_COUNT] = 0
    if st[S_ENDED] == 0:
        count_resolved(G)

@inline_once
def count_turn(G, p):
    """Seat p faces an active count: answer it with a 2 or A (Crates) / a 2 (VCE), or draw."""
    g = unpack(G)
    R, st, sv, opts = g.rules, g.st, g.sv, g.opts
    k = count_options(G, p)
    if k > 0 and R[K_COUNT_FORCED] == 0:
        opts[k] = ACTION_DRAW
        k += 1
    note_options(G, k)
    choice = ACTION_DRAW
    if k > 0:
        choice = decide_fast(G, p, PH_COUNT, k, -1)
    if st[S_ENDED] != 0:
        return
    if choice == ACTION_DRAW:
        draw_count(G, p)
        if st[S_ENDED] == 0:
            advance(G, p, 1)
        return
    missed = play_chosen(G, p, choice)
    st[S_COUNT] += R[COUNT_ADD + choice]
    if st[S_ENDED] != 0:
        return
    if R[K_FAMILY] != FAMILY_CRATES:
        if sv[at(p, SV_HAND_N)] == 0:
            end_hand(G, REASON_OUT, p)
            return
    else:
        penalise(G, p, missed)
        if st[S_ENDED] != 0:
            return
        if sv[at(p, SV_HAND_N)] == 0:
            if R[K_OUT] == OUT_IMMEDIATE:
                end_hand(G, REASON_OUT, p)
                return
            st[S_OUT_SEQ] += 1
            sv[at(p, SV_OUT_ORDER)] = st[S_OUT_SEQ]
    advance(G, p, 1)
