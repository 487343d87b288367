"""Scoring: a Crates hand with 3-covering, the Crazy Eights payout, a hand's rows and
totals, the end of a game, ranks and win shares.

Contract: kernels on G; card values come from the rules array (VALUE + card). Each rule of
scoring lives here once: the engine and pimc both call these kernels.
"""

import numpy as np

from ..cards import (
    COVERABLE,
    EV_GAME_END,
    EV_HAND_END,
    FAMILY_CRATES,
    K_FAMILY,
    K_MAX_HANDS,
    K_N_HANDS,
    K_PENALTY,
    K_PSCOPE_TEAM,
    K_SPARE3,
    K_TARGET,
    PEN_FORFEIT,
    POINTS_CEILING,
    R_3,
    RANK0_CARDS,
    REASON_CAP,
    REASON_COUNT_BACK,
    REASON_DEAD,
    REASON_OUT,
    VCLASS_CARDS,
    VCLASS_N,
    VCLASS_VALUE,
)
from ..core.jit import kernel, leaf
from .actions_nb import add_points, add_to_unit
from .bits import card_mask, popcount
from .crates_nb import settle_penalties
from .log_nb import log_reserve
from .state_nb import (
    G_CAPPED,
    G_HANDS,
    G_HANDS_OUT,
    G_HOME_RUNS,
    G_PPOINTS,
    G_PRESSURES,
    G_RANK,
    G_SATURATED,
    G_TOTAL,
    H_CARDS_LEFT,
    H_CHOICES,
    H_COVERED,
    H_DEALER,
    H_DRAWS,
    H_GAME,
    H_HAND,
    H_HOME_RUN,
    H_MOVES,
    H_OPTIONS,
    H_OUT,
    H_PLAYS,
    H_POINTS,
    H_POS,
    H_PPOINTS,
    H_PRESSURES,
    H_REASON,
    H_SEAT,
    H_SIZE,
    H_THREES,
    H_TURNS,
    S_CHOICES,
    S_DEALER,
    S_HAND,
    S_MOVES,
    S_N,
    S_OPTIONS,
    S_OUT,
    S_REASON,
    S_SIZE,
    S_TURNS,
    SV_CAPPED,
    SV_G_PPOINTS,
    SV_G_PRESSURES,
    SV_H_DRAWS,
    SV_H_PLAYS,
    SV_H_PPOINTS,
    SV_H_PRESSURES,
    SV_HAND_N,
    SV_HAND_PTS,
    SV_HANDS,
    SV_HANDS_OUT,
    SV_HELD,
    SV_HOME_RUNS,
    SV_PRESS_K,
    SV_TEAM,
    SV_TOTAL,
    T_CAPPED,
    T_DEAD,
    T_TURNS,
    TMP_COVERED,
    TMP_HOME,
    TMP_POINTS,
    TMP_THREES,
    at,
    unpack,
)

#: the 3s as a card mask
THREE_CARDS = RANK0_CARDS << (4 * R_3)


@leaf
def held_value(R, held):
    """The card values of the cards in the mask `held`, summed (a count per value class of
    the rules, VCLASS_*: no loop over the cards, no branch)."""
    total = 0
    for i in range(R[VCLASS_N]):  # (the same count all run long: a predicted loop)
        total += R[VCLASS_VALUE + i] * popcount(held & R[VCLASS_CARDS + i])
    return total


@leaf
def score_crates_held(R, held):
    """(points, threes, covered, home_run) of a Crates hand holding the cards of the mask
    `held`: each 3 covers (cancels) one of the most valuable other cards except 8s
    (R[COVERABLE]) and scores 3; spare 3s score K_SPARE3; a hand of 3s only is a home
    run, -50 per 3. Every caller scores by this kernel (the engine, pimc's rollouts, and
    through `score_crates_hand` `crates replay`'s explanation)."""
    threes = popcount(held & THREE_CARDS)
    n = popcount(held)
    if n == 0:
        return 0, 0, 0, 0
    if threes == n:
        return -50 * threes, threes, 0, 1
    total = held_value(R, held & ~THREE_CARDS)
    left = threes
    coverable = held & R[COVERABLE]
    if left > 0:
        for i in range(R[VCLASS_N]):  # the most valuable first: as many as the 3s left cover
            c = min(left, popcount(coverable & R[VCLASS_CARDS + i]))
            total -= c * R[VCLASS_VALUE + i]
            left -= c
    covered = threes - left
    total += 3 * covered + R[K_SPARE3] * left
    return total, threes, covered, 0


