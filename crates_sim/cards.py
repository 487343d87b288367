"""Card encoding, rule-array layout and the constants the kernels share.

Cards: ``card = rank * 4 + suit``; ranks ``A 2 3 4 5 6 7 8 9 T J Q K`` = 0..12, suits
``C D H S`` = 0..3 (clubs and spades black, diamonds and hearts red). ``-1`` = no card.

The rules array (int64) that every kernel receives::

    [0, N_KNOBS)                    knob codes (K_* below)
    [EFFECT, EFFECT + 52)           effect of each card (E_* below)
    [COUNT_ADD, COUNT_ADD + 52)     how much a card adds to a count (0: cannot answer one)
    [VALUE, VALUE + 52)             score value of a card left in hand
    [IN_DECK, IN_DECK + 52)         1 if the card is in the deck (remove_ranks)
    COVERABLE                       the cards a 3 may cover (not a 3, not an E_WILD), a mask
    VCLASS_N                        how many distinct card values the rules have
    [VCLASS_VALUE, + N_VCLASS)      those values, most valuable first (then 0: unused)
    [VCLASS_CARDS, + N_VCLASS)      the cards of each of those values, a card mask

The last three are derived from the per-card tables (`card_sets`): the scoring kernels
work on the cards a seat holds as a mask (`scoring_nb`).

Strategy actions: a card 0..51 to play, ``ACTION_DRAW`` (draw, or decline an optional
count), ``ACTION_PASS`` (pass on an empty stock, Crazy Eights only).
"""

import numpy as np

RANKS = "A23456789TJQK"
SUITS = "CDHS"
R_A, R_2, R_3, R_4, R_5, R_6, R_7, R_8, R_9, R_T, R_J, R_Q, R_K = range(13)
ACTION_DRAW = 52
ACTION_PASS = 53
NO_CARD = -1

#: sets of cards as 64-bit masks (bit c: card c): the cards of suit 0 (bits 0, 4 ... 48;
#: shifted left by s, those of suit s) and of rank 0 (bits 0-3; shifted by 4 r, rank r)
SUIT0_CARDS = 0x1111111111111
RANK0_CARDS = 0xF

CRATES_HAND_SIZES = (8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8)

#: the ceiling of points and totals (2**62 = 4,611,686,018,427,387,904): pressure points
#: double (5, 10, 20 ...) and would pass 64 bits. Points and totals are exact below it;
#: a sum that would reach it is the ceiling, which then stays (`actions_nb.add_points`),
#: and a game with a total at the ceiling is flagged `saturated` (docs/rules.md)
POINTS_CEILING = 1 << 62
#: the last pressure count whose points (5 << k) are below the ceiling
PRESSURE_K_EXACT = 59

# ---------------------------------------------------------------- card effects
E_NONE = 0
E_COUNT = 1  # starts or grows a count (Crates 2s and As, Very Crazy Eights 2s)
E_SKIP = 2  # next player skipped (Crates 4, VCE J)
E_FIVE = 3  # every other player draws one
E_SIX = 5  # play again (Cooper when it was the last card)
E_SEVEN = 6  # one player draws one (seven_target)
E_WILD = 7  # call any suit
E_WILD9 = 8  # call a suit of one colour (nine_colour)
E_REVERSE = 9
E_JACK = 10  # classic jack
E_QUEEN5 = 11  # VCE queen of spades: next player draws five, turn over

# ---------------------------------------------------------------- knob slots
(K_FAMILY, K_PLAYERS, K_PARTNER, K_COUNT_FORCED, K_SEVEN_ACROSS, K_NINE_COVERED,
 K_PSCOPE_TEAM, K_PENALTY, K_SIX_EXEMPT, K_UPCARD, K_OUT, K_SPARE3, K_DRAW_WHEN_ABLE,
 K_DRAW_RULE, K_HAND_SIZE, K_TARGET, K_MAX_HANDS, K_MAX_TURNS, K_FIRST_DEALER, K_N_HANDS,
 K_COUNT_WHY, K_DECK_N) = range(22)
N_KNOBS = 32
EFFECT = N_KNOBS
COUNT_ADD = EFFECT + 52
VALUE = COUNT_ADD + 52
IN_DECK = VALUE + 52
COVERABLE = IN_DECK + 52
VCLASS_N = COVERABLE + 1
N_VCLASS = 13
VCLASS_VALUE = VCLASS_N + 1
VCLASS_CARDS = VCLASS_VALUE + N_VCLASS
RULES_LEN = VCLASS_CARDS + N_VCLASS

