"""UnigramTrainer: SentencePiece's Unigram training as a pure function of word counts.

0. **Long words**: a word longer than ``max_sentence_length`` UTF-8 bytes (4192) is left out of
   training, with a warning, as SentencePiece leaves out longer sentences.
1. **Required characters**: the characters of the words, most frequent first, until their share of
   all character occurrences reaches ``character_coverage`` (1.0: all), plus ``initial_alphabet``.
2. **Seed**: the required characters (score: their count) and the substrings of 2 to
   ``max_piece_length`` characters that occur at least twice in the text (score: distinct words
   holding them x length) and keep SentencePiece's rules on pieces when asked (``split_by_unicode_script``...),
   the best ``seed_size``; scores become log-probabilities. The substrings are found by walking the
   sorted suffixes of the words (cut to ``max_piece_length``) as a trie: memory linear in the text.
3. **EM**, ``n_sub_iterations`` times per round: the E-step adds every piece's expected count over
   the lattice of each word (forward-backward); the M-step drops pieces expected fewer than 0.5 times
   and sets ``score = digamma(count) - digamma(total)`` (SentencePiece's Bayesian update).
4. **Pruning**, while more than ``1.1 x vocab_size`` pieces remain: a piece whose best segmentation
   without it scores higher is dropped; the others are ranked by the likelihood lost when their
   Viterbi uses go to that alternative, and the best ``shrinking_factor`` share (at least
   ``1.1 x vocab_size``) is kept.
5. **Final vocabulary**: ``unk_token`` (id 0 unless it is a special token), ``special_tokens``, the
   required characters, then the highest-scored pieces up to ``vocab_size``, sorted by score.

The slow, readable twin is :mod:`algorithms.reference.unigram` (the test oracle).

>>> model = UnigramTrainer(vocab_size=20, unk_token="<unk>", show_progress=False).train(
...     {"▁low": 5, "▁lower": 2, "▁newest": 6, "▁widest": 3})
>>> model.vocab[0], [model.id_to_token(i) for i in model.encode_piece("▁lowest")]
(('<unk>', 0.0), ['▁low', 'e', 's', 't'])
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Collection, Mapping
from itertools import chain, compress

from pydantic import Field, StrictBool, StrictInt

from algorithms._lattice import Table, build_table, edges, viterbi
from algorithms._vocab import check_initial_alphabet, checked_word_counts
from algorithms.unigram import UNK_PENALTY, Unigram
from toolkit import limits
from toolkit.errors import ConfigError, TrainingError
from toolkit.interfaces import Model, Params, Trainer
from toolkit.progress import active_progress, training_progress
from toolkit.registry import register
from toolkit.unicode_scripts import ANY, SCRIPT_NAMES, script_of

__all__ = ["PieceRules", "UnigramTrainer", "digamma", "required_characters", "seed_pieces", "suffix_counts"]

Pieces = list[tuple[str, float]]
#: Pieces expected fewer times than this are dropped by the M-step (SentencePiece's threshold).
EXPECTED_FREQUENCY_THRESHOLD = 0.5
#: What the M-step compares with: the threshold less a margin for rounding. A piece expected exactly
#: 0.5 times (a word seen twice, split two equally likely ways) comes out as 0.5 or as
#: 0.49999999999999994 depending on the order of the sums, and must be kept either way.
KEEP_FROM = EXPECTED_FREQUENCY_THRESHOLD - 1e-9
#: Words longer than this (characters) take the log-space forward-backward (no underflow).
_PROB_SPACE_MAX = 48
#: Most suffixes :func:`suffix_counts` holds at once; past it the least frequent go. There is one per
#: position of a distinct word at most, so only text whose words rarely repeat reaches it (sizes:
#: docs/benchmarks.md, "Design measurements"). Read at call time: raise it to count exactly on more.
SEED_BUDGET = 4_000_000
#: Most positions counted between two checks of the budget.
_SEED_CHUNK = 1 << 16


def digamma(x: float) -> float:
    """SentencePiece's digamma: recurrence up to 7, then the asymptotic series.

    >>> round(digamma(1.0), 6)   # -Euler's gamma
    -0.577216
    """
    result = 0.0
    while x < 7:
        result -= 1 / x
        x += 1
    x -= 0.5
    xx = 1.0 / x
    xx2 = xx * xx
    xx4 = xx2 * xx2
    return result + math.log(x) + xx2 / 24.0 - 7.0 / 960.0 * xx4 + 31.0 / 8064.0 * xx4 * xx2 - 127.0 / 30720.0 * xx4 * xx4


def required_characters(items: list[tuple[str, int]], coverage: float, initial: list[str]) -> dict[str, int]:
    """Character -> count of the characters every vocabulary keeps (most frequent first, ties by code point)."""
    counts: dict[str, int] = {}
    get = counts.get
    for word, count in items:
        for c in word:
            counts[c] = get(c, 0) + count
    total = sum(counts.values())
    required: dict[str, int] = {}
    accumulated = 0
    for c, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        if accumulated >= coverage * total:
            break
        accumulated += n
        required[c] = n
    for c in initial:
        required.setdefault(c, counts.get(c, 0))
    return required


def suffix_counts(
    items: list[tuple[str, int]], required: Mapping[str, int], max_len: int, budget: int | None = None,
) -> tuple[dict[str, int], int, bool]:
    """Every suffix of every word cut to ``max_len`` characters (and before the first character not in
    ``required``), of 2 characters or more, with ``count x scale + 1`` summed over its positions.

    Returns the counts, ``scale`` (more than the number of positions, so a sum packs the occurrences in
    the text, weighted by word count, as ``value // scale``, and the positions in distinct words as
    ``value % scale``) and whether the budget was reached. There is one entry per position at most,
    linear in the text (the substrings are the prefixes of these keys; :func:`seed_pieces` walks them
    as a trie). The dict never holds more than ``budget`` entries (default :data:`SEED_BUDGET`, read
    at call time): when the next positions could overflow it, the entries of the lowest counts are
    dropped first, down to half of it at least (lossy counting), so that memory stays bounded on text
    whose words never repeat.

    >>> counts, scale, full = suffix_counts([("abab", 2)], {"a": 4, "b": 4}, 3)
    >>> {k: divmod(v, scale) for k, v in counts.items()}, full
    ({'aba': (2, 1), 'bab': (2, 1), 'ab': (2, 1)}, False)
    """
    budget = max(2, SEED_BUDGET if budget is None else budget)
    scale = 1 + sum(len(word) for word, _ in items)
    counts: dict[str, int] = {}
    if max_len < 2:
        return counts, scale, False
    get = counts.get
    pruned = False
    chunk = max(1, min(_SEED_CHUNK, budget // 2))  # positions counted between two checks of the budget
    for word, count in items:
        n = len(word)
        value = count * scale + 1
        spans: list[tuple[int, int]] | None = None  # None: every position, cut at max_len only
        if not all(c in required for c in word):  # substrings stop before a character outside ``required``
            spans = []
            run = n  # the first position after s of a character outside ``required`` (or n)
            for s in range(n - 1, -1, -1):
                if word[s] not in required:
                    run = s
                elif run - s >= 2:
                    spans.append((s, min(run, s + max_len)))
        total = n - 1 if spans is None else len(spans)
        for first in range(0, total, chunk):
            last = min(first + chunk, total)
            if len(counts) + last - first > budget:  # room for the chunk's new keys first
                _drop_lowest(counts, budget - chunk)
                pruned = True
            if spans is None:
                for s in range(first, last):
                    key = word[s:s + max_len]
                    counts[key] = get(key, 0) + value
            else:
                for s, e in spans[first:last]:
                    key = word[s:e]
                    counts[key] = get(key, 0) + value
    return counts, scale, pruned


def _plural(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def _drop_lowest(counts: dict[str, int], keep: int) -> None:
    """Drop the entries of the lowest values until at most ``keep`` are left (ties go together)."""
    values = sorted(counts.values(), reverse=True)
    floor = values[keep] if keep < len(values) else -1
    for key in [k for k, v in counts.items() if v <= floor]:
        del counts[key]


def seed_pieces(
    items: list[tuple[str, int]], required: Mapping[str, int], max_len: int, seed_size: int,
    *, piece_rules: PieceRules | None = None,
) -> Pieces:
    """The seed vocabulary: required characters by count, then substrings by distinct words x length.

    A substring is a candidate when it occurs at least twice in the text (occurrences weighted by word
    count, as SentencePiece's suffix array over the sentences counts them: a whole word that never
    occurs inside another word is one) and branches on the right (below). Its score counts it once per
    distinct word it occurs in, as Hugging Face does (weighting the score by word count favours whole
    frequent words and trains a less likely model). With ``piece_rules``, candidates that break them
    (:meth:`PieceRules.is_valid`) are then left out, as SentencePiece filters its suffix-tree nodes.

    The substrings are not listed one by one (a word of ``n`` characters holds about ``n x max_len`` of
    them): the suffixes of :func:`suffix_counts`, sorted, are the leaves of the trie of the substrings,
    whose nodes are walked bottom-up with a stack (as an LCP-interval walk of a suffix array). A node
    that is no key and has a single child always continues with the same character and is left to its
    longer form, as the internal nodes of SentencePiece's suffix tree; the others are the candidates.
    """
    counts, scale, pruned = suffix_counts(items, required, max_len)
    if pruned:
        warnings.warn(
            f"UnigramTrainer: the words hold more than {SEED_BUDGET:,} distinct suffixes of up to {max_len} "
            "characters (algorithms.unigram_trainer.SEED_BUDGET), so the least frequent were dropped while "
            "counting and the seed pieces are approximate; such a text is mostly words that never repeat "
            "(hashes, encoded data): clean it, or raise SEED_BUDGET (about 150 bytes of memory each)",
            stacklevel=3,
        )
    valid = piece_rules.is_valid if piece_rules is not None else None
    candidates: list[tuple[str, int]] = []
    add = candidates.append
    depths = [0]  # the open nodes of the trie (prefixes of the previous key), by length
    sums = [0]  # the packed counts of the keys seen under each
    previous = ""
    for key in chain(sorted(counts), [""]):  # "" closes every node
        limit = min(len(previous), len(key))
        common = 0
        while common < limit and previous[common] == key[common]:
            common += 1
        carry = 0
        while depths[-1] > common:  # the nodes below the common prefix are complete
            depth = depths.pop()
            carry += sums.pop()
            if carry >= 2 * scale and depth >= 2:
                sub = previous[:depth]
                if valid is None or valid(sub):
                    add((sub, carry % scale * depth))
        if depths[-1] < common:  # a node where the previous key and this one part
            depths.append(common)
            sums.append(carry)
        else:
            sums[-1] += carry
        depths.append(len(key))
        sums.append(counts.get(key, 0))
        previous = key
    del counts
    chars = sorted(((c, n) for c, n in required.items() if n > 0), key=lambda kv: (-kv[1], kv[0]))
    candidates.sort(key=lambda kv: (-kv[1], kv[0]))
    seeds = chars + candidates[: max(0, seed_size - len(chars))]
    log_total = math.log(sum(score for _, score in seeds))
    return [(piece, math.log(score) - log_total) for piece, score in seeds]


#: The whitespace mark SentencePiece's rules skip (it never changes a piece's script).
_WS_MARK = "\u2581"
#: Scripts of the toolkit's table (HF's) that SentencePiece's table does not list: Common there, as
#: every code point its table leaves out.
_SPM_UNLISTED = frozenset({"Anatolian_Hieroglyphs", "Egyptian_Hieroglyphs", "Inscriptional_Pahlavi",
                           "Inscriptional_Parthian", "Meroitic_Hieroglyphs"})


def _is_decimal_digit(c: str) -> bool:
    """SentencePiece's ``is_unicode_decimal_number``: ASCII and fullwidth digits only."""
    return "0" <= c <= "9" or "\uff10" <= c <= "\uff19"


