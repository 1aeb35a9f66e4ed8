"""BPE model and trainer edges pinned down after a mutation run of ``algorithms/bpe.py`` (docs/testing.md).

Affixes on one- and two-character words, characters outside ``limit_alphabet`` in the middle of a
word, token lengths with a prefix and under the global cap, the options a template model passes to
the trained one, merges that would spell a special token, and the exact texts of the errors.
"""

from __future__ import annotations

import pytest
from conftest import require

from algorithms.bpe import BPE, BPETrainer
from toolkit import limits
from toolkit.errors import ConfigError, InputError, VocabularyError

AFFIX_VOCAB = {"a</w>": 0, "a": 1, "##b</w>": 2, "##b": 3, "b": 4, "b</w>": 5, "##a</w>": 6, "##a": 7}



@pytest.mark.parametrize(("piece", "expected"), [("a", ["a</w>"]), ("ab", ["a", "##b</w>"]), ("aba", ["a", "##b", "##a</w>"])])
def test_prefix_and_suffix_on_short_words(piece: str, expected: list[str]) -> None:
    model = BPE(AFFIX_VOCAB, [], continuing_subword_prefix="##", end_of_word_suffix="</w>")
    assert [model.id_to_token(t[0]) for t in model.tokenize(piece)] == expected  # (id, start, end)
    hf_models = require("tokenizers").models
    hf = hf_models.BPE(AFFIX_VOCAB, [], continuing_subword_prefix="##", end_of_word_suffix="</w>")
    assert [t.value for t in hf.tokenize(piece)] == expected


