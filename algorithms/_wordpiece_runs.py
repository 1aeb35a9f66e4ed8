"""The WordPiece merge loops of :class:`algorithms.wordpiece_trainer.WordPieceTrainer`: the course's
score (:class:`_Run`) and the likelihood gain (:class:`_LikelihoodRun`), exact and incremental over the
BPE engine's splits (:class:`algorithms._merges._Splits`), with a heap of upper bounds checked lazily
by one loop (:meth:`_Run._pop_best`). The slow oracle is :mod:`algorithms.reference.wordpiece`.
"""

from __future__ import annotations

import heapq
import math
from bisect import bisect_right
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

__all__ = ["WordPieceTraining", "likelihood_gain"]


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

        self.tokens: list[str] = list(trainer.special_tokens)
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
        self.heap = []
        self.current: dict[int, int] = {}  # pair code -> its last heap entry (the others are outdated)
        self._push_all(self.pair_counts)
        heapq.heapify(self.heap)

    def _pop_best(self, seed: tuple[Any, int] | None = None) -> tuple[str, list[str]] | None:
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


def _xlogx(x: int) -> float:
    return x * math.log(x) if x > 0 else 0.0


def likelihood_gain(fa: int, fb: int, m: int, total: int, same: bool) -> float:
    """Change in the training data's unigram log-likelihood when ``m`` occurrences of ``a b`` merge.

    ``L = sum_t f_t log f_t - N log N``; the merge takes ``m`` from ``f_a`` and ``f_b`` (``2m`` from
    ``f_a`` when ``a == b``), gives ``m`` to the new token and ``N`` falls by ``m``
    (docs/algorithms.md derives it). The slow reference evaluates the same expression in the same
    order, so the two compare bit-identical floats.
    """
    if same:
        da = _xlogx(fa - 2 * m) - _xlogx(fa)
        db = 0.0
    else:
        da = _xlogx(fa - m) - _xlogx(fa)
        db = _xlogx(fb - m) - _xlogx(fb)
    return da + db + _xlogx(m) + (_xlogx(total) - _xlogx(total - m))


#: Heap keys of the likelihood mode are ``-ceil(bound * 2**20)``: rounding up keeps them upper bounds.
_GAIN_SCALE = float(1 << 20)


def _levels() -> list[int]:
    """Frequency levels a pair's bound may assume: every integer to 64, then about 1/16 apart."""
    out = set(range(65))
    x = 64.0
    while x < 2.0**64:
        out.add(int(x))
        x *= 1.0625
    return sorted(out)


_LEVELS = _levels()
_TIGHT = -1  # the level of a bound computed at the exact frequency
_TIER_SHIFT = 96  # heap keys: -tier << _TIER_SHIFT - ceil(bound * S); |bound * S| < 2**95
_STASHED = object()  # ``current`` of a pair waiting in the tie group's stash, out of the heap


