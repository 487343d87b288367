"""A game log's decisions, found by playing its game again on the step engine.

Contract: `log_table(events)` is a `crates_sim.play.step.Table` (every seat outside, recording)
set up from a checked log's header (`replay.read_log`: rules, seed, game);
`logged_decisions(table, events)` is a generator that walks that table through the game,
yielding per decision `(decision, option, index)`: the table's pending decision, the legal
option the log shows was chosen and the index in `events` of the event that shows it. The
table is answered with that option when the caller asks for the next one, so a caller sees
the table as it stood before each answer. Once the table has no pending decision the replay
is checked event for event against the log. A log saved unfinished (no `game_end`) stops
cleanly at the first decision it holds no answer for, and is checked up to its last event.

Anything that keeps the log from replaying raises `LogMismatch` (a CratesError) with one
line saying where: header rules the engine refuses, a logged choice that is not a legal
option, a replay that comes out different from the log. A caller that needs no reason
(`crates replay --html`: a page without options) catches it; `crates analyse` reports it.

How a decision is placed: where the deciding seat holds the cards it held then, under the
same top card; that seat's next play, draw (by choice or taking a count), pass or pressure
from there is its answer. A suit call or an announcement belongs to the play it goes with;
the dealer's call of the upcard's suit is the log's next `call`.
"""

from __future__ import annotations

from .. import cards as C
from ..errors import CratesError
from ..rules import Rules
from .replay import SUIT_NAMES, follow_hands

#: the reasons of a draw that a seat chose (`why` in the log): by choice, or taking a count
CHOSEN_DRAWS = ("voluntary", "count", "vce_two")


class LogMismatch(CratesError):
    """The log does not replay on this engine; the message (one line) says where."""


def option_name(phase: int, option: int) -> str:
    """An option of a decision in words: a suit, (no) announcement, draw, pass or a card."""
    if phase in (C.PH_CALL, C.PH_BLIND_CALL):
        return SUIT_NAMES[C.SUITS[option]]
    if phase == C.PH_ANNOUNCE:
        return "announce" if option else "no announcement"
    if option == C.ACTION_DRAW:
        return "draw"
    if option == C.ACTION_PASS:
        return "pass"
    return C.card_name(option)


def _answer(phase: int, options, ev: dict) -> int | None:
    """The option of a decision that the log's next event `ev` shows was chosen."""
    kind = ev["ev"]
    if phase in (C.PH_CALL, C.PH_BLIND_CALL):
        suit = ev.get("suit")
        want = C.SUITS.index(suit) if isinstance(suit, str) and len(suit) == 1 and suit in C.SUITS else None
    elif phase == C.PH_ANNOUNCE:
        want = 1 if ev.get("announce") else 0
    elif kind == "play":
        want = C.parse_card(ev["card"])
    elif kind in ("draw", "pressure"):
        want = C.ACTION_DRAW
    elif kind == "pass":
        want = C.ACTION_PASS
    else:
        return None
    return want if want in options else None


def _positions(events) -> list[tuple]:
    """Before each event of the log: (every seat's cards, sorted; the top card)."""
    held: list[list[str]] = []
    top = None
    out = []
    for ev in events:
        out.append((tuple(tuple(sorted(h)) for h in held), top))
        held = follow_hands(held, ev)
        if ev["ev"] == "deal":
            top = ev["upcard"]
        elif ev["ev"] == "play":
            top = ev["card"]
    return out


def _short(ev: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in ev.items() if k not in ("hands", "stock", "rules"))[:80]


def log_table(events):
    """A recording Table, every seat outside, of the game in the log's header `events[0]`;
    LogMismatch when the engine cannot play its rules."""
    from .step import Table

    game = events[0]
    try:
        rules = Rules.preset(game["preset"], game["players"], **game["rules"])
        return Table(rules, [None] * rules.players, game["seed"], game["game"], record=True)
    except (CratesError, KeyError, TypeError, ValueError) as exc:
        raise LogMismatch(f"its header's rules cannot be played ({exc})") from None


def logged_decisions(table, events):
    """Yield (decision, option, event index) for each decision of `table` (from `log_table`)
    as the log `events` answers it, acting on the table between yields; see the module doc."""
    before = _positions(events)
    unfinished = events[-1]["ev"] != "game_end"  # saved by `crates play` after a quit
    cursor, play_at, call_free = 1, None, False
    while table.pending is not None:
        d = table.pending
        if d.phase == C.PH_ANNOUNCE or (d.phase == C.PH_CALL and call_free):
            at, advance = play_at, False  # the play this call or announcement belongs to
            call_free = call_free and d.phase != C.PH_CALL
        elif d.phase in (C.PH_CALL, C.PH_BLIND_CALL):  # the dealer's call of the upcard's suit
            advance = True
            at = next((e for e in range(cursor, len(events)) if events[e]["ev"] == "call"), None)
        else:
            advance = True
            hand = tuple(sorted(C.card_name(int(c)) for c in d.hand))
            top = C.card_name(int(d.pile[-1])) if len(d.pile) else None
            start = next((e for e in range(cursor, len(events)) if before[e][0]
                          and before[e][0][d.seat] == hand and before[e][1] == top), None)
            at = None if start is None else next(
                (e for e in range(start, len(events)) if events[e].get("seat") == d.seat
                 and events[e]["ev"] in ("play", "draw", "pass", "pressure")
                 and (events[e]["ev"] != "draw" or events[e]["why"] in CHOSEN_DRAWS)), None)
            play_at = at
            call_free = at is not None and events[at]["ev"] == "play" and events[at].get("suit") is not None
        option = None if at is None else _answer(d.phase, d.options, events[at])
        if option is None and unfinished and at is None:
            break  # the log stops before this decision's answer
        if option is None:
            where = f"line {at + 1}" if at is not None else f"hand {table.hand}"
            raise LogMismatch(f"at {where}, seat {d.seat}'s logged choice is not one of its legal "
                              f"options ({', '.join(option_name(d.phase, o) for o in d.options)})")
        if advance:
            cursor = at + 1 if events[at]["ev"] != "pressure" else at
        yield d, option, at
        table.act(option)
    made = table.events(names=events[0].get("strategies"))
    if unfinished:
        made = made[:len(events)]
    for i, (a, b) in enumerate(zip(made[1:], events[1:], strict=False), start=2):
        if a != b:
            raise LogMismatch(f"line {i} is {_short(b)}, the replay gives {_short(a)}")
    if len(made) != len(events):
        raise LogMismatch(f"the log has {len(events)} events, the replay {len(made)}")


__all__ = ["CHOSEN_DRAWS", "LogMismatch", "log_table", "logged_decisions", "option_name"]
