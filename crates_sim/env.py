"""`crates_sim.env`, the public path of `crates_sim.play.env` (the same module object)."""

import sys

from .play import env as _module

sys.modules[__name__] = _module
