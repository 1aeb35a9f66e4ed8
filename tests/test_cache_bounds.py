"""The piece caches stay bounded in memory, not only in entries: long texts are never kept.

A pipeline without a pre-tokenizer (or with one that keeps a line whole) hands the model whole texts
as pieces; keeping each one would let 100,000 entries hold gigabytes.
"""

from __future__ import annotations

import copy
import pickle

from algorithms import BPE, ByteLevelBPE, Unigram, WordPiece
from pretokenizers import ByteLevel, Whitespace
from toolkit import Tokenizer
from toolkit.cache import MAX_CACHED_PIECE, BoundedCache


def test_longest_skips_long_keys_and_survives_copies_and_pickles():
    cache = BoundedCache(4, longest=3)
    assert cache.put("abcd", 1) == 1 and "abcd" not in cache
    assert cache.put("abc", 2) == 2 and cache["abc"] == 2
    for clone in (copy.copy(cache), copy.deepcopy(cache), pickle.loads(pickle.dumps(cache))):
        assert len(clone) == 0 and (clone.capacity, clone.longest) == (4, 3)
    assert BoundedCache(2).put("x" * 10_000, 1) == 1  # no bound on keys by default


def _long_text() -> str:
    return "ab" * (MAX_CACHED_PIECE // 2 + 1)  # one piece of MAX_CACHED_PIECE + 2 characters


def test_a_model_keeps_short_pieces_only():
    models = [
        BPE(vocab={"a": 0, "b": 1, "ab": 2}, merges=[("a", "b")]),
        WordPiece(vocab={"a": 0, "b": 1, "##a": 2, "##b": 3, "[UNK]": 4}, max_input_chars_per_word=10_000),
        Unigram(vocab=[("<unk>", 0.0), ("a", -1.0), ("b", -1.0)], unk_id=0),
    ]
    for model in models:
        tok = Tokenizer(model)
        long_text = _long_text()
        assert tok.encode_ids(long_text) == tok.encode(long_text).ids
        assert tok.encode_ids("ab") == tok.encode("ab").ids
        kept = [k for c in vars(model).values() if isinstance(c, BoundedCache) for k in c]
        assert "ab" in kept, type(model).__name__
        assert long_text not in kept, type(model).__name__


def test_a_pipeline_keeps_short_pieces_only():
    tok = Tokenizer(ByteLevelBPE(), pre_tokenizer=ByteLevel(add_prefix_space=False, use_regex=False))
    long_text = _long_text()
    assert tok.encode_ids(long_text) == tok.encode(long_text).ids == [97, 98] * (len(long_text) // 2)
    caches = tok._current_caches()
    every = [*caches.raw, *caches.chunks, *caches.scanned, *(k for c in caches.tokens.values() for k in c),
             *tok.model.piece_cache, *tok.pre_tokenizer._cache]
    assert long_text not in every
    short = Tokenizer(ByteLevelBPE(), pre_tokenizer=Whitespace())
    assert short.encode_ids("ab ab") == [97, 98, 97, 98]


def test_the_pipeline_caches_follow_the_models_capacity_after_construction():
    tok = Tokenizer(ByteLevelBPE(), pre_tokenizer=ByteLevel())
    tok.encode_ids("a b c")
    assert tok._current_caches().entries() > 0
    tok.model.cache_capacity = 0  # takes effect on the pipeline's caches too, not only the model's
    assert tok.encode_ids("a b c d") == tok.encode("a b c d").ids
    assert tok._current_caches().capacity == 0 and tok._current_caches().entries() == 0
    assert len(tok.model.piece_cache) == 0
    tok.model.cache_capacity = 3
    tok.encode_ids("a b c d e f g")
    assert 0 < len(tok._current_caches().raw) <= 3
