"""Step through a game from Python: the engine plays the bots, and stops at every decision
of an outside agent (a PettingZoo agent, a person at `crates play`).

Contract: `Table(rules, seats, seed, game)` plays game `game` of `seed` with the same
kernels as `crates simulate` and `crates trace`. `seats` holds a strategy spec per seat,
or None for a seat played from outside. `table.pending` is the decision waiting for an
outside seat (None when the game is over); `table.act(option)` answers it with one of
`pending.options` and plays on to the next one. Every decision of every seat is the same
as in `crates trace` with those strategies in the bots' seats: seeds keep their meaning.

How: the engine runs a whole hand inside one call. An outside seat is strategy id AGENT:
when it must decide and no answer is queued, the engine ends the hand early with the
decision recorded. `act` queues the answer and plays the hand again from the start of
the paused turn (`play_on` keeps a copy of the state at every turn's start, S_SNAP0; a
decision before the first turn, at the deal, replays from the hand's start). Every draw
of every stream is the same: the bots decide as before, the queued answers are replayed,
and the engine stops at the next unanswered decision. A replay costs the paused turn's
own decisions, not the hand's.
"""

from __future__ import annotations

import numpy as np

from .. import cards as C
from ..engine import engine_nb as nb
from ..engine.api import engine_table, new_game_rows, new_hand_rows, prepare
from ..errors import CratesError
from ..strategy import addresses, parse_strategies, resolve
from ..strategy_ids import AGENT

#: most decisions of outside seats in one hand (a hand has at most max_turns_per_hand =
#: 10,000 turns, of up to three decisions each: a play, a call, an announcement)
QUEUE_CAP = 1 << 15
#: the game log's room when a table records one (words; a game takes some 30,000)
LOG_CAP = 1 << 21
#: decisions made after the engine began the move they belong to: a wild's suit call (the
#: play, or the upcard's call, is logged after it) and a last-card announcement. At a pause
#: there, the log's last record is that move with a placeholder answer (`events` leaves it
#: out; `move_in_progress` gives it with only what is decided)
LOGGED_AFTER = (C.PH_CALL, C.PH_BLIND_CALL, C.PH_ANNOUNCE)


#: the unit of a searched option's value, as `crates analyse` and `crates play`'s hints
#: both state it (expert's search values, and adept's scores, are in it)
VALUE_UNIT = ("expected points to the end of the hand for the mover's side (Crates: the "
              "opponents' points minus its own; Crazy Eights: the payout won or paid), "
              "higher is better")


def value_unit(spec: str, family: str) -> str:
    """What the values of `Table.hint_values(spec)` are, in words: VALUE_UNIT for expert
    and adept; for pimc, whose Crates rollouts stop after `depth` turns, the points of
    those turns only (not on the same scale)."""
    from ..strategy import BUILTINS, parse_spec

    name, given = parse_spec(spec)
    known = BUILTINS.get(name, (None, None, {}))[2]
    if name == "pimc":
        depth = int(given.get("depth", known["depth"].default))
        if family == "crates" and depth > 0:
            return (f"points over pimc's next {depth} turns only (its rollouts stop there), higher "
                    f"is better: not expected points to the end of the hand as expert and "
                    f"`crates analyse` give them")
        return VALUE_UNIT
    if name == "adept":
        return VALUE_UNIT + ", as adept's network estimates it"
    samples = int(given.get("samples", known["samples"].default)) if "samples" in known else None
    return VALUE_UNIT + (f", from {samples} deals per option (`crates analyse` uses more: its values "
                         f"differ by the noise)" if samples else "")


