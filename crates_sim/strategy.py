"""Strategy specs: parsing `greedy`, `pimc:samples=200`, `file.py:name:risk=0.3` into
per-seat strategy ids, parameter rows and decision-function addresses for the engine.

Contract: a spec is NAME[:key=value]... for a built-in, or FILE.py:FUNCTION[:key=value]...
(or package.module:FUNCTION...) for a user's function. Every parameter has a name, a
default and a range, declared once: a built-in's in its own module, beside its decision
function (gathered into BUILTINS below, by strategy_ids.REGISTRY); a user's with
`parameters`. An unknown name or a value out of range is a CratesError with one line of
text.
"""

from __future__ import annotations

from collections.abc import Mapping

from .errors import CratesError, did_you_mean
from .params import N_PARAMS
from .params import VIEW_PARTS as VIEW_PARTS  # (and parameters, reads: their older path)
from .params import describe_range as describe_range  # (`crates strategies` shows ranges)
from .params import parameters as parameters
from .params import reads as reads
from .strategy_ids import REGISTRY

#: the package that holds the built-ins' modules (strategy_ids.REGISTRY names them)
STRATEGIES_PACKAGE = "crates_sim.strategies"
_DECLARED = {}


def declaration(name: str):
    """The `crates_sim.params.Builtin` that built-in `name`'s module declares beside its
    decision function (`<NAME>_BUILTIN`); the module is imported on first use."""
    found = _DECLARED.get(name)
    if found is None:
        import importlib

        module = importlib.import_module(f"{STRATEGIES_PACKAGE}.{REGISTRY[name][1]}")
        found = _DECLARED[name] = getattr(module, f"{name.upper()}_BUILTIN")
    return found


def adapter_of(name: str, values=None) -> tuple[str, str]:
    """(module, function) of the adapter the engine calls for built-in `name` (one that
    is not compiled into the engine: `EXTERNAL`) played with parameter `values`: its
    declared adapter, or the one its declaration's `adapter_when` names when one of its
    parameters is set away from 0 (adept's search and stock)."""
    declared = declaration(name)
    adapter = declared.adapter
    if declared.adapter_when and any((values or {}).get(p, 0.0) != 0.0
                                     for p in declared.adapter_when[0]):
        adapter = declared.adapter_when[1]
    module, _, function = adapter.rpartition(".")
    return f"{STRATEGIES_PACKAGE}.{module or REGISTRY[name][1]}", function


def every_adapter() -> dict:
    """Every built-in adapter the engine may call, label -> (module, function): "NAME" for
    each external built-in's own, "NAME:PARAMETER" for the one its `adapter_when` names,
    "NAME:FUNCTION" for each function its adapter calls by address (`Builtin.calls`)."""
    found = {}
    for name in EXTERNAL:
        found[name] = EXTERNAL[name]
        declared = declaration(name)
        when = declared.adapter_when
        if when:
            found[f"{name}:{when[0][0]}"] = adapter_of(name, {when[0][0]: 1.0})
        for call in declared.calls:
            module, _, function = call.rpartition(".")
            found[f"{name}:{function}"] = (f"{STRATEGIES_PACKAGE}.{module}", function)
    return found


class _Builtins(Mapping):
    """BUILTINS: built-in name -> (id, description, {param: Param}), gathered from the
    declarations in the built-ins' own modules (strategy_ids.REGISTRY says which). A
    module is imported when one of its entries is first read; the names (`in`, listing)
    need no import."""

    def __getitem__(self, name):
        if not isinstance(name, str) or name not in REGISTRY:
            raise KeyError(name)
        declared = declaration(name)
        return REGISTRY[name][0], declared.about, declared.params

    def __contains__(self, name):
        return isinstance(name, str) and name in REGISTRY

    def __iter__(self):
        return iter(REGISTRY)

    def __len__(self):
        return len(REGISTRY)


class _External(Mapping):
    """EXTERNAL: the built-ins not compiled into the engine, name -> (module, adapter):
    those whose declaration names an `adapter`, which the engine calls by address like a
    user's function (pimc, expert, ...)."""

    def __getitem__(self, name):
        if name not in self:
            raise KeyError(name)
        return adapter_of(name)

    def __contains__(self, name):
        return isinstance(name, str) and name in REGISTRY and bool(declaration(name).adapter)

    def __iter__(self):
        return iter([name for name in REGISTRY if name in self])

    def __len__(self):
        return sum(1 for _ in self)


#: built-in strategy name -> (id, description, {param: Param}), in the order of
#: strategy_ids.REGISTRY. Ids (strategy_ids) below N_INLINE, KEEP3 and SOFTMAX are compiled
#: into the engine; the others (pimc, expert, ...) are called by address like a user's
#: function (their adapter is `EXTERNAL[name]`). `tuned` is `weights` (the same id) with
#: other defaults.
BUILTINS = _Builtins()
#: built-ins not compiled into the engine: name -> (module, adapter function)
EXTERNAL = _External()


