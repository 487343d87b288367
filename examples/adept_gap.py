"""How far adept's choices are from the teacher's, beside expert's, decision by decision.

    python examples/adept_gap.py --games 150 --tables classic:2,classic:5,crazy-eights:4

adept plays every seat of `--games` games a table (game seeds `--seed`). At a share
(`--share`) of the card decisions with two options or more, the teacher
(`expert:samples=120`, the values adept is trained on) values every option on a fresh
stream, and the regret of adept's choice and of expert's (its default 60 deals, another
fresh stream) is read off those values: points a decision, each value floored at 250
points below the best (as `crates train --player adept` floors them). Each table prints
both regrets, their paired difference with its 95% CI, and the difference split by the
highest pressure streak at the table (a streak of 8: a pressure of 1,280 points or more).
docs/strategies.md ("Where the gap to expert comes from") has its figures for 150 games.
"""

import argparse
import time

import numpy as np

from crates_sim import CratesError, Rules
from crates_sim.engine import engine_nb as nb
from crates_sim.play.step import Table
from crates_sim.strategies.expert import expert_explain
from crates_sim.strategy import addresses, resolve
from crates_sim.view import pressure_streak

#: the card decisions (play, count, play again): the ones adept's network scores
CARD_PHASES = (0, 1, 2)
#: as training floors the teacher's values
FLOOR = 250.0
#: the salt of the stream that picks the decisions valued (with the game number)
SAMPLE_SALT = 777
#: (label, lowest streak, highest streak) of the split
STREAKS = (("streak <= 4", 0, 4), ("streak 5-7", 5, 7), ("streak >= 8", 8, 10_000))


def table_gap(rules, games, seed, share, teacher_row, expert_row):
    """(adept's regrets, expert's regrets, highest streaks) at the sampled decisions."""
    (mover,), (mover_row,) = resolve(["adept"])
    mover_addr = int(addresses(["adept"])[0])
    adept_regret, expert_regret, streaks = [], [], []
    for g in range(games):
        rng = np.random.default_rng([SAMPLE_SALT, g, 5])
        table = Table(rules, [None] * rules.players, seed, g)
        while not table.over:
            d = table.pending
            choice = int(nb.ask_strategy(table.paused_copy(), int(mover), mover_row, mover_addr))
            if d.phase in CARD_PHASES and len(d.options) >= 2 and rng.random() < share:
                values = []
                for row in (teacher_row, expert_row):
                    G = table.paused_copy()
                    at = nb.stream(1 + d.seat)
                    G[at:at + 4] = rng.integers(0, 2**62, 4)  # a fresh stream for each
                    means = np.zeros(len(d.options))
                    expert_explain(G, row, means)
                    values.append(means)
                loss = np.minimum(values[0].max() - values[0], FLOOR)
                adept_regret.append(loss[choice])
                expert_regret.append(loss[int(np.argmax(values[1]))])
                streaks.append(max(pressure_streak(d.obs, q) for q in range(rules.players)))
            table.answer(d.options[choice])
    return np.array(adept_regret), np.array(expert_regret), np.array(streaks)


def ci(x):
    """The mean of x and the half-width of its 95% CI."""
    return x.mean(), 1.96 * x.std(ddof=1) / np.sqrt(len(x)) if len(x) > 1 else float("nan")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=150, help="games a table (150)")
    parser.add_argument("--tables", default="classic:2,classic:4,crazy-eights:4",
                        help="PRESET:PLAYERS[:KNOBS...], comma-separated "
                             "(classic:4:draw_when_able=true)")
    parser.add_argument("--seed", type=int, default=9100, help="the games' seed (9100)")
    parser.add_argument("--share", type=float, default=0.3,
                        help="the share of card decisions valued (0.3)")
    args = parser.parse_args(argv)
    (_t,), (teacher_row,) = resolve(["expert:samples=120"])
    (_e,), (expert_row,) = resolve(["expert"])
    tables = []
    for text in args.tables.split(","):
        preset, _, rest = text.partition(":")
        players, *knobs = rest.split(":")
        try:
            spec = preset + (":" + ",".join(knobs) if knobs else "")
            tables.append((text, Rules.from_spec(spec, int(players))))
        except (CratesError, ValueError) as exc:
            parser.error(f"--tables: {text!r} is not PRESET:PLAYERS[:KNOBS...] ({exc})")
    for text, rules in tables:
        t0 = time.perf_counter()
        a, e, k = table_gap(rules, args.games, args.seed, args.share, teacher_row, expert_row)
        gap, half = ci(a - e)
        print(f"{text}: {len(a):,} decisions, adept {a.mean():.2f}, expert {e.mean():.2f}, "
              f"adept - expert {gap:.2f} ± {half:.2f} points a decision "
              f"({time.perf_counter() - t0:.0f} s)")
        total = (a - e).sum()
        for label, low, high in STREAKS:
            m = (k >= low) & (k <= high)
            if m.any():
                part, half = ci(a[m] - e[m])
                print(f"  {label}: {m.mean():.1%} of the decisions, adept - expert {part:.2f} ± "
                      f"{half:.2f}, {(a[m] - e[m]).sum() / total:.0%} of the gap")


if __name__ == "__main__":
    main()