class Decision:
    """What an outside seat must decide now.

    seat: who; phase: cards.PH_* (what is decided); options: the legal options (cards
    0..51, ACTION_DRAW, ACTION_PASS; suits 0..3 for a call; 0/1 for an announcement);
    obs: the seat's view (`crates_sim.view` reads it); hand: its cards; pile: the pile
    since the last reshuffle, top card last (these three are read when first asked for)."""

    __slots__ = ("seat", "phase", "options", "_core", "_obs", "_hand", "_pile")

    def __init__(self, G):
        self.seat = int(G[nb.S_PAUSE_SEAT])
        self.phase = int(G[nb.S_PAUSE_PHASE])
        n = int(G[nb.S_PAUSE_N])
        self.options = tuple(G[nb.TMP0 + nb.TMP_PAUSE_OPTS:nb.TMP0 + nb.TMP_PAUSE_OPTS + n].tolist())
        self._core = G[:nb.S_LEN].copy()  # the state goes on changing; the decision does not
        self._obs = self._hand = self._pile = None

    @property
    def obs(self) -> np.ndarray:
        if self._obs is None:
            self._obs = self._core[nb.OBS0:nb.OPT0]
        return self._obs

    @property
    def hand(self) -> np.ndarray:
        if self._hand is None:
            at = nb.TMP0 + nb.TMP_PAUSE_HAND
            self._hand = self._core[at:at + int(self.obs[C.O_HAND_N])]
        return self._hand

    @property
    def pile(self) -> np.ndarray:
        if self._pile is None:
            at = nb.TMP0 + nb.TMP_PAUSE_PILE
            self._pile = self._core[at:at + int(self._core[nb.S_PAUSE_PILE_N])]
        return self._pile


