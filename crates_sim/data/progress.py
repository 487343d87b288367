"""A one-line progress bar on stderr: games done, games/s, ETA."""

from __future__ import annotations

import sys
import time


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class Progress:
    """`update(n)` after n more games; `close()` ends the line. Draws nothing if disabled.

    The rate counts only the games run by this process since it started (games already
    done by an earlier, resumed run are shown as done but not in the rate).
    """

    width = 24

    def __init__(self, total: int, done: int = 0, enabled: bool = True, stream=None,
                 note: str = ""):
        """note: shown after the bar until the first games are done (what is under way)."""
        self.total = total
        self.note = note
        self.done = done
        self.start_done = done
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self.t0 = time.perf_counter()
        self.last = 0.0
        self.drawn = False
        self.drawn_chars = 0
        if self.enabled:
            self._draw()

    def update(self, n: int) -> None:
        self.done += n
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self.last >= 0.1 or self.done >= self.total:
            self._draw()

    def _draw(self) -> None:
        self.last = now = time.perf_counter()
        elapsed = now - self.t0
        frac = self.done / self.total if self.total else 1.0
        fill = int(self.width * frac)
        ran = self.done - self.start_done
        rate = ran / elapsed if elapsed > 0 and ran else 0.0
        eta = _clock((self.total - self.done) / rate) if rate else "?"
        line = (f"\r[{'#' * fill}{'.' * (self.width - fill)}] {frac:4.0%} "
                f"{self.done:,}/{self.total:,} games  {rate:,.0f} games/s  ETA {eta} "
                + (f" {self.note} " if self.note and not ran else ""))
        self.stream.write(line.ljust(self.drawn_chars))  # blank what a longer line left
        self.drawn_chars = len(line)
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        if self.enabled and self.drawn:
            self._draw()
            self.stream.write("\n")
            self.stream.flush()
            self.enabled = False
