"""The game state: one flat int64 array G per game, its layout, and views of it.

Contract: numba types only. `new_state` allocates G; every other kernel takes G and reads
it through `unpack(G)`, a named tuple of views (`g.st` the scalars S_*, `g.sv` the per-seat
values SV_*, `g.hands`, `g.stock`, `g.pile`, `g.obs`, `g.opts`, `g.tmp` ...). One array per
kernel call is what makes calls cheap (measured: a tuple of five arrays cost ~30 ns per
turn in argument copies). Every slot has a name here: state scalars S_*, per-seat values
SV_*, scratch TMP_*, the records the drivers write (hand rows H_*, game rows G_*, run
statistics T_*, the illegal-choice record ERR_*).

    R        int64[RULES_LEN]      rules array (cards.py), a copy
    st       int64[NST]            scalars, S_* below
    sv       int64[7 * NSV]        per-seat values: sv[at(seat, SV_*)]
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
                                   (ENGINE_PLAY_ON: `play_on`, ENGINE_PRESSURE:
                                   `actions_nb.pressure_entry`, ENGINE_DECIDE:
                                   `decide_nb.decide`; ENGINE_APPRENTICE and
                                   ENGINE_ADEPT: the apprentice's and adept's
                                   weights), see `engine.engine_table`
    tmp      int64[256]            scratch for kernels that may not allocate (TMP_*)
    deck     int64[52]             the rules' deck in card order, G[DECK0:DECK0 + S_DECK_N]
                                   (built once: a hand's shuffle starts from a copy)
    sparams  int64[7 * N_PARAMS]   strategy parameters per seat, float64 bits

G[:S_LEN] is the state proper; after it come, when a table has them, the log, the
queued decisions of outside agents and the snapshot of the turn being played
(`new_agent_state`).
"""

from collections import namedtuple

import numpy as np

from ..cards import (
    COUNT_ADD,
    E_WILD,
    E_WILD9,
    EFFECT,
    IN_DECK,
    K_DRAW_WHEN_ABLE,
    K_FAMILY,
    K_MAX_HANDS,
    K_PLAYERS,
    O_CAN_DRAW,
    O_FAMILY,
    O_HAND_N,
    O_N_HANDS,
    O_RULES,
    OBS_LEN,
    RULES_LEN,
)
from ..core.jit import allocating, counted_leaf, leaf, twin
from ..params import N_PARAMS
from .fixedview import fixed_view

# ---------------------------------------------------------------- state layout
(S_N, S_HAND, S_SIZE, S_DEALER, S_TURN, S_DIR, S_SUIT, S_RANK, S_TOP, S_COUNT, S_STOCK_N,
 S_PILE_N, S_TURNS, S_ENDED, S_REASON, S_OUT, S_LOG_POS, S_LOG_ON, S_OUT_SEQ, S_PASSES,
 S_AGAIN, S_LAST, S_LOG_OVERFLOW, S_ERROR, S_ERR_SEAT, S_ERR_PHASE, S_ERR_CHOICE,
 S_GAME_OVER, S_ERR_HAND, S_FIRST_DEALER, S_FORCE, S_FORCE_SEAT, S_PICK, S_SEED, S_GAME,
 S_DEAL, S_CAP_DUE, S_QUE0, S_QUE_LEN, S_QUE_POS, S_PAUSE_SEAT, S_PAUSE_PHASE,
 S_PAUSE_N, S_PAUSE_PILE_N, S_SNAP0, S_WILDS, S_DECK_N, S_COUNTERS, S_MOVES, S_CHOICES,
 S_OPTIONS) = range(51)
