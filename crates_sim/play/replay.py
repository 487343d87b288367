"""Turn a JSON Lines game log into a play-by-play a person can follow."""

from __future__ import annotations

import json

from .. import cards as C
from ..cards import RANKS, SUITS, card_name, parse_card
from ..rules import PRESETS, Rules

SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
WHY_TEXT = {
    "cant_play": "cannot play", "count": "takes the count", "five": "a 5 was played",
    "seven": "hit by a 7", "jack": "hit by a jack", "cooper": "Cooper: a lone 6 cannot go out",
    "six_fail": "cannot follow the 6", "penalty": "missed last-card call",
    "vce_two": "takes the run of 2s", "vce_queen": "queen of spades", "voluntary": "by choice",
}


class _Bad(Exception):
    """One field of one event is missing or wrong (the text says which)."""


def _int(value, what):
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Bad(f"{what} is {json.dumps(value)}, not a whole number")
    return value


def _seat(value, what, players):
    _int(value, what)
    if not 0 <= value < players:
        raise _Bad(f"{what} is {value}, not a seat of a {players}-player game (0-{players - 1})")
    return value


def _card(value, what):
    if not (isinstance(value, str) and len(value) == 2 and value[0] in RANKS and value[1] in SUITS):
        raise _Bad(f"{what} is {json.dumps(value)}, not a card such as \"TD\"")
    return value


def _list(value, what, length=None):
    if not isinstance(value, list):
        raise _Bad(f"{what} is {json.dumps(value)}, not a list")
    if length is not None and len(value) != length:
        raise _Bad(f"{what} has {len(value)} entries, not one per player ({length})")
    return value


def _check_game(ev):
    preset = ev["preset"]
    if preset not in PRESETS:
        raise _Bad(f"'preset' is {json.dumps(preset)}, not one of {', '.join(PRESETS)}")
    if not isinstance(ev["rules"], dict):
        raise _Bad("'rules' is not an object")
    if _int(ev["players"], "'players'") < 2:
        raise _Bad(f"'players' is {ev['players']}, fewer than 2")
    _int(ev["seed"], "'seed'")
    _int(ev["game"], "'game'")
    if "strategies" in ev:
        _list(ev["strategies"], "'strategies'")


def _suit(value):
    if value not in SUIT_NAMES:
        raise _Bad(f"'suit' is {json.dumps(value)}, not one of C, D, H, S")


def _text(ev, key, example):
    if not isinstance(ev[key], str):
        raise _Bad(f"'{key}' is {json.dumps(ev[key])}, not a name such as \"{example}\"")


def _check(ev, players):
    """Raise _Bad (or KeyError for a missing field) if `ev` cannot be replayed."""
    kind = ev["ev"]
    if kind in ("call", "play", "draw", "pressure", "pass"):
        _seat(ev["seat"], "'seat'", players)
    if kind == "deal":
        _int(ev["hand"], "'hand'")
        _seat(ev["dealer"], "'dealer'", players)
        _int(ev["size"], "'size'")
        for seat, cards in enumerate(_list(ev["hands"], "'hands'", players)):
            for card in _list(cards, f"'hands'[{seat}]"):
                _card(card, f"a card of 'hands'[{seat}]")
        _card(ev["upcard"], "'upcard'")
        for card in _list(ev["stock"], "'stock'"):
            _card(card, "a card of 'stock'")
    elif kind == "call":
        _suit(ev["suit"])
    elif kind == "play":
        _card(ev["card"], "'card'")
        if ev.get("suit") is not None:
            _suit(ev["suit"])
    elif kind == "draw":
        _card(ev["card"], "'card'")
        _text(ev, "why", "cant_play")
    elif kind == "pressure":
        _int(ev["points"], "'points'")
        for card in _list(ev.get("stock", []), "'stock'"):
            _card(card, "a card of 'stock'")
    elif kind == "hand_end":
        _int(ev["hand"], "'hand'")
        _text(ev, "reason", "out")
        if ev.get("out") is not None:
            _seat(ev["out"], "'out'", players)
        for key in ("points", "totals"):
            for value in _list(ev[key], f"'{key}'", players):
                _int(value, f"an entry of '{key}'")
    elif kind == "game_end":
        for value in _list(ev["totals"], "'totals'", players):
            _int(value, "an entry of 'totals'")
        for seat in _list(ev["winners"], "'winners'"):
            _seat(seat, "an entry of 'winners'", players)