FAMILY_CRATES, FAMILY_EIGHTS = 0, 1
PEN_NEXT_TURN, PEN_FORFEIT, PEN_IMMEDIATE = 0, 1, 2
UP_CALL_ONLY, UP_AS_PLAYED, UP_SERBIAN = 0, 1, 2
OUT_AFTER, OUT_MAY_RETURN, OUT_IMMEDIATE = 0, 1, 2
DRAW_ONE, DRAW_MUST_PLAY, DRAW_UNLIMITED = 0, 1, 2

# ---------------------------------------------------------------- log codes
EV_GAME, EV_DEAL, EV_CALL, EV_PLAY, EV_DRAW, EV_PRESSURE, EV_PASS, EV_HAND_END, EV_GAME_END = range(9)
WHY = ("cant_play", "count", "five", "seven", "jack", "cooper", "six_fail", "penalty",
       "vce_two", "vce_queen", "voluntary")
(W_CANT_PLAY, W_COUNT, W_FIVE, W_SEVEN, W_JACK, W_COOPER, W_SIX_FAIL, W_PENALTY,
 W_VCE_TWO, W_VCE_QUEEN, W_VOLUNTARY) = range(11)
REASON_OUT, REASON_COUNT_BACK, REASON_DEAD, REASON_CAP, REASON_BLOCK = range(5)
#: not a hand end: the hand stopped at an outside agent's decision (`crates_sim.play.step`)
REASON_PAUSE = 9

# ---------------------------------------------------------------- strategy view
# A strategy sees `obs` (int64, layout below), its own hand, the discard pile since the
# last reshuffle (public: every card in it was played face up) and its options.
(O_SEAT, O_PLAYERS, O_PARTNER, O_DEALER, O_HAND, O_SIZE, O_TOP, O_SUIT, O_RANK, O_DIR,
 O_COUNT, O_STOCK_N, O_PHASE, O_CAN_DRAW, O_FAMILY, O_PLAYED, O_N_HANDS, O_HAND_N,
 O_PASSES, O_OUT_SEQ) = range(20)
O_SEATS = 20  #: per-seat blocks start here, O_PER_SEAT values each (all public):
(OS_HAND_N, OS_TOTAL, OS_PRESSURES, OS_LAST_CARD, OS_OWE, OS_PRESS_K,
 OS_OUT_ORDER, OS_VOIDS, OS_VOID_FREE, OS_CALLED, OS_CALL_HAND) = range(11)
#: OS_VOIDS: bit s set when the seat could not play on suit s this hand (it held none);
#: OS_VOID_FREE: cards it has drawn since, which may be of those suits;
#: OS_CALLED: 1 + the suit the seat called with a wild, while that wild is its last play
#: this hand (0: none); OS_CALL_HAND: the cards it held right after that call (it has
#: drawn OS_HAND_N - OS_CALL_HAND since)
O_PER_SEAT = 11
#: a copy of the rules array (public knowledge), written once per game
O_RULES = O_SEATS + 7 * O_PER_SEAT + 3
OBS_LEN = O_RULES + RULES_LEN
#: decision phases (obs[O_PHASE])
PH_PLAY, PH_COUNT, PH_AGAIN, PH_CALL, PH_BLIND_CALL, PH_ANNOUNCE = range(6)

CRATES_VALUES = (1, 20, 0, 15, 30, 30, 20, 50, 30, 25, 10, 10, 10)
EIGHTS_VALUES = (1, 2, 3, 4, 5, 6, 7, 50, 9, 10, 10, 10, 10)


