"""Drivers: dealing, a hand played to its end, whole games of a chunk, a stacked hand.

Contract: `play_games_nb` is the engine's entry point from Python (one call per chunk);
`play_on` plays a hand on from any turn (and deals it first when st[S_DEAL] is set); it
is called by address (`hand_played`, the engine table) so that it is compiled once.
`play_stacked_nb` plays one hand from a given deck (tests, examples).
"""

import numpy as np

from ..cards import (
    EV_DEAL,
    FAMILY_CRATES,
    K_FAMILY,
    K_FIRST_DEALER,
    K_HAND_SIZE,
    K_MAX_HANDS,
    K_MAX_TURNS,
    K_PARTNER,
    K_PLAYERS,
    O_RULES,
    REASON_CAP,
)
from ..core.jit import allocating, kernel, leaf
from ..core.rng_nb import rand_below, seed_stream, shuffle_cards
from .actions_nb import end_hand
from .bits import card_mask
from .counts_nb import count_turn
from .crates_nb import crates_turn, crates_upcard
from .eights_nb import eights_turn
from .indirect import call_on_state
from .log_nb import export_log, log_reserve
from .scoring_nb import (
    finish_game,
    finish_hand,
    game_over,
    score_hand,
    start_hand_points,
    write_hand_rows,
)
from .state_nb import (
    CRATES_SIZES,
    DECK0,
    ENG0,
    ENGINE_PLAY_ON,
    ERR_CHOICE,
    ERR_GAME,
    ERR_HAND,
    ERR_PHASE,
    ERR_SEAT,
    ERR_SEEN,
    H_GAME,
    N_SEEN,
    NSV,
    S_AGAIN,
    S_CAP_DUE,
    S_CHOICES,
    S_COUNT,
    S_DEAL,
    S_DEALER,
    S_DECK_N,
    S_DIR,
    S_ENDED,
    S_ERR_CHOICE,
    S_ERR_HAND,
    S_ERR_PHASE,
    S_ERR_SEAT,
    S_ERROR,
    S_FIRST_DEALER,
    S_GAME,
    S_GAME_OVER,
    S_HAND,
    S_LAST,
    S_LEN,
    S_LOG_ON,
    S_MOVES,
    S_N,
    S_OPTIONS,
    S_OUT,
    S_OUT_SEQ,
    S_PASSES,
    S_PILE_N,
    S_RANK,
    S_REASON,
    S_SEED,
    S_SIZE,
    S_SNAP0,
    S_STOCK_N,
    S_SUIT,
    S_TOP,
    S_TURN,
    S_TURNS,
    SV_CALLED,
    SV_H_DRAWS,
    SV_H_PLAYS,
    SV_H_PPOINTS,
    SV_H_PRESSURES,
    SV_HAND_N,
    SV_HAND_PTS,
    SV_HELD,
    SV_OUT_ORDER,
    SV_OWE,
    SV_PRESS_K,
    SV_TEAM,
    SV_TOTAL,
    SV_VOID_FREE,
    SV_VOIDS,
    T_GAMES,
    TMP_DECK,
    TMP_SEEN,
    at,
    new_state,
    nowrap,
    obs_rules,
    small,
    stream,
    unpack,
    unpack_counted,
)


@kernel
def deal_hand(G, seed, game, hand_no):
    """Start hand `hand_no`: shuffle (stream from seed, game, hand), deal, turn the upcard."""
    g = unpack(G)
    rng = g.rng
    deck = g.tmp[TMP_DECK:TMP_DECK + 52]
    d = small(g.st[S_DECK_N])
    for i in range(d):  # the rules' deck in card order (`new_state` built it)
        deck[i] = G[nowrap(DECK0 + i)]
    row = stream(g.st[S_N] + 1)
    seed_stream(rng, row, seed, game, 1000 + hand_no)
    shuffle_cards(deck, d, rng, row)
    lay_out(G, deck, d, hand_no)

