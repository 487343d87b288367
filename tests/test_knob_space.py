"""The tables adept trains and is measured on (crates_sim.knob_space): every preset at every
player count, and rule sets drawn from the whole knob space, the same for the same seed."""

from collections import defaultdict

import pytest

from crates_sim.errors import CratesError
from crates_sim.knob_space import (
    EIGHTS_MAX_PLAYERS,
    FAMILY_PRESET_REPEATS,
    FOCUS_DRAW_AT_WILL,
    TABLE_PARTS,
    at_will_tables,
    crates_tables,
    eights_tables,
    eights_unlimited_tables,
    every_table,
    focus_tables,
    four_player_individual_tables,
    four_player_short_deck_tables,
    has_wild_card,
    no_wild_at_will_tables,
    no_wild_tables,
    partnership_tables,
    partnerships_at_will_tables,
    partnerships_no_at_will_tables,
    partnerships_short_deck_tables,
    random_tables,
    spec,
    table_part,
    three_player_no_wild_tables,
    three_player_short_deck_tables,
    three_player_tables,
    training_tables,
    two_player_at_will_tables,
    two_player_no_wild_at_will_tables,
    two_player_short_deck_tables,
    two_player_tables,
)
from crates_sim.rules import KNOBS, PRESETS, Rules


def test_every_table_has_each_preset_at_each_player_count():
    seen = defaultdict(set)
    for rules in every_table():
        seen[rules.preset_name].add((rules.players, rules.partnerships))
    for name, (family, (lo, hi), _d, _doc) in PRESETS.items():
        top = hi if family == "crates" else EIGHTS_MAX_PLAYERS
        counts = {p for p, _ in seen[name]}
        assert counts == set(range(lo, top + 1)), name
        if family == "crates":
            assert {(4, True), (4, False)} <= seen[name]


def test_drawn_tables_are_valid_reproducible_and_cover_the_knobs():
    tables = random_tables(300, seed=7)
    assert tables == random_tables(300, seed=7)
    assert tables != random_tables(300, seed=8)
    values = defaultdict(set)
    for rules in tables:
        assert Rules.from_spec(rules.describe(), rules.players) == rules  # names it exactly
        for knob, value in rules.to_dict().items():
            values[knob].add(value)
    for knob, (_family, kind) in KNOBS.items():
        if knob in ("max_turns_per_hand", "max_hands"):
            continue
        assert len(values[knob]) >= 2, knob  # every knob takes more than one value
        if isinstance(kind, tuple) and knob != "first_dealer":
            assert values[knob] == set(kind), knob
    assert {r.preset_name for r in tables} == set(PRESETS)


def test_training_tables_repeat_the_partnership_presets_then_draw():
    tables = training_tables(0, 5)
    base = every_table()
    assert tables[:len(base)] == base and tables[-5:] == random_tables(5, 0)
    assert sum(t.partnerships for t in tables) > sum(t.partnerships for t in base)


def test_family_tables_are_one_familys_presets_repeated_then_its_drawn_sets():
    """--tables crates / eights: the family's presets FAMILY_PRESET_REPEATS times, then the
    family's rule sets in the order random_tables draws them (the other family's skipped)."""
    for family, tables_of in (("crates", crates_tables), ("eights", eights_tables)):
        tables = tables_of(11, 4)
        presets = [t for t in every_table() if t.family == family]
        assert tables[:-4] == presets * FAMILY_PRESET_REPEATS
        assert {t.family for t in tables} == {family}
        drawn = [t for t in random_tables(40, 11) if t.family == family]
        assert tables[-4:] == drawn[:4] and tables_of(11, 4) == tables
    assert any(t.partnerships for t in crates_tables(11, 0))
    assert any(not t.partnerships for t in crates_tables(11, 0) if t.players == 4)


def test_partnership_tables_are_the_partnership_presets_with_and_without_draws_at_will():
    """--tables partnerships: every Crates preset with 4 players in partnerships, with and
    without draw_when_able, FAMILY_PRESET_REPEATS times; then Crates partnership rule sets
    in the order random_tables draws them (the others skipped)."""
    tables = partnership_tables(11, 4)
    presets = tables[:-4]
    assert len(presets) == 6 * FAMILY_PRESET_REPEATS
    assert sorted({(t.preset_name, t.knobs["draw_when_able"]) for t in presets}) == sorted(
        (name, at_will) for name in ("classic", "league", "serbian") for at_will in (False, True))
    assert all(t.family == "crates" and t.players == 4 and t.partnerships for t in tables)
    assert all(t == Rules.preset(t.preset_name, 4, partnerships=True,
                                 draw_when_able=t.knobs["draw_when_able"]) for t in presets)
    drawn = [t for t in random_tables(200, 11)
             if t.family == "crates" and t.players == 4 and t.partnerships]
    assert tables[-4:] == drawn[:4] and partnership_tables(11, 4) == tables