def test_a_merge_that_spells_a_special_token_never_applies() -> None:
    model = BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")], special_tokens=["ab"])
    assert [t[0] for t in model.tokenize("ab")] == [0, 1]
    assert [t[0] for t in BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")]).tokenize("ab")] == [2]


def test_characters_outside_the_alphabet_are_dropped_not_the_rest_of_the_word() -> None:
    # a, b and c are kept (limit_alphabet=3), X is dropped: "aXb" counts as "ab" (10 + 1 = 11 > c c = 10).
    counts = {"aXb": 10, "ab": 1, "ccc": 5}
    trainer = BPETrainer(vocab_size=4, limit_alphabet=3)
    model = trainer.train(counts)
    assert max(model.vocab, key=model.vocab.__getitem__) == "ab"
    hf = require("tokenizers")
    tok = hf.Tokenizer(hf.models.BPE())
    tok.pre_tokenizer = hf.pre_tokenizers.WhitespaceSplit()
    tok.train_from_iterator(
        [" ".join([w] * n) for w, n in counts.items()],
        hf.trainers.BpeTrainer(vocab_size=4, limit_alphabet=3, show_progress=False),
    )
    assert model.vocab == tok.get_vocab()


def test_a_prefixed_character_counts_as_one_character_of_text() -> None:
    # "a" + "##b" covers two characters of text: allowed by max_token_length=2 (HF agrees).
    model = BPETrainer(vocab_size=10, max_token_length=2, continuing_subword_prefix="##").train({"ab": 3, "abc": 1})
    assert "ab" in model.vocab and "abc" not in model.vocab


def test_tokens_respect_the_global_cap_with_prefix_and_suffix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_TOKEN_LENGTH", 10)  # 10 characters of token string: 4 of text + "##" + "</w>"
    trainer = BPETrainer(vocab_size=200, continuing_subword_prefix="##", end_of_word_suffix="</w>")
    model = trainer.train({"abcdefghijkl": 5})
    text_lengths = [len(t.removeprefix("##").removesuffix("</w>")) for t in model.vocab]
    assert max(text_lengths) == 4  # the cap leaves room for both affixes, on every token
    assert {"abcd", "##ijkl</w>"} <= set(model.vocab)


def test_template_options_pass_to_the_trained_model() -> None:
    plain = BPETrainer(vocab_size=10).train({"ab": 2})
    assert (plain.fuse_unk, plain.byte_fallback, plain.ignore_merges) == (False, False, False)
    template = BPE({}, [], fuse_unk=True, byte_fallback=True, ignore_merges=True, end_of_word_suffix="</w>")
    trained = BPETrainer(vocab_size=10).train({"ab": 2}, model=template)
    assert (trained.fuse_unk, trained.byte_fallback, trained.ignore_merges) == (True, True, True)
    assert trained.end_of_word_suffix == "</w>" and "b</w>" in trained.vocab


def test_vocab_size_equal_to_the_base_is_enough() -> None:
    model = BPETrainer(vocab_size=3, special_tokens=["<s>"]).train({"ab": 1})
    assert model.vocab == {"<s>": 0, "a": 1, "b": 2} and model.merges == []


def test_a_vocab_size_below_the_base_learns_nothing_and_warns() -> None:
    """As HF: the special tokens and the alphabet, no merge; Tokenizer.train warns that it is larger."""
    import warnings

    from algorithms import BPE
    from pretokenizers import Whitespace
    from toolkit import Tokenizer, VocabSizeWarning
    trainer = BPETrainer(vocab_size=2, special_tokens=["<s>"], show_progress=False)
    model = trainer.train({"ab": 1})
    assert model.vocab == {"<s>": 0, "a": 1, "b": 2} and model.merges == []
    tok = Tokenizer(BPE(), pre_tokenizer=Whitespace())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tok.train(["ab"], trainer)
    assert [str(w.message) for w in caught if w.category is VocabSizeWarning] == [
        "BPETrainer: vocab_size=2 is below the base vocabulary: the special tokens and the alphabet alone make "
        "3 tokens, so nothing was learned; ask for more than 3, or set limit_alphabet"
    ]
    tokenizers = require("tokenizers")
    hf = tokenizers.Tokenizer(tokenizers.models.BPE())
    hf.pre_tokenizer = tokenizers.pre_tokenizers.Whitespace()
    hf.train_from_iterator(["ab"], tokenizers.trainers.BpeTrainer(vocab_size=2, special_tokens=["<s>"], show_progress=False))
    assert hf.get_vocab() == tok.get_vocab()


def test_error_texts() -> None:
    with pytest.raises(ConfigError, match=r"^BPETrainer trains BPE models; the tokenizer's model is a object$"):
        BPETrainer().train({"a": 1}, model=object())  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=r"^BPETrainer\.initial_alphabet: "):
        BPETrainer(initial_alphabet=["ab"])
    with pytest.raises(VocabularyError, match=r"^BPE\.vocab: ids must be unique"):
        BPE({"a": 0, "b": 0}, [])
    with pytest.raises(VocabularyError, match=r"^BPE\.merges\[0\]: \('a', 'c'\) uses 'c'"):
        BPE({"a": 0, "b": 1}, [("a", "c")])
    with pytest.raises(VocabularyError) as err:
        BPE({"a": 0}, [], unk_token="<unk>")
    assert str(err.value) == (
        "BPE.unk_token: '<unk>' is not in the vocabulary; add it (e.g. as a special token of the trainer) "
        "or set unk_token=None"
    )
    with pytest.raises(VocabularyError, match=r"^BPE\.special_tokens: '<s>' is not in the vocabulary"):
        BPE({"a": 0}, [], special_tokens=["<s>"])
    model = BPE({"a": 0}, [])
    model.unk_token = None  # a live change keeps the model's name in later errors
    with pytest.raises(VocabularyError, match=r"^BPE\.special_tokens: "):
        model.special_tokens = ["<s>"]
    with pytest.raises(InputError) as err:
        model.tokenize("c")
    assert str(err.value) == (
        "character 'c' (U+0063) at index 0 of 'c' is not in the BPE vocabulary and the model has no unk_token; "
        "set unk_token (BPETrainer(unk_token=...) or BPE(unk_token=...)), add the character with "
        "initial_alphabet, or use a byte-level model"
    )