class PieceRules:
    """SentencePiece's rules on which pieces a training may keep (``IsValidSentencePiece``), by their
    option names: ``split_by_unicode_script`` (no piece mixes two scripts; Hiragana and Katakana count
    as Han, a combining mark takes the script before it, a character of no script counts as
    ``Common``), ``split_by_number`` (decimal digits are a script of their own, ``Common``; off: they
    go with any script and reset the script of what follows) and ``split_digits`` (a digit is a piece
    alone). ``▁`` is skipped: where it may go is the pre-tokenizer's choice (``Metaspace``).

    >>> rules = PieceRules(split_by_unicode_script=True)
    >>> [rules.is_valid(p) for p in ("▁word", "word.", "日本語です", "é", "a1", "10%")]
    [True, False, True, True, False, True]
    """

    _ANY = None  # a digit without split_by_number: joins any script

    def __init__(self, *, split_by_unicode_script: bool = False, split_by_number: bool = True,
                 split_digits: bool = False) -> None:
        self.by_script = split_by_unicode_script
        self.by_number = split_by_number
        self.digits = split_digits
        self._scripts: dict[str, object] = {}

    @property
    def active(self) -> bool:
        """Whether the rules refuse any piece at all."""
        return self.by_script or self.digits

    def _script(self, c: str) -> object:
        """The script SentencePiece compares for ``c``; ``"Inherited"`` for a combining mark."""
        s = self._scripts.get(c)
        if s is None:
            index = script_of(c)
            name = "Common" if index == ANY else SCRIPT_NAMES[index]  # HF's table folds kana into Han
            s = self._scripts[c] = "Common" if name in _SPM_UNLISTED else name
        return s

    def is_valid(self, piece: str) -> bool:
        """Whether ``piece`` keeps the rules: SentencePiece's check, char by char."""
        prev: object = self._ANY
        for c in piece:
            if c == _WS_MARK:
                continue
            s = self._script(c)
            if s == "Inherited":
                s = prev
            if _is_decimal_digit(c):
                if not self.by_number:
                    s = self._ANY
                if self.digits and len(piece) > 1:
                    return False
            if self.by_script and s is not self._ANY and prev is not self._ANY and s != prev:
                return False
            prev = s
        return True


