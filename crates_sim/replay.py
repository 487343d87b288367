"""Turn a JSON Lines game log into a play-by-play a person can follow."""

from __future__ import annotations

import json

from .cards import CRATES_VALUES, EIGHTS_VALUES, RANKS, SUITS, parse_card

SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
WHY_TEXT = {
    "cant_play": "cannot play", "count": "takes the count", "five": "a 5 was played",
    "seven": "hit by a 7", "jack": "hit by a jack", "cooper": "Cooper: a lone 6 cannot go out",
    "six_fail": "cannot follow the 6", "penalty": "missed last-card call",
    "vce_two": "takes the run of 2s", "vce_queen": "queen of spades", "voluntary": "by choice",
}


def read_log(path) -> list[dict]:
    """Read a JSON Lines log; raises ValueError naming the line that is not an event."""
    events = []
    with open(path, encoding="utf-8") as fh:
        for no, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                ev = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{no}: not JSON ({exc.msg})") from None
            if not isinstance(ev, dict) or "ev" not in ev:
                raise ValueError(f"{path}:{no}: not a game-log event")
            events.append(ev)
    if not events or events[0]["ev"] != "game":
        raise ValueError(f"{path}: a game log starts with a 'game' event")
    return events


def _effect(card: str, game: dict) -> str:
    rank = card[0]
    eights = game["preset"] in ("crazy-eights", "very-crazy-eights")
    vce = game["preset"] == "very-crazy-eights"
    rules = game["rules"]
    if eights:
        return {"8": "wild", "2": "run of 2s" if vce else "", "J": "skip" if vce else "",
                "K": "reverse" if vce else ""}.get(rank, "") or ("draw five" if vce and card == "QS" else "")
    return {
        "A": "", "2": "count", "4": "skips the next player", "5": "everyone else draws",
        "6": "plays again", "7": "7: the " + ("next player" if rules.get("seven_target") == "next" or game["players"] < 4
                          else "player after next") + " draws", "8": "wild",
        "9": "wild (colour)" if rules.get("nine_wild") else "", "T": "reverse",
        "J": ("jack: the other player draws" if game["players"] == 2 else
              "jack: the previous player draws" if game["players"] == 3 else "")
        if rules.get("jack_effect") == "classic" else "",
    }.get(rank, "")


def _cards(cards) -> str:
    return " ".join(sorted(cards, key=lambda c: (RANKS.index(c[0]), c[1]))) or "-"


def play_by_play(events) -> list[str]:
    """Lines of text describing every event of a log."""
    game = events[0]
    names = game.get("strategies", [])
    out = [f"{game['preset']} · {game['players']} players · seed {game['seed']} · game {game['game']}",
           "strategies: " + ", ".join(f"seat {i} {s}" for i, s in enumerate(names)),
           "rules: " + ", ".join(f"{k}={v}" for k, v in game["rules"].items())]
    crates = game["preset"] not in ("crazy-eights", "very-crazy-eights")
    spare = game["rules"].get("spare_three", 3)
    held: list[list[str]] = []
    for ev in events[1:]:
        kind = ev["ev"]
        if kind == "deal":
            held = [list(h) for h in ev["hands"]]
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
            effect = _effect(card, game)
            if held and card in held[ev["seat"]]:
                held[ev["seat"]].remove(card)
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
            if held:
                held[ev["seat"]].append(ev["card"])
            out.append(f"   seat {ev['seat']} draws {ev['card']}  ({WHY_TEXT.get(ev['why'], ev['why'])})")
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
                how = scoring_text(held[seat], crates, spare) if held and crates else cards
                out.append(f"   seat {seat}: {pts:+d}   [{cards}]" + (f"  = {how}" if crates else ""))
            out.append("   totals: " + "  ".join(f"seat {i}: {t}" for i, t in enumerate(ev["totals"])))
        elif kind == "game_end":
            out.append("")
            out.append("== Game over. Totals: " + ", ".join(f"seat {i} {t}" for i, t in enumerate(ev["totals"])))
            out.append("   winner(s): " + ", ".join(f"seat {w}" for w in ev["winners"]))
    return out


def _value(card: str, crates: bool) -> int:
    return (CRATES_VALUES if crates else EIGHTS_VALUES)[RANKS.index(card[0])]


def scoring_text(cards, crates: bool, spare_three: int = 3) -> str:
    """How a hand left with `cards` scores, 3-covering shown (Crates) or card values."""
    if not cards:
        return "no cards"
    if not crates:
        return " + ".join(f"{c} {_value(c, False)}" for c in cards)
    threes = [c for c in cards if c[0] == "3"]
    if len(threes) == len(cards):
        return f"home run: {len(threes)} x 3 = {-50 * len(threes)}"
    others = sorted((c for c in cards if c[0] != "3"), key=lambda c: -_value(c, True))
    coverable = [c for c in others if c[0] != "8"]
    covered = coverable[:len(threes)]
    parts = [f"3+{c} 3" for c in covered]
    parts += [f"{c} {_value(c, True)}" for c in others if c not in covered]
    spare = len(threes) - len(covered)
    parts += [f"spare 3 {spare_three}"] * spare
    return " + ".join(parts)


__all__ = ["read_log", "play_by_play", "scoring_text", "SUITS"]