class _LikelihoodRun(_Run):
    """The merge loop with the likelihood gain (Schuster & Nakajima) in place of the course score.

    A heap key is the gain at *lowered* frequencies ``θ_a <= f_a``, ``θ_b <= f_b``: an upper bound
    while ``f >= θ`` (docs/algorithms.md: the gain falls as ``f_a``, ``f_b`` grow; it grows with
    ``N``, which only falls; it is convex in ``m``, so the larger of the gains at the lowest count
    (``min_frequency``, at least 1) and at the pushed count bounds it for every count between).
    Each pair registers its ``θ`` with both its tokens (``watch``); when a merge lowers a token's
    frequency below a registered ``θ``, exactly those pairs are re-pushed.

    ``θ`` is chosen per pair from its distance to the top: a pair whose exact gain is ``h`` below
    the last merged gain gets ``θ = f * exp(-h * headroom_share / m)`` rounded down to a level of
    ``_LEVELS`` (its bound then rises by about ``headroom_share * h`` per token), so pairs far
    below the top (most pairs of frequent tokens such as ``##e``) are re-pushed rarely, and pairs
    near the top use ``θ = f`` (re-pushed at every change of their tokens, popped once per change).
    """

    headroom_share = 0.25

    def __init__(self, trainer: Any, items: list[tuple[str, int]]) -> None:  # a WordPieceTrainer
        self.margin = 0.0
        self.discount = trainer.likelihood_discount
        self.ref: float | None = None
        self.ref_tier = self.discount + 1
        self.watch: list[dict[int, set[str]]] = []
        self.reg: dict[str, tuple[int, int]] = {}
        super().__init__(trainer, items)

    def _new_token(self) -> None:
        self.watch.append({})

    def _exact_key(self, x: int, y: int, p: str, count: int) -> Any:
        """``(-tier, -gain)``: tier 1 when the merge rewrites more than ``d`` occurrences (then the gain
        of ``m - d`` of them), else tier 0 and the plain gain."""
        d = self.discount
        if x == y:
            m = self._merged_count(p)
            return (-d - 1, -likelihood_gain(self.freq[x], 0, m - d, self.total, True)) if m > d else (
                -m, -likelihood_gain(self.freq[x], 0, m, self.total, True))
        if count > d:
            tier = d + 1
            count -= d
        else:
            tier = count
        # likelihood_gain(freq[x], freq[y], count, total, False) inlined: the same operations in the
        # same order, so the same float as the reference's
        fa, fb, total, log = self.freq[x], self.freq[y], self.total, math.log
        da = ((fa - count) * log(fa - count) if fa > count else 0.0) - fa * log(fa)
        db = ((fb - count) * log(fb - count) if fb > count else 0.0) - fb * log(fb)
        return -tier, -(da + db + count * log(count) + (total * log(total) - ((total - count) * log(total - count)
                                                                               if total > count else 0.0)))

    def _stop_key(self, key: Any) -> int:
        # Entries are -tier << _TIER_SHIFT - ceil(bound * S); an entry >= that of (1 - ceil(gain * S))
        # in the same tier has bound < gain, and a lower tier.
        return ((key[0] << _TIER_SHIFT) + 1 - math.ceil(-key[1] * _GAIN_SCALE)) << self.key_shift

    # ------------------------------------------------------------------ the tie group
    # Pairs with equal (f_a, f_b, m) have equal gains at every N. The margin of the bounds puts every
    # such pair above the best exact gain, so each merge would pop the whole group and re-push it:
    # quadratic in the group's size. Instead, the tied pairs popped with the merged one wait in
    # ``stash`` (a heap of tie keys, one signature ``stash_sig``), out of the heap, registered
    # exactly with both tokens: any merge that changes their signature lowers the frequency of one
    # of their tokens (a pair's count falls only next to a merged pair) and re-pushes them, which
    # ``current`` records; a member whose token's frequency rose is checked when it comes to the top.
    def _pop_best(self, seed: tuple[Any, int] | None = None) -> tuple[str, list[str]] | None:
        top = self._stash_top()
        if top is None:
            found = super()._pop_best()
            if found is None:
                return None
        else:
            found = super()._pop_best(top[:2])
            if found is None:  # the stash's first member wins
                heapq.heappop(self.stash)
                self.best_key = top[0]
                found = (top[2], self.popped)
        p, popped = found
        return p, self._stash_ties(p, popped)

    def _stash_top(self) -> tuple[Any, int, str] | None:
        """The exact key, tie key and pair of the stash's first live member, or None."""
        stash, current, freq = self.stash, self.current, self.freq
        while stash:
            tie = stash[0]
            code = tie & _PAIR_MASK
            if current.get(code) is not _STASHED:
                heapq.heappop(stash)  # re-pushed since: it is in the heap
                continue
            x, y = code >> _ID_BITS, code & _ID_MASK
            p = chr(x) + chr(y)
            count = self.pair_counts.get(p, 0)
            if (freq[x], freq[y], count) != self.stash_sig:
                heapq.heappop(stash)
                del current[code]
                self._push_all([p])
                continue
            return self._exact_key(x, y, p, count), tie, p
        return None

    def _stash_ties(self, p: str, popped: list[str]) -> list[str]:
        """Move the popped pairs tied with ``p`` (same signature) to the stash; return the others."""
        freq, counts, keys = self.freq, self.pair_counts, self.seen_keys
        best = self.best_key
        x, y = ord(p[0]), ord(p[1])
        sig = (freq[x], freq[y], counts[p])
        tied = [q for q in popped if keys[ord(q[0]) << _ID_BITS | ord(q[1])] == best and q[0] != q[1]
                and (freq[ord(q[0])], freq[ord(q[1])], counts[q]) == sig] if x != y else []
        if not tied:
            return popped
        if sig != self.stash_sig:  # a new group: the old one goes back to the heap
            current = self.current
            old = [chr(t >> _ID_BITS & _ID_MASK) + chr(t & _ID_MASK) for t in self.stash
                   if current.get(t & _PAIR_MASK) is _STASHED]
            for q in old:
                del current[ord(q[0]) << _ID_BITS | ord(q[1])]
            self.stash = []
            self.stash_sig = sig
            self._push_all(old)
        stash, current, watch, reg, first = self.stash, self.current, self.watch, self.reg, self.first
        for q in tied:
            a, b = ord(q[0]), ord(q[1])
            code = a << _ID_BITS | b
            heapq.heappush(stash, code | first[q] if self.first_occurrence else code)
            current[code] = _STASHED
            reg[q] = (_TIGHT, _TIGHT)
            watch[a].setdefault(_TIGHT, set()).add(q)
            watch[b].setdefault(_TIGHT, set()).add(q)
        stashed = set(tied)
        return [q for q in popped if q not in stashed]

    def _rebuild_heap(self) -> None:
        self.stash: list[int] = []
        self.stash_sig: tuple[int, int, int] | None = None
        self.watch = [{} for _ in self.tokens]
        self.reg = {}
        self.heap = []
        self.current = {}
        if self.ref is None:  # the top gain, the reference of the first levels
            keys = [self._exact_key(ord(p[0]), ord(p[1]), p, m) for p, m in self.pair_counts.items()
                    if m >= self.min_count]
            tier, gain = min(keys, default=(-self.discount - 1, -0.0))
            self.ref, self.ref_tier = -gain, -tier
        self._push_all(self.pair_counts)
        heapq.heapify(self.heap)

    @staticmethod
    def _level(f: int, q: float, m: int) -> int:
        """The level for a pair counted ``m`` whose token of frequency ``f`` may drop to ``f * q``: at
        least ``4 m`` (the gain rises by about ``m log(f / θ)`` only while ``θ >> m``); exact when
        within 1/16 of ``f``."""
        t = max(f * q, 4 * m)
        if t >= f - (f >> 4):
            return _TIGHT
        j = bisect_right(_LEVELS, t) - 1
        return _TIGHT if _LEVELS[j] * 16 < t * 15 else j  # small f: the level below is too far

    def _push_all(self, pairs: Iterable[str]) -> list[str]:
        """Push a bound entry for each live pair of ``pairs`` and register its levels; return the
        vanished pairs. The gains are :func:`likelihood_gain` inlined (the margin covers rounding)."""
        heap = self.heap
        get = self.pair_counts.get
        freq = self.freq
        min_count = self.min_count
        push = heapq.heappush
        fo = self.first_occurrence
        first = self.first
        key_shift = self.key_shift
        total = self.total
        xt = _xlogx(total)
        if not self.margin:  # float rounding: each term is off by < 1 ulp of N log N at most
            self.margin = 1e-12 * (xt + 1.0)
        margin = self.margin
        ref = self.ref if self.ref is not None else 0.0
        share = self.headroom_share
        watch = self.watch
        reg = self.reg
        current = self.current
        levels = _LEVELS
        log = math.log
        exp = math.exp
        ceil = math.ceil
        scale = _GAIN_SCALE
        # G(m0) <= m0 (2 log N + 1): phi(m0) <= m0 log N, phi(N) - phi(N - m0) <= m0 (log N + 1), and
        # the terms of a and b are <= 0; a bound above these limits needs no lower endpoint
        lim1 = 2.0 * log(max(total, 1)) + 2.0
        d = self.discount
        ref_tier = self.ref_tier
        vanished: list[str] = []
        for p in pairs:
            m = get(p, 0)
            if m < min_count:
                if not m:
                    vanished.append(p)
                continue
            x, y = ord(p[0]), ord(p[1])
            fx = freq[x]
            if x == y:  # the merged count, not the overlapping count, which can exceed freq / 2
                m = self._merged_count(p)
                tier = d + 1 if m > d else m
                if m > d:
                    m -= d
                gain = likelihood_gain(fx, 0, m, total, True)
                # a pair below the top tier cannot win soon: the loosest level
                q = 0.0 if tier < ref_tier else exp(-(ref - gain) * share / m) if gain < ref else 1.0
                jx = self._level(fx, q, 2 * m)
                jy = jx
                t = fx if jx == _TIGHT else max(levels[jx], 2 * m)
                hi = gain if jx == _TIGHT else likelihood_gain(t, 0, m, total, True)
                if m > 1 and hi < lim1:  # convex in m: the bound of every count in 1..m
                    hi = max(hi, likelihood_gain(t, 0, 1, total, True))
            else:
                fy = freq[y]
                if m > d:  # the top tier: the gain of m - d occurrences, for pair counts min_count..m
                    tier = d + 1
                    m -= d
                    m0 = max(min_count - d, 1)
                else:  # tier m: a lower count is a lower tier
                    tier = m0 = m
                base = m * log(m) + xt - ((total - m) * log(total - m) if total > m else 0.0)
                dx = ((fx - m) * log(fx - m) if fx > m else 0.0) - fx * log(fx)
                dy = ((fy - m) * log(fy - m) if fy > m else 0.0) - fy * log(fy)
                gain = hi = base + dx + dy
                q = 0.0 if tier < ref_tier else exp(-(ref - gain) * share / m) if gain < ref else 1.0
                # _level, inlined for both tokens
                tx = max(fx * q, 4 * m)
                if tx >= fx - (fx >> 4):
                    jx = _TIGHT
                    tx = fx
                else:
                    jx = bisect_right(levels, tx) - 1
                    if levels[jx] * 16 < tx * 15:  # small f: the level below is too far
                        jx = _TIGHT
                        tx = fx
                    else:
                        tx = levels[jx]
                        hi += (tx - m) * log(tx - m) - tx * log(tx) - dx
                ty = max(fy * q, 4 * m)
                if ty >= fy - (fy >> 4):
                    jy = _TIGHT
                    ty = fy
                else:
                    jy = bisect_right(levels, ty) - 1
                    if levels[jy] * 16 < ty * 15:  # small f: the level below is too far
                        jy = _TIGHT
                        ty = fy
                    else:
                        ty = levels[jy]
                        hi += (ty - m) * log(ty - m) - ty * log(ty) - dy
                if m > m0 and hi < m0 * lim1:  # convex in m: the bound of every count in m0..m
                    hi = max(hi, likelihood_gain(tx, ty, m0, total, False))
            code = x << _ID_BITS | y
            key = ((-tier << _TIER_SHIFT) - ceil((hi + margin) * scale)) << key_shift | code
            if fo:
                key |= first[p]
            current[code] = key
            push(heap, key)
            reg[p] = (jx, jy)
            w = watch[x].get(jx)
            if w is None:
                watch[x][jx] = {p}
            else:
                w.add(p)
            if y != x:
                w = watch[y].get(jy)
                if w is None:
                    watch[y][jy] = {p}
                else:
                    w.add(p)
        return vanished

    def _repush(self, new: int, old: dict[int, int], popped: list[str], formed: Iterable[str]) -> None:
        # The pairs whose level (or exactness) a lowered frequency broke, the popped and the formed.
        self.ref_tier, self.ref = -self.best_key[0], -self.best_key[1]
        freq = self.freq
        reg = self.reg
        todo = set(popped)
        todo.update(formed)
        for t, f_old in old.items():
            if freq[t] >= f_old:
                continue
            w = self.watch[t]
            lo = bisect_right(_LEVELS, freq[t])  # levels >= lo are above the new frequency
            for j in [j for j in w if j == _TIGHT or j >= lo]:
                for p in w.pop(j):
                    r = reg.get(p)
                    if r is not None and r[0 if ord(p[0]) == t else 1] == j:
                        todo.add(p)
        vanished = self._push_all(todo)
        for p in vanished:
            reg.pop(p, None)
