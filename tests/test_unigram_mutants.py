"""Known answers for ``algorithms/unigram.py`` that its first mutation run showed unpinned
(docs/testing.md, "unigram"): the vocabulary checks and their texts, ids at the edges, unknown runs
in n-best lists, byte fallback of a lone surrogate, float32 ties, and sampling from the n best.
Expected values by hand."""

from __future__ import annotations

import collections
import math

import pytest

import toolkit.limits as limits
from algorithms import Unigram
from conftest import error_of
from toolkit.errors import ConfigError, VocabularyError


def test_vocabulary_checks_and_their_texts(monkeypatch: pytest.MonkeyPatch) -> None:
    assert error_of(lambda: Unigram(5)) == (
        "ConfigError", "Unigram.vocab: must be a list of [piece, score] pairs (Unigram ids are positions), got int"
    )
    assert error_of(lambda: Unigram([("a", -1.0), ("a", -2.0)])) == (
        "VocabularyError", "Unigram.vocab: piece 'a' appears twice (ids 0 and 1); pieces must be unique"
    )
    assert error_of(lambda: Unigram([("a", "x")])) == (
        "VocabularyError",
        "Unigram.vocab[0]: the score of 'a' must be a finite number (a log-probability), got 'x'",
    )
    longest = "a" * limits.MAX_TOKEN_LENGTH
    assert Unigram([(longest, -1.0)]).token_to_id(longest) == 0  # exactly the limit: accepted
    assert error_of(lambda: Unigram([(longest + "a", -1.0)])) == (
        "VocabularyError",
        f"Unigram.vocab[0]: piece of {limits.MAX_TOKEN_LENGTH + 1} characters exceeds {limits.MAX_TOKEN_LENGTH}",
    )
    monkeypatch.setattr(limits, "MAX_VOCAB_SIZE", 2)
    kind, text = error_of(lambda: Unigram([("a", -1.0), ("b", -1.0), ("c", -1.0)]))
    assert text.startswith("Unigram.vocab: ") and "3" in text


def test_unk_id_and_special_tokens_are_checked_against_the_vocabulary() -> None:
    vocab = [("<unk>", 0.0), ("a", -1.0)]
    assert Unigram(vocab, unk_id=1).unk_token == "a"  # the last id is an id
    assert error_of(lambda: Unigram(vocab, unk_id=2)) == (
        "VocabularyError",
        "Unigram.unk_id: 2 is not an id of the vocabulary (2 pieces, ids 0 to 1); pass the position of the "
        "unknown piece, or unk_id=None",
    )
    model = Unigram(vocab, unk_id=0)
    with pytest.raises(VocabularyError, match=r"^Unigram\.unk_id: 5 is not an id"):
        model.unk_id = 5  # assigned later: the same check, naming where the model came from
    with pytest.raises(VocabularyError, match=r"^Unigram\.special_tokens: 'b' is not in the vocabulary"):
        Unigram(vocab, special_tokens=["b"])


def test_from_dict_checks_what_it_reads_and_names_the_file() -> None:
    assert error_of(lambda: Unigram.from_dict({"type": "Unigram", "vocab": [["a", "x"]]})) == (
        "VocabularyError",
        "model 'Unigram'.vocab[0]: the score of 'a' must be a finite number (a log-probability), got 'x'",
    )
    kind, text = error_of(lambda: Unigram.from_dict({"vocab": [["a", -1.0]], "unk_id": "0"}))
    assert kind == "ConfigError" and text.startswith("model 'Unigram'.unk_id: ")
    assert error_of(lambda: Unigram.from_dict({"vocab": [["a", -1.0]], "unk_id": 3}, where="file x")) == (
        "VocabularyError",
        "file x.unk_id: 3 is not an id of the vocabulary (1 pieces, ids 0 to 0); pass the position of the "
        "unknown piece, or unk_id=None",
    )


def test_look_ups_at_the_edges() -> None:
    model = Unigram([("<unk>", 0.0), ("a", -1.5)], unk_id=0)
    assert model.get_vocab() == {"<unk>": 0, "a": 1}
    assert (model.token_to_id("a"), model.token_to_id("b")) == (1, None)
    assert (model.score("a"), model.score("<unk>"), model.score("b")) == (-1.5, 0.0, None)
    assert [model.id_to_token(i) for i in (0, 1, 2, -1)] == ["<unk>", "a", None, None]


def test_a_special_piece_typed_in_text_is_unknown_text() -> None:
    model = Unigram([("<unk>", 0.0), ("</s>", -1.0), ("a", -1.0)], unk_id=0, special_tokens=["</s>"])
    assert model.encode_piece("</s>") == (0,)  # never the special piece, even as a fused unknown run
    assert model.encode_piece("a</s>") == (2, 0)