def parse_spec(spec: str):
    """`name:key=value:...` -> (name, {key: float}) for a built-in, or
    (("file.py" | "pkg.module", "func"), {key: float}) for a user's function; names and
    ranges checked against the declared parameters."""
    from .userstrat import declared_parameters, is_user_spec, load_function

    name, *pairs = [part.strip() for part in spec.split(":")]
    if is_user_spec(name):
        if not pairs or "=" in pairs[0] or not pairs[0]:
            raise CratesError(f"strategy {spec!r}: name the function, as {name}:FUNCTION")
        name, pairs = (name, pairs[0]), pairs[1:]
        known = declared_parameters(load_function(*name, agents=True)[2])
        shown = f"{name[0]}:{name[1]}"
    elif name not in BUILTINS:
        raise CratesError(f"unknown strategy {name!r}{did_you_mean(name, BUILTINS)}; "
                          f"built-ins: {', '.join(BUILTINS)} "
                          f"(or your own: file.py:function)")
    else:
        known = BUILTINS[name][2]
        shown = name
    values = {}
    for pair in pairs:
        key, eq, raw = pair.partition("=")
        if not eq:
            raise CratesError(f"strategy {shown}: give parameters as key=value, not {pair!r} "
                              f"(parameters: {', '.join(known) or 'none declared'})")
        if key not in known:
            raise CratesError(f"strategy {shown}: bad parameter {pair!r}{did_you_mean(key, known)} "
                              f"(parameters: {', '.join(known) or 'none declared'})")
        try:
            value = float(raw)
        except ValueError:
            raise CratesError(f"strategy {shown}: {key}={raw!r} is not a number") from None
        values[key] = known[key].check(shown, key, value)
    return name, values


class Lineup(list):
    """A run's strategies, parsed once: the list of specs, one per seat (as text: it
    compares, prints and serialises as that list), and what later steps read from them
    without parsing again: `parsed` (per seat, `parse_spec`'s (name, values)), `users`
    (the distinct user functions), `ids_params()` (`resolve`) and `addresses()` (the
    adapters' addresses, valid in the process that found them: not pickled, so that a
    worker finds its own). Made by `parse_strategies`; treat it as read-only."""

    def __init__(self, specs=()):
        super().__init__(specs)
        self.parsed = [parse_spec(spec) for spec in self]
        self.users = list(dict.fromkeys(name for name, _ in self.parsed if isinstance(name, tuple)))
        self._ids_params = None
        self._addresses = None

    def __getstate__(self):
        return {**self.__dict__, "_addresses": None}

    def ids_params(self):
        """Per-seat strategy ids and parameter rows (seats x N_PARAMS) for the kernels."""
        if self._ids_params is None:
            self._ids_params = _ids_params(self)
        ids, params = self._ids_params
        return ids.copy(), params.copy()  # callers may change theirs (an agent's seat)

    def addresses(self):
        """Per seat, the address of the engine's adapter for it in this process, else 0."""
        if self._addresses is None:
            self._addresses = _addresses(self)
        return self._addresses.copy()


def lineup(specs) -> Lineup:
    """`specs` as a Lineup: itself if it is one, else parsed (once)."""
    return specs if isinstance(specs, Lineup) else Lineup(specs)


def split_specs(text) -> list[str]:
    """The specs of `a,b,c` (or of a list of them), stripped, empty ones dropped; not checked."""
    return [s for s in (s.strip() for s in (text.split(",") if isinstance(text, str) else text)) if s]


def parse_strategies(text, players: int) -> Lineup:
    """Split `a,b,c,d` (or one name for every seat) into one spec per seat, validated and
    parsed (a Lineup, a list of the specs; one already parsed for `players` seats is
    returned as it is)."""
    if isinstance(text, Lineup) and len(text) == players:
        return text
    specs = split_specs(text)
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise CratesError(f"{len(specs)} strategies for {players} players: give one per seat "
                          f"(or one for all)")
    return Lineup(specs)


def user_functions(specs) -> list[tuple[str, str]]:
    """The distinct user functions of a run, in order of first appearance."""
    return list(lineup(specs).users)


def resolve(specs):
    """Per-seat strategy ids and parameter rows (seats x N_PARAMS) for the kernels."""
    return lineup(specs).ids_params()


def _ids_params(specs: Lineup):
    import numpy as np

    from .userstrat import USER_BASE, declared_parameters, load_function, view_flags

    ids = np.zeros(len(specs), dtype=np.int64)
    params = np.zeros((len(specs), N_PARAMS), dtype=np.float64)
    for seat, (name, values) in enumerate(specs.parsed):
        if isinstance(name, tuple):
            fn = load_function(*name)[2]
            ids[seat] = USER_BASE + specs.users.index(name) + view_flags(fn)
            known = declared_parameters(fn)
        else:
            ids[seat] = BUILTINS[name][0]
            known = BUILTINS[name][2]
        for j, (key, param) in enumerate(known.items()):
            params[seat, j] = values.get(key, param.default)
    return ids, params


def addresses(specs):
    """Per seat, the address of the decision adapter the engine calls for a strategy that
    is not compiled into it (pimc, users' functions), else 0. Compiles the adapters in
    this process on first use (addresses are valid in this process only)."""
    return lineup(specs).addresses()


def _addresses(specs: Lineup):
    import importlib

    import numpy as np

    from .engine.indirect import address_of
    from .userstrat import adapter_address

    out = np.zeros(len(specs), dtype=np.int64)
    for seat, (name, values) in enumerate(specs.parsed):
        if isinstance(name, tuple):
            out[seat] = adapter_address(*name)
        elif name in EXTERNAL:
            module, func = adapter_of(name, values)
            out[seat] = address_of(getattr(importlib.import_module(module), func))
    return out
