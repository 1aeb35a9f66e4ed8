"""Progress of training: the bars, and when trainers show them (``show_progress``, as in HF ``tokenizers``).

This module owns :class:`ProgressBar` (one updating line on a terminal), :class:`NotebookProgress` (an
HTML ``<progress>`` element in Jupyter), :func:`default_display` (which of the two, if any, fits where
the code runs) and :func:`training_progress`, the context every trainer and ``Tokenizer.train`` enter:
it yields the ``progress(stage, done, total)`` callback to call, or ``None``.

The rule: a trainer's own ``progress`` callback, when set, hears everything (and nothing is drawn);
otherwise ``show_progress=True`` (the default) draws a bar when stderr is a terminal, or in a notebook;
``show_progress=False`` is silent. One training run (counting, then merging) shares one display:
a ``training_progress`` entered inside another reuses the outer one.

>>> import io
>>> bar = ProgressBar(io.StringIO(), enabled=True)
>>> bar("merges", 5, 10); bar.close()
"""

from __future__ import annotations

import html
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import IO, Any

__all__ = [
    "NotebookProgress",
    "ProgressBar",
    "ProgressCallback",
    "active_progress",
    "default_display",
    "in_notebook",
    "training_progress",
]

ProgressCallback = Callable[[str, int, int], None]

_REDRAW_SECONDS = 0.1


def _mb(n: int) -> str:
    return f"{n / 1e6:.1f} MB"


def describe(stage: str, done: int, total: int, elapsed: float) -> tuple[float | None, str]:
    """(fraction done or ``None`` when the total is unknown, the text after the bar); counting is in bytes."""
    as_bytes = stage == "counting"
    fmt = _mb if as_bytes else (lambda n: f"{n:,}")
    rate = done / elapsed if elapsed > 0 else 0.0
    speed = f"{rate / 1e6:.1f} MB/s" if as_bytes else f"{rate:,.0f}/s"
    if total > 0:
        frac = min(1.0, done / total)
        eta = (total - done) / rate if rate > 0 and done < total else 0.0
        return frac, f"{frac:4.0%} {fmt(done)}/{fmt(total)} {speed} ETA {eta:.0f}s"
    return None, f"{fmt(done)} {speed} {elapsed:.0f}s"


class ProgressBar:
    """A ``progress(stage, done, total)`` callback that draws one updating line on a stream.

    Drawn only when ``enabled`` (by default: the stream is a terminal). Redraws at most ten times a
    second; a new stage ends the previous line. ``"counting"`` values are bytes.
    """

    def __init__(self, stream: IO[str] | None = None, *, enabled: bool | None = None, width: int = 30) -> None:
        self.stream = stream if stream is not None else sys.stderr
        if enabled is None:
            enabled = _is_terminal(self.stream)
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
        if not final and now - self._last < _REDRAW_SECONDS:
            return
        self._last = now
        self.stream.write("\r" + self._line(stage, done, total, now - self._started) + "\x1b[K")
        self.stream.flush()
        self._drawn = True

    def _line(self, stage: str, done: int, total: int, elapsed: float) -> str:
        frac, text = describe(stage, done, total, elapsed)
        if frac is None:
            return f"{stage:<10} {text}"
        filled = int(frac * self.width)
        return f"{stage:<10} [{'#' * filled}{'.' * (self.width - filled)}] {text}"

    def _finish(self) -> None:
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False

    def close(self) -> None:
        """End the current line (call before printing anything else to the stream)."""
        if self.enabled:
            self._finish()


class NotebookProgress:
    """A ``progress(stage, done, total)`` callback drawing an HTML ``<progress>`` bar in a notebook.

    One output area per stage, updated in place (``display_id``), so a notebook keeps one line per
    stage instead of the hundreds of lines a terminal bar's carriage returns would leave.
    """

    def __init__(self) -> None:
        self._stage: str | None = None
        self._handle: Any = None
        self._started = 0.0
        self._last = 0.0
        self._pending: tuple[str, int, int] | None = None

    def __call__(self, stage: str, done: int, total: int) -> None:
        now = time.monotonic()
        if stage != self._stage:
            self.close()
            self._stage, self._started, self._last, self._handle = stage, now, 0.0, None
        self._pending = (stage, done, total)
        if total > 0 and done >= total or now - self._last >= _REDRAW_SECONDS:
            self._draw(now)

    def _draw(self, now: float) -> None:
        if self._pending is None:
            return
        from IPython.display import HTML, display

        stage, done, total = self._pending
        frac, text = describe(stage, done, total, now - self._started)
        value = f'value="{frac:.4f}"' if frac is not None else ""  # no value: an indeterminate bar
        page = HTML(
            f'<div class="tk-progress"><code>{html.escape(stage)}</code> '
            f'<progress max="1" {value} style="width:40%;vertical-align:middle"></progress> '
            f"<code>{html.escape(text)}</code></div>"
        )
        if self._handle is None:
            self._handle = display(page, display_id=True)
        else:
            self._handle.update(page)
        self._last = now
        self._pending = None

    def close(self) -> None:
        """Draw the last state of the current stage."""
        if self._pending is not None:
            self._draw(time.monotonic())


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):  # no isatty, or a closed stream
        return False


def in_notebook() -> bool:
    """Whether the code runs in a Jupyter kernel (where stderr is not a terminal but a bar is welcome)."""
    ipython = sys.modules.get("IPython")
    if ipython is None:
        return False
    shell = getattr(ipython, "get_ipython", lambda: None)()
    return shell is not None and type(shell).__name__ == "ZMQInteractiveShell"


def default_display() -> ProgressBar | NotebookProgress | None:
    """The bar that fits: in a notebook an HTML bar, on a terminal (stderr) a text bar, else none."""
    if in_notebook():
        return NotebookProgress()
    if sys.stderr is not None and _is_terminal(sys.stderr):
        return ProgressBar(sys.stderr, enabled=True)
    return None


_UNSET: Any = object()
_ACTIVE: ContextVar[Any] = ContextVar("toolkit_training_progress", default=_UNSET)


@contextmanager
def training_progress(trainer: Any) -> Iterator[ProgressCallback | None]:
    """The callback of one training run with ``trainer``: its ``progress``, a bar, or ``None``.

    Nested (``Tokenizer.train`` counts, then calls ``trainer.train``), the inner call reuses the outer
    display, so counting and merging appear in one place. The bar is closed on exit.
    """
    active = _ACTIVE.get()
    if active is not _UNSET:
        yield active
        return
    callback = getattr(trainer, "progress", None)
    owned = None
    if callback is None and getattr(trainer, "show_progress", False):
        owned = default_display()
        callback = owned
    token = _ACTIVE.set(callback)
    try:
        yield callback
    finally:
        _ACTIVE.reset(token)
        if owned is not None:
            owned.close()


def active_progress(trainer: Any) -> ProgressCallback | None:
    """The callback of the training run under way (inside :func:`training_progress`), else ``trainer.progress``."""
    active = _ACTIVE.get()
    return getattr(trainer, "progress", None) if active is _UNSET else active
