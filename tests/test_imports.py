"""The imports run one way (issue 40): pyproject.toml's import-linter layers contract.

Contract: `lint-imports` (import-linter, in the `test` extra) keeps every contract of
pyproject's [tool.importlinter]: cli > analysis > runs > play > engine > data, imports made
inside functions included; the exceptions it ignores are listed there with their reason.
"""

from __future__ import annotations

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
