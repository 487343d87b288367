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
own (per unit); Crazy Eights, the hand's payout, won or paid (`search_nb.hand_value`).

The position, the rollouts and their values come from the engine's search API
(`crates_sim.search_nb`); nothing here reads the engine's state layout.

Suit calls and last-card announcements use greedy's rules (call the longest suit,
announce). pimc is not compiled into the engine: the engine calls its adapter
`pimc_entry` by address, as it calls a user's strategy, and the rollouts call the
engine's `play_on` by address through the engine table in the game state, so neither
is compiled into the other and nothing is recursive.
"""

import numpy as np

from crates_sim import engine_nb as E
from crates_sim.cards import (
    IN_DECK,
    O_PER_SEAT,
    O_PHASE,
    O_PLAYERS,
    O_RULES,
    O_SEAT,
    O_SEATS,
    OS_VOID_FREE,
    OS_VOIDS,
    PH_AGAIN,
    PH_ANNOUNCE,
    PH_COUNT,
    PH_PLAY,
)
from crates_sim.jit import allocating
from crates_sim.rng_nb import next_u64, shuffle_cards
from crates_sim.strategies.builtin import announces, longest_suit
from crates_sim.strategy_ids import GREEDY, N_INLINE, RANDOM


@allocating
def _unseen(obs, hand, pile):
    """Cards the seat has not seen: in the deck, not in its hand, not in the pile."""
    seen = np.zeros(52, dtype=np.int64)
    for i in range(hand.shape[0]):
        seen[hand[i]] = 1
    for i in range(pile.shape[0]):
        seen[pile[i]] = 1
    out = np.empty(52, dtype=np.int64)
    k = 0
    for c in range(52):
        if obs[O_RULES + IN_DECK + c] != 0 and seen[c] == 0:
            out[k] = c
            k += 1
    return out[:k]


@allocating
def _deal_hidden(G, base, me, unseen, voids, free, rng):
    """Copy `base` into G and deal the unseen cards at random to the other hands and the
    stock. A seat that could not play on a suit held none of it then: a deal giving it
    more cards of its void suits (8s count too) than it has drawn since is redrawn
    (up to 20 tries, then the last deal is kept)."""
    G[:] = base
    n = voids.shape[0]
    cards = unseen.copy()
    k = cards.shape[0]
    pos = 0
    for _attempt in range(20):
        shuffle_cards(cards, k, rng, 0)
        ok = True
        pos = 0
        for q in range(n):
            if q == me:  # the deciding seat keeps its own hand
                continue
            lacking = 0
            for i in range(E.hand_size(G, q)):
                c = cards[pos]
                if voids[q] != 0 and ((voids[q] >> (c % 4)) & 1 or c // 4 == 7):
                    lacking += 1
                E.set_card(G, q, i, c)
                pos += 1
            if lacking > free[q]:
                ok = False
        if ok:
            break
    E.set_stock(G, cards, pos, k - pos)


@allocating
def pimc_search(params, obs, hand, pile, options, rng, engine):
    """Determinised Monte Carlo over `samples` (params[0]) deals of the unseen cards; the
    rollouts run the engine's `play_on` through the engine table `engine`."""
    phase = obs[O_PHASE]
    if phase == PH_ANNOUNCE:
        return announces(params[1:], rng)
    if phase != PH_PLAY and phase != PH_AGAIN and phase != PH_COUNT:
        return longest_suit(hand, options)
    n_options = options.shape[0]
    if n_options == 1:
        return 0
    totals = np.zeros(n_options, dtype=np.float64)
    pimc_values(params, obs, hand, pile, options, rng, engine, totals)
    best = 0
    for i in range(1, n_options):
        if totals[i] > totals[best]:
            best = i
    return best


@allocating
def pimc_values(params, obs, hand, pile, options, rng, engine, totals):
    """The sum over `samples` deals of each option's outcome for the seat (the search of
    `pimc_search`, a card decision: play, count or play again), into totals."""
    phase = obs[O_PHASE]
    n_options = options.shape[0]
    samples = max(int(params[0]), 1)
    me = obs[O_SEAT]
    n = obs[O_PLAYERS]
    policy = int(params[2])
    if policy <= RANDOM or policy >= N_INLINE:  # a heuristic compiled into the engine
        policy = GREEDY
    base = E.position_from_view(obs, hand, pile, policy, engine)
    unseen = _unseen(obs, hand, pile)
    voids = np.zeros(n, dtype=np.int64)
    free = np.zeros(n, dtype=np.int64)
    base_ppoints = np.zeros(n, dtype=np.int64)
    for q in range(n):
        voids[q] = obs[O_SEATS + q * O_PER_SEAT + OS_VOIDS]
        free[q] = obs[O_SEATS + q * O_PER_SEAT + OS_VOID_FREE]
        base_ppoints[q] = E.pressure_points(base, q)
    work = E.copy_state(base)
    deal = E.copy_state(base)
    for s in range(samples):
        _deal_hidden(deal, base, me, unseen, voids, free, rng)
        seed = next_u64(rng, 0)
        for i in range(n_options):
            work[:] = deal
            E.seed_rollout(work, seed, s)
            E.force_first_decision(work, me, options[i], phase == PH_AGAIN)
            E.play_out(work)
            totals[i] += E.hand_value(work, me, base_ppoints)
    return samples


@allocating
def pimc_explain(G, params, means):
    """For the paused decision of a stepped game G (a copy: this rewrites it), pimc's mean
    outcome of each option for the deciding seat (`crates play --hint pimc` shows them);
    returns False when the decision is not one pimc searches (a call, an announcement)."""
    seat, n = E.restore_pause(G)
    _p, obs, hand, pile, options, rng = E.decision_views_counted(G, seat, n)
    phase = obs[O_PHASE]
    if phase != PH_PLAY and phase != PH_AGAIN and phase != PH_COUNT:
        return False
    samples = pimc_values(params, obs, hand, pile, options, rng, E.engine_of(G), means)
    for i in range(n):
        means[i] /= samples
    return True


@allocating
def pimc_entry(G, seat, n_options):
    """pimc's decision adapter: the engine calls it by address (`crates_sim.indirect`), so
    the engine is not compiled with pimc in it, and pimc's rollouts call the engine's
    `play_on` by address (the engine table of G), so pimc is not compiled with the engine
    in it either."""
    params, obs, hand, pile, options, rng = E.decision_views(G, seat, n_options)
    return np.int64(pimc_search(params, obs, hand, pile, options, rng, E.engine_of(G)))
