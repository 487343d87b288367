"""`crates balance` and `crates design`: rule variants measured side by side, or searched.

Contract: thin click commands over crates_sim.analysis.balance, .knobs and .design; each
takes the shared options of `options`. The rule set is --preset/-p in both (balance: the
variants, comma-separated; design: the base); -b is --budget, as in `crates tune`. Older
spellings kept hidden: balance --variants/-V and --base, design --base and
--games-per-trial.
"""

from __future__ import annotations

import click

from ..analysis.players import BALANCE_STRATEGIES, DEFAULT_STRONG
from ..errors import CratesError
from ..rules import Rules
from .options import (
    checked_workers as _workers,
)
from .options import (
    games_option,
    hidden_alias,
    out_option,
    overwrite_option,
    players_option,
    preset_option,
    quiet_option,
    scheduler_option,
    seed_option,
    strategies_option,
    strong_option,
    workers_option,
)

__all__ = ["balance", "design", "split_variants"]


def _variants_and_base(preset: str | None, knobs: str | None):
    """balance's --preset as (variants, base): the variants compared, or with --knobs the
    one preset the knobs deviate from (default classic)."""
    if knobs is None:
        return preset, "classic"
    if preset is not None and len(split_variants(preset)) > 1:
        raise CratesError("--knobs deviates from one preset: give --preset PRESET (or none: classic)")
    return None, preset or "classic"


@click.command()
@click.option("--preset", "-p", default=None, metavar="PRESET[:KNOB=VALUE],...",
              help="The variants, comma-separated: presets or preset:knob=value,... specs (quote specs "
                   "that hold commas, e.g. classic,league,\"classic:seven_target=next\"); with --knobs, "
                   "the one preset the knobs deviate from [default: classic].")
@hidden_alias("--variants", "-V", to="preset")
@hidden_alias("--base", to="preset")
@click.option("--knobs", "-k", default=None, metavar="all|K1,K2=V1|V2,...",
              help="What each knob does: every value of these knobs (all: every knob of the family but "
                   "the safety limits) tried one at a time from --preset; writes knobs.csv and knobs.html.")
@players_option
@strategies_option(default=BALANCE_STRATEGIES,
                   help="One strategy for every seat; one per seat (a,b,c,d as `crates simulate` takes "
                        "them), rotated so each plays from every seat; or fewer, rotated over the seats "
                        "(2 for partnership variants: one per team).")
@games_option(1000, help="Deals per variant.")
@seed_option()
@out_option()
@click.option("--ideal-turns", default=None, metavar="LO..HI",
              help="A band of turns per game: duration then also gives the share of games inside it.")
@strong_option(DEFAULT_STRONG)
@click.option("--skill-games", type=click.IntRange(0, None), default=None,
              help="Duplicate deals per variant for skill_gap (default: --games / 4; 0: skip skill_gap).")
@scheduler_option
@workers_option
def balance(preset, knobs, players, strategies, games, seed, out, ideal_turns, strong, skill_games,
            workers, scheduler):
    """Measure two or more rule variants of one game family side by side.

    Per variant: seat and dealer-position advantage, first-player advantage, pressure
    rate, hand length, dead and capped hands, the spread of final scores and a luck/skill
    index, and the designer's measures: balance, decisions, lead_changes, decisive_hand,
    drama, comeback, duration and skill_gap (docs/analysis.md), with 95% CIs, a figure
    per measure and a plain-language summary of the largest differences. Writes
    OUT/balance.html (+ .md, PNGs), measures.csv, differences.csv, balance.json and each
    variant's games under OUT/variants/ (datasets for `crates report`).
    With --knobs (and one --preset) instead: every value of each knob tried alone from that preset on
    the same deals (one-step deviations), plus OUT/knobs.csv (knob, value, measure, diff,
    lo, hi) and OUT/knobs.html (a heat map, cells whose CI excludes 0 marked).
    Refused, with nothing written: a single variant (nothing to compare) and variants of
    both families (Crates: lower scores win; Crazy Eights: higher scores win).

    \b
    Examples:
      crates balance --preset classic,league,serbian --games 2000 --out bal/presets
      crates balance -p classic,league --strategies greedy --ideal-turns 400..700 --out bal/greedy
      crates balance -p crazy-eights,very-crazy-eights --strategies greedy,greedy,random \\
          --players 3 --out bal/eights
      crates balance --knobs all --preset classic --games 2000 --seed 1 --out bal/knobs
      crates balance --knobs "seven_target,spare_three=0|10" -p classic --skill-games 0 --out bal/two
    """
    variants, base = _variants_and_base(preset, knobs)
    from crates_sim.analysis.balance import balance as run_balance
    from crates_sim.analysis.measures import parse_band

    ideal = parse_band(ideal_turns)
    extra = []
    for flag, value in (("--ideal-turns", ideal_turns), ("--strong", strong if strong != DEFAULT_STRONG else None),
                        ("--skill-games", skill_games)):
        if value is not None:
            extra += [flag, str(value)]
    plan = None
    if knobs is not None:
        from crates_sim.analysis.knobs import knob_variants, parse_knobs

        if variants is not None:
            raise CratesError("give --preset with several variants, or --knobs with one --preset")
        plan = knob_variants(base, parse_knobs(knobs, base), players, echo=click.echo)
        specs = [base] + [spec for _, _, spec in plan]
        extra += ["--knobs", knobs, "--preset", base]
    elif variants is None:
        raise CratesError("give --preset with the variants (e.g. classic,league) or --knobs all")
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
    from crates_sim.analysis.balance import multiplicity_line, summary_lines

    click.echo("  " + multiplicity_line(res["differences"]))
    for line in summary_lines(res["differences"]):
        click.echo("  " + line.replace("**", ""))
    if plan is not None:
        from crates_sim.analysis.knobs import headline, knob_table, write_knobs

        table = knob_table(res["differences"], plan, res["labels"])
        m = res["measures"]
        info = (f"{num_text(games)} games per variant (seed {seed}), strategies {', '.join(res['strategies'])}, "
                f"{players} players; each knob value alone against {res['labels'][0]}, on the same deals. "
                f"Brackets are 95% CIs. Made by `{res['command']}` (to run it again, give another --out).")
        who = None
        if res.get("skill_games"):
            from crates_sim.analysis.players import who_measured

            who = who_measured(res["strong"], ("greedy", "random"), dict(zip(res["labels"], res["rules"],
                                                                            strict=True)))
        paths = write_knobs(out, table, res["labels"][0], m, info, games, who)
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
        raise CratesError("--preset: give at least one variant")
    return out


