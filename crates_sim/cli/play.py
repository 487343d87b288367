"""`crates play`: a game at the terminal against the bots, on the step API.

Contract: one person plays one seat; the bots play the others inside the engine
(`crates_sim.play.step.Table`), so the game is game --game of --seed exactly as `crates trace`
would play it with the same decisions. Input is one line per decision: a number from the
list of legal moves, `y`/`n` for a last-card announcement, `h` for the hint, `q` to quit.
"""

from __future__ import annotations

import json
import sys

import click
from rich.console import Console
from rich.table import Table as RichTable

from .. import cards as C
from ..errors import CratesError
from ..play.replay import SUIT_NAMES
from ..strategy import parse_strategies
from .options import OutPath, rules_options, seed_option, write_text

PHASE_TEXT = {C.PH_PLAY: "your turn", C.PH_COUNT: "a count is coming at you",
              C.PH_AGAIN: "you played a 6: play again", C.PH_CALL: "call a suit",
              C.PH_BLIND_CALL: "you deal: call the upcard's suit", C.PH_ANNOUNCE: "last card!"}


#: the decisions that start a turn of yours (the move list shows every move since the last)
TURN_STARTS = (C.PH_PLAY, C.PH_COUNT, C.PH_BLIND_CALL)


def _card(c: int) -> str:
    return C.card_name(int(c))


def _option_text(phase: int, option: int) -> str:
    if phase in (C.PH_CALL, C.PH_BLIND_CALL):
        return f"call {SUIT_NAMES[C.SUITS[option]]}"
    if phase == C.PH_ANNOUNCE:
        return "announce" if option else "stay silent"
    if option == C.ACTION_DRAW:
        return "draw" if phase != C.PH_COUNT else "take the count"
    if option == C.ACTION_PASS:
        return "pass"
    return _card(option)


