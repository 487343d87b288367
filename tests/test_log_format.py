"""docs/log-format.md against the logs the engine writes, so that the two cannot drift apart.

Traces games of every preset and checks that every event type, every field (with its JSON
type), every knob of the `rules` object, every draw reason and every hand-end reason that
occurs is documented in docs/log-format.md, that the doc documents nothing the engine does
not write, and that the doc's example lines (```jsonl blocks) are lines of real logs.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from crates_sim.cards import WHY
from crates_sim.data.schema import REASONS
from crates_sim.engine.api import trace_game
from crates_sim.rules import Rules

DOC = Path(__file__).resolve().parent.parent / "docs" / "log-format.md"

EVENTS = ("game", "deal", "call", "play", "draw", "pressure", "pass", "hand_end", "game_end")

#: (preset, players, knobs, strategies, seed, game). Together these games produce every
#: event type, draw reason and hand-end reason. The first three are the games the doc's
#: examples are taken from (commands in the doc).
GAMES = [
    ("classic", 4, {}, ["random"] * 4, 7, 0),  # crates trace --seed 7 --game 0
    ("classic", 2, {"remove_ranks": "456789TJ"}, ["random"] * 2, 1, 1),  # count_back, dead
    ("crazy-eights", 3, {}, ["greedy", "random", "random"], 1, 2),  # pass, block
    ("classic", 2, {}, ["random:forget=0.3"] * 2, 1, 0),  # jack, cooper, penalty
    ("league", 3, {}, ["random:forget=0.5"] * 3, 1, 0),  # upcard as played, forfeit
    ("serbian", 4, {}, ["random:forget=0.5"] * 4, 1, 1),
    ("classic", 4, {"max_turns_per_hand": 40, "draw_when_able": True}, ["random"] * 4, 1, 0),  # cap, voluntary
    ("crazy-eights", 5, {"draw_rule": "unlimited"}, ["random"] * 5, 1, 0),
    ("very-crazy-eights", 4, {}, ["random"] * 4, 1, 0),  # vce_two, vce_queen
]
EXAMPLE_GAMES = 3

JSON_TYPES = {bool: "boolean", int: "integer", str: "string", list: "array", dict: "object",
              type(None): "null"}


@pytest.fixture(scope="module")
def traces():
    return [trace_game(Rules.preset(preset, n, **knobs), specs, seed, game)
            for preset, n, knobs, specs, seed, game in GAMES]


@pytest.fixture(scope="module")
def doc():
    return DOC.read_text(encoding="utf-8")


def sections(text: str, level: str) -> dict[str, str]:
    """Heading -> text of each section of this level ('##' or '###')."""
    out = {}
    parts = re.split(rf"^{level} (.+)$", text, flags=re.M)
    for title, body in zip(parts[1::2], parts[2::2], strict=True):
        out[title.strip()] = re.split(r"^#{2,3} ", body, flags=re.M)[0]
    return out


def table(text: str, header: str) -> dict[str, list[str]]:
    """`name` -> the other cells of each row of the table whose first column is `header`."""
    rows: dict[str, list[str]] = {}
    current = None
    for line in text.splitlines():
        if not line.startswith("|"):
            current = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if current is None:  # the header row
            current = cells[0]
            continue
        m = re.fullmatch(r"`([^`]+)`", cells[0])
        if current == header and m:
            rows[m.group(1)] = cells[1:]
    return rows


def event_sections(doc: str) -> dict[str, str]:
    events_part = re.split(r"^## ", doc.split("\n## Events\n", 1)[1], flags=re.M)[0]
    out = {}
    for title, body in sections(events_part, "###").items():
        m = re.fullmatch(r"`(\w+)`", title)
        assert m, f"docs/log-format.md: event heading {title!r} is not `name`"
        out[m.group(1)] = body
    return out


def all_events(traces):
    return [e for events in traces for e in events]


def test_the_games_show_everything(traces):
    """The traced games produce every event type, draw reason and hand-end reason (else
    the checks below would miss some: pick other games)."""
    events = all_events(traces)
    assert {e["ev"] for e in events} == set(EVENTS)
    assert {e["why"] for e in events if e["ev"] == "draw"} == set(WHY)
    assert {e["reason"] for e in events if e["ev"] == "hand_end"} == set(REASONS)
    assert any(e["ev"] == "pressure" and "stock" not in e for e in events)
    assert any(e["ev"] == "play" and e["suit"] is None for e in events)
    assert any(e["ev"] == "hand_end" and e["out"] is None for e in events)


def test_every_event_and_field_is_documented(traces, doc):
    documented = event_sections(doc)
    assert set(documented) == set(EVENTS), "the doc's event sections are not the log's events"
    for e in all_events(traces):
        kind = e["ev"]
        rows = table(documented[kind], "field")
        for field, value in e.items():
            if field == "ev":
                assert "`ev`" in doc
                continue
            assert field in rows, f"field {field!r} of the {kind!r} event is not in its table"
            json_type = JSON_TYPES[type(value)]
            assert json_type in rows[field][0], (
                f"{kind}.{field} is a JSON {json_type} in the log, the doc says {rows[field][0]!r}")
    for kind, body in documented.items():
        seen = set().union(*(e.keys() for e in all_events(traces) if e["ev"] == kind))
        rows = table(body, "field")
        # an optional field that trace never writes (`unfinished`: a game play --save kept
        # after a quit; tests/test_play.py reads such a log) is documented, not traced
        extra = {f for f in set(rows) - seen - {"ev"} if "optional" not in rows[f][0]}
        assert not extra, f"the doc lists fields the {kind!r} event never has: {extra}"


def test_every_rules_knob_is_documented(traces, doc):
    knobs = table(event_sections(doc)["game"], "knob")
    for events in traces:
        rules = events[0]["rules"]
        for name, value in rules.items():
            assert name in knobs, f"knob {name!r} of the game event's rules is not documented"
            json_type = JSON_TYPES[type(value)]
            # the knob table's cells: family, type, meaning
            assert json_type in knobs[name][1], f"rules.{name} is a JSON {json_type}"


def test_every_draw_reason_and_hand_end_reason_is_documented(traces, doc):
    parts = sections(doc, "##")
    whys = table(parts["Draw reasons (`why`)"], "`why`")
    reasons = table(parts["Hand-end reasons (`reason`)"], "`reason`")
    assert set(whys) == set(WHY), "the draw-reason table is not crates_sim.cards.WHY"
    assert set(reasons) == set(REASONS), "the hand-end table is not crates_sim.data.schema.REASONS"
    for e in all_events(traces):
        if e["ev"] == "draw":
            assert e["why"] in whys
        elif e["ev"] == "hand_end":
            assert e["reason"] in reasons


def test_the_examples_are_real_log_lines(traces, doc):
    """Every line of a ```jsonl block parses as a JSON event and is a line, byte for byte,
    of one of the example games (regenerate the excerpt with the command in the doc if the
    engine's games change)."""
    real = {json.dumps(e, separators=(",", ":")) for events in traces[:EXAMPLE_GAMES] for e in events}
    blocks = re.findall(r"^```jsonl\n(.*?)^```", doc, flags=re.M | re.S)
    lines = [ln for block in blocks for ln in block.splitlines() if ln.strip()]
    assert len(lines) >= 20
    for line in lines:
        event = json.loads(line)
        assert isinstance(event, dict) and event.get("ev") in EVENTS, line
        assert line in real, f"not a line of the example games: {line[:120]}"
    for command in ("crates trace --seed 7 --game 0",
                    "crates trace -n 2 --set remove_ranks=456789TJ --seed 1 --game 1",
                    "crates trace -p crazy-eights -n 3 -s greedy,random,random --seed 1 --game 2"):
        assert command in doc, command


def test_the_doc_stands_alone(doc):
    """Users never receive the rules specification: the doc must not send them to it."""
    assert "RULES.md" not in doc
