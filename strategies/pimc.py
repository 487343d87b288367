"""`pimc`: a determinised Monte Carlo (perfect-information Monte Carlo) player.

For a card decision it rebuilds the position from what the seat can see (its view: own
hand, the pile since the last reshuffle, every seat's hand size, totals, pressures and
penalties, and the rules), then `samples` times: deals the unseen cards at random to the
other hands and the stock, consistent with the hand sizes, the stock size and the suits
each player is known to lack (a player who had to draw facing a suit, with no draw since,
holds none of it), and for every legal option plays the hand out from a copy of that
position with the built-in heuristic `policy` (default 6 = `weights`; 1 = `greedy`) at
every seat, the option forced as the first decision. The same
deals serve every option (common random numbers). It picks the option with the best mean
outcome for its seat or team: Crates, the opponents' hand points and pressures minus its
own (per unit); Crazy Eights, its points minus the best opponent's.

Suit calls and last-card announcements use greedy's rules (call the longest suit,
announce). pimc is not compiled into the engine: the engine calls its adapter
`pimc_entry` by address, as it calls a user's strategy, and the rollouts call the
engine's `play_on` by address through the engine table in the game state, so neither
is compiled into the other and nothing is recursive.
"""

import numpy as np

from crates_sim import engine_nb as E
from crates_sim.cards import (
    FAMILY_CRATES,
    IN_DECK,
    K_FAMILY,
    K_PARTNER,
    O_COUNT,
    O_DEALER,
    O_DIR,
    O_HAND,
    O_OUT_SEQ,
    O_PASSES,
    O_PER_SEAT,
    O_PHASE,
    O_PLAYERS,
    O_RANK,
    O_RULES,
    O_SEAT,
    O_SEATS,
    O_SIZE,
    O_STOCK_N,
    O_SUIT,
    O_TOP,
    OS_HAND_N,
    OS_OUT_ORDER,
    OS_OWE,
    OS_PRESS_K,
    OS_PRESSURES,
    OS_TOTAL,
    OS_VOID_FREE,
    OS_VOIDS,
    PH_AGAIN,
    PH_ANNOUNCE,
    PH_COUNT,
    PH_PLAY,
    RULES_LEN,
    VALUE,
)
from crates_sim.jit import allocating
from crates_sim.rng_nb import next_u64, shuffle_cards
from crates_sim.strategies.builtin import announces, longest_suit

GREEDY_ID = 1


@allocating
def _base_state(obs, hand, hand_n, pile, pile_n, policy, engine):
    """A state with the seat's public information and own hand; other hands empty; every
    seat played by the built-in strategy `policy` in rollouts."""
    R = obs[O_RULES:O_RULES + RULES_LEN].copy()
    n = obs[O_PLAYERS]
    strat = np.empty(n, dtype=np.int64)
    strat[:] = policy
    sparams = np.zeros((n, E.N_PARAMS), dtype=np.float64)
    G = E.new_state(R, strat, sparams, np.zeros(n, dtype=np.int64), engine, 0)
    g = E.unpack_counted(G)
    st, sv, hands, pile_s = g[1], g[2], g[3], g[5]
    me = obs[O_SEAT]
    st[E.S_HAND] = obs[O_HAND]
    st[E.S_SIZE] = obs[O_SIZE]
    st[E.S_DEALER] = obs[O_DEALER]
    st[E.S_TURN] = me
    st[E.S_DIR] = obs[O_DIR]
    st[E.S_SUIT] = obs[O_SUIT]
    st[E.S_RANK] = obs[O_RANK]
    st[E.S_TOP] = obs[O_TOP]
    st[E.S_COUNT] = obs[O_COUNT]
    st[E.S_STOCK_N] = obs[O_STOCK_N]
    st[E.S_PILE_N] = pile_n
    st[E.S_PASSES] = obs[O_PASSES]
    st[E.S_OUT_SEQ] = obs[O_OUT_SEQ]
    st[E.S_REASON] = -1
    st[E.S_OUT] = -1
    for i in range(pile_n):
        pile_s[i] = pile[i]
    for q in range(n):
        b = O_SEATS + q * O_PER_SEAT
        sv[q * E.NSV + E.SV_HAND_N] = obs[b + OS_HAND_N]
        sv[q * E.NSV + E.SV_TOTAL] = obs[b + OS_TOTAL]
        sv[q * E.NSV + E.SV_G_PRESSURES] = obs[b + OS_PRESSURES]
        sv[q * E.NSV + E.SV_OWE] = obs[b + OS_OWE]
        sv[q * E.NSV + E.SV_PRESS_K] = obs[b + OS_PRESS_K]
        sv[q * E.NSV + E.SV_OUT_ORDER] = obs[b + OS_OUT_ORDER]
        sv[q * E.NSV + E.SV_VOIDS] = obs[b + OS_VOIDS]
        sv[q * E.NSV + E.SV_VOID_FREE] = obs[b + OS_VOID_FREE]
        sv[q * E.NSV + E.SV_TEAM] = q % 2 if R[K_PARTNER] != 0 else q
    for i in range(hand_n):
        hands[me * 52 + i] = hand[i]
    return G


