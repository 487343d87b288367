"""The imports run one way (issue 40): pyproject.toml's import-linter layers contract.

Contract: `lint-imports` (import-linter, in the `test` extra) keeps every contract of
pyproject's [tool.importlinter], imports made inside functions included: one layers
contract, from the top: `python -m crates_sim`, cli, analysis (with strategies.expert_fit),
runs, env, play, the engine's Python API (engine.api), the specs (strategy, userstrat),
the searches (strategies: expert, adept, apprentice, pimc, thumb), the engine's kernels
(the rest of engine/), the policies compiled into them (strategies.heuristic, then
strategies.builtin), view, core (jit decorators, random streams), knob_space, then the
vocabulary (rules, params, strategy_ids; cards, data; errors, lazy, _version). The
exceptions it ignores are listed there with their reason. Every module of crates_sim is
in one layer, but the packages' fronts (crates_sim, engine, strategies' __init__).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_layers_contract_is_kept():
    pytest.importorskip("importlinter")
    lint = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(lint)], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "0 broken" in result.stdout and "1 kept" in result.stdout, result.stdout[-2000:]


def _layers():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    (contract,) = config["contracts"]
    assert contract["type"] == "layers"
    return [[name.strip() for name in layer.replace(":", "|").split("|")]
            for layer in contract["layers"]]


#: the packages' fronts, in no layer: crates_sim's __init__ (the Python API's names) and
#: the lazy fronts of engine/ (its modules span two layers) and strategies/ (four)
FRONTS = {"crates_sim", "crates_sim.engine", "crates_sim.strategies"}


def test_every_module_is_in_one_layer():
    """A module added anywhere in crates_sim (the strategies/ and analysis/ folders
    included) is checked by the contract: it lies in, or under, exactly one layer."""
    named = [name for layer in _layers() for name in layer]
    modules = set()
    for folder, _dirs, files in os.walk(ROOT / "crates_sim", followlinks=True):
        package = Path(folder).relative_to(ROOT).parts
        for file in files:
            if file.endswith(".py"):
                stem = file[:-3]
                modules.add(".".join(package if stem == "__init__" else (*package, stem)))
    assert len(modules) > 100
    for module in sorted(modules - FRONTS):
        layers = [name for name in named if module == name or module.startswith(name + ".")]
        assert len(layers) == 1, f"{module} is in the layers {layers}"
    assert all(name in modules for name in named), sorted(set(named) - modules)


def test_the_policies_lie_below_the_engine_and_the_searches_above_it():
    """The split of strategies/ (issue 40): what the engine compiles in (dispatch_nb's
    policies) below its kernels, what plays out positions on them above."""
    flat = [layer[0] if len(layer) == 1 else tuple(layer) for layer in _layers()]
    where = {name: i for i, layer in enumerate(_layers()) for name in layer}
    kernels = where["crates_sim.engine.engine_nb"]
    for policy in ("builtin", "heuristic"):
        assert where[f"crates_sim.strategies.{policy}"] > kernels, flat
    for search in ("pimc", "expert", "adept", "apprentice", "thumb"):
        assert where[f"crates_sim.strategies.{search}"] < kernels, flat
    assert where["crates_sim.engine.api"] < where["crates_sim.strategy"] < where["crates_sim.strategies.pimc"]
    assert where["crates_sim.view"] > where["crates_sim.strategies.builtin"]
    assert where["crates_sim.core"] > where["crates_sim.view"]


def test_the_engine_imports_nothing_above_it():
    """The four arrows that ran back up (engine/warm.py and engine/api.py importing from
    play/ and runs/) are gone: warm-up is runs.warm, the CPU count data.machine, and
    whether a spec is a Python agent userstrat's."""
    import ast

    above = ("crates_sim.play", "crates_sim.runs", "crates_sim.analysis", "crates_sim.cli")
    for path in sorted((ROOT / "crates_sim" / "engine").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                target = "crates_sim." + (node.module or "") if node.level == 2 else ""
                assert not target.startswith(above), f"{path.name}:{node.lineno} imports {target}"