class Table:
    """One game, stepped decision by decision at the outside seats (see the module doc)."""

    def __init__(self, rules, seats, seed: int, game: int, record: bool = False,
                 keep_rows: bool = False, agents: dict | None = None):
        """keep_rows: keep every hand's dataset rows (`hand_rows`); agents: the Python
        agents (`crates_sim.play.pyagent`) of the seats that name one, to reuse from another
        table (default: made here). Python agents answer their own decisions: `pending`
        is only ever a None seat's."""
        n = rules.players
        if len(seats) != n:
            raise CratesError(f"{len(seats)} seats for {n} players")
        self.rules = rules
        self.seed = int(seed)
        self.game = int(game)
        from .pyagent import seat_agents

        self.agents = seat_agents(rules, seats) if agents is None else agents
        for agent in self.agents.values():
            agent.decisions = 0
        self.hand_rows = [] if keep_rows else None
        self.outside = [s is None or q in self.agents for q, s in enumerate(seats)]
        bots = [s if not o else "random" for s, o in zip(seats, self.outside, strict=True)]
        bots = parse_strategies(bots, n)
        prepare(bots)
        ids, params = resolve(bots)
        ids[np.array(self.outside, dtype=bool)] = AGENT
        self.specs = [None if s is None else (s if q in self.agents else bots[q])
                      for q, s in enumerate(seats)]
        self._G = nb.new_agent_state(rules.to_array(), ids, params, addresses(bots),
                                     engine_table(), LOG_CAP if record else 0, QUEUE_CAP)
        self._rows = new_hand_rows(n)  # a row per seat
        self._stats = np.zeros(nb.N_STATS, dtype=np.int64)
        self._games = new_game_rows(n)
        self._wins = np.zeros(n)
        self.hand = 0
        self.over = False
        self._pending = None
        self._queue0 = int(self._G[nb.S_QUE0])
        self.hand_points: list[list[int]] = []  # per finished hand, per seat
        self._queued = 0
        nb.start_game(self._G, np.uint64(self.seed), self.game)
        self._G[nb.S_SEED] = np.uint64(self.seed).astype(np.int64)
        self._G[nb.S_GAME] = self.game
        self._start_hand()

    # ------------------------------------------------------------------ reading
    @property
    def totals(self) -> list[int]:
        """Every seat's game total so far (final once the game is over)."""
        n = self.rules.players
        return self._G[nb.SV0 + nb.SV_TOTAL:nb.SV0 + n * nb.NSV:nb.NSV].tolist()

    @property
    def winners(self) -> list[int]:
        """The winning seats, once the game is over."""
        return [q for q in range(self.rules.players) if self._wins[q] > 0]

    @property
    def ranks(self) -> list[int]:
        return [int(r) for r in self._games[nb.G_RANK]]

    @property
    def pending(self) -> Decision | None:
        """The decision waiting for an outside seat; None once the game is over. (Made when
        first asked for: a caller that knows the options, as the environment does from
        its action mask, answers through `answer` without one.)"""
        if self._pending is None and not self.over:
            self._pending = Decision(self._G)
        return self._pending

    @property
    def pending_phase(self) -> int:
        """The phase (cards.PH_*) of the pending decision (-1 once the game is over)."""
        return -1 if self.over else int(self._G[nb.S_PAUSE_PHASE])

    # ------------------------------------------------------------------ playing
    def act(self, option: int) -> None:
        """Answer the pending decision with `option` (one of pending.options) and play on
        to the next decision of an outside seat (or the end of the game)."""
        if self.pending is None:
            raise CratesError("the game is over: there is nothing to decide")
        if int(option) not in self.pending.options:
            raise CratesError(f"{option} is not one of the options {list(self.pending.options)}")
        self.answer(option)

    def answer(self, option: int) -> None:
        """`act` for a caller that has checked `option` is legal: no check, no Decision."""
        if self._queued >= QUEUE_CAP:
            raise CratesError(f"hand {self.hand} of game {self.game} took over {QUEUE_CAP} "
                              f"decisions of outside seats (lower max_turns_per_hand)")
        self._pending = None
        self._G[self._queue0 + self._queued] = option  # the queue is not part of the snapshot
        self._queued += 1
        self._play()

    def _start_hand(self):
        self.hand += 1
        self._G[nb.S_DEAL] = self.hand
        self._new_hand()
        self._play()

    def _new_hand(self):
        """Keep the state the hand starts from (a replay starts there until a turn has
        started: then from the start of the last turn, which `play_on` keeps at S_SNAP0)."""
        G = self._G
        G[nb.S_QUE_POS] = 0  # the queue starts afresh: answers of the last hand are not replayed
        self._hand_start = G[:nb.S_LEN].copy()
        self._queued = 0
        self._snap = G[int(G[nb.S_SNAP0]):int(G[nb.S_SNAP0]) + nb.S_LEN]
        self._snap[nb.S_HAND] = -1  # no turn of this hand kept yet

    def _play(self):
        """Play the current hand on from the start of the last turn (or the deal) with the
        queued answers, to the next unanswered decision or the hand's end (then score
        it, and deal the next)."""
        G = self._G
        while True:
            if self._snap[nb.S_HAND] == -1:
                G[:nb.S_LEN] = self._hand_start
            else:  # replay the paused turn only (its answers are queued from S_QUE_POS)
                G[:nb.S_LEN] = self._snap
            G[nb.S_QUE_LEN] = self._queued
            nb.play_on(G)
            if G[nb.S_ERROR] != 0:  # pragma: no cover - a bot's illegal choice
                raise CratesError(f"seat {int(G[nb.S_ERR_SEAT])} made an illegal choice")
            if G[nb.S_REASON] == C.REASON_PAUSE:
                agent = self.agents.get(int(G[nb.S_PAUSE_SEAT]))
                if agent is None:
                    return
                if self._queued >= QUEUE_CAP:
                    raise CratesError(f"hand {self.hand} of game {self.game} took over {QUEUE_CAP} "
                                      f"decisions of outside seats (lower max_turns_per_hand)")
                G[self._queue0 + self._queued] = agent.decide(self)
                self._queued += 1
                continue
            nb.finish_hand(G, self.game, self._rows, 0, self._stats)
            if self.hand_rows is not None:
                self.hand_rows.append(tuple(c.copy() for c in self._rows))
            self.hand_points.append([int(x) for x in self._rows[nb.H_POINTS]])
            if nb.game_over(G, self.hand):
                nb.finish_game(G, self._games, self._wins, 0)
                self.over = True
                return
            self.hand += 1
            G[nb.S_DEAL] = self.hand
            self._new_hand()

    def events(self, names=None) -> list[dict]:
        """The game so far as the events of `crates trace` (docs/log-format.md), for a
        table made with record=True; `names` label the seats (default: the bots' specs,
        "outside" for the others). Only what has been decided: paused at a suit call or
        a last-card announcement, the move it belongs to is not in yet
        (`move_in_progress`)."""
        return self._logged(names)[0]

    def move_in_progress(self, names=None) -> dict | None:
        """Paused at a suit call or a last-card announcement: the move it belongs to, as
        an event with only what is decided (a play's `suit` None until its call is made,
        `announce` None until announced); None at any other decision."""
        return self._logged(names)[1]

    def _logged(self, names):
        """(the decided events, the move in progress or None)."""
        from ..engine.api import decode_log

        G = self._G
        if G[nb.S_QUE0] == nb.S_LEN:
            raise CratesError("this table records no log: make it with record=True")
        if G[nb.S_LOG_OVERFLOW]:  # pragma: no cover - a game of over a million words
            raise CratesError("the game's log outgrew its room")
        names = names or [s if s is not None else "outside" for s in self.specs]
        words = G[nb.LOG0:nb.LOG0 + int(G[nb.S_LOG_POS])]
        events = decode_log(words, self.rules, names, self.seed, self.game)
        phase = self.pending_phase
        if phase not in LOGGED_AFTER or len(events) < 2:
            return events, None
        last = events[-1]
        if last["ev"] not in ("play", "call") or last.get("seat") != int(G[nb.S_PAUSE_SEAT]):
            return events, None  # pragma: no cover - the engine logs the move before pausing
        undecided = {"suit": None, "announce": None} if phase != C.PH_ANNOUNCE else {"announce": None}
        if last["ev"] == "call":
            return events[:-1], None  # the upcard's call: nothing decided yet
        return events[:-1], {**last, **undecided}

    def paused_copy(self) -> np.ndarray:
        """A copy of the game paused at its decision, without the log (a recording table's
        log is most of its words): what a search of the decision, or a strategy asked about
        it, plays on. The table itself is not changed."""
        return nb.copy_paused(self._G)

    def hint_values(self, spec: str):
        """A search player's mean outcome of each pending option for the seat ({option:
        value}, higher is better), for a pimc or expert `spec` (adept: its network's
        scores, also in points); None for another strategy
        or a decision it does not search (a suit call, an announcement), and for adept
        where it plays unscored (a pressure war or a hoarder's draw: `adept.unscored_choice`)."""
        (spec,) = parse_strategies([spec], 1)
        name = spec.split(":")[0]
        if self.pending is not None and name == "adept":  # its network's scores, in points
            from ..strategies.adept import (
                ADEPT_DRAW,
                ADEPT_NET,
                ADEPT_ROUTE,
                ADEPT_THREE,
                draw_bonus_of,
                option_values,
                unscored_choice,
            )

            d = self.pending
            _ids, (row,) = resolve([spec])
            if d.phase < C.PH_CALL and unscored_choice(
                    row, d.obs, d.hand, np.asarray(d.options, dtype=np.int64)) >= 0:
                return None  # played unscored (the war's card, a hoarder's draw): no scores
            # its scores as it plays them: the draw bonus on a voluntary draw included
            draw = draw_bonus_of(self.rules, row[ADEPT_NET], row[ADEPT_ROUTE], row[ADEPT_DRAW])
            scores = option_values(d.obs, d.hand, d.pile, d.options, row[ADEPT_THREE],
                                    int(row[ADEPT_NET]), row[ADEPT_ROUTE] != 0.0, draw)
            return None if scores is None else dict(zip(d.options, scores.tolist(), strict=True))
        if self.pending is None or name not in ("pimc", "expert"):
            return None
        if name == "pimc":
            from ..strategies.pimc import pimc_explain as explain
        else:
            from ..strategies.expert import expert_explain as explain

        _ids, (row,) = resolve([spec])
        means = np.zeros(len(self.pending.options))
        if not explain(self.paused_copy(), row, means):
            return None
        return dict(zip(self.pending.options, means.tolist(), strict=True))

    def hint(self, spec: str) -> int:
        """The option the strategy `spec` (a built-in or FILE.py:FUNCTION) would choose for
        the pending decision, on the seat's own random stream (the game is not changed)."""
        if self.pending is None:
            raise CratesError("the game is over: there is nothing to decide")
        (spec,) = parse_strategies([spec], 1)
        (sid,), (row,) = resolve([spec])
        addr = int(addresses([spec])[0])
        k = int(nb.ask_strategy(self.paused_copy(), int(sid), row, addr))
        if not 0 <= k < len(self.pending.options):
            raise CratesError(f"strategy {spec!r} made an illegal choice ({k})")
        return self.pending.options[k]


__all__ = ["Table", "Decision"]
