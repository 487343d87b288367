"""Scripted-deal scenarios: one hand from a stacked deck per rule, knob value and edge case.

Modelled on OpenSpiel's scripted-deal tests: every expected event sequence below was
worked out by hand from ../shared/RULES.md (section numbers in the comments), not taken
from the engine. Each deal is built so that every decision is forced or obvious for the
`greedy` strategy: it plays its highest-scoring legal card (Crates values A1 2=20 3=0
4=15 5=30 6=30 7=20 8=50 9=30 T=25 J/Q/K=10; ties -> the card first in its hand list,
where removing a card swaps the last card into the hole), calls the suit it holds most of
among the allowed suits (ties -> the first allowed suit in C D H S order), never draws
by choice, always answers a count and always announces; "greedy:forget=1" never announces.

Conventions of `stacked_hand`: cards are dealt from the dealer's left, the first player
is the dealer's left (dealer 0 unless stated, so seat 1 starts), the stock is `stock`
(top first) followed, with full_stock, by every other card in card order
AC AD AH AS 2C 2D ... . Hand size picks the Crates hand (1 card = hand 8, 2 = hand 7 ...).
"""

import pytest

from crates_sim.play.scenario import brief, stacked_hand
from crates_sim.rules import Rules

G = "greedy"
F = "greedy:forget=1"


def run(preset, players, hands, upcard, stock=(), *, dealer=0, strategies=None,
        full_stock=True, totals=None, pressures=None, **knobs):
    """Play the stacked hand; returns (brief strings, result, events)."""
    rules = Rules.preset(preset, players, **knobs)
    strategies = strategies or [G] * players
    events, result = stacked_hand(rules, strategies, hands=hands, upcard=upcard,
                                  stock=list(stock), dealer=dealer, totals=totals,
                                  pressures=pressures, full_stock=full_stock)
    return brief(events), result, events


# ====================================================================== §2.3 A, 3, Q, K
def test_a_3_q_k_have_no_effect():
    # 3 players, upcard JC (no upcard effect under call_only).
    # Seat 1 (KC AC): both legal, K 10 > A 1 -> KC, announced (AC left).
    # Seat 2 (3C 5D): only 3C is legal; no effect -> seat 0.
    # Seat 0 (QC 6S): only QC; no effect -> seat 1.
    # Seat 1 (AC): plays its last card; an A outside a count does nothing -> out.
    b, r, _ = run("classic", 3, [["6S", "QC"], ["KC", "AC"], ["3C", "5D"]], "JC")
    assert b == ["play 1 KC !", "play 2 3C !", "play 0 QC !", "play 1 AC", "end out 1"]
    assert r["points"] == [30, 0, 30]  # 6S / - / 5D


# ====================================================================== §2.3 2 (counts)
@pytest.mark.parametrize("second, count_value, draws, points0", [
    # 2C starts a count of 2 (pips), AH adds 1 -> seat 0 draws 3: 4S 4H JD
    ("AH", "pips", ["4S", "4H", "JD"], 50 + 30 + 15 + 15 + 10),
    # by cards: 2C counts 1, AH 1 -> 2 cards
    ("AH", "cards", ["4S", "4H"], 50 + 30 + 15 + 15),
    # 2H on 2C: 2 + 2 = 4 pips
    ("2H", "pips", ["4S", "4H", "JD", "JS"], 50 + 30 + 15 + 15 + 10 + 10),
    ("2H", "cards", ["4S", "4H"], 50 + 30 + 15 + 15),
])
@pytest.mark.parametrize("forced", [True, False])
def test_count(second, count_value, draws, points0, forced):
    # 3 players, upcard 5C (no effect under call_only).
    # Seat 1 (2C KH): only 2C is legal -> a count starts.
    # Seat 2 (second, QS): must answer with its 2 or A (greedy also answers when the
    #   count is optional) -> the count grows.
    # Seat 0 (8D 9H): holds no 2 or A; 8s and 9s may not be played during a count
    #   (§2.2.2) -> draws the count's value, the count ends and so does the turn.
    # Seat 1 (KH) then plays normally against the count's last card (suit H): KH -> out.
    b, r, _ = run("classic", 3, [["8D", "9H"], ["2C", "KH"], [second, "QS"]], "5C",
                  ["4S", "4H", "JD", "JS"], count_value=count_value, count_forced=forced)
    assert b == (["play 1 2C !", f"play 2 {second} !"]
                 + [f"draw 0 {c} count" for c in draws] + ["play 1 KH", "end out 1"])
    assert r["points"] == [points0, 0, 10]


# ====================================================================== §2.3 4
def test_four_skips_next_player_three_players():
    # Seat 1 (4C QD) plays 4C (only legal) -> seat 2 is skipped -> seat 0 (QC 5H) plays QC
    # -> seat 1 plays QD (rank Q) and is out. Seat 2 never acted.
    b, r, _ = run("classic", 3, [["QC", "5H"], ["4C", "QD"], ["KS", "KH"]], "KC")
    assert b == ["play 1 4C !", "play 0 QC !", "play 1 QD", "end out 1"]
    assert r["points"] == [30, 0, 20]


def test_four_with_two_players_gives_the_same_player_another_turn():
    # 2 players: skipping the next player (seat 0) brings the turn back to seat 1.
    # Seat 1 (4C QC) on KC: 4 (15) > Q (10) -> 4C, then QC (its turn again) -> out.
    b, r, _ = run("classic", 2, [["KD", "KH"], ["4C", "QC"]], "KC")
    assert b == ["play 1 4C !", "play 1 QC", "end out 1"]
    assert r["points"] == [20, 0]


# ====================================================================== §2.3 5
def test_five_draws_in_turn_order_as_last_card():
    # 4 players, no partnerships, 1 card each (hand 8). Seat 1 plays 5C, its last card;
    # under after_effects (classic) the 5 still acts: seats 2, 3, 0 draw one each, in turn
    # order starting with the next player, then the hand ends (§2.3, §2.7).
    b, r, _ = run("classic", 4, [["TH"], ["5C"], ["QH"], ["JH"]], "KC", ["2S", "3S", "4S"],
                  partnerships=False)
    assert b == ["play 1 5C", "draw 2 2S five", "draw 3 3S five", "draw 0 4S five",
                 "end out 1"]
    # seat 0: TH 25 + 4S 15; seat 2: QH 10 + 2S 20; seat 3: JH with 3S = a covered pair, 3
    assert r["points"] == [40, 0, 30, 3]


def test_ten_reverses_and_five_draws_follow_the_direction():
    # 4 players, no partnerships, upcard TD.
    # Seat 1 (TC 5C): only TC (rank T) is legal -> direction reverses; next is seat 0.
    # Seat 0 (QC KH): QC -> seat 3 (KC 4H): KC -> seat 2 (JC AH): JC (a J does nothing
    #   with 4 players under classic jacks) -> seat 1 (5C): 5C, last card.
    # The 5's draws go in the current (reversed) direction: seat 0, seat 3, seat 2.
    b, r, _ = run("classic", 4, [["QC", "KH"], ["TC", "5C"], ["JC", "AH"], ["KC", "4H"]],
                  "TD", ["2S", "3S", "4S"], partnerships=False)
    assert b == ["play 1 TC !", "play 0 QC !", "play 3 KC !", "play 2 JC !", "play 1 5C",
                 "draw 0 2S five", "draw 3 3S five", "draw 2 4S five", "end out 1"]
    # seat 0: KH 10 + 2S 20; seat 2: AH 1 + 4S 15; seat 3: 4H covered by 3S -> 3
    assert r["points"] == [30, 0, 16, 3]


def test_five_draw_with_a_pressure_in_between():
    # 3 players, 1 card each, a stock of one card (full_stock=False).
    # Seat 1 plays 5C (last card): seat 2 draws 2S; the stock is now empty, so seat 0
    # takes a pressure (5, the first of the game) before its draw; the pile below the top
    # card (just the upcard KC) becomes the stock, the 5C stays on top; seat 0 draws KC.
    b, r, ev = run("classic", 3, [["JD"], ["5C"], ["QH"]], "KC", ["2S"], full_stock=False)
    assert b == ["play 1 5C", "draw 2 2S five", "pressure 0 5", "draw 0 KC five",
                 "end out 1"]
    assert [e for e in ev if e["ev"] == "pressure"][0]["stock"] == ["KC"]
    assert r["points"] == [20, 0, 30]
    assert r["totals"] == [25, 0, 30]  # the pressure goes onto seat 0's total
    assert r["pressures"] == [1, 0, 0]


