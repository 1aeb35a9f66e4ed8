"""The likelihood criterion of :class:`algorithms.wordpiece_trainer.WordPieceTrainer` (Schuster &
Nakajima 2012, with the count discount of docs/algorithms.md): :func:`likelihood_gain` and the merge
loop :class:`_LikelihoodRun`, the score loop of :mod:`algorithms._wordpiece_runs` with other heap keys
and bounds. The slow oracle is :mod:`algorithms.reference.wordpiece`.
"""

from __future__ import annotations

import heapq
import math
from bisect import bisect_right
from collections.abc import Iterable
from typing import Any

from algorithms._merges import _ID_BITS
from algorithms._wordpiece_runs import _Run

__all__ = ["likelihood_gain"]


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


#: Heap keys of the likelihood mode are ``-tier << tier_shift - ceil(bound * 2**20)``: rounding up
#: keeps them upper bounds.
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


class _LikelihoodRun(_Run):
    """The merge loop with the likelihood gain (Schuster & Nakajima) in place of the course score.

    Pairs compare by ``(tier, gain)`` (the discount, :meth:`_exact_key`); the tier only falls without
    a push, so a pushed tier bounds it. A heap key is the gain at *lowered* frequencies
    ``θ_a <= f_a``, ``θ_b <= f_b``: an upper bound while ``f >= θ`` (docs/algorithms.md: the gain
    falls as ``f_a``, ``f_b`` grow; it grows with ``N``, which only falls; it is convex in ``m``, so
    the larger of the gains at the tier's lowest count and at the pushed count bounds it for every
    count between).
    Each pair registers its ``θ`` with both its tokens (``watch``); when a merge lowers a token's
    frequency below a registered ``θ``, exactly those pairs are re-pushed.

    ``θ`` is chosen per pair from its distance to the top: a pair whose exact gain is ``h`` below
    the last merged gain gets ``θ = f * exp(-h * headroom_share / m)`` rounded down to a level of
    ``_LEVELS`` (its bound then rises by about ``headroom_share * h`` per token), so pairs far
    below the top (most pairs of frequent tokens such as ``##e``) are re-pushed rarely, and pairs
    near the top use ``θ = f`` (re-pushed at every change of their tokens, popped once per change).
    """

    headroom_share = 0.25
    every_initial = True

    def __init__(self, trainer: Any, items: list[tuple[str, int]]) -> None:  # a WordPieceTrainer
        self.margin = 0.0
        self.discount = trainer.likelihood_discount
        self.ref: float | None = None
        self.ref_tier = self.discount + 1
        self.watch: list[dict[int, set[str]]] = []
        self.reg: dict[str, tuple[int, int]] = {}
        # Heap keys: -tier << tier_shift - ceil(bound * S) or - f_a * f_b; the shift leaves room below
        # the tier for either (a product is below total ** 2, a scaled bound far below; the symbols
        # number at most the characters), so tiers never mix.
        most = sum(count * len(word) for word, count in items)
        self.tier_shift = max(96, 2 * most.bit_length() + 2)
        super().__init__(trainer, items)

    def _new_token(self) -> None:
        self.watch.append({})

    def _exact_key(self, x: int, y: int, p: str, count: int) -> Any:
        """``(-tier, -gain)``: tier ``d + 1`` when the merge rewrites ``m > d`` occurrences (then the
        gain of ``m - d`` of them), else ``(-m, -f_a * f_b)``: tier ``m``, pairs of frequent tokens
        first (``d = likelihood_discount``)."""
        d = self.discount
        if x == y:
            m = self._merged_count(p)
            if m <= d:
                return -m, -self.freq[x] * self.freq[x]
            return -d - 1, -likelihood_gain(self.freq[x], 0, m - d, self.total, True)
        if count <= d:
            return -count, -self.freq[x] * self.freq[y]
        tier = d + 1
        count -= d
        # likelihood_gain(freq[x], freq[y], count, total, False) inlined: the same operations in the
        # same order, so the same float as the reference's
        fa, fb, total, log = self.freq[x], self.freq[y], self.total, math.log
        da = ((fa - count) * log(fa - count) if fa > count else 0.0) - fa * log(fa)
        db = ((fb - count) * log(fb - count) if fb > count else 0.0) - fb * log(fb)
        return -tier, -(da + db + count * log(count) + (total * log(total) - ((total - count) * log(total - count)
                                                                               if total > count else 0.0)))

    def _stop_key(self, key: Any) -> int:
        # Entries are -tier << tier_shift - ceil(bound * S) (top tier) or - f_a * f_b (lower tiers);
        # an entry >= that of (1 - ceil(gain * S)) has a lower bound, or a lower tier. A lower tier's
        # product is exact when pushed and only falls: an entry equal to the best's ties at most, and
        # the tie key (the bits below) decides.
        if -key[0] <= self.discount:
            return ((key[0] << self.tier_shift) + key[1]) << self.key_shift
        return ((key[0] << self.tier_shift) + 1 - math.ceil(-key[1] * _GAIN_SCALE)) << self.key_shift

    # ------------------------------------------------------------------ the tie group (_Run's stash)
    def _signatures(self, x: int, y: int, count: int) -> tuple[Any, ...]:
        """Pairs with equal ``(f_a, f_b, m)`` have equal gains at every ``N`` (and equal products)."""
        return ((self.freq[x], self.freq[y], count),)

    def _hold(self, q: str, x: int, y: int) -> None:
        """Register the stashed ``q`` exactly with both its tokens: any merge that changes its signature
        lowers the frequency of one of them (a pair's count falls only next to a merged pair) and
        re-pushes it; a member whose token's frequency rose is checked when it comes to the top."""
        self.reg[q] = (_TIGHT, _TIGHT)
        self.watch[x].setdefault(_TIGHT, set()).add(q)
        self.watch[y].setdefault(_TIGHT, set()).add(q)

    def _rebuild_heap(self) -> None:
        self.watch = [{} for _ in self.tokens]  # every pair registers its levels again as it is pushed
        self.reg = {}
        if self.ref is None:  # the top gain, the reference of the first levels
            keys = [self._exact_key(ord(p[0]), ord(p[1]), p, m) for p, m in self.pair_counts.items()
                    if m >= self.min_count]
            tier, gain = min(keys, default=(-self.discount - 1, -0.0))
            self.ref, self.ref_tier = -gain, -tier
        super()._rebuild_heap()

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
        # The last merge came from a lower tier: no pair of the top tier was near the top, and ``ref``
        # is a product, not a gain; such pairs take the loosest level.
        below = self.ref_tier <= d
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
                if m <= d:
                    self._push_lower(p, x, y, m, fx * fx)
                    continue
                tier = d + 1
                m -= d
                gain = likelihood_gain(fx, 0, m, total, True)
                q = 0.0 if below else exp(-(ref - gain) * share / m) if gain < ref else 1.0
                jx = self._level(fx, q, 2 * m)
                jy = jx
                t = fx if jx == _TIGHT else max(levels[jx], 2 * m)
                hi = gain if jx == _TIGHT else likelihood_gain(t, 0, m, total, True)
                if m > 1 and hi < lim1:  # convex in m: the bound of every count in 1..m
                    hi = max(hi, likelihood_gain(t, 0, 1, total, True))
            else:
                fy = freq[y]
                if m <= d:
                    self._push_lower(p, x, y, m, fx * fy)
                    continue
                # the top tier: the gain of m - d occurrences, for pair counts min_count..m
                tier = d + 1
                m -= d
                m0 = max(min_count - d, 1)
                base = m * log(m) + xt - ((total - m) * log(total - m) if total > m else 0.0)
                dx = ((fx - m) * log(fx - m) if fx > m else 0.0) - fx * log(fx)
                dy = ((fy - m) * log(fy - m) if fy > m else 0.0) - fy * log(fy)
                gain = hi = base + dx + dy
                q = 0.0 if below else exp(-(ref - gain) * share / m) if gain < ref else 1.0
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
            key = ((-tier << self.tier_shift) - ceil((hi + margin) * scale)) << key_shift | code
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

    def _push_lower(self, p: str, x: int, y: int, m: int, product: int) -> None:
        """Push ``p``, counted ``m <= d``, with its exact key: tier ``m`` and ``f_a * f_b``. Frequencies
        of existing tokens only fall, and with them the product, so the entry stays a bound without
        registering any level; a token's frequency rises only when a merge forms it again, and then
        :meth:`_repush` re-pushes its pairs of these tiers."""
        code = x << _ID_BITS | y
        key = ((-m << self.tier_shift) - product) << self.key_shift | code
        if self.first_occurrence:
            key |= self.first[p]
        self.current[code] = key
        heapq.heappush(self.heap, key)
        self.reg.pop(p, None)

    def _repush(self, new: int, old: dict[int, int], popped: list[str], formed: Iterable[str]) -> None:
        # The pairs whose level (or exactness) a lowered frequency broke, the popped and the formed.
        self.ref_tier, self.ref = -self.best_key[0], -self.best_key[1]
        freq = self.freq
        reg = self.reg
        todo = set(popped)
        todo.update(formed)
        # A token formed again (two pairs spelling it) gains frequency: the keys of its pairs below the
        # top tier rise with it (the top tier's gains fall, so their entries stay bounds).
        d = self.discount
        counts = self.pair_counts
        todo.update(q for q in self.pairs_of[new] if q[0] == q[1] or counts.get(q, 0) <= d)
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