def test_two_player_tables_are_the_crates_presets_for_two_with_and_without_draws_at_will():
    """--tables two-player: each Crates preset with 2 players, with and without
    draw_when_able, FAMILY_PRESET_REPEATS times; then two-player Crates rule sets in the
    order random_tables draws them (the others skipped)."""
    tables = two_player_tables(11, 4)
    presets = tables[:-4]
    assert len(presets) == 6 * FAMILY_PRESET_REPEATS
    assert sorted({(t.preset_name, t.knobs["draw_when_able"]) for t in presets}) == sorted(
        (name, at_will) for name in ("classic", "league", "serbian") for at_will in (False, True))
    assert all(t.family == "crates" and t.players == 2 for t in tables)
    drawn = [t for t in random_tables(200, 11) if t.family == "crates" and t.players == 2]
    assert tables[-4:] == drawn[:4] and two_player_tables(11, 4) == tables


def test_at_will_tables_are_crates_individual_play_with_draws_at_will():
    """--tables at-will: each Crates preset with 3 players or more in individual play with
    draw_when_able, FAMILY_PRESET_REPEATS times; then such rule sets in the order
    random_tables draws them (the others skipped)."""
    tables = at_will_tables(11, 4)
    presets = tables[:-4]
    assert len(presets) == 7 * FAMILY_PRESET_REPEATS
    assert sorted({(t.preset_name, t.players) for t in presets}) == [
        ("classic", 3), ("classic", 4), ("classic", 5), ("league", 3), ("league", 4),
        ("serbian", 3), ("serbian", 4)]
    assert all(t.family == "crates" and t.players >= 3 and not t.partnerships
               and t.knobs["draw_when_able"] for t in tables)
    drawn = [t for t in random_tables(400, 11) if t.family == "crates" and t.players >= 3
             and not t.partnerships and t.knobs["draw_when_able"]]
    assert tables[-4:] == drawn[:4]


def test_three_player_tables_are_crates_with_three_players_and_no_draws_at_will():
    """--tables three-player: each Crates preset with 3 players, FAMILY_PRESET_REPEATS
    times; then three-player Crates rule sets without draws at will in the order
    random_tables draws them (the others skipped)."""
    tables = three_player_tables(11, 4)
    presets = tables[:-4]
    assert presets == [Rules.preset(name, 3) for name in ("classic", "league", "serbian")
                       ] * FAMILY_PRESET_REPEATS
    assert all(t.family == "crates" and t.players == 3 and not t.knobs["draw_when_able"]
               for t in tables)
    drawn = [t for t in random_tables(400, 11) if t.family == "crates" and t.players == 3
             and not t.knobs["draw_when_able"]]
    assert tables[-4:] == drawn[:4] and three_player_tables(11, 4) == tables


def test_four_player_individual_tables_are_crates_individual_play_without_draws_at_will():
    """--tables four-player-individual: each Crates preset with 4 players in individual
    play, FAMILY_PRESET_REPEATS times; then such rule sets without draws at will in the
    order random_tables draws them (the others skipped)."""
    tables = four_player_individual_tables(11, 4)
    presets = tables[:-4]
    assert presets == [Rules.preset(name, 4, partnerships=False)
                       for name in ("classic", "league", "serbian")] * FAMILY_PRESET_REPEATS
    assert all(t.family == "crates" and t.players == 4 and not t.partnerships
               and not t.knobs["draw_when_able"] for t in tables)
    drawn = [t for t in random_tables(400, 11) if t.family == "crates" and t.players == 4
             and not t.partnerships and not t.knobs["draw_when_able"]]
    assert tables[-4:] == drawn[:4]


def test_partnerships_no_at_will_tables_are_crates_partnerships_without_draws_at_will():
    """--tables partnerships-no-at-will: each Crates preset with 4 players in
    partnerships, FAMILY_PRESET_REPEATS times; then such rule sets without draws at will in
    the order random_tables draws them (the others skipped)."""
    tables = partnerships_no_at_will_tables(11, 4)
    assert tables[:-4] == [Rules.preset(name, 4, partnerships=True)
                           for name in ("classic", "league", "serbian")] * FAMILY_PRESET_REPEATS
    assert all(t.family == "crates" and t.players == 4 and t.partnerships
               and not t.knobs["draw_when_able"] for t in tables)
    drawn = [t for t in random_tables(400, 11) if t.family == "crates" and t.partnerships
             and not t.knobs["draw_when_able"]]
    assert tables[-4:] == drawn[:4]