class Lattices:
    """The lattice of every word over the seed vocabulary, built once; a piece is removed by zeroing
    it (pieces are only ever removed), so each EM step and pruning round only walks the edges.

    The edges of all words are flat parallel lists (``starts``, ``ends``, ``index``: global positions
    and seed index, ``-1`` for a character outside the seed), sorted by start within each word and
    words one after another, so a forward pass is one loop over the corpus and a backward pass the same
    loop reversed. A dead one-character piece scores as the unknown character it has become; dead
    longer pieces are dropped from the lists after each change (:meth:`set_pieces`).
    Words longer than ``_PROB_SPACE_MAX`` characters keep their rows apart and take log space.
    """

    def __init__(self, seeds: Pieces, items: list[tuple[str, int]]) -> None:
        self.seeds = seeds
        self.alive = [True] * len(seeds)
        self.scores = [s for _, s in seeds]
        self.single = [len(p) == 1 for p, _ in seeds]
        table = build_table([(p, 0.0) for p, _ in seeds])
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.index: list[int] = []
        self.bounds: list[tuple[int, int, int]] = []  # per short word: (first position, last position, count)
        self.long: list[tuple[int, list[list[tuple[int, int]]], int]] = []
        pos = 0
        for word, count in items:
            n = len(word)
            rows = edges(table, word, 0.0)
            if n > _PROB_SPACE_MAX:
                self.long.append((n, [[(e, -1 if i is None else i) for e, i, _ in row] for row in rows], count))
                continue
            for s, row in enumerate(rows):
                for e, i, _ in row:
                    self.starts.append(pos + s)
                    self.ends.append(pos + e)
                    self.index.append(-1 if i is None else i)
            self.bounds.append((pos, pos + n, count))
            pos += n + 1
        self.size = pos

    @property
    def pieces(self) -> Pieces:
        return [(p, s) for (p, _), s, ok in zip(self.seeds, self.scores, self.alive) if ok]

    def set_pieces(self, pieces: Pieces) -> None:
        """Make ``pieces`` (a subsequence of the live pieces, in order) the live vocabulary."""
        new = dict(pieces)
        for i, (p, _) in enumerate(self.seeds):
            if self.alive[i]:
                if p in new:
                    self.scores[i] = new[p]
                else:
                    self.alive[i] = False
        keep = [ok or one for ok, one in zip(self.alive, self.single)]
        keep.append(True)  # index -1
        flags = list(map(keep.__getitem__, self.index))
        if not all(flags):
            self.starts = list(compress(self.starts, flags))
            self.ends = list(compress(self.ends, flags))
            self.index = list(compress(self.index, flags))

    def _unk_score(self) -> float:
        return min(s for s, ok in zip(self.scores, self.alive) if ok) - UNK_PENALTY

    def _weights(self, *, log: bool) -> list[float]:
        """Per seed index (and -1 last): the edge weight; dead pieces weigh nothing (or as unknown)."""
        unk = self._unk_score()
        off = -math.inf if log else 0.0
        out = [
            (s if log else math.exp(s)) if ok else ((unk if log else math.exp(unk)) if one else off)
            for s, ok, one in zip(self.scores, self.alive, self.single)
        ]
        out.append(unk if log else math.exp(unk))
        return out

    def e_step(self) -> tuple[list[float], float]:
        """Expected count of every live piece (in :attr:`pieces` order) and the corpus log-likelihood."""
        weight = self._weights(log=False)
        expected = [0.0] * (len(self.seeds) + 1)
        starts, ends, index = self.starts, self.ends, self.index
        ws = list(map(weight.__getitem__, index))
        fwd = [0.0] * self.size
        for first, _, _ in self.bounds:
            fwd[first] = 1.0
        for s, e, w in zip(starts, ends, ws):
            fwd[e] += fwd[s] * w
        bwd = [0.0] * self.size
        likelihood = 0.0
        log_words = []
        for first, last, count in self.bounds:
            z = fwd[last]
            bwd[last] = 1.0
            if z < 1e-250:  # underflow: this word in log space, its edges here weigh nothing
                log_words.append((first, last, count))
                scale = 0.0
            else:
                likelihood += count * math.log(z)
                scale = count / z
            for k in range(first, last):
                fwd[k] *= scale
        # Backwards, bwd[e] is complete when an edge ending at e is met: the backward pass and the
        # expected counts share one loop.
        for s, e, w, i in zip(reversed(starts), reversed(ends), reversed(ws), reversed(index)):
            we = w * bwd[e]
            bwd[s] += we
            expected[i] += fwd[s] * we
        log_weight = self._weights(log=True)
        for n, rows, count in self.long:
            log_z = _scaled_marginals(n, rows, count, weight, log_weight, expected)
            if log_z is None:  # the scaled sums left the float range: log space
                log_z = _log_marginals(n, rows, count, log_weight, expected)
            likelihood += count * log_z
        for n, rows, count in [self._rows(*b) for b in log_words]:
            likelihood += count * _log_marginals(n, rows, count, log_weight, expected)
        return [x for x, ok in zip(expected, self.alive) if ok], likelihood

    def _rows(self, first: int, last: int, count: int) -> tuple[int, list[list[tuple[int, int]]], int]:
        rows: list[list[tuple[int, int]]] = [[] for _ in range(last - first)]
        for s, e, i in zip(self.starts, self.ends, self.index):
            if first <= s < last:
                rows[s - first].append((e - first, i))
        return last - first, rows, count

    def viterbi_counts(self) -> tuple[list[float], float]:
        """Per seed index, the count of words' Viterbi uses; and the total word count."""
        weight = self._weights(log=True)
        best = [0.0] * self.size
        back = [-1] * self.size
        back_id = [0] * self.size
        for s, e, i in zip(self.starts, self.ends, self.index):
            cand = weight[i] + best[s]
            if back[e] < 0 or cand > best[e]:
                best[e] = cand
                back[e] = s
                back_id[e] = i
        freq = [0.0] * (len(self.seeds) + 1)
        total_words = 0.0
        alive = self.alive
        for first, last, count in self.bounds:
            total_words += count
            e = last
            while e > first:
                i = back_id[e]
                if i >= 0 and alive[i]:
                    freq[i] += count
                e = back[e]
        for n, rows, count in self.long:
            total_words += count
            for i in _viterbi_rows(n, rows, weight):
                if i >= 0 and alive[i]:
                    freq[i] += count
        return freq, total_words


