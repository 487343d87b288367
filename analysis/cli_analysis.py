"""`crates report`, `crates compare` and `crates balance`: click commands over the analysis layer."""

from __future__ import annotations

import json
from pathlib import Path

import click

from crates_sim.cli.common import rules_options
from crates_sim.errors import CratesError
from crates_sim.rules import Rules
from crates_sim.strategy import parse_strategies


def _workers(value):
    if value is not None and value < 1:
        raise CratesError("--workers must be at least 1")
    return value


@click.command()
@click.argument("dataset", metavar="DIR", type=click.Path(file_okay=True, dir_okay=True))
@click.option("--out", "-o", type=click.Path(dir_okay=False), default=None,
              help="The HTML file to write (default DIR/report.html); PNGs and a .md go beside it.")
def report(dataset, out):
    """Write an HTML report of a `crates simulate` dataset.

    \b
    Sections: Overview, 3-hoarding, Pressures, Seat effects, Game flow. Figures are
    embedded in the HTML and also written as PNG files beside it, with a Markdown
    summary (FILE.md). Every number carries a 95% confidence interval.

    \b
    Examples:
      crates simulate --games 20000 --strategies hoard3,dump3 --seed 1 --out runs/h
      crates report runs/h                       writes runs/h/report.html
      crates report runs/h --out reports/h.html  and reports/h-*.png, reports/h.md
    """
    from .report import report as make_report

    paths = make_report(dataset, out)
    click.echo(f"report: {paths['html']}")
    click.echo(f"summary: {paths['markdown']}")
    click.echo(f"figures: {len(paths['figures'])} PNG files beside it")


@click.command()
@rules_options
@click.option("--strategies", "-s", required=True,
              help="Strategies to compare, comma-separated (2 for partnership games, at most one per seat).")
@click.option("--games", "-g", default=1000, show_default=True, type=int,
              help="Deals to play (each once per rotation of the strategies over the seats).")
@click.option("--seed", default=0, show_default=True, type=int, help="Seed of the deals.")
@click.option("--out", "-o", required=True, type=click.Path(file_okay=False), help="Output folder.")
@click.option("--precision", type=float, default=None,
              help="Keep adding deals until every score-difference CI half-width is below this many points.")
@click.option("--max-games", type=int, default=1_000_000, show_default=True,
              help="Cap on deals for --precision.")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT|local:K",
              help="Run on a Dask cluster, as `crates simulate --scheduler` (needs crates-sim[dask]).")
@click.option("--workers", type=int, default=None, help="Worker processes (default: every CPU).")
@click.option("--cost", type=int, default=0, show_default=True, metavar="GAMES",
              help="Also time each strategy, and greedy, per turn: GAMES games with it in every "
                   "seat, one core, after the tournament (0: not timed).")