# ====================================================================== §2.3 6
def test_six_plays_again():
    # 3 players. Seat 1 (6C QC) on KC: 6 (30) > Q (10) -> 6C, then plays again at once:
    # QC on the 6 (suit C) -> out. Seats 2 and 0 never act.
    b, r, _ = run("classic", 3, [["KH", "KS"], ["6C", "QC"], ["JH", "JS"]], "KC")
    assert b == ["play 1 6C !", "play 1 QC", "end out 1"]
    assert r["points"] == [20, 0, 20]


def test_second_six_repeats():
    # Seat 1 (6C 6H QH) on KC: only 6C -> again: 6H (rank 6; QH is not legal on C/6)
    # -> again: QH (suit H) -> out.
    b, r, _ = run("classic", 3, [["KD", "KS", "AS"], ["6C", "6H", "QH"],
                                 ["JD", "JS", "AD"]], "KC")
    assert b == ["play 1 6C", "play 1 6H !", "play 1 QH", "end out 1"]
    assert r["points"] == [21, 0, 21]


def test_six_cannot_follow_draws_six_fail():
    # 2 players. Seat 1 (6C QH) on KC: 6C -> again on C/6: QH is not legal -> draws one
    # (six_fail) and the turn ends. Seat 0 (QC QS): QC -> seat 1 (QH JD): QH (rank Q)
    # -> seat 0 (QS): QS (rank Q) -> out.
    b, r, _ = run("classic", 2, [["QC", "QS"], ["6C", "QH"]], "KC", ["JD"])
    assert b == ["play 1 6C !", "draw 1 JD six_fail", "play 0 QC !", "play 1 QH !",
                 "play 0 QS", "end out 0"]
    assert r["points"] == [0, 10]


@pytest.mark.parametrize("out_rule", ["after_effects", "may_return", "immediate"])
def test_cooper(out_rule):
    # Seat 1 plays 6C, its last card: it cannot go out, it draws one (a Cooper) and the
    # turn ends (§2.3); under every out rule (§2.7: "a 6 still forces the Cooper draw").
    # Seat 0 (QC) then plays QC on the 6 -> out.
    b, r, _ = run("classic", 2, [["QC"], ["6C"]], "KC", ["KH"], out_rule=out_rule)
    assert b == ["play 1 6C", "draw 1 KH cooper", "play 0 QC", "end out 0"]
    assert r["points"] == [0, 10]


def test_cooper_after_a_second_six():
    # Seat 1 (6C 6H) on KC: 6C -> again: 6H, now its last card -> Cooper draw KH.
    # Seat 0 (QH KD) on H/6: only QH -> seat 1 (KH): KH (suit H) -> out.
    b, r, _ = run("classic", 2, [["QH", "KD"], ["6C", "6H"]], "KC", ["KH"])
    assert b == ["play 1 6C !", "play 1 6H", "draw 1 KH cooper", "play 0 QH !", "play 1 KH",
                 "end out 1"]
    assert r["points"] == [10, 0]


# ====================================================================== §2.3 7
@pytest.mark.parametrize("players, target, seat", [
    (2, "next", 0), (2, "across", 0),
    (3, "next", 2), (3, "across", 2),
    (4, "next", 2), (4, "across", 3),
    (5, "next", 2), (5, "across", 3),
])
def test_seven_target(players, target, seat):
    # Seat 1 plays 7C, its last card; under after_effects the 7 still makes one player
    # draw: `next` = seat 2; `across` = the player after next (seat 3) with 4+ players,
    # the next player with 2-3 players (§2.3).
    others = iter(["KH", "KS", "KD", "JH", "JS"])
    hands = [["7C"] if q == 1 else [next(others)] for q in range(players)]
    b, r, _ = run("classic", players, hands, "QC", ["AH"], seven_target=target,
                  **({"partnerships": False} if players == 4 else {}))
    assert b == ["play 1 7C", f"draw {seat} AH seven", "end out 1"]
    assert r["points"][seat] == 11


def test_seven_draw_is_not_a_turn():
    # 3 players. Seat 1 (7C KD): 7C -> seat 2 draws AH; that is not a turn: seat 2 (QC KS
    # AH) then plays QC (its only legal card) -> seat 0 (KC JS): KC -> seat 1 (KD): out.
    b, r, _ = run("classic", 3, [["KC", "JS"], ["7C", "KD"], ["QC", "KS"]], "5C", ["AH"])
    assert b == ["play 1 7C !", "draw 2 AH seven", "play 2 QC", "play 0 KC !", "play 1 KD",
                 "end out 1"]
    assert r["points"] == [10, 0, 11]


# ====================================================================== §2.3 8
def test_eight_calls_any_suit():
    # Seat 1 (8D QH) on KC: only 8D (wild) -> calls H, the suit it holds (QH), announced.
    # Seat 0 (TH AC): on hearts, TH is legal and AC is not (the call replaced clubs).
    # T does nothing with 2 players -> seat 1 (QH): out.
    b, r, _ = run("classic", 2, [["TH", "AC"], ["8D", "QH"]], "KC")
    assert b == ["play 1 8D H !", "play 0 TH !", "play 1 QH", "end out 1"]
    assert r["points"] == [1, 0]


# ====================================================================== §2.3 9
@pytest.mark.parametrize("colour, call", [
    ("own", "D"),      # 9D is red: D or H; it holds neither -> the first, D
    ("covered", "S"),  # played on KC (black): C or S; it holds two spades -> S
])
def test_nine_colour(colour, call):
    # Seat 1 (9D QS KS) on KC: 9D (30) > KS (10) -> 9D with a call in one colour.
    b, r, _ = run("classic", 2, [["AC", "AD", "AH"], ["9D", "QS", "KS"]], "KC",
                  nine_colour=colour)
    assert b[0] == f"play 1 9D {call}"


def test_nine_covered_may_call_the_current_suit():
    # league colour rule: 9H played on QC (black) may call C or S; it holds two clubs.
    b, r, _ = run("classic", 2, [["AD", "AH", "AS"], ["9H", "KC", "JC"]], "QC",
                  nine_colour="covered")
    assert b[0] == "play 1 9H C"


def test_nine_not_wild():
    # nine_wild=false: 9s are plain cards. Upcard 9C: no dealer call (call_only only
    # calls for wilds). Seat 1 (9D QH): 9D is legal by rank, carries no call.
    # Seat 0 (QD KS) on D/9: QD -> seat 1 (QH): QH (rank Q) -> out.
    b, r, _ = run("classic", 2, [["QD", "KS"], ["9D", "QH"]], "9C", nine_wild=False)
    assert b == ["play 1 9D !", "play 0 QD !", "play 1 QH", "end out 1"]
    assert r["points"] == [10, 0]


def test_nine_not_wild_cannot_be_played_off_suit():
    # nine_wild=false: 9D on KC is not legal (neither suit nor rank) -> seat 1 draws.
    b, r, _ = run("classic", 2, [["QC", "KS"], ["9D", "QH"]], "KC", ["AH"], nine_wild=False)
    assert b[0] == "draw 1 AH cant_play"


# ====================================================================== §2.3 T
def test_ten_reverses_three_players():
    # Seat 1 (TC QD): TC -> reversed: next is seat 0 (QC KH): QC -> seat 2 (QS JH): QS
    # (rank Q) -> seat 1 (QD): out.
    b, r, _ = run("classic", 3, [["QC", "KH"], ["TC", "QD"], ["QS", "JH"]], "KC")
    assert b == ["play 1 TC !", "play 0 QC !", "play 2 QS !", "play 1 QD", "end out 1"]
    assert r["points"] == [10, 0, 10]


def test_ten_two_players_no_effect():
    b, r, _ = run("classic", 2, [["QC", "KH"], ["TC", "QD"]], "KC")
    assert b == ["play 1 TC !", "play 0 QC !", "play 1 QD", "end out 1"]
    assert r["points"] == [10, 0]


