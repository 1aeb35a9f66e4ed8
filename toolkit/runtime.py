"""Process-level helpers shared by the hot loops of training and batch encoding.

>>> with gc_paused():
...     data = [[i] for i in range(3)]
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache

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
    forking workers), since ``gc.unfreeze()`` would release them; objects the interpreter itself keeps
    frozen (Python 3.12, :func:`_interpreter_frozen`) do not count.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            frozen = gc.get_freeze_count()
            if frozen == 0 or frozen <= _interpreter_frozen():
                gc.freeze()
                gc.unfreeze()
            gc.enable()


@cache
def _interpreter_frozen() -> int:
    """The most objects the interpreter itself can hold in the permanent generation: Python 3.12's
    collector moves every immortal object it meets there (its reference count says nothing), which are
    the ``__mro__`` and ``__bases__`` tuples of the built-in types (375 on 3.12.1, from start-up on), so
    there ``gc.get_freeze_count()`` is never 0. Released by ``gc.unfreeze()``, they go back at the next
    full collection. 3.11 and 3.13 keep none there: 0. Counted once, by walking the types (milliseconds)."""
    if sys.version_info[:2] != (3, 12):
        return 0
    seen: set[int] = set()
    immortal: set[int] = set()
    stack: list[type] = [object]
    while stack:
        kind = stack.pop()
        if id(kind) in seen:
            continue
        seen.add(id(kind))
        stack.extend(type.__subclasses__(kind))
        for parts in (kind.__mro__, kind.__bases__):
            if gc.is_tracked(parts) and sys.getrefcount(parts) >= 1 << 31:  # immortal: 2**32 - 1 on 3.12
                immortal.add(id(parts))
    return len(immortal)
