"""The BPE encoding core shared by :mod:`algorithms.bpe` and :mod:`algorithms.byte_level_bpe`.

Both models reduce encoding one piece to the same problem: a list of symbol ids, a table
``pair_rank[(left_id, right_id)] -> rank`` and a list ``rank_id[rank] -> merged_id``. Repeatedly merge
the adjacent pair with the lowest rank (the leftmost one when several pairs have that rank) until no
adjacent pair is in the table. This is Hugging Face ``models.BPE`` semantics when the table comes from
a merge list, and tiktoken semantics when it comes from ranks (the rank of a pair is the rank of the
concatenated token, see :func:`pair_table_from_ranks`).

Two implementations, chosen by length:

* :func:`merge_short` — the common case (words are a few symbols long). Keeps the rank of every
  adjacent pair in a list; ``min``/``list.index`` find the leftmost lowest rank in C, and each merge
  only recomputes the two pairs next to it. O(n²) in the worst case, fastest for small n.
* :func:`merge_long` — pieces longer than :data:`LONG_PIECE_THRESHOLD` symbols (a 1 MB line with no
  spaces, ``"a" * 1_000_000``): a doubly linked list of symbols, a heap of the distinct ranks present
  and a bucket of positions per rank, with lazy invalidation. O(n log n).

Both return exactly the same ids (property-tested in ``tests/test_byte_level_bpe.py``).

>>> pair_rank = {(0, 1): 0, (2, 2): 1}          # a+b -> ab (id 2), ab+ab -> abab (id 3)
>>> rank_id = [2, 3]
>>> merge_ids([0, 1, 0, 1, 0], pair_rank, rank_id)
[3, 0]
>>> merge_long([0, 1, 0, 1, 0], pair_rank, rank_id)[0]
[3, 0]
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping, Sequence
from functools import partial
from heapq import heapify, heappop, heappush
from itertools import islice
from random import Random

__all__ = [
    "INF",
    "LONG_PIECE_THRESHOLD",
    "PairTable",
    "merge_dropout",
    "merge_ids",
    "merge_long",
    "merge_short",
    "merge_with_positions",
    "pair_table_from_ranks",
]

#: Rank of "no merge": larger than any real rank, so ``min`` never prefers it.
INF = 1 << 62

#: Pieces with more symbols than this use :func:`merge_long` (the crossover of the two paths; the
#: measurement is in docs/benchmarks.md, "Design measurements").
LONG_PIECE_THRESHOLD = 20

#: Pieces with more symbols than this link them in arrays in :func:`merge_long` (memory over speed).
_HUGE_PIECE = 1 << 16

#: ``(left_id, right_id) -> rank``. Tuples are the fastest key here: building a 2-tuple of ints and
#: hashing it is cheap in CPython.
PairTable = Mapping[tuple[int, int], int]


def merge_short(syms: list[int], pair_rank: PairTable, rank_id: Sequence[int]) -> list[int]:
    """Merge ``syms`` in place with the list algorithm; returns ``syms``.

    >>> merge_short([0, 1, 1], {(0, 1): 0}, [5])
    [5, 1]
    """
    if len(syms) < 2:
        return syms
    get = pair_rank.get
    # ranks[i] is the rank of the pair (syms[i], syms[i + 1]).
    ranks = [get(p, INF) for p in zip(syms, syms[1:])]
    while ranks:
        r = min(ranks)
        if r == INF:
            break
        i = ranks.index(r)  # leftmost pair with the lowest rank
        new = rank_id[r]
        syms[i] = new
        del syms[i + 1]
        del ranks[i]
        if i:
            ranks[i - 1] = get((syms[i - 1], new), INF)
        if i < len(ranks):
            ranks[i] = get((new, syms[i + 1]), INF)
    return syms


def _merge_short_positions(
    syms: list[int], pos: list[int], pair_rank: PairTable, rank_id: Sequence[int]
) -> tuple[list[int], list[int]]:
    """:func:`merge_short` that also keeps, per surviving symbol, the index of its first initial symbol."""
    if len(syms) < 2:
        return syms, pos
    get = pair_rank.get
    ranks = [get(p, INF) for p in zip(syms, syms[1:])]
    while ranks:
        r = min(ranks)
        if r == INF:
            break
        i = ranks.index(r)
        new = rank_id[r]
        syms[i] = new
        del syms[i + 1]
        del pos[i + 1]
        del ranks[i]
        if i:
            ranks[i - 1] = get((syms[i - 1], new), INF)
        if i < len(ranks):
            ranks[i] = get((new, syms[i + 1]), INF)
    return syms, pos


#: Interrupted buckets :func:`merge_long` tolerates before the heap of :func:`merge_dropout` takes over.
_MAX_INTERRUPTIONS = 32


def merge_long(syms: list[int], pair_rank: PairTable, rank_id: Sequence[int]) -> tuple[list[int], list[int]]:
    """Merge any number of symbols in O(n log n): a doubly linked list, a heap of ranks, and per rank
    a bucket of positions.

    Returns ``(ids, positions)``: the merged ids and, for each, the index in ``syms`` of the first
    initial symbol it covers (``syms`` itself is consumed).

    Why buckets: a heap of one entry per pair (``rank, position``) works, but with a million symbols
    every push and pop walks a million-entry heap. Here the heap only holds the *distinct* ranks
    present; the positions of one rank sit in a list that is sorted once (in C) when that rank's turn
    comes, and processed left to right, which is exactly "lowest rank first, leftmost first".

    Entries are never removed, only skipped when stale: the left symbol was absorbed (``-1``) or the
    pair now starting there has another rank. A merge never creates a pair of its own rank (the new
    pair spells a longer token), so a bucket being processed never grows. A new pair ranked *below*
    the current rank (possible with foreign rank tables) interrupts the bucket: its unprocessed
    positions go back, and the lower rank is handled first; past a few such interruptions (a table
    where most merges make a lower-ranked pair) the (rank, position) heap of :func:`merge_dropout`
    finishes the piece.
    """
    # One function on purpose: this is the hot loop of long pieces, and helper calls per merge cost
    # more than the merge itself.
    n = len(syms)
    if n < 2:
        return syms, list(range(n))
    get = pair_rank.get
    sym = syms
    # A huge piece (a file that is one word) links its symbols in machine integers: far less memory
    # than lists of int objects, for a little more time (measured: docs/benchmarks.md, "Design
    # measurements").
    links = list if n <= _HUGE_PIECE else partial(array, "q")
    nxt = links(range(1, n + 1))
    nxt[-1] = -1
    prv = links(range(-1, n - 1))
    buckets: dict[int, list[int]] = {}
    bget = buckets.get
    for i, r in enumerate(map(get, zip(sym, islice(sym, 1, None)))):
        if r is not None:
            b = bget(r)
            if b is None:
                buckets[r] = [i]
            else:
                b.append(i)
    rank_heap = list(buckets)
    heapify(rank_heap)
    interruptions = 0
    while rank_heap:
        r = heappop(rank_heap)
        positions = buckets.pop(r, None)
        if positions is None:  # pragma: no cover - defensive: each push matches one bucket
            continue
        positions.sort()
        new = rank_id[r]
        lowest = r
        for idx, i in enumerate(positions):
            left = sym[i]
            if left < 0:
                continue  # absorbed into its left neighbour
            j = nxt[i]
            if j < 0 or get((left, sym[j])) != r:
                continue  # stale
            sym[i] = new
            sym[j] = -1
            k = nxt[j]
            nxt[i] = k
            if k >= 0:
                prv[k] = i
                r2 = get((new, sym[k]))
                if r2 is not None:
                    b = bget(r2)
                    if b is None:
                        buckets[r2] = [i]
                        heappush(rank_heap, r2)
                    else:
                        b.append(i)
                    lowest = min(lowest, r2)
            p = prv[i]
            if p >= 0:
                r2 = get((sym[p], new))
                if r2 is not None:
                    b = bget(r2)
                    if b is None:
                        buckets[r2] = [p]
                        heappush(rank_heap, r2)
                    else:
                        b.append(p)
                    lowest = min(lowest, r2)
            if lowest < r:
                interruptions += 1
                if interruptions > _MAX_INTERRUPTIONS:
                    # every merge making a lower-ranked pair (Gemma 3's runs of ▁): putting the rest of
                    # the bucket back and sorting it again at each one is quadratic; the state here is
                    # the rule's own, so the (rank, position) heap goes on from it
                    ids, at = _walk(sym, nxt)
                    ids, kept = merge_dropout(ids, pair_rank, rank_id, 0.0, Random(0))
                    return ids, [at[k] for k in kept]
                rest = positions[idx + 1 :]
                if rest:
                    b = bget(r)
                    if b is None:
                        buckets[r] = rest
                        heappush(rank_heap, r)
                    else:  # pragma: no cover - no pair of rank r is created while r is processed
                        b.extend(rest)
                break
    return _walk(sym, nxt)


def _walk(sym: Sequence[int], nxt: Sequence[int]) -> tuple[list[int], list[int]]:
    """The symbols still linked from index 0, and their indices."""
    ids: list[int] = []
    out: list[int] = []
    i = 0 if sym else -1
    while i >= 0:
        ids.append(sym[i])
        out.append(i)
        i = nxt[i]
    return ids, out


def merge_dropout(
    syms: list[int], pair_rank: PairTable, rank_id: Sequence[int], dropout: float, rng: Random
) -> tuple[list[int], list[int]]:
    """BPE-dropout (Hugging Face's ``merge_all``): ``(ids, positions)`` as :func:`merge_with_positions`.

    The candidate merges wait in a heap ordered by (rank, position); each one popped is skipped with
    probability ``dropout`` and set aside, and the skipped ones return to the heap after the next
    merge that happens. ``dropout=0`` gives the ordinary merge, 1 none at all.

    >>> import random
    >>> merge_dropout([0, 1, 0, 1, 0], {(0, 1): 0, (2, 2): 1}, [2, 3], 0.0, random.Random(0))
    ([3, 0], [0, 4])
    """
    n = len(syms)
    sym = list(syms)
    nxt = [*range(1, n), -1]
    prv = list(range(-1, n - 1))
    alive = [True] * n
    heap = [(r, i) for i in range(n - 1) if (r := pair_rank.get((sym[i], sym[i + 1]))) is not None]
    heapify(heap)
    skipped: list[tuple[int, int]] = []
    draw = rng.random
    while heap:
        top = heappop(heap)
        if draw() < dropout:
            skipped.append(top)
            continue
        for item in skipped:
            heappush(heap, item)
        skipped.clear()
        rank, i = top
        j = nxt[i] if alive[i] else -1
        if j < 0 or pair_rank.get((sym[i], sym[j])) != rank:  # merged away since it was queued
            continue
        sym[i] = rank_id[rank]
        alive[j] = False
        nxt[i] = k = nxt[j]
        if k >= 0:
            prv[k] = i
            if (r := pair_rank.get((sym[i], sym[k]))) is not None:
                heappush(heap, (r, i))
        p = prv[i]
        if p >= 0 and (r := pair_rank.get((sym[p], sym[i]))) is not None:
            heappush(heap, (r, p))
    return _walk(sym, nxt)


def merge_ids(
    syms: list[int], pair_rank: PairTable, rank_id: Sequence[int], *, threshold: int = LONG_PIECE_THRESHOLD,
    dropout: float | None = None, rng: Random | None = None,
) -> list[int]:
    """The merged ids of ``syms`` (consumed), through the path that suits its length (or BPE-dropout)."""
    if dropout and rng is not None:
        return merge_dropout(syms, pair_rank, rank_id, dropout, rng)[0]
    if len(syms) <= threshold:
        return merge_short(syms, pair_rank, rank_id)
    return merge_long(syms, pair_rank, rank_id)[0]


def merge_with_positions(
    syms: list[int], pair_rank: PairTable, rank_id: Sequence[int], *, threshold: int = LONG_PIECE_THRESHOLD,
    dropout: float | None = None, rng: Random | None = None,
) -> tuple[list[int], list[int]]:
    """``(ids, positions)``: merged ids and the index of the first initial symbol of each."""
    if dropout and rng is not None:
        return merge_dropout(syms, pair_rank, rank_id, dropout, rng)
    if len(syms) <= threshold:
        return _merge_short_positions(syms, list(range(len(syms))), pair_rank, rank_id)
    return merge_long(syms, pair_rank, rank_id)


def pair_table_from_ranks(ranks: Mapping[bytes, int]) -> dict[tuple[int, int], int]:
    """The pair table giving tiktoken semantics for ``ranks`` (token bytes → rank = id).

    tiktoken merges the adjacent pair whose *concatenation* has the lowest rank. Every symbol during
    encoding is itself a token, so listing, for every token, each split into two tokens gives an
    equivalent id-pair table (a pair of ids determines its concatenation, so keys never clash).
    The merged id of a pair is the rank of the concatenation, so ``rank_id`` is the identity.

    >>> pair_table_from_ranks({b"a": 0, b"b": 1, b"ab": 2, b"abb": 3})
    {(0, 1): 2, (2, 1): 3}
    """
    table: dict[tuple[int, int], int] = {}
    get = ranks.get
    for token, rank in ranks.items():
        for i in range(1, len(token)):
            left = get(token[:i])
            if left is None:
                continue
            right = get(token[i:])
            if right is not None:
                table[(left, right)] = rank
    return table
