"""The one bounded cache of the toolkit: a dict that forgets everything when it is full.

Models keep the ids of each piece, pipelines the tokens of each raw piece, pre-tokenizers their
respellings. Real text repeats a few thousand words, so a full cache is simply cleared: no eviction
bookkeeping on the hot path (a hit is one C-level ``dict.get``), memory bounded by ``capacity``
entries. Each dict operation is atomic in CPython, so a cache may be shared between threads; a cache
is never pickled or copied with its entries (it pickles and copies as empty: a spawned worker starts
cold, a forked one inherits the parent's). A cache of text pieces
keeps only keys up to ``longest`` characters: a long text is rarely repeated, and keeping it whole
would bound the entries but not the memory.

>>> cache = BoundedCache(2)
>>> cache.put("a", 1), cache.put("b", 2), cache.get("a")
(1, 2, 1)
>>> cache.put("c", 3), len(cache)   # full: cleared first
(3, 1)
>>> pieces = BoundedCache(10, longest=3)
>>> pieces.put("long", 4), "long" in pieces
(4, False)
"""

from __future__ import annotations

from typing import Any, TypeVar

__all__ = ["BoundedCache", "DEFAULT_CAPACITY", "MAX_CACHED_PIECE"]

#: Entries kept by default before a cache is cleared.
DEFAULT_CAPACITY = 100_000

#: The longest piece (in characters) the piece caches of models and pipelines keep.
MAX_CACHED_PIECE = 256

V = TypeVar("V")


class BoundedCache(dict):  # type: ignore[type-arg]
    """``dict`` with :meth:`put`, which clears the cache first when it holds ``capacity`` entries and
    skips keys longer than ``longest`` (``None``: any length)."""

    __slots__ = ("capacity", "longest")

    def __init__(self, capacity: int = DEFAULT_CAPACITY, *, longest: int | None = None) -> None:
        super().__init__()
        self.capacity = capacity
        self.longest = longest

    def put(self, key: Any, value: V) -> V:
        """Store ``value`` under ``key`` (clearing a full cache first); return ``value``.

        A cache of capacity 0 stores nothing (the caches of a model that samples its encodings).
        """
        if self.longest is not None and len(key) > self.longest:
            return value
        if len(self) >= self.capacity:
            if self.capacity <= 0:
                return value
            self.clear()
        self[key] = value
        return value

    def __reduce__(self) -> tuple[Any, ...]:
        return (_empty, (type(self), self.capacity, self.longest))  # pickles empty: a spawned worker starts cold

    def __copy__(self) -> BoundedCache:
        return type(self)(self.capacity, longest=self.longest)

    def __deepcopy__(self, memo: dict[int, Any]) -> BoundedCache:
        return type(self)(self.capacity, longest=self.longest)

    def __repr__(self) -> str:
        return f"BoundedCache({len(self)}/{self.capacity})"


def _empty(kind: type[BoundedCache], capacity: int, longest: int | None) -> BoundedCache:
    """An empty cache like the one pickled (``longest`` is keyword-only)."""
    return kind(capacity, longest=longest)