def _viterbi_rows(n: int, rows: list[list[tuple[int, int]]], weight: list[float]) -> list[int]:
    best = [0.0] * (n + 1)
    back = [-1] * (n + 1)
    back_id = [0] * (n + 1)
    for s in range(n):
        for e, i in rows[s]:
            cand = weight[i] + best[s]
            if back[e] < 0 or cand > best[e]:
                best[e], back[e], back_id[e] = cand, s, i
    out = []
    e = n
    while e > 0:
        out.append(back_id[e])
        e = back[e]
    return out


def _scaled_marginals(
    n: int, rows: list[list[tuple[int, int]]], count: int, weight: list[float], log_weight: list[float],
    expected: list[float],
) -> float | None:
    """Forward-backward of a long word in probability space, each edge weighted ``K ** length``.

    Every segmentation covers all ``n`` characters, so the factor multiplies every path by ``K ** n``:
    the posteriors do not change, and ``K = exp(-best / n)`` (``best``: the Viterbi score) keeps the
    sums near 1 where the plain products would underflow. Adds to ``expected`` and returns ``log Z``,
    or ``None`` (nothing added) when the sums still leave the float range.
    """
    best = [-math.inf] * (n + 1)
    best[0] = 0.0
    longest = 1
    for s in range(n):
        b = best[s]
        for e, i in rows[s]:
            c = b + log_weight[i]
            if c > best[e]:
                best[e] = c
            if e - s > longest:
                longest = e - s
    rate = best[n] / n
    if -rate * longest > 700:  # K ** longest would leave the float range (math.exp overflows near 709.8)
        return None
    power = [math.exp(-rate * k) for k in range(longest + 1)]
    fwd = [0.0] * (n + 1)
    fwd[0] = 1.0
    for s in range(n):
        a = fwd[s]
        for e, i in rows[s]:
            fwd[e] += a * weight[i] * power[e - s]
    z = fwd[n]
    if not 1e-250 < z < 1e250:
        return None
    bwd = [0.0] * (n + 1)
    bwd[n] = 1.0
    for s in range(n - 1, -1, -1):
        b = 0.0
        for e, i in rows[s]:
            b += weight[i] * power[e - s] * bwd[e]
        bwd[s] = b
    scale = count / z
    for s in range(n):
        a = fwd[s] * scale
        for e, i in rows[s]:
            expected[i] += a * weight[i] * power[e - s] * bwd[e]
    return math.log(z) + n * rate


