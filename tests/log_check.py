"""A small independent check of a game log's card flow (used by the tests).

It does not know the rules' effects; it checks what every rule set must keep: each play
comes from the player's hand, each draw is the stock's top card, a pressure's new stock is
exactly the old pile below its top card, and every card of the deck is in exactly one place
after every event. It also checks that pressure points double per seat or team and that
the totals add up, with Python's exact integers: the log's points and totals are those
exact values below the points ceiling (2**62), and the ceiling from where a sum reaches it
on; winners are decided by the exact totals (docs/rules.md).
"""

from collections import Counter

from crates_sim.cards import POINTS_CEILING, RANKS


def shown(exact_points: int) -> int:
    """A pressure's points as the log shows them: exact below the ceiling."""
    return min(exact_points, POINTS_CEILING)


def add_shown(total: int, points: int) -> int:
    """A shown total plus shown points: the ceiling, once reached, stays."""
    if total >= POINTS_CEILING or points >= POINTS_CEILING or total + points >= POINTS_CEILING:
        return POINTS_CEILING
    return total + points


def deck_cards(remove_ranks: str) -> Counter:
    return Counter(r + s for r in RANKS if r not in remove_ranks for s in "CDHS")


def check_log(events) -> dict:
    """Raise AssertionError on the first inconsistency; return a few counts."""
    game = events[0]
    assert game["ev"] == "game"
    n = game["players"]
    rules = game["rules"]
    crates = "count_value" in rules
    teams = [q % 2 if rules.get("partnerships") else q for q in range(n)]
    team_scope = crates and rules.get("partnerships") and rules.get("pressure_scope") == "team"
    deck = deck_cards(rules.get("remove_ranks", ""))
    press_count = Counter()
    totals = [0] * n  # as the log shows them
    exact = [0] * n  # the true totals
    counts = Counter()
    hands = stock = pile = None
    settled = set()
    for ev in events[1:]:
        kind = ev["ev"]
        counts[kind] += 1
        if kind == "deal":
            hands = [list(h) for h in ev["hands"]]
            assert all(len(h) == ev["size"] for h in hands)
            stock = list(ev["stock"])
            pile = [ev["upcard"]]
        elif kind == "play":
            settled = set()
            hand = hands[ev["seat"]]
            assert ev["card"] in hand, f"{ev} not in hand {hand}"
            hand.remove(ev["card"])
            pile.append(ev["card"])
            if ev["announce"]:
                assert len(hand) == 1, f"announce with {len(hand)} cards: {ev}"
        elif kind == "draw":
            settled = settled | {ev["seat"]} if ev["why"] == "penalty" else set()
            assert stock, f"draw from an empty stock: {ev}"
            top = stock.pop(0)
            assert top == ev["card"], f"drew {ev['card']}, stock top was {top}"
            hands[ev["seat"]].append(top)
        elif kind == "pressure":
            assert not stock, "pressure with cards in the stock"
            unit = teams[ev["seat"]] if team_scope else ev["seat"]
            true_points = 5 * 2 ** press_count[unit]
            assert ev["points"] == shown(true_points), ev
            press_count[unit] += 1
            for q in range(n):
                if teams[q] == teams[ev["seat"]]:
                    totals[q] = add_shown(totals[q], ev["points"])
                    exact[q] += true_points
            if "stock" in ev:
                assert Counter(ev["stock"]) == Counter(pile[:-1]), "reshuffle is not the pile"
                stock = list(ev["stock"])
                pile = pile[-1:]
            else:
                assert len(pile) == 1
        elif kind == "hand_end":
            for q in range(n):
                pts = sum(ev["points"][p] for p in range(n) if teams[p] == teams[q]) \
                    if crates else ev["points"][q]
                totals[q] = add_shown(totals[q], pts)
                exact[q] += pts
            assert totals == ev["totals"], f"totals {ev['totals']} != {totals}"
            if ev["reason"] == "out":
                # it may hold only the forfeit penalty drawn after it went out
                assert not hands[ev["out"]] or ev["out"] in settled, "the out seat holds cards"
        elif kind == "game_end":
            assert ev["totals"] == totals
            best = (min if crates else max)(exact)
            assert ev["winners"] == [q for q in range(n) if exact[q] == best]
        if hands is not None and kind not in ("hand_end", "game_end", "call", "pass"):
            everywhere = Counter(c for h in hands for c in h) + Counter(stock) + Counter(pile)
            assert everywhere == deck, f"cards not conserved after {ev}"
    return dict(counts)
