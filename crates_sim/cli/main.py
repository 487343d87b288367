"""The `crates` command group: its help and the registration of every command.

Contract: `cli` is the group (`crates`, the console script); each command lives in its
family's module (`crates_sim.cli`'s docstring names them) and is added here, so that
`crates --help` lists them all. Nothing else is defined here.
"""

import click

from .. import __version__
from .analyse import analyse
from .bench import bench
from .common import CratesGroup
from .compile import compile_engine
from .contests import compare, ladder, tournament
from .demo import demo
from .design import balance, design
from .lab import sweep, tune
from .logs import replay, trace
from .play import play
from .rebuild import rebuild
from .reference import rules, strategies
from .report import report
from .simulate import simulate
from .train import train


@click.group(cls=CratesGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="crates-sim")
def cli():
    """crates-sim: simulate Crates and Crazy Eights between strategies and report on it.

    \b
    Examples, to start with:
      crates rules --list                          the rule presets
      crates strategies                            the built-in strategies and their parameters
      crates simulate --games 10000 --out runs/first
                                                   classic 4-player partnership games, random play
      crates trace --game 0 --out g.jsonl          one game as a JSON Lines log
      crates replay g.jsonl                        that log as a play-by-play
      crates report runs/first                     an HTML report of a simulate dataset
    """


#: every command, by family (the modules named in crates_sim.cli's docstring)
COMMANDS = (rules, strategies, trace, replay, compile_engine, simulate, report, play, train, analyse,
            compare, tournament, ladder, balance, design, sweep, tune, rebuild, demo, bench)
for command in COMMANDS:
    cli.add_command(command)