def test_no_wild_tables_are_crates_tables_for_three_or_more_without_a_wild_card():
    """--tables no-wild: Crates rule sets with 3 players or more, no wild card and no draws
    at will, in the order random_tables draws them (the others skipped); no preset is one."""
    tables = no_wild_tables(11, 4)
    assert len(tables) == 4 and no_wild_tables(11, 4) == tables
    assert all(t.family == "crates" and t.players >= 3 and not t.knobs["draw_when_able"]
               and "8" in t.knobs["remove_ranks"] for t in tables)
    assert all("9" in t.knobs["remove_ranks"] or not t.knobs["nine_wild"] for t in tables)
    drawn = [t for t in random_tables(4000, 11) if t.family == "crates" and t.players >= 3
             and not t.knobs["draw_when_able"] and not has_wild_card(t)]
    assert tables == drawn[:4]


def test_no_wild_at_will_tables_are_crates_tables_without_a_wild_card_with_draws_at_will():
    """--tables no-wild-at-will: Crates rule sets with no wild card where a seat may draw at
    will, every player count, in the order random_tables draws them (the others skipped)."""
    tables = no_wild_at_will_tables(11, 6)
    assert len(tables) == 6 and no_wild_at_will_tables(11, 6) == tables
    assert all(t.family == "crates" and t.knobs["draw_when_able"] and not has_wild_card(t)
               for t in tables)
    drawn = [t for t in random_tables(8000, 11) if t.family == "crates"
             and t.knobs["draw_when_able"] and not has_wild_card(t)]
    assert tables == drawn[:6]


def test_two_player_no_wild_at_will_tables_keep_only_two_player_ones():
    """--tables two-player-no-wild-at-will: the same kind of table with 2 players alone, in
    the order random_tables draws them (the others skipped)."""
    tables = two_player_no_wild_at_will_tables(11, 3)
    assert len(tables) == 3 and two_player_no_wild_at_will_tables(11, 3) == tables
    drawn = [t for t in random_tables(40000, 11) if t.family == "crates" and t.players == 2
             and t.knobs["draw_when_able"] and not has_wild_card(t)]
    assert tables == drawn[:3]


def test_partnerships_at_will_tables_are_crates_partnerships_with_draws_at_will():
    """--tables partnerships-at-will: each Crates preset with 4 players in partnerships and
    draw_when_able, three times, then such rule sets in the order random_tables draws them
    (the others skipped)."""
    tables = partnerships_at_will_tables(11, 4)
    assert all(t.family == "crates" and t.players == 4 and t.partnerships
               and t.knobs["draw_when_able"] for t in tables)
    assert tables[:-4] == [Rules.preset(name, 4, partnerships=True, draw_when_able=True)
                           for name in ("classic", "league", "serbian")] * FAMILY_PRESET_REPEATS
    drawn = [t for t in random_tables(2000, 11) if t.family == "crates" and t.partnerships
             and t.knobs["draw_when_able"]]
    assert tables[-4:] == drawn[:4]


def test_eights_unlimited_tables_are_crazy_eights_with_draws_at_will_and_three_or_more():
    """--tables eights-unlimited: the Crazy Eights presets with 3 players or more and
    draw_rule=unlimited, three times, then such rule sets in the order random_tables draws
    them (the others skipped)."""
    tables = eights_unlimited_tables(11, 4)
    assert eights_unlimited_tables(11, 4) == tables
    assert all(t.family == "eights" and t.players >= 3 and t.knobs["draw_rule"] == "unlimited"
               for t in tables)
    presets = [t for t in tables if t.knobs == {**Rules.preset(t.preset_name, t.players).knobs,
                                                  "draw_rule": "unlimited"}]
    assert {(t.preset_name, t.players) for t in presets} >= {("crazy-eights", 3),
                                                              ("very-crazy-eights", 5)}
    drawn = [t for t in random_tables(400, 11) if t.family == "eights" and t.players >= 3
             and t.knobs["draw_rule"] == "unlimited"]
    assert tables[-4:] == drawn[:4]
    assert len(tables) == 4 + 3 * len({(t.preset_name, t.players) for t in tables[:-4]})


