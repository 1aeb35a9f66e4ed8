"""The WordPiece merge loop of :class:`algorithms.wordpiece_trainer.WordPieceTrainer` with the course's
score (:class:`_Run`; the likelihood criterion's loop in :mod:`algorithms._wordpiece_likelihood`
extends it), exact and incremental over the BPE engine's splits (:class:`algorithms._merges._Splits`),
with a heap of upper bounds checked lazily by one loop (:meth:`_Run._pop_heap`) and a stash for groups
of tied pairs (:meth:`_Run._pop_best`). The slow oracle is :mod:`algorithms.reference.wordpiece`.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from algorithms._merges import (
    _COUNT_SHIFT_FIRST,
    _ID_BITS,
    _ID_MASK,
    _OFFSET_SHIFT,
    _PAIR_BITS,
    _PAIR_MASK,
    _WORD_SHIFT,
    MAX_SYMBOL_ID,
    _Splits,
)
from algorithms._vocab import select_alphabet
from toolkit import limits
from toolkit.errors import TrainingError
from toolkit.progress import active_progress

__all__ = ["WordPieceTraining"]

_STASHED = object()  # ``current`` of a pair waiting in the tie group's stash, out of the heap


@dataclass
class WordPieceTraining:
    """What a training run learned: the vocabulary in id order and the merges in the order made.

    ``merges`` holds ``(left, right, new_token)``. Two different pairs can spell the same token
    (``a + ##bc`` and ``ab + ##c``); the second such merge adds no vocabulary entry, so
    ``len(tokens)`` can be smaller than ``n_base + len(merges)``.
    """

    tokens: list[str]
    merges: list[tuple[str, str, str]] = field(default_factory=list)
    #: Number of leading entries of ``tokens`` that are special tokens and alphabet (not merges).
    n_base: int = 0


def _symbol(c: str, i: int, n: int, prefix: str, suffix: str) -> str:
    """The initial symbol of character ``c`` at position ``i`` of an ``n``-character word."""
    return (c if i == 0 else prefix + c) + (suffix if i == n - 1 else "")


def _segments(
    items: list[tuple[str, int]], alphabet: set[str], ids: Mapping[str, int], prefix: str, suffix: str
) -> tuple[list[list[int]], list[int], list[bool]]:
    """Words as segments of symbol ids (cut at characters outside the alphabet), their counts, and
    whether each starts its word."""
    segs: list[list[int]] = []
    seg_counts: list[int] = []
    seg_initial: list[bool] = []
    for word, count in items:
        cur: list[int] = []
        start = 0
        n = len(word)
        for i, c in enumerate(word):
            if c in alphabet:
                cur.append(ids[_symbol(c, i, n, prefix, suffix)])
                continue
            if cur:
                segs.append(cur)
                seg_counts.append(count)
                seg_initial.append(start == 0)
            cur = []
            start = i + 1
        if cur:
            segs.append(cur)
            seg_counts.append(count)
            seg_initial.append(start == 0)
    return segs, seg_counts, seg_initial


class _Run(_Splits):
    """One training run with the course's score ``freq(ab) / (freq(a) * freq(b))``.

    The splits, pair counts and pair index are the BPE engine's: each segment (a word cut at
    characters outside the alphabet, in corpus order) is a ``str`` with one character per symbol, a
    pair the 2-character string of its symbols, and ``(segment, character offset)`` orders
    occurrences like a left-to-right scan of the corpus (the ``first_occurrence`` key). On top:

    - ``freq``: weighted count of each token in the current splits; ``total`` their sum (N);
    - ``pairs_of``: token id -> the pairs containing it (vanished pairs pruned lazily);
    - ``g``: each token's *bound frequency*, ``g <= freq``: heap keys are computed with ``g``, so they
      stay upper bounds while ``freq`` falls, until ``freq < g`` and the token's pairs are re-pushed
      (tokens in at most ``slack_degree`` pairs use ``g = freq``, others ``freq - freq >> slack_shift``);
    - ``heap``: ints ``key << 42 | pair code`` or ``key << 114 | first position | pair code``
      (``first_occurrence``): minus an upper bound of the score, lower bounds of first positions.
    """

    slack_degree = 4
    slack_shift = 5
    #: Outdated heap entries tolerated beyond 4 per live pair before the heap is rebuilt.
    heap_slack = 10_000
    #: Every alphabet character is a word-initial symbol too, even one seen only inside words (so a
    #: word that starts with it is not ``[UNK]``; HF's trainers do this). The course's score keeps only
    #: the symbols seen, as its worked examples list them.
    every_initial = False

    def __init__(self, trainer: Any, items: list[tuple[str, int]]) -> None:  # a WordPieceTrainer
        self.trainer = trainer
        self.prefix = prefix = trainer.continuing_subword_prefix
        suffix = trainer.end_of_word_suffix or ""
        self.plen = len(prefix)
        self.min_count = max(1, trainer.min_frequency)

        # Unlike BPE, the initial alphabet is always kept whole, even beyond limit_alphabet.
        limit = trainer.limit_alphabet
        if limit is not None:
            limit = max(limit, len(set(trainer.initial_alphabet)))
        alphabet = set(select_alphabet(items, trainer.initial_alphabet, limit))
        symbols: set[str] = set()
        for c in trainer.initial_alphabet:
            symbols.add(c)
            symbols.add(prefix + c)
        for word, _ in items:
            n = len(word)
            symbols.update(_symbol(c, i, n, prefix, suffix) for i, c in enumerate(word) if c in alphabet)
        if self.every_initial:
            symbols.update(alphabet)

        self.tokens: list[str] = list(trainer.distinct_special_tokens)
        self.ids: dict[str, int] = {t: i for i, t in enumerate(self.tokens)}
        for s in sorted(symbols):
            if s not in self.ids:  # a special token may coincide with a symbol
                self.ids[s] = len(self.tokens)
                self.tokens.append(s)
        self.n_base = len(self.tokens)
        self._check_id(self.n_base - 1)

        segs, seg_counts, seg_initial = _segments(items, alphabet, self.ids, prefix, suffix)
        super().__init__(segs, seg_counts, first_occurrence=trainer.tie_break == "first_occurrence")
        self.seg_initial = seg_initial
        # Characters of the word a token covers as a continuation (its length minus the prefix, and
        # minus the suffix, which only a word's last symbol carries); offsets count with it.
        slen = len(suffix)
        self.cont_len: list[int] = [
            len(t) - self.plen - (slen if slen and t.endswith(suffix) else 0) for t in self.tokens
        ]

        self.freq: list[int] = [0] * len(self.tokens)
        freq = self.freq
        for s, count in zip(self.words, self.counts):
            for ch in s:
                freq[ord(ch)] += count
        self.pairs_of: list[set[str]] = [set() for _ in self.tokens]
        pairs_of = self.pairs_of
        for p in self.pair_counts:
            pairs_of[ord(p[0])].add(p)
            pairs_of[ord(p[1])].add(p)
        self.total = sum(freq)
        self.shift = 4 * max(1, self.total).bit_length() + 1  # see _exact_key
        #: bits below the score key in a heap entry
        self.key_shift = _COUNT_SHIFT_FIRST if self.first_occurrence else _PAIR_BITS
        #: first_occurrence only: pair -> a lower bound of its first position (as a heap-key field).
        self.first: dict[str, int] = {}
        if self.first_occurrence:
            self.first = {p: self._position(p) for p in self.pair_counts}
        self.g: list[int] = [0] * len(self.tokens)
        for t in range(len(self.tokens)):
            self._set_bound(t)
        self.heap: list[int] = []
        self._rebuild_heap()
        self.merges: list[tuple[str, str, str]] = []

    @staticmethod
    def _check_id(token_id: int) -> None:
        if token_id > MAX_SYMBOL_ID:
            raise TrainingError(
                f"WordPieceTrainer: training supports at most {MAX_SYMBOL_ID + 1:,} tokens "
                "(special tokens, alphabet and merges); lower vocab_size"
            )

    def _position(self, p: str) -> int:
        """The first occurrence of ``p`` as the heap-key field ``segment << 74 | offset << 42``; the
        offset counts characters of the word before the pair (it never changes under merges)."""
        si, k = self._first_live(p)
        offset = sum(map(self.cont_len.__getitem__, map(ord, self.words[si][:k])))
        if k and self.seg_initial[si]:
            offset += self.plen  # the segment's first symbol starts the word: it has no prefix
        return si << _WORD_SHIFT | offset << _OFFSET_SHIFT

    def _set_bound(self, t: int) -> None:
        """Reset the bound frequency of ``t``; the caller re-pushes the pairs of ``t``."""
        f = self.freq[t]
        self.g[t] = f if len(self.pairs_of[t]) <= self.slack_degree else f - (f >> self.slack_shift)

    # ------------------------------------------------------------------ the criterion
    def _exact_key(self, x: int, y: int, p: str, count: int) -> Any:
        """Minus the exact score, as one int: ``-((count << K) // (freq(x) * freq(y)))``.

        Frequencies are at most N (merges only shrink it), so two different scores differ by at least
        ``1 / N**4``; scaled by ``2**K >= 2 * N**4`` their floors differ and equal scores floor
        equally: exact comparisons at the speed of ints (floats round distinct scores together).
        """
        return -((count << self.shift) // (self.freq[x] * self.freq[y]))

    def _stop_key(self, key: Any) -> int:
        """The smallest heap entry that cannot beat an exact ``key`` (whatever its tie key)."""
        return int(key) << self.key_shift

    def _push_all(self, pairs: Iterable[str]) -> list[str]:
        """Push bound entries for the live pairs among ``pairs``; return the vanished ones."""
        heap = self.heap
        get = self.pair_counts.get
        g = self.g
        min_count = self.min_count
        shift = self.shift
        key_shift = self.key_shift
        first = self.first
        fo = self.first_occurrence
        push = heapq.heappush
        current = self.current
        vanished: list[str] = []
        for p in pairs:
            count = get(p, 0)
            if count >= min_count:
                x, y = ord(p[0]), ord(p[1])
                code = x << _ID_BITS | y
                key = -((count << shift) // (g[x] * g[y])) << key_shift | code
                if fo:
                    key |= first[p]
                current[code] = key
                push(heap, key)
            elif not count:
                vanished.append(p)
        return vanished

    def _rebuild_heap(self) -> None:
        self.stash: list[int] = []
        self.stash_sig: Any = None
        self.heap = []
        self.current: dict[int, Any] = {}  # pair code -> its last heap entry (the others are outdated)
        self._push_all(self.pair_counts)
        heapq.heapify(self.heap)

    # ------------------------------------------------------------------ the tie group
    # Pairs whose exact keys are equal and stay equal under the changes a merge can make to them
    # (one *signature*, :meth:`_signatures`) tie at every later step. Bounds above the exact key (the
    # slack of a bound frequency, a float margin) put every member of such a group above the best, so
    # each merge would pop the whole group and re-push it: quadratic in the group's size. Instead the
    # tied pairs popped with the merged one wait in ``stash`` (a heap of tie keys of one signature
    # ``stash_sig``), out of the heap; :meth:`_hold` makes sure any change that could *raise* a
    # member's key re-pushes it (which ``current`` records), and a member whose key fell is caught by
    # its signature when it comes to the top. Each merge compares only the stash's first member
    # (one exact key) with the heap.
    def _pop_best(self) -> tuple[str, list[str]] | None:
        """The pair to merge next and the other live pairs popped (the caller re-pushes them)."""
        top = self._stash_top()
        if top is None:
            found = self._pop_heap()
            if found is None:
                return None
        else:
            found = self._pop_heap(top[:2])
            if found is None:  # the stash's first member wins
                heapq.heappop(self.stash)
                self.best_key = top[0]
                found = (top[2], self.popped)
        p, popped = found
        return p, self._stash_ties(p, popped)

    def _signatures(self, x: int, y: int, count: int) -> tuple[Any, ...]:
        """The tie groups pair ``x y`` (``x != y``) counted ``count`` can belong to: pairs of one
        signature have equal exact keys for as long as they keep it. The score: ``(t, r)`` for each of
        its tokens ``t``, ``r`` the reduced fraction ``count / freq(other token)``; a merge lowering
        ``freq(t)`` scales the score of every pair of ``t`` alike."""
        if count <= 0:
            return ()
        fx, fy = self.freq[x], self.freq[y]
        gy, gx = math.gcd(count, fy), math.gcd(count, fx)
        return (x, count // gy, fy // gy), (y, count // gx, fx // gx)

    def _hold(self, q: str, x: int, y: int) -> None:
        """Make sure a change that could raise the key of the stashed pair ``q`` re-pushes it. The score:
        only a fall of the other token's frequency (``freq(t)`` moves the whole group; a count falls
        only as one of them falls, and a formed pair is pushed); an exact bound frequency for that
        token resets it at any fall (its pairs' old entries stay bounds)."""
        other = y if self.stash_sig[0] == x else x
        self.g[other] = self.freq[other]

    def _stash_top(self) -> tuple[Any, int, str] | None:
        """The exact key, tie key and pair of the stash's first live member, or None."""
        stash, current = self.stash, self.current
        while stash:
            tie = stash[0]
            code = tie & _PAIR_MASK
            if current.get(code) is not _STASHED:
                heapq.heappop(stash)  # re-pushed since: it is in the heap
                continue
            x, y = code >> _ID_BITS, code & _ID_MASK
            p = chr(x) + chr(y)
            count = self.pair_counts.get(p, 0)
            if self.stash_sig not in self._signatures(x, y, count):
                heapq.heappop(stash)
                del current[code]
                self._push_all([p])
                continue
            return self._exact_key(x, y, p, count), tie, p
        return None

    def _stash_ties(self, p: str, popped: list[str]) -> list[str]:
        """Move the popped pairs tied with ``p`` (one signature) to the stash; return the others."""
        x, y = ord(p[0]), ord(p[1])
        if x == y:
            return popped
        keys, best, counts = self.seen_keys, self.best_key, self.pair_counts
        tied: dict[Any, list[tuple[str, int, int]]] = {}
        for q in popped:
            a, b = ord(q[0]), ord(q[1])
            if a != b and keys[a << _ID_BITS | b] == best:
                for sig in self._signatures(a, b, counts[q]):
                    tied.setdefault(sig, []).append((q, a, b))
        mine = [sig for sig in self._signatures(x, y, counts[p]) if sig in tied]
        if not mine:
            return popped
        sig = max(mine, key=lambda s: len(tied[s]))  # the signature that holds the most
        if sig != self.stash_sig:  # a new group: the old one goes back to the heap
            current = self.current
            # a pair re-stashed into the same group has two stash entries: list it once
            old = list(dict.fromkeys(chr(t >> _ID_BITS & _ID_MASK) + chr(t & _ID_MASK) for t in self.stash
                                     if current.get(t & _PAIR_MASK) is _STASHED))
            for q in old:
                del current[ord(q[0]) << _ID_BITS | ord(q[1])]
            self.stash = []
            self.stash_sig = sig
            self._push_all(old)
        stash, current, first = self.stash, self.current, self.first
        fo = self.first_occurrence
        for q, a, b in tied[sig]:
            code = a << _ID_BITS | b
            heapq.heappush(stash, code | first[q] if fo else code)
            current[code] = _STASHED
            self._hold(q, a, b)
        stashed = {q for q, _, _ in tied[sig]}
        return [q for q in popped if q not in stashed]

    def _pop_heap(self, seed: tuple[Any, int] | None = None) -> tuple[str, list[str]] | None:
        """The live pair with the best ``(exact key, tie key)``, found through the bound entries.

        Pop entries and compute their exact keys until the heap's smallest entry cannot beat the
        best found (or ``seed``, the exact key and tie key of a candidate outside the heap). Returns
        the pair and the other live pairs popped (the caller re-pushes them); ``None`` when nothing
        beats ``seed``. ``self.seen_keys``: pair code -> exact key of each pair popped.
        """
        heap = self.heap
        pair_counts = self.pair_counts
        banned = self.banned
        fo = self.first_occurrence
        min_count = self.min_count
        cont_len = self.cont_len
        max_len = limits.MAX_TOKEN_LENGTH - self.plen
        exact_key = self._exact_key
        pop = heapq.heappop
        best: tuple[Any, int] | None = seed
        stop: int | None = None if seed is None else self._stop_key(seed[0]) | seed[1]
        seen: dict[int, str] = {}
        self.seen_keys = seen_keys = {}
        current = self.current
        while heap:
            if stop is not None and heap[0] >= stop:
                break
            entry = pop(heap)
            code = entry & _PAIR_MASK
            if current.get(code) != entry:
                continue  # outdated: the pair's last entry, a valid bound too, is elsewhere in the heap
            del current[code]
            p = chr(code >> _ID_BITS) + chr(code & _ID_MASK)
            count = pair_counts.get(p, 0)
            if count < min_count or p in banned:
                continue  # merged away (or below min_frequency): its entries are outdated
            x, y = code >> _ID_BITS, code & _ID_MASK
            if cont_len[x] + cont_len[y] > max_len:
                banned.add(p)  # never merged: the token would exceed toolkit.limits.MAX_TOKEN_LENGTH
                continue
            seen[code] = p
            tie = code
            if fo:
                self.first[p] = position = self._position(p)
                tie |= position
            exact = (exact_key(x, y, p, count), tie)
            seen_keys[code] = exact[0]
            if best is None or exact < best:
                best = exact
                stop = self._stop_key(exact[0]) | tie
        if best is None or best is seed:
            self.popped = list(seen.values())
            return None
        self.best_key = best[0]
        p = seen.pop(best[1] & _PAIR_MASK)
        return p, list(seen.values())

    # ------------------------------------------------------------------ merging
    def _merge(self, ab: str, popped: list[str]) -> None:
        a, b = ord(ab[0]), ord(ab[1])
        tokens = self.tokens
        new_str = tokens[a] + tokens[b][self.plen :]
        new = self.ids.get(new_str)
        if new is None:
            new = len(tokens)
            self._check_id(new)
            tokens.append(new_str)
            self.ids[new_str] = new
            self.cont_len.append(self.cont_len[a] + self.cont_len[b])
            self.freq.append(0)
            self.g.append(0)
            self.pairs_of.append(set())
            self._new_token()
        self.merges.append((tokens[a], tokens[b], new_str))

        merged = self._merged_count(ab)
        formed = self._apply(ab, chr(new))
        self._record_formed(formed)
        freq = self.freq
        old = {a: freq[a], b: freq[b]}
        freq[a] -= merged
        freq[b] -= merged
        freq[new] += merged
        self.total -= merged

        pairs_of = self.pairs_of
        for q in formed:
            pairs_of[ord(q[0])].add(q)
            pairs_of[ord(q[1])].add(q)
        if self.first_occurrence:
            first = self.first
            for q in formed:  # a new occurrence may be earlier than the recorded one
                first[q] = self._position(q)
        self._repush(new, old, popped, formed)
        # Outdated entries pile up; rebuild once they dominate so the heap stays O(live pairs).
        if len(self.heap) > 4 * len(self.pair_counts) + self.heap_slack:
            self._rebuild_heap()

    def _new_token(self) -> None:  # hook: per-token state of a new token
        pass

    def _repush(self, new: int, old: dict[int, int], popped: list[str], formed: Iterable[str]) -> None:
        """Restore the heap's invariant after a merge lowered the frequencies of the tokens in ``old``
        (token -> frequency before), formed pairs with ``new`` and popped ``popped``.

        Lower frequencies raise scores: once freq < g, a token's heap keys are no longer upper bounds
        and its pairs are re-pushed with a new bound. Formed pairs count more than their keys say:
        re-pushed too (by the new token's reset, or with the popped pairs).
        """
        freq = self.freq
        g = self.g
        pairs_of = self.pairs_of
        reset = [t for t in {*old, new} if freq[t] < g[t] or not g[t]]
        for t in reset:
            self._set_bound(t)
        for t in reset:  # after every reset: a pair may contain two of these tokens
            pairs = pairs_of[t]
            vanished = self._push_all(pairs)
            if vanished:
                pairs.difference_update(vanished)
        self._push_all(popped if new in reset else [*popped, *formed])

    def _merged_count(self, p: str) -> int:
        """Occurrences of ``p`` one merge rewrites: "a a a" counts (a, a) twice but merges once."""
        if p[0] != p[1]:
            return self.pair_counts[p]  # occurrences of "a b" cannot overlap: each one merges
        words, counts = self.words, self.counts
        return sum(counts[si] * words[si].count(p) for si in set(self.where[p]))

    def run(self) -> WordPieceTraining:
        target = self.trainer.vocab_size
        progress = active_progress(self.trainer)
        total = max(0, target - len(self.tokens))
        step = 0
        if progress is not None:
            progress("merges", 0, total)
        while len(self.tokens) < target:
            best = self._pop_best()
            if best is None:
                break
            self._merge(*best)
            step += 1
            if progress is not None and step % 100 == 0:
                progress("merges", min(total, len(self.tokens) - self.n_base), total)
        if progress is not None:
            progress("merges", total, total)
        return WordPieceTraining(list(self.tokens), self.merges, self.n_base)
