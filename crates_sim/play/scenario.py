"""Play one hand from a stacked deck: the scripted-deal scenarios of the tests and docs.

    events, result = stacked_hand(Rules.preset("classic", 2), ["greedy", "greedy"],
                                  hands=[["4C", "KC"], ["5C", "QH"]], upcard="9C",
                                  stock=["AH", "2H", "3H"])

The events are the hand's log records (docs/log-format.md: deal, call, play, draw, pressure, pass,
hand_end); `result` has the hand's points and totals per seat, the end reason and out seat.
"""

from __future__ import annotations

import numpy as np

from .. import cards as C
from ..engine import engine_nb as nb
from ..engine.api import decode_log, engine_table, new_hand_rows
from ..errors import CratesError
from ..strategy import addresses, resolve


def _hand_number(rules, size: int) -> int:
    if rules.family == "crates":
        if size not in C.CRATES_HAND_SIZES:
            raise CratesError(f"no Crates hand deals {size} cards")
        return C.CRATES_HAND_SIZES.index(size) + 1
    if size != rules.hand_size:
        raise CratesError(f"this rule set deals {rules.hand_size} cards, not {size}")
    return 1


def stacked_deck(hands, upcard, stock, dealer: int, rest=()) -> list[int]:
    """The deck order that deals `hands` (seat by seat, from the dealer's left).

    The stock is `stock` (top first) followed by the cards of `rest` not yet used."""
    n = len(hands)
    size = len(hands[0])
    deck = []
    for i in range(n * size):
        seat = (dealer + 1 + i % n) % n
        deck.append(C.parse_card(hands[seat][i // n]))
    deck.append(C.parse_card(upcard))
    deck.extend(C.parse_card(c) for c in stock)
    used = set(deck)
    deck.extend(c for c in rest if c not in used)
    if len(set(deck)) != len(deck):
        raise CratesError("a card appears twice in the stacked deck")
    return deck


def stacked_hand(rules, strategies, hands, upcard, stock=(), dealer=0, hand=None, totals=None,
                 pressures=None, full_stock=True):
    """Play one hand of `rules` from the given cards; returns (events, result).

    The stock is `stock` (top first) then, with full_stock, every other card of the deck
    in card order (AC AD AH AS 2C ...), so that a hand can always be played out."""
    n = rules.players
    if len(hands) != n or len({len(h) for h in hands}) != 1:
        raise CratesError(f"give {n} hands of one size")
    hand_no = hand if hand is not None else _hand_number(rules, len(hands[0]))
    R = rules.to_array()
    rest = [c for c in range(52) if R[C.IN_DECK + c]] if full_stock else ()
    deck = np.array(stacked_deck(hands, upcard, stock, dealer, rest), dtype=np.int64)
    ids, params = resolve(list(strategies))
    addrs = addresses(list(strategies))
    start = np.zeros((n, 2), dtype=np.int64)
    if totals is not None:
        start[:, 0] = totals
    if pressures is not None:
        start[:, 1] = pressures
    log = np.zeros(1 << 22, dtype=np.int64)
    stats = np.zeros(nb.N_STATS, dtype=np.int64)
    columns = new_hand_rows(n)
    st, sv = nb.play_stacked_nb(R, ids, params, addrs, engine_table(), deck, hand_no, dealer,
                                start, log, stats, columns)
    rows = np.stack([c.astype(np.int64) for c in columns], axis=1)  # [seat, H_* field]
    events = decode_log(log[:int(stats[nb.T_LOG_WORDS])], rules, strategies, 0, 0)[1:]
    end = next(e for e in events if e["ev"] == "hand_end")
    result = {
        "reason": end["reason"], "out": end["out"], "points": end["points"],
        "totals": end["totals"], "turns": int(st[nb.S_TURNS]),
        "cards_left": [int(sv[q, nb.SV_HAND_N]) for q in range(n)],
        "pressures": [int(sv[q, nb.SV_G_PRESSURES]) for q in range(n)],
        "rows": rows,
    }
    return events, result


def brief(events) -> list[str]:
    """Short text of the events, for compact assertions: 'play 1 4C', 'draw 2 5H five' ..."""
    out = []
    for e in events:
        if e["ev"] == "play":
            out.append(f"play {e['seat']} {e['card']}" + (f" {e['suit']}" if e["suit"] else "")
                       + (" !" if e["announce"] else ""))
        elif e["ev"] == "draw":
            out.append(f"draw {e['seat']} {e['card']} {e['why']}")
        elif e["ev"] == "pressure":
            out.append(f"pressure {e['seat']} {e['points']}" + ("" if "stock" in e else " dead"))
        elif e["ev"] == "call":
            out.append(f"call {e['seat']} {e['suit']}")
        elif e["ev"] == "pass":
            out.append(f"pass {e['seat']}")
        elif e["ev"] == "hand_end":
            out.append(f"end {e['reason']} {e['out']}")
    return out
