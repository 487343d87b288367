"""The rules engine: numba kernels that play whole games of every preset.

Contract: numpy arrays and scalars only, no Python objects, no allocation inside a game.
One game's state ``G`` is one flat int64 array built by `new_state`: the rules, all
mutable integers, the random streams, the strategy parameters (as float64 bits) and, when
tracing, the log. Passing one array is what makes a kernel call cheap (measured: a tuple of
five arrays cost ~30 ns per turn in argument copies). Kernels take G and unpack views::

    g = unpack(G) = (R, st, sv, hands, stock, pile, rng, log, obs, opts, strat, sparams, tmp)

(sv and hands are flat: sv[seat * NSV + field], hands[seat * 52 + i].)

    R        int64[RULES_LEN]      rules array (cards.py), a copy
    st       int64[NST]            scalars, S_* below
    sv       int64[7 * NSV]        per-seat values, SV_* below
    hands    int64[7 * 52]         seat s's cards: hands[s * 52:s * 52 + its SV_HAND_N]
    stock    int64[52]             stock[:st[S_STOCK_N]], top card last
    pile     int64[52]             discard pile[:st[S_PILE_N]], top card last
    rng      int64[...]            G itself: stream r's four words start at stream(r)
                                   (0 reshuffles, 1+s seat s's strategy, n+1 deals);
                                   a strategy is handed its own four words only
    log      int64[cap]            event records [ev, n_fields, fields...] when logging
    obs      int64[OBS_LEN]        scratch: a strategy's view (cards.py O_*)
    opts     int64[64]             scratch: the options offered to a strategy
    strat    int64[8]              strategy id per seat
    fn       int64[8]              per seat: the address of its decision adapter, for a
                                   strategy not compiled into the engine (a user's, pimc)
    engine   int64[N_ENGINE]       addresses of engine kernels called by address
                                   (ENGINE_PLAY_ON: `play_on`), see `engine_table`
    sparams  int64[7 * N_PARAMS]   strategy parameters per seat, float64 bits
    tmp      int64[256]            scratch for kernels that may not allocate

Every rule is read from ``R``: effects come from the per-card effect table, knobs from
the K_* slots. The state can be copied (`copy_state`) and played on from the start of any
turn (`play_on`), which search-based strategies use.
"""

import numpy as np

from crates_sim.strategies.builtin import random_nb

from .cards import (
    ACTION_DRAW,
    ACTION_PASS,
    COUNT_ADD,
    DRAW_ONE,
    DRAW_UNLIMITED,
    E_COUNT,
    E_FIVE,
    E_JACK,
    E_QUEEN5,
    E_REVERSE,
    E_SEVEN,
    E_SIX,
    E_SKIP,
    E_WILD,
    E_WILD9,
    EFFECT,
    EV_CALL,
    EV_DEAL,
    EV_DRAW,
    EV_GAME_END,
    EV_HAND_END,
    EV_PASS,
    EV_PLAY,
    EV_PRESSURE,
    FAMILY_CRATES,
    IN_DECK,
    K_COUNT_FORCED,
    K_COUNT_WHY,
    K_DRAW_RULE,
    K_DRAW_WHEN_ABLE,
    K_FAMILY,
    K_FIRST_DEALER,
    K_HAND_SIZE,
    K_MAX_HANDS,
    K_MAX_TURNS,
    K_N_HANDS,
    K_NINE_COVERED,
    K_OUT,
    K_PARTNER,
    K_PENALTY,
    K_PLAYERS,
    K_PSCOPE_TEAM,
    K_SEVEN_ACROSS,
    K_SIX_EXEMPT,
    K_SPARE3,
    K_TARGET,
    K_UPCARD,
    O_CAN_DRAW,
    O_COUNT,
    O_DEALER,
    O_DIR,
    O_FAMILY,
    O_HAND,
    O_HAND_N,
    O_N_HANDS,
    O_OUT_SEQ,
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
    OBS_LEN,
    OS_HAND_N,
    OS_LAST_CARD,
    OS_OUT_ORDER,
    OS_OWE,
    OS_PRESS_K,
    OS_PRESSURES,
    OS_TOTAL,
    OS_VOID_FREE,
    OS_VOIDS,
    OUT_AFTER,
    OUT_IMMEDIATE,
    PEN_FORFEIT,
    PEN_IMMEDIATE,
    PH_AGAIN,
    PH_ANNOUNCE,
    PH_BLIND_CALL,
    PH_CALL,
    PH_COUNT,
    PH_PLAY,
    R_6,
    REASON_BLOCK,
    REASON_CAP,
    REASON_COUNT_BACK,
    REASON_DEAD,
    REASON_OUT,
    RULES_LEN,
    UP_CALL_ONLY,
    UP_SERBIAN,
    VALUE,
    W_CANT_PLAY,
    W_COOPER,
    W_FIVE,
    W_JACK,
    W_PENALTY,
    W_SEVEN,
    W_SIX_FAIL,
    W_VCE_QUEEN,
    W_VOLUNTARY,
)
from .dispatch_nb import N_INLINE, choose_nb
from .indirect import call_decision, call_on_state
from .jit import allocating, counted_leaf, inline_once, kernel, leaf, twin
from .rng_nb import rand_below, seed_stream, shuffle_cards

# ---------------------------------------------------------------- state layout
(S_N, S_HAND, S_SIZE, S_DEALER, S_TURN, S_DIR, S_SUIT, S_RANK, S_TOP, S_COUNT, S_STOCK_N,
 S_PILE_N, S_TURNS, S_ENDED, S_REASON, S_OUT, S_LOG_POS, S_LOG_ON, S_OUT_SEQ, S_PASSES,
 S_AGAIN, S_LAST, S_LOG_OVERFLOW, S_ERROR, S_ERR_SEAT, S_ERR_PHASE, S_ERR_CHOICE,
 S_GAME_OVER, S_ERR_HAND, S_FIRST_DEALER, S_FORCE, S_FORCE_SEAT, S_PICK, S_SEED, S_GAME,
 S_DEAL) = range(36)
NST = 36
# S_SEED, S_GAME: the game being played (the seed as int64 bits); S_DEAL: a hand number
# that `play_on` deals before it plays (0: play the position as it stands)
(SV_HAND_N, SV_TOTAL, SV_PRESS_K, SV_G_PRESSURES, SV_G_PPOINTS, SV_OWE, SV_OUT_ORDER,
 SV_H_DRAWS, SV_H_PLAYS, SV_H_PRESSURES, SV_H_PPOINTS, SV_HANDS_OUT, SV_HOME_RUNS,
 SV_CAPPED, SV_TEAM, SV_HANDS, SV_VOIDS, SV_VOID_FREE) = range(18)