# ====================================================================== §2.3 J
@pytest.mark.parametrize("players, jack, drawer", [
    (2, "classic", 0),  # 2 players: the other player draws
    (3, "classic", 0),  # 3 players: the previous player (before seat 1) = seat 0
    (4, "classic", None),  # 4 players: nothing
    (2, "none", None),
    (3, "none", None),
])
def test_jack(players, jack, drawer):
    # Seat 1 plays JC, its last card (after_effects: the effect still happens).
    others = iter(["KH", "KS", "KD"])
    hands = [["JC"] if q == 1 else [next(others)] for q in range(players)]
    b, r, _ = run("classic", players, hands, "QC", ["AH"], jack_effect=jack,
                  **({"partnerships": False} if players == 4 else {}))
    expect = ["play 1 JC"] + ([f"draw {drawer} AH jack"] if drawer is not None else [])
    assert b == expect + ["end out 1"]


def test_jack_three_players_previous_follows_direction():
    # 3 players, dealer 1 -> seat 2 starts. Seat 2 plays JC (last card): the previous
    # player is seat 1.
    b, r, _ = run("classic", 3, [["KH"], ["KS"], ["JC"]], "QC", ["AH"], dealer=1)
    assert b == ["play 2 JC", "draw 1 AH jack", "end out 2"]


def test_jack_three_players_after_reversal():
    # 3 players. Seat 1 (TC KD) on QC: only TC -> reversed, next is seat 0 (JC KS): only
    # JC (suit C). Going 1 -> 0 -> 2, the player before seat 0 is seat 1: it draws.
    b, r, _ = run("classic", 3, [["JC", "KS"], ["TC", "KD"], ["QH", "QS"]], "QC",
                  ["AH"])
    assert b[:3] == ["play 1 TC !", "play 0 JC !", "draw 1 AH jack"]


# ====================================================================== §2.5 last-card call
def test_penalty_next_turn():
    # classic (next_turn). Seat 1 (QC 5D) plays QC, leaving one card, and does not announce.
    # Seat 0 (KH KS) cannot play on C/Q: draws 3S. Seat 1's next turn starts with the two
    # penalty cards (6C 6D), then the turn is played normally: 6C (the only legal card),
    # again 6D (rank 6), leaving 5D unannounced again, again 5D -> out; the 5 makes seat 0
    # draw AC. The second missed call is never paid: the hand ended first.
    b, r, _ = run("classic", 2, [["KH", "KS"], ["QC", "5D"]], "KC", ["3S", "6C", "6D"],
                  strategies=[G, F])
    assert b == ["play 1 QC", "draw 0 3S cant_play", "draw 1 6C penalty", "draw 1 6D penalty",
                 "play 1 6C", "play 1 6D", "play 1 5D", "draw 0 AC five", "end out 1"]
    assert r["points"] == [14, 0]  # KH KS 3S AC: the 3 covers a K -> 10 + 3 + 1


def test_penalty_forfeit_and_owed_at_hand_end():
    # forfeit: seat 1's next turn is replaced by drawing two (6C 6D). Seat 0 cannot play
    # again (draws 4H). Seat 1 then plays 6C, 6D (missing the call again), 5D -> out; the
    # 5 makes seat 0 draw AC. The penalty still owed is drawn before scoring (AD AH):
    # the hand ends `out` for seat 1, which scores the two cards (§2.5, §2.9).
    b, r, _ = run("classic", 2, [["KH", "KS"], ["QC", "5D"]], "KC", ["3S", "6C", "6D", "4H"],
                  strategies=[G, F], last_card_penalty="forfeit")
    assert b == ["play 1 QC", "draw 0 3S cant_play", "draw 1 6C penalty", "draw 1 6D penalty",
                 "draw 0 4H cant_play", "play 1 6C", "play 1 6D", "play 1 5D", "draw 0 AC five",
                 "draw 1 AD penalty", "draw 1 AH penalty", "end out 1"]
    # seat 0: KH KS 3S 4H AC, the 3 covers 4H -> 10 + 10 + 3 + 1; seat 1: AD AH
    assert r["points"] == [24, 2]


def test_penalty_forfeit_waits_for_a_real_turn():
    # forfeit. Seat 1 (6C QC 5D): 6C, again QC, leaving 5D unannounced.
    # Seat 0 (4C 4S KH): 4C skips seat 1 (no turn, so no forfeit yet) -> seat 0 again: 4S
    # (rank 4), skips seat 1 again -> seat 0: KH not legal on S/4, draws KS.
    # Seat 1's real turn is the forfeit: AH AD. Seat 0 (KH KS): KS -> seat 1 (5D AH AD)
    # cannot play on S/K, draws QS -> seat 0 (KH): out.
    b, r, _ = run("classic", 2, [["4C", "4S", "KH"], ["6C", "QC", "5D"]], "KC",
                  ["KS", "AH", "AD", "QS"], strategies=[G, F], last_card_penalty="forfeit")
    assert b == ["play 1 6C", "play 1 QC", "play 0 4C", "play 0 4S !", "draw 0 KS cant_play",
                 "draw 1 AH penalty", "draw 1 AD penalty", "play 0 KS !", "draw 1 QS cant_play",
                 "play 0 KH", "end out 0"]
    assert r["points"] == [0, 30 + 1 + 1 + 10]


def test_penalty_forfeit_meets_a_count():
    # forfeit. Seat 1 (QC 5D): QC unannounced. Seat 0 (2C 2H): 2C starts a count (2).
    # Seat 1's forfeit turn meets the count: two penalty cards (AH KS), then the count's
    # two (QD QS) - even though it now holds AH; the count ends (§2.5, §2.9).
    # Seat 0 (2H) plays on the 2C: 2H, its last card, starts a new count of 2.
    # Seat 1 must answer it with AH (count 3); seat 0, out, has no 2 or A and draws the 3
    # (TD TS JD): it holds cards again, so nobody is out: `count_back` (after_effects).
    b, r, _ = run("classic", 2, [["2C", "2H"], ["QC", "5D"]], "KC",
                  ["AH", "KS", "QD", "QS", "TD", "TS", "JD"], strategies=[G, F],
                  last_card_penalty="forfeit")
    assert b == ["play 1 QC", "play 0 2C !", "draw 1 AH penalty", "draw 1 KS penalty",
                 "draw 1 QD count", "draw 1 QS count", "play 0 2H", "play 1 AH",
                 "draw 0 TD count", "draw 0 TS count", "draw 0 JD count", "end count_back None"]
    assert r["points"] == [25 + 25 + 10, 30 + 10 + 10 + 10]
    assert r["out"] is None


def test_penalty_next_turn_meets_a_count():
    # next_turn, same deal: the two penalty cards first (AH KS), then the answer: seat 1
    # now holds AH and must play it (count 3). Seat 0 answers with 2H, its last card
    # (count 5). Seat 1 (5D KS) draws 5 (QD QS TD TS JD); seat 0 is still empty -> out 0.
    b, r, _ = run("classic", 2, [["2C", "2H"], ["QC", "5D"]], "KC",
                  ["AH", "KS", "QD", "QS", "TD", "TS", "JD"], strategies=[G, F])
    assert b == ["play 1 QC", "play 0 2C !", "draw 1 AH penalty", "draw 1 KS penalty",
                 "play 1 AH", "play 0 2H", "draw 1 QD count", "draw 1 QS count",
                 "draw 1 TD count", "draw 1 TS count", "draw 1 JD count", "end out 0"]
    assert r["points"] == [0, 30 + 10 + 10 + 10 + 25 + 25 + 10]


def test_penalty_immediate_before_the_seven():
    # immediate: seat 1 (7C QH) plays 7C unannounced: it draws AH AD at once, before the
    # 7 makes seat 0 draw KS (§2.9). Seat 0 (6C 6S KS): 6C, again 6S (announced), again KS.
    b, r, _ = run("classic", 2, [["6C", "6S"], ["7C", "QH"]], "KC", ["AH", "AD", "KS"],
                  strategies=[G, F], last_card_penalty="immediate")
    assert b == ["play 1 7C", "draw 1 AH penalty", "draw 1 AD penalty", "draw 0 KS seven",
                 "play 0 6C", "play 0 6S !", "play 0 KS", "end out 0"]
    assert r["points"] == [0, 12]