def test_an_unknown_run_that_spells_a_piece_is_that_piece_in_n_best_lists() -> None:
    # The second best path covers "x" and "y" with unknown nodes; fused, "xy" is a piece (HF's rule).
    model = Unigram([("<unk>", 0.0), ("xy", -1.0)], unk_id=0)
    assert model.nbest_ids("xy", 3) == [([1], -1.0), ([1], -22.0)]
    with_unknown = Unigram([("<unk>", 0.0), ("xy", -1.0), ("z", -1.0)], unk_id=0)
    assert with_unknown.nbest_ids("xyq", 2) == [([1, 0], -12.0), ([0], -33.0)]
    assert with_unknown.nbest("xyq", 1) == [["xy", "<unk>"]]


def test_n_must_be_a_non_negative_integer() -> None:
    model = Unigram([("a", -1.0)])
    for bad in (True, -1, "2", 1.5):
        with pytest.raises(ConfigError) as info:
            model.nbest("a", bad)  # type: ignore[arg-type]
        assert str(info.value) == f"Unigram.nbest: n must be a non-negative integer, got {bad!r}"
        with pytest.raises(ConfigError) as info:
            model.nbest_ids("a", bad)  # type: ignore[arg-type]
        assert str(info.value) == f"Unigram.nbest_ids: n must be a non-negative integer, got {bad!r}"


def test_byte_fallback_covers_a_lone_surrogate_and_errors_say_what_to_set() -> None:
    vocab = [(f"<0x{b:02X}>", -5.0) for b in range(256)] + [("a", -1.0)]
    model = Unigram(vocab, byte_fallback=True)
    assert model.encode_piece("a\ud800") == (256, 0xED, 0xA0, 0x80)  # its UTF-8 bytes, as surrogatepass writes them
    assert error_of(lambda: Unigram([]).encode_piece("x")) == (
        "VocabularyError", "Unigram: the model has no vocabulary; train it (Tokenizer.train) or load one (Unigram(vocab))"
    )
    assert error_of(lambda: Unigram([("a", -1.0)]).encode_piece("ab")) == (
        "InputError",
        "'b' (at 1 in 'ab') is not covered by the Unigram vocabulary and the model has no unk_id; set unk_id to "
        "the unknown piece's id, or byte_fallback=True with <0x00>..<0xFF> pieces",
    )


def test_float32_sums_tie_where_float64_sums_do_not() -> None:
    # float32 values as a .model file holds them: f32(a) + f32(b) rounds to f32(ab) in float32, a tie that
    # the longer piece wins; in float64 the two pieces score higher.
    a, b, ab = -0.4830000102519989, -2.0299999713897705, -2.513000011444092
    vocab = [("<unk>", 0.0), ("a", a), ("b", b), ("ab", ab)]
    assert Unigram(vocab, unk_id=0, float32=True).encode_piece("ab") == (3,)
    assert Unigram(vocab, unk_id=0).encode_piece("ab") == (1, 2)


def test_sampling_from_the_n_best_draws_only_them_by_their_weights() -> None:
    p = {"a": 0.3, "b": 0.3, "c": 0.3, "ab": 0.05, "bc": 0.04, "abc": 0.01}
    vocab = [(piece, math.log(q)) for piece, q in p.items()]
    # Segmentations of "abc": a b c 0.027, ab c 0.015, a bc 0.012, abc 0.01; the two best are drawn
    # with probabilities proportional to p ** alpha (alpha = 1).
    model = Unigram(vocab, alpha=1.0, nbest_size=2, seed=3)
    draws = collections.Counter(model.encode_piece("abc") for _ in range(3000))
    assert set(draws) == {(0, 1, 2), (3, 2)}
    assert abs(draws[(0, 1, 2)] / 3000 - 0.027 / 0.042) < 0.04
    # With an uncovered character the unknown node takes part in every draw.
    unk = Unigram([("<unk>", 0.0), *vocab], unk_id=0, alpha=1.0, nbest_size=2, seed=3)
    assert {unk.encode_piece("aq")[-1] for _ in range(20)} == {0}
    every = Unigram([("<unk>", 0.0), *vocab], unk_id=0, alpha=1.0, seed=3)
    assert {every.encode_piece("aq")[-1] for _ in range(20)} == {0}


def test_sampling_weights_are_relative_to_the_best_so_tiny_probabilities_do_not_underflow() -> None:
    # Scores near -400 (tiny probabilities): exp(alpha * score) underflows to 0 for every candidate,
    # exp(alpha * (score - best)) does not.
    model = Unigram([("a", -400.0), ("b", -400.0), ("ab", -810.0)], alpha=1.0,
                    nbest_size=2, seed=1)
    draws = collections.Counter(model.encode_piece("ab") for _ in range(2000))
    assert set(draws) <= {(0, 1), (2,)} and draws[(0, 1)] > 1900  # e ** -10 of the draws are "ab"
