"""Card masks (bit c: card c) in the kernels: counting their bits, making one from cards.

Contract: `popcount(x)` is an njit-callable intrinsic: the number of set bits of the
integer x, in x's type (one `popcnt` instruction on x86-64). numba has no such function;
a loop over the bits would cost a branch per bit. `card_mask(cards, start, n)` is the mask
of cards[start:start + n] (a seat's SV_HELD is the mask of its hand).
"""

import numpy as np
from numba import types
from numba.extending import intrinsic

from ..core.jit import leaf


@intrinsic
def popcount(typingctx, x):
    """The number of set bits of x."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@leaf
def card_mask(cards, start, n):
    """The card mask of cards[start:start + n] (cards 0..51, each at most once)."""
    mask = np.int64(0)
    for i in range(n):
        mask |= np.int64(1) << cards[start + i]
    return mask


__all__ = ["card_mask", "popcount"]