@allocating
def _unseen(obs, hand, hand_n, pile, pile_n):
    """Cards the seat has not seen: in the deck, not in its hand, not in the pile."""
    seen = np.zeros(52, dtype=np.int64)
    for i in range(hand_n):
        seen[hand[i]] = 1
    for i in range(pile_n):
        seen[pile[i]] = 1
    out = np.empty(52, dtype=np.int64)
    k = 0
    for c in range(52):
        if obs[O_RULES + IN_DECK + c] != 0 and seen[c] == 0:
            out[k] = c
            k += 1
    return out[:k]


@allocating
def _deal_hidden(G, base, unseen, voids, free, rng, row):
    """Copy `base` into G and deal the unseen cards at random to the other hands and the
    stock. A seat that could not play on a suit held none of it then: a deal giving it
    more cards of its void suits (8s count too) than it has drawn since is redrawn
    (up to 20 tries, then the last deal is kept)."""
    G[:] = base
    g = E.unpack_counted(G)
    st, sv, hands, stock = g[1], g[2], g[3], g[4]
    n = st[E.S_N]
    cards = unseen.copy()
    k = cards.shape[0]
    pos = 0
    for _attempt in range(20):
        shuffle_cards(cards, k, rng, row)
        ok = True
        pos = 0
        for q in range(n):
            if base[E.STR0 + q] == -2:  # the deciding seat keeps its own hand
                continue
            lacking = 0
            for i in range(sv[q * E.NSV + E.SV_HAND_N]):
                c = cards[pos]
                if voids[q] != 0 and ((voids[q] >> (c % 4)) & 1 or c // 4 == 7):
                    lacking += 1
                hands[q * 52 + i] = c
                pos += 1
            if lacking > free[q]:
                ok = False
        if ok:
            break
    m = k - pos
    for i in range(m):
        stock[i] = cards[pos + i]
    st[E.S_STOCK_N] = m


@allocating
def _outcome(G, me, base_ppoints):
    """Value of the ended hand for seat `me` (higher is better)."""
    g = E.unpack_counted(G)
    R, st, sv, hands, tmp = g[0], g[1], g[2], g[3], g[12]
    n = st[E.S_N]
    crates = R[K_FAMILY] == FAMILY_CRATES
    cost = np.zeros(n, dtype=np.float64)
    if crates:
        for q in range(n):
            pts, _, _, _ = E.score_crates_hand(R, hands[q * 52:q * 52 + 52],
                                               sv[q * E.NSV + E.SV_HAND_N], tmp[128:192])
            cost[q] = pts + sv[q * E.NSV + E.SV_G_PPOINTS] - base_ppoints[q]
        mine = 0.0
        theirs = 0.0
        n_theirs = 0
        my_team = sv[me * E.NSV + E.SV_TEAM]
        for q in range(n):
            if sv[q * E.NSV + E.SV_TEAM] == my_team:
                mine += cost[q]
            else:
                theirs += cost[q]
                n_theirs += 1
        units_theirs = n_theirs if R[K_PARTNER] == 0 else 1
        return theirs / max(units_theirs, 1) - mine
    out = st[E.S_OUT]
    if st[E.S_REASON] != E.REASON_OUT or out < 0:
        return 0.0
    s = 0
    for q in range(n):
        if q != out:
            for i in range(sv[q * E.NSV + E.SV_HAND_N]):
                s += R[VALUE + hands[q * 52 + i]]
    pts = (2 * s + (n - 1)) // (2 * (n - 1))
    return float(pts) if out == me else -float(pts)


@allocating
def pimc_search(params, obs, hand, pile, options, rng, engine):
    """Determinised Monte Carlo over `samples` (params[0]) deals of the unseen cards; the
    rollouts run the engine's `play_on` through the engine table `engine`."""
    phase = obs[O_PHASE]
    if phase == PH_ANNOUNCE:
        return announces(params[1:], rng)
    if phase != PH_PLAY and phase != PH_AGAIN and phase != PH_COUNT:
        return longest_suit(hand, options)
    hand_n = hand.shape[0]
    pile_n = pile.shape[0]
    n_options = options.shape[0]
    if n_options == 1:
        return 0
    samples = max(int(params[0]), 1)
    me = obs[O_SEAT]
    n = obs[O_PLAYERS]
    policy = int(params[2])
    if policy < 1 or policy > 6:  # rollouts use a built-in heuristic (not random, not pimc)
        policy = GREEDY_ID
    base = _base_state(obs, hand, hand_n, pile, pile_n, policy, engine)
    base[E.STR0 + me] = -2  # marks the deciding seat for _deal_hidden
    unseen = _unseen(obs, hand, hand_n, pile, pile_n)
    voids = np.zeros(n, dtype=np.int64)
    free = np.zeros(n, dtype=np.int64)
    for q in range(n):
        voids[q] = obs[O_SEATS + q * O_PER_SEAT + OS_VOIDS]
        free[q] = obs[O_SEATS + q * O_PER_SEAT + OS_VOID_FREE]
    base_ppoints = np.zeros(n, dtype=np.int64)
    bst = E.unpack_counted(base)
    for q in range(n):
        base_ppoints[q] = bst[2][q * E.NSV + E.SV_G_PPOINTS]
    work = E.copy_state(base)
    deal = E.copy_state(base)
    totals = np.zeros(n_options, dtype=np.float64)
    for s in range(samples):
        _deal_hidden(deal, base, unseen, voids, free, rng, 0)
        deal[E.STR0 + me] = policy
        seed = next_u64(rng, 0)
        for i in range(n_options):
            work[:] = deal
            wg = E.unpack_counted(work)
            wst = wg[1]
            for q in range(n + 2):
                E.seed_stream(work, E.stream(q), seed, s, 7 + q)
            wst[E.S_FORCE] = options[i]
            wst[E.S_FORCE_SEAT] = me
            wst[E.S_AGAIN] = 1 if phase == PH_AGAIN else 0
            wst[E.S_TURN] = me
            E.hand_played(work)
            totals[i] += _outcome(work, me, base_ppoints)
    best = 0
    for i in range(1, n_options):
        if totals[i] > totals[best]:
            best = i
    return best


@allocating
def pimc_entry(G, seat, n_options):
    """pimc's decision adapter: the engine calls it by address (`crates_sim.indirect`), so
    the engine is not compiled with pimc in it, and pimc's rollouts call the engine's
    `play_on` by address (the engine table of G), so pimc is not compiled with the engine
    in it either."""
    params, obs, hand, pile, options, rng = E.decision_views(G, seat, n_options)
    engine = G[E.ENG0:E.ENG0 + E.N_ENGINE]
    return np.int64(pimc_search(params, obs, hand, pile, options, rng, engine))