def read_log(path) -> list[dict]:
    """Read and check a JSON Lines game log (from `crates trace`).

    Raises ValueError, one line naming the file and the line, for anything that cannot
    be replayed: an empty file, a line that is not JSON or not an event, a file cut
    short in the middle of a line or before its 'game_end' event, a missing 'game'
    header, events after 'game_end', a missing or wrong field. Events of a kind this
    version does not know are kept (and skipped by `play_by_play`).
    """
    events: list[dict] = []
    players = 0
    ended = None
    no = 0
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            for no, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    ev = json.loads(line)
                except json.JSONDecodeError as exc:
                    if not line.endswith("\n"):
                        raise ValueError(f"{path}: line {no} is cut off in the middle of an event "
                                         f"(the file ends there): the log is truncated") from None
                    raise ValueError(f"{path}: line {no} is not JSON ({exc.msg} at column "
                                     f"{exc.colno})") from None
                if not isinstance(ev, dict) or not isinstance(ev.get("ev"), str):
                    raise ValueError(f"{path}: line {no} is not a game-log event "
                                     f"(a JSON object with an 'ev' field)")
                kind = ev["ev"]
                if ended is not None:
                    raise ValueError(f"{path}: line {no}: a '{kind}' event after the 'game_end' "
                                     f"event of line {ended} (two logs in one file?)")
                if not events and kind != "game":
                    raise ValueError(f"{path}: line {no} is a '{kind}' event, but a game log starts "
                                     f"with a 'game' event: its first line is missing")
                if events and kind == "game":
                    raise ValueError(f"{path}: line {no}: a second 'game' event (two logs in one "
                                     f"file?)")
                try:
                    if kind == "game":
                        _check_game(ev)
                        players = ev["players"]
                    else:
                        _check(ev, players)
                except KeyError as exc:
                    raise ValueError(f"{path}: line {no}: the '{kind}' event has no "
                                     f"{exc.args[0]!r} field") from None
                except _Bad as exc:
                    raise ValueError(f"{path}: line {no}: in the '{kind}' event, {exc}") from None
                if kind == "game_end":
                    ended = no
                events.append(ev)
    except UnicodeDecodeError:
        raise ValueError(f"{path}: line {no + 1} is not UTF-8 text: not a game log") from None
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror or exc}") from None
    if not events:
        raise ValueError(f"{path} is empty: a game log from `crates trace` starts with a "
                         f"'game' event")
    if ended is None and events[0].get("unfinished") is not True:
        raise ValueError(f"{path}: the log ends at line {no} without its 'game_end' event: "
                         f"the log is truncated")
    return events


def _rules_of(game: dict):
    """The game's rules (from the log's preset, players and knobs) and their array: every
    card effect and value below is read from it, as the engine reads them."""
    rules = Rules.preset(game["preset"], game["players"], **game["rules"])
    return rules, rules.to_array()


def _effect(card: str, game: dict, R) -> str:
    """What playing `card` does, in words (from the effect table of the rules array)."""
    e = int(R[C.EFFECT + parse_card(card)])
    crates = int(R[C.K_FAMILY]) == C.FAMILY_CRATES
    players = game["players"]
    if e == C.E_SEVEN:
        across = R[C.K_SEVEN_ACROSS] != 0 and players >= 4
        return "7: the " + ("player after next" if across else "next player") + " draws"
    if e == C.E_JACK:
        return {2: "jack: the other player draws", 3: "jack: the previous player draws"}.get(
            players, "")
    return {C.E_COUNT: "count" if crates else "run of 2s",
            C.E_SKIP: "skips the next player" if crates else "skip",
            C.E_FIVE: "everyone else draws", C.E_SIX: "plays again", C.E_WILD: "wild",
            C.E_WILD9: "wild (colour)", C.E_REVERSE: "reverse",
            C.E_QUEEN5: "draw five"}.get(e, "")


def _cards(cards) -> str:
    return " ".join(sorted(cards, key=lambda c: (RANKS.index(c[0]), c[1]))) or "-"


def follow_hands(held: list, ev: dict) -> list:
    """The cards each seat holds (lists of card names) after event `ev` of a log, from
    `held` before it: a deal sets them, a play takes the card out, a draw adds one. The
    lists are updated in place (a deal returns new ones); before the first deal, `held`
    is [] and stays so."""
    if ev["ev"] == "deal":
        return [list(h) for h in ev["hands"]]
    if held and ev["ev"] == "play" and ev["card"] in held[ev["seat"]]:
        held[ev["seat"]].remove(ev["card"])
    elif held and ev["ev"] == "draw":
        held[ev["seat"]].append(ev["card"])
    return held


