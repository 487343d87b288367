"""Bit counting for card masks (bit c: card c) in the kernels.

Contract: `popcount(x)` is an njit-callable intrinsic: the number of set bits of the
integer x, in x's type (one `popcnt` instruction on x86-64). numba has no such function;
a loop over the bits would cost a branch per bit.
"""

from numba import types
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx, x):
    """The number of set bits of x."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])

    return x(x), codegen


__all__ = ["popcount"]
