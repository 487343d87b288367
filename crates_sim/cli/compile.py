"""`crates compile`: the engine and every built-in strategy into numba's cache.

Contract: loads (or, cold, compiles) what every documented command uses, and with
--strategies checks and compiles those specs' adapters too; `make setup` runs it.
"""

from __future__ import annotations

import click

__all__ = ["compile_engine"]


@click.command("compile")
@click.option("--strategies", "-s", default="", metavar="A,B,...",
              help="Also compile these strategies' adapters (pimc, your FILE.py:FUNCTION).")
def compile_engine(strategies):
    """Compile the engine into numba's cache, so that the first run starts at once.

    Compiles what every documented command uses: the engine, every built-in strategy
    (pimc, expert, apprentice ...), the step engine of `play` and the replays. Cold (a
    new machine, an upgrade) it takes 18-40 s on two cores; then every later
    command loads it from the cache in about a second. --strategies also compiles (and
    checks) your own. `make setup` runs this; a command run on a cold cache compiles
    what it needs by itself.

    \b
    Examples:
      crates compile
      crates compile --strategies pimc
      crates compile --strategies mybots.py:cautious   (checks that it compiles)
    """
    import time

    from ..engine.api import prepare
    from ..runs.warm import compile_everything
    from ..strategy import parse_spec

    specs = [s.strip() for s in strategies.split(",") if s.strip()]
    for spec in specs:
        parse_spec(spec)
    t0 = time.perf_counter()
    seconds, cold = compile_everything(echo=lambda line: click.echo(line, err=True))
    seconds += prepare(specs) if specs else 0.0
    state = f"compiled in {seconds:.0f} s" if cold or seconds > 0.5 else "loaded from the cache"
    click.echo(f"engine and built-in strategies ready ({state}; {time.perf_counter() - t0:.1f} s)",
               err=True)
