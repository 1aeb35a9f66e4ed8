"""Process-level helpers shared by the hot loops of training and batch encoding.

>>> with gc_paused():
...     data = [[i] for i in range(3)]
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["gc_paused"]


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for the duration of the block.

    Training and batch encoding allocate hundreds of thousands of small containers that hold no
    cycles (word splits, pair sets, Encoding lists); the collector would rescan them again and again
    for nothing (measured: docs/benchmarks.md, "Design measurements"). The previous state is
    restored, so a caller that had the collector disabled keeps it disabled.

    On the way out, everything allocated meanwhile is moved to the oldest generation
    (``gc.freeze()`` then ``gc.unfreeze()``, which only splices lists). Left in the youngest one, the
    first collection after the block would scan every one of those objects at once, then the middle
    generation scan them again; in the oldest they wait for the next full collection like any
    long-lived data, and most are freed by reference counting before it comes. Cyclic garbage made
    meanwhile is collected then too, just not sooner.
    The move is skipped when the program keeps objects frozen on purpose (``gc.freeze()`` before
    forking workers), since ``gc.unfreeze()`` would release them.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            if gc.get_freeze_count() == 0:
                gc.freeze()
                gc.unfreeze()
            gc.enable()