@kernel
def lay_out(G, deck, d, hand_no):
    """Deal deck[:d] (first card first) for hand `hand_no`: hands, upcard, stock, upcard rule.

    Cards go one at a time to each seat from the dealer's left; the next card is the
    upcard, the rest the stock (deck[i] after the upcard is the stock's top)."""
    g = unpack(G)
    R, st, sv, hands, stock, pile = g.rules, g.st, g.sv, g.hands, g.stock, g.pile
    n = st[S_N]
    if R[K_FAMILY] == FAMILY_CRATES:
        size = CRATES_SIZES[hand_no - 1]
    else:
        size = R[K_HAND_SIZE]
    dealer = (st[S_FIRST_DEALER] + hand_no - 1) % n
    st[S_HAND] = hand_no
    st[S_SIZE] = size
    st[S_DEALER] = dealer
    st[S_DIR] = 1
    st[S_COUNT] = 0
    st[S_TURNS] = 0
    st[S_MOVES] = 0
    st[S_CHOICES] = 0
    st[S_OPTIONS] = 0
    st[S_ENDED] = 0
    st[S_REASON] = -1
    st[S_OUT] = -1
    st[S_PASSES] = 0
    st[S_AGAIN] = 0
    st[S_OUT_SEQ] = 0
    st[S_CAP_DUE] = 0
    for q in range(n):
        sv[at(q, SV_OWE)] = 0
        sv[at(q, SV_OUT_ORDER)] = -1
        sv[at(q, SV_H_DRAWS)] = 0
        sv[at(q, SV_H_PLAYS)] = 0
        sv[at(q, SV_H_PRESSURES)] = 0
        sv[at(q, SV_H_PPOINTS)] = 0
        sv[at(q, SV_VOIDS)] = 0
        sv[at(q, SV_VOID_FREE)] = 0
        sv[at(q, SV_CALLED)] = 0
        sv[at(q, SV_HAND_N)] = size
        sv[at(q, SV_HELD)] = 0
    i = 0
    for j in range(size):
        q = dealer
        for _ in range(n):
            q = q + 1 if q + 1 < n else 0  # the dealer's left first (no division per card)
            c = small(deck[nowrap(i)])
            hands[nowrap(q * 52 + j)] = c
            # each seat's mask as its cards come (a loop per seat after the deal was
            # vectorized with gathers: slower for hands this small)
            sv[at(q, SV_HELD)] |= np.int64(1) << c
            i += 1
    up = deck[i]
    i += 1
    pile[0] = up
    st[S_PILE_N] = 1
    st[S_TOP] = up
    st[S_SUIT] = up % 4
    st[S_RANK] = up // 4
    m = d - i
    for j in range(m):
        stock[nowrap(j)] = deck[nowrap(d - 1 - j)]
    st[S_STOCK_N] = m
    lp = log_reserve(G, EV_DEAL, 6 + n * size + m)
    if lp >= 0:
        log = g.log
        log[lp] = hand_no
        log[lp + 1] = dealer
        log[lp + 2] = size
        log[lp + 3] = up
        log[lp + 4] = n
        log[lp + 5] = m
        pos = lp + 6
        for q in range(n):
            for j in range(size):
                log[pos] = hands[q * 52 + j]
                pos += 1
        for j in range(m):
            log[pos] = stock[m - 1 - j]
            pos += 1
    st[S_TURN] = (dealer + 1) % n
    if R[K_FAMILY] == FAMILY_CRATES:
        crates_upcard(G, up)

@kernel
def start_game(G, seed, game):
    """Reset g for game `game` of seed `seed`: streams, dealer, totals, teams, and the
    view's table and seat parts (a user's function that reads a part it declared it does
    not read, `view.reads`, reads values of this game only, whatever game came before)."""
    g = unpack(G)
    R, st, sv, rng = g.rules, g.st, g.sv, g.rng
    n = st[S_N]
    for i in range(O_RULES):
        g.obs[i] = 0
    obs_rules(G)
    for q in range(n):
        for f in range(NSV):
            sv[at(q, f)] = 0
        sv[at(q, SV_TEAM)] = q % 2 if R[K_PARTNER] != 0 else q
        seed_stream(rng, stream(1 + q), seed, game, 100 + q)
    seed_stream(rng, stream(0), seed, game, 1)
    st[S_FIRST_DEALER] = rand_below(rng, stream(0), n) if R[K_FIRST_DEALER] < 0 else 0
    st[S_GAME_OVER] = 0

@kernel
def held_from_hands(G):
    """Set every seat's SV_HELD from its hand (for a position whose hands were written
    directly)."""
    g = unpack(G)
    sv = g.sv
    for q in range(g.st[S_N]):
        sv[at(q, SV_HELD)] = card_mask(g.hands, q * 52, sv[at(q, SV_HAND_N)])

