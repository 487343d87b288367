"""The engine's search API: positions rebuilt from a seat's view, played out by the
engine itself, and valued. Search strategies (pimc) use these and nothing else of the
engine's internals.

Contract: `position_from_view` allocates a state (call it from an allocating function);
the other kernels work on a state in place. A position's rollout is the real rules: the
hand is played on by the engine's own `play_on` (by address, through the engine table).

    base = position_from_view(obs, hand, pile, policy, engine)   # other hands empty
    ... fill the hidden cards of a copy (`set_card`, `set_stock`) ...
    force_first_decision(work, seat, option, again)                # the move to try
    play_out(work)                                                 # to the hand's end
    hand_value(work, seat, base_ppoints)                           # what it was worth

`set_policy_params(base, row)` gives every seat's policy the parameters `row` (a built-in
rollout policy with parameters: expert's `softmax`). `cut_features(work, seat, x)` describes
an ended rollout for a learned value at the cut (expert).

`limit_turns(base, d)` cuts the rollouts after d turns: the hand ends capped, and
`hand_value` values it as it stands (Crates: the points in the hands and the pressure
points so far; Crazy Eights: 0, nobody being out).

A search that plays many rollouts from one deal seeds the deal's streams once
(`seed_rollout`), copies the whole state once (`copy_state`) and then, per rollout, only
the position and the streams (`start_rollout`: the scalars, the per-seat values, the
hands, the stock, the pile and the streams, about 500 of the state's 1,700 words; the
rest is the rules, the strategies and scratch that every decision rewrites before
reading it) and forces the move to try.
"""

import numpy as np

from ..cards import (
    FAMILY_CRATES,
    K_FAMILY,
    K_MAX_TURNS,
    K_PARTNER,
    O_COUNT,
    O_DEALER,
    O_DIR,
    O_HAND,
    O_OUT_SEQ,
    O_PASSES,
    O_PER_SEAT,
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
    OS_OUT_ORDER,
    OS_OWE,
    OS_PRESS_K,
    OS_PRESSURES,
    OS_TOTAL,
    OS_VOID_FREE,
    OS_VOIDS,
    REASON_CAP,
    REASON_OUT,
    RULES_LEN,
)
from ..core.jit import allocating, kernel, leaf
from ..core.rng_nb import seed_stream
from .bits import popcount
from .drivers_nb import hand_played
from .scoring_nb import THREE_CARDS, eights_payout, held_value, score_crates_held
from .state_nb import (
    ENG0,
    HD0,
    N_ENGINE,
    N_PARAMS,
    OBS0,
    PAR0,
    R0,
    S_AGAIN,
    S_COUNT,
    S_DEALER,
    S_DIR,
    S_FORCE,
    S_FORCE_SEAT,
    S_HAND,
    S_N,
    S_OUT,
    S_OUT_SEQ,
    S_PASSES,
    S_PILE_N,
    S_RANK,
    S_REASON,
    S_SIZE,
    S_STOCK_N,
    S_SUIT,
    S_TOP,
    S_TURN,
    S_WILDS,
    STK0,
    SV0,
    SV_CALL_HAND,
    SV_CALLED,
    SV_G_PPOINTS,
    SV_G_PRESSURES,
    SV_HAND_N,
    SV_HELD,
    SV_OUT_ORDER,
    SV_OWE,
    SV_PRESS_K,
    SV_TEAM,
    SV_TOTAL,
    SV_VOID_FREE,
    SV_VOIDS,
    at,
    new_state,
    stream,
    unpack,
    unpack_counted,
)


