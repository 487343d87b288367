"""Decisions: a seat's strategy picks one of the options, and what follows a chosen card
(the suit call of a wild, the last-card announcement, the card onto the pile).

Contract: `decide(G, p, phase, n_opts, played)` fills seat p's view (only what p may see),
asks its strategy (a built-in compiled into the engine, or by address: pimc, users'
functions) and returns the chosen option; an illegal index ends the hand and records the
position (S_ERROR, TMP_ERR). `decide_fast` decides inline for the built-ins random and greedy.
"""

import numpy as np

from ..cards import (
    E_WILD,
    E_WILD9,
    EFFECT,
    FAMILY_CRATES,
    K_FAMILY,
    K_NINE_COVERED,
    K_PARTNER,
    K_SIX_EXEMPT,
    O_COUNT,
    O_DEALER,
    O_DIR,
    O_HAND,
    O_HAND_N,
    O_OUT_SEQ,
    O_PARTNER,
    O_PASSES,
    O_PER_SEAT,
    O_PHASE,
    O_PLAYED,
    O_PLAYERS,
    O_RANK,
    O_SEAT,
    O_SEATS,
    O_SIZE,
    O_STOCK_N,
    O_SUIT,
    O_TOP,
    OS_CALL_HAND,
    OS_CALLED,
    OS_HAND_N,
    OS_LAST_CARD,
    OS_OUT_ORDER,
    OS_OWE,
    OS_PRESS_K,
    OS_PRESSURES,
    OS_TOTAL,
    OS_VOID_FREE,
    OS_VOIDS,
    PH_ANNOUNCE,
    PH_BLIND_CALL,
    PH_CALL,
    R_6,
    REASON_CAP,
    REASON_PAUSE,
)
from ..core.jit import kernel, leaf
from ..strategy_ids import AGENT, GREEDY, RANDOM
from .actions_nb import colour, end_hand, put_on_pile, remove_card
from .dispatch_nb import (
    choose_greedy,
    choose_nb,
    choose_random,
    is_inline,
    reads_seats,
    reads_table,
)
from .fixedview import fixed_view
from .indirect import call_decide, call_decision
from .state_nb import (
    ENG0,
    ENGINE_DECIDE,
    FN0,
    N_PARAMS,
    OBS0,
    OPT0,
    PAR0,
    S_COUNT,
    S_DEALER,
    S_DIR,
    S_ENDED,
    S_ERR_CHOICE,
    S_ERR_HAND,
    S_ERR_PHASE,
    S_ERR_SEAT,
    S_ERROR,
    S_FORCE,
    S_FORCE_SEAT,
    S_HAND,
    S_N,
    S_OUT_SEQ,
    S_PASSES,
    S_PAUSE_N,
    S_PAUSE_PHASE,
    S_PAUSE_PILE_N,
    S_PAUSE_SEAT,
    S_PICK,
    S_PILE_N,
    S_QUE0,
    S_QUE_LEN,
    S_QUE_POS,
    S_RANK,
    S_SIZE,
    S_STOCK_N,
    S_SUIT,
    S_TOP,
    SEEN_HAND,
    SEEN_HAND_N,
    SEEN_N_OPTS,
    SEEN_OPTS,
    SEEN_SUIT,
    SEEN_TOP,
    SV_CALL_HAND,
    SV_CALLED,
    SV_G_PRESSURES,
    SV_HAND_N,
    SV_OUT_ORDER,
    SV_OWE,
    SV_PRESS_K,
    SV_TOTAL,
    SV_VOID_FREE,
    SV_VOIDS,
    TMP_PAUSE_HAND,
    TMP_PAUSE_OPTS,
    TMP_PAUSE_PILE,
    TMP_SEEN,
    at,
    decision_views,
    small,
    stream,
    unpack,
)


@leaf
def seen_hand_n(G, p, phase):
    """How many of its cards seat p sees as it decides `phase`: none for the dealer's
    blind call (the upcard's suit is named before the cards are seen), else all."""
    return 0 if phase == PH_BLIND_CALL else unpack(G).sv[at(p, SV_HAND_N)]


