"""The package layout that installs (issues 26.5, 32.6): crates_sim and nothing else.

Contract: the top-level strategies/ and analysis/ folders are reached as
crates_sim.strategies and crates_sim.analysis through the links crates_sim/strategies and
crates_sim/analysis, and pyproject's only package-dir entry maps crates_sim to itself.
setuptools' editable install is then its meta path finder for the one name crates_sim
(the notice it prints about it silenced by tools/build_backend.py), so that `import
analysis` from another folder fails as it would with a wheel, while a wheel still ships
the files themselves. These tests read the source tree and pyproject.toml, and import
from a scratch folder; they build nothing.
"""

from __future__ import annotations

import os
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _setuptools_config():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def test_every_package_is_listed_and_lies_where_its_name_says():
    """package-dir maps crates_sim alone (an editable install then maps that one name,
    not the checkout's root), and each package sits at its dotted path under the root;
    a package folder missing from the list would be missing from the wheel."""
    config = _setuptools_config()
    assert config["package-dir"] == {"crates_sim": "crates_sim"}
    found = set()
    for folder, _dirs, files in os.walk(ROOT / "crates_sim", followlinks=True):
        if "__init__.py" in files:
            found.add(".".join(Path(folder).relative_to(ROOT).parts))
    assert found == set(config["packages"]), found ^ set(config["packages"])
    assert {"crates_sim.strategies", "crates_sim.analysis"} <= found


@pytest.mark.parametrize("name", ["strategies", "analysis"])
def test_the_mapped_packages_are_the_top_level_folders(name):
    """crates_sim/<name> is a link to the top-level <name>/ folder, not a copy."""
    if not (ROOT / name).is_dir():
        pytest.skip("no top-level folder: an unpacked sdist holds the files themselves")
    link = ROOT / "crates_sim" / name
    assert link.is_symlink() and os.readlink(link) == f"../{name}"
    assert link.resolve() == ROOT / name


def test_the_shipped_weights_resolve_as_package_data():
    """strategies/apprentice.json is found through the package, as an installed copy
    finds it (pyproject's package-data)."""
    assert resources.files("crates_sim.strategies").joinpath("apprentice.json").is_file()
    assert "*.json" in _setuptools_config()["package-data"]["crates_sim.strategies"]


def test_only_crates_sim_is_importable_from_another_folder(tmp_path):
    """From a folder outside the checkout, crates_sim imports (from the checkout, when
    installed editable) and the checkout's other top-level folders do not: the install
    names the package, not the repository's root (issue 32.6)."""
    code = ("import crates_sim, importlib.util as u; print(crates_sim.__file__); "
            "print([m for m in ('analysis', 'strategies', 'tests', 'examples', 'tools') "
            "if u.find_spec(m) is not None])")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, check=True,
                         capture_output=True, text=True).stdout.splitlines()
    assert out[1] == "[]", f"importable from {tmp_path}: {out[1]}"


def test_the_version_is_a_leaf_read_by_pyproject():
    """crates_sim/_version.py imports nothing (data.manifest reads it without importing
    the package's front: no import circle) and pyproject takes the version from it."""
    import ast

    tree = ast.parse((ROOT / "crates_sim" / "_version.py").read_text())
    assert not [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert _setuptools_config()["dynamic"]["version"] == {"attr": "crates_sim._version.__version__"}
    manifest = (ROOT / "crates_sim" / "data" / "manifest.py").read_text()
    assert "from .. import" not in manifest and "from .._version import __version__" in manifest


def test_the_commands_live_in_cli_and_the_analyses_import_no_click():
    """Issue 32 §6: every click command is in crates_sim/cli/; analysis/ keeps the analyses
    and imports no click (the option vocabulary is declared once, in cli/options.py)."""
    import ast

    for path in sorted((ROOT / "analysis").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {alias.name.split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, (ast.Import, ast.ImportFrom))
                 for alias in (node.names if isinstance(node, ast.Import) else [ast.alias(node.module or "")])}
        assert "click" not in names, f"{path.name} imports click"
    assert not (ROOT / "analysis" / "cli_analysis.py").exists()


def _packages():
    for folder, _dirs, files in os.walk(ROOT / "crates_sim", followlinks=True):
        if "__init__.py" in files and "__pycache__" not in folder:
            yield Path(folder)


@pytest.mark.parametrize("folder", sorted(_packages()), ids=lambda p: p.name)
def test_each_package_docstring_names_every_module_in_it(folder):
    """A package's docstring names, in backquotes, each of its modules and subpackages
    (issue 40: engine/ lacked `warm`, play/ `log_decisions` and `observation`, runs/
    `train_adept`), so a newcomer reading it finds every file."""
    import ast

    doc = ast.get_docstring(ast.parse((folder / "__init__.py").read_text())) or ""
    names = {p.stem for p in folder.glob("*.py") if not p.stem.startswith("__")}
    names |= {p.name for p in folder.iterdir() if (p / "__init__.py").is_file()}
    missing = sorted(n for n in names if f"`{n}`" not in doc)
    assert not missing, f"{folder.name}/__init__.py's docstring does not name {missing}"


def test_no_user_facing_text_cites_an_issue_number():
    """`crates strategies` and every command's --help speak for themselves: "issue 30's
    findings" told a user nothing they could look up (issue 40)."""
    import re

    from click.testing import CliRunner

    from crates_sim.cli.main import cli

    runner = CliRunner()
    texts = {"strategies": runner.invoke(cli, ["strategies"]).output}
    for name in cli.commands:
        texts[name] = runner.invoke(cli, [name, "--help"]).output
    cited = {k: re.findall(r"issue \d+", v) for k, v in texts.items()}
    assert not any(cited.values()), cited