NSV = 18
N_PARAMS = 8

#: fields of a hand row (one per game x hand x seat)
(H_GAME, H_HAND, H_SIZE, H_DEALER, H_POS, H_SEAT, H_POINTS, H_CARDS_LEFT, H_THREES,
 H_COVERED, H_HOME_RUN, H_OUT, H_PRESSURES, H_PPOINTS, H_DRAWS, H_PLAYS, H_TURNS,
 H_REASON) = range(18)
N_HAND_FIELDS = 18
#: fields of a game row (one per game x seat)
(G_TOTAL, G_RANK, G_PRESSURES, G_PPOINTS, G_HANDS_OUT, G_HOME_RUNS, G_CAPPED,
 G_HANDS) = range(8)
N_GAME_FIELDS = 8
#: run statistics
(T_TURNS, T_CAPPED, T_DEAD, T_GAMES) = range(4)

CRATES_SIZES = np.array([8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8], dtype=np.int64)


# ================================================================ state
#: layout of the flat int64 state array G (views of it are unpacked by `unpack`)
SV0 = NST
HD0 = SV0 + 7 * NSV
STK0 = HD0 + 7 * 52
PIL0 = STK0 + 52
OBS0 = PIL0 + 52
OPT0 = OBS0 + OBS_LEN
OPA0 = OPT0 + 64  # where each card option sits in the hand
STR0 = OPA0 + 64
FN0 = STR0 + 8  # decision adapter addresses per seat (0: none)
ENG0 = FN0 + 8  # the engine table: addresses of kernels called by address
N_ENGINE = 4
ENGINE_PLAY_ON = 0
TMP0 = ENG0 + N_ENGINE
R0 = TMP0 + 256
RNG0 = R0 + RULES_LEN
PAR0 = RNG0 + 4 * 9
S_LEN = PAR0 + 7 * N_PARAMS
LOG0 = S_LEN  # the log, when tracing, fills the rest of G


@leaf
def stream(r):
    """Where random stream r's four words start in G."""
    return RNG0 + 4 * r


@allocating
def new_state(R, strat, sparams, addrs, engine, log_cap):
    """Allocate one game's state G for the rules R (room for `log_cap` log words).

    strat: strategy id per seat; sparams: their parameters (seats x up to N_PARAMS);
    addrs: per seat, the address of the decision adapter of a strategy that is not
    compiled into the engine (0 for the built-ins that are); engine: the engine table
    (N_ENGINE addresses, see `crates_sim.engine.engine_table`)."""
    n = R[K_PLAYERS]
    G = np.zeros(S_LEN + log_cap, dtype=np.int64)
    G[S_N] = n
    G[S_FORCE] = -1
    for i in range(N_ENGINE):
        G[ENG0 + i] = engine[i]
    for q in range(n):
        G[STR0 + q] = strat[q]
        G[FN0 + q] = addrs[q]
    for i in range(RULES_LEN):
        G[OBS0 + O_RULES + i] = R[i]
        G[R0 + i] = R[i]
    params = G[PAR0:S_LEN].view(np.float64)
    for q in range(n):
        for j in range(min(sparams.shape[1], N_PARAMS)):
            params[q * N_PARAMS + j] = sparams[q, j]
    return G


@allocating
def copy_state(G):
    """A deep copy of a state, without its log (copies play on silently)."""
    W = G[:S_LEN].copy()
    W[S_LOG_ON] = 0
    return W


@leaf
def unpack(G):
    """Views of G: (R, st, sv, hands, stock, pile, rng, log, obs, opts, strat, sparams, tmp)."""
    R = G[R0:RNG0]
    st = G[0:NST]
    sv = G[SV0:HD0]  # sv[seat * NSV + field]
    hands = G[HD0:STK0]  # hands[seat * 52 + i]
    stock = G[STK0:PIL0]
    pile = G[PIL0:OBS0]
    obs = G[OBS0:OPT0]
    opts = G[OPT0:OPA0]
    strat = G[STR0:FN0]
    tmp = G[TMP0:R0]
    sparams = G[PAR0:S_LEN]
    log = G[LOG0:]
    return (R, st, sv, hands, stock, pile, G, log, obs, opts, strat, sparams, tmp)


#: `unpack` for allocating callers (pimc, the drivers): see `jit.counted_leaf`
unpack_counted = twin(unpack, counted_leaf, "unpack_counted")


# ================================================================ small helpers
@leaf
def seat_after(G, p, k):
    """The seat k places after p in the current direction."""
    g = unpack(G)
    st = g[1]
    n = st[S_N]
    q = p + k * st[S_DIR]
    while q >= n:  # no division (an idiv costs more than the rest of this); |k| < n here
        q -= n
    while q < 0:
        q += n
    return q


@leaf
def advance(G, p, k):
    g = unpack(G)
    g[1][S_TURN] = seat_after(G, p, k)


@leaf
def end_hand(G, reason, out):
    g = unpack(G)
    st = g[1]
    if st[S_ENDED] == 0:
        st[S_ENDED] = 1
        st[S_REASON] = reason
        st[S_OUT] = out


@leaf
def log_reserve(G, ev, n_fields):
    """Start a log record; the index of its first field, or -1 when not logging."""
    g = unpack(G)
    st = g[1]
    log = g[7]
    if st[S_LOG_ON] == 0:
        return -1
    pos = st[S_LOG_POS]
    if pos + 2 + n_fields > log.shape[0]:
        st[S_LOG_OVERFLOW] = 1
        st[S_LOG_ON] = 0
        return -1
    log[pos] = ev
    log[pos + 1] = n_fields
    st[S_LOG_POS] = pos + 2 + n_fields
    return pos + 2


@leaf
def tick(G):
    """Count one play, draw or pass; end the hand with `cap` at max_turns_per_hand."""
    g = unpack(G)
    st = g[1]
    st[S_TURNS] += 1
    if st[S_TURNS] >= g[0][K_MAX_TURNS]:
        end_hand(G, REASON_CAP, -1)


@kernel
def add_to_unit(G, s, field, v):
    """Add v to `field` of seat s and of its partner (the seats of its team)."""
    g = unpack(G)
    sv = g[2]
    for q in range(g[1][S_N]):
        if sv[q * NSV + SV_TEAM] == sv[s * NSV + SV_TEAM]:
            sv[q * NSV + field] += v


