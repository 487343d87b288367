"""Python API of the engine: run chunks of games, trace one game as a JSON Lines log.

The kernels live in `engine_nb`; this module only allocates their buffers, crosses into
numba once per chunk, and turns integer records into columns or log events.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np
from numba.core.errors import NumbaError

from .. import cards as C
from ..data.schema import GAME_COLUMNS, HAND_COLUMNS, REASONS
from ..errors import CratesError
from ..strategy import addresses, lineup, resolve
from . import engine_nb as nb

PHASES = ("play", "count", "play again after a 6", "call", "upcard call", "announce")


@dataclass
class ChunkResult:
    """Results of games [game_start, game_start + n_games) of one run.

    games: GAME_COLUMNS names -> numpy arrays (one row per game x seat, games in order,
           seats in order); 'strategy' is an object array of strategy specs.
    hands: HAND_COLUMNS names -> numpy arrays (one row per game x hand x seat), or None
           when detail == "games"; 'reason' is int8 codes into schema.REASONS.
    turns: plays + draws + passes over all games of the chunk.
    capped_hands, dead_hands: counts over the chunk.
    """

    games: dict
    hands: dict | None
    turns: int
    capped_hands: int
    dead_hands: int


def _illegal(rules, specs, seed, err):
    seat, phase, choice, hand, game = (int(err[i]) for i in (nb.ERR_SEAT, nb.ERR_PHASE,
                                                            nb.ERR_CHOICE, nb.ERR_HAND,
                                                            nb.ERR_GAME))
    seen = err[nb.ERR_SEEN:nb.ERR_SEEN + nb.N_SEEN]
    n_opts, top, suit, hand_n = (int(seen[i]) for i in (nb.SEEN_N_OPTS, nb.SEEN_TOP,
                                                        nb.SEEN_SUIT, nb.SEEN_HAND_N))
    opts = [int(x) for x in seen[nb.SEEN_OPTS:nb.SEEN_OPTS + n_opts]]
    if phase in (3, 4):
        shown = [C.SUITS[o] for o in opts]
    elif phase == 5:
        shown = ["no", "yes"]
    else:
        shown = [C.card_name(o) if o < 52 else ("draw" if o == C.ACTION_DRAW else "pass")
                 for o in opts]
    cards = " ".join(C.card_name(int(c)) for c in seen[nb.SEEN_HAND:nb.SEEN_HAND + hand_n])
    return CratesError(
        f"strategy {specs[seat]!r} (seat {seat}) made an illegal choice: it returned {choice} "
        f"when asked to {PHASES[phase]}; the legal choices were indices 0..{n_opts - 1} = "
        f"{', '.join(shown)}. It saw: top card {C.card_name(top)}, suit {C.SUITS[suit]}, its "
        f"hand {cards or '(hidden)'}. Seed {seed}, game {game}, hand {hand}; see the position "
        f"with `crates trace --preset {rules.preset_name} --players {rules.players} "
        f"--strategies {','.join(specs)} --seed {seed} --game {game}`")


def new_hand_rows(cap: int) -> tuple:
    """Room for `cap` hand rows: one array per column, in the order of the H_* fields
    (schema.HAND_COLUMNS) and in its dataset dtype ('reason' as its int8 code). The
    kernel writes them (`write_hand_rows`) and Parquet takes them as they are: no casts."""
    rows = tuple(np.zeros(cap, dtype=np.int8 if dtype == "category" else dtype)
                 for dtype in HAND_COLUMNS.values())
    assert len(rows) == nb.N_HAND_FIELDS
    return rows


_reused = threading.local()  # per thread: dask runs several chunks in one process


def _rows_room(cap: int, reuse: bool) -> tuple:
    """`new_hand_rows(cap)`, or with `reuse` this thread's buffer (grown when too small)
    with its H_SIZE column cleared (the kernel's used rows are those it set). A fresh
    buffer per chunk costs its page faults: 15 ms of a 20,000-game classic chunk's
    600 ms for its 47 MB."""
    if not reuse:
        return new_hand_rows(cap)
    rows = getattr(_reused, "rows", None)
    if rows is None or rows[0].shape[0] < cap:
        rows = _reused.rows = new_hand_rows(cap)
    rows = tuple(column[:cap] for column in rows)
    rows[nb.H_SIZE][:] = 0
    return rows


def release_rows() -> None:
    """Drop this thread's reused hand-row buffer (`_rows_room`): a process that ran a
    run's chunks itself (`simulate --workers 1`, the Python API) gets its memory (47 MB
    for a 20,000-game classic chunk) back when the run ends."""
    _reused.rows = None


#: the dataset columns of the G_* fields that the kernel writes per game x seat, in order
GAME_FIELD_COLUMNS = ("total", "rank", "pressures", "pressure_points", "hands_out",
                      "home_runs", "capped_hands", "hands", "saturated")


def new_game_rows(cap: int) -> tuple:
    """Room for `cap` game x seat rows: one array per G_* field (GAME_FIELD_COLUMNS), in
    its dataset dtype, as `new_hand_rows`."""
    assert len(GAME_FIELD_COLUMNS) == nb.N_GAME_FIELDS
    return tuple(np.zeros(cap, dtype=GAME_COLUMNS[name]) for name in GAME_FIELD_COLUMNS)


def _rows_per_game(rules) -> int:
    if rules.family == "crates":
        return len(C.CRATES_HAND_SIZES) * rules.players
    return 8 * rules.players  # typical; the kernel stops early if a chunk runs out


def _compile_error(specs, exc) -> CratesError:
    from ..strategy import BUILTINS

    users = [s for s in specs if s.split(":", 1)[0] not in BUILTINS or s.startswith(("pimc", "expert"))]
    lines = [ln.strip() for ln in str(exc).splitlines() if ln.strip()]
    first = next((ln for ln in lines if not ln.startswith(("During", "Failed in"))), lines[0])
    return CratesError(
        f"strategy {', '.join(dict.fromkeys(users))} cannot be compiled by numba "
        f"(a decision function takes (params, obs, hand, pile, options, rng) and returns "
        f"an int): {_clipped(first)}")


#: the longest numba message an error line quotes (cut at a word, marked ...)
QUOTE_CHARS = 200


def _clipped(text: str) -> str:
    """`text` whole, or cut at its last word within QUOTE_CHARS with " ..." after."""
    if len(text) <= QUOTE_CHARS:
        return text
    return text[:QUOTE_CHARS].rsplit(" ", 1)[0].rstrip(",;:(") + " ..."


def _raised(specs, seed, game_start, n_games, exc) -> CratesError:
    """A strategy raised an exception inside the engine (only users' functions can)."""
    from ..strategy import BUILTINS

    users = [s for s in specs if s.split(":", 1)[0] not in BUILTINS]
    who = ", ".join(dict.fromkeys(users)) or ", ".join(dict.fromkeys(specs))
    return CratesError(f"strategy {who} raised {type(exc).__name__}: {exc} (seed {seed}, "
                       f"games {game_start}..{game_start + n_games - 1})")


_ENGINE_TABLES = {}


def engine_table(decide: bool = True) -> np.ndarray:
    """The addresses of the engine kernels that other kernels call by address (slots
    engine_nb.ENGINE_*), loaded or compiled in this process on first use, and that of
    the apprentice's weights (loaded once per process). decide=False: for a run whose
    seats are all random or greedy (`needs_decide`), the decide slot holds `no_decide`,
    and `decide` is not loaded (nor compiled)."""
    if decide not in _ENGINE_TABLES:
        from ..strategies import adept
        from ..strategies.apprentice import weights_address
        from .indirect import DECIDE_ARGS, STATE_ARGS, address_of

        if decide:  # (a run of random and greedy seats does without it: said if compiled)
            _load_or_compile(nb.decide, DECIDE_ARGS, "the engine's decisions")
        table = np.zeros(nb.N_ENGINE, dtype=np.int64)
        table[nb.ENGINE_PLAY_ON] = address_of(nb.play_on, STATE_ARGS)
        table[nb.ENGINE_PRESSURE] = address_of(nb.pressure_entry)
        table[nb.ENGINE_DECIDE] = address_of(nb.decide if decide else nb.no_decide, DECIDE_ARGS)
        table[nb.ENGINE_APPRENTICE] = weights_address()
        table[nb.ENGINE_ADEPT] = adept.weights_address()
        _ENGINE_TABLES[decide] = table
    return _ENGINE_TABLES[decide]


def needs_decide(specs) -> bool:
    """Whether a run of `specs` may ask `decide`: any seat but a random or greedy one
    (those are decided inline, `decide_nb.decide_fast`)."""
    return any(name not in ("random", "greedy") for name, _ in lineup(specs).parsed)


def _kernel_args(R, ids, params, addrs, seed, game_start, n_games, want_rows, games_out,
                 win_out, rows, log, log_on, stats, err, engine=None, decide=True):
    """The argument tuple of `play_games_nb`, in the one set of types it is compiled for."""
    engine = engine_table(decide) if engine is None else engine
    return (R, ids, params, addrs, engine, np.uint64(seed), int(game_start), int(n_games),
            bool(want_rows), games_out, win_out, rows, log, int(log_on), stats, err)


def _sample_args():
    n = 4
    return _kernel_args(np.zeros(C.RULES_LEN, dtype=np.int64), np.zeros(n, dtype=np.int64),
                        np.zeros((n, nb.N_PARAMS)), np.zeros(n, dtype=np.int64), 0, 0, 0, False,
                        new_game_rows(n), np.zeros(n),
                        new_hand_rows(1),
                        np.zeros(1, dtype=np.int64), 0, np.zeros(nb.N_STATS, dtype=np.int64),
                        np.zeros(nb.N_ERR, dtype=np.int64), engine=np.zeros(nb.N_ENGINE, np.int64))


def _in_cache(dispatcher, sig) -> bool:
    """Whether numba's cache holds `dispatcher` compiled for `sig` (read from the cache's
    index, without loading the code)."""
    try:
        cache = dispatcher._cache
        key = cache._index_key(sig, dispatcher.targetctx.codegen())
        return key in cache._cache_file._load_index()
    except (AttributeError, OSError):  # pragma: no cover - another numba: just load it
        return False


def _signature(args) -> tuple:
    """The numba types of `args`: values (their types), or numba types already."""
    from numba import typeof, types

    return tuple(a if isinstance(a, types.Type) else typeof(a) for a in args)


def _ready(dispatcher, args) -> bool:
    """Whether `dispatcher` is loaded or cached for `args` (values or their types)."""
    sig = _signature(args)
    return sig in dispatcher.overloads or _in_cache(dispatcher, sig)


def _load_or_compile(dispatcher, args, what: str, load: bool = True) -> float:
    """Make `dispatcher` ready for `args`' types: load it from numba's cache, or compile it
    and say so on stderr (one line, written whole before the compile: `_say`). Returns the seconds
    spent compiling (0.0 when it was loaded or already there). load=False only makes sure
    that the cache has it: a process that starts workers need not hold the engine."""
    import time

    sig = _signature(args)
    if sig in dispatcher.overloads or (not load and _in_cache(dispatcher, sig)):
        return 0.0
    try:  # what numba's own compile() does first, so that a miss can be announced
        cres = dispatcher._cache.load_overload(sig, dispatcher.targetctx)
        if cres is not None:
            dispatcher.add_overload(cres)
            return 0.0
    except AttributeError:  # pragma: no cover - another numba: compile() loads it anyway
        pass
    t0 = time.perf_counter()
    _say(f"compiling {what} (first run on this machine; `crates compile` does it all once)")
    dispatcher.compile(sig)
    return time.perf_counter() - t0


def _say(line: str) -> None:
    """`line` on stderr in one write, so that two processes that compile at once (a run's
    workers) still print whole lines (a message in two writes came out interleaved:
    "compiling expert ...compiling expert ... 24 s / 24 s")."""
    import os
    import sys

    sys.stderr.flush()
    try:
        os.write(sys.stderr.fileno(), (line + "\n").encode())
    except (AttributeError, OSError, ValueError):  # no real stderr (captured): write it there
        print(line, file=sys.stderr, flush=True)


_DRIVER_TYPES = []


def _driver_types() -> tuple:
    """The argument types of `play_games_nb` (`_sample_args`'), found once per process:
    `prepare` runs for every chunk."""
    if not _DRIVER_TYPES:
        from numba import typeof

        _DRIVER_TYPES.append(tuple(typeof(a) for a in _sample_args()))
    return _DRIVER_TYPES[0]


def _roots(decide: bool = True):
    """The kernels that a run loads, as (kernel, argument types, what it is): the roots
    of the engine. None of them compiles another: each calls the others by address
    (the engine table, `engine_table`), so each is compiled once, on its own, and they
    can be compiled side by side (`_side_by_side`). `play_on` plays the turns, `decide`
    asks a seat's strategy (every built-in under it; with decide=False, for random and
    greedy seats only, `no_decide` stands in for it), `play_games_nb` drives a chunk of
    games, `pressure_entry` takes a pressure."""
    from .indirect import DECIDE_ARGS, DECISION_ARGS, STATE_ARGS

    return [(nb.play_on, STATE_ARGS, "the engine"),
            (nb.decide, DECIDE_ARGS, "the engine's decisions") if decide else
            (nb.no_decide, DECIDE_ARGS, "the engine"),
            (nb.play_games_nb, _driver_types(), "the engine's drivers"),
            (nb.pressure_entry, DECISION_ARGS, "the engine's pressures")]


def _kernel_groups(decide: bool = False):
    """The two groups of a cold start's side-by-side compile (`_side_by_side`), as
    (kernel, argument types): this process's, and the helper process's
    (`_compile_helper`), of `_roots(decide)`. Balanced on CPU seconds measured one by
    one in a fresh process (load 3-4): `play_on` 7.7 here; the drivers 5.2, then
    `pressure_entry` 0.3 and `no_decide` in the helper, which also starts Python and
    numba anew; with `decide` (4.9), it goes to the helper and the pressures come here."""
    play_on, deciding, drivers, pressure = ((k, sig) for k, sig, _ in _roots(decide))
    if decide:
        return [play_on, pressure], [deciding, drivers]
    return [play_on], [drivers, pressure, deciding]


def _compile_helper(decide: bool = False) -> None:
    """The helper process of a cold start (`_side_by_side`): compile its group into the
    cache."""
    _main, helper = _kernel_groups(decide)
    for kernel, sig in helper:
        kernel.compile(sig)


def _side_by_side(decide: bool) -> float:
    """A cold start on two cores or more: compile the engine's roots in this process and
    in a helper process side by side, into the one cache (`_kernel_groups(decide)`). Says so on
    stderr (one line, `_say`), as `_load_or_compile` does. Returns the seconds spent; 0.0 on one
    core (`_load_or_compile` compiles it all then)."""
    import subprocess
    import sys
    import time

    from ..data.machine import available_cpus

    if available_cpus() < 2:
        return 0.0
    t0 = time.perf_counter()
    _say("compiling the engine (first run on this machine, on 2 cores; `crates compile` "
         "does it all once)")
    helper = subprocess.Popen(
        [sys.executable, "-c",
         f"from crates_sim.engine.api import _compile_helper; _compile_helper({decide})"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        main, _helper = _kernel_groups(decide)
        for kernel, sig in main:
            kernel.compile(sig)
        helper.wait()  # its kernels are in the cache now (what it failed to, prepare compiles)
    finally:
        if helper.poll() is None:
            helper.kill()
            helper.wait()
        seconds = time.perf_counter() - t0
    return seconds


def prepare(specs=(), load: bool = True) -> float:
    """Load the engine (and the adapters of `specs`' strategies that are not compiled into
    it: pimc, users' functions) into this process, compiling what numba's cache lacks.

    A run calls it once in the parent before any worker starts, so that workers load the
    engine from the cache instead of compiling it side by side; with load=False a warm
    cache is only checked, not loaded (the parent of workers stays small). Returns the
    seconds spent compiling."""
    # play_on's argument types are indirect.STATE_ARGS: (int64[::1],)
    from ..userstrat import python_specs

    agents = python_specs(specs)  # Python agents need no compile (crates_sim.play.pyagent)
    if agents:
        specs = [s for s in specs if s not in agents]
    seconds = 0.0
    decide = needs_decide(specs)  # random and greedy seats only: no `decide` (engine_table)
    roots = _roots(decide)
    if not _ready(nb.play_on, roots[0][1]):  # a cold start: the roots side by side
        seconds += _side_by_side(decide)
    for kernel, sig, what in roots:
        seconds += _load_or_compile(kernel, sig, what, load)
    from ..strategy import EXTERNAL, adapter_of

    specs = lineup(specs)  # parsed once (a Lineup from parse_strategies is not parsed again)
    wanted = {}  # (module, function) -> the strategy named while compiling it
    for name, values in specs.parsed:
        if isinstance(name, str) and name in EXTERNAL:
            where = adapter_of(name, values)
            wanted.setdefault(where, name if where == EXTERNAL[name] else f"{name} ({where[1]})")
    import importlib

    for (module, func), what in wanted.items():
        adapter = getattr(importlib.import_module(module), func)
        # the adapter signature, indirect.DECISION_ARGS: (int64[::1], int64, int64)
        seconds += _load_or_compile(adapter, (np.zeros(1, dtype=np.int64), 0, 0), what, load)
    try:
        addresses(specs)  # users' functions: compiled here, so errors come once
    except NumbaError as exc:
        raise _compile_error(list(specs), exc) from None
    return seconds


def _call_kernel(rules, specs, seed, game_start, n_games, want_rows, log=None,
                 reuse_rows=False):
    """Run the kernel until all n_games are played; returns the raw arrays (the hand
    rows in this thread's reused buffer with `reuse_rows`: see `run_games`)."""
    from ..userstrat import python_specs

    agents = python_specs(specs)
    if agents:  # they play on the step engine: crates_sim.play.pyagent_run
        raise CratesError(f"{', '.join(agents)}: Python agents play in trace, simulate, compare, "
                          f"balance, tournament and play, not here (an @njit function plays everywhere)")
    R = rules.to_array()
    specs = lineup(specs)
    ids, params = resolve(specs)
    prepare(specs)  # a cold cache: compiles, and says so on stderr
    decide = needs_decide(specs)
    addrs = addresses(specs)
    n = rules.players
    games_out = new_game_rows(n_games * n)
    win_out = np.zeros(n_games * n, dtype=np.float64)
    stats = np.zeros(nb.N_STATS, dtype=np.int64)
    err = np.full(nb.N_ERR, -1, dtype=np.int64)
    log_on = 0 if log is None else 1
    if log is None:
        log = np.zeros(1, dtype=np.int64)
    parts = []
    done = 0
    seed = int(seed) % (1 << 64)
    while done < n_games:
        left = n_games - done
        cap = max(left * _rows_per_game(rules), rules.knobs.get("max_hands", 15) * n) if want_rows else 0
        rows = _rows_room(cap, reuse_rows and not parts)  # (parts must not share one)
        args = _kernel_args(R, ids, params, addrs, seed, game_start + done, left, want_rows,
                            tuple(c[done * n:] for c in games_out), win_out[done * n:], rows,
                            log, log_on,
                            stats, err, decide=decide)
        try:
            played = nb.play_games_nb(*args)
        except NumbaError as exc:
            raise _compile_error(specs, exc) from None
        except (ArithmeticError, AssertionError, LookupError, RuntimeError,
                ValueError) as exc:  # raised in a user's decision function
            raise _raised(specs, seed, game_start + done, left, exc) from None
        if err[nb.ERR_SEAT] >= 0:
            raise _illegal(rules, specs, seed, err)
        if want_rows:  # the kernel fills rows from the first on: the used ones are a prefix
            used = int(np.count_nonzero(rows[nb.H_SIZE]))
            parts.append(tuple(column[:used] for column in rows))
        done += played
    hand_rows = None
    if want_rows:
        hand_rows = parts[0] if len(parts) == 1 else tuple(np.concatenate(c) for c in zip(*parts, strict=True))
    return games_out, win_out, hand_rows, stats


def run_games(rules, strategies, seed, game_start, n_games, detail="hands",
              reuse_rows=False, play=None) -> ChunkResult:
    """Play games [game_start, game_start + n_games) of `seed`; one kernel call per chunk.

    reuse_rows: write the hand rows into a buffer this thread reuses from call to call
    (no new memory per chunk): the result's `hands` are then valid only until this
    thread's next such call (`runner.run_chunk` has written them out by then).
    play: what plays the games instead of the kernel, with `_call_kernel`'s arguments and
    results (`pyagent_run.play_tables`: Python agents on the step engine)."""
    want_rows = detail == "hands"
    games_out, win_out, hand_rows, stats = (play or _call_kernel)(
        rules, strategies, seed, game_start, n_games, want_rows, reuse_rows=reuse_rows)
    n = rules.players
    game_idx = np.repeat(np.arange(game_start, game_start + n_games, dtype=np.int64), n)
    seats = np.tile(np.arange(n, dtype=np.int8), n_games)
    teams = (seats % 2 if rules.partnerships else seats).astype(np.int8)
    games = {
        "game": game_idx,
        "seat": seats,
        "strategy": np.array([strategies[s] for s in range(n)], dtype=object)[seats],
        "team": teams,
        "win": win_out.astype(GAME_COLUMNS["win"]),
        # the kernel's columns, in their dtypes already
        **dict(zip(GAME_FIELD_COLUMNS, games_out, strict=True)),
    }
    games = {name: games[name] for name in GAME_COLUMNS}  # the schema's order
    hands = None
    if want_rows:
        # the columns as the kernel wrote them, in their dtypes ('reason': its code)
        hands = dict(zip(HAND_COLUMNS, hand_rows, strict=True))
    return ChunkResult(games, hands, turns=int(stats[nb.T_TURNS]),
                       capped_hands=int(stats[nb.T_CAPPED]), dead_hands=int(stats[nb.T_DEAD]))


# ---------------------------------------------------------------- the game log
def _cards(values) -> list[str]:
    return [C.card_name(int(c)) for c in values]


def decode_log(buf, rules, specs, seed, game) -> list[dict]:
    """Turn the kernel's integer log records into the events of docs/log-format.md."""
    n = rules.players
    events = [{"ev": "game", "preset": rules.preset_name, "rules": rules.to_dict(),
               "players": n, "seed": int(seed), "game": int(game), "strategies": list(specs)}]
    pos = 0
    while pos < len(buf):
        ev, k = int(buf[pos]), int(buf[pos + 1])
        f = buf[pos + 2:pos + 2 + k]
        pos += 2 + k
        if ev == C.EV_DEAL:
            hand, dealer, size, up, players, m = (int(x) for x in f[:6])
            cards = f[6:6 + players * size]
            events.append({"ev": "deal", "hand": hand, "dealer": dealer, "size": size,
                           "hands": [_cards(cards[q * size:(q + 1) * size]) for q in range(players)],
                           "upcard": C.card_name(up), "stock": _cards(f[6 + players * size:])})
        elif ev == C.EV_CALL:
            events.append({"ev": "call", "seat": int(f[0]), "suit": C.SUITS[int(f[1])]})
        elif ev == C.EV_PLAY:
            events.append({"ev": "play", "seat": int(f[0]), "card": C.card_name(int(f[1])),
                           "suit": C.SUITS[int(f[2])] if f[2] >= 0 else None,
                           "announce": bool(f[3])})
        elif ev == C.EV_DRAW:
            events.append({"ev": "draw", "seat": int(f[0]), "card": C.card_name(int(f[1])),
                           "why": C.WHY[int(f[2])]})
        elif ev == C.EV_PRESSURE:
            e = {"ev": "pressure", "seat": int(f[0]), "points": int(f[1])}
            if f[2] >= 0:
                e["stock"] = _cards(f[3:3 + int(f[2])])
            events.append(e)
        elif ev == C.EV_PASS:
            events.append({"ev": "pass", "seat": int(f[0])})
        elif ev == C.EV_HAND_END:
            events.append({"ev": "hand_end", "hand": int(f[0]), "reason": REASONS[int(f[1])],
                           "out": int(f[2]) if f[2] >= 0 else None,
                           "points": [int(x) for x in f[3:3 + n]],
                           "totals": [int(x) for x in f[3 + n:3 + 2 * n]]})
        elif ev == C.EV_GAME_END:
            w = int(f[n])
            events.append({"ev": "game_end", "totals": [int(x) for x in f[:n]],
                           "winners": [int(x) for x in f[n + 1:n + 1 + w]]})
        else:  # pragma: no cover - a kernel bug
            raise RuntimeError(f"unknown log record {ev}")
    return events


def trace_game(rules, strategies, seed, game, play=None) -> list[dict]:
    """Play game `game` of `seed` with the event log on; returns its events (docs/log-format.md).

    The same kernel as `run_games` plays it, so the log is evidence about the fast path
    (`play`: as in `run_games`)."""
    cap = 1 << 18
    while True:
        log = np.zeros(cap, dtype=np.int64)  # pressure points reach 5 * 2**k
        _, _, _, stats = (play or _call_kernel)(rules, strategies, seed, game, 1, False, log=log)
        if stats[nb.T_LOG_OVERFLOW] == 0:
            break
        cap *= 4
    events = decode_log(log[:int(stats[nb.T_LOG_WORDS])], rules, strategies, seed, game)
    return events
