"""The build backend: setuptools' own, with one notice of its editable install silenced.

Contract: every hook is setuptools.build_meta's. `build_editable` runs it with setuptools'
InformationOnly notices ignored: pyproject.toml's package-dir maps crates_sim alone, so
an editable install is setuptools' meta path finder (only crates_sim importable, as from
a wheel), and setuptools then always tells, through pip, to "be careful with folders in
your working directory with the same name as your package" (that folder is the package
itself here). Warnings of any other kind still show.
"""

import warnings

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F401,F403 - every hook as setuptools has it


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """setuptools' build_editable, without its InformationOnly notice."""
    from setuptools.command.editable_wheel import InformationOnly

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", InformationOnly)
        return _setuptools.build_editable(wheel_directory, config_settings, metadata_directory)