@leaf
def colour(suit):
    return 1 if suit == 1 or suit == 2 else 0


# ================================================================ drawing
@kernel
def pressure(G, p):
    """Stock empty: seat p takes a pressure; reshuffle, or end the hand `dead`."""
    g = unpack(G)
    R, st, sv, stock, pile = g[0], g[1], g[2], g[4], g[5]
    k = sv[p * NSV + SV_PRESS_K]
    points = np.int64(5) << min(k, 56)
    if R[K_PSCOPE_TEAM] != 0:
        add_to_unit(G, p, SV_PRESS_K, 1)
    else:
        sv[p * NSV + SV_PRESS_K] += 1
    sv[p * NSV + SV_G_PRESSURES] += 1
    sv[p * NSV + SV_G_PPOINTS] += points
    sv[p * NSV + SV_H_PRESSURES] += 1
    sv[p * NSV + SV_H_PPOINTS] += points
    add_to_unit(G, p, SV_TOTAL, points)
    m = st[S_PILE_N] - 1
    if m <= 0:
        lp = log_reserve(G, EV_PRESSURE, 3)
        if lp >= 0:
            g[7][lp] = p
            g[7][lp + 1] = points
            g[7][lp + 2] = -1
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
        log = g[7]
        log[lp] = p
        log[lp + 1] = points
        log[lp + 2] = m
        for i in range(m):
            log[lp + 3 + i] = stock[m - 1 - i]
    return True


@kernel
def draw_one(G, p, why):
    """Seat p draws the top card (pressure first if the stock is empty). False: no card."""
    g = unpack(G)
    R, st = g[0], g[1]
    if st[S_ENDED] != 0:
        return False
    if st[S_STOCK_N] == 0:
        if R[K_FAMILY] != FAMILY_CRATES:
            return False
        if not pressure(G, p):
            return False
    take_top(G, p, why)
    return True


@leaf
def take_top(G, p, why):
    """Seat p takes the top card of the (not empty) stock."""
    g = unpack(G)
    st, sv, hands, stock = g[1], g[2], g[3], g[4]
    st[S_STOCK_N] -= 1
    card = stock[st[S_STOCK_N]]
    hands[p * 52 + sv[p * NSV + SV_HAND_N]] = card
    sv[p * NSV + SV_HAND_N] += 1
    sv[p * NSV + SV_H_DRAWS] += 1
    if sv[p * NSV + SV_VOIDS] != 0:
        sv[p * NSV + SV_VOID_FREE] += 1  # a card drawn after the void may be of that suit
    lp = log_reserve(G, EV_DRAW, 3)
    if lp >= 0:
        g[7][lp] = p
        g[7][lp + 1] = card
        g[7][lp + 2] = why
    tick(G)


@leaf
def draw_fast(G, p, why):
    """`draw_one` with its common case inline: the most frequent turn saves a call."""
    st = unpack(G)[1]
    if st[S_ENDED] == 0 and st[S_STOCK_N] > 0:
        take_top(G, p, why)
        return True
    return draw_one(G, p, why)


@leaf
def note_void(G, p):
    """Seat p could not play: it showed it holds no card of the current suit (public)."""
    g = unpack(G)
    st, sv = g[1], g[2]
    if sv[p * NSV + SV_VOIDS] == 0:
        sv[p * NSV + SV_VOID_FREE] = 0
    sv[p * NSV + SV_VOIDS] |= 1 << st[S_SUIT]


@kernel
def draw_n(G, p, k, why):
    for _ in range(k):
        if not draw_one(G, p, why):
            return


# ================================================================ decisions
@leaf
def fill_obs(G, p, phase, played):
    """Write seat p's view of the table into obs (nothing hidden from p is written)."""
    g = unpack(G)
    R, st, sv, obs = g[0], g[1], g[2], g[8]
    n = st[S_N]
    obs[O_SEAT] = p
    obs[O_PLAYERS] = n
    obs[O_PARTNER] = (p + 2) % 4 if R[K_PARTNER] != 0 else -1
    obs[O_DEALER] = st[S_DEALER]
    obs[O_HAND] = st[S_HAND]
    obs[O_SIZE] = st[S_SIZE]
    obs[O_TOP] = st[S_TOP]
    obs[O_SUIT] = st[S_SUIT]
    obs[O_RANK] = st[S_RANK]
    obs[O_DIR] = st[S_DIR]
    obs[O_COUNT] = st[S_COUNT]
    obs[O_STOCK_N] = st[S_STOCK_N]
    obs[O_PHASE] = phase
    obs[O_CAN_DRAW] = R[K_DRAW_WHEN_ABLE]
    obs[O_FAMILY] = R[K_FAMILY]
    obs[O_PLAYED] = played
    obs[O_N_HANDS] = R[K_MAX_HANDS]
    # the dealer names the upcard's suit before seeing the cards
    obs[O_HAND_N] = 0 if phase == PH_BLIND_CALL else sv[p * NSV + SV_HAND_N]
    for q in range(n):
        base = O_SEATS + q * O_PER_SEAT
        obs[base + OS_HAND_N] = sv[q * NSV + SV_HAND_N]
        obs[base + OS_TOTAL] = sv[q * NSV + SV_TOTAL]
        obs[base + OS_PRESSURES] = sv[q * NSV + SV_G_PRESSURES]
        obs[base + OS_LAST_CARD] = 1 if sv[q * NSV + SV_HAND_N] == 1 else 0
        obs[base + OS_OWE] = sv[q * NSV + SV_OWE]
        obs[base + OS_PRESS_K] = sv[q * NSV + SV_PRESS_K]
        obs[base + OS_OUT_ORDER] = sv[q * NSV + SV_OUT_ORDER]
        obs[base + OS_VOIDS] = sv[q * NSV + SV_VOIDS]
        obs[base + OS_VOID_FREE] = sv[q * NSV + SV_VOID_FREE]
    obs[O_PASSES] = st[S_PASSES]
    obs[O_OUT_SEQ] = st[S_OUT_SEQ]


@leaf
def decision_views(G, p, n_opts):
    """The arguments of seat p's decision function, cut from G after `fill_obs`:
    (params, obs, hand, pile, options, rng). Only what the seat may see: its own hand, the
    pile, the options, and its own random stream (another's would tell the deal)."""
    params = G[PAR0 + p * N_PARAMS:PAR0 + p * N_PARAMS + N_PARAMS].view(np.float64)
    obs = G[OBS0:OPT0]
    hand = G[HD0 + p * 52:HD0 + p * 52 + obs[O_HAND_N]]
    pile = G[PIL0:PIL0 + G[S_PILE_N]]
    options = G[OPT0:OPT0 + n_opts]
    own = stream(1 + p)
    return params, obs, hand, pile, options, G[own:own + 4]


