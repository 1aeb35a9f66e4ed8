"""Progress display of the command line: :class:`ProgressBar`, one updating line on stderr.

This module owns how ``progress(stage, done, total)`` callbacks of the trainers and the corpus
counter are drawn, and :func:`progress_bar`, the bar the ``--quiet`` / ``--progress`` options ask for.
"""

from __future__ import annotations

import sys
import time
from typing import IO

__all__ = ["ProgressBar", "progress_bar"]


class ProgressBar:
    """A ``progress(stage, done, total)`` callback that draws one updating line on a stream.

    Drawn only when ``enabled`` (by default: the stream is a terminal). Redraws at most ten times a
    second; a new stage ends the previous line. ``"counting"`` values are bytes.

    >>> import io
    >>> bar = ProgressBar(io.StringIO(), enabled=True)
    >>> bar("merges", 5, 10); bar.close()
    """

    def __init__(self, stream: IO[str] | None = None, *, enabled: bool | None = None, width: int = 30) -> None:
        self.stream = stream if stream is not None else sys.stderr
        if enabled is None:
            enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.enabled = enabled
        self.width = width
        self._stage: str | None = None
        self._started = 0.0
        self._last = 0.0
        self._drawn = False

    def __call__(self, stage: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if stage != self._stage:
            self._finish()
            self._stage, self._started, self._last = stage, now, 0.0
        final = total > 0 and done >= total
        if not final and now - self._last < 0.1:
            return
        self._last = now
        self.stream.write("\r" + self._line(stage, done, total, now - self._started) + "\x1b[K")
        self.stream.flush()
        self._drawn = True

    def _line(self, stage: str, done: int, total: int, elapsed: float) -> str:
        as_bytes = stage == "counting"
        fmt = _mb if as_bytes else (lambda n: f"{n:,}")
        rate = done / elapsed if elapsed > 0 else 0.0
        speed = f"{rate / 1e6:.1f} MB/s" if as_bytes else f"{rate:,.0f}/s"
        if total > 0:
            frac = min(1.0, done / total)
            filled = int(frac * self.width)
            bar = "#" * filled + "." * (self.width - filled)
            eta = (total - done) / rate if rate > 0 and done < total else 0.0
            return f"{stage:<10} [{bar}] {frac:4.0%} {fmt(done)}/{fmt(total)} {speed} ETA {eta:.0f}s"
        return f"{stage:<10} {fmt(done)} {speed} {elapsed:.0f}s"

    def _finish(self) -> None:
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False

    def close(self) -> None:
        """End the current line (call before printing anything else to the stream)."""
        if self.enabled:
            self._finish()


def _mb(n: int) -> str:
    return f"{n / 1e6:.1f} MB"


def progress_bar(*, quiet: bool = False, force: bool = False) -> ProgressBar:
    """The bar on stderr: off with ``--quiet``, on with ``--progress``, else only on a terminal."""
    return ProgressBar(sys.stderr, enabled=False if quiet else (True if force else None))