def play_by_play(events) -> list[str]:
    """Lines of text describing every event of a log (as `read_log` returns it, checked)."""
    game = events[0]
    names = game.get("strategies", [])
    out = [f"{game['preset']} · {game['players']} players · seed {game['seed']} · game {game['game']}",
           "strategies: " + ", ".join(f"seat {i} {s}" for i, s in enumerate(names)),
           "rules: " + ", ".join(f"{k}={v}" for k, v in game["rules"].items())]
    rules, R = _rules_of(game)
    crates = rules.family == "crates"
    held: list[list[str]] = []
    for ev in events[1:]:
        kind = ev["ev"]
        held = follow_hands(held, ev)
        if kind == "deal":
            out.append("")
            out.append(f"== Hand {ev['hand']}: seat {ev['dealer']} deals {ev['size']} cards; "
                       f"upcard {ev['upcard']}; stock {len(ev['stock'])} cards")
            for seat, cards in enumerate(ev["hands"]):
                out.append(f"   seat {seat}: {_cards(cards)}")
        elif kind == "call":
            out.append(f"   seat {ev['seat']} (dealer) calls {SUIT_NAMES[ev['suit']]}")
        elif kind == "play":
            card = ev["card"]
            parse_card(card)
            effect = _effect(card, game, R)
            text = f"   seat {ev['seat']} plays {card}"
            if ev.get("suit"):
                text += f", calls {SUIT_NAMES[ev['suit']]}"
            if effect and effect not in ("wild", "wild (colour)", "count"):
                text += f"  ({effect})"
            if effect == "count":
                text += "  (count)"
            if ev.get("announce"):
                text += "  — \"last card!\""
            out.append(text)
        elif kind == "draw":
            out.append(f"   seat {ev['seat']} draws {ev['card']}  ({draw_reason(ev['why'])})")
        elif kind == "pressure":
            tail = (f"; the pile is reshuffled into a stock of {len(ev['stock'])}"
                    if "stock" in ev else "; nothing to reshuffle: the hand is dead")
            out.append(f"   ** PRESSURE on seat {ev['seat']}: +{ev['points']} points{tail}")
        elif kind == "pass":
            out.append(f"   seat {ev['seat']} passes (stock empty)")
        elif kind == "hand_end":
            who = f"seat {ev['out']} went out" if ev.get("out") is not None else "nobody out"
            out.append(f"-- hand {ev['hand']} ends: {ev['reason']} ({who})")
            for seat, pts in enumerate(ev["points"]):
                cards = _cards(held[seat]) if held else "?"
                how = scoring_text(held[seat], R) if held and crates else cards
                out.append(f"   seat {seat}: {pts:+d}   [{cards}]" + (f"  = {how}" if crates else ""))
            out.append("   totals: " + "  ".join(f"seat {i}: {t}" for i, t in enumerate(ev["totals"])))
        elif kind == "game_end":
            out.append("")
            out.append("== Game over. Totals: " + ", ".join(f"seat {i} {t}" for i, t in enumerate(ev["totals"])))
            out.append("   winner(s): " + ", ".join(f"seat {w}" for w in ev["winners"]))
    if events[-1]["ev"] != "game_end":  # read_log lets only a game saved unfinished end so
        out.append("")
        out.append("== The game stopped here, unfinished (saved by `crates play` after a quit).")
    return out


def move_text(ev, who: str) -> str | None:
    """One seat's move in words, as the play-by-play says it (`crates play`'s move list
    uses it): `who` played, drew (and why), passed or took a pressure; None for another
    kind of event."""
    kind = ev["ev"]
    if kind == "play":
        text = f"{who} played {ev['card']}"
        return text + (f", called {SUIT_NAMES[ev['suit']]}" if ev.get("suit") else "")
    if kind == "draw":
        return f"{who} drew ({draw_reason(ev['why'])})"
    if kind == "pass":
        return f"{who} passed (stock empty)"
    if kind == "pressure":
        return f"{who} took a PRESSURE: +{ev['points']} points"
    return None


def draw_reason(why: str) -> str:
    """Why a seat drew, in words ("cannot play", "a 5 was played"): the log's `why`."""
    return WHY_TEXT.get(why, why)


def scoring_text(cards, R) -> str:
    """How a hand left with `cards` scores under the rules array R: the 3-covering shown
    (Crates; the engine's own scoring kernel decides what is covered) or card values."""
    import numpy as np

    from ..engine.scoring_nb import score_crates_hand

    if not cards:
        return "no cards"
    value = {c: int(R[C.VALUE + parse_card(c)]) for c in cards}
    if int(R[C.K_FAMILY]) != C.FAMILY_CRATES:
        return " + ".join(f"{c} {value[c]}" for c in cards)
    hand = np.array([parse_card(c) for c in cards], dtype=np.int64)
    covered_cards = np.zeros(len(cards), dtype=np.int64)
    points, threes, covered, home = score_crates_hand(R, hand, len(cards), covered_cards)
    if home:
        return f"home run: {threes} x 3 = {points}"
    covered = [card_name(int(c)) for c in covered_cards[:covered]]
    others = sorted((c for c in cards if c[0] != "3"), key=lambda c: -value[c])
    parts = [f"3+{c} 3" for c in covered]
    parts += [f"{c} {value[c]}" for c in others if c not in covered]
    parts += [f"spare 3 {int(R[C.K_SPARE3])}"] * (threes - len(covered))
    return " + ".join(parts)


__all__ = ["read_log", "play_by_play", "follow_hands", "scoring_text", "SUITS"]
