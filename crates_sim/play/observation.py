"""A Python agent's observation by name: `Observation(observation).hand`, not offsets.

Contract: `Observation(vector)` wraps the float32 vector that a Python agent
(`crates_sim.play.pyagent`) and the PettingZoo environment (`crates_sim.play.env`) are
given, without copying it, and names its parts (docs/env.md, "The observation"):

    hand        the card numbers 0..51 the seat holds (cards.card_name names them)
    top_card    the card on the pile, or -1 before the first one
    suit        the suit to follow 0..3 (C, D, H, S), or -1
    phase       what is decided: cards.PH_PLAY, PH_COUNT, PH_AGAIN, PH_CALL,
                PH_BLIND_CALL, PH_ANNOUNCE
    count       the count in progress (0: none)
    seat        the deciding seat
    players     the number of seats
    hand_sizes, totals, pressures   per seat, seat 0 first (int arrays)

The action numbers are named here too: CARD0 (a card c is action c), DRAW, PASS, CALL0
(a call of suit s is CALL0 + s), NO_ANNOUNCE, ANNOUNCE. The layout's offsets stay the
engine's (`engine.observe_nb`, which fills the vector); this is the one public name for
them, so an agent does not import an internal module.
"""

from __future__ import annotations

import numpy as np

from ..engine.observe_nb import ANNOUNCE0 as _ANNOUNCE0
from ..engine.observe_nb import CALL0 as _CALL0
from ..engine.observe_nb import (
    OBS_COUNT,
    OBS_HAND,
    OBS_PER_SEAT,
    OBS_PHASE,
    OBS_SEAT,
    OBS_SUIT,
    OBS_TOP,
)

#: the action numbers (docs/env.md): a card c is action CARD0 + c
CARD0, DRAW, PASS, CALL0, NO_ANNOUNCE, ANNOUNCE = 0, 52, 53, _CALL0, _ANNOUNCE0, _ANNOUNCE0 + 1
_PHASES = 6


class Observation:
    """Named parts of an agent's observation vector (see the module doc)."""

    __slots__ = ("vector", "players")

    def __init__(self, vector, players: int | None = None):
        """`vector`: the observation as given; `players`: the seat count (default: from
        the vector's length, OBS_SEAT + 4 per seat)."""
        self.vector = np.asarray(vector)
        if players is None:
            players, extra = divmod(len(self.vector) - OBS_SEAT, 1 + OBS_PER_SEAT)
            if extra or players < 2:
                raise ValueError(f"an observation vector has {OBS_SEAT} + 4 x players values, "
                                 f"not {len(self.vector)}")
        self.players = int(players)

    @property
    def hand(self) -> np.ndarray:
        """The cards held, as card numbers 0..51 in card order."""
        return np.flatnonzero(self.vector[OBS_HAND:OBS_HAND + 52])

    @property
    def top_card(self) -> int:
        """The card on the pile (0..51), -1 when there is none yet."""
        at = np.flatnonzero(self.vector[OBS_TOP:OBS_TOP + 52])
        return int(at[0]) if len(at) else -1

    @property
    def suit(self) -> int:
        """The suit to follow, 0..3 (C, D, H, S), -1 when none."""
        at = np.flatnonzero(self.vector[OBS_SUIT:OBS_SUIT + 4])
        return int(at[0]) if len(at) else -1

    @property
    def phase(self) -> int:
        """What is decided: one of cards.PH_* (PH_PLAY, PH_CALL, PH_ANNOUNCE ...)."""
        return int(np.argmax(self.vector[OBS_PHASE:OBS_PHASE + _PHASES]))

    @property
    def count(self) -> int:
        """The count in progress (0: none)."""
        return int(self.vector[OBS_COUNT])

    @property
    def seat(self) -> int:
        """The deciding seat."""
        return int(np.argmax(self.vector[OBS_SEAT:OBS_SEAT + self.players]))

    def _per_seat(self, k: int) -> np.ndarray:
        base = OBS_SEAT + self.players
        return self.vector[base + k:base + OBS_PER_SEAT * self.players:OBS_PER_SEAT].astype(np.int64)

    @property
    def hand_sizes(self) -> np.ndarray:
        """Cards held per seat, seat 0 first."""
        return self._per_seat(0)

    @property
    def totals(self) -> np.ndarray:
        """Game totals per seat so far."""
        return self._per_seat(1)

    @property
    def pressures(self) -> np.ndarray:
        """Pressures taken per seat so far."""
        return self._per_seat(2)


__all__ = ["Observation", "CARD0", "DRAW", "PASS", "CALL0", "NO_ANNOUNCE", "ANNOUNCE"]