class Game:
    """The terminal game: draws the table, reads one decision at a time."""

    def __init__(self, table, seat: int, names, hint: str | None, console: Console, ask):
        self.table = table
        self.seat = seat
        self.names = names
        self.hint_spec = hint
        self.console = console
        self.ask = ask
        self.mark = 1  # the events before your last turn (the game's header: 1)
        self.turn_before = 1  # ... and before the turn before it
        self.hands_shown = 0
        self.unit_shown = False  # the hint values' unit is said once

    def recent_plays(self) -> list[str]:
        """Every move since your last turn began (yours from then on too), in the words of
        `crates replay` (`replay.move_text`); a new deal is a line of its own. Within a
        turn (a call, an announcement, a play after a 6) the list goes on from the turn's
        first decision. A move whose suit call or announcement is waiting for you shows
        only what is decided."""
        from ..play.replay import move_text

        events = self.table.events(self.names)
        lines = []
        for ev in events[self.list_start():]:
            if ev["ev"] == "deal":
                lines.append(f"hand {ev['hand']} dealt by seat {ev['dealer']}, upcard {ev['upcard']}")
                continue
            text = move_text(ev, self._who(ev["seat"])) if "seat" in ev else None
            if text:
                lines.append(text)
        moving = self.table.move_in_progress(self.names)
        if moving is not None:
            text = move_text(moving, self._who(moving["seat"]))
            lines.append(text + (": now call its suit" if moving["suit"] is None else ""))
        return lines

    def list_start(self) -> int:
        """The first event of the move list (`recent_plays`)."""
        mid_turn = self.table.pending is not None and self.table.pending.phase not in TURN_STARTS
        return max(self.turn_before if mid_turn else self.mark, 1)

    def _who(self, seat: int) -> str:
        return "you" if seat == self.seat else f"{self.names[seat]} (seat {seat})"

    def show(self):
        d = self.table.pending
        obs = d.obs
        n = self.table.rules.players
        c = self.console
        c.rule(f"hand {self.table.hand} · seat {self.seat} · {PHASE_TEXT[d.phase]}")
        top = _card(obs[C.O_TOP]) if obs[C.O_TOP] >= 0 else "-"
        suit = C.SUITS[obs[C.O_SUIT]] if 0 <= obs[C.O_SUIT] < 4 else "-"
        line = f"top card [bold]{top}[/bold], suit to follow [bold]{SUIT_NAMES.get(suit, '-')}[/bold]"
        if obs[C.O_COUNT] > 0:
            line += f", count in progress: [bold red]{int(obs[C.O_COUNT])}[/bold red]"
        c.print(line)
        seats = RichTable(show_header=True, header_style="bold")
        for col in ("seat", "player", "cards", "total", "pressures"):
            seats.add_column(col)
        for q in range(n):
            b = C.O_SEATS + q * C.O_PER_SEAT
            who = "you" if q == self.seat else self.names[q]
            seats.add_row(str(q), who, str(int(obs[b + C.OS_HAND_N])), str(int(obs[b + C.OS_TOTAL])),
                          str(int(obs[b + C.OS_PRESSURES])))
        c.print(seats)
        recent = self.recent_plays()
        if recent:
            c.print("since your last turn:")
        for text in recent:
            c.print(f"  {text}")
        hand = sorted(d.hand.tolist(), key=lambda x: (x // 4, x % 4))
        c.print("your hand: " + (" ".join(_card(x) for x in hand) if hand else "(not seen yet)"))

    def decide(self) -> bool:
        """Show the table and read one decision; False when the player quits."""
        d = self.table.pending
        self.show()
        if d.phase == C.PH_ANNOUNCE:
            prompt = "announce your last card? [y/n, h hint, q quit] "
        else:
            for i, o in enumerate(d.options, 1):
                self.console.print(f"  {i}. {_option_text(d.phase, o)}")
            prompt = f"your move [1-{len(d.options)}, h hint, q quit] "
        if self.hint_spec:
            self.console.print(f"  hint ({self.hint_spec}): "
                               f"{_option_text(d.phase, self.table.hint(self.hint_spec))}")
            values = self.table.hint_values(self.hint_spec)
            if values:  # why: the search's value of each move (step.value_unit says in what)
                from ..play.step import value_unit

                ranked = sorted(values.items(), key=lambda kv: -kv[1])
                unit = "(unit as above)" if self.unit_shown else \
                    f"in {value_unit(self.hint_spec, self.table.rules.family)}"
                self.unit_shown = True
                self.console.print(f"    value of each move, {unit}: " + ", ".join(
                    f"{_option_text(d.phase, o)} {v:+.1f}" for o, v in ranked))
        while True:
            raw = self.ask(prompt)
            if raw is None:
                return False
            key = raw.strip().lower()
            if key in ("q", "quit"):
                return False
            if key == "h":
                spec = self.hint_spec or "greedy"
                self.console.print(f"  {spec} would: {_option_text(d.phase, self.table.hint(spec))}")
                continue
            if d.phase == C.PH_ANNOUNCE and key in ("y", "n"):
                self._act(1 if key == "y" else 0)
                return True
            if key.isdigit() and 1 <= int(key) <= len(d.options) and d.phase != C.PH_ANNOUNCE:
                self._act(d.options[int(key) - 1])
                return True
            self.console.print("  [yellow]not a move:[/yellow] type a number from the list"
                               + (", y or n" if d.phase == C.PH_ANNOUNCE else "")
                               + ", h for a hint or q to quit")

    def _act(self, option: int) -> None:
        """Answer the pending decision; at a turn's first decision the move list starts
        again from here (a call, an announcement or a play after a 6 are the same turn)."""
        if self.table.pending.phase in TURN_STARTS:
            self.turn_before, self.mark = self.mark, len(self.table.events(self.names))
        self.table.act(option)

    def show_scores(self):
        """Scoring of every hand finished since the last call, with 3-covering."""
        from ..play.replay import follow_hands, scoring_text

        events = self.table.events(self.names)
        R = self.table.rules.to_array()
        crates = self.table.rules.family == "crates"
        held, ended = [], []
        for ev in events[1:]:
            held = follow_hands(held, ev)
            if ev["ev"] == "hand_end":
                ended.append((ev, [list(h) for h in held]))
        for ev, cards in ended[self.hands_shown:]:
            self.console.rule(f"hand {ev['hand']} ends: {ev['reason']}")
            for q, pts in enumerate(ev["points"]):
                how = scoring_text(cards[q], R) if crates else " ".join(cards[q]) or "-"
                who = "you" if q == self.seat else self.names[q]
                self.console.print(f"  seat {q} ({who}): {pts:+d}   {how}")
            self.console.print("  totals: " + "  ".join(f"seat {q} {t}" for q, t in enumerate(ev["totals"])))
        self.hands_shown = len(ended)

    def run(self) -> bool:
        """Play to the end (True) or until the player quits (False)."""
        while self.table.pending is not None:
            self.show_scores()
            if not self.decide():
                return False
        self.show_scores()
        t = self.table
        self.console.rule("game over")
        for q, total in enumerate(t.totals):
            who = "you" if q == self.seat else self.names[q]
            self.console.print(f"  seat {q} ({who}): {total}" + ("  ← winner" if q in t.winners else ""))
        self.console.print("[bold green]you win![/bold green]" if self.seat in t.winners
                           else "the bots win this one")
        return True


@click.command()
@rules_options
@click.option("--seat", default=0, show_default=True, type=int, help="Your seat.")
@click.option("--opponents", "-s", default="greedy", show_default=True, metavar="A,B,...",
              help="The other seats' strategies, in seat order (or one for all).")
@seed_option(help="Seed: the deals are those of `crates trace --seed S --game G`")
@click.option("--game", default=0, show_default=True, type=click.IntRange(0, None),
              help="Game index within the seed.")
@click.option("--hint", "hint", default=None, metavar="STRATEGY",
              help="Show what this strategy would play at every decision (h asks any time).")
@click.option("--save", type=OutPath(dir_okay=False), default=None,
              help="Write the game (finished or not) as a JSON Lines log `crates replay` reads.")
def play(rules, seat, opponents, seed, game, hint, save):
    """Play a game at the terminal against the bots.

    \b
    Examples:
      crates play
      crates play --preset classic --players 4 --seat 0 --opponents greedy,pimc,greedy --seed 7
      crates play -p crazy-eights -n 3 --opponents aggressive --hint pimc --save game.jsonl
      crates play --opponents expert --hint expert:samples=60

    \b
    Each decision shows your hand (sorted), the top card and the suit to follow, any count
    in progress, every seat's cards, total and pressures, every move since your last turn
    (a suit call only once made), and your legal moves, numbered: type a number (y/n to
    announce a last card), h for a hint, q to quit. Each hand's scoring is shown with its
    3-covering.
    """
    from ..play.step import Table

    n = rules.players
    if not 0 <= seat < n:
        raise CratesError(f"--seat must be 0..{n - 1} for {n} players")
    others = [s.strip() for s in opponents.split(",") if s.strip()]
    if len(others) == 1:
        others = others * (n - 1)
    if len(others) != n - 1:
        raise CratesError(f"--opponents: give {n - 1} strategies (one per other seat) or one")
    others = parse_strategies(others, n - 1)
    if hint:
        parse_strategies([hint], 1)
    seats = others[:seat] + [None] + others[seat:]
    names = [s if s is not None else "you" for s in seats]
    console = Console(highlight=False)

    def ask(prompt):
        try:
            return console.input(prompt, markup=False)
        except (EOFError, KeyboardInterrupt):
            return None

    table = Table(rules, seats, seed, game, record=True)
    done = Game(table, seat, names, hint, console, ask).run()
    if save:
        events = table.events(names)
        if not done:  # `crates replay` reads it up to where it stopped (docs/log-format.md)
            events[0] = {**events[0], "unfinished": True}
        write_text(save, "\n".join(json.dumps(e, separators=(",", ":")) for e in events) + "\n")
        console.print(f"saved {len(events)} events to {save}"
                      + ("" if done else " (unfinished: `crates replay` shows it up to here)"))
    if not done:
        console.print("bye")
        sys.exit(0)
