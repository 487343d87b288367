"""`guided` (issue 30 §2): expert's search with adept's network as a prior and a pruner.
Its two limits are today's players exactly: prior 0 (and keep 0) at 60 deals is expert's games, keep 1
is adept's; in between it plays its own."""

from __future__ import annotations

import pytest

from crates_sim.errors import CratesError
from crates_sim.play.pyagent_run import trace_game
from crates_sim.rules import Rules
from crates_sim.strategy import parse_strategies, resolve

TABLES = [("classic", {}), ("classic", {"partnerships": False}), ("crazy-eights", {})]


def _game(rules, spec, game=0, seed=3):
    events = trace_game(rules, parse_strategies(spec, rules.players), seed, game)
    return [e for e in events if e["ev"] != "game"]  # the header names the strategies


@pytest.mark.parametrize("preset,knobs", TABLES)
def test_without_the_network_it_is_expert(preset, knobs):
    rules = Rules.preset(preset, 4, **knobs)
    assert _game(rules, "guided:prior=0:samples=60") == _game(rules, "expert")


@pytest.mark.parametrize("preset,knobs", TABLES)
def test_searching_only_the_networks_best_option_is_adept(preset, knobs):
    rules = Rules.preset(preset, 4, **knobs)
    assert _game(rules, "guided:keep=1:samples=1") == _game(rules, "adept")


def test_the_prior_and_the_pruning_change_its_play():
    rules = Rules.preset("classic", 4)
    expert = _game(rules, "expert", game=1)
    assert _game(rules, "guided", game=1) != expert
    assert _game(rules, "guided:prior=0:keep=2", game=1) != expert


def test_its_parameters_are_checked():
    ids, params = resolve(["guided:samples=20:prior=40:keep=3"])
    assert list(params[0][:8]) == [20, 0, 0.5, 15, 0, 2, 40, 3]
    with pytest.raises(CratesError):
        parse_strategies("guided:prior=-1", 4)
    with pytest.raises(CratesError):
        parse_strategies("guided:keep=1.5", 4)
