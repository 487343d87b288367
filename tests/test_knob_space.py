"""The tables adept trains and is measured on (crates_sim.knob_space): every preset at every
player count, and rule sets drawn from the whole knob space, the same for the same seed."""

from collections import defaultdict

from crates_sim.knob_space import (
    EIGHTS_MAX_PLAYERS,
    every_table,
    random_tables,
    spec,
    training_tables,
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


def test_a_spec_names_the_table_as_the_command_line_does():
    rules = Rules.preset("classic", 4, partnerships=False, seven_target="next")
    assert spec(rules) == "--preset classic:partnerships=False,seven_target=next --players 4"