@kernel
def decide(G, p, phase, n_opts, played):
    """Ask seat p's strategy to pick one of opts[:n_opts]; returns the chosen option."""
    g = unpack(G)
    st, hands, opts = g[1], g[3], g[9]
    if st[S_FORCE] >= 0 and st[S_FORCE_SEAT] == p:
        # a search strategy's rollout: the first decision of seat p is given
        for i in range(n_opts):
            if opts[i] == st[S_FORCE]:
                st[S_FORCE] = -1
                st[S_PICK] = i
                return opts[i]
        st[S_FORCE] = -1
    fill_obs(G, p, phase, played)
    sid = g[10][p]
    if sid < N_INLINE:
        params, obs, hand, pile, options, rng = decision_views(G, p, n_opts)
        k = choose_nb(sid, params, obs, hand, pile, options, rng)
    elif G[FN0 + p] != 0:
        k = call_decision(G[FN0 + p], G, p, n_opts)
    else:
        k = -1  # a strategy id without a function: reported as an illegal choice
    if k < 0 or k >= n_opts:
        hand_n = G[OBS0 + O_HAND_N]
        if st[S_ERROR] == 0:
            st[S_ERROR] = 1
            st[S_ERR_SEAT] = p
            st[S_ERR_PHASE] = phase
            st[S_ERR_CHOICE] = k
            st[S_ERR_HAND] = st[S_HAND]
            # what the strategy saw, for the error message: options, top, suit, hand
            tmp = g[12]
            tmp[192] = min(n_opts, 20)
            for i in range(min(n_opts, 20)):
                tmp[193 + i] = opts[i]
            tmp[213] = st[S_TOP]
            tmp[214] = st[S_SUIT]
            tmp[215] = min(hand_n, 40)
            for i in range(min(hand_n, 40)):
                tmp[216 + i] = hands[p * 52 + i]
        end_hand(G, REASON_CAP, -1)
        k = 0
    st[S_PICK] = k
    return opts[k]


@leaf
def decide_fast(G, p, phase, n_opts, played):
    """`decide`, with the built-in random strategy (id 0) called inline: the same function
    on the same stream, one kernel call less per decision, and no table view to fill
    (random reads only the phase)."""
    g = unpack(G)
    st = g[1]
    if g[10][p] != 0 or st[S_FORCE] >= 0:
        return decide(G, p, phase, n_opts, played)
    obs = g[8]
    obs[O_PHASE] = phase
    params = g[11][p * N_PARAMS:p * N_PARAMS + N_PARAMS].view(np.float64)
    own = stream(1 + p)
    unread = G[0:0]  # random reads neither the hand nor the pile
    k = random_nb(params, obs, unread, unread, g[9][:n_opts], G[own:own + 4])
    st[S_PICK] = k
    return g[9][k]


@kernel
def call_suit(G, p, card, cur_suit, phase):
    """The suit seat p calls for the wild `card` played on `cur_suit`."""
    g = unpack(G)
    R, opts = g[0], g[9]
    if R[EFFECT + card] == E_WILD:
        for s in range(4):
            opts[s] = s
        n_opts = 4
    else:
        own = R[K_NINE_COVERED] == 0 or phase == PH_BLIND_CALL or cur_suit < 0
        c = colour(card % 4) if own else colour(cur_suit)
        n_opts = 0
        for s in range(4):
            if colour(s) == c:
                opts[n_opts] = s
                n_opts += 1
    return decide_fast(G, p, phase, n_opts, card)


@leaf
def remove_card(G, p, card):
    """Take `card` out of seat p's hand (the last card fills its place)."""
    g = unpack(G)
    st, sv, hands = g[1], g[2], g[3]
    n = sv[p * NSV + SV_HAND_N]
    at = G[OPA0 + st[S_PICK]]  # where the option just chosen sits, if it is this card
    if at < 0 or at >= n or hands[p * 52 + at] != card:
        at = -1
        for i in range(n):
            if hands[p * 52 + i] == card:
                at = i
                break
        if at < 0:
            return
    hands[p * 52 + at] = hands[p * 52 + n - 1]
    sv[p * NSV + SV_HAND_N] = n - 1


@leaf
def put_on_pile(G, p, card, call, announce):
    """Seat p's played card goes on the pile and becomes the top; the play is logged."""
    g = unpack(G)
    st, sv, pile = g[1], g[2], g[5]
    pile[st[S_PILE_N]] = card
    st[S_PILE_N] += 1
    st[S_TOP] = card
    st[S_RANK] = card // 4
    st[S_SUIT] = call if call >= 0 else card % 4
    sv[p * NSV + SV_H_PLAYS] += 1
    st[S_PASSES] = 0
    lp = log_reserve(G, EV_PLAY, 4)
    if lp >= 0:
        log = g[7]
        log[lp] = p
        log[lp + 1] = card
        log[lp + 2] = call
        log[lp + 3] = announce
    tick(G)


@leaf
def legal_options(G, p):
    """Write the cards seat p may play on the top card into opts; returns their number."""
    g = unpack(G)
    R, st, sv, hands, opts = g[0], g[1], g[2], g[3], g[9]
    k = 0
    suit = st[S_SUIT]
    rank = st[S_RANK]
    base = p * 52
    for i in range(sv[p * NSV + SV_HAND_N]):
        c = hands[base + i]
        e = R[EFFECT + c]
        # branch-free: whether a random hand's card matches is unpredictable
        opts[k] = c
        G[OPA0 + k] = i
        k += ((c & 3) == suit) | ((c >> 2) == rank) | (e == E_WILD) | (e == E_WILD9)
    return k


@leaf
def count_options(G, p):
    """Write the cards seat p may answer a count with into opts; returns their number."""
    g = unpack(G)
    R, sv, hands, opts = g[0], g[2], g[3], g[9]
    k = 0
    for i in range(sv[p * NSV + SV_HAND_N]):
        c = hands[p * 52 + i]
        if R[COUNT_ADD + c] > 0:
            opts[k] = c
            G[OPA0 + k] = i
            k += 1
    return k


