"""`crates play`'s loop driven in-process (`cli.play.Game` with scripted answers): what the
table shows is what has been decided (issue 40.1), and the move list holds every move
since your last turn (issue 40.2)."""

import io

from rich.console import Console

from crates_sim import Rules
from crates_sim import cards as C
from crates_sim.cli.play import Game
from crates_sim.play.replay import SUIT_NAMES
from crates_sim.play.step import Table

WILDS = (C.E_WILD, C.E_WILD9)


def _game(preset, players, seed, game, answer):
    """A Game at seat 0 against greedy, its screen a string, `answer(game, decision,
    screen)` giving each key typed (None quits)."""
    rules = Rules.preset(preset, players)
    seats = [None] + ["greedy"] * (players - 1)
    names = ["you"] + seats[1:]
    out = io.StringIO()
    console = Console(file=out, width=160, highlight=False, color_system=None)
    table = Table(rules, seats, seed, game, record=True)
    holder = {}

    def ask(prompt):
        return answer(holder["game"], table.pending, out.getvalue())

    holder["game"] = Game(table, 0, names, None, console, ask)
    return holder["game"], table, out


def test_a_suit_call_is_shown_only_once_made():
    """Play the first wild you can, then call a suit other than the engine's placeholder
    (the first option): at the call prompt no suit is shown for your play; at your next
    decision the suit you called is, and the log has it."""
    rules = Rules.preset("classic", 4)
    R = rules.to_array()
    state = {"called": None, "at_call": None, "after": None}

    def answer(game, d, screen):
        if state["called"] is not None:
            state["after"] = screen[state["mark"]:]
            return None
        if d.phase == C.PH_CALL:
            state["at_call"] = screen[screen.rfind("call a suit"):]
            suit = d.options[-1]
            state["called"] = C.SUITS[suit]
            state["mark"] = len(screen)
            return str(len(d.options))
        if d.phase == C.PH_ANNOUNCE:
            return "y"
        wild = [i for i, o in enumerate(d.options, 1) if 0 <= o < 52 and R[C.EFFECT + o] in WILDS]
        return str(wild[0] if wild else 1)

    for game_no in range(6):
        state.update(called=None, at_call=None, after=None)
        game, table, out = _game("classic", 4, 7, game_no, answer)
        game.run()
        if state["called"] is not None and state["after"] is not None:
            break
    assert state["called"] is not None and state["after"] is not None, "no wild played in 6 games"
    at_call = state["at_call"]
    assert "you played" in at_call and ": now call its suit" in at_call, at_call
    listed = at_call.split("since your last turn:")[1].split("your hand:")[0].splitlines()
    assert not any(x.strip().startswith("you played") and "called" in x for x in listed), at_call
    suit_name = SUIT_NAMES[state["called"]]
    assert f"called {suit_name}" in state["after"], state["after"]
    plays = [e for e in table.events() if e["ev"] == "play" and e["seat"] == 0 and e["suit"]]
    assert plays and plays[-1]["suit"] == state["called"]


def test_a_pause_at_a_call_logs_nothing_undecided():
    """Table.events at a call or announcement holds only decided moves: every event is
    the same in the finished game's log (the placeholder answer is never shown)."""
    rules = Rules.preset("classic", 4)
    checked = 0
    for game_no in range(3):
        table = Table(rules, [None, "greedy", "greedy", "greedy"], 5, game_no, record=True)
        seen = []
        while table.pending is not None:
            d = table.pending
            if d.phase in (C.PH_CALL, C.PH_ANNOUNCE, C.PH_BLIND_CALL):
                seen.append(table.events())
                moving = table.move_in_progress()
                if d.phase != C.PH_BLIND_CALL:
                    assert moving is not None and moving["seat"] == 0 and moving["announce"] is None
                    assert moving["suit"] is None or d.phase == C.PH_ANNOUNCE
            table.act(d.options[-1])
        final = table.events()
        for events in seen:
            assert final[:len(events)] == events
            checked += 1
    assert checked > 0


def test_the_move_list_keeps_every_move_since_your_last():
    """Between two of your turns every move is listed, however many (the list once kept
    the last 6)."""
    longest = {"n": 0, "moves": 0}

    def answer(game, d, screen):
        if d.phase == C.PH_ANNOUNCE:
            return "y"
        if table.hand > 2:
            return None
        events = table.events()
        since = [e for e in events[game.list_start():] if e["ev"] in ("play", "draw", "pass", "pressure")]
        listed = game.recent_plays()
        moves = [x for x in listed if " dealt by seat " not in x]
        assert len(moves) == len(since) + (table.move_in_progress() is not None)
        if len(since) > longest["n"]:
            longest.update(n=len(since), moves=len(moves))
        return "1"

    game, table, out = _game("classic", 4, 7, 0, answer)
    game.run()
    assert longest["n"] > 6 and longest["moves"] == longest["n"]
    assert "since your last turn:" in out.getvalue()


def test_hint_values_and_analyse_state_one_unit():
    """play's hint values and `crates analyse` say the same unit for expert (and adept),
    and pimc's cut rollouts are labelled as another scale (issue 40.3)."""
    from crates_sim.analysis.move_analysis import summary_lines
    from crates_sim.play.step import VALUE_UNIT, value_unit

    assert value_unit("expert", "crates").startswith(VALUE_UNIT)
    assert value_unit("adept", "crates").startswith(VALUE_UNIT)
    assert "not expected points to the end of the hand" in value_unit("pimc", "crates")
    assert value_unit("pimc:depth=0", "crates") == VALUE_UNIT
    screens = []

    def answer(game, d, screen):
        if "value of each move" in screen:
            screens.append(screen)
            return None
        return "y" if d.phase == C.PH_ANNOUNCE else "1"

    rules = Rules.preset("classic", 4)
    table = Table(rules, [None, "greedy", "greedy", "greedy"], 7, 0, record=True)
    out = io.StringIO()
    console = Console(file=out, width=400, highlight=False, color_system=None)
    game = Game(table, 0, ["you", "greedy", "greedy", "greedy"], "expert:samples=8", console,
                lambda prompt: answer(game, table.pending, out.getvalue()))
    game.run()
    assert screens and f"value of each move, in {VALUE_UNIT}" in screens[0]
    result = {"game": {"preset": "classic", "players": 4, "seed": 7, "game": 0, "unfinished": True},
              "method": {"strategy": "expert", "samples": 8, "streams": 8, "noise_z": 2.0,
                         "thresholds": {"blunder": 20.0}, "win_model": None, "units": VALUE_UNIT},
              "seats": {}, "decisions": []}
    assert f"values and loss in {VALUE_UNIT}" in summary_lines(result)[1]
