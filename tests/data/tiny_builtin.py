"""A built-in strategy as small as one gets, for tests/test_strategy_params.py: it is
loaded as the module `crates_sim.strategies.tiny` and given one line of
`strategy_ids.REGISTRY`, which is all a built-in needs (docs/strategies.md, "Adding a
built-in"). It plays greedy, but with `last=1` the last legal option."""

from crates_sim.cards import O_PHASE, PH_ANNOUNCE
from crates_sim.core.jit import kernel
from crates_sim.engine import engine_nb as E
from crates_sim.params import FORGET, Builtin, Param, slots
from crates_sim.strategies.builtin import announce_with, greedy_nb

TINY_BUILTIN = Builtin("greedy, or with last=1 the last legal option",
                       {"last": Param(0.0, 0.0, 1.0, "1: the last legal option", whole=True),
                        "forget": FORGET},
                       adapter="tiny_entry")
TINY_LAST, TINY_FORGET = slots(TINY_BUILTIN)


@kernel
def tiny_entry(G, seat, n_options):
    """tiny's decision adapter: the engine calls it by address."""
    params, obs, hand, pile, options, rng = E.decision_views(G, seat, n_options)
    if obs[O_PHASE] == PH_ANNOUNCE:
        return announce_with(params[TINY_FORGET], rng)
    if params[TINY_LAST] != 0.0:
        return n_options - 1
    return greedy_nb(params, obs, hand, pile, options, rng)