@leaf
def fill_obs(G, p, phase, played, table, seats):
    """Write seat p's view of the table into obs (nothing hidden from p is written): the
    decision (phase, played card, hand size) always; the table's scalars when `table` is
    true, the per-seat block (hand sizes, totals, pressures ...) when `seats` is: a
    strategy that reads none of a part (`dispatch_nb.reads_table`, `reads_seats`) is
    spared its writes."""
    g = unpack(G)
    R, st, sv, obs = g.rules, g.st, g.sv, g.obs
    n = st[S_N]
    obs[O_PHASE] = phase
    obs[O_PLAYED] = played
    obs[O_HAND_N] = seen_hand_n(G, p, phase)
    if table:  # (the rules' scalars, O_FAMILY, O_CAN_DRAW, O_N_HANDS: `state_nb.obs_rules`)
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
        obs[O_PASSES] = st[S_PASSES]
        obs[O_OUT_SEQ] = st[S_OUT_SEQ]
    if not seats:
        return
    for q in range(n):
        base = O_SEATS + q * O_PER_SEAT
        obs[base + OS_HAND_N] = sv[at(q, SV_HAND_N)]
        obs[base + OS_TOTAL] = sv[at(q, SV_TOTAL)]
        obs[base + OS_PRESSURES] = sv[at(q, SV_G_PRESSURES)]
        obs[base + OS_LAST_CARD] = 1 if sv[at(q, SV_HAND_N)] == 1 else 0
        obs[base + OS_OWE] = sv[at(q, SV_OWE)]
        obs[base + OS_PRESS_K] = sv[at(q, SV_PRESS_K)]
        obs[base + OS_OUT_ORDER] = sv[at(q, SV_OUT_ORDER)]
        obs[base + OS_VOIDS] = sv[at(q, SV_VOIDS)]
        obs[base + OS_VOID_FREE] = sv[at(q, SV_VOID_FREE)]
        obs[base + OS_CALLED] = sv[at(q, SV_CALLED)]
        obs[base + OS_CALL_HAND] = sv[at(q, SV_CALL_HAND)]

@leaf
def agent_choice(G, p, phase, n_opts):
    """An outside agent's decision: the next queued one (the index of its option), or,
    with none queued, a pause: the hand ends (REASON_PAUSE) with the decision recorded
    for `crates_sim.play.step`, which replays the hand with the agent's answer queued."""
    st = unpack(G).st
    if st[S_QUE_POS] < st[S_QUE_LEN]:
        want = G[st[S_QUE0] + st[S_QUE_POS]]
        st[S_QUE_POS] += 1
        for i in range(n_opts):
            if G[OPT0 + i] == want:
                return i
        return n_opts  # not among the options: an illegal choice
    g = unpack(G)
    tmp = g.tmp
    st[S_PAUSE_SEAT] = p
    st[S_PAUSE_PHASE] = phase
    st[S_PAUSE_N] = n_opts
    st[S_PAUSE_PILE_N] = st[S_PILE_N]
    for i in range(g.obs[O_HAND_N]):
        tmp[TMP_PAUSE_HAND + i] = g.hands[p * 52 + i]
    for i in range(st[S_PILE_N]):
        tmp[TMP_PAUSE_PILE + i] = g.pile[i]
    for i in range(n_opts):
        tmp[TMP_PAUSE_OPTS + i] = g.opts[i]
    end_hand(G, REASON_PAUSE, -1)
    return -1


@kernel
def restore_pause(G):
    """Put the paused decision's hand, pile and options back where the decision saw them
    (the hand's code ran on a little after the pause); returns (seat, number of options)."""
    g = unpack(G)
    st, tmp = g.st, g.tmp
    p = st[S_PAUSE_SEAT]
    n_opts = st[S_PAUSE_N]
    for i in range(g.obs[O_HAND_N]):
        g.hands[p * 52 + i] = tmp[TMP_PAUSE_HAND + i]
    st[S_PILE_N] = st[S_PAUSE_PILE_N]
    for i in range(st[S_PILE_N]):
        g.pile[i] = tmp[TMP_PAUSE_PILE + i]
    for i in range(n_opts):
        g.opts[i] = tmp[TMP_PAUSE_OPTS + i]
    return p, n_opts


@kernel
def ask_strategy(G, sid, params, addr):
    """For the paused decision of G (a copy: this rewrites it): the option index that
    strategy `sid` with `params` would choose (a built-in, or by `addr`), on the seat's
    own random stream. Hints (`crates_sim.play.step.Table.hint`) use it."""
    p, n_opts = restore_pause(G)
    g = unpack(G)
    row = g.sparams[p * N_PARAMS:p * N_PARAMS + N_PARAMS].view(np.float64)
    for j in range(N_PARAMS):
        row[j] = params[j]
    if is_inline(sid):
        params_v, obs, hand, pile, options, rng = decision_views(G, p, n_opts)
        return choose_nb(sid, params_v, obs, hand, pile, options, rng)
    return call_decision(addr, G, p, n_opts)