@kernel
def score_crates_hand(R, hand, n, vals):
    """`score_crates_held` for the n cards hand[:n], which also writes the covered cards
    into vals (scratch of at least n int64): vals[:covered], most valuable first (of
    equal values, the lowest card first)."""
    held = card_mask(hand, 0, n)
    points, threes, covered, home = score_crates_held(R, held)
    coverable = held & R[COVERABLE]
    k = 0
    for i in range(R[VCLASS_N]):
        for card in range(52):
            if k < covered and (coverable & R[VCLASS_CARDS + i]) >> card & 1:
                vals[k] = card
                k += 1
    return points, threes, covered, home


@kernel
def eights_payout(G, out):
    """Crazy Eights: what seat `out`, who went out, scores for the hand: the card values
    left in the other hands, divided by the number of other players and rounded half
    up (the rule of every Crazy Eights preset here)."""
    g = unpack(G)
    R, sv = g.rules, g.sv
    n = g.st[S_N]
    others = np.int64(0)
    q = out
    for _ in range(n - 1):  # the seats after `out` (a seat recurrence: a loop over q was
        q = q + 1 if q + 1 < n else 0  # vectorized into a gather, slower for 2-7 seats)
        others |= sv[at(q, SV_HELD)]
    s = held_value(R, others)
    return (2 * s + (n - 1)) // (2 * (n - 1))


@kernel
def score_hand(G, stats):
    """Score the ended hand and update the totals, the per-seat counters and `stats`;
    each seat's points, 3s (Crates), covered 3s and home run stay in tmp[TMP_POINTS:...]
    for `write_hand_rows`."""
    g = unpack(G)
    R, st, sv = g.rules, g.st, g.sv
    n = st[S_N]
    crates = R[K_FAMILY] == FAMILY_CRATES
    reason = st[S_REASON]
    if crates and R[K_PENALTY] == PEN_FORFEIT and (reason == REASON_OUT or reason == REASON_COUNT_BACK):
        settle_penalties(G)
    tmp = g.tmp
    points = tmp[TMP_POINTS:TMP_POINTS + 8]
    threes = tmp[TMP_THREES:TMP_THREES + 8]
    covered = tmp[TMP_COVERED:TMP_COVERED + 8]
    home = tmp[TMP_HOME:TMP_HOME + 8]
    for i in range(TMP_POINTS, TMP_HOME + 8):  # (a loop: numba's slice fill costs more)
        tmp[i] = 0
    if crates:
        for q in range(n):
            pts, t, cv, hr = score_crates_held(R, sv[at(q, SV_HELD)])
            points[q] = pts
            threes[q] = t
            covered[q] = cv
            home[q] = hr
            add_to_unit(G, q, SV_TOTAL, pts)
            add_to_unit(G, q, SV_HAND_PTS, pts)
    else:
        out = st[S_OUT]
        if reason == REASON_OUT and out >= 0:
            points[out] = eights_payout(G, out)
            sv[at(out, SV_TOTAL)] = add_points(sv[at(out, SV_TOTAL)], points[out])
            sv[at(out, SV_HAND_PTS)] += points[out]
    if reason == REASON_CAP:
        stats[T_CAPPED] += 1
    elif reason == REASON_DEAD:
        stats[T_DEAD] += 1
    stats[T_TURNS] += st[S_TURNS]
    for q in range(n):
        sv[at(q, SV_HANDS_OUT)] += went_out(G, q)
        sv[at(q, SV_HOME_RUNS)] += home[q]
        sv[at(q, SV_CAPPED)] += 1 if reason == REASON_CAP else 0
        sv[at(q, SV_HANDS)] += 1
    lp = log_reserve(G, EV_HAND_END, 3 + 2 * n)
    if lp >= 0:
        log = g.log
        log[lp] = st[S_HAND]
        log[lp + 1] = reason
        log[lp + 2] = st[S_OUT]
        for q in range(n):
            log[lp + 3 + q] = points[q]
            log[lp + 3 + n + q] = sv[at(q, SV_TOTAL)]


@leaf
def went_out(G, q):
    """Whether seat q went out in the ended hand (1 or 0)."""
    g = unpack(G)
    st = g.st
    out = st[S_REASON] == REASON_OUT and (g.sv[at(q, SV_HAND_N)] == 0 or q == st[S_OUT])
    return 1 if out else 0


