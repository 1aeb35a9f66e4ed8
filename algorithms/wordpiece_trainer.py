"""The WordPiece trainer: learns a :class:`~algorithms.wordpiece.WordPiece` vocabulary with the real
WordPiece criterion.

Every step merges the adjacent pair maximising ``freq(pair) / (freq(first) * freq(second))``,
compared exactly (Hugging Face's ``WordPieceTrainer`` trains BPE and converts the result; this one
does not). Training is incremental: it shares the BPE engine's word splits, pair counts and pair
index (:class:`algorithms._merges._Splits`) and adds an index from each token to the pairs that
contain it and a priority queue of score upper bounds checked lazily (see :class:`_Run`). The slow
oracle that recomputes every score at every step is :mod:`algorithms.reference.wordpiece`.

>>> trainer = WordPieceTrainer(vocab_size=12, special_tokens=["[UNK]"], tie_break="first_occurrence", criterion="score")
>>> model = trainer.train({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5})
>>> list(model.get_vocab())[-4:]
['##gs', 'hu', 'hugs', 'hug']
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import Field, StrictInt, StrictStr

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
from algorithms._vocab import check_initial_alphabet, checked_word_counts, select_alphabet
from algorithms.wordpiece import DEFAULT_SPECIAL_TOKENS, WordPiece
from toolkit import limits
from toolkit.errors import ConfigError, TrainingError
from toolkit.interfaces import Model, Params, ProgressCallback, Trainer
from toolkit.progress import active_progress, training_progress
from toolkit.registry import register
from toolkit.runtime import gc_paused

__all__ = ["WordPieceTrainer", "WordPieceTraining"]


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


@register("WordPieceTrainer")
class WordPieceTrainer(Trainer):
    """Trains a :class:`WordPiece` vocabulary with the WordPiece score, exactly and incrementally.

    Options (by keyword, ``vocab_size`` also by position; each one assignable after construction):

    - ``vocab_size`` (30000): target size, special tokens and alphabet included. The alphabet is
      never cut, so a tiny ``vocab_size`` yields specials + alphabet.
    - ``min_frequency`` (0): pairs seen fewer times are never merged; training stops when no pair
      reaches it.
    - ``special_tokens`` (``[PAD] [UNK] [CLS] [SEP] [MASK]``): the first ids, in this order. The
      model's ``unk_token`` must be one of them.
    - ``continuing_subword_prefix`` (``"##"``).
    - ``limit_alphabet`` (None): keep only this many distinct characters (the most frequent; ties by
      code point; ``initial_alphabet`` characters are always kept). Words with a dropped character are
      still learned from, but no pair spans the dropped character.
    - ``initial_alphabet`` (()): single characters always in the alphabet, both as word-initial
      symbols and as ``##`` continuations, even when absent from the corpus.
    - ``tie_break`` (``"ids"``): equal scores → smallest ``(left_id, right_id)``; ``"first_occurrence"``
      → the pair met first scanning the words in corpus order, left to right (the HF course).
    - ``progress``: ``progress(stage, done, total)`` callback; not serialized.

    >>> trainer = WordPieceTrainer(vocab_size=12, special_tokens=["[UNK]"], tie_break="first_occurrence", criterion="score")
    >>> model = trainer.train({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5})
    >>> list(model.get_vocab())[-4:]
    ['##gs', 'hu', 'hugs', 'hug']
    """

    class Params(Trainer.Params):
        vocab_size: StrictInt = Field(30000, ge=1)
        min_frequency: StrictInt = Field(0, ge=0)
        special_tokens: list[StrictStr] = list(DEFAULT_SPECIAL_TOKENS)
        continuing_subword_prefix: StrictStr = "##"
        limit_alphabet: StrictInt | None = Field(None, ge=0)
        initial_alphabet: list[StrictStr] = []
        tie_break: Literal["ids", "first_occurrence"] = "ids"
        criterion: Literal["likelihood", "score", "frequency"] = "score"

    positional = ("vocab_size",)

    def __init__(self, *args: Any, progress: ProgressCallback | None = None, **options: Any) -> None:
        super().__init__(*args, **options)
        if progress is not None and not callable(progress):
            raise ConfigError("WordPieceTrainer.progress must be a callable progress(stage, done, total)")
        self.progress = progress

    def _configure(self) -> None:
        where = type(self).__name__
        check_initial_alphabet(self.initial_alphabet, where=where)
        specials = self.special_tokens
        limits.check_trainer_options(
            self.vocab_size, specials, where=where, initial_alphabet=self.initial_alphabet,
            affixes=(self.continuing_subword_prefix,),
        )
        if len(set(specials)) != len(specials) or "" in specials:
            raise ConfigError(f"{where}.special_tokens: must be distinct non-empty strings, got {specials!r}")

    # -------------------------------------------------------------------------------- public API
    def train(self, word_counts: Mapping[str, int], *, model: Model | None = None) -> WordPiece:
        """Learn a vocabulary from ``word_counts`` and return a new :class:`WordPiece`.

        ``model`` (optional template): its ``unk_token`` and ``max_input_chars_per_word`` are kept
        when it is a :class:`WordPiece`.
        """
        unk_token = "[UNK]"
        max_chars = 100
        if isinstance(model, WordPiece):
            unk_token = model.unk_token
            max_chars = model.max_input_chars_per_word
        if unk_token not in self.special_tokens:
            raise TrainingError(
                f"WordPieceTrainer: the model's unk_token {unk_token!r} is not among special_tokens "
                f"{self.special_tokens!r}; add it (e.g. special_tokens=[..., {unk_token!r}])"
            )
        result = self.train_merges(word_counts)
        options = {
            "unk_token": unk_token,
            "continuing_subword_prefix": self.continuing_subword_prefix,
            "max_input_chars_per_word": max_chars,
            "special_tokens": self.special_tokens,
        }
        vocab = {t: i for i, t in enumerate(result.tokens)}
        return WordPiece._assemble(options, validate=False, where="WordPieceTrainer", vocab=vocab, check=False)  # type: ignore[no-any-return]

    def train_merges(self, word_counts: Mapping[str, int]) -> WordPieceTraining:
        """Run training and return the vocabulary *and* the merges in order (for inspection/tests).

        >>> t = WordPieceTrainer(vocab_size=10, special_tokens=[], tie_break="first_occurrence", criterion="score")
        >>> t.train_merges({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}).merges[:2]
        [('##g', '##s', '##gs'), ('h', '##u', 'hu')]
        """
        items = checked_word_counts(word_counts)
        with training_progress(self):
            if self.criterion == "frequency":
                return self._train_frequency(items)
            with gc_paused():
                return (_LikelihoodRun if self.criterion == "likelihood" else _Run)(self, items).run()

    def _train_frequency(self, items: list[tuple[str, int]]) -> WordPieceTraining:
        """Hugging Face's proxy: BPE by pair count over the same ``##`` splits, vocabulary kept."""
        from algorithms.bpe import BPETrainer

        trainer = BPETrainer(
            vocab_size=self.vocab_size, min_frequency=self.min_frequency, special_tokens=self.special_tokens,
            limit_alphabet=self.limit_alphabet, initial_alphabet=self.initial_alphabet,
            continuing_subword_prefix=self.continuing_subword_prefix, tie_break=self.tie_break,
        )
        try:
            bpe = trainer.train(dict(items))
        except TrainingError as e:  # vocab_size below the base vocabulary: WordPiece keeps the alphabet
            if "base vocabulary" not in str(e):
                raise
            trainer.vocab_size, trainer.min_frequency = limits.MAX_VOCAB_SIZE, 2**62
            bpe = trainer.train(dict(items))
        vocab = bpe.get_vocab()
        tokens = sorted(vocab, key=vocab.__getitem__)
        plen = len(self.continuing_subword_prefix)
        merges = [(a, b, a + b[plen:]) for a, b in bpe.merges]
        merged = {m[2] for m in merges}
        n_base = next((i for i, t in enumerate(tokens) if t in merged and i >= len(self.special_tokens)), len(tokens))
        return WordPieceTraining(tokens, merges, n_base)