@click.command()
@preset_option(help="The preset whose family's knobs are searched (trial 0 is the preset itself).",
               metavar="PRESET")
@hidden_alias("--base", to="preset")
@click.option("--target", "-t", "targets", multiple=True, required=True,
              metavar="MEASURE[.GROUP]=VALUE|max|min[@WEIGHT]",
              help="A target (repeatable): a measure of `crates balance` (measures.csv keys), a value to "
                   "reach or max/min, and a weight (default 1), e.g. duration.turns=600 balance=max@2.")
@click.option("--knobs", "-k", default=None, metavar="K1,K2,...",
              help="Search only these knobs (default: every knob of the family but the safety limits).")
@players_option
@strategies_option(default="greedy,random", help="The players of every trial, as `crates balance --strategies` "
                                                 "takes them.")
@click.option("--budget", "-b", default=40, show_default=True, type=click.IntRange(1, None),
              help="Trials (a larger budget continues).")
@games_option(2000, help="Deals per trial: the same deals for every trial (common random numbers).")
@hidden_alias("--games-per-trial", to="games", type=click.IntRange(1, None))
@click.option("--validate-games", type=click.IntRange(1, None), default=None,
              help="Fresh deals on which the best variant and the base are measured (default 2x per trial).")
@click.option("--ideal-turns", default=None, metavar="LO..HI", help="The band of duration.in_band.")
@strong_option(DEFAULT_STRONG, help="The strong player of skill_gap, when a target names it")
@click.option("--skill-games", type=click.IntRange(0, None), default=None,
              help="Deals for skill_gap when a target names it (default: games per trial / 4).")
@seed_option(help="Seed of the deals and the search")
@out_option()
@overwrite_option("design search")
@scheduler_option
@workers_option
@quiet_option()
def design(preset, targets, knobs, players, strategies, budget, games, validate_games, ideal_turns, strong,
           skill_games, seed, out, overwrite, scheduler, workers, quiet):
    """Search the rule knobs for a variant that meets the designer's targets.

    optuna's TPE searches the knobs of the base preset's family (categorical knobs as
    categories, whole-number knobs as ranges); every trial plays the same deals in
    memory and is measured as `crates balance` measures a variant. The objective,
    minimised, is the weighted sum over targets of |est - value| / |value| (VALUE) or
    -est / |base est| (max; min: +est). The best trial is validated against the base on
    fresh deals. Writes OUT/best.txt (a variant spec: `crates balance --preset` and
    `crates simulate --preset` take it), OUT/design.csv (one row per trial),
    OUT/validation.csv, OUT/design.html (+ .md, PNGs) and OUT/design.json (the
    checkpoint: rerunning the same command resumes; a larger --budget continues).

    \b
    Examples:
      crates design --preset classic --target first_player=0 --target balance=max \\
          --budget 40 --games 2000 --seed 1 --out design/fair
      crates design -p classic --target duration.turns=500 --target skill_gap=max@2 \\
          --knobs seven_target,spare_three,out_rule --out design/short
      crates design -p crazy-eights --players 3 --target duration.hands=8 --out design/c8
      crates simulate --preset "$(cat design/fair/best.txt)" --games 10000 --out runs/fair
    """
    base = preset
    from crates_sim.analysis.design import design as run_design
    from crates_sim.analysis.design import parse_target
    from crates_sim.analysis.glossary import shown
    from crates_sim.analysis.measures import parse_band

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
    for t, (_, r) in zip(res["targets"], res["validation"].iterrows(), strict=True):
        click.echo(f"  {r['target']}: {base} {shown(t.measure, t.group, r['base'], r['base_lo'], r['base_hi'])}, "
                   f"best {shown(t.measure, t.group, r['best'], r['best_lo'], r['best_hi'])}, difference "
                   f"{shown(t.measure, t.group, r['diff'], r['diff_lo'], r['diff_hi'], diff=True)}")
    click.echo(res["verdict"])
    click.echo(f"best.txt: {res['paths']['html'].with_name('best.txt')}")
    click.echo(f"report: {res['paths']['html']}")

