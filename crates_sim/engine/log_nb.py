"""The game log: records written while tracing, and their export.

Contract: `log_reserve` starts a record [event, n_fields, fields...] in G's log area and
returns where its fields go (-1 when not logging, or when the log is full: S_LOG_OVERFLOW
is set and the caller retries with more room). The records are decoded into events by
`crates_sim.engine.api.decode_log`; docs/log-format.md describes the events users see.
"""

from ..cards import (
    EV_CALL,
)
from ..core.jit import kernel, leaf
from .state_nb import (
    LOG0,
    S_LOG_ON,
    S_LOG_OVERFLOW,
    S_LOG_POS,
    S_QUE0,
    T_LOG_OVERFLOW,
    T_LOG_WORDS,
    unpack,
)


@leaf
def log_reserve(G, ev, n_fields):
    """Start a log record; the index of its first field, or -1 when not logging."""
    g = unpack(G)
    st = g.st
    log = g.log
    if st[S_LOG_ON] == 0:
        return -1
    pos = st[S_LOG_POS]
    room = log.shape[0] if st[S_QUE0] == 0 else st[S_QUE0] - LOG0  # a queue follows the log
    if pos + 2 + n_fields > room:
        st[S_LOG_OVERFLOW] = 1
        st[S_LOG_ON] = 0
        return -1
    log[pos] = ev
    log[pos + 1] = n_fields
    st[S_LOG_POS] = pos + 2 + n_fields
    return pos + 2

@kernel
def log_call(G, seat, suit):
    g = unpack(G)
    lp = log_reserve(G, EV_CALL, 2)
    if lp >= 0:
        g.log[lp] = seat
        g.log[lp + 1] = suit

@kernel
def export_log(G, log, stats, result):
    """Copy the logged events out of G into `log` (stats[T_LOG_WORDS] words; stats[T_LOG_OVERFLOW]: it overflowed)."""
    st = unpack(G).st
    if st[S_LOG_POS] > 0 or st[S_LOG_OVERFLOW] != 0:
        for i in range(st[S_LOG_POS]):
            log[i] = G[LOG0 + i]
        stats[T_LOG_WORDS] = st[S_LOG_POS]
        stats[T_LOG_OVERFLOW] = st[S_LOG_OVERFLOW]
    return result
