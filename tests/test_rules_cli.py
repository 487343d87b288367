"""Rules validation, the trace/replay/rules commands and their errors (through click)."""

import json

import pytest
from click.testing import CliRunner

from crates_sim import CratesError, Rules
from crates_sim.cli.main import cli
from crates_sim.engine.api import run_games


def invoke(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.mark.parametrize("kwargs,message", [
    (dict(name="whist"), "unknown preset"),
    (dict(name="classic", players=6), "2 to 5 players"),
    (dict(name="league", players=5), "2 to 4 players"),
    (dict(name="classic", players=3, partnerships=True), "partnerships need 4 players"),
    (dict(name="classic", colour="red"), "unknown knob"),
    (dict(name="classic", draw_rule="one"), "does not apply to classic"),
    (dict(name="crazy-eights", seven_target="next"), "does not apply"),
    (dict(name="classic", seven_target="left"), "not one of"),
    (dict(name="classic", count_forced="maybe"), "not true or false"),
    (dict(name="classic", spare_three="x"), "not a whole number"),
    (dict(name="classic", remove_ranks="QZ"), "no rank Z"),
    (dict(name="classic", players=5, remove_ranks="A23456"), "too few cards"),
    (dict(name="crazy-eights", players=7, hand_size=8), "too few cards"),
])
def test_bad_rules_are_refused_clearly(kwargs, message):
    name = kwargs.pop("name")
    players = kwargs.pop("players", 4)
    with pytest.raises(CratesError, match=message):
        Rules.preset(name, players, **kwargs)


def test_rules_defaults_and_overrides():
    classic = Rules.preset("classic")
    assert classic.partnerships and classic.to_dict()["seven_target"] == "across"
    assert not Rules.preset("classic", 3).partnerships
    league = Rules.preset("league", seven_target="next")
    assert league.to_dict()["seven_target"] == "next"
    assert league.differences() == {"seven_target": "next"}
    assert Rules.preset("crazy-eights", 2).to_dict()["hand_size"] == 7
    assert Rules.preset("crazy-eights", 3).to_dict()["hand_size"] == 5
    assert Rules.from_spec("classic:seven_target=next,count_forced=false", 4).differences() == {
        "seven_target": "next", "count_forced": False}
    assert Rules.preset("classic", remove_ranks="kq").to_dict()["remove_ranks"] == "QK"
    assert Rules.preset("classic") == Rules.preset("classic")
    assert hash(Rules.preset("classic")) == hash(Rules.preset("classic"))


def test_every_knob_of_each_family_is_in_the_log_rules():
    crates = set(Rules.preset("serbian", 4).to_dict())
    assert crates == {"partnerships", "count_value", "count_forced", "seven_target", "nine_wild",
                      "nine_colour", "jack_effect", "pressure_scope", "last_card_penalty",
                      "six_exempt", "upcard_rule", "out_rule", "spare_three", "draw_when_able",
                      "max_turns_per_hand", "first_dealer", "remove_ranks"}
    eights = set(Rules.preset("very-crazy-eights", 4).to_dict())
    assert eights == {"draw_rule", "draw_when_able", "hand_size", "target_score", "max_hands",
                      "max_turns_per_hand", "first_dealer", "remove_ranks"}


def test_rules_command_lists_and_shows():
    out = invoke("rules", "--list").output
    assert all(p in out for p in ("classic", "league", "serbian", "crazy-eights", "very-crazy-eights"))
    shown = invoke("rules", "league").output
    assert "last_card_penalty" in shown and "forfeit" in shown
    assert json.loads(invoke("rules", "serbian", "--json").output)["out_rule"] == "immediate"


def test_trace_writes_the_game_of_the_fast_path(tmp_path):
    out = tmp_path / "g.jsonl"
    result = invoke("trace", "--preset", "league", "--players", "3", "--strategies",
                    "greedy,random,random", "--seed", "9", "--game", "4", "--out", str(out))
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in out.read_text().splitlines()]
    assert events[0] == {"ev": "game", "preset": "league", "rules": Rules.preset("league", 3).to_dict(),
                         "players": 3, "seed": 9, "game": 4,
                         "strategies": ["greedy", "random", "random"]}
    assert [e["ev"] for e in events].count("deal") == 15
    fast = run_games(Rules.preset("league", 3), ["greedy", "random", "random"], 9, 4, 1)
    assert events[-1]["totals"] == fast.games["total"].tolist()