@leaf
def play_chosen(G, p, card):
    """Seat p plays the chosen `card`: its call (wilds), the last-card announcement, the pile.

    Returns 1 when the player missed a last-card call that will be penalised."""
    g = unpack(G)
    R, st, sv, hands = g[0], g[1], g[2], g[3]
    cur_suit = st[S_SUIT]
    remove_card(G, p, card)
    left = sv[p * NSV + SV_HAND_N]
    call = -1
    eff = R[EFFECT + card]
    if (eff == E_WILD or eff == E_WILD9) and left > 0:
        call = call_suit(G, p, card, cur_suit, PH_CALL)
    announce = 0
    missed = 0
    if left == 1 and R[K_FAMILY] == FAMILY_CRATES:
        opts = g[9]
        opts[0] = 0
        opts[1] = 1
        announce = decide_fast(G, p, PH_ANNOUNCE, 2, card)
        exempt = R[K_SIX_EXEMPT] != 0 and hands[p * 52 + 0] // 4 == R_6
        if announce == 0 and not exempt:
            missed = 1
    put_on_pile(G, p, card, call, announce)
    return missed


@leaf
def penalise(G, p, missed):
    """Apply a missed last-card call: draw two now, or owe them (next turn / forfeit)."""
    g = unpack(G)
    if missed == 0:
        return
    if g[0][K_PENALTY] == PEN_IMMEDIATE:
        draw_n(G, p, 2, W_PENALTY)
    else:
        g[2][p * NSV + SV_OWE] = 1


# ================================================================ counts
@kernel
def count_resolved(G):
    """A count was drawn: end the hand if someone emptied their hand during it."""
    g = unpack(G)
    R, st, sv = g[0], g[1], g[2]
    n = st[S_N]
    first = -1
    best = np.int64(1) << 60
    any_emptied = False
    for q in range(n):
        if sv[q * NSV + SV_OUT_ORDER] >= 0:
            any_emptied = True
            if sv[q * NSV + SV_HAND_N] == 0 and sv[q * NSV + SV_OUT_ORDER] < best:
                best = sv[q * NSV + SV_OUT_ORDER]
                first = q
            sv[q * NSV + SV_OUT_ORDER] = -1
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
    R, st = g[0], g[1]
    k = st[S_COUNT]
    why = R[K_COUNT_WHY]
    for _ in range(k):
        if not draw_one(G, p, why):
            break
    st[S_COUNT] = 0
    if st[S_ENDED] == 0:
        count_resolved(G)


@kernel
def count_turn(G, p):
    """Seat p faces an active count: answer it with a 2 or A (Crates) / a 2 (VCE), or draw."""
    g = unpack(G)
    R, st, sv, opts = g[0], g[1], g[2], g[9]
    k = count_options(G, p)
    if k > 0 and R[K_COUNT_FORCED] == 0:
        opts[k] = ACTION_DRAW
        k += 1
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
        if sv[p * NSV + SV_HAND_N] == 0:
            end_hand(G, REASON_OUT, p)
            return
    else:
        penalise(G, p, missed)
        if st[S_ENDED] != 0:
            return
        if sv[p * NSV + SV_HAND_N] == 0:
            if R[K_OUT] == OUT_IMMEDIATE:
                end_hand(G, REASON_OUT, p)
                return
            st[S_OUT_SEQ] += 1
            sv[p * NSV + SV_OUT_ORDER] = st[S_OUT_SEQ]
    advance(G, p, 1)


# ================================================================ Crates
@leaf
def crates_effect(G, p, card):
    """Apply the effect of `card` played by p (or the dealer's upcard under as_played).

    Returns 1 when p must play again (a 6 with cards left), else 0 with the turn passed on
    or the hand ended."""
    g = unpack(G)
    R, st, sv = g[0], g[1], g[2]
    n = st[S_N]
    eff = R[EFFECT + card]
    skip = 1
    if eff == E_COUNT:
        st[S_COUNT] = R[COUNT_ADD + card]
    elif eff == E_SKIP:
        skip = 2
    elif eff == E_FIVE:
        for i in range(1, n):
            draw_one(G, seat_after(G, p, i), W_FIVE)
    elif eff == E_SIX:
        if sv[p * NSV + SV_HAND_N] == 0:
            draw_one(G, p, W_COOPER)
            if st[S_ENDED] == 0:
                advance(G, p, 1)
            return 0
        return 1
    elif eff == E_SEVEN:
        k = 2 if R[K_SEVEN_ACROSS] != 0 and n >= 4 else 1
        draw_one(G, seat_after(G, p, k), W_SEVEN)
    elif eff == E_REVERSE:
        if n > 2:
            st[S_DIR] = -st[S_DIR]
    elif eff == E_JACK:
        if n == 2:
            draw_one(G, seat_after(G, p, 1), W_JACK)
        elif n == 3:
            draw_one(G, seat_after(G, p, -1), W_JACK)
    if st[S_ENDED] != 0:
        return 0
    if sv[p * NSV + SV_HAND_N] == 0:
        if st[S_COUNT] > 0:
            st[S_OUT_SEQ] += 1
            sv[p * NSV + SV_OUT_ORDER] = st[S_OUT_SEQ]
        else:
            end_hand(G, REASON_OUT, p)
            return 0
    advance(G, p, skip)
    return 0


@inline_once
def crates_play_step(G, p, again):
    """One play step of seat p (again=1: the step after p's own 6). Returns 1 to play again."""
    g = unpack(G)
    R, st, sv, opts = g[0], g[1], g[2], g[9]
    k = legal_options(G, p)
    if k == 0:
        note_void(G, p)
        draw_fast(G, p, W_SIX_FAIL if again else W_CANT_PLAY)
        if st[S_ENDED] == 0:
            advance(G, p, 1)
        return 0
    if R[K_DRAW_WHEN_ABLE] != 0:
        opts[k] = ACTION_DRAW
        k += 1
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
    if sv[p * NSV + SV_HAND_N] == 0 and R[K_OUT] == OUT_IMMEDIATE and eff != E_SIX:
        end_hand(G, REASON_OUT, p)
        return 0
    return crates_effect(G, p, card)