def compare(rules, strategies, games, seed, out, precision, max_games, workers, scheduler, cost):
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
    """
    from .compare import compare as run_compare
    from .compare import pair_table

    specs = [s.strip() for s in strategies.split(",") if s.strip()]
    if len(specs) < 2:
        raise CratesError("--strategies: give at least two strategies to compare")
    for spec in specs:
        parse_strategies(spec, 1)
    if games < 2:
        raise CratesError("--games must be at least 2")
    if cost < 0:
        raise CratesError("--cost must be 0 (off) or a number of games")
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
        from .compare import cost_lines, cost_per_turn

        costs = cost_per_turn(rules, specs, cost, seed)
        click.echo(f"cost per turn ({cost} games each, every seat the strategy, one core):")
        for line in cost_lines(costs, specs[-1]):
            click.echo(line)
        summary = Path(out) / "compare.json"
        data = json.loads(summary.read_text())
        data["cost_us_per_turn"] = costs
        summary.write_text(json.dumps(data, indent=1, default=float))
    click.echo(f"report: {res['paths']['html']}")


@click.command()
@click.option("--variants", "-V", default=None,
              help="Comma-separated presets or preset:knob=value,... specs; quote specs that hold "
                   "commas, e.g. classic,league,\"classic:seven_target=next\".")
@click.option("--knobs", "-k", default=None, metavar="all|K1,K2=V1|V2,...",
              help="What each knob does: every value of these knobs (all: every knob of the family but "
                   "the safety limits) tried one at a time from --base; writes knobs.csv and knobs.html.")
@click.option("--base", default="classic", show_default=True, help="The preset --knobs deviates from.")
@click.option("--players", "-n", default=4, show_default=True, type=int, help="Number of players.")
@click.option("--strategies", "-s", default="greedy,random", show_default=True,
              help="One strategy for every seat; one per seat (a,b,c,d as `crates simulate` takes "
                   "them), rotated so each plays from every seat; or fewer, rotated over the seats "
                   "(2 for partnership variants: one per team).")
@click.option("--games", "-g", default=1000, show_default=True, type=int, help="Deals per variant.")
@click.option("--seed", default=0, show_default=True, type=int, help="Seed of the deals.")
@click.option("--out", "-o", required=True, type=click.Path(file_okay=False), help="Output folder.")
@click.option("--ideal-turns", default=None, metavar="LO..HI",
              help="A band of turns per game: duration then also gives the share of games inside it.")
@click.option("--strong", default="tuned", show_default=True,
              help="The strong player of skill_gap (its win-rate difference against greedy and random).")
@click.option("--skill-games", type=int, default=None,
              help="Duplicate deals per variant for skill_gap (default: --games / 4; 0: skip skill_gap).")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT|local:K",
              help="Run on a Dask cluster, as `crates simulate --scheduler` (needs crates-sim[dask]).")
@click.option("--workers", type=int, default=None, help="Worker processes (default: every CPU).")
def balance(variants, knobs, base, players, strategies, games, seed, out, ideal_turns, strong, skill_games,
            workers, scheduler):
    """Measure two or more rule variants of one game family side by side.

    Per variant: seat and dealer-position advantage, first-player advantage, pressure
    rate, hand length, dead and capped hands, the spread of final scores and a luck/skill
    index, and the designer's measures: balance, decisions, lead_changes, decisive_hand,
    drama, comeback, duration and skill_gap (docs/analysis.md), with 95% CIs, a figure
    per measure and a plain-language summary of the largest differences. Writes
    OUT/balance.html (+ .md, PNGs), measures.csv, differences.csv, balance.json and each
    variant's games under OUT/variants/ (datasets for `crates report`).
    With --knobs instead of --variants: every value of each knob tried alone from --base on
    the same deals (one-step deviations), plus OUT/knobs.csv (knob, value, measure, diff,
    lo, hi) and OUT/knobs.html (a heat map, cells whose CI excludes 0 marked).
    Refused, with nothing written: a single variant (nothing to compare) and variants of
    both families (Crates: lower scores win; Crazy Eights: higher scores win).

    \b
    Examples:
      crates balance --variants classic,league,serbian --games 2000 --out bal/presets
      crates balance --variants classic,league --strategies greedy --ideal-turns 400..700 --out bal/greedy
      crates balance --variants crazy-eights,very-crazy-eights --strategies greedy,greedy,random \\
          --players 3 --out bal/eights
      crates balance --knobs all --base classic --games 2000 --seed 1 --out bal/knobs
      crates balance --knobs seven_target,spare_three=0|10 --base classic --skill-games 0 --out bal/two
    """
    from .balance import balance as run_balance
    from .measures import parse_band

    ideal = parse_band(ideal_turns)
    extra = []
    for flag, value in (("--ideal-turns", ideal_turns), ("--strong", strong if strong != "tuned" else None),
                        ("--skill-games", skill_games)):
        if value is not None:
            extra += [flag, str(value)]
    plan = None
    if knobs is not None:
        from .knobs import knob_variants, parse_knobs

        if variants is not None:
            raise CratesError("give --variants or --knobs (with --base), not both")
        plan = knob_variants(base, parse_knobs(knobs, base), players, echo=click.echo)
        specs = [base] + [spec for _, _, spec in plan]
        extra += ["--knobs", knobs, "--base", base]
    elif variants is None:
        raise CratesError("give --variants (e.g. classic,league) or --knobs all --base classic")
    else:
        specs = split_variants(variants)
    for spec in specs:
        Rules.from_spec(spec, players)
    res = run_balance(specs, players, strategies, games, seed, out, _workers(workers),
                      echo=click.echo, scheduler=scheduler, ideal=ideal, strong=strong, skill_games=skill_games,
                      extra=extra)
    t = res["timing"]
    click.echo(f"{len(res['labels'])} variants x {games:,} deals in {res['wall']:.1f} s (playing {t['play']:.1f} s, "
               f"measuring {t['measure']:.1f} s, skill_gap {t['skill']:.1f} s)")
    from .balance import summary_lines

    for line in summary_lines(res["differences"]):
        click.echo("  " + line.replace("**", ""))
    if plan is not None:
        from .knobs import headline, knob_table, write_knobs

        table = knob_table(res["differences"], plan, res["labels"])
        m = res["measures"]
        info = (f"{num_text(games)} games per variant (seed {seed}), strategies {', '.join(res['strategies'])}, "
                f"{players} players; each knob value alone against {res['labels'][0]}, on the same deals. "
                f"Brackets are 95% CIs.")
        paths = write_knobs(out, table, res["labels"][0], m, info)
        base_rows = m[m["variant"] == res["labels"][0]]
        base_est = {a + (f":{g}" if g else ""): e for a, g, e in zip(base_rows["measure"], base_rows["group"],
                                                                    base_rows["est"], strict=True)}
        click.echo("headline effects:")
        for line in headline(table, base_est):
            click.echo("  " + line)
        click.echo(f"knob table: {paths['html'].with_name('knobs.csv')}")
        click.echo(f"knob heat map: {paths['html']}")
    click.echo(f"report: {res['paths']['html']}")


def num_text(n: int) -> str:
    return f"{n:,}"


def split_variants(text: str) -> list[str]:
    """Split `classic,league,classic:seven_target=next,out_rule=immediate` into variants.

    A comma followed by `knob=value` continues the previous variant's knob list; a comma
    followed by a name starts a new variant.
    """
    out: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if "=" in part and ":" not in part and out:
            out[-1] += "," + part
        else:
            out.append(part)
    if not out:
        raise CratesError("--variants: give at least one variant")
    return out


@click.command()
@click.argument("grid", nargs=-1, required=True, metavar="STRATEGY:PARAM=LOW..HIGH:N [SECOND]")
@rules_options
@click.option("--against", "-a", required=True, help="The baseline strategy every grid point plays against.")
@click.option("--games", "-g", default=2000, show_default=True, type=int,
              help="Deals per grid point (each once per rotation of point and baseline over the seats).")
@click.option("--seed", default=0, show_default=True, type=int, help="Seed of the deals (the same for every point).")
@click.option("--out", "-o", required=True, type=click.Path(file_okay=False), help="Output folder.")
@click.option("--overwrite", is_flag=True, help="Replace a different sweep in OUT.")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT|local:K",
              help="Run on a Dask cluster, as `crates simulate --scheduler` (needs crates-sim[dask]).")
@click.option("--workers", type=int, default=None, help="Worker processes (default: every CPU).")
@click.option("--quiet", "-q", is_flag=True, help="No progress on stderr.")
def sweep(grid, rules, against, games, seed, out, overwrite, workers, quiet, scheduler):
    """Sweep a strategy parameter over a grid, each point against a baseline.

    A grid is STRATEGY:PARAM=LOW..HIGH:N: N evenly spaced values, both ends included,
    checked against the strategy's parameters and ranges (`crates strategies`). Two grids
    of the same strategy sweep their product (a heat map). Every point is a duplicate
    comparison against --against, as `crates compare` runs it: the same deals for every
    point, with the seats rotated. Writes OUT/sweep.csv (one row per point: the mean,
    robust and win-rate differences with 95% CIs), OUT/sweep.html (+ .md, PNGs: the curve
    or heat map, best point marked) and each point's games under OUT/points/.
    Rerunning the same command resumes: finished points are not played again.

    \b
    Examples:
      crates sweep "weights:w3=-60..60:13" --against greedy --preset classic --players 4 \\
          --games 20000 --seed 1 --out sw/w3
      crates sweep "weights:w3=-60..60:13" "weights:w5=0..40:5" --against greedy --out sw/w3w5
      crates sweep "aggressive:leader_weight=0..4:9" --against greedy --no-partnerships --out sw/lw
      crates sweep "keep3:three=-100..100:9" --against greedy --scheduler tcp://10.0.0.5:8786 --out sw/k3
    """
    import sys

    from .sweep import sweep as run_sweep

    res = run_sweep(rules, list(grid), against, games, seed, out, _workers(workers), overwrite=overwrite,
                    echo=lambda s: None if quiet else click.echo(s, err=True),
                    progress=not quiet and sys.stderr.isatty(), scheduler=scheduler)
    b = res["rows"].iloc[res["best"]]
    from .render import ci_text

    click.echo(f"{len(res['rows'])} points ({res['ran']} played, {res['skipped']} already done) x "
               f"{games:,} deals in {res['wall']:.1f} s ({rules.describe()}, {rules.players} players)")
    click.echo(f"best: {b['spec']}  win-rate difference {ci_text(b['win_diff'], b['win_lo'], b['win_hi'], 1, pct=True)}"
               f", robust score difference {ci_text(b['robust'], b['robust_lo'], b['robust_hi'])}")
    click.echo(f"table: {res['paths']['html'].with_name('sweep.csv')}")
    click.echo(f"report: {res['paths']['html']}")


@click.command()
@click.argument("strategy", metavar="STRATEGY")
@rules_options
@click.option("--against", "-a", required=True,
              help="The field, comma-separated: the objective is the mean win-rate difference against them.")
@click.option("--params", default=None, metavar="P,Q,...",
              help="Tune only these parameters (default: every declared one not fixed in STRATEGY).")
@click.option("--budget", "-b", default=300, show_default=True, type=int,
              help="Candidate evaluations (whole generations: ceil(budget / popsize) of them).")
@click.option("--games-per-eval", "-g", "games", default=4000, show_default=True, type=int,
              help="Deals per evaluation, shared by a generation's candidates (each once per rotation, "
                   "against every strategy of the field).")
@click.option("--popsize", default=None, type=int, help="Candidates per generation (default: CMA's, 4 + 3 ln n).")
@click.option("--sigma", default=0.5, show_default=True, type=float,
              help="CMA's initial step, in units of each parameter's scale (docs/analysis.md).")
@click.option("--validate-games", default=20000, show_default=True, type=int,
              help="Fresh deals on which the result is validated against each strategy of the field.")
@click.option("--seed", default=0, show_default=True, type=int,
              help="Seed from which the search's and the validation's deal seeds are derived.")
@click.option("--out", "-o", required=True, type=click.Path(file_okay=False), help="Output folder.")
@click.option("--overwrite", is_flag=True, help="Replace a different tune in OUT.")
@click.option("--workers", type=int, default=None, help="Worker processes (default: every CPU).")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT|local:K",
              help="Run on a Dask cluster, as `crates simulate --scheduler` (needs crates-sim[dask]).")
@click.option("--quiet", "-q", is_flag=True, help="No progress on stderr.")
def tune(strategy, rules, against, params, budget, games, popsize, sigma, validate_games, seed, out,
         overwrite, workers, scheduler, quiet):
    """Tune a strategy's parameters with CMA-ES against a field of strategies.

    STRATEGY is a spec whose declared parameters are searched (`crates strategies`);
    parameters it fixes stay fixed (weights:w6=-10). Every candidate of a generation plays
    the same deals (common random numbers), each a duplicate comparison with the seats
    rotated against every --against strategy; the objective is the mean win-rate
    difference. The result (the centre of CMA's final distribution) is validated on fresh
    deals against each strategy separately, and those intervals are the ones reported.
    Writes OUT/best.txt (a spec usable in --strategies), OUT/tune.csv (every evaluation),
    OUT/tune.html (+ .md, PNGs) and OUT/tune.json (the checkpoint). Rerunning the same
    command resumes after the last finished generation; a larger --budget continues.

    \b
    Examples:
      crates tune weights --against greedy,aggressive --preset classic --players 4 \\
          --budget 300 --games-per-eval 4000 --seed 1 --out tune/w
      crates tune weights:w0=1 --params w3,w5,w7 --against greedy --no-partnerships --out tune/w357
      crates tune "keep3" --against greedy,dump3 --budget 60 --games-per-eval 2000 --out tune/k3
      crates tune weights --against greedy --scheduler tcp://10.0.0.5:8786 --out tune/w
      crates tune weights --against expert:samples=16 --budget 40 --games-per-eval 200 --out tune/we

    \b
    A search player in the field (pimc, expert) costs 1,000-10,000x a heuristic's turn
    (`crates strategies`): size --budget and --games-per-eval to match.
    """
    import sys

    from .render import ci_text
    from .tune import tune as run_tune

    names = None
    if params is not None:
        names = [p.strip() for p in params.split(",") if p.strip()]
        if not names:
            raise CratesError("--params: name at least one parameter")
    res = run_tune(rules, strategy, against, out, budget, games, names, popsize, sigma, validate_games, seed,
                   _workers(workers), overwrite=overwrite,
                   echo=lambda s: None if quiet else click.echo(s, err=True),
                   progress=not quiet and sys.stderr.isatty(), scheduler=scheduler)
    click.echo(f"{res['generations']} generations x {res['popsize']} candidates ({res['ran']} run now, "
               f"{res['resumed']} done before) x {games:,} deals; search {res['search_seconds']:.1f} s, "
               f"this run {res['wall']:.1f} s ({rules.describe()}, {rules.players} players)")
    v = res["validation"]
    click.echo(f"best: {res['best']}")
    click.echo(f"validated on {v['games']:,} fresh deals (seed {res['validation_seed']}):")
    for r in v["rows"]:
        click.echo(f"  vs {r['against']}: win-rate difference {ci_text(r['win_diff'], r['win_lo'], r['win_hi'], 1, pct=True)}"
                   f", robust score difference {ci_text(r['robust'], r['robust_lo'], r['robust_hi'])}")
    click.echo(f"table: {res['paths']['html'].with_name('tune.csv')}")
    click.echo(f"report: {res['paths']['html']}")


@click.command()
@rules_options
@click.option("--strategies", "-s", required=True, metavar="A,B,C,...",
              help="The entrants, comma-separated: two or more distinct strategy specs "
                   "(built-ins, FILE.py:FUNCTION @njit functions, FILE.py:Agent Python agents).")
@click.option("--games", "-g", default=1000, show_default=True, type=int,
              help="Deals per match (each played once per rotation of the match's entrants).")
@click.option("--seed", default=0, show_default=True, type=int, help="Seed of the deals.")
@click.option("--out", "-o", required=True, type=click.Path(file_okay=False),
              help="Output folder; run again into it with more entrants to play only their matches.")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT|local:K",
              help="Run the matches on a Dask cluster, as `crates simulate --scheduler`.")
@click.option("--workers", type=int, default=None, help="Worker processes (default: every CPU).")
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
    from .tournament import tournament as run_tournament

    specs = [s.strip() for s in strategies.split(",") if s.strip()]
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
@click.option("--base", "-b", default="classic", show_default=True,
              help="The preset whose family's knobs are searched (trial 0 is the base itself).")
@click.option("--target", "-t", "targets", multiple=True, required=True,
              metavar="MEASURE[.GROUP]=VALUE|max|min[@WEIGHT]",
              help="A target (repeatable): a measure of `crates balance` (measures.csv keys), a value to "
                   "reach or max/min, and a weight (default 1), e.g. duration.turns=600 balance=max@2.")
@click.option("--knobs", "-k", default=None, metavar="K1,K2,...",
              help="Search only these knobs (default: every knob of the family but the safety limits).")
@click.option("--players", "-n", default=4, show_default=True, type=int, help="Number of players.")
@click.option("--strategies", "-s", default="greedy,random", show_default=True,
              help="The players of every trial, as `crates balance --strategies` takes them.")
@click.option("--budget", default=40, show_default=True, type=int, help="Trials (a larger budget continues).")
@click.option("--games-per-trial", "-g", "games", default=2000, show_default=True, type=int,
              help="Deals per trial: the same deals for every trial (common random numbers).")
@click.option("--validate-games", type=int, default=None,
              help="Fresh deals on which the best variant and the base are measured (default 2x per trial).")
@click.option("--ideal-turns", default=None, metavar="LO..HI", help="The band of duration.in_band.")
@click.option("--strong", default="tuned", show_default=True, help="The strong player of skill_gap.")
@click.option("--skill-games", type=int, default=None,
              help="Deals for skill_gap when a target names it (default: games per trial / 4).")
@click.option("--seed", default=0, show_default=True, type=int, help="Seed of the deals and the search.")
@click.option("--out", "-o", required=True, type=click.Path(file_okay=False), help="Output folder.")
@click.option("--overwrite", is_flag=True, help="Replace a different design search in OUT.")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT|local:K",
              help="Run on a Dask cluster, as `crates simulate --scheduler` (needs crates-sim[dask]).")
@click.option("--workers", type=int, default=None, help="Worker processes (default: every CPU).")
@click.option("--quiet", "-q", is_flag=True, help="No progress on stderr.")
def design(base, targets, knobs, players, strategies, budget, games, validate_games, ideal_turns, strong,
           skill_games, seed, out, overwrite, scheduler, workers, quiet):
    """Search the rule knobs for a variant that meets the designer's targets.

    optuna's TPE searches the knobs of the base preset's family (categorical knobs as
    categories, whole-number knobs as ranges); every trial plays the same deals in
    memory and is measured as `crates balance` measures a variant. The objective,
    minimised, is the weighted sum over targets of |est - value| / |value| (VALUE) or
    -est / |base est| (max; min: +est). The best trial is validated against the base on
    fresh deals. Writes OUT/best.txt (a variant spec: `crates balance --variants` and
    `crates simulate --preset` take it), OUT/design.csv (one row per trial),
    OUT/validation.csv, OUT/design.html (+ .md, PNGs) and OUT/design.json (the
    checkpoint: rerunning the same command resumes; a larger --budget continues).

    \b
    Examples:
      crates design --base classic --target first_player=0 --target balance=max \\
          --budget 40 --games-per-trial 2000 --seed 1 --out design/fair
      crates design --base classic --target duration.turns=500 --target skill_gap=max@2 \\
          --knobs seven_target,spare_three,out_rule --out design/short
      crates design --base crazy-eights --players 3 --target duration.hands=8 --out design/c8
      crates simulate --preset "$(cat design/fair/best.txt)" --games 10000 --out runs/fair
    """
    from .design import design as run_design
    from .design import parse_target
    from .measures import parse_band
    from .render import ci_text

    parsed = [parse_target(t) for t in targets]
    names = [k.strip() for k in knobs.split(",") if k.strip()] if knobs else None
    res = run_design(base, parsed, out, budget, games, names, players, strategies, seed, validate_games,
                     parse_band(ideal_turns), ideal_turns, strong, skill_games, _workers(workers), scheduler,
                     overwrite, echo=lambda s: None if quiet else click.echo(s, err=True))
    b = res["best"]
    click.echo(f"{len(res['trials'])} trials ({res['ran']} run now, {res['resumed']} done before) x {games:,} deals "
               f"in {res['wall']:.1f} s")
    click.echo(f"best: {b['spec']} (trial {b['trial']}, objective {b['objective']:.4g}; base "
               f"{res['base_objective']:.4g})")
    click.echo(f"validated on {res['validate_games']:,} fresh deals (seed {res['validation_seed']}):")
    for _, r in res["validation"].iterrows():
        click.echo(f"  {r['target']}: {base} {ci_text(r['base'], r['base_lo'], r['base_hi'], 3)}, best "
                   f"{ci_text(r['best'], r['best_lo'], r['best_hi'], 3)}, difference "
                   f"{ci_text(r['diff'], r['diff_lo'], r['diff_hi'], 3)}")
    click.echo(f"best.txt: {res['paths']['html'].with_name('best.txt')}")
    click.echo(f"report: {res['paths']['html']}")


@click.command()
@rules_options
@click.option("--rungs", "-r", default=5, show_default=True, type=int,
              help="Rungs: expert with 2, 4, ... 2**RUNGS samples, each against the one below "
                   "(1 sample at the bottom).")
@click.option("--games", "-g", default=200, show_default=True, type=int,
              help="Deals per rung (each played once per rotation of the seats).")
@click.option("--seed", default=0, show_default=True, type=int,
              help="Seed of the deals (rung K plays seed + K).")
@click.option("--out", "-o", required=True, type=click.Path(file_okay=False), help="Output folder.")
@click.option("--workers", type=int, default=None, help="Worker processes (default: every CPU).")
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
    from .ladder import ladder as run_ladder

    click.echo(f"skill ladder, {rules.describe()}, {rules.players} players: {rungs} rungs x "
               f"{games} deals")
    table = run_ladder(rules, rungs, games, seed, out, _workers(workers), echo=click.echo)
    click.echo(f"rungs winning >= 55%: {int(table['wins'].sum())} of {len(table)}")
    click.echo(f"table: {Path(out) / 'ladder.csv'}")