@kernel
def write_hand_rows(G, game_row, hand_rows, row0):
    """Write the scored hand's rows (one per seat, from row0; `score_hand` first); returns
    their number. hand_rows: one array per column (`engine.new_hand_rows`), field f of
    row r is hand_rows[f][r] (H_* fields), each in its dataset dtype: Parquet takes the
    columns as the kernel wrote them, with no casts. game_row: the game's number. A
    kernel of its own: the 21 arrays are passed only when rows are written."""
    g = unpack(G)
    R, st, sv, tmp = g.rules, g.st, g.sv, g.tmp
    n = st[S_N]
    if R[K_FAMILY] != FAMILY_CRATES:  # only the rows report 3s in Crazy Eights
        for q in range(n):
            tmp[TMP_THREES + q] = popcount(sv[at(q, SV_HELD)] & THREE_CARDS)
    for q in range(n):
        r = row0 + q
        hand_rows[H_GAME][r] = game_row
        hand_rows[H_HAND][r] = st[S_HAND]
        hand_rows[H_SIZE][r] = st[S_SIZE]
        hand_rows[H_DEALER][r] = st[S_DEALER]
        hand_rows[H_POS][r] = (q - st[S_DEALER] + n) % n
        hand_rows[H_SEAT][r] = q
        hand_rows[H_POINTS][r] = tmp[TMP_POINTS + q]
        hand_rows[H_CARDS_LEFT][r] = sv[at(q, SV_HAND_N)]
        hand_rows[H_THREES][r] = tmp[TMP_THREES + q]
        hand_rows[H_COVERED][r] = tmp[TMP_COVERED + q]
        hand_rows[H_HOME_RUN][r] = tmp[TMP_HOME + q] != 0
        hand_rows[H_OUT][r] = went_out(G, q) != 0
        hand_rows[H_PRESSURES][r] = sv[at(q, SV_H_PRESSURES)]
        hand_rows[H_PPOINTS][r] = sv[at(q, SV_H_PPOINTS)]
        hand_rows[H_DRAWS][r] = sv[at(q, SV_H_DRAWS)]
        hand_rows[H_PLAYS][r] = sv[at(q, SV_H_PLAYS)]
        hand_rows[H_TURNS][r] = st[S_TURNS]
        hand_rows[H_REASON][r] = st[S_REASON]
        hand_rows[H_MOVES][r] = st[S_MOVES]
        hand_rows[H_CHOICES][r] = st[S_CHOICES]
        hand_rows[H_OPTIONS][r] = st[S_OPTIONS]
    return n


@kernel
def finish_hand(G, game_row, hand_rows, row0, stats):
    """`score_hand`, then `write_hand_rows` from row0; returns the rows written."""
    score_hand(G, stats)
    return write_hand_rows(G, game_row, hand_rows, row0)

@kernel
def game_over(G, hand_no):
    g = unpack(G)
    R, st, sv = g.rules, g.st, g.sv
    if R[K_FAMILY] == FAMILY_CRATES:
        return hand_no >= R[K_N_HANDS]
    if hand_no >= R[K_MAX_HANDS]:
        return True
    for q in range(st[S_N]):
        if sv[at(q, SV_TOTAL)] >= R[K_TARGET]:
            return True
    return False

@leaf
def _pressure_bits(G, q):
    """The pressure part of seat q's total as 5 x (2**a + 2**b) - 5 x m: returns (a, b, m),
    a > b, b = -1 for no second bit. A unit's pressure points are 5 (2**K - 1) per
    pressure counter (5, 10, 20 ...: K pressures); a seat in a partnership under
    `pressure_scope=seat` adds its partner's counter to the team total."""
    g = unpack(G)
    sv = g.sv
    a = sv[at(q, SV_PRESS_K)]
    b = np.int64(-1)
    m = 1
    if g.rules[K_PSCOPE_TEAM] == 0:
        for o in range(g.st[S_N]):
            if o != q and sv[at(o, SV_TEAM)] == sv[at(q, SV_TEAM)]:
                b = sv[at(o, SV_PRESS_K)]
                m = 2
    if b > a:
        a, b = b, a
    if a == b:  # 2**a + 2**a
        a, b = a + 1, np.int64(-1)
    return a, b, m


@leaf
def start_hand_points(G, q):
    """SV_HAND_PTS for a game started from given totals and pressure counters (stacked
    decks): the total less the pressure points its counters imply (0 past the ceiling)."""
    a, b, m = _pressure_bits(G, q)
    if a > 58:
        return np.int64(0)
    low = (np.int64(1) << b) if b >= 0 else np.int64(0)
    return unpack(G).sv[at(q, SV_TOTAL)] - 5 * ((np.int64(1) << a) + low) + 5 * m