@inline_once
def crates_turn(G, p):
    """Seat p's whole turn under the Crates rules."""
    g = unpack(G)
    R, st, sv = g[0], g[1], g[2]
    if st[S_AGAIN] == 0:
        if sv[p * NSV + SV_OWE] != 0:
            sv[p * NSV + SV_OWE] = 0
            draw_n(G, p, 2, W_PENALTY)
            if st[S_ENDED] != 0:
                return
            if R[K_PENALTY] == PEN_FORFEIT:
                if st[S_COUNT] > 0:
                    draw_count(G, p)
                    if st[S_ENDED] != 0:
                        return
                advance(G, p, 1)
                return
        if st[S_COUNT] > 0:
            count_turn(G, p)
            return
    again = st[S_AGAIN]
    while True:
        st[S_AGAIN] = 0
        if crates_play_step(G, p, again) == 0:
            return
        if st[S_ENDED] != 0:
            return
        again = 1
        st[S_AGAIN] = 1


@kernel
def crates_upcard(G, up):
    """Apply the upcard rule; sets whose turn it is first."""
    g = unpack(G)
    R, st = g[0], g[1]
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
def log_call(G, seat, suit):
    g = unpack(G)
    lp = log_reserve(G, EV_CALL, 2)
    if lp >= 0:
        g[7][lp] = seat
        g[7][lp + 1] = suit


@kernel
def settle_penalties(G):
    """forfeit: penalties still owed when a hand ends are drawn before scoring."""
    g = unpack(G)
    _R, st, sv = g[0], g[1], g[2]
    n = st[S_N]
    reason = st[S_REASON]
    out = st[S_OUT]
    start = st[S_LAST]
    st[S_ENDED] = 0
    for i in range(1, n + 1):
        q = seat_after(G, start, i)
        if sv[q * NSV + SV_OWE] != 0:
            sv[q * NSV + SV_OWE] = 0
            draw_n(G, q, 2, W_PENALTY)
            if st[S_ENDED] != 0:
                break
    st[S_ENDED] = 1
    st[S_REASON] = reason
    st[S_OUT] = out


@kernel
def score_crates_hand(R, hand, n, vals):
    """(points, threes, covered, home_run) of a Crates hand of n cards (RULES.md §2.8).

    vals: scratch of at least n int64."""
    threes = 0
    others = 0
    for i in range(n):
        if hand[i] // 4 == 2:
            threes += 1
    if n == 0:
        return 0, 0, 0, 0
    if threes == n:
        return -50 * threes, threes, 0, 1
    # values of coverable cards (not 3, not 8), highest first, by selection
    total = 0
    for i in range(n):
        c = hand[i]
        r = c // 4
        if r == 2:
            continue
        v = R[VALUE + c]
        total += v
        if R[EFFECT + c] != E_WILD:
            vals[others] = v
            others += 1
    covered = min(threes, others)
    for j in range(covered):
        best = j
        for i in range(j + 1, others):
            if vals[i] > vals[best]:
                best = i
        tmp = vals[j]
        vals[j] = vals[best]
        vals[best] = tmp
        total -= vals[j]
    total += 3 * covered + R[K_SPARE3] * (threes - covered)
    return total, threes, covered, 0


# ================================================================ Crazy Eights
@kernel
def pass_turn(G, p):
    g = unpack(G)
    st = g[1]
    lp = log_reserve(G, EV_PASS, 1)
    if lp >= 0:
        g[7][lp] = p
    st[S_PASSES] += 1
    tick(G)
    if st[S_ENDED] != 0:
        return
    if st[S_PASSES] >= st[S_N]:
        end_hand(G, REASON_BLOCK, -1)
        return
    advance(G, p, 1)


@kernel
def eights_play(G, p, card):
    g = unpack(G)
    R, st, sv = g[0], g[1], g[2]
    eff = R[EFFECT + card]
    play_chosen(G, p, card)
    if st[S_ENDED] != 0:
        return
    if sv[p * NSV + SV_HAND_N] == 0:
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
    """Seat p's whole turn under the Crazy Eights rules (draw_rule one/must_play/unlimited)."""
    g = unpack(G)
    R, st, _sv, opts = g[0], g[1], g[2], g[9]
    if st[S_COUNT] > 0:
        count_turn(G, p)
        return
    rule = R[K_DRAW_RULE]
    voluntary = rule == DRAW_UNLIMITED or (rule == DRAW_ONE and R[K_DRAW_WHEN_ABLE] != 0)
    while st[S_ENDED] == 0:
        k = legal_options(G, p)
        empty = st[S_STOCK_N] == 0
        if k == 0:
            if empty:
                pass_turn(G, p)
                return
            note_void(G, p)
            draw_fast(G, p, W_CANT_PLAY)
            st[S_PASSES] = 0
            if rule == DRAW_ONE:
                if st[S_ENDED] == 0:
                    advance(G, p, 1)
                return
            continue
        if voluntary:
            opts[k] = ACTION_PASS if empty else ACTION_DRAW
            k += 1
        choice = decide_fast(G, p, PH_PLAY, k, -1)
        if st[S_ENDED] != 0:
            return
        if choice == ACTION_PASS:
            pass_turn(G, p)
            return
        if choice == ACTION_DRAW:
            draw_one(G, p, W_VOLUNTARY)
            st[S_PASSES] = 0
            if rule == DRAW_ONE:
                if st[S_ENDED] == 0:
                    advance(G, p, 1)
                return
            continue
        eights_play(G, p, choice)
        return


# ================================================================ hands and games
@kernel
def deal_hand(G, seed, game, hand_no):
    """Start hand `hand_no`: shuffle (stream from seed, game, hand), deal, turn the upcard."""
    g = unpack(G)
    R, rng = g[0], g[6]
    deck = g[12][0:52]
    d = 0
    for c in range(52):
        if R[IN_DECK + c] != 0:
            deck[d] = c
            d += 1
    row = stream(g[1][S_N] + 1)
    seed_stream(rng, row, seed, game, 1000 + hand_no)
    shuffle_cards(deck, d, rng, row)
    lay_out(G, deck, d, hand_no)