@allocating
def position_from_view(obs, hand, pile, policy, engine):
    """A state holding what the seat of `obs` knows: the table, the pile, its own hand;
    the other hands are empty (with their sizes) and the stock unknown (its size). Every
    seat is played by the built-in strategy id `policy` when it is played on."""
    R = obs[O_RULES:O_RULES + RULES_LEN].copy()
    n = obs[O_PLAYERS]
    strat = np.empty(n, dtype=np.int64)
    strat[:] = policy
    G = new_state(R, strat, np.zeros((n, N_PARAMS)), np.zeros(n, dtype=np.int64), engine, 0)
    g = unpack_counted(G)
    st, sv, hands = g.st, g.sv, g.hands
    me = obs[O_SEAT]
    st[S_HAND] = obs[O_HAND]
    st[S_SIZE] = obs[O_SIZE]
    st[S_DEALER] = obs[O_DEALER]
    st[S_TURN] = me
    st[S_DIR] = obs[O_DIR]
    st[S_SUIT] = obs[O_SUIT]
    st[S_RANK] = obs[O_RANK]
    st[S_TOP] = obs[O_TOP]
    st[S_COUNT] = obs[O_COUNT]
    st[S_STOCK_N] = obs[O_STOCK_N]
    st[S_PILE_N] = pile.shape[0]
    st[S_PASSES] = obs[O_PASSES]
    st[S_OUT_SEQ] = obs[O_OUT_SEQ]
    st[S_REASON] = -1
    st[S_OUT] = -1
    for i in range(pile.shape[0]):
        g.pile[i] = pile[i]
    for q in range(n):
        b = O_SEATS + q * O_PER_SEAT
        sv[at(q, SV_HAND_N)] = obs[b + OS_HAND_N]
        sv[at(q, SV_TOTAL)] = obs[b + OS_TOTAL]
        sv[at(q, SV_G_PRESSURES)] = obs[b + OS_PRESSURES]
        sv[at(q, SV_OWE)] = obs[b + OS_OWE]
        sv[at(q, SV_PRESS_K)] = obs[b + OS_PRESS_K]
        sv[at(q, SV_OUT_ORDER)] = obs[b + OS_OUT_ORDER]
        sv[at(q, SV_VOIDS)] = obs[b + OS_VOIDS]
        sv[at(q, SV_VOID_FREE)] = obs[b + OS_VOID_FREE]
        sv[at(q, SV_CALLED)] = obs[b + OS_CALLED]
        sv[at(q, SV_CALL_HAND)] = obs[b + OS_CALL_HAND]
        sv[at(q, SV_TEAM)] = q % 2 if R[K_PARTNER] != 0 else q
    for i in range(hand.shape[0]):
        hands[me * 52 + i] = hand[i]
    return G


@allocating
def engine_of(G):
    """A copy of G's engine table (for positions built from a decision in G)."""
    return G[ENG0:ENG0 + N_ENGINE].copy()


@leaf
def hand_size(G, seat):
    """Cards the seat holds in the position."""
    return G[SV0 + at(seat, SV_HAND_N)]


@leaf
def set_card(G, seat, i, card):
    """Card i of the seat's hand (a hidden card, dealt by the searcher)."""
    G[HD0 + seat * 52 + i] = card


@leaf
def set_stock(G, cards, start, m):
    """The stock: cards[start:start + m], the last one on top."""
    for i in range(m):
        G[STK0 + i] = cards[start + i]
    G[S_STOCK_N] = m


@leaf
def pressure_points(G, seat):
    """Pressure points the seat has taken this game."""
    return G[SV0 + at(seat, SV_G_PPOINTS)]


@kernel
def seed_rollout(G, seed, sample):
    """Give every random stream of the position a fresh seed from (seed, sample)."""
    for r in range(G[S_N] + 2):
        seed_stream(G, stream(r), seed, sample, 7 + r)


@kernel
def start_rollout(W, deal, seat, option, again):
    """W (a `copy_state` of `deal`, played on before) becomes the position of `deal` again,
    with deal's random streams (seed them once per deal: `seed_rollout(deal, ...)`) and
    `option` forced as the seat's next decision: a fresh copy with `force_first_decision`,
    without copying what a rollout does not change or rewrites before it reads it."""
    n = deal[S_N]
    for i in range(HD0 + n * 52):  # scalars, per-seat values, the hands in play
        W[i] = deal[i]
    for i in range(STK0, OBS0):  # the stock and the pile
        W[i] = deal[i]
    for i in range(stream(0), stream(n + 2)):  # the streams `seed_rollout` seeds
        W[i] = deal[i]
    force_first_decision(W, seat, option, again)


@leaf
def limit_turns(G, turns):
    """Cut the position's rollouts after `turns` plays, draws and passes: the hand then
    ends as capped (max_turns_per_hand), as it stands. (A rebuilt position counts its
    turns from 0.)"""
    G[R0 + K_MAX_TURNS] = min(G[R0 + K_MAX_TURNS], turns)


