"""Views of the state array at fixed places, without numba's slice arithmetic.

Contract: `fixed_view(G, start, length)` is an njit-callable intrinsic that returns
G[start:start + length] as an array of G's type, sharing G's memory. The caller
guarantees 0 <= start and start + length <= len(G) (the state layout of `state_nb` does:
G is never shorter than S_LEN); nothing is checked.

Why: a slice G[a:b] clamps a and b to G's length, which the compiler does not know, so
every view of every inlined kernel carries compares and selects, and the view's length
is a run-time value, which keeps numba's negative-index wraparound on its loads. A
fixed view has the constant length the layout gives it: with the constants inlined,
LLVM folds its address into the loads (measured: `unpack`'s views made fixed took classic
`random` from 40.3 to 34.9 ns per turn, and the engine's compile from 36 to 31 s).
"""

from numba.core import cgutils
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array


@intrinsic
def fixed_view(typingctx, arr, start, length):
    """G[start:start + length] (unchecked), a view of G's type."""

    def codegen(context, builder, sig, args):
        aryty = sig.args[0]
        src = make_array(aryty)(context, builder, value=args[0])
        view = make_array(sig.return_type)(context, builder)
        data = builder.gep(src.data, [args[1]], inbounds=True)
        populate_array(view, data=data,
                       shape=cgutils.pack_array(builder, [args[2]]),
                       strides=cgutils.pack_array(builder, [src.itemsize]),
                       itemsize=src.itemsize, meminfo=src.meminfo, parent=src.parent)
        # a view is a new reference to G's memory where reference counting is on
        return impl_ret_borrowed(context, builder, sig.return_type, view._getvalue())

    return arr(arr, start, length), codegen
