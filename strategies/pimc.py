"""`pimc`: a determinised Monte Carlo (perfect-information Monte Carlo) player.

For a card decision it rebuilds the position from what the seat can see (its view: own
hand, the pile since the last reshuffle, every seat's hand size, totals, pressures and
penalties, and the rules), then `samples` times: deals the unseen cards at random to the
other hands and the stock, consistent with the hand sizes, the stock size and the suits
each player is known to lack (a player who had to draw facing a suit, with no draw since,
holds none of it), and for every legal option plays the hand out from that position
with the built-in heuristic `policy` (default 6 = `weights`; 1 = `greedy`) at every
seat, the option forced as the first decision. The same deals serve every option
(common random numbers). It picks the option with the best mean outcome for its seat or
team: Crates, the opponents' hand points and pressures minus its own (per unit); Crazy
Eights, the hand's payout, won or paid (`search_nb.hand_value`).

Parameters (`crates strategies`): `samples` (30) deals per decision; `forget` (0);
`policy` (6); `depth` (10): in Crates a rollout plays `depth` turns (plays, draws and
passes) and the hand is then cut and valued as it stands, its hand points and pressure
points so far (0: to the hand's end; Crazy Eights rollouts always play to the end, a
cut hand having no payout yet); `lead` (0) and `min_samples` (4), racing: with lead > 0,
once min_samples deals are in, an option is dropped as soon as it trails the leader by
more than `lead` standard errors of their paired difference, and the search stops when
one option is left.

Cut rollouts are both faster and stronger: the first turns after a move carry its
effect, the rest of the hand mostly noise. On duplicate deals (classic 4 players)
depth=10 beat depth=0 (pimc before this parameter) by 11.3% win rate [5.9, 16.8] in
partnerships (600 deals) and is about 5x faster per decision. `pimc:depth=0:lead=0`
plays exactly the decisions of that pimc, deal for deal. Racing saves rollouts but costs
strength (lead=2 lost 11% [3.6, 18.7] of win rate to lead=0 with full rollouts, lead=0.5
27% [22, 32]; samples=8 lost 25% [18, 32] to samples=30), so it is off by default.

Cost: a decision is about samples x options rollouts, about 90% of the time; a full
rollout plays the hand to its end (classic 4 players: 50-70 turns on average, hundreds
in a hand that runs long, ~100 ns a turn with `weights`), a cut one `depth` turns.
Per decision pimc builds the position once; per deal it re-deals only the hidden cards
(the other hands, the stock); per rollout it restores only the position part of the
state and the deal's random streams (`search_nb.start_rollout`, ~500 of its 1,700
words) and allocates nothing.

The position, the rollouts and their values come from the engine's search API
(`crates_sim.engine.search_nb`); nothing here reads the engine's state layout.

Suit calls and last-card announcements use greedy's rules (call the longest suit,
announce). pimc is not compiled into the engine: the engine calls its adapter
`pimc_entry` by address, as it calls a user's strategy, and the rollouts call the
engine's `play_on` by address through the engine table in the game state, so neither
is compiled into the other and nothing is recursive.
"""

import numpy as np

