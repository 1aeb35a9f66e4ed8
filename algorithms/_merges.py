"""The fast BPE merge-learning engine shared by ``BPETrainer`` and ``ByteLevelBPETrainer``.

This module owns one function, :func:`learn_merges`: given the distinct words of a corpus as
sequences of symbol ids and their frequencies, it returns the merges BPE training learns, in order.
It knows nothing about strings, vocabularies or special tokens: the caller maps characters or bytes
to ids and allocates the id (and string) of every merged token through ``merge_symbol``.
:mod:`algorithms.reference` holds the slow oracle it is tested against. The data structures and the
merge rewrite live in :class:`_Splits`, which the WordPiece trainer (:mod:`algorithms._wordpiece_runs`)
reuses with its own choice of the next pair.

Semantics (those of Hugging Face ``tokenizers``' ``BpeTrainer`` and of the Hugging Face course):

* the count of a pair is the sum, over words, of (adjacent occurrences in the word's current split ×
  word frequency); every adjacent position counts, so ``a a a`` holds the pair ``(a, a)`` twice;
* a merge rewrites each word left to right without overlaps: ``a a a`` → ``aa a``;
* each step merges the pair with the highest count; ties go to the smallest ``(left_id, right_id)``
  (``tie_break="ids"``, HF's rule) or to the pair met first when scanning the words in the given
  order, left to right in each current split (``tie_break="first_occurrence"``, the course's rule).

The data structures (words as strings of ``chr(id)``, pair counts, the pair → words index, the lazy
heap of single-int keys) and the update step are described in docs/algorithms.md, "The merge engine".
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Literal

from toolkit.runtime import gc_paused

__all__ = ["learn_merges", "MAX_SYMBOL_ID"]

#: Symbol ids are stored as characters, so they must be valid code points.
MAX_SYMBOL_ID = 0x10FFFF

# Heap keys are single ints, which compare faster than tuples.
# "ids":              -count << 42 | left << 21 | right
# "first_occurrence": -count << 114 | word << 74 | offset << 42 | left << 21 | right
_ID_BITS = 21  # MAX_SYMBOL_ID < 2**21
_ID_MASK = (1 << _ID_BITS) - 1
_PAIR_BITS = 2 * _ID_BITS
_PAIR_MASK = (1 << _PAIR_BITS) - 1
_OFFSET_SHIFT = _PAIR_BITS
_WORD_SHIFT = _OFFSET_SHIFT + 32
_COUNT_SHIFT_FIRST = _WORD_SHIFT + 40

TieBreak = Literal["ids", "first_occurrence"]


def learn_merges(
    words: Sequence[Sequence[int] | str],
    counts: Sequence[int],
    *,
    merge_symbol: Callable[[int, int], int | None],
    max_merges: int,
    min_frequency: int = 0,
    tie_break: TieBreak = "ids",
    progress: Callable[[str, int, int], None] | None = None,
) -> list[tuple[int, int, int]]:
    """Learn BPE merges from word counts; return ``[(left_id, right_id, merged_id), ...]`` in order.

    ``words[i]`` is the initial symbol ids (0..``MAX_SYMBOL_ID``) of the i-th distinct word, or a
    ``str`` of ``chr(id)`` for each, in first-occurrence order (``tie_break="first_occurrence"``
    relies on it), and ``counts[i]`` its frequency (words counted 0 are ignored). The inputs are not
    modified.

    Each step takes the adjacent pair with the highest count and asks ``merge_symbol(left, right)``
    for the id of the merged token. The caller allocates new ids in increasing order (the next free
    id, like HF) and may return the id of an existing token spelled the same way. ``None`` forbids
    the pair (e.g. ``max_token_length``): it is dropped for good and never asked again.

    Training stops after ``max_merges`` merges that created a new token, when the best count is below
    ``min_frequency`` (and 1), or when no pair is left. A merge whose id is not new (not larger than
    every id seen so far) is recorded but does not count toward ``max_merges``: as in HF, the
    vocabulary grows by ``max_merges`` tokens.

    ``progress("merges", done, max_merges)`` is called about every 1% of the merges.

    >>> # The toy corpus of the HF course, with ids b=0 g=1 h=2 n=3 p=4 s=5 u=6:
    >>> ids = {c: i for i, c in enumerate("bghnpsu")}
    >>> words = [[ids[c] for c in w] for w in ("hug", "pug", "pun", "bun", "hugs")]
    >>> next_id = iter(range(7, 100))
    >>> learn_merges(words, [10, 5, 12, 4, 5], merge_symbol=lambda a, b: next(next_id), max_merges=3)
    [(6, 1, 7), (6, 3, 8), (2, 7, 9)]

    That is ``u g → ug`` (count 20), ``u n → un`` (16), ``h ug → hug`` (15).
    """
    if len(words) != len(counts):
        raise ValueError(f"words and counts differ in length ({len(words)} != {len(counts)})")
    if tie_break not in ("ids", "first_occurrence"):
        raise ValueError(f'tie_break must be "ids" or "first_occurrence", got {tie_break!r}')
    if max_merges <= 0:
        return []
    with gc_paused():
        state = _MergeState(words, counts, first_occurrence=tie_break == "first_occurrence")
        return state.run(merge_symbol, max_merges, max(min_frequency, 1), progress)




class _Splits:
    """The current splits of the words, the pair counts and the pair index, and the merge rewrite.

    Shared by the BPE engine below and the WordPiece trainer (:mod:`algorithms._wordpiece_runs`), which
    differ only in how they choose the next pair. ``words``, ``counts``, ``pair_counts`` and
    ``where`` are described in docs/algorithms.md, "The merge engine".
    """

    def __init__(
        self, words: Sequence[Sequence[int] | str], counts: Sequence[int], *, first_occurrence: bool
    ) -> None:
        self.first_occurrence = first_occurrence
        #: Frequency of each word.
        self.counts: list[int] = [int(c) for c in counts]
        if any(c < 0 for c in self.counts):
            raise ValueError("word counts must be >= 0")
        top_id = -1
        split_words: list[str] = []
        for word in words:
            if isinstance(word, str):  # one character per symbol already: chr(id)
                if word:
                    top_id = max(top_id, ord(max(word)))
                split_words.append(word)
                continue
            if len(word):
                lo, hi = min(word), max(word)
                if lo < 0 or hi > MAX_SYMBOL_ID:
                    raise ValueError(f"symbol ids must be in 0..{MAX_SYMBOL_ID}, got {lo if lo < 0 else hi}")
                top_id = max(top_id, hi)
            split_words.append("".join(map(chr, word)))
        #: Current split of each word, one character per symbol.
        self.words: list[str] = split_words
        #: Largest id seen (symbols and merged tokens): a merged id above it is a new token.
        self.top_id = top_id
        #: Pairs never to merge (``merge_symbol`` refused them, or they would make too long a token).
        self.banned: set[str] = set()

        # Initial count: list each word once per occurrence of each of its pairs; the count of a pair
        # is then the sum of the counts of the words in its list.
        where: dict[str, list[int]] = {}
        get = where.get
        for wi, (s, c) in enumerate(zip(split_words, self.counts)):
            if c == 0:
                continue
            for k in range(len(s) - 1):
                p = s[k : k + 2]
                lst = get(p)
                if lst is None:
                    where[p] = [wi]
                else:
                    lst.append(wi)
        cget = self.counts.__getitem__
        #: Pair → count in the current splits (a pair that vanished may stay with count 0).
        self.pair_counts: dict[str, int] = {p: sum(map(cget, lst)) for p, lst in where.items()}
        #: Pair → words where it was formed (a superset of the words holding it; sorted in
        #: first_occurrence mode).
        self.where = where

    def _first_live(self, p: str) -> tuple[int, int]:
        """``(word index, position in the current split)`` of the first occurrence of ``p``.

        ``where[p]`` is sorted in first_occurrence mode; the stale words at its head are dropped on
        the way (if ``p`` is formed there again, the word is listed again).
        """
        lst = self.where[p]
        words = self.words
        for i, wi in enumerate(lst):
            k = words[wi].find(p)
            if k >= 0:
                if i:
                    del lst[:i]
                return wi, k
        raise AssertionError(f"pair {p!r} is counted but occurs nowhere")  # pragma: no cover

    def _apply(self, ab: str, n: str) -> dict[str, list[int]]:
        """Rewrite ``ab → n`` in every word that holds ``ab`` and decrement the pairs that vanish.

        Returns the pairs formed by the merge, each with one word index per formed occurrence; the
        caller records them (:meth:`_record_formed`) and queues them. ``ab`` leaves ``pair_counts``.
        """
        words = self.words
        counts = self.counts
        pair_counts = self.pair_counts
        formed: defaultdict[str, list[int]] = defaultdict(list)  # a missing key costs no Python call
        last = -1
        for wi in self.where.pop(ab):
            if wi == last:
                # The word is listed once per occurrence, in a row, and was rewritten whole just
                # now: searching it again would cost its length per occurrence (quadratic on a
                # long run such as 100,000 zero bytes).
                continue
            last = wi
            s = words[wi]
            i = s.find(ab)
            if i < 0:
                continue  # stale: an earlier merge destroyed the pair in this word
            c = counts[wi]
            t = s.replace(ab, n)
            words[wi] = t
            size = len(s)
            if len(t) == size - 1:
                # One occurrence (the usual case): x a b y → x n y.
                if i:
                    pair_counts[s[i - 1 : i + 1]] -= c  # (x, a) is gone
                    formed[t[i - 1 : i + 1]].append(wi)  # (x, n) is formed
                if i + 2 < size:
                    pair_counts[s[i + 1 : i + 3]] -= c  # (b, y) is gone
                    formed[t[i : i + 2]].append(wi)  # (n, y) is formed
            else:
                # Several occurrences (runs such as "a b a b", or long CJK "words"). The pairs that
                # touch an occurrence are gone, those that touch a new symbol are formed, the others
                # stay; sets of positions count a pair between two occurrences once.
                gone: set[int] = set()
                new: set[int] = set()
                k, m = i, 0  # m-th occurrence: at k in s, at k - m in t
                while k >= 0:
                    gone.add(k - 1)
                    gone.add(k + 1)
                    new.add(k - m - 1)
                    new.add(k - m)
                    k = s.find(ab, k + 2)  # the same left-to-right scan as str.replace
                    m += 1
                for k in gone:
                    if 0 <= k < size - 1:
                        pair_counts[s[k : k + 2]] -= c
                for k in new:
                    if 0 <= k < size - m - 1:
                        formed[t[k : k + 2]].append(wi)
        del pair_counts[ab]  # merged everywhere (decrements of (a, b) itself above are moot)
        return formed

    def _record_formed(self, formed: dict[str, list[int]]) -> None:
        """Add the occurrences returned by :meth:`_apply` to ``pair_counts`` and ``where``."""
        pair_counts = self.pair_counts
        where = self.where
        cget = self.counts.__getitem__
        first = self.first_occurrence
        for q, lst in formed.items():
            pair_counts[q] = pair_counts.get(q, 0) + sum(map(cget, lst))
            old = where.get(q)
            if old is None:
                where[q] = lst  # sorted when where[ab] is: words are visited in its order
            else:  # q existed already: only when a merge reuses an existing token
                old.extend(lst)
                if first:
                    old.sort()


class _MergeState(_Splits):
    """The BPE engine: a heap of pair counts, and the two operations on it: pop the best, merge it."""

    def __init__(
        self, words: Sequence[Sequence[int] | str], counts: Sequence[int], *, first_occurrence: bool
    ) -> None:
        super().__init__(words, counts, first_occurrence=first_occurrence)
        #: first_occurrence only: the length of each symbol in initial symbols, for offsets.
        self.sym_len: dict[str, int] = dict.fromkeys("".join(self.words), 1) if first_occurrence else {}
        #: Candidate pairs, best first (the key layout is at the top of this module).
        self.heap: list[int] = [self._key(p, n) for p, n in self.pair_counts.items()]
        heapq.heapify(self.heap)

    def _key(self, p: str, count: int) -> int:
        """Heap key of pair ``p`` counted ``count``: smaller is better."""
        code = (ord(p[0]) << _ID_BITS) | ord(p[1])
        if not self.first_occurrence:
            return (-count << _PAIR_BITS) | code
        wi, offset = self._first_position(p)
        return (-count << _COUNT_SHIFT_FIRST) | (wi << _WORD_SHIFT) | (offset << _OFFSET_SHIFT) | code

    def _first_position(self, p: str) -> tuple[int, int]:
        """``(word index, offset in initial symbols)`` of the first occurrence of ``p``."""
        wi, k = self._first_live(p)
        return wi, sum(map(self.sym_len.__getitem__, self.words[wi][:k]))

    def run(
        self,
        merge_symbol: Callable[[int, int], int | None],
        max_merges: int,
        min_frequency: int,
        progress: Callable[[str, int, int], None] | None,
    ) -> list[tuple[int, int, int]]:
        """The training loop: pop the best pair, ask for its id, merge it; see :func:`learn_merges`."""
        merges: list[tuple[int, int, int]] = []
        done = 0
        report_every = max(1, max_merges // 100)
        while done < max_merges:
            best = self._pop_best()
            if best is None:
                break
            p, count = best
            if count < min_frequency:
                break
            a, b = ord(p[0]), ord(p[1])
            new_id = merge_symbol(a, b)
            if new_id is None:
                self.banned.add(p)
                continue
            if type(new_id) is not int or not 0 <= new_id <= MAX_SYMBOL_ID:
                raise ValueError(f"merge_symbol({a}, {b}) returned an invalid id {new_id!r}")
            merges.append((a, b, new_id))
            if new_id > self.top_id:
                self.top_id = new_id
                done += 1
                if progress is not None and (done % report_every == 0 or done == max_merges):
                    progress("merges", done, max_merges)
            self._merge(p, chr(new_id))
        return merges

    def _pop_best(self) -> tuple[str, int] | None:
        """Pop the best pair and its count, correcting or dropping stale heap entries on the way."""
        heap = self.heap
        pair_counts = self.pair_counts
        first = self.first_occurrence
        count_shift = _COUNT_SHIFT_FIRST if first else _PAIR_BITS
        while heap:
            key = heap[0]
            code = key & _PAIR_MASK
            p = chr(code >> _ID_BITS) + chr(code & _ID_MASK)
            current = pair_counts.get(p, 0)
            if current <= 0 or p in self.banned:
                heapq.heappop(heap)  # merged, vanished or refused
            elif first:
                fresh = self._key(p, current)  # the count or the first occurrence may have moved
                if fresh == key:
                    heapq.heappop(heap)
                    return p, current
                heapq.heapreplace(heap, fresh)
            elif current == -(key >> count_shift):
                heapq.heappop(heap)
                return p, current
            else:
                heapq.heapreplace(heap, (-current << _PAIR_BITS) | code)
        return None

    def _merge(self, ab: str, n: str) -> None:
        """Apply ``ab → n`` in every word that holds ``ab``; update counts, index and heap."""
        formed = self._apply(ab, n)
        rekey = False
        if self.first_occurrence:
            length = self.sym_len[ab[0]] + self.sym_len[ab[1]]
            if n not in self.sym_len:
                self.sym_len[n] = length
            elif self.sym_len[n] != length:
                # An existing token reached from a different number of initial symbols (with a
                # continuing prefix, "##" + "###" spells the existing "###"). Offsets after it
                # shifted, so heap keys may no longer be lower bounds: recompute them all (rare).
                rekey = True
        self._record_formed(formed)
        if rekey:
            self.heap = [self._key(q, c) for q, c in self.pair_counts.items() if c > 0]
            heapq.heapify(self.heap)
            return
        # Push the formed pairs, once each: their counts went up.
        heap = self.heap
        pair_counts = self.pair_counts
        push = heapq.heappush
        if self.first_occurrence:
            for q in formed:
                push(heap, self._key(q, pair_counts[q]))
        else:
            for q in formed:
                push(heap, (-pair_counts[q] << _PAIR_BITS) | (ord(q[0]) << _ID_BITS) | ord(q[1]))