def test_two_player_at_will_tables_are_two_player_crates_with_draws_at_will():
    """--tables two-player-at-will: each Crates preset with 2 players and draw_when_able,
    three times, then such rule sets in the order random_tables draws them (the others
    skipped)."""
    tables = two_player_at_will_tables(11, 4)
    assert two_player_at_will_tables(11, 4) == tables
    assert all(t.family == "crates" and t.players == 2 and t.knobs["draw_when_able"]
               for t in tables)
    assert tables[:-4] == [Rules.preset(name, 2, draw_when_able=True)
                           for name in ("classic", "league", "serbian")] * FAMILY_PRESET_REPEATS
    drawn = [t for t in random_tables(1000, 11) if t.family == "crates" and t.players == 2
             and t.knobs["draw_when_able"]]
    assert tables[-4:] == drawn[:4]


def test_has_wild_card_reads_the_removed_ranks_and_nine_wild():
    """8s are wild in both families unless removed; Crates 9s where nine_wild."""
    assert has_wild_card(Rules.preset("classic", 4))
    assert has_wild_card(Rules.preset("classic", 4, remove_ranks="8"))  # the 9s
    assert not has_wild_card(Rules.preset("classic", 4, remove_ranks="8", nine_wild=False))
    assert not has_wild_card(Rules.preset("classic", 4, remove_ranks="89"))
    assert has_wild_card(Rules.preset("crazy-eights", 4, remove_ranks="9"))
    assert not has_wild_card(Rules.preset("crazy-eights", 4, remove_ranks="8"))


def test_two_player_eights_tables_are_the_crazy_eights_presets_for_two():
    """--tables two-player-eights: the same for the Crazy Eights family: each of its
    presets with 2 players, with and without draw_when_able, then its two-player rule
    sets in the order random_tables draws them."""
    tables = two_player_tables(11, 4, "eights")
    assert len(tables) == 4 * FAMILY_PRESET_REPEATS + 4
    assert sorted({(t.preset_name, t.knobs["draw_when_able"]) for t in tables[:-4]}) == sorted(
        (name, at_will) for name in ("crazy-eights", "very-crazy-eights") for at_will in (False, True))
    assert all(t.family == "eights" and t.players == 2 for t in tables)
    drawn = [t for t in random_tables(400, 11) if t.family == "eights" and t.players == 2]
    assert tables[-4:] == drawn[:4]


def test_focus_tables_are_the_heads_up_tables_draws_at_will_and_the_knob_table():
    from crates_sim.analysis.knobs import SAFETY, knob_variants

    tables = focus_tables()
    heads_up = [t for t in tables if t == Rules.preset(t.preset_name, 2)]
    assert sorted(t.preset_name for t in heads_up) == sorted(PRESETS)
    at_will = [t for t in tables if t.family == "crates" and t.knobs["draw_when_able"]]
    assert len(at_will) == len(FOCUS_DRAW_AT_WILL) + 1  # and classic's own knob value
    # every knob value `crates balance --knobs all` tries from classic, one at a time (the
    # knobs that change only who deals first, or who partners whom, aside)
    knobs = [(k, None) for k in PRESETS["classic"][2]
             if k not in SAFETY and k not in ("partnerships", "first_dealer")]
    wanted = {Rules.from_spec(s, 4) for _k, _v, s in knob_variants("classic", knobs, 4)}
    classic4 = {t for t in tables if t.preset_name == "classic" and t.players == 4
                and t.partnerships}
    assert wanted <= classic4 and len(classic4 - wanted) == 0
    assert focus_tables() == tables  # the same every time (the run's settings name them)


def test_a_spec_names_the_table_as_the_command_line_does():
    rules = Rules.preset("classic", 4, partnerships=False, seven_target="next")
    assert spec(rules) == "--preset classic:partnerships=False,seven_target=next --players 4"


