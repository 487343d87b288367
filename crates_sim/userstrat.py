"""Users' own strategies: `--strategies mybots.py:cautious` or `mypkg.bots:cautious`.

Contract: a user's decision function is an `@njit` function with the signature of
`crates_sim.view` (``fn(params, obs, hand, pile, options, rng) -> int``). It is compiled
on its own, wrapped in a small adapter with the fixed signature `indirect.DECISION_ARGS`,
and the engine, compiled once per machine and cached, calls the adapter's address, kept
per seat in the game state (`indirect.call_decision`). A new or edited file costs the
compile of that function and its adapter (about a second), never an engine compile.

Addresses belong to a process: every process (each worker of a run) compiles its own
adapters on first use, and keeps them for the rest of its life (per file content).

Parameters: a file declares its functions' parameters, in order, with `parameters`::

    from crates_sim.view import parameters

    @parameters(risk=(0.5, 0.0, 1.0, "how much a kept 8 is worth"))
    @njit
    def cautious(params, obs, hand, pile, options, rng): ...

`mybots.py:cautious:risk=0.3` then sets params[0] = 0.3; an undeclared name, a value out of
its range, or a parameter given to a function that declares none is an error.

A spec whose NAME is a plain Python callable (not @njit) is a Python agent
(`is_python_spec`, `python_specs`): crates_sim.play.pyagent seats it on the step engine.

Which parts of its view a function reads, with `reads` (`view.reads("table")`; the
engine then leaves the others unwritten, and the function's id carries
strategy_ids.SKIP_TABLE / SKIP_SEATS for them).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
from pathlib import Path

from .errors import CratesError, did_you_mean
from .params import PARAMS_ATTR, READS_ATTR  # what `parameters` and `reads` set on a function
from .strategy_ids import USER_BASE  # noqa: F401 (user functions' ids start here)


def is_user_spec(name: str) -> bool:
    """`file.py:func` or `package.module:func` (a built-in name has neither '.' nor '/')."""
    return name.endswith(".py") or "/" in name or "." in name


_MODULES: dict[tuple, object] = {}


def _module_for(where: str):
    """Import a user's module from a .py path or a dotted module name: (module, path).

    A file is imported again when its content changed (an edit between two runs of one
    Python session takes effect)."""
    if where.endswith(".py") or "/" in where:
        path = Path(where).expanduser().resolve()
        if not path.is_file():
            raise CratesError(f"strategy file {where} not found")
        source = path.read_bytes()
        digest = hashlib.sha1(str(path).encode() + b"\0" + source).hexdigest()[:12]
        key = (str(path), digest)
        if key in _MODULES:
            return _MODULES[key], path
        name = "crates_user_" + digest
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except Exception as exc:  # the user's code failed to import
            del sys.modules[name]
            raise CratesError(f"strategy file {where} failed to load: "
                              f"{type(exc).__name__}: {exc}") from None
        _MODULES[key] = module
        return module, path
    try:
        module = importlib.import_module(where)
    except Exception as exc:
        raise CratesError(f"strategy module {where} failed to import: "
                          f"{type(exc).__name__}: {exc}") from None
    return module, Path(module.__file__).resolve()


def load_function(where: str, func: str, agents: bool = False):
    """The user's @njit decision function `func` from `where` (file or module); with
    `agents`, a plain Python callable or class (a Python agent, `crates_sim.play.pyagent`) too."""
    from numba.core.registry import CPUDispatcher

    module, path = _module_for(where)
    fn = getattr(module, func, None)
    if fn is None:
        names = [k for k, v in vars(module).items() if callable(v) and not k.startswith("_")]
        raise CratesError(f"{where} has no function {func!r}{did_you_mean(func, names)}")
    if agents and not isinstance(fn, CPUDispatcher) and callable(fn) and not _decision_like(fn):
        return module, path, fn
    if not isinstance(fn, CPUDispatcher):
        raise CratesError(f"{where}:{func} is not a numba @njit function "
                          f"(decorate it with @numba.njit; a Python agent takes (observation, "
                          f"action_mask, seat, game): docs/strategies.md)")
    _check_arguments(fn, f"{where}:{func}")
    return module, path, fn


#: the arguments of a decision function, in order
DECISION_ARGS = ("params", "obs", "hand", "pile", "options", "rng")


def _check_arguments(fn, shown: str) -> None:
    """A decision function takes the six DECISION_ARGS: one line, not numba's typing
    dump, for one that takes another number."""
    import inspect

    try:
        params = inspect.signature(fn.py_func).parameters.values()
    except (AttributeError, TypeError, ValueError):  # pragma: no cover - not introspectable
        return
    if any(p.kind == inspect.Parameter.VAR_POSITIONAL for p in params):
        return
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    names = [p.name for p in params if p.kind in kinds]
    if len(names) != len(DECISION_ARGS):
        raise CratesError(f"strategy {shown} takes ({', '.join(names)}): a decision function "
                          f"takes ({', '.join(DECISION_ARGS)}) and returns an option's index")


def _decision_like(fn) -> bool:
    """A plain function with the six arguments of a decision function (params, obs, hand,
    pile, options, rng): an @njit strategy without its decorator, not a Python agent."""
    import inspect

    if not inspect.isfunction(fn):
        return False
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return len([p for p in inspect.signature(fn).parameters.values() if p.kind in kinds]) == 6


def declared_parameters(fn) -> dict:
    """{name: (default, low, high, description)} as declared with `view.parameters`."""
    return dict(getattr(fn, PARAMS_ATTR, {}))


def view_flags(fn) -> int:
    """The flags (strategy_ids.SKIP_TABLE, SKIP_SEATS) for the parts of the view that `fn`
    declares (`view.reads`) it does not read; 0 when it declares nothing."""
    from .strategy_ids import SKIP_SEATS, SKIP_TABLE

    parts = getattr(fn, READS_ATTR, None)
    if parts is None:
        parts = getattr(getattr(fn, "py_func", None), READS_ATTR, None)
    if parts is None:
        return 0
    return (0 if "table" in parts else SKIP_TABLE) | (0 if "seats" in parts else SKIP_SEATS)


def _adapter_for(fn, counted: bool):
    """A fresh adapter dispatcher: (G, seat, n_options) -> fn's choice, as int64.

    counted=False compiles it, and the user's function with it, without reference
    counting, as the engine's own kernels are (about 8 ns per decision less, measured);
    counted=True with it, for a function that allocates. The engine hands the state over
    without its meminfo, so counting costs no atomic operations either way."""
    import numpy as np
    from numba import njit

    from .engine.engine_nb import decision_views

    @njit(_nrt=counted)
    def adapter(G, seat, n_options):
        params, obs, hand, pile, options, rng = decision_views(G, seat, n_options)
        return np.int64(fn(params, obs, hand, pile, options, rng))

    return adapter


def _forget_failures(module):
    """Drop the compile failures numba remembers for the module's @njit functions: a
    failure without reference counting must not stand in for the counted compile."""
    from numba.core.registry import CPUDispatcher

    for value in vars(module).values():
        if isinstance(value, CPUDispatcher):
            getattr(value._compiler, "_failed_cache", {}).clear()


def compile_adapter(module, fn):
    """The compiled adapter of the user's function `fn`, and its address.

    First without reference counting, on a fresh copy of the function (so that the
    user's own dispatcher keeps no uncounted version) that LLVM inlines into the adapter
    (forceinline: otherwise the adapter calls it with its six arrays passed field by
    field; measured, a function that calls greedy_nb went from 0.77x to 0.86x built-in
    greedy's rate); when that does not compile (the function allocates arrays), with it. numba's error for the counted compile is raised
    if neither compiles."""
    from numba import njit
    from numba.core.errors import NumbaError

    from .engine.indirect import address_of

    options = {k: v for k, v in fn.targetoptions.items() if k not in ("nopython", "_nrt")}
    try:
        copy = njit(_nrt=False, forceinline=True, **options)(fn.py_func)
        adapter = _adapter_for(copy, counted=False)
        return adapter, address_of(adapter)
    except NumbaError:
        _forget_failures(module)
    adapter = _adapter_for(fn, counted=True)
    return adapter, address_of(adapter)


_ADDRESSES: dict[tuple, tuple] = {}


def adapter_address(where: str, func: str) -> int:
    """The address of the compiled adapter of `where:func` in this process."""
    module, path, fn = load_function(where, func)
    key = (id(module), func)
    if key not in _ADDRESSES:
        adapter, address = compile_adapter(module, fn)
        # the adapter is kept alive with its address: freeing it would free the code
        _ADDRESSES[key] = (address, adapter)
    return _ADDRESSES[key][0]


#: spec -> whether it names a Python agent (a user's callable that is not @njit)
_KIND: dict[str, bool] = {}


def is_python_spec(spec: str) -> bool:
    """Whether `spec` names a Python agent (a user's callable that is not @njit)."""
    spec = spec.strip()
    if spec in _KIND:
        return _KIND[spec]
    from numba.core.registry import CPUDispatcher

    found = False
    # FILE.py:FUNCTION[:key=value...] (a built-in is not parsed here; a malformed spec is
    # no agent, and strategy.parse_spec says what is wrong with it)
    parts = [p.strip() for p in spec.split(":")]
    if is_user_spec(parts[0]) and len(parts) > 1 and parts[1] and "=" not in parts[1]:
        found = not isinstance(load_function(parts[0], parts[1], agents=True)[2], CPUDispatcher)
    _KIND[spec] = found
    return found


def python_specs(specs) -> list[str]:
    """The distinct Python agents among `specs`, in order."""
    return list(dict.fromkeys(s for s in specs if s is not None and is_python_spec(s)))