def test_penalty_immediate_before_the_six_play_again():
    # immediate: seat 1 (6C QD) plays 6C unannounced and draws 6D KD at once; only then
    # does it play again: the 6D it just drew is its only legal card on C/6 (§2.9).
    b, r, _ = run("classic", 2, [["KH", "KS"], ["6C", "QD"]], "KC", ["6D", "KD"],
                  strategies=[G, F], last_card_penalty="immediate")
    assert b[:4] == ["play 1 6C", "draw 1 6D penalty", "draw 1 KD penalty", "play 1 6D"]


def test_penalty_immediate_before_the_five():
    # immediate: seat 1 (5C QH) plays 5C unannounced: AH AD first, then the 5's draw (KS).
    b, r, _ = run("classic", 2, [["KD", "JD"], ["5C", "QH"]], "KC", ["AH", "AD", "KS"],
                  strategies=[G, F], last_card_penalty="immediate")
    assert b[:4] == ["play 1 5C", "draw 1 AH penalty", "draw 1 AD penalty", "draw 0 KS five"]


@pytest.mark.parametrize("preset, knobs", [
    ("classic", {"last_card_penalty": "immediate", "six_exempt": True}),
    ("serbian", {}),
])
def test_six_exempt(preset, knobs):
    # Seat 1 (QC 6H) plays QC, leaving a lone 6, unannounced: exempt, no penalty.
    # Seat 0 (QH KH): QH -> seat 1 plays 6H, its last card: Cooper (AC) -> seat 0: KH out.
    b, r, _ = run(preset, 2, [["QH", "KH"], ["QC", "6H"]], "KC", strategies=[G, F], **knobs)
    assert b == ["play 1 QC", "play 0 QH !", "play 1 6H", "draw 1 AC cooper", "play 0 KH",
                 "end out 0"]
    assert r["points"] == [0, 1]


def test_six_not_exempt():
    # Same deal without six_exempt: the missed call costs two cards at once (AC AD).
    # Seat 1 (6H AC AD) later plays 6H, cannot follow it: six_fail draw AH.
    b, r, _ = run("classic", 2, [["QH", "KH"], ["QC", "6H"]], "KC", strategies=[G, F],
                  last_card_penalty="immediate")
    assert b == ["play 1 QC", "draw 1 AC penalty", "draw 1 AD penalty", "play 0 QH !",
                 "play 1 6H", "draw 1 AH six_fail", "play 0 KH", "end out 0"]
    assert r["points"] == [0, 3]


# ====================================================================== §2.4 pressures
@pytest.mark.parametrize("before, first, second", [(0, 5, 10), (2, 20, 40)])
def test_pressures_double_and_dead_hand(before, first, second):
    # 2 players, 1 card each, empty stock. Seat 1 plays 2C, its last card (count 2).
    # Seat 0 (QH) must draw 2: stock empty -> pressure (5 * 2^k); the pile below the top
    # card (the upcard KC) becomes the stock; it draws KC. Second card: stock and pile
    # below the top both empty -> pressure again (doubled), the draw stops, hand `dead`,
    # out null (§2.4, §2.9).
    b, r, ev = run("classic", 2, [["QH"], ["2C"]], "KC", [], full_stock=False,
                   pressures=[before, 0])
    assert b == ["play 1 2C", f"pressure 0 {first}", "draw 0 KC count",
                 f"pressure 0 {second} dead", "end dead None"]
    assert "stock" not in [e for e in ev if e["ev"] == "pressure"][-1]
    assert r["reason"] == "dead" and r["out"] is None
    assert r["points"] == [20, 0]
    assert r["totals"] == [20 + first + second, 0]
    assert r["pressures"] == [2, 0]


@pytest.mark.parametrize("partnerships, scope, second, totals", [
    # teams 0+2 / 1+3: the team's second pressure doubles -> 10
    (True, "team", 10, [115, 50, 115, 50]),
    # per seat: seat 0's first pressure -> 5
    (True, "seat", 5, [110, 50, 110, 50]),
    # without partnerships both mean per seat
    (False, "team", 5, [55, 0, 55, 50]),
])
def test_pressure_scope(partnerships, scope, second, totals):
    # 4 players, empty stock, upcard 6D. Seat 1 (6C 5C): 6C, again 5C (last card).
    # The 5: seat 2 draws -> pressure (5); pile below the top = 6D 6C becomes the stock
    # (5C stays on top); seats 2 and 3 draw those two (order shuffled; both worth 30).
    # Seat 0: nothing left below the top -> pressure, hand dead.
    b, r, ev = run("classic", 4, [["TH", "TS"], ["6C", "5C"], ["QH", "KH"], ["QS", "KS"]],
                   "6D", [], full_stock=False, partnerships=partnerships,
                   pressure_scope=scope)
    assert b[:3] == ["play 1 6C !", "play 1 5C", "pressure 2 5"]
    assert sorted([e for e in ev if e["ev"] == "pressure"][0]["stock"]) == ["6C", "6D"]
    assert [x.rsplit(" ", 2)[0] for x in b[3:5]] == ["draw 2", "draw 3"]
    assert {x.split()[2] for x in b[3:5]} == {"6C", "6D"}
    assert b[5:] == [f"pressure 0 {second} dead", "end dead None"]
    assert r["points"] == [50, 0, 50, 50]
    assert r["totals"] == totals


# ====================================================================== §2.6 upcard rules
@pytest.mark.parametrize("upcard, call, seat1", [
    ("8H", "C", "KC"),  # any suit; blind -> the first, C (a sighted dealer holding QH calls H)
    ("9H", "D", "KD"),  # a 9: its own colour (red), blind -> D
    ("9S", "C", "KC"),  # black -> C
])
def test_upcard_call_only_blind_call(upcard, call, seat1):
    # call_only: the dealer names a suit for an upcard 8 or 9 before seeing its cards.
    b, r, _ = run("classic", 2, [["QH"], [seat1]], upcard)
    assert b == [f"call 0 {call}", f"play 1 {seat1}", "end out 1"]


def test_upcard_call_only_nine_own_colour_under_covered():
    # An upcard 9 is called in its own colour under every rule (§2.9), nine_colour=covered
    # included: 9D -> red suits, blind -> D.
    b, r, _ = run("classic", 2, [["QS"], ["KD"]], "9D", nine_colour="covered")
    assert b == ["call 0 D", "play 1 KD", "end out 1"]


@pytest.mark.parametrize("upcard", ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "TC", "JC", "QC"])
def test_upcard_call_only_no_other_effect(upcard):
    # call_only: no count, skip, draws, dealer turn or reversal: seat 1 (dealer's left)
    # simply plays KC and is out.
    b, r, _ = run("classic", 3, [["KH"], ["KC"], ["KS"]], upcard)
    assert b == ["play 1 KC", "end out 1"]


def test_upcard_as_played_two_starts_a_count():
    # as_played: an upcard 2 is a count the dealer's left must answer. Seat 1 (KH) has no
    # 2 or A: draws 2; seat 0 then plays normally on the 2C: QC -> out.
    b, r, _ = run("classic", 2, [["QC"], ["KH"]], "2C", ["JH", "JS"], upcard_rule="as_played")
    assert b == ["draw 1 JH count", "draw 1 JS count", "play 0 QC", "end out 0"]
    assert r["points"] == [0, 30]


def test_upcard_as_played_two_answered():
    # Seat 1 (AC) answers with its last card (count 3); seat 0 (QD) draws the 3 -> out 1.
    b, r, _ = run("classic", 2, [["QD"], ["AC"]], "2C", ["JH", "JS", "TH"],
                  upcard_rule="as_played")
    assert b == ["play 1 AC", "draw 0 JH count", "draw 0 JS count", "draw 0 TH count",
                 "end out 1"]


def test_upcard_as_played_four_skips_dealers_left():
    b, r, _ = run("classic", 3, [["JH"], ["KC"], ["QC"]], "4C", upcard_rule="as_played")
    assert b == ["play 2 QC", "end out 2"]
    # 2 players: the dealer's left is skipped, the dealer plays first
    b, r, _ = run("classic", 2, [["QC"], ["KC"]], "4C", upcard_rule="as_played")
    assert b == ["play 0 QC", "end out 0"]


