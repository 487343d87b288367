"""The flat observation of an outside agent's paused decision (`crates_sim.play.env`).

Contract: `agent_observation(G, vec, mask)` fills `vec` (float32[obs_size(n)]) and
`mask` (int8[60]) from the paused decision of G (see `decide_nb.agent_choice`), in the
layout docs/env.md documents (OBS_* below): own hand (52), top card (52), current suit
(4), phase (6), active count (1), own seat (n), then per seat hand size, total,
pressures (3 n). The
engine fills them in one call, so Python only hands the arrays on.
"""

from ..cards import (
    O_COUNT,
    O_HAND_N,
    O_PER_SEAT,
    O_SEATS,
    O_SUIT,
    O_TOP,
    OS_HAND_N,
    OS_PRESSURES,
    OS_TOTAL,
    PH_ANNOUNCE,
    PH_BLIND_CALL,
    PH_CALL,
)
from ..core.jit import kernel
from .state_nb import (
    S_N,
    S_PAUSE_N,
    S_PAUSE_PHASE,
    S_PAUSE_SEAT,
    TMP_PAUSE_HAND,
    TMP_PAUSE_OPTS,
    unpack,
)

#: first action of a suit call and of an announcement (env.ACTIONS)
CALL0 = 54
ANNOUNCE0 = 58
#: where each part of the observation vector starts; per seat (from OBS_SEATS + n) come
#: its hand size, total and pressures (OBS_PER_SEAT values)
OBS_HAND, OBS_TOP, OBS_SUIT, OBS_PHASE, OBS_COUNT, OBS_SEAT = 0, 52, 104, 108, 114, 115
OBS_PER_SEAT = 3


def obs_size(players: int) -> int:
    """Length of the observation vector for `players` players."""
    return OBS_SEAT + players + OBS_PER_SEAT * players


@kernel
def agent_observation(G, vec, mask):
    """Fill the paused seat's observation vector and action mask; returns the seat."""
    g = unpack(G)
    st, obs, tmp = g.st, g.obs, g.tmp
    n = st[S_N]
    seat = st[S_PAUSE_SEAT]
    phase = st[S_PAUSE_PHASE]
    vec[:] = 0.0
    mask[:] = 0
    for i in range(obs[O_HAND_N]):
        vec[OBS_HAND + tmp[TMP_PAUSE_HAND + i]] = 1.0
    if obs[O_TOP] >= 0:
        vec[OBS_TOP + obs[O_TOP]] = 1.0
    if 0 <= obs[O_SUIT] < 4:
        vec[OBS_SUIT + obs[O_SUIT]] = 1.0
    vec[OBS_PHASE + phase] = 1.0
    vec[OBS_COUNT] = obs[O_COUNT]
    vec[OBS_SEAT + seat] = 1.0
    base = OBS_SEAT + n
    for s in range(n):
        b = O_SEATS + s * O_PER_SEAT
        vec[base + OBS_PER_SEAT * s] = obs[b + OS_HAND_N]
        vec[base + OBS_PER_SEAT * s + 1] = obs[b + OS_TOTAL]
        vec[base + OBS_PER_SEAT * s + 2] = obs[b + OS_PRESSURES]
    shift = 0
    if phase == PH_CALL or phase == PH_BLIND_CALL:
        shift = CALL0
    elif phase == PH_ANNOUNCE:
        shift = ANNOUNCE0
    for i in range(st[S_PAUSE_N]):
        mask[tmp[TMP_PAUSE_OPTS + i] + shift] = 1
    return seat
