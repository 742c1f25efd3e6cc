"""A one-line progress bar on a text stream (stderr by default).

Written here rather than taken from tqdm: Debian's Python for motiond has
no PyPI, and one line with a carriage return is all a terminal needs.
"""
from __future__ import annotations

import sys
import time
from typing import Optional, TextIO


class ProgressBar:
    """``validate  12/20 [############--------]  ok 11  failed 1  3.4/s``

    Redrawn at most every ``min_interval`` seconds (and at the end), so a
    fast stream does not spend its time writing to the terminal.
    """

    def __init__(self, total: int, *, label: str = "validate", stream: Optional[TextIO] = None,
                 width: int = 30, min_interval: float = 0.1) -> None:
        self.total = total
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.min_interval = min_interval
        self.done = 0
        self.ok = 0
        self._started = time.monotonic()
        self._last_draw = 0.0
        self._drawn_done = -1
        self._finished = False

    def update(self, ok: bool) -> None:
        """Counts one answered request."""
        self.done += 1
        self.ok += 1 if ok else 0
        now = time.monotonic()
        if self.done >= self.total or now - self._last_draw >= self.min_interval:
            self._draw(now)

    def line(self, now: Optional[float] = None) -> str:
        """The bar as it would be drawn now."""
        now = time.monotonic() if now is None else now
        filled = self.width if self.total == 0 else self.width * self.done // self.total
        rate = self.done / max(now - self._started, 1e-9)
        return (f"{self.label} {self.done:>{len(str(self.total))}}/{self.total} "
                f"[{'#' * filled}{'-' * (self.width - filled)}]  ok {self.ok}  "
                f"failed {self.done - self.ok}  {rate:.1f}/s")

    def _draw(self, now: float) -> None:
        self._last_draw = now
        self._drawn_done = self.done
        self.stream.write("\r" + self.line(now))
        self.stream.flush()

    def finish(self) -> None:
        """Draws the final state and ends the line (once)."""
        if self._finished:
            return
        self._finished = True
        if self._drawn_done != self.done:
            self._draw(time.monotonic())
        self.stream.write("\n")
        self.stream.flush()