def test_upcard_as_played_five():
    # Every player but the dealer draws one, from the dealer's left: seat 1 QD, seat 2 KD.
    # Seat 1 (QC QD): QC -> seat 2 (KH KD) cannot play on C/Q: AC -> seat 0 (JS): AD ->
    # seat 1 (QD): out.
    b, r, _ = run("classic", 3, [["JS"], ["QC"], ["KH"]], "5C", ["QD", "KD"],
                  upcard_rule="as_played")
    assert b == ["draw 1 QD five", "draw 2 KD five", "play 1 QC !", "draw 2 AC cant_play",
                 "draw 0 AD cant_play", "play 1 QD", "end out 1"]
    assert r["points"] == [11, 0, 21]


def test_upcard_as_played_six_dealer_plays_first():
    # The dealer takes a turn first (a play step on the 6), then the dealer's left.
    b, r, _ = run("classic", 2, [["QC", "KH"], ["KC", "JH"]], "6C", upcard_rule="as_played")
    assert b == ["play 0 QC !", "play 1 KC !", "play 0 KH", "end out 0"]


def test_upcard_as_played_six_fail():
    # The dealer (KH) cannot play on the 6C: draws with six_fail (§2.9); then seat 1.
    b, r, _ = run("classic", 2, [["KH"], ["QC"]], "6C", upcard_rule="as_played")
    assert b == ["draw 0 AC six_fail", "play 1 QC", "end out 1"]


@pytest.mark.parametrize("target, b_expected", [
    # across with 4 players: the player after next from the dealer = seat 2
    ("across", ["draw 2 AH seven", "play 1 QC", "end out 1"]),
    # next: seat 1 draws AH, then plays QC (AH is not legal) -> seat 2: KC -> out
    ("next", ["draw 1 AH seven", "play 1 QC !", "play 2 KC", "end out 2"]),
])
def test_upcard_as_played_seven(target, b_expected):
    b, r, _ = run("classic", 4, [["KD"], ["QC"], ["KC"], ["KS"]], "7C", ["AH"],
                  upcard_rule="as_played", seven_target=target, partnerships=False)
    assert b == b_expected


@pytest.mark.parametrize("upcard, dealer_card, call, seat1", [
    ("8C", "QH", "H", "KH"),   # the dealer has seen its hand: calls hearts
    ("9C", "QS", "S", "KS"),   # a 9: own colour (black), holds a spade
    ("9D", "QH", "H", "KH"),
])
@pytest.mark.parametrize("colour", ["own", "covered"])
def test_upcard_as_played_wild_sighted_call(upcard, dealer_card, call, seat1, colour):
    b, r, _ = run("classic", 2, [[dealer_card], [seat1]], upcard, upcard_rule="as_played",
                  nine_colour=colour)
    assert b == [f"call 0 {call}", f"play 1 {seat1}", "end out 1"]


def test_upcard_as_played_ten_reverses():
    # 3 players: reversed, the dealer's right (seat 2) plays first.
    b, r, _ = run("classic", 3, [["KH"], ["KC"], ["QC"]], "TC", upcard_rule="as_played")
    assert b == ["play 2 QC", "end out 2"]


def test_upcard_as_played_jack_classic():
    # Not listed in §2.6, but "the upcard counts as played by the dealer, with its effect":
    # a classic J with 2 players makes the other player (seat 1) draw. Seat 1 (QC AH):
    # QC -> seat 0 (KC): out.
    b, r, _ = run("classic", 2, [["KC"], ["QC"]], "JC", ["AH"], upcard_rule="as_played")
    assert b == ["draw 1 AH jack", "play 1 QC !", "play 0 KC", "end out 0"]


@pytest.mark.parametrize("upcard, card", [("AC", "KC"), ("3C", "KC"), ("QC", "KC"),
                                          ("KC", "QC")])
def test_upcard_as_played_no_effect(upcard, card):
    b, r, _ = run("classic", 3, [["KH"], [card], ["KS"]], upcard, upcard_rule="as_played")
    assert b == [f"play 1 {card}", "end out 1"]


def test_upcard_serbian_eight_blind_call():
    # serbian: an 8 is called before the dealer sees its cards (blind -> C, though it
    # holds only hearts).
    b, r, _ = run("classic", 2, [["QH"], ["KC"]], "8H", upcard_rule="serbian")
    assert b == ["call 0 C", "play 1 KC", "end out 1"]


def test_upcard_serbian_nine_no_call():
    # serbian: a 9 upcard is not called; seat 1 plays on hearts.
    b, r, _ = run("classic", 2, [["QC"], ["KH"]], "9H", upcard_rule="serbian")
    assert b == ["play 1 KH", "end out 1"]


@pytest.mark.parametrize("preset, knobs, draws", [
    ("classic", {"upcard_rule": "serbian"}, ["JH", "JS"]),   # pips: 2
    ("serbian", {}, ["JH"]),                                  # count_value cards: 1
])
def test_upcard_serbian_two_starts_a_count(preset, knobs, draws):
    b, r, _ = run(preset, 2, [["QC"], ["KH"]], "2C", ["JH", "JS"], **knobs)
    assert b == [f"draw 1 {c} count" for c in draws] + ["play 0 QC", "end out 0"]


@pytest.mark.parametrize("upcard", ["AC", "4C", "5C", "6C", "7C", "TC", "JC"])
def test_upcard_serbian_no_other_effect(upcard):
    b, r, _ = run("classic", 3, [["KH"], ["KC"], ["KS"]], upcard, upcard_rule="serbian")
    assert b == ["play 1 KC", "end out 1"]


# ====================================================================== §2.7 out rules
COUNT_BACK_DEAL = dict(hands=[["2H", "AH"], ["6C", "2C"]], upcard="KC",
                       stock=["KH", "KS", "QH", "QS"])
COUNT_BACK_START = ["play 1 6C !", "play 1 2C", "play 0 2H !", "draw 1 KH count",
                    "draw 1 KS count", "draw 1 QH count", "draw 1 QS count"]


def test_out_after_effects_count_back():
    # Seat 1 (6C 2C): 6C, again 2C, its last card: a count of 2. Seat 0 (2H AH) answers
    # with 2H (20 > A 1): count 4. The count comes back to seat 1, which has no cards and
    # draws 4: it is no longer out -> the hand ends at once, `count_back`, nobody out.
    d = COUNT_BACK_DEAL
    b, r, _ = run("classic", 2, d["hands"], d["upcard"], d["stock"])
    assert b == COUNT_BACK_START + ["end count_back None"]
    assert r["points"] == [1, 40]


def test_out_may_return():
    # may_return: the player who was out draws the count and the hand goes on: seat 0
    # (AH) plays on the 2H (suit H) and is out.
    d = COUNT_BACK_DEAL
    b, r, _ = run("classic", 2, d["hands"], d["upcard"], d["stock"], out_rule="may_return")
    assert b == COUNT_BACK_START + ["play 0 AH", "end out 0"]
    assert r["points"] == [0, 40]


def test_out_immediate_count():
    # immediate: the hand ends the moment seat 1 holds no cards; the 2 starts nothing.
    d = COUNT_BACK_DEAL
    b, r, _ = run("classic", 2, d["hands"], d["upcard"], d["stock"], out_rule="immediate")
    assert b == ["play 1 6C !", "play 1 2C", "end out 1"]
    assert r["points"] == [21, 0]


@pytest.mark.parametrize("card", ["5C", "7C", "JC", "4C", "TC"])
def test_out_immediate_last_card_has_no_effect(card):
    b, r, _ = run("classic", 3, [["KH"], [card], ["KS"]], "QC", ["AH"], out_rule="immediate")
    assert b == [f"play 1 {card}", "end out 1"]
    assert r["points"] == [10, 0, 10]


@pytest.mark.parametrize("out_rule", ["after_effects", "may_return"])
def test_several_players_empty_during_one_count(out_rule):
    # 3 players. Seat 1 plays 2C (last card, count 2), seat 2 answers with AC (its last
    # card, count 3), seat 0 (KH) draws 3. Both seats 1 and 2 still hold no cards: both
    # score 0, `out` names the first of them (§2.7).
    b, r, _ = run("classic", 3, [["KH"], ["2C"], ["AC"]], "KC", ["QH", "QS", "QD"],
                  out_rule=out_rule)
    assert b == ["play 1 2C", "play 2 AC", "draw 0 QH count", "draw 0 QS count",
                 "draw 0 QD count", "end out 1"]
    assert r["points"] == [40, 0, 0]