NST = 51
# S_MOVES, S_CHOICES, S_OPTIONS: the hand's move points so far (a seat to play or to answer
# a count, a forced draw or pass included), those with more than one legal option, and
# their options summed (a forced move counts one): `note_options` below, the hand
# rows. moves/choices/options (the `decisions` measure of `crates balance`)
# S_WILDS: the wild cards of the rules (E_WILD, E_WILD9) as a card mask (cards.SUIT0_CARDS):
# a card is legal when its bit is in suit | rank | wilds (`actions_nb.legal_options`)
# S_COUNTERS: the cards that answer a count (COUNT_ADD > 0) as a card mask, like S_WILDS
# S_DECK_N: how many cards the rules' deck has, G[DECK0:DECK0 + S_DECK_N] (`deal_hand`)
# S_QUE0..S_PAUSE_N: outside agents (strategy_ids.AGENT, `crates_sim.play.step`): their queued
# decisions sit in G[S_QUE0:S_QUE0 + S_QUE_LEN] (options, by value), S_QUE_POS of them
# used; a decision with none queued pauses the hand (S_PAUSE_*: seat, phase, options).
# S_SNAP0: where `play_on` copies G[:S_LEN] at the start of every turn (0: it does not),
# so that `crates_sim.play.step` resumes a paused hand from its last turn, not from its deal
# S_CAP_DUE: a play that emptied its player's hand is resolving: it ends by the rules
# (the player may go out) before max_turns_per_hand can cut the hand (see `tick_play`)
# S_SEED, S_GAME: the game being played (the seed as int64 bits); S_DEAL: a hand number
# that `play_on` deals before it plays (0: play the position as it stands)
(SV_HAND_N, SV_TOTAL, SV_PRESS_K, SV_G_PRESSURES, SV_G_PPOINTS, SV_OWE, SV_OUT_ORDER,
 SV_H_DRAWS, SV_H_PLAYS, SV_H_PRESSURES, SV_H_PPOINTS, SV_HANDS_OUT, SV_HOME_RUNS,
 SV_CAPPED, SV_TEAM, SV_HANDS, SV_VOIDS, SV_VOID_FREE, SV_HELD, SV_HAND_PTS,
 SV_CALLED, SV_CALL_HAND) = range(22)
NSV = 22
# SV_CALLED: 1 + the suit the seat called with the wild it played last, while that is its
# last play this hand (0: none), SV_CALL_HAND its hand's size right after that call: the
# view's OS_CALLED and OS_CALL_HAND, an opponent model's evidence (`strategies/expert.py`)
# SV_HAND_PTS: the seat's (team's) hand points of the game so far, without pressures:
# exact where SV_TOTAL has reached the points ceiling (`scoring_nb.total_order`)
# SV_HELD: the cards the seat holds as a card mask (bit c: card c), kept with its hand by
# `lay_out`, `take_top` and `remove_card` (and rebuilt by `play_on` for a position it is
# given): a turn with nothing to play is known from one AND (`actions_nb.options_in`)
# N_PARAMS (from crates_sim.params, where the strategies declare theirs): a seat's row of
# strategy parameters

#: fields of a hand row (one per game x hand x seat)
(H_GAME, H_HAND, H_SIZE, H_DEALER, H_POS, H_SEAT, H_POINTS, H_CARDS_LEFT, H_THREES,
 H_COVERED, H_HOME_RUN, H_OUT, H_PRESSURES, H_PPOINTS, H_DRAWS, H_PLAYS, H_TURNS,
 H_REASON, H_MOVES, H_CHOICES, H_OPTIONS) = range(21)
N_HAND_FIELDS = 21
#: fields of a game row (one per game x seat)
(G_TOTAL, G_RANK, G_PRESSURES, G_PPOINTS, G_HANDS_OUT, G_HOME_RUNS, G_CAPPED,
 G_HANDS, G_SATURATED) = range(9)
N_GAME_FIELDS = 9
#: run statistics (stats[T_*]): plays + draws + passes, capped and dead hands, games, and
#: the log's length in words and whether it overflowed (when tracing)
(T_TURNS, T_CAPPED, T_DEAD, T_GAMES, T_LOG_WORDS, T_LOG_OVERFLOW) = range(6)
N_STATS = 8
#: the illegal-choice record (err[ERR_*]) a run returns when a strategy picks an option
#: that does not exist: who, when, and what it saw (ERR_SEEN + SEEN_*)
(ERR_SEAT, ERR_PHASE, ERR_CHOICE, ERR_HAND, ERR_GAME) = range(5)
ERR_SEEN = 8
(SEEN_N_OPTS, SEEN_OPTS) = (0, 1)  # up to 20 options
(SEEN_TOP, SEEN_SUIT, SEEN_HAND_N, SEEN_HAND) = (21, 22, 23, 24)  # up to 40 cards
N_SEEN = 64
N_ERR = ERR_SEEN + N_SEEN + 8
#: scratch slots (tmp[TMP_*]): a deck being dealt; per-seat points, threes, covered
#: threes and home runs of a hand being scored; the seen part of the illegal-choice record
TMP_DECK, TMP_POINTS, TMP_THREES, TMP_COVERED, TMP_HOME = 0, 64, 72, 80, 88
TMP_SEEN = 192
#: a paused decision of an outside agent: its hand, the pile and the options as they
#: were (the hand's code runs on a little after the pause; these do not change)
TMP_PAUSE_HAND, TMP_PAUSE_PILE, TMP_PAUSE_OPTS = 0, 64, 128

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
N_ENGINE = 5
ENGINE_PLAY_ON = 0
ENGINE_PRESSURE = 1
ENGINE_DECIDE = 2
#: not code: the address of the apprentice's weights (a float64 buffer that Python keeps,
#: `crates_sim.strategies.apprentice`), so that they reach its kernel as data
ENGINE_APPRENTICE = 3
#: not code either: the address of adept's weights (`crates_sim.strategies.adept`)
ENGINE_ADEPT = 4
TMP0 = ENG0 + N_ENGINE
DECK0 = TMP0 + 256
R0 = DECK0 + 52
RNG0 = R0 + RULES_LEN
PAR0 = RNG0 + 4 * 9
S_LEN = PAR0 + 7 * N_PARAMS
LOG0 = S_LEN  # the log, when tracing, fills the rest of G


