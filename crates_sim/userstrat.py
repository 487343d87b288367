"""Users' own strategies: `--strategies mybots.py:cautious` or `mypkg.bots:cautious`.

numba cannot call a function that arrives as an argument from a cached kernel, and cannot
index a tuple of different functions at run time. So for a run with user strategies we
write a small module into a cache folder: a `choose_nb` that branches to the user's
functions (ids 100, 101, ...) and otherwise to the built-in dispatch, followed by the
engine's kernel source. numba compiles that module once and caches it next to the file,
so the same user file (same content) warm-starts on later runs. The built-in engine is
not touched.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import sys
import tempfile
from pathlib import Path

from .errors import CratesError

USER_BASE = 100
PIMC_ID = 7


def is_user_spec(name: str) -> bool:
    """`file.py:func` or `package.module:func` (a built-in name has neither '.' nor '/')."""
    return name.endswith(".py") or "/" in name or "." in name


def cache_dir() -> Path:
    """Where generated engine modules are written (numba caches them beside its kernels)."""
    from ._cache import cache_root

    path = cache_root() / "generated"
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        path = Path(tempfile.gettempdir()) / f"crates-sim-{os.getuid()}" / "generated"
        path.mkdir(parents=True, exist_ok=True)
    return path


def _module_for(where: str):
    """Import a user's module from a .py path or a dotted module name."""
    if where.endswith(".py") or "/" in where:
        path = Path(where).expanduser().resolve()
        if not path.is_file():
            raise CratesError(f"strategy file {where} not found")
        name = "crates_user_" + hashlib.sha1(str(path).encode()).hexdigest()[:12]
        if name in sys.modules:
            return sys.modules[name], path
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except Exception as exc:  # the user's code failed to import
            del sys.modules[name]
            raise CratesError(f"strategy file {where} failed to load: "
                              f"{type(exc).__name__}: {exc}") from None
        return module, path
    try:
        module = importlib.import_module(where)
    except Exception as exc:
        raise CratesError(f"strategy module {where} failed to import: "
                          f"{type(exc).__name__}: {exc}") from None
    return module, Path(module.__file__).resolve()


def load_function(where: str, func: str):
    """The user's @njit decision function `func` from `where` (file or module)."""
    from numba.core.registry import CPUDispatcher

    module, path = _module_for(where)
    fn = getattr(module, func, None)
    if fn is None:
        raise CratesError(f"{where} has no function {func!r}")
    if not isinstance(fn, CPUDispatcher):
        raise CratesError(f"{where}:{func} is not a numba @njit function "
                          f"(decorate it with @numba.njit)")
    return module, path, fn


_GENERATED = {}


def needs_refcount(fn) -> bool:
    """True when the user's decision function does not compile without numba's reference
    counting (it allocates arrays, say); probed on the function alone, in about a second.

    A function that does not compile with reference counting either raises numba's error
    here, before the engine copy is generated and compiled (a minute or more) in vain."""
    from numba import njit, types
    from numba.core.errors import NumbaError

    arr = types.int64[::1]
    sig = (types.float64[::1], arr, arr, types.int64, arr, types.int64, arr, types.int64,
           arr, types.int64)
    try:
        njit(_nrt=False)(fn.py_func).compile(sig)
        return False
    except Exception:
        pass
    try:
        njit(fn.py_func).compile(sig)
    except NumbaError:
        raise
    except Exception as exc:  # e.g. the wrong number of arguments: a TypeError
        raise NumbaError(f"{type(exc).__name__}: {exc}") from None
    return True


def engine_module(user_specs: list[tuple[str, str]], search: bool = False,
                  refcounted: bool | None = None):
    """The engine kernels compiled with these user functions [(where, func), ...] and,
    with `search`, the search strategies (pimc) whose rollouts run `engine_nb` itself.

    refcounted: compile the copy with numba's reference counting on (NRT). A strategy
    that allocates arrays (pimc does) needs it, and numba compiles a callee under its
    caller's flag, so the whole copy must have it; it costs ~25x in speed (measured:
    3,300 vs 125 ns per turn, before the fast engine went down to 55). Default: on for search strategies, off otherwise (the
    copy has it on when a user function does not compile without it: `needs_refcount`).

    Returns the generated module (it has the same kernels as `engine_nb`)."""
    if refcounted is None:
        refcounted = search or any(needs_refcount(load_function(*u)[2]) for u in user_specs)
    key = (tuple(user_specs), search, refcounted)
    if key in _GENERATED:
        return _GENERATED[key]
    from . import engine_nb

    engine_src = Path(engine_nb.__file__).read_text(encoding="utf-8")
    digest = hashlib.sha1(engine_src.encode())
    lines = ["# Generated by crates-sim for user strategies; do not edit.",
             "import importlib.util, sys", "from numba import njit",
             "from crates_sim.dispatch_nb import choose_nb as builtin_choose_nb", ""]
    calls = []
    if search:
        from strategies import pimc

        digest.update(Path(pimc.__file__).read_bytes())
        lines += ["from strategies.pimc import pimc_nb", ""]
        calls.append(f"    if sid == {PIMC_ID}:\n        return pimc_nb(params, obs, hand, hand_n, "
                     "pile, pile_n, options, n_options, rng, rng_row)")
    for k, (where, func) in enumerate(user_specs):
        module, path, _ = load_function(where, func)
        digest.update(str(path).encode())  # two checkouts of one file: two cached copies
        digest.update(path.read_bytes())
        digest.update(func.encode())
        lines += [f"_m{k} = sys.modules.get({module.__name__!r})",
                  f"if _m{k} is None:",
                  f"    _s{k} = importlib.util.spec_from_file_location({module.__name__!r}, {str(path)!r})",
                  f"    _m{k} = importlib.util.module_from_spec(_s{k})",
                  f"    sys.modules[{module.__name__!r}] = _m{k}",
                  f"    _s{k}.loader.exec_module(_m{k})",
                  f"user_{k} = _m{k}.{func}", ""]
        calls.append(f"    if sid == {USER_BASE + k}:\n        return user_{k}(params, obs, hand, "
                     f"hand_n, pile, pile_n, options, n_options, rng, rng_row)")
    lines += ["@njit(cache=True)" if refcounted else "@njit(cache=True, _nrt=False)",
              "def choose_nb(sid, params, obs, hand, hand_n, pile, pile_n, options, n_options, rng, rng_row):",
              *calls,
              "    return builtin_choose_nb(sid, params, obs, hand, hand_n, pile, pile_n, options, "
              "n_options, rng, rng_row)", "", ""]
    body = engine_src.replace("from .dispatch_nb import choose_nb\n", "")
    body = body.replace("from .", "from crates_sim.")
    if refcounted:
        body = body.replace("from crates_sim.jit import allocating, kernel, leaf",
                            "from crates_sim.jit import allocating\n\nkernel = leaf = allocating")
    body += f"\nREFCOUNTED = {refcounted}\n"
    digest.update(b"nrt" if refcounted else b"fast")
    source = "\n".join(lines) + body
    name = "crates_engine_user_" + digest.hexdigest()[:16]
    path = cache_dir() / f"{name}.py"
    if not path.exists() or path.read_text(encoding="utf-8") != source:
        tmp = path.with_suffix(f".tmp{os.getpid()}")
        tmp.write_text(source, encoding="utf-8")
        os.replace(tmp, path)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    _GENERATED[key] = module
    return module
