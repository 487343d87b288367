"""Column schemas of the datasets that `crates simulate`, `compare` and `balance` write.

The engine fills plain numpy arrays with these names and dtypes; `crates_sim.data.dataset` turns
them into Arrow tables (strings as dictionary-encoded categoricals) and Parquet files.
Datasets of a rotated design (compare, balance: the strategies rotated over the seats)
add ROTATED_GAME_COLUMNS to games/ and ROTATED_HAND_COLUMNS to hands/.
"""

import numpy as np

#: End reasons of a hand, in the order of their integer codes.
REASONS = ("out", "count_back", "dead", "cap", "block")

#: One row per game x seat.
GAME_COLUMNS = {
    "game": np.int64,
    "seat": np.int8,
    "strategy": "category",  # strategy spec of the seat, e.g. "greedy" or "pimc:samples=200"
    "team": np.int8,  # seat % 2 with partnerships, else the seat
    "total": np.int64,  # final game score, pressures included (team total for partners)
    "rank": np.int8,  # 1 = best
    "win": np.float32,  # 1/k for a k-way tie for first, else 0
    # 32-bit: a pressure war (a Crates rule set with draws at will) can take thousands of
    # pressures in one hand (older datasets have 16 bits here and 8 in hands/: not resumed,
    # runner._refuse_narrow)
    "pressures": np.int32,
    # 64-bit, as total: pressure points double with every pressure (5, 10, 20 ...), so rules
    # under which the stock runs dry very often pass 2**31 (older datasets have 32 bits:
    # they are read as they are, and not resumed: runner._refuse_narrow)
    "pressure_points": np.int64,
    "hands_out": np.int16,
    "home_runs": np.int16,
    "capped_hands": np.int16,
    "hands": np.int16,
    # some total of the game reached the points ceiling (cards.POINTS_CEILING, 2**62): its
    # totals at the ceiling are "at least that", not exact (docs/rules.md); the same for
    # every seat of the game. Older datasets lack the column: read as false
    "saturated": np.bool_,
}

#: One row per game x hand x seat.
HAND_COLUMNS = {
    "game": np.int64,
    "hand": np.int16,  # 1-based
    "size": np.int8,  # cards dealt to each player
    "dealer": np.int8,
    "pos": np.int8,  # (seat - dealer) mod players: 0 = dealer, 1 = dealer's left
    "seat": np.int8,
    "points": np.int16,  # hand score (pressures excluded)
    "cards_left": np.int8,
    "threes_left": np.int8,
    "covered": np.int8,  # cards covered by 3s
    "home_run": np.bool_,
    "out": np.bool_,
    "pressures": np.int32,  # 32-bit, as in games/: thousands in a capped hand are possible
    "pressure_points": np.int64,
    # 32-bit: max_turns_per_hand has no upper bound
    "draws": np.int32,
    "plays": np.int32,
    "turns": np.int32,  # plays + draws + passes of the whole hand (same for every seat)
    "reason": "category",  # one of REASONS
    # the hand's move points (a seat to play or to answer a count; a forced draw or pass
    # counts), those with more than one legal option, and their options summed (a forced
    # move counts one); the same for every seat, like turns (`state_nb.note_options`)
    "moves": np.int32,
    "choices": np.int32,
    "options": np.int32,
}

#: Added to games/ in a rotated design: which seating a row was played in, and the index of
#: the seat's strategy in the manifest's `entries`.
ROTATED_GAME_COLUMNS = {
    "rotation": np.int8,
    "entry": np.int8,
}

#: Added to hands/ in a rotated design (the seat's strategy changes with the rotation).
ROTATED_HAND_COLUMNS = {
    "rotation": np.int8,
    "entry": np.int8,
    "strategy": "category",
    "team": np.int8,  # seat % 2 with partnerships, else the seat
}