def test_compare_on_tables_writes_one_row_a_table_and_commands_that_replay_them(tmp_path):
    import shlex

    import pandas as pd
    from click.testing import CliRunner

    from crates_sim.cli.main import cli

    runner = CliRunner()
    out = tmp_path / "t"
    args = ["compare", "--strategies", "greedy,random", "--tables", "drawn:2:5", "--games", "4",
            "--seed", "9", "--workers", "1", "--out", str(out)]
    res = runner.invoke(cli, args)
    assert res.exit_code == 0, res.output
    rows = pd.read_csv(out / "tables.csv")
    assert len(rows) == 2 and list(rows["seed"]) == [9, 10]
    assert set(rows["b"]) == {"random"} and (rows["deals"] == 4).all()
    # the command of a row plays that table alone, to the same result
    again = shlex.split(rows["command"][1].replace(str(out / rows["table"][1]),
                                                   str(tmp_path / "alone")))[1:]
    assert runner.invoke(cli, [*again, "--workers", "1"]).exit_code == 0
    alone = pd.read_csv(tmp_path / "alone" / "pairs.csv")
    assert 100 * alone["win_diff"][0] == rows["win_diff"][1]
    # resumed: nothing played again
    assert runner.invoke(cli, args).exit_code == 0
    bad = runner.invoke(cli, [*args[:-1], str(tmp_path / "b"), "--preset", "league"])
    assert bad.exit_code != 0 and "--tables names the rules itself" in bad.output
    worse = runner.invoke(cli, ["compare", "-s", "greedy,random", "--tables", "drawn:x",
                                "--out", str(tmp_path / "c")])
    assert worse.exit_code != 0 and "drawn:N:SEED" in worse.output


def test_partnerships_short_deck_tables_are_short_wild_partnership_decks_without_draws_at_will():
    """--tables partnerships-short-deck: Crates partnership rule sets without draws at will,
    with a wild card, on 44 cards or fewer, in the order random_tables draws them (the
    others skipped; no preset is one)."""
    tables = partnerships_short_deck_tables(11, 4)
    assert len(tables) == 4
    drawn = [t for t in random_tables(20000, 11) if t.family == "crates" and t.partnerships
             and not t.knobs["draw_when_able"] and t.deck_size <= 44 and has_wild_card(t)]
    assert tables == drawn[:4]
    assert all(len(t.knobs["remove_ranks"]) >= 2 for t in tables)


@pytest.mark.parametrize("players, drawn_tables", [(2, two_player_short_deck_tables),
                                                    (3, three_player_short_deck_tables),
                                                    (4, four_player_short_deck_tables)])
def test_short_deck_tables_are_short_wild_individual_decks_without_draws_at_will(
        players, drawn_tables):
    """--tables two-player-short-deck, three-player-short-deck and four-player-short-deck:
    Crates rule sets with 2 (3, 4) players in individual play, without draws at will, with
    a wild card, on 44 cards or fewer, in the order random_tables draws them (the others
    skipped; no preset is one)."""
    tables = drawn_tables(11, 4)
    assert len(tables) == 4
    drawn = [t for t in random_tables(20000, 11) if t.family == "crates"
             and t.players == players and not t.partnerships and not t.knobs["draw_when_able"]
             and t.deck_size <= 44 and has_wild_card(t)]
    assert tables == drawn[:4]
    assert all(len(t.knobs["remove_ranks"]) >= 2 for t in tables)


def test_three_player_no_wild_tables_are_three_player_tables_without_a_wild_card_or_draws_at_will():
    """--tables three-player-no-wild: three-player Crates rule sets with no wild card and no
    draws at will, in the order random_tables draws them (no preset is one)."""
    tables = three_player_no_wild_tables(11, 4)
    drawn = [t for t in random_tables(20000, 11) if t.family == "crates" and t.players == 3
             and not t.knobs["draw_when_able"] and not has_wild_card(t)]
    assert tables == drawn[:4]
    assert all("8" in t.knobs["remove_ranks"] for t in tables)


def test_every_part_of_the_table_space_is_a_train_choice_with_its_words_and_tables():
    """knob_space.TABLE_PARTS is the one list `crates train --tables` offers besides every and
    three: each part is a choice, `--help` gives its words with its count, its tables are the
    same for the same seed, and a misspelt name is one error that suggests the nearest."""
    from crates_sim.cli.train import train

    option = next(p for p in train.params if p.name == "table_set")
    assert list(option.type.choices) == ["every", "three", *(p.name for p in TABLE_PARTS)]
    for part in TABLE_PARTS:
        assert part.help() in option.help and "{n}" not in part.help()
        assert table_part(part.name) is part
        tables = part.tables(11, 2)
        assert tables and all(isinstance(t, Rules) for t in tables)
        assert tables == part.tables(11, 2) and tables[-2:] != part.tables(12, 2)[-2:]
    assert len({p.name for p in TABLE_PARTS}) == len(TABLE_PARTS)
    with pytest.raises(CratesError, match="did you mean 'four-player-short-deck'"):
        table_part("four-player-shortdeck")
