"""A strategy's parameters: what one is (`Param`), how a built-in declares itself beside its
decision function (`Builtin`), and the named slots its kernels read them by (`slots`); how
a user's function declares its parameters and the parts of its view it reads
(`parameters`, `reads`: reached as `crates_sim.view.parameters`, `crates_sim.view.reads`).

Contract: plain Python, importing nothing of crates_sim but `errors`, so that the
strategies' modules, the spec parser (`crates_sim.strategy`) and the engine's state
layout (N_PARAMS) can all import it without an import circle. A built-in's module says,
beside its decision function::

    THUMB_BUILTIN = Builtin("greedy plus rules of thumb ...",
                            {"wild": Param(1.0, 0.0, 1.0, "...", whole=True), ...,
                             "forget": FORGET},
                            adapter="thumb_entry")
    THUMB_WILD, THUMB_SIX, THUMB_HIT, THUMB_SUIT, THUMB_FORGET = slots(THUMB_BUILTIN)

and its kernels read ``params[THUMB_WILD]``: module-level integers, which numba folds
into the compiled code as constants (as the state's S_* and the view's O_* slots).
The constants are `<NAME>_<PARAMETER>` in capitals, in the declaration's order
(tests/test_strategy_params.py checks every one against its declaration); the
registry (`crates_sim.strategy_ids.REGISTRY`) finds the declaration as
`<NAME>_BUILTIN` in the module it names.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from .errors import CratesError, did_you_mean

#: parameters per seat (float64 row of the game state: `crates_sim.engine.state_nb`)
N_PARAMS = 14


class Param(NamedTuple):
    """One strategy parameter: default value, allowed range [low, high], meaning."""

    default: float
    low: float = -math.inf
    high: float = math.inf
    text: str = ""
    whole: bool = False  # only whole numbers

    def check(self, strategy: str, key: str, value: float) -> float:
        if math.isnan(value) or not self.low <= value <= self.high:
            raise CratesError(f"strategy {strategy}: {key}={value:g} is out of range "
                              f"({_range(self)})")
        if self.whole and value != int(value):
            raise CratesError(f"strategy {strategy}: {key}={value:g} must be a whole number")
        return value


def _range(p: Param) -> str:
    if p.low == -math.inf and p.high == math.inf:
        return "any number"
    if p.high == math.inf:
        return f"at least {p.low:g}"
    if p.low == -math.inf:
        return f"at most {p.high:g}"
    return f"{p.low:g} to {p.high:g}"


def describe_range(p: Param) -> str:
    """'0 to 1', 'at least 1', 'any number' (+ ', whole')."""
    return _range(p) + (", whole" if p.whole else "")


#: the parameter most built-ins share
FORGET = Param(0.0, 0.0, 1.0, "probability of not announcing a last card")


class Builtin(NamedTuple):
    """A built-in strategy as its module declares it: one line for `crates strategies`
    (`about`), its parameters (name -> Param, in the order of their slots in `params`),
    and `adapter`, the name of the function in the module that the engine calls by
    address ("": the strategy is compiled into the engine, `engine.dispatch_nb`), and
    `adapter_when`, () or ((parameter, ...), adapter): the adapter a spec that sets one
    of those parameters away from 0 plays instead, which may be "module.function" in
    another module of the strategies (adept's search=K and stock=S:
    `expert.adept_search_entry`, beside the search it calls; plain adept's adapter then
    never compiles that search); `calls`, the functions ("module.function", with an
    adapter's arguments) its adapter calls by address, which `crates compile` compiles with
    the adapters (plain adept's searched routes: `expert.adept_routed_search`)."""

    about: str
    params: dict
    adapter: str = ""
    adapter_when: tuple = ()
    calls: tuple = ()


def slots(declared) -> range:
    """The slots of a declaration's parameters (a `Builtin`, or its dict), in order: unpack
    them into the module's named constants, `NAME_A, NAME_B = slots(NAME_BUILTIN)` (a
    parameter added or dropped without its constant fails there, at import)."""
    params = declared.params if isinstance(declared, Builtin) else declared
    if len(params) > N_PARAMS:
        raise CratesError(f"at most {N_PARAMS} parameters")
    return range(len(params))


#: the attribute `parameters` sets on a user's decision function
PARAMS_ATTR = "crates_parameters"
#: the attribute `reads` sets on a user's decision function: the parts of the view it reads
READS_ATTR = "crates_reads"


def parameters(**declared):
    """Declare a decision function's parameters, in order (they arrive as params[0], ...)::

        @parameters(risk=(0.5, 0.0, 1.0, "share of points risked"), depth=2)
        @njit
        def cautious(params, obs, hand, pile, options, rng): ...

    Each value is a default, or (default, low, high[, description])."""
    if len(declared) > N_PARAMS:
        raise CratesError(f"at most {N_PARAMS} parameters")
    table = {}
    for key, spec in declared.items():
        if isinstance(spec, (tuple, list)):
            default, low, high, *text = spec
            table[key] = Param(float(default), float(low), float(high), text[0] if text else "")
        else:
            table[key] = Param(float(spec))

    def mark(fn):
        setattr(fn, PARAMS_ATTR, table)
        return fn

    return mark


#: the parts of its view a decision function may declare it reads (`reads`)
VIEW_PARTS = ("table", "seats")


def reads(*parts):
    """Declare which parts of its view a decision function reads, so that the engine
    writes only those for it (a function that calls `greedy_nb` then runs about as fast
    as built-in greedy)::

        @reads()                 # or reads("table"), reads("table", "seats")
        @njit
        def my_greedy(params, obs, hand, pile, options, rng): ...

    Always written: the decision (`phase`, `played_card`), the hand, the pile, the
    options, the rules (`is_crates`, `rule`, `value` ...). "table": the table's scalars
    (`me`, `players`, `partner`, `dealer`, `hand_number`, `deal_size`, `top_card`,
    `current_suit`, `current_rank`, `direction`, `active_count`, `stock_size`, `passes`);
    "seats": the per-seat part (`hand_size`, `total`, `pressures` ...). Undeclared, a
    function gets the whole view. A part read without being declared holds stale values
    (of an earlier decision of the same game)."""
    bad = [p for p in parts if p not in VIEW_PARTS]
    if bad:
        raise CratesError(f"reads: unknown part {bad[0]!r}{did_you_mean(bad[0], VIEW_PARTS)} "
                          f"(parts: {', '.join(VIEW_PARTS)})")

    def mark(fn):
        setattr(fn, READS_ATTR, frozenset(parts))
        return fn

    return mark