@kernel
def lay_out(G, deck, d, hand_no):
    """Deal deck[:d] (first card first) for hand `hand_no`: hands, upcard, stock, upcard rule.

    Cards go one at a time to each seat from the dealer's left; the next card is the
    upcard, the rest the stock (deck[i] after the upcard is the stock's top)."""
    g = unpack(G)
    R, st, sv, hands, stock, pile = g[0], g[1], g[2], g[3], g[4], g[5]
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
    st[S_ENDED] = 0
    st[S_REASON] = -1
    st[S_OUT] = -1
    st[S_PASSES] = 0
    st[S_AGAIN] = 0
    st[S_OUT_SEQ] = 0
    for q in range(n):
        sv[q * NSV + SV_HAND_N] = 0
        sv[q * NSV + SV_OWE] = 0
        sv[q * NSV + SV_OUT_ORDER] = -1
        sv[q * NSV + SV_H_DRAWS] = 0
        sv[q * NSV + SV_H_PLAYS] = 0
        sv[q * NSV + SV_H_PRESSURES] = 0
        sv[q * NSV + SV_H_PPOINTS] = 0
        sv[q * NSV + SV_VOIDS] = 0
        sv[q * NSV + SV_VOID_FREE] = 0
    i = 0
    for j in range(size):
        q = dealer
        for _ in range(n):
            q = q + 1 if q + 1 < n else 0  # the dealer's left first (no division per card)
            hands[q * 52 + j] = deck[i]
            i += 1
    for q in range(n):
        sv[q * NSV + SV_HAND_N] = size
    up = deck[i]
    i += 1
    pile[0] = up
    st[S_PILE_N] = 1
    st[S_TOP] = up
    st[S_SUIT] = up % 4
    st[S_RANK] = up // 4
    m = d - i
    for j in range(m):
        stock[j] = deck[d - 1 - j]
    st[S_STOCK_N] = m
    lp = log_reserve(G, EV_DEAL, 6 + n * size + m)
    if lp >= 0:
        log = g[7]
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
def play_on(G):
    """Play the current hand on from the start of the current turn until it ends (first
    dealing hand st[S_DEAL] of game st[S_GAME] when it is set); returns the hand's turns.
    Called by address (`hand_played`), so that it is compiled once: dealing is here too
    because the upcard may need a decision, which would bring the strategies along."""
    g = unpack(G)
    R, st = g[0], g[1]
    if st[S_DEAL] > 0:
        hand_no = st[S_DEAL]
        st[S_DEAL] = 0
        deal_hand(G, np.uint64(st[S_SEED]), st[S_GAME], hand_no)
    crates = R[K_FAMILY] == FAMILY_CRATES
    while st[S_ENDED] == 0:
        p = st[S_TURN]
        st[S_LAST] = p
        if crates:
            crates_turn(G, p)
        else:
            eights_turn(G, p)
    return st[S_TURNS]


@leaf
def hand_played(G):
    """`play_on(G)`, called through the engine table: the caller's compile does not
    include the turn kernels (they are compiled once, in `play_on`'s own library)."""
    return call_on_state(G[ENG0 + ENGINE_PLAY_ON], G)


@kernel
def finish_hand(G, game_row, hand_rows, row0, want_rows, stats):
    """Score the ended hand, update totals, write its rows; returns rows written."""
    g = unpack(G)
    R, st, sv, hands = g[0], g[1], g[2], g[3]
    n = st[S_N]
    crates = R[K_FAMILY] == FAMILY_CRATES
    reason = st[S_REASON]
    if crates and R[K_PENALTY] == PEN_FORFEIT and (reason == REASON_OUT or reason == REASON_COUNT_BACK):
        settle_penalties(G)
    tmp = g[12]
    points = tmp[64:72]
    threes = tmp[72:80]
    covered = tmp[80:88]
    home = tmp[88:96]
    tmp[64:96] = 0
    if crates:
        for q in range(n):
            pts, t, cv, hr = score_crates_hand(R, hands[q * 52:q * 52 + 52], sv[q * NSV + SV_HAND_N], tmp[128:192])
            points[q] = pts
            threes[q] = t
            covered[q] = cv
            home[q] = hr
            add_to_unit(G, q, SV_TOTAL, pts)
    else:
        for q in range(n):
            for i in range(sv[q * NSV + SV_HAND_N]):
                if hands[q * 52 + i] // 4 == 2:
                    threes[q] += 1
        out = st[S_OUT]
        if reason == REASON_OUT and out >= 0:
            s = 0
            for q in range(n):
                if q != out:
                    for i in range(sv[q * NSV + SV_HAND_N]):
                        s += R[VALUE + hands[q * 52 + i]]
            points[out] = (2 * s + (n - 1)) // (2 * (n - 1))
            sv[out * NSV + SV_TOTAL] += points[out]
    if reason == REASON_CAP:
        stats[1] += 1
    elif reason == REASON_DEAD:
        stats[2] += 1
    stats[0] += st[S_TURNS]
    for q in range(n):
        is_out = reason == REASON_OUT and (sv[q * NSV + SV_HAND_N] == 0 or q == st[S_OUT])
        sv[q * NSV + SV_HANDS_OUT] += 1 if is_out else 0
        sv[q * NSV + SV_HOME_RUNS] += home[q]
        sv[q * NSV + SV_CAPPED] += 1 if reason == REASON_CAP else 0
        sv[q * NSV + SV_HANDS] += 1
        if want_rows:
            r = row0 + q
            hand_rows[r, H_GAME] = game_row
            hand_rows[r, H_HAND] = st[S_HAND]
            hand_rows[r, H_SIZE] = st[S_SIZE]
            hand_rows[r, H_DEALER] = st[S_DEALER]
            hand_rows[r, H_POS] = (q - st[S_DEALER] + n) % n
            hand_rows[r, H_SEAT] = q
            hand_rows[r, H_POINTS] = points[q]
            hand_rows[r, H_CARDS_LEFT] = sv[q * NSV + SV_HAND_N]
            hand_rows[r, H_THREES] = threes[q]
            hand_rows[r, H_COVERED] = covered[q]
            hand_rows[r, H_HOME_RUN] = home[q]
            hand_rows[r, H_OUT] = 1 if is_out else 0
            hand_rows[r, H_PRESSURES] = sv[q * NSV + SV_H_PRESSURES]
            hand_rows[r, H_PPOINTS] = sv[q * NSV + SV_H_PPOINTS]
            hand_rows[r, H_DRAWS] = sv[q * NSV + SV_H_DRAWS]
            hand_rows[r, H_PLAYS] = sv[q * NSV + SV_H_PLAYS]
            hand_rows[r, H_TURNS] = st[S_TURNS]
            hand_rows[r, H_REASON] = reason
    lp = log_reserve(G, EV_HAND_END, 3 + 2 * n)
    if lp >= 0:
        log = g[7]
        log[lp] = st[S_HAND]
        log[lp + 1] = reason
        log[lp + 2] = st[S_OUT]
        for q in range(n):
            log[lp + 3 + q] = points[q]
            log[lp + 3 + n + q] = sv[q * NSV + SV_TOTAL]
    return n if want_rows else 0


