"""One home for a strategy (issue 40): each built-in's module declares it beside its decision
function, its kernels read the parameters by named slots, and the registry gathers them.

Contract checked here: every entry of `strategy_ids.REGISTRY` has its declaration
`<NAME>_BUILTIN` in its module, with one named constant `<NAME>_<PARAMETER>` per parameter
whose value is the parameter's slot (so a declaration and its constants cannot drift
apart); no kernel reads a parameter by a bare number; the ids recorded in data keep their
numbers; and a new built-in needs nothing but its module and one registry line.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from crates_sim import strategy
from crates_sim.params import N_PARAMS, Builtin, Param, slots
from crates_sim.strategy_ids import REGISTRY, USER_BASE

ROOT = Path(__file__).resolve().parents[1]

#: the ids as data records them: they never change
RECORDED_IDS = {"random": 0, "greedy": 1, "hoard3": 2, "dump3": 3, "aggressive": 4,
                "partner": 5, "weights": 6, "tuned": 6, "pimc": 7, "keep3": 8, "expert": 9,
                "apprentice": 10, "adept": 12, "thumb": 13, "guided": 14}


def _module(name):
    return importlib.import_module(f"{strategy.STRATEGIES_PACKAGE}.{REGISTRY[name][1]}")


def _primary(name):
    """The first registry entry with `name`'s id (`tuned` -> `weights`): the one whose
    kernel reads the parameters, by its own constants."""
    sid = REGISTRY[name][0]
    return next(n for n, (i, _) in REGISTRY.items() if i == sid)


def test_the_ids_keep_their_numbers():
    assert {name: sid for name, (sid, _) in REGISTRY.items()} == RECORDED_IDS
    assert all(0 <= sid < USER_BASE for sid, _ in REGISTRY.values())
    ids = [sid for name, (sid, _) in REGISTRY.items() if _primary(name) == name]
    assert len(ids) == len(set(ids)), "two built-ins share an id"


@pytest.mark.parametrize("name", list(REGISTRY))
def test_each_module_declares_its_builtin(name):
    from crates_sim.engine.dispatch_nb import is_inline

    module = _module(name)
    declared = getattr(module, f"{name.upper()}_BUILTIN")
    assert isinstance(declared, Builtin) and declared.about
    assert 0 < len(declared.params) <= N_PARAMS
    assert all(isinstance(p, Param) and p.low <= p.default <= p.high and p.text
               for p in declared.params.values())
    assert strategy.BUILTINS[name] == (REGISTRY[name][0], declared.about, declared.params)
    # called by address exactly when the engine does not compile it in (dispatch_nb)
    assert bool(declared.adapter) == (not is_inline.py_func(REGISTRY[name][0]))
    if declared.adapter:  # "function" in the module, or "module.function" beside it
        for adapter in (declared.adapter, *declared.adapter_when[1:]):
            where, _, function = adapter.rpartition(".")
            home = importlib.import_module(f"{strategy.STRATEGIES_PACKAGE}.{where}") if where else module
            assert callable(getattr(home, function))
        assert strategy.EXTERNAL[name] == (module.__name__, declared.adapter)
        if declared.adapter_when:  # ((parameter, ...), adapter): each one of its own
            first = declared.adapter_when[0][0]
            for parameter in declared.adapter_when[0]:
                assert parameter in declared.params
                assert strategy.adapter_of(name, {parameter: 1.0}) == (home.__name__, function)
            assert strategy.adapter_of(name, {}) == strategy.EXTERNAL[name]
            assert f"{name}:{first}" in strategy.every_adapter()
        for call in declared.calls:  # what its adapter calls by address: compiled with it
            module_name, _, function = call.rpartition(".")
            home = importlib.import_module(f"crates_sim.strategies.{module_name}")
            assert callable(getattr(home, function))
            assert strategy.every_adapter()[f"{name}:{function}"] == (home.__name__, function)
    else:
        assert name not in strategy.EXTERNAL


@pytest.mark.parametrize("name", list(REGISTRY))
def test_the_named_slots_match_the_declaration(name):
    """params[<NAME>_<PARAMETER>] is that parameter: each constant is its parameter's
    place in the declaration, and no constant of the prefix is left without one."""
    primary = _primary(name)
    declared = strategy.BUILTINS[name][2]
    if primary != name:  # tuned: weights' kernel, weights' names and slots
        assert list(declared) == list(strategy.BUILTINS[primary][2])
        return
    module = _module(name)
    prefix = name.upper() + "_"
    for slot, key in enumerate(declared):
        constant = prefix + key.upper()
        assert getattr(module, constant, None) == slot, f"{module.__name__}.{constant} != {slot}"
    wanted = {prefix + key.upper() for key in declared}
    stray = {k for k, v in vars(module).items()
             if k.startswith(prefix) and type(v) is int and k not in wanted}
    assert not stray, f"{module.__name__}: constants without a parameter: {sorted(stray)}"


def test_a_dropped_parameter_fails_at_import():
    declared = Builtin("two", {"a": Param(0.0), "b": Param(1.0)})
    a, b = slots(declared)
    assert (a, b) == (0, 1)
    with pytest.raises(ValueError):
        a, b, c = slots(declared)  # noqa: F841 (a constant left behind: unpacking fails)
    with pytest.raises(Exception, match="at most"):
        slots({f"p{i}": Param(0.0) for i in range(N_PARAMS + 1)})


def _python_files():
    # crates_sim/strategies is a link to strategies/: walk both, as the folders they are
    for folder in ("crates_sim", "strategies"):
        yield from sorted((ROOT / folder).rglob("*.py"))


def test_no_parameter_is_read_by_its_number():
    """`params[2]`, `params[1:]` (`t_params[0]` ...) with a literal index are what
    the named slots replaced: none is left in crates_sim/ or strategies/."""
    rows = re.compile(r"params$")
    found = []
    for path in _python_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)
                    and rows.search(node.value.id)):
                continue
            index = node.slice.lower if isinstance(node.slice, ast.Slice) else node.slice
            if isinstance(index, ast.Constant) and isinstance(index.value, int):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {ast.unparse(node)}")
    assert not found, found


def test_the_registry_reads_names_without_importing():
    assert list(strategy.BUILTINS) == list(REGISTRY)
    assert "greedy" in strategy.BUILTINS and "nope" not in strategy.BUILTINS
    assert ("file.py", "fn") not in strategy.BUILTINS and 3 not in strategy.EXTERNAL
    assert strategy.BUILTINS.get("nope") is None
    assert "greedy" not in strategy.EXTERNAL and "pimc" in strategy.EXTERNAL


@pytest.fixture
def tiny(monkeypatch):
    """tests/data/tiny_builtin.py, added as a built-in the way docs/strategies.md says:
    its module (here loaded as crates_sim.strategies.tiny) and one registry line."""
    assert 15 not in [sid for sid, _ in REGISTRY.values()], "15 is taken: pick a free id"
    name = f"{strategy.STRATEGIES_PACKAGE}.tiny"
    spec = importlib.util.spec_from_file_location(name, ROOT / "tests" / "data" / "tiny_builtin.py")
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, module)
    spec.loader.exec_module(module)
    monkeypatch.setitem(REGISTRY, "tiny", (15, "tiny"))
    monkeypatch.setattr(strategy, "_DECLARED", dict(strategy._DECLARED))
    return module


def test_a_new_builtin_is_its_module_and_one_registry_line(tiny):
    from crates_sim.engine.api import run_games
    from crates_sim.rules import Rules

    assert strategy.parse_spec("tiny:last=1") == ("tiny", {"last": 1.0})
    with pytest.raises(Exception, match="out of range"):
        strategy.parse_spec("tiny:last=2")
    assert strategy.EXTERNAL["tiny"] == (tiny.__name__, "tiny_entry")
    ids, params = strategy.resolve(["tiny:forget=0.5"])
    assert ids[0] == 15 and params[0, tiny.TINY_FORGET] == 0.5

    def totals(spec):
        res = run_games(Rules.preset("classic", 4), [spec, "greedy", "random", "greedy"], 3, 0,
                        6, detail="games")
        return np.asarray(res.games["total"]).tolist()

    assert totals("tiny") == totals("greedy")  # last=0: greedy's decisions, by address
    assert totals("tiny:last=1") != totals("greedy")


def test_the_docs_walk_through_is_this_module():
    """docs/strategies.md's "Adding a built-in" shows tests/data/tiny_builtin.py as it is."""
    text = (ROOT / "tests" / "data" / "tiny_builtin.py").read_text()
    body = text[text.index("from crates_sim"):].strip()
    doc = (ROOT / "docs" / "strategies.md").read_text()
    assert f"```python\n{body}\n```" in doc
    assert '`"tiny": (15, "tiny"),`' in doc