@pytest.mark.parametrize("out_rule", ["after_effects", "may_return"])
def test_first_out_draws_the_count_second_stays_out(out_rule):
    # 2 players. Seat 1 plays 2C (last card), seat 0 answers with 2H (its last card,
    # count 4). Seat 1 draws the 4 and is no longer out; seat 0 still holds nothing ->
    # the hand ends `out` for seat 0 (§2.9), under may_return too.
    b, r, _ = run("classic", 2, [["2H"], ["2C"]], "KC", ["QH", "QS", "QD", "QC"],
                  out_rule=out_rule)
    assert b == ["play 1 2C", "play 0 2H", "draw 1 QH count", "draw 1 QS count",
                 "draw 1 QD count", "draw 1 QC count", "end out 0"]
    assert r["points"] == [0, 40]


def test_out_with_a_two_drawn_by_the_other():
    # after_effects: seat 1's last card 2C starts a count; seat 0 (KH) draws it -> out 1.
    b, r, _ = run("classic", 2, [["KH"], ["2C"]], "KC", ["QH", "QS"])
    assert b == ["play 1 2C", "draw 0 QH count", "draw 0 QS count", "end out 1"]
    assert r["points"] == [30, 0]


def test_wild_as_last_card_carries_no_call():
    b, r, ev = run("classic", 2, [["KH"], ["8D"]], "KC")
    assert b == ["play 1 8D", "end out 1"]
    assert [e for e in ev if e["ev"] == "play"][0]["suit"] is None


# ====================================================================== other knobs
def test_remove_ranks():
    # remove_ranks=QK: a 44-card deck; the stock never holds a Q or a K.
    # Seat 1 plays JC, its last card: a classic J with 2 players makes seat 0 draw the
    # stock's first card, AC (the stock after the deal is in card order).
    b, r, ev = run("classic", 2, [["JD"], ["JC"]], "TC", remove_ranks="QK")
    assert b == ["play 1 JC", "draw 0 AC jack", "end out 1"]
    deal = ev[0]
    cards = [c for h in deal["hands"] for c in h] + [deal["upcard"]] + deal["stock"]
    assert len(cards) == len(set(cards)) == 44
    assert not any(c[0] in "QK" for c in cards)


@pytest.mark.parametrize("preset", ["crazy-eights", "very-crazy-eights"])
def test_remove_ranks_crazy_eights(preset):
    b, r, ev = run(preset, 2, [["JD"], ["JC"]], "TC", remove_ranks="A2", hand_size=1)
    deal = ev[0]
    cards = [c for h in deal["hands"] for c in h] + [deal["upcard"]] + deal["stock"]
    assert len(cards) == len(set(cards)) == 44
    assert not any(c[0] in "A2" for c in cards)


def test_draw_when_able_crates():
    # 5 players, 1 card each; the dealer's left holds QC, legal on KC. With `random`, whose
    # options are that card and (only where draw_when_able) a voluntary draw.
    def first_events(dwa):
        out = []
        for dealer in range(5):
            first = (dealer + 1) % 5
            hands = [["KH"], ["KS"], ["KD"], ["JH"], ["JD"]]
            hands[first] = ["QC"]
            b, r, _ = run("classic", 5, hands, "KC", ["AH"], dealer=dealer,
                          strategies=["random"] * 5, draw_when_able=dwa)
            out.append((first, b[0]))
        return out

    # default false: the legal card must be played
    assert all(e == f"play {s} QC" for s, e in first_events(False))
    # true: either play it or draw voluntarily (and the random streams do both here)
    got = first_events(True)
    assert all(e in (f"play {s} QC", f"draw {s} AH voluntary") for s, e in got)
    assert any(e.endswith("voluntary") for _, e in got)
    assert any(e.startswith("play") for _, e in got)


def test_draw_when_able_greedy_never_draws_by_choice():
    b, r, _ = run("classic", 3, [["6S", "QC"], ["KC", "AC"], ["3C", "5D"]], "JC",
                  draw_when_able=True)
    assert b == ["play 1 KC !", "play 2 3C !", "play 0 QC !", "play 1 AC", "end out 1"]


def test_cap_crates_scored_from_cards_held():
    # max_turns_per_hand=2: seat 1 plays QC (QC and KD both legal, both 10: the first),
    # seat 0 draws AC -> 2 plays + draws: the hand ends `cap`, scored from the cards held.
    b, r, _ = run("classic", 2, [["KH", "KS"], ["QC", "KD"]], "KC", max_turns_per_hand=2)
    assert b == ["play 1 QC !", "draw 0 AC cant_play", "end cap None"]
    assert r["points"] == [21, 10]


def test_cap_crazy_eights_scores_zero():
    b, r, _ = run("crazy-eights", 2, [["KH", "KS"], ["QC", "KD"]], "KC", hand_size=2,
                  max_turns_per_hand=1)
    assert b == ["play 1 QC", "end cap None"]
    assert r["points"] == [0, 0] and r["totals"] == [0, 0]


def test_partnership_totals():
    # 4 players, partnerships (classic default): seat 1 plays QC, its last card; the teams
    # 0+2 and 1+3 add their hand scores; both partners show the team total.
    b, r, _ = run("classic", 4, [["KH"], ["QC"], ["5H"], ["TH"]], "KC")
    assert b == ["play 1 QC", "end out 1"]
    assert r["points"] == [10, 0, 30, 25]
    assert r["totals"] == [40, 25, 40, 25]


def test_starting_totals_carry():
    b, r, _ = run("classic", 2, [["KH"], ["QC"]], "KC", totals=[7, 3])
    assert r["totals"] == [17, 3]


# ====================================================================== §3 Crazy Eights
MUST_PLAY_SEQ = ["draw 1 5S cant_play", "draw 1 4H cant_play", "draw 1 3C cant_play",
                 "play 1 3C", "play 0 3S", "play 1 5S", "play 0 KS", "end out 0"]


@pytest.mark.parametrize("rule, seq, points", [
    # must_play: seat 1 (QH JD) draws until it holds a legal card (5S 4H 3C), plays 3C.
    # Seat 0 (KS 3S): 3S (rank 3) -> seat 1: 5S (suit S) -> seat 0: KS -> out.
    # Seat 1 holds QH JD 4H = 24; the winner scores that (one other player).
    ("must_play", MUST_PLAY_SEQ, 24),
    # unlimited: a player who cannot play also draws until it can (greedy never draws by
    # choice), the same hand.
    ("unlimited", MUST_PLAY_SEQ, 24),
    # one: one card and the turn ends. Seat 0: KS (rank K) -> seat 1 (QH JD 5S): 5S ->
    # seat 0 (3S): out. Seat 1 holds QH JD = 20.
    ("one", ["draw 1 5S cant_play", "play 0 KS", "play 1 5S", "play 0 3S", "end out 0"], 20),
])
def test_crazy_eights_draw_rules(rule, seq, points):
    b, r, _ = run("crazy-eights", 2, [["KS", "3S"], ["QH", "JD"]], "KC", ["5S", "4H", "3C"],
                  hand_size=2, draw_rule=rule)
    assert b == seq
    assert r["points"] == [points, 0] and r["totals"] == [points, 0]


@pytest.mark.parametrize("rule", ["must_play", "one", "unlimited"])
def test_crazy_eights_pass_and_block(rule):
    # Empty stock, nobody can play: each player passes; a full round of passes blocks the
    # hand, nobody scores.
    b, r, _ = run("crazy-eights", 2, [["JD"], ["QH"]], "KC", [], hand_size=1,
                  full_stock=False, draw_rule=rule)
    assert b == ["pass 1", "pass 0", "end block None"]
    assert r["points"] == [0, 0] and r["totals"] == [0, 0]