@kernel
def start_game(G, seed, game):
    """Reset g for game `game` of seed `seed`: streams, dealer, totals, teams."""
    g = unpack(G)
    R, st, sv, rng = g[0], g[1], g[2], g[6]
    n = st[S_N]
    for q in range(n):
        for f in range(NSV):
            sv[q * NSV + f] = 0
        sv[q * NSV + SV_TEAM] = q % 2 if R[K_PARTNER] != 0 else q
        seed_stream(rng, stream(1 + q), seed, game, 100 + q)
    seed_stream(rng, stream(0), seed, game, 1)
    st[S_FIRST_DEALER] = rand_below(rng, stream(0), n) if R[K_FIRST_DEALER] < 0 else 0
    st[S_GAME_OVER] = 0


@kernel
def game_over(G, hand_no):
    g = unpack(G)
    R, st, sv = g[0], g[1], g[2]
    if R[K_FAMILY] == FAMILY_CRATES:
        return hand_no >= R[K_N_HANDS]
    if hand_no >= R[K_MAX_HANDS]:
        return True
    for q in range(st[S_N]):
        if sv[q * NSV + SV_TOTAL] >= R[K_TARGET]:
            return True
    return False


@kernel
def finish_game(G, games_out, win_out, row0):
    """Ranks, win shares and per-seat game rows; the game_end log record."""
    g = unpack(G)
    R, st, sv = g[0], g[1], g[2]
    n = st[S_N]
    lower_wins = R[K_FAMILY] == FAMILY_CRATES
    best = sv[0 * NSV + SV_TOTAL]
    for q in range(n):
        t = sv[q * NSV + SV_TOTAL]
        if (lower_wins and t < best) or (not lower_wins and t > best):
            best = t
    units = 0
    n_win = 0
    for q in range(n):
        if sv[q * NSV + SV_TOTAL] == best:
            n_win += 1
            if sv[q * NSV + SV_TEAM] == q:  # count each team once (by its lower seat)
                units += 1
    for q in range(n):
        t = sv[q * NSV + SV_TOTAL]
        rank = 1
        for o in range(n):
            u = sv[o * NSV + SV_TOTAL]
            if (lower_wins and u < t) or (not lower_wins and u > t):
                rank += 1
        r = row0 + q
        games_out[r, G_TOTAL] = t
        games_out[r, G_RANK] = rank
        games_out[r, G_PRESSURES] = sv[q * NSV + SV_G_PRESSURES]
        games_out[r, G_PPOINTS] = sv[q * NSV + SV_G_PPOINTS]
        games_out[r, G_HANDS_OUT] = sv[q * NSV + SV_HANDS_OUT]
        games_out[r, G_HOME_RUNS] = sv[q * NSV + SV_HOME_RUNS]
        games_out[r, G_CAPPED] = sv[q * NSV + SV_CAPPED]
        games_out[r, G_HANDS] = sv[q * NSV + SV_HANDS]
        win_out[r] = 1.0 / units if t == best else 0.0
    lp = log_reserve(G, EV_GAME_END, n + 1 + n_win)
    if lp >= 0:
        log = g[7]
        for q in range(n):
            log[lp + q] = sv[q * NSV + SV_TOTAL]
        log[lp + n] = n_win
        k = lp + n + 1
        for q in range(n):
            if sv[q * NSV + SV_TOTAL] == best:
                log[k] = q
                k += 1


@allocating
def play_games_nb(R, strat, sparams, addrs, engine, seed, game_start, n_games, want_rows,
                  games_out, win_out, hand_rows, log, log_on, stats, err):
    """Play games game_start .. game_start+n_games-1; returns how many were played.

    Stops early (returning fewer) when hand_rows might not hold another whole game, or
    when a strategy made an illegal choice (err is then filled: seat, phase, choice, hand,
    game)."""
    G = new_state(R, strat, sparams, addrs, engine, log.shape[0] if log_on else 0)
    st = unpack_counted(G)[1]
    n = R[K_PLAYERS]
    st[S_LOG_ON] = log_on
    rows = 0
    max_rows = R[K_MAX_HANDS] * n
    for i in range(n_games):
        if want_rows and rows + max_rows > hand_rows.shape[0]:
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
                err[0] = st[S_ERR_SEAT]
                err[1] = st[S_ERR_PHASE]
                err[2] = st[S_ERR_CHOICE]
                err[3] = st[S_ERR_HAND]
                err[4] = game
                tmp = unpack_counted(G)[12]
                for j in range(64):
                    err[8 + j] = tmp[192 + j]
                return export_log(G, log, stats, i)
            rows += finish_hand(G, i, hand_rows, rows, want_rows, stats)
            if game_over(G, hand_no):
                break
        finish_game(G, games_out, win_out, i * n)
        stats[3] += 1
    return export_log(G, log, stats, n_games)


@kernel
def export_log(G, log, stats, result):
    """Copy the logged events out of G into `log` (stats[4] words, stats[5] = overflowed)."""
    st = unpack(G)[1]
    if st[S_LOG_POS] > 0 or st[S_LOG_OVERFLOW] != 0:
        for i in range(st[S_LOG_POS]):
            log[i] = G[LOG0 + i]
        stats[4] = st[S_LOG_POS]
        stats[5] = st[S_LOG_OVERFLOW]
    return result


@allocating
def play_stacked_nb(R, strat, sparams, addrs, engine, deck, hand_no, first_dealer, totals, log,
                    stats):
    """Play one hand from a stacked deck (tests and examples): deck[0] is dealt first.

    totals: the game totals (and pressure counters, as SV_PRESS_K) to start from.
    Returns (st, sv, rows) after the hand was scored; the hand's events are in `log`."""
    G = new_state(R, strat, sparams, addrs, engine, log.shape[0])
    g = unpack_counted(G)
    st, sv = g[1], g[2]
    st[S_LOG_ON] = 1
    start_game(G, np.uint64(0), 0)
    st[S_FIRST_DEALER] = (first_dealer - hand_no + 1) % st[S_N]
    for q in range(st[S_N]):
        sv[q * NSV + SV_TOTAL] = totals[q, 0]
        sv[q * NSV + SV_PRESS_K] = totals[q, 1]
    lay_out(G, deck, deck.shape[0], hand_no)
    hand_played(G)
    rows = np.zeros((st[S_N], N_HAND_FIELDS), dtype=np.int32)
    finish_hand(G, 0, rows, 0, True, stats)
    export_log(G, log, stats, 0)
    return st.copy(), g[2][:st[S_N] * NSV].copy().reshape((st[S_N], NSV)), rows