@leaf
def total_order(G, q, o):
    """-1, 0 or 1 as seat q's game total is below, equal to or above seat o's, exact also
    where totals have reached the points ceiling (SV_TOTAL then holds the ceiling): such a
    total is 5 x (its pressure bits) + its hand points (SV_HAND_PTS) - 5 x its counters,
    compared bit by bit. Finite totals compare as they are; a total at the ceiling is
    above every total below it."""
    g = unpack(G)
    sv = g.sv
    tq = sv[at(q, SV_TOTAL)]
    to = sv[at(o, SV_TOTAL)]
    if tq < POINTS_CEILING or to < POINTS_CEILING:
        return -1 if tq < to else (1 if tq > to else 0)
    aq, bq, mq = _pressure_bits(G, q)
    ao, bo, mo = _pressure_bits(G, o)
    if aq != ao:  # both at the ceiling: a >= 59, so the higher bit outweighs the rest
        return -1 if aq < ao else 1
    rq = sv[at(q, SV_HAND_PTS)] - 5 * mq
    ro = sv[at(o, SV_HAND_PTS)] - 5 * mo
    if bq == bo:
        d = rq - ro
    elif max(bq, bo) >= 40:  # 5 x 2**39 outweighs any sum of hand points
        return -1 if bq < bo else 1
    else:
        low_q = (np.int64(1) << bq) if bq >= 0 else np.int64(0)
        low_o = (np.int64(1) << bo) if bo >= 0 else np.int64(0)
        d = 5 * (low_q - low_o) + rq - ro
    return -1 if d < 0 else (1 if d > 0 else 0)


@leaf
def beats(G, q, o, lower_wins):
    """Whether seat q's total is better than seat o's (lower in Crates)."""
    c = total_order(G, q, o)
    return c < 0 if lower_wins else c > 0


@kernel
def finish_game(G, games_out, win_out, row0):
    """Ranks, win shares and per-seat game rows; the game_end log record.

    games_out: one array per G_* field, in its dataset dtype (`engine.new_game_rows`):
    field f of row r is games_out[f][r]. Totals compare exactly (`total_order`), also
    past the points ceiling, where the rows and the log show the ceiling and the game is
    flagged `saturated`: a total at the ceiling never beats one below it, and of two at
    the ceiling the lower true total wins (equal true totals tie, as any equal totals)."""
    g = unpack(G)
    R, st, sv = g.rules, g.st, g.sv
    n = st[S_N]
    lower_wins = R[K_FAMILY] == FAMILY_CRATES
    best = 0
    saturated = False
    for q in range(n):
        saturated = saturated or sv[at(q, SV_TOTAL)] >= POINTS_CEILING
        if beats(G, q, best, lower_wins):
            best = q
    units = 0
    n_win = 0
    for q in range(n):
        if total_order(G, q, best) == 0:
            n_win += 1
            if sv[at(q, SV_TEAM)] == q:  # count each team once (by its lower seat)
                units += 1
    for q in range(n):
        t = sv[at(q, SV_TOTAL)]
        rank = 1
        for o in range(n):
            if beats(G, o, q, lower_wins):
                rank += 1
        r = row0 + q
        games_out[G_TOTAL][r] = t
        games_out[G_RANK][r] = rank
        games_out[G_PRESSURES][r] = sv[at(q, SV_G_PRESSURES)]
        games_out[G_PPOINTS][r] = sv[at(q, SV_G_PPOINTS)]
        games_out[G_HANDS_OUT][r] = sv[at(q, SV_HANDS_OUT)]
        games_out[G_HOME_RUNS][r] = sv[at(q, SV_HOME_RUNS)]
        games_out[G_CAPPED][r] = sv[at(q, SV_CAPPED)]
        games_out[G_HANDS][r] = sv[at(q, SV_HANDS)]
        games_out[G_SATURATED][r] = saturated
        win_out[r] = 1.0 / units if total_order(G, q, best) == 0 else 0.0
    lp = log_reserve(G, EV_GAME_END, n + 1 + n_win)
    if lp >= 0:
        log = g.log
        for q in range(n):
            log[lp + q] = sv[at(q, SV_TOTAL)]
        log[lp + n] = n_win
        k = lp + n + 1
        for q in range(n):
            if total_order(G, q, best) == 0:
                log[k] = q
                k += 1