@pytest.mark.parametrize("rule, seq", [
    # must_play: a forced draw takes what the stock still has (5S), then seat 1 passes
    ("must_play", ["draw 1 5S cant_play", "pass 1", "pass 0", "end block None"]),
    # one: the draw ends the turn; seat 0 passes, seat 1 (QH 5S) passes: blocked
    ("one", ["draw 1 5S cant_play", "pass 0", "pass 1", "end block None"]),
])
def test_crazy_eights_last_card_of_stock_then_block(rule, seq):
    b, r, _ = run("crazy-eights", 2, [["JD"], ["QH"]], "KC", ["5S"], hand_size=1,
                  full_stock=False, draw_rule=rule)
    assert b == seq


@pytest.mark.parametrize("players, others, points", [
    (3, ["9H", "4D"], 7),     # (9 + 4) / 2 = 6.5 -> 7 (half up)
    (3, ["KH", "4D"], 7),     # (10 + 4) / 2 = 7
    (3, ["8H", "AD"], 26),    # (50 + 1) / 2 = 25.5 -> 26
    (4, ["KH", "4D", "AS"], 5),  # (10 + 4 + 1) / 3 = 5
    (4, ["KH", "4D", "2S"], 5),  # 16 / 3 = 5.33 -> 5
    (4, ["KH", "4D", "3S"], 6),  # 17 / 3 = 5.67 -> 6
])
def test_crazy_eights_winner_scores_the_average(players, others, points):
    # Seat 1 plays QC, its only card, and is out.
    it = iter(others)
    hands = [["QC"] if q == 1 else [next(it)] for q in range(players)]
    b, r, _ = run("crazy-eights", players, hands, "KC", hand_size=1)
    assert b == ["play 1 QC", "end out 1"]
    expect = [0] * players
    expect[1] = points
    assert r["points"] == expect and r["totals"] == expect


def test_crazy_eights_upcard_eight_keeps_its_suit():
    # The upcard has no effect: an 8 is not called, its own suit (H) stays current.
    b, r, _ = run("crazy-eights", 2, [["KC"], ["QH"]], "8H", hand_size=1)
    assert b == ["play 1 QH", "end out 1"]


def test_crazy_eights_eight_calls_any_suit():
    # Seat 1 (8D QH): 8D (50 > Q 10) calls H, the suit it holds. Seat 0 (TH AC): TH only
    # -> seat 1: QH -> out; seat 0 holds AC = 1.
    b, r, _ = run("crazy-eights", 2, [["TH", "AC"], ["8D", "QH"]], "KC", hand_size=2)
    assert b == ["play 1 8D H", "play 0 TH", "play 1 QH", "end out 1"]
    assert r["points"] == [0, 1]


def test_crazy_eights_special_cards_are_plain():
    # In plain Crazy Eights a J does not skip: seat 1 (JC QD): JC -> seat 2 (QC 4S): QC
    # -> seat 0 (KH KS) cannot play: draws AC (must_play: AC is legal, plays it)...
    b, r, _ = run("crazy-eights", 3, [["KH", "KS"], ["JC", "QD"], ["QC", "4S"]], "KC",
                  hand_size=2)
    assert b[:3] == ["play 1 JC", "play 2 QC", "draw 0 AC cant_play"]


# ====================================================================== §3 Very Crazy Eights
TWO_RUN = ["play 1 2C", "play 0 2H", "draw 1 3C vce_two", "draw 1 3D vce_two",
           "draw 1 4C vce_two", "draw 1 4D vce_two", "play 0 5H", "end out 0"]


@pytest.mark.parametrize("rule", ["must_play", "one", "unlimited"])
def test_vce_run_of_twos(rule):
    # Seat 1 (2C QD): 2C. Seat 0 (2H 5H) holds a 2: must play it under must_play (greedy
    # also plays it where it may take the cards): a run of two 2s -> seat 1 (QD) has no 2,
    # draws 4 and its turn is over. Seat 0 (5H) plays on the 2H -> out.
    # Seat 1 holds QD 3C 3D 4C 4D = 10 + 3 + 3 + 4 + 4.
    b, r, _ = run("very-crazy-eights", 2, [["2H", "5H"], ["2C", "QD"]], "KC",
                  ["3C", "3D", "4C", "4D"], hand_size=2, draw_rule=rule)
    assert b == TWO_RUN
    assert r["points"] == [24, 0]


def test_vce_two_run_stops_on_empty_stock():
    # A forced draw stops when the stock is empty (2 of the 4 cards), no pressure.
    b, r, _ = run("very-crazy-eights", 2, [["2H", "5H"], ["2C", "QD"]], "KC", ["3C", "3D"],
                  hand_size=2, full_stock=False)
    assert b == ["play 1 2C", "play 0 2H", "draw 1 3C vce_two", "draw 1 3D vce_two",
                 "play 0 5H", "end out 0"]
    assert r["points"] == [16, 0]


def test_vce_jack_skips():
    # 3 players. Seat 1 (JC QD): JC skips seat 2 -> seat 0 (QC 4S): QC -> seat 1 (QD): QD
    # (rank Q) -> out. Others: KH KS 20, 4S 4 -> 24 / 2 = 12.
    b, r, _ = run("very-crazy-eights", 3, [["QC", "4S"], ["JC", "QD"], ["KH", "KS"]], "KC",
                  hand_size=2)
    assert b == ["play 1 JC", "play 0 QC", "play 1 QD", "end out 1"]
    assert r["points"] == [0, 12, 0]


def test_vce_king_reverses():
    # 3 players. Seat 1 (KD QH) on KC: KD (rank) reverses -> seat 0 (QD 4S): QD -> seat 2
    # (QC 5S): QC -> seat 1 (QH): out. Others: 4 + 5 = 9 / 2 = 4.5 -> 5.
    b, r, _ = run("very-crazy-eights", 3, [["QD", "4S"], ["KD", "QH"], ["QC", "5S"]], "KC",
                  hand_size=2)
    assert b == ["play 1 KD", "play 0 QD", "play 2 QC", "play 1 QH", "end out 1"]
    assert r["points"] == [0, 5, 0]


def test_vce_queen_of_spades_draws_five():
    # 3 players. Seat 1 (QS 4D) on KS: QS -> seat 2 draws five, its turn is over -> seat 0
    # (QD 5H): QD (rank Q) -> seat 1 (4D): out.
    # Seat 2: KH 7H AC AD AH AS 2C = 10 + 7 + 1 + 1 + 1 + 1 + 2 = 23; seat 0: 5H -> 28 / 2.
    b, r, _ = run("very-crazy-eights", 3, [["QD", "5H"], ["QS", "4D"], ["KH", "7H"]], "KS",
                  ["AC", "AD", "AH", "AS", "2C"], hand_size=2)
    assert b == (["play 1 QS"] + [f"draw 2 {c} vce_queen" for c in ["AC", "AD", "AH", "AS", "2C"]]
                 + ["play 0 QD", "play 1 4D", "end out 1"])
    assert r["points"] == [0, 14, 0]


@pytest.mark.parametrize("card, upcard", [("2C", "KC"), ("QS", "KS"), ("JC", "KC"),
                                          ("KC", "QC")])
def test_vce_last_card_has_no_effect(card, upcard):
    b, r, _ = run("very-crazy-eights", 2, [["7H"], [card]], upcard, hand_size=1)
    assert b == [f"play 1 {card}", "end out 1"]
    assert r["points"] == [0, 7]


@pytest.mark.parametrize("upcard", ["2C", "JC", "QS"])
def test_vce_upcard_has_no_effect(upcard):
    # 3 players: no run for seat 1 to answer, no skip, no five cards.
    b, r, _ = run("very-crazy-eights", 3, [["7H"], ["KC" if upcard != "QS" else "KS"], ["7D"]],
                  upcard, hand_size=1)
    assert b == [f"play 1 {'KC' if upcard != 'QS' else 'KS'}", "end out 1"]


# ====================================================================== more edge cases
def _first_player_events(preset, players, stock, n_events, **knobs):
    """For each dealer: (first player, its first events) when it holds only QC (legal on
    KC) and everyone else one unplayable card; all seats play `random`."""
    fillers = ["KH", "KS", "KD", "JH", "JD", "JS", "TH"]
    out = []
    for dealer in range(players):
        first = (dealer + 1) % players
        hands = [[fillers[q]] for q in range(players)]
        hands[first] = ["QC"]
        b, r, _ = run(preset, players, hands, "KC", stock, dealer=dealer,
                      strategies=["random"] * players, full_stock=False, **knobs)
        out.append((first, b[:n_events]))
    return out


