"""Built-in strategies (numba kernels).

Every decision function has the same signature::

    fn(params, obs, hand, pile, options, rng) -> int

and returns an index into ``options[:n_options]``. ``obs[O_PHASE]`` says what is being
decided (layout in `crates_sim.cards`): a card to play (options are cards, maybe
ACTION_DRAW / ACTION_PASS), a suit to call (options are suits 0..3), or whether to
announce a last card (options [0, 1]).

Each built-in's module declares it beside its decision function: `<NAME>_BUILTIN` (a
`crates_sim.params.Builtin`: what `crates strategies` says, its parameters, its adapter)
and the named slots its kernels read the parameters by (`params[GREEDY_FORGET]`);
`crates_sim.strategy_ids.REGISTRY` lists the modules (docs/strategies.md, "Adding a
built-in").
"""


from crates_sim.cards import (
    ACTION_DRAW,
    ACTION_PASS,
    O_PHASE,
    PH_ANNOUNCE,
    PH_COUNT,
)
from crates_sim.core.jit import leaf
from crates_sim.core.rng_nb import rand_below, rand_unit
from crates_sim.params import FORGET, Builtin, slots
from crates_sim.view import value

RANDOM_BUILTIN = Builtin("uniform among legal cards (a voluntary draw is one more choice)",
                         {"forget": FORGET})
(RANDOM_FORGET,) = slots(RANDOM_BUILTIN)
GREEDY_BUILTIN = Builtin("sheds its highest-scoring legal card, calls its longest suit",
                         {"forget": FORGET})
(GREEDY_FORGET,) = slots(GREEDY_BUILTIN)


@leaf
def announce_with(forget, rng):
    """1 to announce a last card; 0 with probability `forget` (a strategy's `forget`)."""
    if forget > 0.0 and rand_unit(rng, 0) < forget:
        return 0
    return 1


@leaf
def random_nb(params, obs, hand, pile, options, rng):
    """Uniform among the options; always continues an optional count; announces (forget=p)."""
    phase = obs[O_PHASE]
    if phase == PH_ANNOUNCE:
        return announce_with(params[RANDOM_FORGET], rng)
    n = options.shape[0]
    if phase == PH_COUNT and options[n - 1] == ACTION_DRAW and n > 1:
        n -= 1  # continue the count when able
    return rand_below(rng, 0, n)


@leaf
def longest_suit(hand, options):
    """Index of the option suit held most often (ties: the first option)."""
    best = 0
    best_len = -1
    for i in range(options.shape[0]):
        length = 0
        for j in range(hand.shape[0]):
            if hand[j] % 4 == options[i]:
                length += 1
        if length > best_len:
            best_len = length
            best = i
    return best


@leaf
def greedy_nb(params, obs, hand, pile, options, rng):
    """Sheds its highest-scoring legal card; calls its longest suit; never draws by choice."""
    phase = obs[O_PHASE]
    if phase == PH_ANNOUNCE:
        return announce_with(params[GREEDY_FORGET], rng)
    if phase >= 3:  # a call
        return longest_suit(hand, options)
    best = -1
    best_value = -1
    for i in range(options.shape[0]):
        card = options[i]
        if card == ACTION_DRAW or card == ACTION_PASS:
            continue
        v = value(obs, card)
        if v > best_value:
            best_value = v
            best = i
    if best < 0:
        return 0
    return best