def test_trace_to_stdout_and_set_knobs():
    result = invoke("trace", "--set", "seven_target=next", "--set", "first_dealer=random",
                    "--seed", "1")
    assert result.exit_code == 0
    first = json.loads(result.output.splitlines()[0])
    assert first["rules"]["seven_target"] == "next" and first["rules"]["first_dealer"] == "random"


def test_replay_prints_a_play_by_play(tmp_path):
    out = tmp_path / "g.jsonl"
    invoke("trace", "--seed", "3", "--out", str(out))
    text = invoke("replay", str(out)).output
    assert "== Hand 1: seat 0 deals 8 cards" in text
    assert "== Hand 15" in text and "Game over" in text and "winner(s)" in text
    assert "plays" in text and "draws" in text and "totals:" in text


@pytest.mark.parametrize("args,message", [
    (["trace", "--preset", "nope"], "Invalid value"),
    (["trace", "--players", "7"], "2 to 5 players"),
    (["trace", "--strategies", "greedy,random"], "2 strategies for 4 players"),
    (["trace", "--strategies", "genius"], "unknown strategy"),
    (["trace", "--strategies", "greedy:depth=3"], "bad parameter"),
    (["trace", "--set", "seven_target"], "name=value"),
    (["trace", "--set", "bogus=1"], "unknown knob"),
    (["trace", "--partnerships", "--players", "3"], "4 players"),
    (["trace", "--out", "/dev/null/dir/g.jsonl"], "cannot write"),
])
def test_cli_errors_are_one_line(args, message):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code != 0
    assert message in result.output
    assert "Traceback" not in result.output
    assert sum(line.startswith("Error") for line in result.output.splitlines()) == 1


def test_replay_of_a_file_that_is_not_a_log(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    result = CliRunner().invoke(cli, ["replay", str(bad)])
    assert result.exit_code == 2 and "not JSON" in result.output


def test_every_command_has_help():
    for name, command in cli.commands.items():
        result = invoke(name, "--help")
        assert result.exit_code == 0 and len(result.output) > 200, name
        assert command.help, name


def test_follow_hands_holds_what_the_engine_scored():
    # the held cards that replay and `crates play` show at a hand's end are the cards the
    # engine left in each hand: as many as its hand rows say, and in Crates the same score
    import numpy as np

    from crates_sim.cards import parse_card
    from crates_sim.engine.api import run_games, trace_game
    from crates_sim.engine.scoring_nb import score_crates_hand
    from crates_sim.play.replay import follow_hands
    from crates_sim.rules import Rules

    rules = Rules.preset("classic", 4)
    specs = ["greedy", "random", "random", "random"]
    rows = run_games(rules, specs, 3, 5, 1).hands
    held, ends = [], []
    for ev in trace_game(rules, specs, 3, 5)[1:]:
        held = follow_hands(held, ev)
        if ev["ev"] == "hand_end":
            ends.append([len(h) for h in held])
            for q, cards in enumerate(held):  # what the explanation scores, and the engine
                hand = np.array([parse_card(c) for c in cards], dtype=np.int64)
                points = score_crates_hand(rules.to_array(), hand, len(hand),
                                           np.zeros(max(1, len(hand)), dtype=np.int64))[0]
                assert points == ev["points"][q]
    assert np.array_equal(np.array(ends).ravel(), rows["cards_left"])