def card_name(card: int) -> str:
    return RANKS[card // 4] + SUITS[card % 4]


def parse_card(text: str) -> int:
    text = text.strip().upper().replace("10", "T")
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise ValueError(f"not a card: {text!r}")
    return RANKS.index(text[0]) * 4 + SUITS.index(text[1])


#: special cards that come with a preset (they are not knobs): preset -> cards as
#: (rank, suit or None for every suit, effect, what it adds to a count)
PRESET_CARDS = {
    "very-crazy-eights": ((R_2, None, E_COUNT, 2), (R_J, None, E_SKIP, 0),
                          (R_K, None, E_REVERSE, 0), (R_Q, 3, E_QUEEN5, 0)),
}


def encode_rules(rules) -> np.ndarray:
    """Encode a `Rules` into the kernels' int64 array."""
    k = rules.knobs
    a = np.zeros(RULES_LEN, dtype=np.int64)
    crates = rules.family == "crates"
    a[K_FAMILY] = FAMILY_CRATES if crates else FAMILY_EIGHTS
    a[K_PLAYERS] = rules.players
    a[K_MAX_TURNS] = k["max_turns_per_hand"]
    a[K_FIRST_DEALER] = -1 if k["first_dealer"] == "random" else 0
    a[K_DRAW_WHEN_ABLE] = int(k["draw_when_able"])
    removed = k["remove_ranks"]
    for card in range(52):
        a[IN_DECK + card] = 0 if RANKS[card // 4] in removed else 1
    a[K_DECK_N] = int(a[IN_DECK:IN_DECK + 52].sum())
    if crates:
        a[K_PARTNER] = int(rules.partnerships)
        a[K_COUNT_FORCED] = int(k["count_forced"])
        a[K_SEVEN_ACROSS] = int(k["seven_target"] == "across")
        a[K_NINE_COVERED] = int(k["nine_colour"] == "covered")
        a[K_PSCOPE_TEAM] = int(k["pressure_scope"] == "team" and rules.partnerships)
        a[K_PENALTY] = ("next_turn", "forfeit", "immediate").index(k["last_card_penalty"])
        a[K_SIX_EXEMPT] = int(k["six_exempt"])
        a[K_UPCARD] = ("call_only", "as_played", "serbian").index(k["upcard_rule"])
        a[K_OUT] = ("after_effects", "may_return", "immediate").index(k["out_rule"])
        a[K_SPARE3] = k["spare_three"]
        a[K_N_HANDS] = len(CRATES_HAND_SIZES)
        a[K_MAX_HANDS] = len(CRATES_HAND_SIZES)
        a[K_COUNT_WHY] = W_COUNT
        per_rank = [E_NONE, E_COUNT, E_NONE, E_SKIP, E_FIVE, E_SIX, E_SEVEN, E_WILD,
                    E_WILD9 if k["nine_wild"] else E_NONE, E_REVERSE,
                    E_JACK if k["jack_effect"] == "classic" else E_NONE, E_NONE, E_NONE]
        pips = k["count_value"] == "pips"
        for card in range(52):
            r = card // 4
            a[EFFECT + card] = per_rank[r]
            a[COUNT_ADD + card] = (1 if r == R_A else (2 if pips else 1)) if r in (R_A, R_2) else 0
            a[VALUE + card] = CRATES_VALUES[r]
    else:
        a[K_DRAW_RULE] = ("one", "must_play", "unlimited").index(k["draw_rule"])
        a[K_COUNT_FORCED] = int(k["draw_rule"] == "must_play")
        a[K_HAND_SIZE] = rules.hand_size
        a[K_TARGET] = k["target_score"]
        a[K_MAX_HANDS] = k["max_hands"]
        a[K_COUNT_WHY] = W_VCE_TWO
        for card in range(52):
            r = card // 4
            a[EFFECT + card] = E_WILD if r == R_8 else E_NONE
            a[VALUE + card] = EIGHTS_VALUES[r]
            for rank, suit, effect, adds in PRESET_CARDS.get(rules.preset_name, ()):
                if r == rank and (suit is None or card % 4 == suit):
                    a[EFFECT + card] = effect
                    a[COUNT_ADD + card] = adds
    card_sets(a)
    return a


def card_sets(a) -> None:
    """Fill the rules array's card sets from its per-card tables: COVERABLE, and the
    cards grouped by value, most valuable first (VCLASS_*)."""
    coverable = 0
    for card in range(52):
        if card // 4 != R_3 and a[EFFECT + card] != E_WILD:
            coverable |= 1 << card
    a[COVERABLE] = coverable
    values = sorted({int(a[VALUE + card]) for card in range(52)}, reverse=True)
    a[VCLASS_N] = len(values)
    for i, v in enumerate(values):
        a[VCLASS_VALUE + i] = v
        a[VCLASS_CARDS + i] = sum(1 << card for card in range(52) if a[VALUE + card] == v)
