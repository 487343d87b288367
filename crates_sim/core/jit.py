"""The decorators of the kernels.

`kernel` is for the hot path: cached, and compiled without numba's reference counting
(``_nrt=False``), so it may not allocate arrays. Measured here, the NRT increfs/decrefs
that numba leaves around array arguments cost 70-120 ns per call, more than a whole
decision; without them a decision is a few ns. `allocating` is for the few entry points
that allocate (a game's state, copies, chunk drivers).

Every decorator here makes a dispatcher that compiles one version per argument *type*,
never one per literal value: numba's own dispatchers, called from a kernel with a
constant (``draw_one(G, p, W_FIVE)``), compile a separate copy of the callee, and of
everything it calls, for each constant. Measured on this engine: `decide` compiled 6
times, `draw_one` 9 times, and a cold compile took 160 s; with one version per type,
94 s, and about 33 s once `play_on` was called by address (`make bench` lists the
kernels slowest to compile). numba also lets a function compiled from inside a caller's
compile inherit the caller's unset flags: `kernel` and `allocating` say forceinline=False,
so that a kernel first compiled under a `leaf` is not made alwaysinline (`decide` was
inlined 7 times into `play_on` so); and the `leaf`s, which only kernels call, are built
without numba's Python and C wrappers (`_InlineDispatcher`). A cold compile is now about
16 CPU s in one process (11.5 without `decide`, compiled when a run needs it).
"""

from numba import types
from numba.core.registry import CPUDispatcher


class _TypeDispatcher(CPUDispatcher):
    """A CPU dispatcher whose callers type literal arguments as their plain types."""

    def get_call_template(self, args, kws):
        args = tuple(types.unliteral(a) for a in args)
        kws = {k: types.unliteral(v) for k, v in kws.items()}
        return super().get_call_template(args, kws)


#: what numba builds around every compiled function and only a call from Python needs:
#: its Python wrapper (unboxing the arguments, boxing the result) and a C wrapper.
#: Measured: 3.3 of a cold compile's 19.6 CPU seconds went to them in the `leaf`s,
#: which only other kernels call (and inline)
_NO_WRAPPERS = {"no_cpython_wrapper": True, "no_cfunc_wrapper": True}


class _InlineDispatcher(_TypeDispatcher):
    """A `_TypeDispatcher` compiled without numba's wrappers (_NO_WRAPPERS), for
    functions that kernels call. Called from Python (a test, a script), it runs a twin
    compiled with them, on first such call (a function without its Python wrapper,
    called from Python, would jump to address 0)."""

    def __call__(self, *args, **kws):
        python = self.__dict__.get("_python_twin")
        if python is None:
            options = {k: v for k, v in self.targetoptions.items() if k not in _NO_WRAPPERS}
            python = self._python_twin = twin(self, _jit(**options),
                                              self.py_func.__name__ + "_from_python")
        return python(*args, **kws)


def _jit(**options):
    kind = _InlineDispatcher if options.get("no_cpython_wrapper") else _TypeDispatcher

    def decorate(py_func):
        dispatcher = kind(py_func=py_func, locals={},
                          targetoptions={"nopython": True, "no_cfunc_wrapper": True, **options})
        dispatcher.enable_caching()
        return dispatcher

    return decorate


#: forceinline=False said, not left out: numba lets a function compiled from inside a
#: caller's compile inherit the caller's unset flags, so a kernel first compiled under a
#: `leaf` became forceinline itself (LLVM's alwaysinline), and was inlined, or not,
#: depending on which caller happened to compile it first
kernel = _jit(_nrt=False, forceinline=False)
allocating = _jit(forceinline=False)
#: small hot helpers, inlined into their callers by LLVM (forceinline: the function gets
#: LLVM's alwaysinline). Measured on this engine: numba's IR-level inlining
#: (inline="always") compiled several times slower for the same run time.
leaf = _jit(_nrt=False, forceinline=True, **_NO_WRAPPERS)
#: a large kernel with one caller, inlined into it by numba (IR level): it is then not
#: compiled on its own as well (with LLVM inlining it would be, and again in its caller)
inline_once = _jit(_nrt=False, inline="always")
#: a leaf for reference-counted (allocating) callers that returns arrays. numba expects a
#: callee to return new references to the arrays it returns, which a function compiled
#: without reference counting does not do: called from an allocating function, such a
#: `leaf` would have its result's owner freed too early (seen: heap corruption)
counted_leaf = _jit(_nrt=True, forceinline=True, **_NO_WRAPPERS)


def twin(dispatcher, decorator, name):
    """The function of `dispatcher` compiled again under `decorator`, as `name`.

    The copy needs a name of its own: numba's cache keys a compiled function on its name
    and line and its argument types, not on flags such as reference counting, so two
    dispatchers of one function would load each other's code (seen: the reference-
    counted twin of `unpack` loaded the plain one, and the heap was corrupted)."""
    import types as pytypes

    f = dispatcher.py_func
    copy = pytypes.FunctionType(f.__code__, f.__globals__, name, f.__defaults__, f.__closure__)
    copy.__qualname__ = name
    copy.__doc__ = f.__doc__
    return decorator(copy)