@kernel
def play_on(G):
    """Play the current hand on from the start of the current turn until it ends (first
    dealing hand st[S_DEAL] of game st[S_GAME] when it is set); returns the hand's turns.
    Called by address (`hand_played`), so that it is compiled once: dealing is here too
    because the upcard may need a decision, which would bring the strategies along."""
    g = unpack(G)
    R, st = g.rules, g.st
    if st[S_DEAL] > 0:
        hand_no = st[S_DEAL]
        st[S_DEAL] = 0
        deal_hand(G, np.uint64(st[S_SEED]), st[S_GAME], hand_no)
    else:  # a position (a table's turn, a search's deal of the hidden cards)
        held_from_hands(G)
    crates = R[K_FAMILY] == FAMILY_CRATES
    snap = st[S_SNAP0]
    while st[S_ENDED] == 0:
        if snap != 0:  # an outside agent's table: keep where this turn starts
            for i in range(S_LEN):  # (a loop: a slice copy would allocate)
                G[snap + i] = G[i]
        p = small(st[S_TURN])
        st[S_LAST] = p
        if crates:
            counted = crates_turn(G, p)
        else:
            counted = eights_turn(G, p)
        if counted:  # p faces a count: one call site, so `count_turn` is inlined once
            count_turn(G, p)
        if st[S_CAP_DUE] != 0:  # a going-out play resolved: a cap reached meanwhile applies
            st[S_CAP_DUE] = 0
            if st[S_TURNS] >= R[K_MAX_TURNS]:
                end_hand(G, REASON_CAP, -1)
    return st[S_TURNS]

@leaf
def hand_played(G):
    """`play_on(G)`, called through the engine table: the caller's compile does not
    include the turn kernels (they are compiled once, in `play_on`'s own library)."""
    return call_on_state(G[ENG0 + ENGINE_PLAY_ON], G)

@allocating
def play_games_nb(R, strat, sparams, addrs, engine, seed, game_start, n_games, want_rows,
                  games_out, win_out, hand_rows, log, log_on, stats, err):
    """Play games game_start .. game_start+n_games-1; returns how many were played.

    hand_rows: one array per H_* field, in its dataset dtype (see `write_hand_rows`,
    `engine.new_hand_rows`); the rows of game g carry g itself. Stops early
    (returning fewer) when hand_rows might not hold another whole game, or
    when a strategy made an illegal choice (err is then filled: seat, phase, choice, hand,
    game)."""
    G = new_state(R, strat, sparams, addrs, engine, log.shape[0] if log_on else 0)
    st = unpack_counted(G).st
    n = R[K_PLAYERS]
    st[S_LOG_ON] = log_on
    rows = 0
    max_rows = R[K_MAX_HANDS] * n
    for i in range(n_games):
        if want_rows and rows + max_rows > hand_rows[H_GAME].shape[0]:
            return export_log(G, log, stats, i)
        game = game_start + i
        start_game(G, seed, game)
        st[S_SEED] = np.int64(seed)
        st[S_GAME] = game
        hand_no = 0
        while True:
            hand_no += 1
            st[S_DEAL] = hand_no
            hand_played(G)
            if st[S_ERROR] != 0:
                err[ERR_SEAT] = st[S_ERR_SEAT]
                err[ERR_PHASE] = st[S_ERR_PHASE]
                err[ERR_CHOICE] = st[S_ERR_CHOICE]
                err[ERR_HAND] = st[S_ERR_HAND]
                err[ERR_GAME] = game
                tmp = unpack_counted(G).tmp
                for j in range(N_SEEN):
                    err[ERR_SEEN + j] = tmp[TMP_SEEN + j]
                return export_log(G, log, stats, i)
            score_hand(G, stats)
            if want_rows:
                rows += write_hand_rows(G, game, hand_rows, rows)
            if game_over(G, hand_no):
                break
        finish_game(G, games_out, win_out, i * n)
        stats[T_GAMES] += 1
    return export_log(G, log, stats, n_games)

@allocating
def play_stacked_nb(R, strat, sparams, addrs, engine, deck, hand_no, first_dealer, totals, log,
                    stats, rows):
    """Play one hand from a stacked deck (tests and examples): deck[0] is dealt first.

    totals: the game totals (and pressure counters, as SV_PRESS_K) to start from.
    Returns (st, sv) after the hand was scored, its rows written to `rows` (one per seat,
    `engine.new_hand_rows`); the hand's events are in `log`."""
    G = new_state(R, strat, sparams, addrs, engine, log.shape[0])
    g = unpack_counted(G)
    st, sv = g.st, g.sv
    st[S_LOG_ON] = 1
    start_game(G, np.uint64(0), 0)
    st[S_FIRST_DEALER] = (first_dealer - hand_no + 1) % st[S_N]
    for q in range(st[S_N]):
        sv[at(q, SV_TOTAL)] = totals[q, 0]
        sv[at(q, SV_PRESS_K)] = totals[q, 1]
    for q in range(st[S_N]):
        sv[at(q, SV_HAND_PTS)] = start_hand_points(G, q)
    lay_out(G, deck, deck.shape[0], hand_no)
    hand_played(G)
    finish_hand(G, 0, rows, 0, stats)
    export_log(G, log, stats, 0)
    return st.copy(), g.sv[:st[S_N] * NSV].copy().reshape((st[S_N], NSV))