@leaf
def at(seat, field):
    """Where a seat's per-seat value sits in `sv` (a view from `unpack`): sv[at(seat, SV_*)]."""
    return seat * NSV + field


@leaf
def small(x):
    """x, known to LLVM as a small non-negative number. Every index the state holds (a
    seat, a card, an option value: a card, ACTION_DRAW, ACTION_PASS, a suit or 0/1, a
    count of cards, an option's position) is below 64, so this is x itself. Said where
    such a value is read from G, it lets LLVM drop numba's negative-index wraparound
    from the loads and stores it indexes, and the addresses that go with them (measured:
    classic random 50 -> 44 ns per turn from the seat and the cards of `legal_options`)."""
    return x & 63


@leaf
def nowrap(i):
    """i (>= 0) as an unsigned index: numba indexes with it without the negative-index
    wraparound it adds for signed ones, in a hot loop whose index LLVM cannot prove
    non-negative (the card loop of `legal_options`: hands[nowrap(base + i)])."""
    return np.uint64(i)


@leaf
def stream(r):
    """Where random stream r's four words start in G."""
    return RNG0 + 4 * r

@leaf
def obs_rules(G):
    """Write the rules' part of the view, which no decision changes: the rules array and
    the family, whether one may draw when able, the most hands (by `new_state`, and
    again by `start_game` after it clears the rest of the view)."""
    R = fixed_view(G, R0, RULES_LEN)
    for i in range(RULES_LEN):
        G[OBS0 + O_RULES + i] = R[i]
    G[OBS0 + O_FAMILY] = R[K_FAMILY]
    G[OBS0 + O_CAN_DRAW] = R[K_DRAW_WHEN_ABLE]
    G[OBS0 + O_N_HANDS] = R[K_MAX_HANDS]


@allocating
def new_state(R, strat, sparams, addrs, engine, log_cap):
    """Allocate one game's state G for the rules R (room for `log_cap` log words).

    strat: strategy id per seat; sparams: their parameters (seats x up to N_PARAMS);
    addrs: per seat, the address of the decision adapter of a strategy that is not
    compiled into the engine (0 for the built-ins that are); engine: the engine table
    (N_ENGINE addresses, see `crates_sim.engine.api.engine_table`)."""
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
        G[R0 + i] = R[i]
    obs_rules(G)
    for c in range(52):
        if R[EFFECT + c] == E_WILD or R[EFFECT + c] == E_WILD9:
            G[S_WILDS] |= np.int64(1) << c
        if R[COUNT_ADD + c] > 0:
            G[S_COUNTERS] |= np.int64(1) << c
        if R[IN_DECK + c] != 0:
            G[DECK0 + G[S_DECK_N]] = c
            G[S_DECK_N] += 1
    params = G[PAR0:S_LEN].view(np.float64)
    for q in range(n):
        for j in range(min(sparams.shape[1], N_PARAMS)):
            params[q * N_PARAMS + j] = sparams[q, j]
    return G

@allocating
def new_agent_state(R, strat, sparams, addrs, engine, log_cap, queue_cap):
    """`new_state` with room for `queue_cap` queued decisions of outside agents, after a
    log of `log_cap` words (0: not traced), and for the snapshot of the turn being
    played (S_SNAP0) after them."""
    G = new_state(R, strat, sparams, addrs, engine, log_cap + queue_cap + S_LEN)
    G[S_QUE0] = S_LEN + log_cap
    G[S_SNAP0] = S_LEN + log_cap + queue_cap
    G[S_LOG_ON] = 1 if log_cap > 0 else 0
    return G


