"""TEST ORACLE — the slow, obviously-correct WordPiece trainer. Not for production use.

:func:`reference_wordpiece_trainer` follows the Hugging Face course's WordPiece algorithm literally:
at every step it recomputes the frequency of every token and every adjacent pair over all words,
scores every pair with ``freq(pair) / (freq(first) * freq(second))`` as an exact
:class:`fractions.Fraction` (or, with ``criterion="likelihood"``, by the discounted likelihood gain
of :func:`_gain`), merges the best pair in every word, and starts again. It is
``O(merges × corpus)``, so it is only for small corpora: the tests check that the fast incremental
:class:`algorithms.wordpiece_trainer.WordPieceTrainer` learns exactly the same merges.

It deliberately shares no code with the fast trainer (alphabet selection included), so a bug in one
is not silently mirrored in the other.

>>> r = reference_wordpiece_trainer({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5},
...                                 vocab_size=9, special_tokens=[], tie_break="first_occurrence")
>>> r.merges
[('##g', '##s', '##gs'), ('h', '##u', 'hu')]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from math import log

from algorithms._wordpiece_runs import WordPieceTraining

__all__ = ["reference_wordpiece_trainer"]


def reference_wordpiece_trainer(
    word_counts: Mapping[str, int],
    *,
    vocab_size: int,
    special_tokens: Sequence[str] = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"),
    continuing_subword_prefix: str = "##",
    end_of_word_suffix: str | None = None,
    min_frequency: int = 0,
    limit_alphabet: int | None = None,
    initial_alphabet: Iterable[str] = (),
    tie_break: str = "ids",
    criterion: str = "score",
    likelihood_discount: int = 3,
) -> WordPieceTraining:
    """Train WordPiece the slow way (see the module docstring); same options as the fast trainer.

    One function on purpose: an oracle is read top to bottom, as the course describes the algorithm.
    """
    prefix = continuing_subword_prefix
    words = [(w, c) for w, c in word_counts.items() if w and c]
    initial = list(initial_alphabet)

    # Alphabet: characters, possibly limited to the most frequent ones (initial ones always kept).
    char_freq: dict[str, int] = {}
    for w, c in words:
        for ch in w:
            char_freq[ch] = char_freq.get(ch, 0) + c
    if limit_alphabet is None:
        kept = set(char_freq) | set(initial)
    else:
        ranked = sorted(char_freq.items(), key=lambda kv: (-kv[1], kv[0]))
        others = [ch for ch, _ in ranked if ch not in initial]
        kept = set(initial) | set(others[: max(0, limit_alphabet - len(set(initial)))])

    # splits[i]: the symbols of word i; None marks a character outside the alphabet (a barrier no
    # pair crosses). The symbol at word position 0 is bare, every later one carries the prefix, and
    # the last one the end-of-word suffix.
    suffix = end_of_word_suffix or ""
    splits: list[list[str | None]] = []
    for w, _ in words:
        splits.append([
            ((ch if i == 0 else prefix + ch) + (suffix if i == len(w) - 1 else "")) if ch in kept else None
            for i, ch in enumerate(w)
        ])

    symbols = {prefix + ch for ch in initial} | set(initial)
    if criterion == "likelihood":  # every character can start a word (HF's alphabet); the course's: those seen
        symbols |= kept
    for split in splits:
        symbols.update(s for s in split if s is not None)
    vocab: list[str] = list(dict.fromkeys(special_tokens))
    for s in sorted(symbols):
        if s not in vocab:
            vocab.append(s)
    n_base = len(vocab)
    merges: list[tuple[str, str, str]] = []
    min_count = max(1, min_frequency)

    while len(vocab) < vocab_size:
        # Recompute everything, scanning words in order, left to right: dict insertion order is then
        # the first-occurrence order the course's tie-break uses.
        token_freq: dict[str, int] = {}
        pair_freq: dict[tuple[str, str], int] = {}
        for (_, count), split in zip(words, splits):
            for s in split:
                if s is not None:
                    token_freq[s] = token_freq.get(s, 0) + count
            for left, right in zip(split, split[1:]):
                if left is not None and right is not None:
                    pair_freq[(left, right)] = pair_freq.get((left, right), 0) + count
        best: tuple[str, str] | None = None
        best_score: Fraction | tuple[int, float] = Fraction(-1) if criterion == "score" else (-1, 0.0)
        total = sum(token_freq.values())
        for pair, count in pair_freq.items():
            if count < min_count:
                continue
            if criterion == "score":
                score: Fraction | tuple[int, float] = Fraction(count, token_freq[pair[0]] * token_freq[pair[1]])
            else:
                score = _gain(pair, count, token_freq, total, words, splits, likelihood_discount)
            if score > best_score:
                best, best_score = pair, score
            elif score == best_score and tie_break == "ids":
                # Ids are positions in the vocabulary list (a string's first position).
                assert best is not None
                if (vocab.index(pair[0]), vocab.index(pair[1])) < (vocab.index(best[0]), vocab.index(best[1])):
                    best = pair
        if best is None:
            break
        a, b = best
        new = a + b[len(prefix):]
        merges.append((a, b, new))
        if new not in vocab:
            vocab.append(new)
        for idx, split in enumerate(splits):
            i = 0
            out: list[str | None] = []
            while i < len(split):
                if i + 1 < len(split) and split[i] == a and split[i + 1] == b:
                    out.append(new)
                    i += 2
                else:
                    out.append(split[i])
                    i += 1
            splits[idx] = out
    return WordPieceTraining(vocab, merges, n_base)


def _xlogx(x: int) -> float:
    return x * log(x) if x > 0 else 0.0


def _gain(pair: tuple[str, str], count: int, token_freq: dict[str, int], total: int,
          words: list[tuple[str, int]], splits: list[list[str | None]], discount: int) -> tuple[int, float | int]:
    """``(tier, key)``, compared as a tuple: ``m`` occurrences merge, left to right; when
    ``m > discount``, tier ``discount + 1`` and the log-likelihood change of merging ``m - discount``
    of them (the same float expression, in the same order, as
    :func:`algorithms._wordpiece_likelihood.likelihood_gain`), else tier ``m`` and ``freq(a) * freq(b)``."""
    a, b = pair
    m = count
    if a == b:  # "a a a" counts the pair twice but merges once: count the left-to-right rewrites
        m = 0
        for (_, c), split in zip(words, splits):
            i = 0
            while i + 1 < len(split):
                if split[i] == a and split[i + 1] == a:
                    m += c
                    i += 2
                else:
                    i += 1
    if m <= discount:
        return m, token_freq[a] * token_freq[b]
    tier = discount + 1
    m -= discount
    if a == b:
        da = _xlogx(token_freq[a] - 2 * m) - _xlogx(token_freq[a])
        db = 0.0
    else:
        da = _xlogx(token_freq[a] - m) - _xlogx(token_freq[a])
        db = _xlogx(token_freq[b] - m) - _xlogx(token_freq[b])
    return tier, da + db + _xlogx(m) + (_xlogx(total) - _xlogx(total - m))
