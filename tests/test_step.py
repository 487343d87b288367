"""crates_sim.play.step: a game stepped decision by decision at outside seats is the very game
`crates trace` plays (same seeds, same decisions), paused and resumed by the engine."""

import numpy as np
import pytest

from crates_sim import CratesError, Rules
from crates_sim.engine.api import trace_game
from crates_sim.play.step import Table


def _drive(table, spec):
    steps = 0
    while table.pending is not None:
        table.act(table.hint(spec))
        steps += 1
    return steps


@pytest.mark.parametrize("preset,players", [("classic", 4), ("league", 3), ("serbian", 4),
                                            ("crazy-eights", 4), ("very-crazy-eights", 3)])
def test_every_seat_driven_by_a_hint_reproduces_the_trace(preset, players):
    rules = Rules.preset(preset, players)
    for game in (0, 1):
        table = Table(rules, [None] * players, seed=7, game=game)
        steps = _drive(table, "greedy")
        end = trace_game(rules, ["greedy"] * players, 7, game)[-1]
        assert steps > 20 and table.over
        assert table.totals == end["totals"] and table.winners == end["winners"]


def test_outside_seats_beside_bots_reproduce_the_trace():
    rules = Rules.preset("classic", 4)
    table = Table(rules, [None, "aggressive", None, "random"], seed=3, game=2)
    seen = set()
    while table.pending is not None:
        seen.add(table.pending.seat)
        table.act(table.hint("partner"))
    end = trace_game(rules, ["partner", "aggressive", "partner", "random"], 3, 2)[-1]
    assert seen == {0, 2}
    assert table.totals == end["totals"]
    assert len(table.hand_points) == 15


def test_a_search_bot_beside_outside_seats_plays_its_traced_game():
    # the paused turn is replayed from its start (S_SNAP0): pimc's decisions in other
    # turns are not made again, and those made again draw the same samples
    rules = Rules.preset("classic", 4)
    table = Table(rules, [None, "pimc:samples=2", None, "greedy"], seed=5, game=1)
    hands = set()
    while table.pending is not None:
        hands.add(table.hand)
        table.act(table.hint("greedy"))
    end = trace_game(rules, ["greedy", "pimc:samples=2", "greedy", "greedy"], 5, 1)[-1]
    assert table.totals == end["totals"] and len(hands) == 15


def test_a_decision_keeps_what_it_showed_after_it_is_answered():
    table = Table(Rules.preset("crazy-eights", 3), [None, "greedy", "random"], 2, 0)
    d = table.pending
    options, hand = d.options, d.hand.tolist()
    table.act(options[0])
    assert d.options == options and d.hand.tolist() == hand
    assert table.pending is not d


def test_a_pending_decision_is_what_the_seat_may_see_and_do():
    from crates_sim import cards as C
    from crates_sim import view

    table = Table(Rules.preset("classic", 4), [None, "greedy", "greedy", "greedy"], 1, 0)
    d = table.pending
    assert d.seat == 0 and d.phase in (C.PH_PLAY, C.PH_COUNT, C.PH_BLIND_CALL)
    assert len(d.options) >= 1 and int(d.obs[C.O_SEAT]) == 0
    assert view.hand_size.py_func(d.obs, 0) == len(d.hand)
    with pytest.raises(CratesError, match="not one of the options"):
        table.act(99)
    table.act(d.options[-1])
    assert table.pending is None or table.pending.seat == 0


def test_a_recorded_table_writes_the_log_of_crates_trace():
    rules = Rules.preset("league", 3)
    table = Table(rules, [None, "greedy", None], seed=9, game=4, record=True)
    _drive(table, "greedy")
    mine = table.events()
    theirs = trace_game(rules, ["greedy"] * 3, 9, 4)
    assert mine[0]["strategies"] == ["outside", "greedy", "outside"]
    assert mine[1:] == theirs[1:]


def test_a_search_plays_on_the_paused_game_without_its_log():
    """`paused_copy` drops a recording table's log: a search of the decision on it gives
    what it gives on a whole copy, on a copy of a tenth of the words or less."""
    from crates_sim.engine import engine_nb as nb
    from crates_sim.strategies.expert import expert_explain
    from crates_sim.strategy import resolve

    _ids, (row,) = resolve(["expert:samples=6"])
    for preset, players in (("classic", 4), ("crazy-eights", 3)):
        table = Table(Rules.preset(preset, players), [None] * players, seed=5, game=2, record=True)
        searched = 0
        while table.pending is not None:
            d = table.pending
            if d.phase in (0, 1, 2) and len(d.options) >= 2 and searched < 12:
                small = table.paused_copy()
                assert small.shape[0] * 10 < table._G.shape[0]
                whole, part = [np.zeros(len(d.options)) for _ in range(2)]
                assert expert_explain(table._G.copy(), row, whole)
                assert expert_explain(small, row, part)
                assert (whole == part).all() and whole.any()
                assert nb.copy_paused(small).shape == small.shape  # no log: the same words
                searched += 1
            table.act(table.hint("greedy"))
        assert searched == 12
        assert table.events()[-1]["ev"] == "game_end"  # the table's own log is whole


def test_pimc_hints_come_with_the_mean_outcome_of_every_move():
    table = Table(Rules.preset("classic", 4), [None, "greedy", "greedy", "greedy"], 7, 0)
    while table.pending.phase not in (0, 1, 2):  # a card decision (play, count, again)
        table.act(table.hint("greedy"))
    values = table.hint_values("pimc:samples=8")
    assert set(values) == set(table.pending.options)
    best = max(table.pending.options, key=lambda o: (values[o], -table.pending.options.index(o)))
    assert table.hint("pimc:samples=8") == best
    assert table.hint_values("greedy") is None


@pytest.mark.parametrize("preset,players", [("classic", 4), ("league", 3), ("serbian", 2),
                                            ("crazy-eights", 4), ("very-crazy-eights", 3)])
def test_every_seats_held_mask_is_its_hand_at_every_decision(preset, players):
    """SV_HELD (the card mask that tells a turn with nothing to play from one AND) follows
    every card into and out of every hand: deals, draws, plays, pressures, penalties."""
    from crates_sim.engine import engine_nb as nb

    table = Table(Rules.preset(preset, players), [None] * players, seed=5, game=1)
    checked = 0
    while table.pending is not None:
        core = table.pending._core
        for q in range(players):
            n = int(core[nb.SV0 + q * nb.NSV + nb.SV_HAND_N])
            cards = core[nb.HD0 + q * 52:nb.HD0 + q * 52 + n]
            held = int(core[nb.SV0 + q * nb.NSV + nb.SV_HELD])
            assert held == sum(1 << int(c) for c in cards), (q, sorted(cards.tolist()))
            checked += 1
        table.act(table.hint("random"))
    assert checked > 100