@allocating
def copy_state(G):
    """A deep copy of a state, without its log (copies play on silently)."""
    W = G[:S_LEN].copy()
    W[S_LOG_ON] = 0
    return W


@allocating
def copy_paused(G):
    """A copy of a stepped game (`new_agent_state`) paused at a decision, without its log:
    the state, the queued decisions and the turn's snapshot, what a search or a strategy
    asked about the decision reads (a recording table's log is some 60 times the rest,
    and a search copies the game once per stream). The copy does not log."""
    que0 = G[S_QUE0]
    if que0 == 0:
        return copy_state(G)
    W = np.empty(S_LEN + G.shape[0] - que0, dtype=G.dtype)
    W[:S_LEN] = G[:S_LEN]
    W[S_LEN:] = G[que0:]
    shift = que0 - S_LEN  # the log's words, removed
    W[S_QUE0] = S_LEN
    if W[S_SNAP0] != 0:
        W[S_SNAP0] -= shift
    W[S_LOG_ON] = 0
    return W


#: the views `unpack` returns, by name (g.st, g.sv ...); `rng` is G itself (stream(r))
Views = namedtuple("Views", ["rules", "st", "sv", "hands", "stock", "pile", "rng", "log",
                             "obs", "opts", "strat", "sparams", "tmp"])


@leaf
def unpack(G):
    """Named views of G (a `Views`), at the fixed places of the layout (`fixed_view`:
    G is never shorter than S_LEN)."""
    R = fixed_view(G, R0, RNG0 - R0)
    st = fixed_view(G, 0, NST)
    sv = fixed_view(G, SV0, HD0 - SV0)  # sv[at(seat, field)]
    hands = fixed_view(G, HD0, STK0 - HD0)  # hands[seat * 52 + i]
    stock = fixed_view(G, STK0, PIL0 - STK0)
    pile = fixed_view(G, PIL0, OBS0 - PIL0)
    obs = fixed_view(G, OBS0, OPT0 - OBS0)
    opts = fixed_view(G, OPT0, OPA0 - OPT0)
    strat = fixed_view(G, STR0, FN0 - STR0)
    tmp = fixed_view(G, TMP0, R0 - TMP0)
    sparams = fixed_view(G, PAR0, S_LEN - PAR0)
    log = fixed_view(G, LOG0, G.shape[0] - LOG0)
    return Views(R, st, sv, hands, stock, pile, G, log, obs, opts, strat, sparams, tmp)


@leaf
def note_options(G, k):
    """Count a move point with k legal options (0: a forced draw or pass, counted as one)
    in the hand's S_MOVES, S_CHOICES and S_OPTIONS (reset by `lay_out`, written to the hand
    rows). Three adds per move: games-only runs measured +0.4..1.4% CPU time per turn in
    classic and +2.5..3.3% in Crazy Eights (random) against without (docs/simulate.md)."""
    G[S_MOVES] += 1
    G[S_CHOICES] += k > 1
    G[S_OPTIONS] += max(k, 1)


#: `unpack` for allocating callers (pimc, the drivers): see `jit.counted_leaf`
unpack_counted = twin(unpack, counted_leaf, "unpack_counted")

@leaf
def decision_views(G, p, n_opts):
    """The arguments of seat p's decision function, cut from G after `fill_obs`:
    (params, obs, hand, pile, options, rng). Only what the seat may see: its own hand, the
    pile, the options, and its own random stream (another's would tell the deal)."""
    params = fixed_view(G, PAR0 + p * N_PARAMS, N_PARAMS).view(np.float64)
    obs = fixed_view(G, OBS0, OPT0 - OBS0)
    hand = fixed_view(G, HD0 + p * 52, small(obs[O_HAND_N]))
    pile = fixed_view(G, PIL0, small(G[S_PILE_N]))
    options = fixed_view(G, OPT0, n_opts)
    return params, obs, hand, pile, options, fixed_view(G, stream(1 + p), 4)


#: `decision_views` for allocating callers (pimc's explanations): see `jit.counted_leaf`
decision_views_counted = twin(decision_views, counted_leaf, "decision_views_counted")