@kernel
def decide(G, p, phase, n_opts, played):
    """Ask seat p's strategy to pick one of opts[:n_opts]; returns the chosen option."""
    g = unpack(G)
    st, hands, opts = g.st, g.hands, g.opts
    if st[S_ENDED] != 0:  # no decisions once the hand has ended (a pause, an error)
        st[S_PICK] = 0
        return opts[0]
    if st[S_FORCE] >= 0 and st[S_FORCE_SEAT] == p:
        # a search strategy's rollout: the first decision of seat p is given
        for i in range(n_opts):
            if opts[i] == st[S_FORCE]:
                st[S_FORCE] = -1
                st[S_PICK] = i
                return opts[i]
        st[S_FORCE] = -1
    sid = g.strat[p]
    fill_obs(G, p, phase, played, reads_table(sid), reads_seats(sid))
    if sid == AGENT:
        k = agent_choice(G, p, phase, n_opts)
        if k < 0:  # paused: nothing more happens in this hand
            st[S_PICK] = 0
            return opts[0]
    elif is_inline(sid):
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
            tmp = g.tmp
            tmp[TMP_SEEN + SEEN_N_OPTS] = min(n_opts, 20)
            for i in range(min(n_opts, 20)):
                tmp[TMP_SEEN + SEEN_OPTS + i] = opts[i]
            tmp[TMP_SEEN + SEEN_TOP] = st[S_TOP]
            tmp[TMP_SEEN + SEEN_SUIT] = st[S_SUIT]
            tmp[TMP_SEEN + SEEN_HAND_N] = min(hand_n, 40)
            for i in range(min(hand_n, 40)):
                tmp[TMP_SEEN + SEEN_HAND + i] = hands[p * 52 + i]
        end_hand(G, REASON_CAP, -1)
        k = 0
    st[S_PICK] = k
    return small(opts[k])

@kernel
def no_decide(G, p, phase, n_opts, played):
    """What the engine table holds instead of `decide` for a run whose seats are all random
    or greedy (decided inline: `decide_fast`), which never asks `decide`: then `decide`,
    with every other built-in under it, need not be compiled (`engine.engine_table`). Never
    reached; if it were, the hand ends with the decision reported as an illegal choice."""
    st = unpack(G).st
    if st[S_ERROR] == 0:
        st[S_ERROR] = 1
        st[S_ERR_SEAT] = p
        st[S_ERR_PHASE] = phase
        st[S_ERR_CHOICE] = -1
        st[S_ERR_HAND] = st[S_HAND]
    end_hand(G, REASON_CAP, -1)
    st[S_PICK] = 0
    return small(unpack(G).opts[0])

@leaf
def random_choice(G, p, phase, n_opts):
    """The option index the built-in random strategy (id 0) of seat p picks among
    opts[:n_opts]: the same function on the same stream as `decide`, with no table view
    to fill (random reads only the phase)."""
    g = unpack(G)
    g.obs[O_PHASE] = phase
    params = fixed_view(G, PAR0 + p * N_PARAMS, N_PARAMS).view(np.float64)
    unread = fixed_view(G, 0, 0)  # random reads neither the hand nor the pile
    k = choose_random(params, g.obs, unread, unread, fixed_view(G, OPT0, n_opts),
                      fixed_view(G, stream(1 + p), 4))
    g.st[S_PICK] = k
    return k


@leaf
def greedy_choice(G, p, phase, n_opts):
    """The option index the built-in greedy strategy of seat p picks among opts[:n_opts]:
    `decide` without the steps a built-in that is always legal and never paused does not
    need. greedy is the baseline of most studies (and pimc's opponents): through
    `decide`, its turns cost 8-10% more (measured). The other built-ins still go through
    `decide`: deciding them here too put their code at every call site, and random's
    Crazy Eights turns got 4% slower. Of the view, only the two fields greedy reads are
    written, the phase and the hand's size (`greedy_nb` reads the rules part of obs too,
    written once by `new_state`; a test holds greedy to that): the whole view cost
    greedy's Crazy Eights turns 3-4% (measured)."""
    g = unpack(G)
    g.obs[O_PHASE] = phase
    g.obs[O_HAND_N] = seen_hand_n(G, p, phase)
    params, obs, hand, pile, options, rng = decision_views(G, p, n_opts)
    k = choose_greedy(params, obs, hand, pile, options, rng)
    g.st[S_PICK] = k
    return k


