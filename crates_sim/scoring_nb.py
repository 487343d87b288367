"""Scoring: a Crates hand with 3-covering, the Crazy Eights payout, a hand's rows and
totals, the end of a game, ranks and win shares.

Contract: kernels on G; card values come from the rules array (VALUE + card). Each rule of
scoring lives here once: the engine and pimc both call these kernels.
"""

from .actions_nb import add_to_unit
from .cards import (
    E_WILD,
    EFFECT,
    EV_GAME_END,
    EV_HAND_END,
    FAMILY_CRATES,
    K_FAMILY,
    K_MAX_HANDS,
    K_N_HANDS,
    K_PENALTY,
    K_SPARE3,
    K_TARGET,
    PEN_FORFEIT,
    R_3,
    REASON_CAP,
    REASON_COUNT_BACK,
    REASON_DEAD,
    REASON_OUT,
    VALUE,
)
from .crates_nb import settle_penalties
from .jit import kernel, leaf
from .log_nb import log_reserve
from .state_nb import (
    G_CAPPED,
    G_HANDS,
    G_HANDS_OUT,
    G_HOME_RUNS,
    G_PPOINTS,
    G_PRESSURES,
    G_RANK,
    G_TOTAL,
    H_CARDS_LEFT,
    H_COVERED,
    H_DEALER,
    H_DRAWS,
    H_GAME,
    H_HAND,
    H_HOME_RUN,
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
    S_DEALER,
    S_HAND,
    S_N,
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
    SV_HANDS,
    SV_HANDS_OUT,
    SV_HOME_RUNS,
    SV_TEAM,
    SV_TOTAL,
    T_CAPPED,
    T_DEAD,
    T_TURNS,
    TMP_COVERED,
    TMP_HOME,
    TMP_POINTS,
    TMP_THREES,
    TMP_VALUES,
    at,
    small,
    unpack,
)


@kernel
def score_crates_hand(R, hand, n, vals):
    """(points, threes, covered, home_run) of a Crates hand of n cards: each 3 covers
    (cancels) one of the most valuable other cards except 8s and scores 3; spare 3s
    score K_SPARE3; a hand of 3s only is a home run, -50 per 3. Every caller scores by
    this kernel (the engine, pimc's rollouts, `crates replay`'s explanation).

    vals: scratch of at least n int64; on return vals[:covered] are the covered cards,
    most valuable first."""
    threes = 0
    others = 0  # the coverable cards (not 3, not 8), in vals[:others]
    total = 0
    for i in range(n):  # one pass, without branches (whether a card is a 3 is random)
        c = small(hand[i])
        three = c // 4 == R_3
        threes += three
        total += 0 if three else R[VALUE + c]
        vals[others] = c
        others += not three and R[EFFECT + c] != E_WILD
    if n == 0:
        return 0, 0, 0, 0
    if threes == n:
        return -50 * threes, threes, 0, 1
    # cover the most valuable first, by selection
    covered = min(threes, others)
    for j in range(covered):
        best = j
        for i in range(j + 1, others):
            if R[VALUE + vals[i]] > R[VALUE + vals[best]]:
                best = i
        tmp = vals[j]
        vals[j] = vals[best]
        vals[best] = tmp
        total -= R[VALUE + vals[j]]
    total += 3 * covered + R[K_SPARE3] * (threes - covered)
    return total, threes, covered, 0

@kernel
def eights_payout(G, out):
    """Crazy Eights: what seat `out`, who went out, scores for the hand: the card values
    left in the other hands, divided by the number of other players and rounded half
    up (the rule of every Crazy Eights preset here)."""
    g = unpack(G)
    R, sv, hands = g.rules, g.sv, g.hands
    n = g.st[S_N]
    s = 0
    for q in range(n):
        if q != out:
            for i in range(sv[at(q, SV_HAND_N)]):
                s += R[VALUE + small(hands[q * 52 + i])]
    return (2 * s + (n - 1)) // (2 * (n - 1))


@kernel
def score_hand(G, stats):
    """Score the ended hand and update the totals, the per-seat counters and `stats`;
    each seat's points, 3s (Crates), covered 3s and home run stay in tmp[TMP_POINTS:...]
    for `write_hand_rows`."""
    g = unpack(G)
    R, st, sv, hands = g.rules, g.st, g.sv, g.hands
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
            pts, t, cv, hr = score_crates_hand(R, hands[q * 52:q * 52 + 52], sv[at(q, SV_HAND_N)], tmp[TMP_VALUES:TMP_VALUES + 64])
            points[q] = pts
            threes[q] = t
            covered[q] = cv
            home[q] = hr
            add_to_unit(G, q, SV_TOTAL, pts)
    else:
        out = st[S_OUT]
        if reason == REASON_OUT and out >= 0:
            points[out] = eights_payout(G, out)
            sv[at(out, SV_TOTAL)] += points[out]
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
    kernel of its own: the 18 arrays are passed only when rows are written."""
    g = unpack(G)
    R, st, sv, hands, tmp = g.rules, g.st, g.sv, g.hands, g.tmp
    n = st[S_N]
    if R[K_FAMILY] != FAMILY_CRATES:  # only the rows report 3s in Crazy Eights
        for q in range(n):
            for i in range(sv[at(q, SV_HAND_N)]):
                if small(hands[q * 52 + i]) // 4 == R_3:
                    tmp[TMP_THREES + q] += 1
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

@kernel
def finish_game(G, games_out, win_out, row0):
    """Ranks, win shares and per-seat game rows; the game_end log record.

    games_out: one array per G_* field, in its dataset dtype (`engine.new_game_rows`):
    field f of row r is games_out[f][r]."""
    g = unpack(G)
    R, st, sv = g.rules, g.st, g.sv
    n = st[S_N]
    lower_wins = R[K_FAMILY] == FAMILY_CRATES
    best = sv[at(0, SV_TOTAL)]
    for q in range(n):
        t = sv[at(q, SV_TOTAL)]
        if (lower_wins and t < best) or (not lower_wins and t > best):
            best = t
    units = 0
    n_win = 0
    for q in range(n):
        if sv[at(q, SV_TOTAL)] == best:
            n_win += 1
            if sv[at(q, SV_TEAM)] == q:  # count each team once (by its lower seat)
                units += 1
    for q in range(n):
        t = sv[at(q, SV_TOTAL)]
        rank = 1
        for o in range(n):
            u = sv[at(o, SV_TOTAL)]
            if (lower_wins and u < t) or (not lower_wins and u > t):
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
        win_out[r] = 1.0 / units if t == best else 0.0
    lp = log_reserve(G, EV_GAME_END, n + 1 + n_win)
    if lp >= 0:
        log = g.log
        for q in range(n):
            log[lp + q] = sv[at(q, SV_TOTAL)]
        log[lp + n] = n_win
        k = lp + n + 1
        for q in range(n):
            if sv[at(q, SV_TOTAL)] == best:
                log[k] = q
                k += 1
