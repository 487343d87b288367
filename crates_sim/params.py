"""A strategy's parameters: what one is (`Param`), how a built-in declares itself beside its
decision function (`Builtin`), and the named slots its kernels read them by (`slots`).

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

from .errors import CratesError

#: parameters per seat (float64 row of the game state: `crates_sim.engine.state_nb`)
N_PARAMS = 8


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
    address ("": the strategy is compiled into the engine, `engine.dispatch_nb`)."""

    about: str
    params: dict
    adapter: str = ""


def slots(declared) -> range:
    """The slots of a declaration's parameters (a `Builtin`, or its dict), in order: unpack
    them into the module's named constants, `NAME_A, NAME_B = slots(NAME_BUILTIN)` (a
    parameter added or dropped without its constant fails there, at import)."""
    params = declared.params if isinstance(declared, Builtin) else declared
    if len(params) > N_PARAMS:
        raise CratesError(f"at most {N_PARAMS} parameters")
    return range(len(params))