@leaf
def force_first_decision(G, seat, option, again):
    """Make `option` the seat's next decision, its turn the next to play (again: the
    play after its own 6); played on from there, every other decision is its policy's."""
    G[S_FORCE] = option
    G[S_FORCE_SEAT] = seat
    G[S_AGAIN] = 1 if again else 0
    G[S_TURN] = seat


@leaf
def play_out(G):
    """Play the position to the end of its hand (the engine's own `play_on`)."""
    return hand_played(G)


@kernel
def hand_value(G, me, base_ppoints):
    """What the ended hand is worth to seat `me` (higher is better): in Crates the
    opponents' hand points and pressure points since base_ppoints (per opponent unit)
    minus its own side's; in Crazy Eights the payout, won or paid."""
    g = unpack(G)
    R, st, sv = g.rules, g.st, g.sv
    n = st[S_N]
    if R[K_FAMILY] == FAMILY_CRATES:
        mine = 0.0
        theirs = 0.0
        n_theirs = 0
        my_team = sv[at(me, SV_TEAM)]
        for q in range(n):
            pts, _, _, _ = score_crates_held(R, sv[at(q, SV_HELD)])
            cost = pts + sv[at(q, SV_G_PPOINTS)] - base_ppoints[q]
            if sv[at(q, SV_TEAM)] == my_team:
                mine += cost
            else:
                theirs += cost
                n_theirs += 1
        units_theirs = n_theirs if R[K_PARTNER] == 0 else 1
        return theirs / max(units_theirs, 1) - mine
    out = st[S_OUT]
    if st[S_REASON] != REASON_OUT or out < 0:
        return 0.0
    pts = eights_payout(G, out)
    return float(pts) if out == me else -float(pts)


@allocating
def set_policy_params(G, row):
    """Every seat of the position plays its policy with the parameters `row` (up to
    N_PARAMS values; `position_from_view` leaves them 0)."""
    n = G[S_N]
    params = G[PAR0:PAR0 + n * N_PARAMS].view(np.float64)
    for q in range(n):
        for j in range(min(row.shape[0], N_PARAMS)):
            params[q * N_PARAMS + j] = row[j]


#: how many values `cut_features` writes
N_CUT_FEATURES = 12


@kernel
def is_cut(G):
    """Whether the ended rollout was cut (`limit_turns`) rather than played to its end."""
    return G[S_REASON] == REASON_CAP


@kernel
def cut_features(G, me, x):
    """Features of the position G as it stands, for seat `me`'s side (its team with
    partnerships) against the opponents (averaged per opponent unit, as `hand_value`
    counts them), into x[:N_CUT_FEATURES]: 1; my side's points held (Crates: scored as
    they stand, 3s covering; Crazy Eights: card values), cards, 3s, wilds, fewest cards
    in one hand; the same for the opponents; whether an opponent moves next."""
    g = unpack(G)
    R, st, sv = g.rules, g.st, g.sv
    n = st[S_N]
    crates = R[K_FAMILY] == FAMILY_CRATES
    my_team = sv[at(me, SV_TEAM)]
    for i in range(N_CUT_FEATURES):
        x[i] = 0.0
    x[0] = 1.0
    x[5] = 99.0
    x[10] = 99.0
    n_theirs = 0
    for q in range(n):
        held = sv[at(q, SV_HELD)]
        if crates:
            pts, _, _, _ = score_crates_held(R, held)
        else:
            pts = held_value(R, held)
        cards = popcount(held)
        b = 1 if sv[at(q, SV_TEAM)] == my_team else 6
        if b == 6:
            n_theirs += 1
        x[b] += pts
        x[b + 1] += cards
        x[b + 2] += popcount(held & THREE_CARDS) if crates else 0
        x[b + 3] += popcount(held & G[S_WILDS])
        x[b + 4] = min(x[b + 4], cards)
    units = n_theirs if R[K_PARTNER] == 0 else 1
    for i in range(6, 10):
        x[i] /= max(units, 1)
    x[11] = 0.0 if sv[at(st[S_TURN], SV_TEAM)] == my_team else 1.0
