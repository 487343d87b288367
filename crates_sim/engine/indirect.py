"""Calling a compiled function by its address, from a cached kernel.

Contract: `call_decision(address, G, seat, n_options)` is an njit-callable intrinsic. It
calls the function at `address`, which must have been compiled by numba for the signature
`DECISION_ARGS` -> int64 (a strategy adapter, see `crates_sim.userstrat`), in numba's own
calling convention, and returns its int64 result. `call_on_state(address, G)` does the
same for an engine kernel of signature `STATE_ARGS` -> int64 (the engine calls `play_on`
so: a kernel called by address is compiled on its own, once, instead of again inside
every kernel that calls it, which is what makes a cold start take minutes). An exception raised in the callee is
propagated, so it reaches Python as an error instead of vanishing (as it would through a
`@cfunc`).

Why: a kernel that takes a function as an argument is recompiled for every function and
cannot be cached; an address held in an array is plain data, so the engine is compiled
once per machine and any number of strategies plug into it. Measured here: the call costs
about 6 ns (three scalar-ish arguments; the callee cuts its own views), against 20+ ns
when six arrays are passed flattened.

The state array is handed over without its NRT meminfo (a null pointer): a callee compiled
with reference counting (one that allocates) then skips the increfs and decrefs of the
engine's arrays, which would otherwise cost ~50 ns per call. The engine owns the state for
the whole call, so nothing is lost by it.
"""

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.core.callconv import excinfo_t
from numba.extending import intrinsic

#: argument types of every decision adapter: (G, seat, n_options)
DECISION_ARGS = (types.int64[::1], types.int64, types.int64)
#: argument types of an engine kernel called by address on a game state (`call_on_state`)
STATE_ARGS = (types.int64[::1],)
#: argument types of `decide_nb.decide`, called by address (`call_decide`):
#: (G, seat, phase, n_options, played card)
DECIDE_ARGS = (types.int64[::1], types.int64, types.int64, types.int64, types.int64)


def _indirect_call(context, builder, argtys, args):
    """Emit a call of the int64-returning function at address args[0] with args[1:]
    (types argtys, the first one the state array, handed over without its meminfo); an
    exception in the callee returns from the caller with it (numba's error protocol)."""
    cc = context.call_conv
    fnty = cc.get_function_type(types.int64, argtys)
    fn = builder.inttoptr(args[0], fnty.as_pointer())
    retty = cc.get_return_type(types.int64).pointee
    ret = cgutils.alloca_once(builder, retty)
    builder.store(cgutils.get_null_value(retty), ret)
    excinfo = cgutils.alloca_once(builder, ir.PointerType(excinfo_t), name="excinfo")
    arr = context.make_array(argtys[0])(context, builder, value=args[1])
    arr.meminfo = cgutils.get_null_value(arr.meminfo.type)
    values = [arr._getvalue(), *args[2:]]
    packed = list(cc._get_arg_packer(argtys).as_arguments(builder, values))
    code = builder.call(fn, [ret, excinfo, *packed])
    status = cc._get_return_status(builder, code, builder.load(excinfo))
    with cgutils.if_unlikely(builder, status.is_error):
        cc.return_status_propagate(builder, status)
    return context.get_returned_value(builder, types.int64, builder.load(ret))


@intrinsic
def call_decision(typingctx, address, state, seat, n_options):
    """int64 result of the adapter at `address` called with (state, seat, n_options)."""
    sig = types.int64(address, state, seat, n_options)

    def codegen(context, builder, signature, args):
        return _indirect_call(context, builder, signature.args[1:], args)

    return sig, codegen


@intrinsic
def call_on_state(typingctx, address, state):
    """int64 result of the engine kernel at `address` (signature STATE_ARGS) on `state`."""
    sig = types.int64(address, state)

    def codegen(context, builder, signature, args):
        return _indirect_call(context, builder, signature.args[1:], args)

    return sig, codegen


@intrinsic
def call_decide(typingctx, address, state, seat, phase, n_options, played):
    """int64 result of the kernel at `address` (signature DECIDE_ARGS, `decide_nb.decide`)
    called with (state, seat, phase, n_options, played)."""
    sig = types.int64(address, state, seat, phase, n_options, played)

    def codegen(context, builder, signature, args):
        return _indirect_call(context, builder, signature.args[1:], args)

    return sig, codegen


def address_of(dispatcher, args=DECISION_ARGS) -> int:
    """Compile (or load) `dispatcher` for `args` and return its native entry point's address
    (numba's calling convention, valid in this process only)."""
    dispatcher.compile(args)
    cres = dispatcher.overloads[tuple(args)]
    return cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name)



@intrinsic
def float_array_at(typingctx, address, length):
    """The `length` float64 values at the int64 `address` as a 1-d array that owns nothing
    (no meminfo): data that Python keeps alive and hands to a kernel by its address (the
    apprentice's weights, through the engine table). Nothing is checked."""
    from numba.np.arrayobj import make_array, populate_array

    ret = types.float64[::1]

    def codegen(context, builder, signature, args):
        view = make_array(ret)(context, builder)
        double = context.get_value_type(types.float64)
        data = builder.inttoptr(args[0], double.as_pointer())
        populate_array(view, data=data, shape=cgutils.pack_array(builder, [args[1]]),
                       strides=cgutils.pack_array(builder, [context.get_constant(types.intp, 8)]),
                       itemsize=context.get_constant(types.intp, 8), meminfo=None, parent=None)
        return view._getvalue()

    return ret(address, length), codegen