def _log_marginals(
    n: int, rows: list[list[tuple[int, int]]], count: int, weight: list[float], expected: list[float]
) -> float:
    """Forward-backward of one word in log space; adds to ``expected``, returns ``log Z``."""
    fwd = [-math.inf] * (n + 1)
    fwd[0] = 0.0
    for s in range(n):
        for e, i in rows[s]:
            fwd[e] = _logaddexp(fwd[e], fwd[s] + weight[i])
    bwd = [-math.inf] * (n + 1)
    bwd[n] = 0.0
    for s in range(n - 1, -1, -1):
        for e, i in rows[s]:
            bwd[s] = _logaddexp(bwd[s], weight[i] + bwd[e])
    z = fwd[n]
    for s in range(n):
        for e, i in rows[s]:
            if weight[i] > -math.inf:
                expected[i] += count * math.exp(fwd[s] + weight[i] + bwd[e] - z)
    return z


def _logaddexp(a: float, b: float) -> float:
    if a == -math.inf:
        return b
    if b == -math.inf:
        return a
    if a < b:
        a, b = b, a
    return a + math.log1p(math.exp(b - a))


def m_step(pieces: Pieces, expected: list[float]) -> Pieces:
    """Drop pieces expected fewer than 0.5 times; ``score = digamma(count) - digamma(total)``."""
    kept = [(p, x) for (p, _), x in zip(pieces, expected) if x >= KEEP_FROM]
    if not kept:
        raise TrainingError("UnigramTrainer: every piece fell below the expected-frequency threshold (corpus too small)")
    log_total = digamma(sum(x for _, x in kept))
    return [(p, digamma(x) - log_total) for p, x in kept]