@leaf
def decided(G, p, phase, n_opts, played):
    """`decide(G, p, phase, n_opts, played)` through the engine table (slot ENGINE_DECIDE):
    compiled once, on its own, instead of again inside every kernel that decides (it
    carries every built-in strategy: inlined at each place that decides, it was most of
    a cold compile's work). Random and greedy seats, most turns, never come here
    (`decide_fast`)."""
    return call_decide(G[ENG0 + ENGINE_DECIDE], G, p, phase, n_opts, played)


@leaf
def decide_fast(G, p, phase, n_opts, played):
    """`decide`, with the built-in random and greedy strategies called inline
    (`random_choice`, `greedy_choice`): one kernel call less per decision."""
    g = unpack(G)
    sid = g.strat[p]
    if g.st[S_FORCE] < 0:
        if sid == RANDOM:
            return small(g.opts[random_choice(G, p, phase, n_opts)])
        if sid == GREEDY:
            return small(g.opts[greedy_choice(G, p, phase, n_opts)])
    # (an option is below 64: `small` tells LLVM so, and the tables it indexes lose
    # their negative-index wraparound)
    return small(decided(G, p, phase, n_opts, played))

@leaf
def suit_options(G, card, cur_suit, phase):
    """Write the suits one may call for the wild `card` played on `cur_suit` into opts
    (all four for E_WILD; for E_WILD9 the two of a colour: the card's own, or under
    nine_covered the covered suit's); returns their number."""
    g = unpack(G)
    R, opts = g.rules, g.opts
    if R[EFFECT + card] == E_WILD:
        for s in range(4):
            opts[s] = s
        return 4
    own = R[K_NINE_COVERED] == 0 or phase == PH_BLIND_CALL or cur_suit < 0
    c = colour(card % 4) if own else colour(cur_suit)
    n_opts = 0
    for s in range(4):
        if colour(s) == c:
            opts[n_opts] = s
            n_opts += 1
    return n_opts

@kernel
def call_suit(G, p, card, cur_suit, phase):
    """The suit seat p calls for the wild `card` played on `cur_suit`."""
    return decide_fast(G, p, phase, suit_options(G, card, cur_suit, phase), card)

@leaf
def call_fast(G, p, card, cur_suit, phase):
    """`call_suit`, with a random or greedy seat's call made here (`random_choice`,
    `greedy_choice`): the kernel call cost more than the call itself. (The test is
    `decide_fast`'s, written out: a predicate shared by both measured 3% slower on Crazy
    Eights turns, in 3 interleaved runs.)"""
    g = unpack(G)
    sid = g.strat[p]
    if g.st[S_FORCE] < 0:
        if sid == RANDOM:
            return small(g.opts[random_choice(G, p, phase, suit_options(G, card, cur_suit, phase))])
        if sid == GREEDY:
            n_opts = suit_options(G, card, cur_suit, phase)
            return small(g.opts[greedy_choice(G, p, phase, n_opts)])
    return call_suit(G, p, card, cur_suit, phase)

@leaf
def play_chosen(G, p, card):
    """Seat p plays the chosen `card`: its call (wilds), the last-card announcement, the pile.

    Returns 1 when the player missed a last-card call that will be penalised."""
    g = unpack(G)
    R, st, sv, hands = g.rules, g.st, g.sv, g.hands
    cur_suit = st[S_SUIT]
    remove_card(G, p, card)
    sv[at(p, SV_CALLED)] = 0  # its earlier call is history (the call below is decided without it)
    left = sv[at(p, SV_HAND_N)]
    call = -1
    eff = R[EFFECT + card]
    if (eff == E_WILD or eff == E_WILD9) and left > 0:
        call = call_fast(G, p, card, cur_suit, PH_CALL)
    announce = 0
    missed = 0
    if left == 1 and R[K_FAMILY] == FAMILY_CRATES:
        opts = g.opts
        opts[0] = 0
        opts[1] = 1
        announce = decide_fast(G, p, PH_ANNOUNCE, 2, card)
        exempt = R[K_SIX_EXEMPT] != 0 and hands[p * 52 + 0] // 4 == R_6
        if announce == 0 and not exempt:
            missed = 1
    put_on_pile(G, p, card, call, announce)
    return missed
