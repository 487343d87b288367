"""The tables a learned player trains and is measured on: every preset at every player
count, and rule sets drawn at random from the whole knob space (issue 38).

Contract:
- `every_table()`: each preset at each player count it allows (Crazy Eights up to
  EIGHTS_MAX_PLAYERS), a Crates table of 4 players both with and without partnerships;
- `random_rules(rng)`: one rule set drawn from the whole knob space: a preset, a player
  count it allows, then every knob of its family drawn from its values (whole-number knobs
  from KNOB_DRAWS; remove_ranks none half the time, else one or two ranks that keep the
  deck large enough); the draw depends only on the generator's state;
- `random_tables(n, seed)`: n such rule sets, the same for the same seed;
- `training_tables(seed, n_random)`: every_table(), its partnership tables again, then
  random_tables(n_random, seed);
- `family_tables(family, seed, n_random)`: one family's presets, then rule sets of that
  family drawn from the whole knob space; `eights_tables` and `crates_tables` name it;
- `partnership_tables(seed, n_random)`: the Crates partnership presets with and without
  draws at will, then drawn Crates rule sets with 4 players in partnerships;
- `two_player_tables(seed, n_random, family)`: that family's presets with 2 players, with
  and without draws at will, then drawn rule sets of that family with 2 players;
- `at_will_tables(seed, n_random)`: the Crates presets with 3 players or more in
  individual play with draws at will, then such drawn rule sets;
- `three_player_tables(seed, n_random)`: the Crates presets with 3 players and no draws
  at will, then such drawn rule sets;
- `four_player_individual_tables(seed, n_random)`: the Crates presets with 4 players in
  individual play and no draws at will, then such drawn rule sets;
- `partnerships_no_at_will_tables(seed, n_random)`: the Crates presets with 4 players in
  partnerships and no draws at will, then such drawn rule sets;
- `TABLE_PARTS`: each part of the table space a round of `crates train --player adept
  --tables NAME` can play alone (a `TablePart`: its name, its tables for a seed, its help);
- `knob_values(base, knob, players)`: the values `crates balance --knobs` tries a knob at;
- `focus_tables()`: the tables adept's training adds from round FOCUS_FROM on.
The safety knobs (max_turns_per_hand, max_hands) keep their defaults.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from .cards import E_WILD, E_WILD9, EFFECT, IN_DECK, RANKS
from .errors import CratesError, did_you_mean
from .rules import KNOBS, PRESETS, Rules

#: the most players the Crazy Eights tables of `every_table` have (the presets allow 7)
EIGHTS_MAX_PLAYERS = 6
#: the values a whole-number knob is drawn from
KNOB_DRAWS = {"spare_three": (0, 3, 10, 20, 30), "hand_size": (0, 5, 7, 8),
              "target_score": (50, 100, 200)}
#: knobs left out of `--knobs all` and of the design space unless named: safety limits
SAFETY = ("max_hands", "max_turns_per_hand")
#: the values a whole-number or rank-set knob is tried at (one step from the base)
TRIED = {
    "spare_three": (0, 1, 5, 10),
    "hand_size": (3, 5, 7, 9),
    "target_score": (50, 150, 250),
    "max_hands": (10, 50),
    "max_turns_per_hand": (100, 300),
    "remove_ranks": ("K", "QK"),
}
#: knobs that stay as the preset has them (safety caps, and partnerships, drawn apart)
FIXED = ("max_turns_per_hand", "max_hands", "partnerships")


def every_table() -> list:
    """Each preset at each player count it allows (Crazy Eights 2 to EIGHTS_MAX_PLAYERS),
    Crates with 4 players both with and without partnerships."""
    out = []
    for name, (family, (lo, hi), _defaults, _doc) in PRESETS.items():
        if family != "crates":
            hi = min(hi, EIGHTS_MAX_PLAYERS)
        for players in range(lo, hi + 1):
            if family == "crates" and players == 4:
                out += [Rules.preset(name, 4, partnerships=p) for p in (True, False)]
            else:
                out.append(Rules.preset(name, players))
    return out


def _draw_knob(rng, name, kind):
    if name in KNOB_DRAWS:
        return KNOB_DRAWS[name][rng.integers(len(KNOB_DRAWS[name]))]
    if kind is bool:
        return bool(rng.integers(2))
    if name == "remove_ranks":
        if rng.random() < 0.5:
            return ""
        k = 1 + int(rng.integers(2))
        return "".join(sorted(rng.choice(list(RANKS), k, replace=False), key=RANKS.index))
    return kind[rng.integers(len(kind))]


def random_rules(rng) -> Rules:
    """A rule set drawn from the whole knob space (see the module doc); a draw the rules
    refuse (a deck too small for the deal) is drawn again from the same generator."""
    names = list(PRESETS)
    for _ in range(100):
        name = names[rng.integers(len(names))]
        family, (lo, hi), defaults, _doc = PRESETS[name]
        players = int(rng.integers(lo, hi + 1))
        knobs = {}
        for knob in defaults:
            if knob in FIXED:
                continue
            knobs[knob] = _draw_knob(rng, knob, KNOBS[knob][1])
        if family == "crates" and players == 4:
            knobs["partnerships"] = bool(rng.integers(2))
        try:
            return Rules.preset(name, players, **knobs)
        except CratesError:
            continue
    raise CratesError("no valid rule set drawn in 100 tries")  # pragma: no cover


def _generator(seed: int):
    """The generator the knob-set draws of `seed` come from (random_tables, eights_tables)."""
    return np.random.default_rng([seed, 38])


def random_tables(n: int, seed: int) -> list:
    """n rule sets drawn from the whole knob space with the generator of `seed`."""
    rng = _generator(seed)
    return [random_rules(rng) for _ in range(n)]


#: times the Crates partnership presets come again in `training_tables` (the partnership
#: network learns only from 4-player Crates tables with partners, and they are its hardest)
PARTNERSHIP_REPEATS = 2


def training_tables(seed: int, n_random: int) -> list:
    """The tables adept trains on by default (games cycle through them): every_table(),
    the partnership presets PARTNERSHIP_REPEATS times more, then n_random drawn ones."""
    base = every_table()
    partners = [t for t in base if t.partnerships] * PARTNERSHIP_REPEATS
    return base + partners + random_tables(n_random, seed)


#: `family_tables`: times a family's presets come in its list (so that a round on that
#: family keeps learning the presets as well as the drawn rule sets)
FAMILY_PRESET_REPEATS = 3
#: `partnerships_short_deck_tables`: the most cards a "short" deck holds (two ranks out)
SHORT_DECK = 44


def _drawn_where(keep, seed: int, n: int) -> list:
    """The first n rule sets random_tables(..., seed) would draw for which keep(rules) holds
    (the others skipped, the generator's draws unchanged)."""
    rng = _generator(seed)
    drawn = []
    while len(drawn) < n:
        rules = random_rules(rng)
        if keep(rules):
            drawn.append(rules)
    return drawn


def family_tables(family: str, seed: int, n_random: int) -> list:
    """The tables of a round on one family alone (`crates train --player adept --tables
    eights|crates`): that family's presets at every player count FAMILY_PRESET_REPEATS
    times, then n_random rule sets of that family drawn from the whole knob space with the
    generator of `seed` (random_tables' draws, the other family's skipped)."""
    presets = [t for t in every_table() if t.family == family]
    return presets * FAMILY_PRESET_REPEATS + _drawn_where(lambda r: r.family == family,
                                                          seed, n_random)


def eights_tables(seed: int, n_random: int) -> list:
    """`--tables eights`: family_tables of the Crazy Eights family."""
    return family_tables("eights", seed, n_random)


def crates_tables(seed: int, n_random: int) -> list:
    """`--tables crates`: family_tables of the Crates family (4 players both with and
    without partnerships among its presets; the drawn ones draw partnerships)."""
    return family_tables("crates", seed, n_random)


def _both_ways_tables(presets: list, keep, seed: int, n_random: int, **knobs) -> list:
    """Each of these preset tables with and without draw_when_able (and `knobs`),
    FAMILY_PRESET_REPEATS times; then the first n_random rule sets random_tables draws for
    `seed` for which keep(rules) holds (partnership_tables, two_player_tables)."""
    both = [Rules.preset(t.preset_name, t.players, draw_when_able=at_will, **knobs)
            for t in presets for at_will in (False, True)]
    return both * FAMILY_PRESET_REPEATS + _drawn_where(keep, seed, n_random)


def partnership_tables(seed: int, n_random: int) -> list:
    """`--tables partnerships`: the tables of a round on Crates partnerships alone (the
    partnership network learns only from them): each Crates preset with 4 players in
    partnerships, with and without draw_when_able, FAMILY_PRESET_REPEATS times; then
    n_random Crates rule sets with 4 players in partnerships drawn from the whole knob
    space with the generator of `seed` (random_tables' draws, the others skipped)."""
    return _both_ways_tables([t for t in every_table() if t.partnerships],
                           lambda r: r.family == "crates" and r.players == 4 and r.partnerships,
                           seed, n_random, partnerships=True)


def two_player_tables(seed: int, n_random: int, family: str = "crates") -> list:
    """`--tables two-player` (family "crates") and `--tables two-player-eights` (family
    "eights"): the tables of a round on one family's two-player tables alone (the wide
    two-player specialists play only their presets): each of that family's presets with 2
    players, with and without draw_when_able, FAMILY_PRESET_REPEATS times; then n_random of
    that family's rule sets with 2 players drawn from the whole knob space with the
    generator of `seed` (random_tables' draws, the others skipped)."""
    return _both_ways_tables([t for t in every_table() if t.family == family and t.players == 2],
                           lambda r: r.family == family and r.players == 2, seed, n_random)


def at_will_tables(seed: int, n_random: int) -> list:
    """`--tables at-will`: the tables of a round on Crates individual play with 3 players
    or more where a seat may draw at will (the two-player and partnership ones have rounds
    of their own): each such Crates preset with draw_when_able, FAMILY_PRESET_REPEATS
    times; then n_random such rule sets drawn from the whole knob space with the generator
    of `seed` (random_tables' draws, the others skipped)."""
    return _with_knobs_tables({"draw_when_able": True}, lambda r: (
        r.family == "crates" and not r.partnerships and r.players >= 3
        and r.knobs["draw_when_able"]), seed, n_random)


def _with_knobs_tables(knobs: dict, keep, seed: int, n_random: int) -> list:
    """The presets (every_table) with `knobs` set, those for which keep(rules) then holds,
    FAMILY_PRESET_REPEATS times; then the first n_random rule sets random_tables draws for
    `seed` for which it holds (at_will_tables, eights_unlimited_tables,
    two_player_at_will_tables)."""
    presets = [Rules(t.preset_name, t.players, {**t.knobs, **knobs}) for t in every_table()]
    return [t for t in presets if keep(t)] * FAMILY_PRESET_REPEATS + _drawn_where(
        keep, seed, n_random)


def _where_tables(keep, seed: int, n_random: int) -> list:
    """The presets (every_table) for which keep(rules) holds, FAMILY_PRESET_REPEATS times;
    then the first n_random rule sets random_tables draws for `seed` for which it holds."""
    presets = [t for t in every_table() if keep(t)]
    return presets * FAMILY_PRESET_REPEATS + _drawn_where(keep, seed, n_random)


def three_player_tables(seed: int, n_random: int) -> list:
    """`--tables three-player`: the tables of a round on three-player Crates where no seat
    may draw at will: each Crates preset with 3 players, FAMILY_PRESET_REPEATS times; then
    n_random such rule sets drawn from the whole knob space with the generator of `seed`
    (random_tables' draws, the others skipped)."""
    return _where_tables(lambda r: (r.family == "crates" and r.players == 3
                                    and not r.knobs["draw_when_able"]), seed, n_random)


def four_player_individual_tables(seed: int, n_random: int) -> list:
    """`--tables four-player-individual`: the tables of a round on Crates individual play
    with 4 players where no seat may draw at will: each Crates preset with 4 players in
    individual play, FAMILY_PRESET_REPEATS times; then n_random such rule sets drawn from
    the whole knob space with the generator of `seed` (random_tables' draws, the others
    skipped)."""
    return _where_tables(lambda r: (r.family == "crates" and r.players == 4 and not r.partnerships
                                    and not r.knobs["draw_when_able"]), seed, n_random)


def partnerships_no_at_will_tables(seed: int, n_random: int) -> list:
    """`--tables partnerships-no-at-will`: the tables of a round on Crates partnerships
    where no seat may draw at will (partnership_tables mixes both): each Crates preset
    with 4 players in partnerships, FAMILY_PRESET_REPEATS times; then n_random such rule
    sets drawn from the whole knob space with the generator of `seed`."""
    return _where_tables(_partners_without_draws_at_will, seed, n_random)


def _partners_without_draws_at_will(rules: Rules) -> bool:
    """Whether `rules` is Crates with 4 players in partnerships where no seat may draw at will."""
    return (rules.family == "crates" and rules.players == 4 and rules.partnerships
            and not rules.knobs["draw_when_able"])


def partnerships_short_deck_tables(seed: int, n_random: int) -> list:
    """`--tables partnerships-short-deck`: the tables of a round on Crates partnerships
    where no seat may draw at will, a wild card stays and two ranks or more are taken out
    (a deck of 44 cards or fewer, where the stock runs dry and the pressure war decides
    hands): n_random such rule sets drawn from the whole knob space with the generator of
    `seed` (no preset is one: their decks are whole)."""
    return _where_tables(lambda r: (_partners_without_draws_at_will(r)
                                    and r.deck_size <= SHORT_DECK and has_wild_card(r)),
                         seed, n_random)


def _short_deck_tables(players: int, seed: int, n_random: int) -> list:
    """n_random Crates rule sets in individual play with `players` players, no draws at
    will, a wild card and two ranks or more taken out (a deck of SHORT_DECK cards or fewer),
    drawn from the whole knob space with the generator of `seed` (no preset is one: their
    decks are whole)."""
    return _where_tables(lambda r: (r.family == "crates" and r.players == players
                                    and not r.partnerships and not r.knobs["draw_when_able"]
                                    and r.deck_size <= SHORT_DECK and has_wild_card(r)),
                         seed, n_random)


def two_player_short_deck_tables(seed: int, n_random: int) -> list:
    """`--tables two-player-short-deck`: the tables of a round on two-player Crates where no
    seat may draw at will, a wild card stays and two ranks or more are taken out (a deck of
    44 cards or fewer: the class where two-player adept stayed furthest below expert,
    -4.9 on average over 14 measured rule sets, against -0.6 on 48 cards and +0.5 on 52):
    _short_deck_tables with 2 players."""
    return _short_deck_tables(2, seed, n_random)


def three_player_short_deck_tables(seed: int, n_random: int) -> list:
    """`--tables three-player-short-deck`: the same with 3 players (where, with a wild card,
    adept stayed -2.5 below expert on average over 11 measured rule sets of 44 cards, -1.7
    over 12 of 48 and -0.3 over 22 of 52, before set 35)."""
    return _short_deck_tables(3, seed, n_random)


def four_player_short_deck_tables(seed: int, n_random: int) -> list:
    """`--tables four-player-short-deck`: the same with 4 players in individual play (where,
    with a wild card, adept stayed -5.8 below expert on average over 3 measured rule sets
    of 44 cards, -3.7 over 4 of 48 and +0.7 over 9 of 52; two rounds on them gained head to
    head and lost against expert, so nothing was routed: docs/strategies.md, "Four players
    in individual play on short decks")."""
    return _short_deck_tables(4, seed, n_random)


def partnerships_at_will_tables(seed: int, n_random: int) -> list:
    """`--tables partnerships-at-will`: the tables of a round on Crates partnerships where
    a seat may draw at will (partnership_tables mixes both ways): each Crates preset with
    4 players in partnerships and draw_when_able, FAMILY_PRESET_REPEATS times; then
    n_random such rule sets drawn from the whole knob space with the generator of `seed`
    (random_tables' draws, the others skipped)."""
    return _with_knobs_tables({"draw_when_able": True}, lambda r: (
        r.family == "crates" and r.players == 4 and r.partnerships
        and r.knobs["draw_when_able"]), seed, n_random)


def has_wild_card(rules: Rules) -> bool:
    """Whether a card of the deck is wild, as the kernels' per-card tables say (an 8, or a
    Crates 9 where nine_wild, not taken out by remove_ranks)."""
    a = rules.to_array()
    wild = np.isin(a[EFFECT:EFFECT + 52], (E_WILD, E_WILD9))
    return bool((wild & (a[IN_DECK:IN_DECK + 52] == 1)).any())


def no_wild_tables(seed: int, n_random: int) -> list:
    """`--tables no-wild`: the tables of a round on Crates with 3 players or more where no
    card is wild and no seat may draw at will (the race to an empty stock with nothing to
    change the suit): n_random such rule sets drawn from the whole knob space with the
    generator of `seed` (no preset is one: their 8s are wild)."""
    return _where_tables(lambda r: r.players >= 3 and _no_wild_no_at_will(r), seed, n_random)


def three_player_no_wild_tables(seed: int, n_random: int) -> list:
    """`--tables three-player-no-wild`: no_wild_tables' with 3 players alone (where adept
    stayed furthest below expert among such tables in individual play: -5.6 on average over
    8 measured rule sets of 44 cards and -5.8 over 3 of 48; two rounds on them made set 36,
    adept-three-player-no-wild.json: docs/strategies.md, "Three players without a wild
    card, two rounds")."""
    return _where_tables(lambda r: r.players == 3 and _no_wild_no_at_will(r), seed, n_random)


def _no_wild_no_at_will(rules: Rules) -> bool:
    """Whether `rules` is a Crates table with no wild card where no seat may draw at will."""
    return (rules.family == "crates" and not rules.knobs["draw_when_able"]
            and not has_wild_card(rules))


def no_wild_at_will_tables(seed: int, n_random: int) -> list:
    """`--tables no-wild-at-will`: the tables of a round on Crates where no card is wild
    and a seat may draw at will (no_wild_tables has none): n_random such rule sets, every
    player count, with and without partnerships, drawn from the whole knob space with the
    generator of `seed` (no preset is one: their 8s are wild)."""
    return _where_tables(_no_wild_at_will, seed, n_random)


def _no_wild_at_will(rules: Rules) -> bool:
    """Whether `rules` is a Crates table with no wild card where a seat may draw at will."""
    return (rules.family == "crates" and rules.knobs["draw_when_able"]
            and not has_wild_card(rules))


def two_player_no_wild_at_will_tables(seed: int, n_random: int) -> list:
    """`--tables two-player-no-wild-at-will`: no_wild_at_will_tables' kind of table with 2
    players alone (the race for the stock's pressures with no card to change the suit,
    where two-player adept lost to expert by 79 to 90 points): n_random such rule sets drawn
    from the whole knob space with the generator of `seed` (no preset is one)."""
    return _where_tables(lambda r: r.players == 2 and _no_wild_at_will(r), seed, n_random)


def eights_unlimited_tables(seed: int, n_random: int) -> list:
    """`--tables eights-unlimited`: the tables of a round on Crazy Eights with 3 players or
    more where a seat draws as many cards as it likes (draw_rule=unlimited; the two-player
    tables have a round of their own): each Crazy Eights preset with 3 players or more
    and draw_rule=unlimited, FAMILY_PRESET_REPEATS times; then n_random such rule sets
    drawn from the whole knob space with the generator of `seed` (random_tables' draws,
    the others skipped)."""
    return _with_knobs_tables({"draw_rule": "unlimited"}, lambda r: (
        r.family == "eights" and r.players >= 3 and r.knobs["draw_rule"] == "unlimited"),
        seed, n_random)


def two_player_at_will_tables(seed: int, n_random: int) -> list:
    """`--tables two-player-at-will`: the tables of a round on two-player Crates where a
    seat may draw at will (two_player_tables mixes both ways): each Crates preset with 2
    players and draw_when_able, FAMILY_PRESET_REPEATS times; then n_random such rule sets
    drawn from the whole knob space with the generator of `seed` (random_tables' draws,
    the others skipped)."""
    return _with_knobs_tables({"draw_when_able": True}, lambda r: (
        r.family == "crates" and r.players == 2 and r.knobs["draw_when_able"]),
        seed, n_random)


@dataclass(frozen=True)
class TablePart:
    """One part of the table space a round of `crates train --player adept --tables NAME`
    plays alone: its name, the function that gives its tables for a seed
    (`tables(seed, n_random)`), how many rule sets that draws, and the words `--help`
    gives it (`{n}` stands for n_random)."""

    name: str
    tables: Callable[[int, int], list]
    about: str
    n_random: int = 40

    def draw(self, seed: int) -> list:
        """The part's tables for `seed`."""
        return self.tables(seed, self.n_random)

    def help(self) -> str:
        """`NAME: what it plays`, as `crates train --help` lists it."""
        return f"{self.name}: {self.about.format(n=self.n_random)}"


#: the parts of the table space `crates train --player adept --tables` offers besides
#: `every` (training_tables) and `three` (THREE_TABLES), in the order `--help` lists them;
#: a new part is one entry here
TABLE_PARTS = (
    TablePart("eights", eights_tables, "the Crazy Eights family's presets (three times) and "
              "{n} of its rule sets drawn with --seed"),
    TablePart("crates", crates_tables, "the same for the Crates family ({n} drawn)"),
    TablePart("partnerships", partnership_tables, "the Crates presets with 4 players in "
              "partnerships, with and without draws at will (three times), and {n} Crates "
              "partnership rule sets drawn with --seed"),
    TablePart("two-player", two_player_tables, "the Crates presets with 2 players, with and "
              "without draws at will (three times), and {n} two-player Crates rule sets drawn "
              "with --seed"),
    TablePart("two-player-eights", lambda seed, n: two_player_tables(seed, n, "eights"),
              "the same for the Crazy Eights family"),
    TablePart("at-will", at_will_tables, "the Crates presets with 3 players or more in "
              "individual play with draws at will (three times), and {n} such rule sets "
              "drawn with --seed"),
    TablePart("three-player", three_player_tables, "the Crates presets with 3 players (three "
              "times), and {n} three-player Crates rule sets without draws at will drawn with "
              "--seed"),
    TablePart("four-player-individual", four_player_individual_tables, "the Crates presets "
              "with 4 players in individual play (three times), and {n} such rule sets without "
              "draws at will drawn with --seed"),
    TablePart("partnerships-no-at-will", partnerships_no_at_will_tables, "the Crates presets "
              "with 4 players in partnerships (three times), and {n} such rule sets without "
              "draws at will drawn with --seed"),
    TablePart("no-wild", no_wild_tables, "{n} Crates rule sets with 3 players or more, no wild "
              "card (8s removed, 9s not wild or removed) and no draws at will, drawn with "
              "--seed"),
    TablePart("eights-unlimited", eights_unlimited_tables, "the Crazy Eights presets with 3 "
              "players or more and draw_rule=unlimited (three times), and {n} such rule sets "
              "drawn with --seed"),
    TablePart("two-player-at-will", two_player_at_will_tables, "the Crates presets with 2 "
              "players and draws at will (three times), and {n} such rule sets drawn with "
              "--seed"),
    TablePart("no-wild-at-will", no_wild_at_will_tables, "{n} Crates rule sets with no wild "
              "card and draws at will, every player count, drawn with --seed"),
    TablePart("two-player-no-wild-at-will", two_player_no_wild_at_will_tables, "{n} such rule "
              "sets with 2 players, drawn with --seed"),
    TablePart("partnerships-at-will", partnerships_at_will_tables, "the Crates presets with 4 "
              "players in partnerships and draws at will (three times), and {n} such rule sets "
              "drawn with --seed"),
    TablePart("partnerships-short-deck", partnerships_short_deck_tables, "{n} Crates "
              "partnership rule sets without draws at will, with a wild card, on a deck of 44 "
              "cards or fewer (two ranks out), drawn with --seed"),
    TablePart("two-player-short-deck", two_player_short_deck_tables, "{n} such two-player "
              "Crates rule sets"),
    TablePart("three-player-short-deck", three_player_short_deck_tables, "{n} such "
              "three-player ones"),
    TablePart("four-player-short-deck", four_player_short_deck_tables, "{n} such four-player "
              "ones in individual play"),
    TablePart("three-player-no-wild", three_player_no_wild_tables, "{n} three-player Crates "
              "rule sets with no wild card and no draws at will"),
)


def table_part(name: str) -> TablePart:
    """The TABLE_PARTS entry called `name`."""
    for part in TABLE_PARTS:
        if part.name == name:
            return part
    raise CratesError(f"no part of the table space is called {name!r}"
                      f"{did_you_mean(name, [p.name for p in TABLE_PARTS])}")


def knob_values(base: str, knob: str, players: int) -> list:
    """The values `knob` is tried at, its base value left out."""
    rules = Rules.preset(base, players)
    current = rules.knobs[knob]
    kind = KNOBS[knob][1]
    if isinstance(kind, tuple):
        values = list(kind)
    elif kind is bool:
        values = [not current]
    else:
        values = list(TRIED.get(knob, ()))
    return [v for v in values if str(v) != str(current)]


#: the round from which `crates train --player adept` adds `focus_tables()` to the tables
#: its games cycle through (rounds 1 and 2 learn from training_tables alone)
FOCUS_FROM = 3
#: the Crates presets and player counts focus_tables plays with draw_when_able=true
FOCUS_DRAW_AT_WILL = (("classic", 2, None), ("classic", 4, False), ("league", 4, True),
                      ("serbian", 4, True))


def focus_tables() -> list:
    """The tables where the networks of rounds 1 and 2 were furthest below expert (issue
    38's measurements), played again from round FOCUS_FROM: every preset with 2 players;
    draw_when_able=true (a voluntary draw on every turn) on the tables FOCUS_DRAW_AT_WILL
    names; and classic partnerships with each knob value `crates balance --knobs all`
    tries, one at a time (so the knob table a designer reads is measured on tables the
    networks learned from)."""
    out = [Rules.preset(name, 2) for name in PRESETS]
    for name, players, partnerships in FOCUS_DRAW_AT_WILL:
        knobs = {"draw_when_able": True}
        if partnerships is not None:
            knobs["partnerships"] = partnerships
        out.append(Rules.preset(name, players, **knobs))
    defaults = PRESETS["classic"][2]
    for knob in defaults:
        if knob in FIXED or knob in SAFETY or knob == "first_dealer":  # who deals first only
            continue
        for value in knob_values("classic", knob, 4):
            out.append(Rules.preset("classic", 4, **{knob: value}))
    return out


def spec(rules: Rules) -> str:
    """A rule set as the command line names it: `--preset PRESET[:knob=value,...]
    --players N` (the knobs that differ from the preset's, partnerships among them)."""
    return f"--preset {rules.describe()} --players {rules.players}"


#: `three`: the three tables of issue 30 (adept:net=3 was trained on them)
THREE_TABLES = (("classic", True), ("classic", False), ("crazy-eights", None))
#: the names `parse_tables` knows
TABLE_SETS = ("every", "three", "drawn")


def parse_tables(text: str) -> list:
    """The tables a `--tables` value names: `every` (every_table), `three` (THREE_TABLES),
    `drawn:N:SEED` (random_tables(N, SEED)), or several joined by `+`."""
    out = []
    for part in text.split("+"):
        name, *rest = part.strip().split(":")
        if name == "every" and not rest:
            out += every_table()
        elif name == "three" and not rest:
            out += [Rules.preset(p, 4, **({} if s is None else {"partnerships": s}))
                    for p, s in THREE_TABLES]
        elif name == "drawn" and len(rest) == 2 and all(x.strip().isdigit() for x in rest):
            out += random_tables(int(rest[0]), int(rest[1]))
        else:
            raise CratesError(f"--tables: {part.strip()!r}{did_you_mean(name, TABLE_SETS)} is not "
                              f"every, three or drawn:N:SEED (e.g. drawn:10:3801)")
    return out