#: What :func:`_alternatives` gives a piece that is never its own best segmentation (compared by
#: identity: a piece whose best segmentation without it is all unknown characters has an empty list).
_REMOVABLE: list[str] = []


def _alternatives(pieces: Pieces, table: Table, unk_score: float) -> list[list[str] | None]:
    """Per piece: ``None`` to keep it always, :data:`_REMOVABLE` when it is never its own best
    segmentation, else the known pieces of its best segmentation without it."""
    out: list[list[str] | None] = []
    for i, (piece, score) in enumerate(pieces):
        if len(piece) == 1:
            out.append(None)
            continue
        table[piece] = False  # the lattice of the piece without the piece itself (still a prefix of others)
        path = viterbi(table, piece, unk_score)
        table[piece] = (i, score)
        alt = 0.0
        for s, e, t in path:
            alt += table[piece[s:e]][1] if t is not None else unk_score  # type: ignore[index]
        out.append(_REMOVABLE if alt > score else [piece[s:e] for s, e, t in path if t is not None])
    return out


def prune(lattices: Lattices, desired: int, shrinking_factor: float) -> Pieces:
    """One pruning round: keep ``max(desired, shrinking_factor x size)`` pieces, those whose removal
    loses the most likelihood (SentencePiece's ``PruneSentencePieces``)."""
    pieces = lattices.pieces
    unk_score = lattices._unk_score()
    alternatives = _alternatives(pieces, build_table(pieces), unk_score)
    seed_freq, total_words = lattices.viterbi_counts()
    freq = [f for f, ok in zip(seed_freq, lattices.alive) if ok]
    index = {p: i for i, (p, _) in enumerate(pieces)}
    total = sum(freq)
    log_total = math.log(total)
    kept: list[int] = []
    candidates: list[tuple[float, int]] = []
    for i, alt in enumerate(alternatives):
        if freq[i] == 0 or alt is _REMOVABLE:
            continue
        if alt is None:
            kept.append(i)
            continue
        # the share of words whose Viterbi uses piece i (a word counts once per use)
        share = freq[i] / total_words
        logprob = math.log(freq[i]) - log_total
        log_total_alt = math.log(total + freq[i] * (len(alt) - 1))
        logprob_alt = 0.0
        for p in alt:
            logprob_alt += math.log(freq[index[p]] + freq[i]) - log_total_alt
        candidates.append((share * (logprob - logprob_alt), i))
    size = max(desired, int(shrinking_factor * len(pieces)))
    candidates.sort(key=lambda c: (-c[0], c[1]))
    kept += [i for _, i in candidates[: max(0, size - len(kept))]]
    return [pieces[i] for i in sorted(kept)]


