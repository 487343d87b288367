"""The package layout that installs (issue 26.5): every package lies under the root.

Contract: the top-level strategies/ and analysis/ folders are reached as
crates_sim.strategies and crates_sim.analysis through the links crates_sim/strategies and
crates_sim/analysis, and pyproject's only package-dir entry is "" = ".". That keeps
setuptools' editable install a plain .pth line (no import hook, no "folders with the same
name as your package" warning) while a wheel still ships the files themselves. These tests
read the source tree and pyproject.toml only; they build nothing.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _setuptools_config():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def test_every_package_is_listed_and_lies_where_its_name_says():
    """setuptools installs an editable checkout with a .pth line (and no warning) only
    when package-dir is {"": "."} and each package sits at its dotted path under the
    root; a package folder missing from the list would be missing from the wheel."""
    config = _setuptools_config()
    assert config["package-dir"] == {"": "."}
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