@pytest.mark.parametrize("rule, knobs", [("unlimited", {}), ("one", {"draw_when_able": True})])
def test_crazy_eights_may_pass_on_empty_stock_when_able(rule, knobs):
    # Where a voluntary draw is allowed, a player with an empty stock may pass instead of
    # playing its legal card (§3); random takes both options across these seats.
    got = _first_player_events("crazy-eights", 7, [], 1, hand_size=1, draw_rule=rule, **knobs)
    assert all(b[0] in (f"play {s} QC", f"pass {s}") for s, b in got)
    assert {b[0].split()[0] for _, b in got} == {"play", "pass"}


@pytest.mark.parametrize("rule, knobs", [("must_play", {}), ("one", {"draw_when_able": False})])
def test_crazy_eights_must_play_when_able(rule, knobs):
    got = _first_player_events("crazy-eights", 7, [], 1, hand_size=1, draw_rule=rule, **knobs)
    assert all(b[0] == f"play {s} QC" for s, b in got)


def test_crazy_eights_voluntary_draws():
    # unlimited: a player holding a legal card may draw, and go on drawing, then play
    # (or pass once the stock is empty); `one` with draw_when_able: one draw ends the turn.
    for s, b in _first_player_events("crazy-eights", 7, ["AH", "AD"], 3, hand_size=1,
                                     draw_rule="unlimited"):
        if b[0] != f"play {s} QC":
            assert b[0] == f"draw {s} AH voluntary"
            assert b[1] in (f"draw {s} AD voluntary", f"play {s} QC")
    for s, b in _first_player_events("crazy-eights", 7, ["AH", "AD"], 2, hand_size=1,
                                     draw_rule="one", draw_when_able=True):
        if b[0] != f"play {s} QC":
            assert b[0] == f"draw {s} AH voluntary"
            assert not b[1].startswith(f"draw {s}") and not b[1].startswith(f"play {s}")


def test_six_play_again_allows_wilds():
    # Seat 1 (6C 9H QH) on KC: 6C and 9H both 30, 6C first in the hand -> 6C; again on
    # C/6 the only legal card is the wild 9H: called in its own colour, H (holds QH).
    b, r, _ = run("classic", 2, [["KD", "KS", "AS"], ["6C", "9H", "QH"]], "KC")
    assert b[:2] == ["play 1 6C", "play 1 9H H !"]


@pytest.mark.parametrize("colour, call", [("covered", "C"), ("own", "D")])
def test_nine_covered_uses_the_called_suit(colour, call):
    # Seat 1 (8D QS KS): 8D calls S. Seat 0 (9H JC QC) on S/8: only 9H. covered: the
    # colour of the current suit S (black): C or S, holds two clubs -> C. own: red, holds
    # no red card -> D.
    b, r, _ = run("classic", 2, [["9H", "JC", "QC"], ["8D", "QS", "KS"]], "KC",
                  nine_colour=colour)
    assert b[:2] == ["play 1 8D S", f"play 0 9H {call}"]


@pytest.mark.parametrize("rule", ["call_only", "as_played", "serbian"])
def test_upcard_nine_not_wild_no_call(rule):
    b, r, _ = run("classic", 2, [["QH"], ["KC"]], "9C", upcard_rule=rule, nine_wild=False)
    assert b == ["play 1 KC", "end out 1"]


def test_forfeit_not_settled_after_cap():
    # Penalties still owed are not drawn after a `cap` end (§2.9).
    b, r, _ = run("classic", 2, [["KH", "KS"], ["QC", "5D"]], "KC", ["3S"],
                  strategies=[G, F], last_card_penalty="forfeit", max_turns_per_hand=2)
    assert b == ["play 1 QC", "draw 0 3S cant_play", "end cap None"]
    assert r["points"] == [13, 30]  # KH KS 3S: the 3 covers a K


def test_forfeit_not_settled_after_dead():
    # 3 players, empty stock. Seat 1 (QC 5D) misses its call. Seat 2 (KH KS) cannot play:
    # pressure, the upcard KC (below the top QC) is the new stock, it draws KC. Seat 0
    # (JH JS) cannot play: pressure, nothing below the top -> dead. Seat 1's owed penalty
    # is not drawn (§2.9).
    b, r, _ = run("classic", 3, [["JH", "JS"], ["QC", "5D"], ["KH", "KS"]], "KC", [],
                  full_stock=False, strategies=[G, F, G], last_card_penalty="forfeit")
    assert b == ["play 1 QC", "pressure 2 5", "draw 2 KC cant_play", "pressure 0 5 dead",
                 "end dead None"]
    assert r["points"] == [20, 30, 30]
    assert r["totals"] == [25, 30, 35]


# ====================================================================== game-level knobs
def _games(preset, players, n, **knobs):
    from crates_sim.engine.api import run_games
    return run_games(Rules.preset(preset, players, **knobs), [G] * players, 1, 0, n)


def test_target_score_ends_the_game():
    # target_score=1: the game ends after the first hand in which someone scores (only
    # blocked hands, which score nothing, can come before it).
    r = _games("crazy-eights", 3, 30, target_score=1)
    h = r.hands
    for game in set(h["game"].tolist()):
        rows = h["game"] == game
        last = h["hand"][rows].max()
        before = rows & (h["hand"] < last)
        assert (h["points"][before] == 0).all()
        assert h["points"][rows & (h["hand"] == last)].max() >= 1


def test_max_hands_ends_the_game():
    r = _games("crazy-eights", 2, 20, max_hands=1, target_score=10**6)
    assert (r.games["hands"] == 1).all()


@pytest.mark.parametrize("value, dealers", [("0", {0}), ("random", {0, 1, 2, 3})])
def test_first_dealer(value, dealers):
    # Hand 1's dealer: seat 0, or a random seat; the deal then moves one seat left.
    r = _games("classic", 4, 40, first_dealer=value)
    h = r.hands
    first = {}
    for game, hand, dealer in zip(h["game"].tolist(), h["hand"].tolist(),
                                  h["dealer"].tolist(), strict=True):
        first.setdefault(game, (dealer - hand + 1) % 4)
        assert dealer == (first[game] + hand - 1) % 4
    assert set(first.values()) == dealers


def test_hand_size_knob():
    r = _games("crazy-eights", 3, 5, hand_size=7)
    assert (r.hands["size"] == 7).all()
    r = _games("crazy-eights", 3, 5)
    assert (r.hands["size"] == 5).all()
    r = _games("crazy-eights", 2, 5)
    assert (r.hands["size"] == 7).all()


def test_forfeit_settled_at_hand_end_with_a_pressure():
    # The forfeit deal with a stock that runs out exactly at the 5's draw (AC): the two
    # penalty cards seat 1 still owes at the hand's end meet an empty stock: a pressure
    # (pressures included, §2.5), the pile below the top 5D (KC QC 6C 6D) is reshuffled and
    # seat 1 draws two of those; the hand still ends `out` for seat 1.
    b, r, ev = run("classic", 2, [["KH", "KS"], ["QC", "5D"]], "KC",
                   ["3S", "6C", "6D", "4H", "AC"], full_stock=False, strategies=[G, F],
                   last_card_penalty="forfeit")
    assert b[:9] == ["play 1 QC", "draw 0 3S cant_play", "draw 1 6C penalty",
                     "draw 1 6D penalty", "draw 0 4H cant_play", "play 1 6C", "play 1 6D",
                     "play 1 5D", "draw 0 AC five"]
    assert b[9] == "pressure 1 5"
    assert sorted([e for e in ev if e["ev"] == "pressure"][0]["stock"]) == ["6C", "6D", "KC",
                                                                           "QC"]
    drawn = [x.split()[2] for x in b[10:12]]
    assert [x.split()[:2] + x.split()[3:] for x in b[10:12]] == [["draw", "1", "penalty"]] * 2
    assert set(drawn) <= {"KC", "QC", "6C", "6D"}
    assert b[12:] == ["end out 1"]
    value = {"KC": 10, "QC": 10, "6C": 30, "6D": 30}
    assert r["points"] == [24, sum(value[c] for c in drawn)]
    assert r["totals"] == [24, r["points"][1] + 5]