def finalize(pieces: Pieces, required: Mapping[str, int], size: int, taken: Collection[str] = ()) -> Pieces:
    """Required characters (missing ones just under the lowest score), then the best pieces; sorted.
    Pieces in ``taken`` (the special tokens, already in the vocabulary) are left out and do not count."""
    scores = dict(pieces)
    low = min(scores.values())
    final: dict[str, float] = {}
    penalty = 0.0
    for c, _ in sorted(required.items(), key=lambda kv: (-kv[1], kv[0])):
        if c in taken:
            continue
        if c in scores:
            final[c] = scores[c]
        else:
            final[c] = low + penalty
            penalty += 0.0001
    for piece, score in sorted(pieces, key=lambda ps: (-ps[1], ps[0])):
        if len(final) >= size:
            break
        if piece not in taken:
            final.setdefault(piece, score)
    return sorted(final.items(), key=lambda ps: (-ps[1], ps[0]))


@register("UnigramTrainer")
class UnigramTrainer(Trainer):
    """Learns a :class:`~algorithms.unigram.Unigram` model from word counts (SentencePiece's algorithm).

    Options with Hugging Face ``UnigramTrainer``'s names and defaults: ``vocab_size`` (8000),
    ``show_progress`` (call ``progress``), ``special_tokens``, ``shrinking_factor`` (0.75),
    ``unk_token``, ``max_piece_length`` (16), ``n_sub_iterations`` (2), ``initial_alphabet``,
    ``seed_size`` (1,000,000); and SentencePiece's ``character_coverage`` (1.0 keeps every character),
    ``max_sentence_length`` (4192: longer words, in UTF-8 bytes, are left out of training with a
    warning; with ``Metaspace(split=False)`` a word is a sentence) and its rules on pieces
    (:class:`PieceRules`): ``split_by_unicode_script`` (``False``, as Hugging Face; SentencePiece's
    default is ``True``), ``split_by_number`` (``True``) and ``split_digits`` (``False``).
    ``progress`` (a ``callback(stage, done, total)``, not serialized) hears ``"seed"``, ``"em"`` and
    ``"prune"``. The steps are in the module docstring.

    >>> model = UnigramTrainer(vocab_size=8, show_progress=False).train({"hug": 10, "hugs": 5, "pug": 4})
    >>> [model.id_to_token(i) for i in model.encode_piece("hugs")]
    ['hugs']
    """

    class Params(Params):
        vocab_size: StrictInt = Field(8000, ge=1)
        show_progress: StrictBool = True
        special_tokens: list[str] = []
        shrinking_factor: float = Field(0.75, gt=0.0, lt=1.0, allow_inf_nan=False)
        unk_token: str | None = None
        max_piece_length: StrictInt = Field(16, ge=1, le=limits.MAX_TOKEN_LENGTH)
        n_sub_iterations: StrictInt = Field(2, ge=1, le=1000)
        initial_alphabet: list[str] = []
        seed_size: StrictInt = Field(1_000_000, ge=1)
        max_sentence_length: StrictInt = Field(4192, ge=1)
        character_coverage: float = Field(1.0, gt=0.0, le=1.0, allow_inf_nan=False)
        split_by_unicode_script: StrictBool = False
        split_by_number: StrictBool = True
        split_digits: StrictBool = False

    positional = ("vocab_size",)

    def _configure(self) -> None:
        where = type(self).__name__
        check_initial_alphabet(self.initial_alphabet, where=where)
        tokens = [*self.special_tokens, *([] if self.unk_token is None else [self.unk_token])]
        limits.check_trainer_options(self.vocab_size, tokens, where=where, initial_alphabet=self.initial_alphabet)

    def unreached_reason(self, floor: int) -> str:
        """Unigram pieces are pruned from the substrings of the words: a small text has few that last."""
        return (f"no more substrings of the training text keep an expected count of at least "
                f"{EXPECTED_FREQUENCY_THRESHOLD}")

    def _report(self, stage: str, done: int, total: int) -> None:
        progress = active_progress(self)  # a bar (show_progress), the progress callback, or the command line's
        if progress is not None:
            progress(stage, done, total)

    def _meta(self, template: Model | None) -> tuple[list[str], int | None]:
        """The pieces before the learned ones (``unk_token`` first unless special) and the unknown id."""
        unk = self.unk_token
        if unk is None and isinstance(template, Unigram) and template.unk_id is not None and template.vocab:
            unk = template.vocab[template.unk_id][0]
        specials = self.distinct_special_tokens
        if unk is None:
            return specials, None
        if unk in specials:
            return specials, specials.index(unk)
        return [unk, *specials], 0

    def train(self, word_counts: Mapping[str, int], *, model: Model | None = None) -> Unigram:
        """Learn a :class:`Unigram` model; ``model`` (a Unigram template) keeps its ``byte_fallback``
        and sampling options, and gives the unknown piece when ``unk_token`` is unset."""
        with training_progress(self):
            return self._train(word_counts, model)

    def _train(self, word_counts: Mapping[str, int], model: Model | None) -> Unigram:
        if model is not None and not isinstance(model, Unigram):
            raise ConfigError(f"UnigramTrainer trains Unigram models; the tokenizer's model is a {type(model).__name__}")
        meta, unk_id = self._meta(model)
        # Sorted: the EM sums floats word by word, and their last bits (hence ties between scores)
        # must not depend on the order of the word counts.
        items = self._short_words(sorted(checked_word_counts(word_counts)))
        size = self.vocab_size - len(meta)
        required = required_characters(items, self.character_coverage, self.initial_alphabet)
        if size < len(required):
            raise TrainingError(
                f"UnigramTrainer: vocab_size={self.vocab_size} leaves {size} pieces after the special tokens, fewer "
                f"than the {len(required)} required characters; raise vocab_size or lower character_coverage"
            )
        self._report("seed", 0, 1)
        rules = PieceRules(split_by_unicode_script=self.split_by_unicode_script,
                           split_by_number=self.split_by_number, split_digits=self.split_digits)
        seeds = seed_pieces(items, required, self.max_piece_length, self.seed_size,
                            piece_rules=rules if rules.active else None)
        lattices = Lattices(seeds, items)
        self._report("seed", 1, 1)
        pieces = self._em_and_prune(lattices, size)
        # A learned piece that is also a special token is that token's entry: the next best takes its place.
        learned = finalize(pieces, required, size, taken=frozenset(meta))
        options = {} if model is None else {k: v for k, v in model.params().items() if k not in ("vocab", "unk_id")}
        options.pop("special_tokens", None)
        vocab = [(t, 0.0) for t in meta] + learned
        return Unigram._assemble(  # type: ignore[no-any-return]
            {**options, "unk_id": unk_id, "special_tokens": list(self.special_tokens)},
            validate=False, where="UnigramTrainer", vocab=vocab, check=False,
        )

    def _short_words(self, items: list[tuple[str, int]]) -> list[tuple[str, int]]:
        """``items`` without the words longer than ``max_sentence_length`` UTF-8 bytes, as SentencePiece
        leaves out longer sentences (their seeding and EM take time and memory in proportion); a warning
        says how many went, a :class:`TrainingError` when nothing is left."""
        limit = self.max_sentence_length
        short: list[tuple[str, int]] = []
        dropped: list[tuple[int, int]] = []  # (UTF-8 bytes, count) of the words left out
        for word, count in items:
            size = len(word.encode("utf-8")) if 4 * len(word) > limit else 0  # at most 4 bytes a character
            if size > limit:
                dropped.append((size, count))
            else:
                short.append((word, count))
        if not dropped:
            return items
        what = (f"{_plural(len(dropped), 'distinct word')} ({_plural(sum(c for _, c in dropped), 'occurrence')}; "
                f"the longest is {max(dropped)[0]:,} bytes) longer than max_sentence_length={limit:,} UTF-8 bytes")
        if not short:
            raise TrainingError(
                f"UnigramTrainer: every word of the corpus is too long to train on: {what}; split the text into "
                "shorter words (a pre-tokenizer that splits on spaces), or raise max_sentence_length (seeding and EM "
                "then take time and memory in proportion to the longest words)"
            )
        warnings.warn(
            f"UnigramTrainer: {what} left out of training, as SentencePiece leaves out longer sentences; raise "
            "max_sentence_length to keep them",
            stacklevel=3,
        )
        return short

    def _em_and_prune(self, lattices: Lattices, size: int) -> Pieces:
        desired = int(size * 1.1)
        start = len(lattices.seeds)
        rounds = max(1, math.ceil(math.log(max(1.0, start / max(desired, 1))) / -math.log(self.shrinking_factor)) + 1)
        done = 0
        while True:
            for _ in range(self.n_sub_iterations):
                expected, _ = lattices.e_step()
                lattices.set_pieces(m_step(lattices.pieces, expected))
            done += 1
            before = len(lattices.pieces)
            if before <= desired:
                self._report("em", rounds, rounds)  # the estimate of rounds may be high: the bar ends full
                return lattices.pieces
            self._report("em", min(done, rounds), rounds)
            lattices.set_pieces(prune(lattices, desired, self.shrinking_factor))
            if len(lattices.pieces) >= before:  # nothing left to prune (every piece is always kept)
                self._report("prune", rounds, rounds)
                return lattices.pieces
            self._report("prune", min(done, rounds), rounds)