from crates_sim.cards import (
    FAMILY_CRATES,
    IN_DECK,
    K_FAMILY,
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
from crates_sim.core.jit import allocating, kernel
from crates_sim.core.rng_nb import next_u64, shuffle_cards
from crates_sim.engine import engine_nb as E
from crates_sim.params import FORGET, Builtin, Param, slots
from crates_sim.strategies.builtin import announce_with, longest_suit
from crates_sim.strategy_ids import GREEDY, N_INLINE, RANDOM


@kernel
def _unseen(obs, hand, pile, out):
    """Cards the seat has not seen (in the deck, not in its hand, not in the pile) into
    out[:k], in card order; returns k."""
    for c in range(52):
        out[c] = obs[O_RULES + IN_DECK + c]
    for i in range(hand.shape[0]):
        out[hand[i]] = 0
    for i in range(pile.shape[0]):
        out[pile[i]] = 0
    k = 0
    for c in range(52):
        if out[c] != 0:
            out[k] = c
            k += 1
    return k


@kernel
def _deal_hidden(G, me, unseen, k, cards, voids, free, rng):
    """Deal the k unseen cards at random to the other hands and the stock of G (the
    rest of G is the position, and stays as it is). A seat that could not play on a suit
    held none of it then: a deal giving it more cards of its void suits (8s count too)
    than it has drawn since is redrawn (up to 20 tries, then the last deal is kept).
    `cards` is scratch (52 words)."""
    n = voids.shape[0]
    for i in range(k):
        cards[i] = unseen[i]
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


@kernel
def _drop_clear_losers(sums, cross, alive, m, lead):
    """Racing: after m deals shared by the options still alive, drop every option whose
    mean is below the leader's (the alive option with the best sum, the first of equals)
    by more than `lead` standard errors of their paired difference (common random
    numbers: the same deals, so the difference is measured per deal). Returns how many
    options are still alive."""
    n_options = sums.shape[0]
    best = -1
    for i in range(n_options):
        if alive[i] != 0 and (best < 0 or sums[i] > sums[best]):
            best = i
    left = 0
    for j in range(n_options):
        if alive[j] == 0:
            continue
        if j != best:
            diff = (sums[best] - sums[j]) / m
            squares = cross[best, best] - 2.0 * cross[best, j] + cross[j, j]
            var = max((squares - m * diff * diff) / (m - 1), 0.0)
            if diff > 0.0 and diff > lead * np.sqrt(var / m):
                alive[j] = 0
                continue
        left += 1
    return left


PIMC_BUILTIN = Builtin(
    "determinised Monte Carlo: samples the unseen cards, plays each option out",
    {"samples": Param(30.0, 1.0, 100_000.0, "deals of the unseen cards per decision",
                      whole=True),
     "forget": FORGET,
     "policy": Param(6.0, 1.0, 6.0, "rollout player: 1 greedy, 2 hoard3, 3 dump3, "
                                    "4 aggressive, 5 partner, 6 weights", whole=True),
     "lead": Param(0.0, 0.0, 100.0, "racing: drop an option once it trails the best by "
                                    "this many standard errors (0: play every option "
                                    "on every deal: the default)"),
     "min_samples": Param(4.0, 2.0, 100_000.0, "deals before racing drops an option",
                          whole=True),
     "depth": Param(10.0, 0.0, 100_000.0, "Crates: turns a rollout plays before the "
                                          "hand is cut and valued as it stands (0: to "
                                          "the hand's end)", whole=True)},
    adapter="pimc_entry")
PIMC_SAMPLES, PIMC_FORGET, PIMC_POLICY, PIMC_LEAD, PIMC_MIN_SAMPLES, PIMC_DEPTH = slots(
    PIMC_BUILTIN)


@allocating
def unsearched_choice(forget, obs, hand, options, rng):
    """A search player's decision where it does not search: an announcement (made unless
    `forget`, the player's parameter), a call (the longest suit), a card decision with one
    legal option; -1 for a card decision (play, count or play again) with options to
    search."""
    phase = obs[O_PHASE]
    if phase == PH_ANNOUNCE:
        return announce_with(forget, rng)
    if phase != PH_PLAY and phase != PH_AGAIN and phase != PH_COUNT:
        return longest_suit(hand, options)
    if options.shape[0] == 1:
        return 0
    return -1


@kernel
def seat_evidence(obs, deal, voids, free, base_ppoints):
    """Per seat q of the position `deal` (from the view `obs`): voids[q] the suits it has
    shown it lacks, free[q] the cards it has drawn since, base_ppoints[q] its pressure
    points as the position stands (a rollout's outcome is measured from them)."""
    for q in range(voids.shape[0]):
        voids[q] = obs[O_SEATS + q * O_PER_SEAT + OS_VOIDS]
        free[q] = obs[O_SEATS + q * O_PER_SEAT + OS_VOID_FREE]
        base_ppoints[q] = E.pressure_points(deal, q)


@allocating
def pimc_search(params, obs, hand, pile, options, rng, engine):
    """Determinised Monte Carlo over up to `samples` (params[PIMC_SAMPLES]) deals of the unseen
    cards; the rollouts run the engine's `play_on` through the engine table `engine`."""
    quick = unsearched_choice(params[PIMC_FORGET], obs, hand, options, rng)
    if quick >= 0:
        return quick
    n_options = options.shape[0]
    totals = np.zeros(n_options, dtype=np.float64)
    counts = np.zeros(n_options, dtype=np.int64)
    drawn = pimc_values(params, obs, hand, pile, options, rng, engine, totals, counts,
                        np.zeros((0, 0)))
    return _pick(totals, counts, drawn)


@kernel
def _pick(totals, counts, drawn):
    """The option with the best total among those played on every deal drawn (the first
    of equals): racing leaves those, the others were dropped on the way."""
    best = -1
    for i in range(totals.shape[0]):
        if counts[i] == drawn and (best < 0 or totals[i] > totals[best]):
            best = i
    return best


@allocating
def pimc_values(params, obs, hand, pile, options, rng, engine, totals, counts, shared):
    """The search of `pimc_search` for a card decision (play, count or play again): into
    totals[i] the sum of option i's outcomes for the seat over the deals it was played on,
    counts[i] how many (the first counts[i] deals); returns how many deals were drawn.
    When `shared` is n_options x n_options (not 0 x 0), shared[i, j] gets the sum of
    option i's outcomes over the deals option j was played on too (`pimc_explain`).
    Without racing (`lead` 0, or `samples` <= `min_samples`) every
    option is played on every deal; with it an option is dropped once it is clearly
    behind (`_drop_clear_losers`), and the search stops when one option is left."""
    phase = obs[O_PHASE]
    n_options = options.shape[0]
    samples = max(int(params[PIMC_SAMPLES]), 1)
    lead = params[PIMC_LEAD]
    min_deals = max(int(params[PIMC_MIN_SAMPLES]), 2)
    me = obs[O_SEAT]
    n = obs[O_PLAYERS]
    policy = int(params[PIMC_POLICY])
    if policy <= RANDOM or policy >= N_INLINE:  # a heuristic compiled into the engine
        policy = GREEDY
    # the position, played on by a copy: its hidden cards are dealt anew for every deal
    deal = E.position_from_view(obs, hand, pile, policy, engine)
    depth = int(params[PIMC_DEPTH])
    if depth > 0 and obs[O_RULES + K_FAMILY] == FAMILY_CRATES:
        E.limit_turns(deal, depth)  # rollouts cut after `depth` turns, valued as they stand
    work = E.copy_state(deal)
    scratch = np.zeros(104 + 3 * n + n_options, dtype=np.int64)
    unseen = scratch[0:52]
    cards = scratch[52:104]
    voids = scratch[104:104 + n]
    free = scratch[104 + n:104 + 2 * n]
    base_ppoints = scratch[104 + 2 * n:104 + 3 * n]
    alive = scratch[104 + 3 * n:104 + 3 * n + n_options]
    k = _unseen(obs, hand, pile, unseen)
    seat_evidence(obs, deal, voids, free, base_ppoints)
    racing = lead > 0.0 and samples > min_deals
    cross = np.zeros((n_options if racing else 0, n_options if racing else 0))
    outcome = np.zeros(n_options)
    for i in range(n_options):
        totals[i] = 0.0
        counts[i] = 0
        alive[i] = 1
    drawn = 0
    for s in range(samples):
        _deal_hidden(deal, me, unseen, k, cards, voids, free, rng)
        E.seed_rollout(deal, next_u64(rng, 0), s)  # every option's rollout: these streams
        drawn += 1
        for i in range(n_options):
            if alive[i] == 0:
                continue
            E.start_rollout(work, deal, me, options[i], phase == PH_AGAIN)
            E.play_out(work)
            outcome[i] = E.hand_value(work, me, base_ppoints)
            totals[i] += outcome[i]
            counts[i] += 1
        if shared.shape[0] > 0:
            for i in range(n_options):
                if alive[i] != 0:
                    for j in range(n_options):
                        if alive[j] != 0:
                            shared[i, j] += outcome[i]
        if racing:
            for i in range(n_options):
                if alive[i] != 0:
                    for j in range(n_options):
                        if alive[j] != 0:
                            cross[i, j] += outcome[i] * outcome[j]
            if drawn >= min_deals and _drop_clear_losers(totals, cross, alive, drawn, lead) == 1:
                break
    return drawn


@allocating
def pimc_explain(G, params, means):
    """For the paused decision of a stepped game G (a copy: this rewrites it), pimc's mean
    outcome of each option for the deciding seat (`crates play --hint pimc` shows them);
    returns False when the decision is not one pimc searches (a call, an announcement).

    The option pimc picks, and every option played on every deal, get their plain means.
    An option that racing dropped after fewer deals gets the pick's mean minus how far it
    trailed the pick on the deals they shared (a paired estimate: the same deals, so
    less noisy than its own mean over its few deals)."""
    seat, n = E.restore_pause(G)
    _p, obs, hand, pile, options, rng = E.decision_views_counted(G, seat, n)
    phase = obs[O_PHASE]
    if phase != PH_PLAY and phase != PH_AGAIN and phase != PH_COUNT:
        return False
    counts = np.zeros(n, dtype=np.int64)
    shared = np.zeros((n, n))
    drawn = pimc_values(params, obs, hand, pile, options, rng, E.engine_of(G), means, counts,
                        shared)
    best = _pick(means, counts, drawn)
    mean_best = means[best] / drawn
    for i in range(n):
        if counts[i] == drawn:
            means[i] /= drawn
        else:
            means[i] = mean_best - (shared[best, i] - means[i]) / counts[i]
    return True


@allocating
def pimc_entry(G, seat, n_options):
    """pimc's decision adapter: the engine calls it by address (`crates_sim.engine.indirect`), so
    the engine is not compiled with pimc in it, and pimc's rollouts call the engine's
    `play_on` by address (the engine table of G), so pimc is not compiled with the engine
    in it either."""
    params, obs, hand, pile, options, rng = E.decision_views(G, seat, n_options)
    return np.int64(pimc_search(params, obs, hand, pile, options, rng, E.engine_of(G)))
