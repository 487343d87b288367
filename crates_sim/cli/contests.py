"""`crates compare`, `crates tournament` and `crates ladder`: strategies against each other.

Contract: thin click commands over crates_sim.analysis (compare, tournament, ladder); each
takes the shared options of `options` and prints what the analysis returns.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..errors import CratesError
from ..strategy import parse_strategies, split_specs
from .options import (
    checked_workers as _workers,
)
from .options import (
    games_option,
    out_option,
    rules_options,
    scheduler_option,
    seed_option,
    strategies_option,
    workers_option,
)

__all__ = ["compare", "ladder", "tournament"]


@click.command()
@rules_options
@strategies_option(required=True,
                   help="Strategies to compare, comma-separated (2 for partnership games, at most one per seat).")
@games_option(1000, help="Deals to play (each once per rotation of the strategies over the seats).")
@seed_option()
@out_option()
@click.option("--precision", type=float, default=None,
              help="Keep adding deals until every score-difference CI half-width is below this many points.")
@click.option("--max-games", type=click.IntRange(1, None), default=1_000_000, show_default=True,
              help="Cap on deals for --precision.")
@scheduler_option
@workers_option
@click.option("--cost", type=int, default=0, show_default=True, metavar="GAMES",
              help="Also time each strategy, and greedy, per turn: GAMES games with it in every "
                   "seat, one core, after the tournament (0: not timed).")
@click.option("--tables", default=None, metavar="every|three|drawn:N:SEED",
              help="One comparison per table instead of the rules above: every preset at every "
                   "player count (Crates with 4 both with and without partnerships), three "
                   "(classic with and without partnerships, crazy-eights), or N rule sets drawn from the whole knob space with SEED; join with "
                   "+. Table T plays seed SEED + T into OUT/T-...; OUT/tables.csv has the first "
                   "strategy against each other one on every table.")
@click.pass_context
def compare(ctx, rules, strategies, games, seed, out, precision, max_games, workers, scheduler,
            cost, tables):
    """Compare strategies in a duplicate tournament (common random numbers).

    Every deal is played once per rotation of the strategies over the seats, so each
    strategy holds the same cards from every seat and the luck of the deal cancels.
    Writes OUT/compare.html (+ .md, PNGs), pairs.csv, ranking.csv, compare.json,
    per_deal.parquet and the raw games under OUT/results/ (a dataset for `crates report`).

    \b
    Examples:
      crates compare --strategies greedy,random --games 2000 --seed 1 --out cmp/gr
      crates compare -p classic -n 4 --no-partnerships --strategies hoard3,dump3,greedy,random \\
          --games 5000 --out cmp/four
      crates compare --strategies hoard3,dump3 --games 1000 --precision 5 --out cmp/h3
      crates compare --strategies expert,pimc --games 500 --cost 4 --out cmp/ep
      crates compare --strategies adept,tuned --tables every --games 1000 --seed 38300 \\
          --out cmp/every
      crates compare --strategies adept,greedy --tables drawn:10:3801 --games 200 --out cmp/drawn
    """
    from crates_sim.analysis.compare import compare as run_compare
    from crates_sim.analysis.compare import pair_table

    specs = split_specs(strategies)
    if len(specs) < 2:
        raise CratesError("--strategies: give at least two strategies to compare")
    for spec in specs:
        parse_strategies(spec, 1)
    if games < 2:
        raise CratesError("--games must be at least 2")
    if cost < 0:
        raise CratesError("--cost must be 0 (off) or a number of games")
    if tables is not None:
        return _compare_tables(ctx, tables, specs, games, seed, out, precision, workers,
                               scheduler, cost)
    res = run_compare(rules, specs, games, seed, out, precision, max_games, _workers(workers),
                      echo=click.echo, scheduler=scheduler)
    click.echo(f"{res['games']:,} deals x {res['rotations']} rotations in {res['wall']:.1f} s "
               f"({rules.describe()}, {rules.players} players)")
    click.echo(pair_table(res["pairs"]).to_string(index=False))
    rank = res["ranking"]
    click.echo("ranking: " + ", ".join(f"{r} {s}" for r, s in zip(rank["rank"], rank["strategy"], strict=True)))
    d = res["design"]
    if d and d.get("ratio") is not None:
        click.echo(f"duplicate design: independent deals would have {d['ratio'].estimate:.2f}x the variance "
                   f"[{d['ratio'].lo:.2f}, {d['ratio'].hi:.2f}]")
    if res["precision"] is not None and not res["reached"]:
        click.echo(f"precision {res['precision']} not reached within --max-games {max_games:,}", err=True)
    if cost:
        from crates_sim.analysis.compare import cost_lines, cost_per_turn

        costs = cost_per_turn(rules, specs, cost, seed)
        click.echo(f"cost per turn ({cost} games each, every seat the strategy, one core):")
        for line in cost_lines(costs, specs[-1]):
            click.echo(line)
        summary = Path(out) / "compare.json"
        data = json.loads(summary.read_text())
        data["cost_us_per_turn"] = costs
        summary.write_text(json.dumps(data, indent=1, default=float))
    click.echo(f"report: {res['paths']['html']}")


def _compare_tables(ctx, tables, specs, games, seed, out, precision, workers, scheduler, cost):
    """`crates compare --tables`: analysis.tables.compare_tables."""
    from crates_sim.analysis.tables import compare_tables
    from crates_sim.knob_space import parse_tables

    named = [n for n in ("preset", "players", "partnerships", "settings", "precision")
             if ctx.get_parameter_source(n).name != "DEFAULT"]
    if named:
        raise CratesError(f"--tables names the rules itself: drop --{named[0]}")
    rows = compare_tables(parse_tables(tables), specs, games, seed, out, _workers(workers),
                          cost, echo=click.echo, scheduler=scheduler)
    click.echo(f"{len(rows)} rows: {Path(out) / 'tables.csv'}")


@click.command()
@rules_options
@strategies_option(required=True,
                   help="The entrants, comma-separated: two or more distinct strategy specs "
                        "(built-ins, FILE.py:FUNCTION @njit functions, FILE.py:Agent Python agents).")
@games_option(1000, help="Deals per match (each played once per rotation of the match's entrants).")
@seed_option()
@out_option(help="Output folder; run again into it with more entrants to play only their matches.")
@scheduler_option
@workers_option
@click.option("--no-samples", is_flag=True, help="Skip the sample game (a replay page) per match.")
def tournament(rules, strategies, games, seed, out, scheduler, workers, no_samples):
    """Rate any number of strategies: duplicate matches, Bradley–Terry ratings.

    Partnership games: every pair of entrants plays a match, one per team. Individual
    games: every table of PLAYERS entrants plays one (so every pair meets equally often),
    the entrants rotated over the seats on every deal. Ratings are on the Elo scale (mean
    1500) with bootstrap 95% CIs over the deals. Writes OUT/ratings.csv (strategy,
    rating, lo, hi, games), OUT/matrix.csv (strategy, opponent, score, lo, hi, deals: the
    share of games the strategy beat the opponent in), OUT/tournament.html (leaderboard,
    heat map, a sample game per match) and each match's results as Parquet in
    OUT/matches/. The same command with one more entrant plays only the new matches.

    \b
    Examples:
      crates tournament -s greedy,random,hoard3,dump3,aggressive,tuned --games 1000 --out league
      crates tournament -s greedy,random,hoard3,dump3,aggressive,tuned,partner --games 1000 --out league
      crates tournament -p crazy-eights -n 3 -s greedy,random,weights,tuned --games 2000 --out c8
      crates tournament -s greedy,examples/agents.py:GreedyAgent,random --games 200 --out py
    """
    from crates_sim.analysis.tournament import tournament as run_tournament

    specs = split_specs(strategies)
    for spec in specs:
        parse_strategies(spec, 1)
    res = run_tournament(rules, specs, games, seed, out, workers=_workers(workers),
                         scheduler=scheduler, echo=click.echo, samples=not no_samples)
    click.echo(f"{res['matches']} matches ({res['played']} played now in {res['wall']:.1f} s; "
               f"{rules.describe()}, {rules.players} players)")
    for row in res["ratings"].itertuples():
        click.echo(f"  {row.strategy:<28} {row.rating:7.0f}  [{row.lo:.0f}, {row.hi:.0f}]  "
                   f"{row.games:,} games")
    click.echo(f"report: {res['paths']['html']}")


@click.command()
@rules_options
@click.option("--rungs", "-r", default=5, show_default=True, type=click.IntRange(1, None),
              help="Rungs: expert with 2, 4, ... 2**RUNGS samples, each against the one below "
                   "(1 sample at the bottom).")
@games_option(200, help="Deals per rung (each played once per rotation of the seats).")
@seed_option(help="Seed of the deals (rung K plays seed + K)")
@out_option()
@workers_option
def ladder(rules, rungs, games, seed, out, workers):
    """A skill ladder: how much more search keeps paying in a rule set.

    `expert` with 1, 2, 4, 8 ... samples per decision, each rung against the rung
    below in a duplicate comparison (as `crates compare`). A rung "wins" when it takes
    at least 55% of the two rungs' wins; the number of rungs that win measures how much
    skill the rule set rewards. Writes OUT/ladder.csv, OUT/ladder.json and each rung's
    comparison under OUT/rung-K/. Cost: the top rung dominates (expert with 2**RUNGS
    samples: about 2**RUNGS / 30 times pimc's default cost per turn).

    \b
    Examples:
      crates ladder --preset classic --rungs 5 --games 200 --out ladder/classic
      crates ladder -p crazy-eights -n 4 --rungs 4 --games 300 --out ladder/c8
    """
    from crates_sim.analysis.ladder import ladder as run_ladder

    click.echo(f"skill ladder, {rules.describe()}, {rules.players} players: {rungs} rungs x "
               f"{games} deals")
    table = run_ladder(rules, rungs, games, seed, out, _workers(workers), echo=click.echo)
    click.echo(f"rungs winning >= 55%: {int(table['wins'].sum())} of {len(table)}")
    click.echo(f"table: {Path(out) / 'ladder.csv'}")

