"""Slow, obviously correct reference trainers, used as test oracles for the fast engines.

This module owns the BPE oracle: the algorithm of the Hugging Face course, written to be read, not
run on big corpora. Every step recounts all pairs from scratch, picks the best one and rewrites every
word. The fast engine (:func:`algorithms._merges.learn_merges`) must return exactly the same merges.
(The WordPiece oracle is :mod:`algorithms.reference.wordpiece`, the encoders are in
:mod:`algorithms.reference.encoders`.)

>>> reference_bpe_merges({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}, n_merges=3)
[('u', 'g'), ('u', 'n'), ('h', 'ug')]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Literal

__all__ = ["reference_learn_merges", "reference_bpe_merges"]

Pair = tuple[int, int]


def reference_learn_merges(
    words: Sequence[Sequence[int]],
    counts: Sequence[int],
    *,
    merge_symbol: Callable[[int, int], int | None],
    max_merges: int,
    min_frequency: int = 0,
    tie_break: Literal["ids", "first_occurrence"] = "ids",
) -> list[tuple[int, int, int]]:
    """Same contract as :func:`algorithms._merges.learn_merges`, computed the slow way.

    >>> next_id = iter(range(3, 100))
    >>> reference_learn_merges([[0, 0, 0, 0], [1, 2]], [1, 1], merge_symbol=lambda a, b: next(next_id), max_merges=5)
    [(0, 0, 3), (1, 2, 4), (3, 3, 5)]
    """
    splits = [list(word) for word in words]
    top_id = max((max(word) for word in splits if word), default=-1)
    banned: set[Pair] = set()
    merges: list[tuple[int, int, int]] = []
    new_tokens = 0
    while new_tokens < max_merges:
        # 1. Count every adjacent pair, in scan order (dicts remember insertion order).
        pair_counts: dict[Pair, int] = {}
        for split, count in zip(splits, counts):
            if count == 0:
                continue
            for pair in zip(split, split[1:]):
                if pair not in banned:
                    pair_counts[pair] = pair_counts.get(pair, 0) + count
        if not pair_counts:
            break
        # 2. The best pair: highest count; ties by ids, or the first one met (max keeps the first).
        if tie_break == "ids":
            best = min(pair_counts, key=lambda pair: (-pair_counts[pair], pair))
        else:
            best = max(pair_counts, key=pair_counts.__getitem__)
        if pair_counts[best] < max(min_frequency, 1):
            break
        new_id = merge_symbol(*best)
        if new_id is None:
            banned.add(best)
            continue
        merges.append((*best, new_id))
        if new_id > top_id:  # a new token (an existing one would not grow the vocabulary)
            top_id = new_id
            new_tokens += 1
        # 3. Apply the merge in every word, left to right, without overlaps.
        for split in splits:
            i = 0
            while i < len(split) - 1:
                if (split[i], split[i + 1]) == best:
                    split[i : i + 2] = [new_id]
                i += 1
    return merges


def reference_bpe_merges(
    word_counts: Mapping[str, int],
    *,
    n_merges: int,
    tie_break: Literal["ids", "first_occurrence"] = "ids",
    min_frequency: int = 0,
    special_tokens: Sequence[str] = (),
) -> list[tuple[str, str]]:
    """Character-level BPE merges of ``word_counts`` as string pairs, like HF ``BpeTrainer``.

    Ids are assigned like HF: special tokens first, then the characters sorted by code point, then
    each merged token; a merge whose string already exists reuses its id. ``word_counts`` must
    iterate in first-occurrence order for ``tie_break="first_occurrence"``.
    """
    alphabet = sorted({ch for word in word_counts for ch in word})
    tokens = list(dict.fromkeys([*special_tokens, *alphabet]))
    ids = {token: i for i, token in enumerate(tokens)}

    def merge_symbol(left: int, right: int) -> int:
        merged = tokens[left] + tokens[right]
        if merged not in ids:
            ids[merged] = len(tokens)
            tokens.append(merged)
        return ids[merged]

    merges = reference_learn_merges(
        [[ids[ch] for ch in word] for word in word_counts],
        list(word_counts.values()),
        merge_symbol=merge_symbol,
        max_merges=n_merges,
        min_frequency=min_frequency,
        tie_break=tie_break,
    )
    return [(tokens[left], tokens[right]) for left, right, _ in merges]
