"""Slow, readable Unigram trainer and encoder: the test oracle of :mod:`algorithms.unigram_trainer`
and :mod:`algorithms.unigram` (SentencePiece's algorithm, step by step, nothing cached).

Each word's lattice is rebuilt from the current pieces for every step; the E-step is the plain
log-space forward-backward of :func:`algorithms._lattice.marginals`; the pruning step asks the
2-best list of each piece's own lattice, as SentencePiece does.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping

from algorithms._lattice import build_table, marginals, nbest, viterbi
from algorithms.unigram import UNK_PENALTY
from algorithms.unigram_trainer import (
    KEEP_FROM,
    PieceRules,
    digamma,
    finalize,
    required_characters,
)

__all__ = ["encode", "seed", "train"]

Pieces = list[tuple[str, float]]


def encode(pieces: Pieces, word: str) -> list[str]:
    """The best segmentation of ``word``: every segmentation is scored, the first best wins.

    Unknown characters are single pieces (``None``-scored as the lowest score minus 10).
    """
    scores = dict(pieces)
    unk = min(scores.values()) - UNK_PENALTY
    best: tuple[float, list[str]] | None = None
    for cuts in itertools.product((False, True), repeat=max(0, len(word) - 1)):
        parts, start = [], 0
        for i, cut in enumerate(cuts, 1):
            if cut:
                parts.append(word[start:i])
                start = i
        parts.append(word[start:])
        if any(p not in scores and len(p) > 1 for p in parts):
            continue
        total = sum(scores.get(p, unk) for p in parts)
        if best is None or total > best[0]:
            best = (total, parts)
    return best[1] if best else []


def seed(words: Mapping[str, int], required: Mapping[str, int], max_len: int, seed_size: int,
         rules: PieceRules | None = None) -> Pieces:
    """Characters by count, then every substring occurring twice or more in the text (word counts
    included; not always followed by the same character) that keeps ``rules``, scored by distinct
    words x length; log-probabilities of those scores."""
    occurrences: dict[str, int] = {}
    in_words: dict[str, int] = {}
    for word, count in words.items():
        for start in range(len(word)):
            for end in range(start + 2, min(len(word), start + max_len) + 1):
                sub = word[start:end]
                if all(c in required for c in sub):
                    occurrences[sub] = occurrences.get(sub, 0) + count
                    in_words[sub] = in_words.get(sub, 0) + 1
    branching = [
        sub for sub, n in occurrences.items()
        if n >= 2 and not any(longer[:-1] == sub and m == n for longer, m in occurrences.items() if len(longer) > 2)
        and (rules is None or rules.is_valid(sub))
    ]
    chars = sorted(((c, n) for c, n in required.items() if n > 0), key=lambda kv: (-kv[1], kv[0]))
    subs = sorted(((s, in_words[s] * len(s)) for s in branching), key=lambda kv: (-kv[1], kv[0]))
    chosen = (chars + subs)[: max(seed_size, len(chars))]
    total = sum(score for _, score in chosen)
    return [(p, math.log(score / total)) for p, score in chosen]


def em_step(pieces: Pieces, words: Mapping[str, int]) -> Pieces:
    """Expected counts (forward-backward on each word), then SentencePiece's digamma M-step."""
    table = build_table(pieces)
    unk = min(s for _, s in pieces) - UNK_PENALTY
    expected = [0.0] * len(pieces)
    for word, count in words.items():
        _, found = marginals(table, word, unk)
        for token_id, share in found:
            expected[token_id] += count * share
    kept = [(p, x) for (p, _), x in zip(pieces, expected) if x >= KEEP_FROM]
    total = digamma(sum(x for _, x in kept))
    return [(p, digamma(x) - total) for p, x in kept]


def prune(pieces: Pieces, words: Mapping[str, int], desired: int, shrinking_factor: float) -> Pieces:
    """Keep the pieces whose removal would lose the most likelihood."""
    table = build_table(pieces)
    unk = min(s for _, s in pieces) - UNK_PENALTY
    usage = [0.0] * len(pieces)
    for word, count in words.items():
        for _, _, token_id in viterbi(table, word, unk):
            if token_id is not None:
                usage[token_id] += count
    total, total_words = sum(usage), sum(words.values())
    keep, losses = [], []
    for i, (piece, score) in enumerate(pieces):
        two = nbest(table, piece, unk, 2)
        if usage[i] == 0:
            continue
        if len(two) == 1:
            keep.append(i)  # a single character: nothing can replace it
            continue
        (best, best_score), (second, _) = two
        if len(best) > 1 and best_score > score:
            continue  # its own best segmentation does not use it
        alternative = [t for _, _, t in (second if len(best) == 1 else best) if t is not None]
        new_total = total + usage[i] * (len(alternative) - 1)
        loss = math.log(usage[i] / total) - sum(math.log((usage[n] + usage[i]) / new_total) for n in alternative)
        losses.append((usage[i] / total_words * loss, i))
    size = max(desired, int(shrinking_factor * len(pieces)))
    losses.sort(key=lambda li: (-li[0], li[1]))
    keep += [i for _, i in losses[: max(0, size - len(keep))]]
    return [pieces[i] for i in sorted(keep)]


def train(
    words: Mapping[str, int], vocab_size: int, *, unk_token: str | None = "<unk>", special_tokens: tuple[str, ...] = (),
    shrinking_factor: float = 0.75, max_piece_length: int = 16, n_sub_iterations: int = 2,
    seed_size: int = 1_000_000, character_coverage: float = 1.0, initial_alphabet: tuple[str, ...] = (),
    split_by_unicode_script: bool = False, split_by_number: bool = True, split_digits: bool = False,
) -> list[tuple[str, float]]:
    """The vocabulary ``[(piece, score), ...]`` the trainer learns (meta pieces first, score 0)."""
    meta = list(dict.fromkeys(special_tokens))
    if unk_token is not None and unk_token not in meta:
        meta.insert(0, unk_token)
    size = vocab_size - len(meta)
    items = [(w, c) for w, c in words.items() if w and c]
    required = required_characters(items, character_coverage, list(initial_alphabet))
    rules = PieceRules(split_by_unicode_script=split_by_unicode_script, split_by_number=split_by_number,
                       split_digits=split_digits)
    pieces = seed(dict(items), required, max_piece_length, seed_size, rules)
    desired = int(size * 1.1)
    while True:
        for _ in range(n_sub_iterations):
            pieces = em_step(pieces, dict(items))
        if len(pieces) <= desired:
            break
        before = len(pieces)
        pieces = prune(pieces, dict(items), desired, shrinking_factor)
        if len(pieces) >= before:
            break
    return [(t, 0.0) for t in meta] + finalize(pieces, required, size, taken=frozenset(meta))