def _segments(
    items: list[tuple[str, int]], alphabet: set[str], ids: Mapping[str, int], prefix: str
) -> tuple[list[list[int]], list[int], list[bool]]:
    """Words as segments of symbol ids (a character outside the alphabet ends a segment): the
    segments, the count of each, and whether each starts its word (its first symbol unprefixed)."""
    segs: list[list[int]] = []
    seg_counts: list[int] = []
    seg_initial: list[bool] = []
    for word, count in items:
        cur: list[int] = []
        start = 0
        for i, c in enumerate(word):
            if c in alphabet:
                cur.append(ids[c] if i == 0 else ids[prefix + c])
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
    """One training run: the merge loop over :class:`algorithms._merges._Splits` (kept out of the
    trainer, which is pure).

    The splits, pair counts and pair index are the BPE engine's (:mod:`algorithms._merges`): each
    segment is a ``str`` with one character per symbol (``chr(token id)``), and a pair is the
    2-character string of its symbols. "Words" there are *segments* here: each word cut at characters
    outside the alphabet, in corpus order, so ``(segment index, character offset)`` orders occurrences
    like a left-to-right scan of the corpus and merges never reorder them: that is the
    ``first_occurrence`` key. On top of them this class keeps:

    - ``freq`` — weighted count of each token as a symbol in the current splits;
    - ``pairs_of`` — token id → the pairs containing it (pairs that vanished are pruned lazily):
      after merging ``(a, b)`` into ``ab`` exactly the pairs containing ``a``, ``b`` or ``ab`` change
      score;
    - ``heap`` — one int per entry, ``score key << 42 | pair code`` (``"ids"``) or
      ``score key << 114 | first position | pair code`` (``"first_occurrence"``), where the score keys
      are *upper bounds* of the pairs' current scores and the first positions lower bounds of
      their current first occurrences; :meth:`_pop_best` checks them.

    Why bounds: a merge lowers ``freq(a)`` and ``freq(b)``, which *raises* the score of every pair
    containing them, and tokens such as ``##s`` sit in thousands of pairs, so rescoring all of them
    at every merge is the cost to avoid. Instead each token has a *bound frequency* ``g <= freq`` and heap keys use
    ``g``: a key stays an upper bound until ``freq`` drops below ``g``, and only then are the token's
    pairs re-pushed. Tokens in few pairs use ``g = freq`` (rescored at each change, which is cheap);
    tokens in more use ``g = freq - freq/32``, so they are rescored after their frequency fell by a
    32nd, not at every merge (same merges; a looser slack pulls too many candidates out of the heap
    at every step; the measurements are in docs/benchmarks.md, "Design measurements").
    """

    #: Tokens in more pairs than this get slack bound frequencies (see the class docstring).
    slack_degree = 4
    #: The slack: such a token's bound frequency is ``freq - freq >> slack_shift``.
    slack_shift = 5
    #: Outdated heap entries tolerated beyond 4 per live pair before the heap is rebuilt.
    heap_slack = 10_000

    def __init__(self, trainer: WordPieceTrainer, items: list[tuple[str, int]]) -> None:
        self.trainer = trainer
        self.prefix = prefix = trainer.continuing_subword_prefix
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
            if word[0] in alphabet:
                symbols.add(word[0])
            for c in word[1:]:
                if c in alphabet:
                    symbols.add(prefix + c)

        self.tokens: list[str] = list(trainer.special_tokens)
        self.ids: dict[str, int] = {t: i for i, t in enumerate(self.tokens)}
        for s in sorted(symbols):
            if s not in self.ids:  # a special token may coincide with a symbol
                self.ids[s] = len(self.tokens)
                self.tokens.append(s)
        self.n_base = len(self.tokens)
        self._check_id(self.n_base - 1)

        segs, seg_counts, seg_initial = _segments(items, alphabet, self.ids, prefix)
        super().__init__(segs, seg_counts, first_occurrence=trainer.tie_break == "first_occurrence")
        self.seg_initial = seg_initial
        # Characters of the original word a token covers when it continues a word: its length minus
        # the prefix. (A token's string alone does not say whether it starts the word: "##a" may be
        # the continuation "a" or a word that really starts with "##a"; see _position.)
        self.cont_len: list[int] = [len(t) - self.plen for t in self.tokens]

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
        #: N, the number of symbols in the current splits (weighted): merges only shrink it.
        self.total = sum(freq)
        self.shift = self._score_shift(self.total)
        #: first_occurrence only: pair → a lower bound of its first position (as a heap-key field).
        self.first: dict[str, int] = {}
        if self.first_occurrence:
            self.first = {p: self._position(p) for p in self.pair_counts}
        # Bound frequencies (see the class docstring): g[t] <= freq[t] always.
        self.g: list[int] = [0] * len(self.tokens)
        for t in range(len(self.tokens)):
            self._set_bound(t)
        self.heap: list[int] = []
        self._rebuild_heap()
        self.merges: list[tuple[str, str, str]] = []

    # ------------------------------------------------------------------ scoring
    @staticmethod
    def _score_shift(total: int) -> int:
        """Bits ``K`` such that ``-((count << K) // den)`` orders scores exactly, as one integer.

        Every token frequency is at most ``total`` (the weighted number of symbols, which merges
        only shrink), so ``den = freq(first) * freq(second) <= total**2``. Two different scores
        ``c1/d1 != c2/d2`` differ by at least ``1 / (d1 * d2) >= 1 / total**4``; scaled by
        ``2**K >= 2 * total**4`` they differ by more than 1, so their floors differ, while equal
        scores get equal floors. The heap thus compares plain ints — as fast as floats (which can
        round distinct scores together) and several times faster than ``Fraction`` or a
        cross-multiplying key object.
        """
        return 4 * max(1, total).bit_length() + 1

    @staticmethod
    def _check_id(token_id: int) -> None:
        if token_id > MAX_SYMBOL_ID:
            raise TrainingError(
                f"WordPieceTrainer: training supports at most {MAX_SYMBOL_ID + 1:,} tokens "
                "(special tokens, alphabet and merges); lower vocab_size"
            )

    def _position(self, p: str) -> int:
        """The first occurrence of ``p`` as the heap-key field ``segment << 74 | offset << 42``.

        The offset counts characters of the word before the pair's left symbol: unlike the position
        in the current split it never changes under merges, so fields computed at different steps
        stay comparable.
        """
        si, k = self._first_live(p)
        offset = sum(map(self.cont_len.__getitem__, map(ord, self.words[si][:k])))
        if k and self.seg_initial[si]:
            offset += self.plen  # the segment's first symbol starts the word: it has no prefix
        return si << _WORD_SHIFT | offset << _OFFSET_SHIFT

    def _set_bound(self, t: int) -> None:
        """Reset the bound frequency of ``t``; the caller re-pushes the pairs of ``t``."""
        f = self.freq[t]
        self.g[t] = f if len(self.pairs_of[t]) <= self.slack_degree else f - (f >> self.slack_shift)

    def _push_all(self, pairs: Iterable[str]) -> list[str]:
        """Push fresh bound entries for the live pairs among ``pairs``; return the vanished ones."""
        heap = self.heap
        get = self.pair_counts.get
        g = self.g
        min_count = self.min_count
        shift = self.shift
        push = heapq.heappush
        vanished: list[str] = []
        # Smallest key = highest score (heapq is a min-heap); see _score_shift. Two loops, so that the
        # common "ids" case tests nothing else per pair.
        if self.first_occurrence:
            first = self.first
            for p in pairs:
                count = get(p, 0)
                if count >= min_count:
                    x, y = ord(p[0]), ord(p[1])
                    score = -((count << shift) // (g[x] * g[y]))
                    push(heap, score << _COUNT_SHIFT_FIRST | first[p] | x << _ID_BITS | y)
                elif not count:
                    vanished.append(p)
        else:
            for p in pairs:
                count = get(p, 0)
                if count >= min_count:
                    x, y = ord(p[0]), ord(p[1])
                    push(heap, -((count << shift) // (g[x] * g[y])) << _PAIR_BITS | x << _ID_BITS | y)
                elif not count:
                    vanished.append(p)
        return vanished

    def _rebuild_heap(self) -> None:
        self.heap = []
        self._push_all(self.pair_counts)
        heapq.heapify(self.heap)

    def _pop_best(self) -> tuple[str, Iterable[str]] | None:
        """The live pair with the best ``(score, tie key)``, found through the bound keys.

        Heap keys are upper bounds of the scores (and tie keys lower bounds), so pop entries, compute
        their exact keys, and stop once the heap's smallest entry cannot beat the best exact key
        found: nothing left in the heap can. Returns the pair and the other live pairs popped, which
        :meth:`_merge` pushes back together with the pairs it rescores.
        """
        heap = self.heap
        pair_counts = self.pair_counts
        freq = self.freq
        banned = self.banned
        fo = self.first_occurrence
        shift = self.shift
        min_count = self.min_count
        cont_len = self.cont_len
        max_len = limits.MAX_TOKEN_LENGTH - self.plen
        pop = heapq.heappop
        best: int | None = None
        seen: dict[int, str] = {}
        while heap:
            if best is not None and heap[0] >= best:
                break
            code = pop(heap) & _PAIR_MASK
            if code in seen:
                continue
            p = chr(code >> _ID_BITS) + chr(code & _ID_MASK)
            count = pair_counts.get(p, 0)
            if count < min_count or p in banned:
                continue  # merged away (or below min_frequency): its entries are outdated
            x, y = code >> _ID_BITS, code & _ID_MASK
            if cont_len[x] + cont_len[y] > max_len:
                banned.add(p)  # never merged: the token would exceed toolkit.limits.MAX_TOKEN_LENGTH
                continue
            seen[code] = p
            score = -((count << shift) // (freq[x] * freq[y]))
            if fo:
                self.first[p] = position = self._position(p)
                exact = score << _COUNT_SHIFT_FIRST | position | code
            else:
                exact = score << _PAIR_BITS | code
            if best is None or exact < best:
                best = exact
        if best is None:
            return None
        p = seen.pop(best & _PAIR_MASK)
        return p, seen.values()

    # ------------------------------------------------------------------ merging
    def _merge(self, ab: str, popped: Iterable[str]) -> None:
        a, b = ord(ab[0]), ord(ab[1])
        tokens = self.tokens
        new_str = tokens[a] + tokens[b][self.plen :]
        new = self.ids.get(new_str)
        if new is None:
            new = len(tokens)
            self._check_id(new)
            tokens.append(new_str)
            self.ids[new_str] = new
            self.cont_len.append(len(new_str) - self.plen)
            self.freq.append(0)
            self.g.append(0)
            self.pairs_of.append(set())
        self.merges.append((tokens[a], tokens[b], new_str))

        if a != b:
            merged = self.pair_counts[ab]  # occurrences of "a b" cannot overlap: each one merges
        else:
            # "a a a" counts the pair twice but merges once: count what str.replace will rewrite.
            words = self.words
            counts = self.counts
            merged = sum(counts[si] * words[si].count(ab) for si in set(self.where[ab]))
        formed = self._apply(ab, chr(new))
        self._record_formed(formed)
        freq = self.freq
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
        # The scores of the pairs containing a, b or the new token changed with their frequencies. A
        # lower frequency raises the scores: once freq falls below the bound frequency the pairs'
        # heap keys are no longer upper bounds, so they are re-pushed with a new bound. Formed pairs
        # (which all contain the new token) are counted higher than their heap keys say: re-pushed
        # too, by the new token's rescoring or on their own, with the pairs _pop_best popped and did
        # not choose.
        g = self.g
        reset = [t for t in {a, b, new} if freq[t] < g[t] or not g[t]]
        for t in reset:
            self._set_bound(t)
        for t in reset:  # after every reset: a pair may contain two of these tokens
            pairs = pairs_of[t]
            vanished = self._push_all(pairs)
            if vanished:
                pairs.difference_update(vanished)
        self._push_all(popped if new in reset else [*popped, *formed])
        # Outdated entries pile up; rebuild once they dominate so the heap stays O(live pairs).
        if len(self.heap) > 4 * len(self.pair_counts) + self.heap_slack:
            self._rebuild_heap()

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


class _LikelihoodRun(_Run):
    """The merge loop with the likelihood gain (Schuster & Nakajima) in place of the course score.

    Heap entries are ``(-upper bound of the gain, tie key)``; :meth:`_pop_best` verifies them like
    the score mode. The bound holds while nothing is re-pushed because (docs/algorithms.md):
    the gain falls as ``f_a``, ``f_b`` grow, so bound frequencies ``g <= f`` (raised to ``m``, or
    ``2m`` when ``a == b``) overestimate it; it grows with ``N``, which only falls; and it is
    convex in ``m`` and 0 at ``m = 0``, so ``max(0, gain at the pushed count)`` bounds it for every
    lower count (counts fall lazily, without a push). For ``a == b`` the pushed count is
    the merged count (runs ``a a a`` merge once per two), which never grows without a push either.
    """

    #: The gain moves little with f_a (by about m / f_a per unit), so a looser slack than the score
    #: mode's re-pushes less: f >> 3 measured 1.35x faster than f >> 5 and 1.65x faster than f >> 2.
    slack_shift = 3

    def _bound(self, x: int, y: int, count: int) -> float:
        g = self.g
        total = self.total
        if x == y:  # the merged count, not the overlapping count, which can exceed freq / 2
            count = self._merged_count(chr(x) * 2)
            hi = likelihood_gain(max(g[x], 2 * count), 0, count, total, True)
        else:
            hi = likelihood_gain(max(g[x], count), max(g[y], count), count, total, False)
        # Convex in m with gain 0 at m = 0: every smaller count gains at most max(0, hi). The margin
        # covers float rounding: each term is off by < 1 ulp of N log N at most.
        return max(hi, 0.0) + 1e-12 * (_xlogx(total) + 1.0)

    def _merged_count(self, p: str) -> int:
        if p[0] != p[1]:
            return self.pair_counts[p]  # occurrences of "a b" cannot overlap: each one merges
        words = self.words
        counts = self.counts
        return sum(counts[si] * words[si].count(p) for si in set(self.where[p]))

    def _push_all(self, pairs: Iterable[str]) -> list[str]:
        heap = self.heap
        get = self.pair_counts.get
        min_count = self.min_count
        push = heapq.heappush
        first = self.first if self.first_occurrence else None
        vanished: list[str] = []
        for p in pairs:
            count = get(p, 0)
            if count >= min_count:
                x, y = ord(p[0]), ord(p[1])
                code = x << _ID_BITS | y
                push(heap, (-self._bound(x, y, count), code if first is None else first[p] | code))
            elif not count:
                vanished.append(p)
        return vanished

    def _pop_best(self) -> tuple[str, Iterable[str]] | None:
        heap = self.heap
        pair_counts = self.pair_counts
        freq = self.freq
        banned = self.banned
        fo = self.first_occurrence
        min_count = self.min_count
        cont_len = self.cont_len
        max_len = limits.MAX_TOKEN_LENGTH - self.plen
        pop = heapq.heappop
        best: tuple[float, int] | None = None
        seen: dict[int, str] = {}
        while heap:
            if best is not None and heap[0] >= best:
                break
            code = pop(heap)[1] & _PAIR_MASK
            if code in seen:
                continue
            p = chr(code >> _ID_BITS) + chr(code & _ID_MASK)
            count = pair_counts.get(p, 0)
            if count < min_count or p in banned:
                continue  # merged away (or below min_frequency): its entries are outdated
            x, y = code >> _ID_BITS, code & _ID_MASK
            if cont_len[x] + cont_len[y] > max_len:
                banned.add(p)  # never merged: the token would exceed toolkit.limits.MAX_TOKEN_LENGTH
                continue
            seen[code] = p
            gain = likelihood_gain(freq[x], freq[y], self._merged_count(p), self.total, x == y)
            if fo:
                self.first[p] = position = self._position(p)
                exact = (-gain, position | code)
            else:
                exact = (-gain, code)
            if best is None or exact < best:
                best = exact
        if best is None:
            return None
        p = seen.pop(best[1] & _PAIR_MASK)
        return p, seen.values()
