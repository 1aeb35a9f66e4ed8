"""Known answers for ``algorithms/word_level.py`` that its first mutation run showed unpinned
(docs/testing.md, "word_level"): the trainer's frequency floor, special tokens and template, its
progress callback, and the exact texts of the model's and trainer's errors. Expected values by hand."""

from __future__ import annotations

import pytest

from algorithms import BPE, WordLevel, WordLevelTrainer
from conftest import error_of
from toolkit.errors import VocabularyError


def test_min_frequency_keeps_words_seen_exactly_that_often() -> None:
    counts = {"the": 5, "cat": 2, "sat": 1}
    model = WordLevelTrainer(min_frequency=2, show_progress=False).train(counts)
    assert model.get_vocab() == {"the": 0, "cat": 1}  # "cat" (2 >= 2) kept, "sat" (1) dropped


def test_a_word_equal_to_a_special_token_is_listed_once() -> None:
    model = WordLevelTrainer(special_tokens=["<unk>", "the"], show_progress=False).train({"the": 5, "cat": 2})
    assert model.get_vocab() == {"<unk>": 0, "the": 1, "cat": 2}
    assert model.special_tokens == {"<unk>": 0, "the": 1}


def test_unk_token_is_the_default_or_the_template_models() -> None:
    counts = {"a": 2, "b": 1}
    assert WordLevelTrainer(special_tokens=["<unk>"]).train(counts).unk_token == "<unk>"
    template = WordLevel(unk_token="[UNK]")
    model = WordLevelTrainer(special_tokens=["[UNK]"]).train(counts, model=template)
    assert model.unk_token == "[UNK]"
    assert model.encode_piece("zzz") == (0,)


def test_the_progress_callback_hears_the_words_stage_and_is_checked() -> None:
    heard: list[tuple[str, int, int]] = []
    trainer = WordLevelTrainer(5, progress=lambda stage, done, total: heard.append((stage, done, total)))
    assert trainer.vocab_size == 5  # the positional option reaches the options
    trainer.train({"a": 3, "b": 2, "c": 1})
    assert heard == [("words", 3, 3)]
    heard.clear()
    WordLevelTrainer(progress=lambda *a: heard.append(a), show_progress=False).train({"a": 1})
    assert heard == [("words", 1, 1)]  # show_progress only decides the bar drawn without a callback
    assert error_of(lambda: WordLevelTrainer(progress=5)) == (
        "ConfigError", "WordLevelTrainer.progress must be a callable progress(stage, done, total)"
    )


def test_unreached_reason_names_the_frequency_floor() -> None:
    trainer = WordLevelTrainer()
    assert trainer.unreached_reason(1) == "the training text has no more distinct words"
    assert trainer.unreached_reason(2) == "the training text has no more distinct words seen at least 2 times"
    assert trainer.unreached_reason(3) == "the training text has no more distinct words seen at least 3 times"


def test_error_texts_name_where_the_problem_is() -> None:
    assert error_of(lambda: WordLevel({"a": -1})) == ("VocabularyError", "WordLevel.vocab['a']: id must be >= 0, got -1")
    assert error_of(lambda: WordLevel.from_dict({"type": "WordLevel", "vocab": {"a": -1}})) == (
        "VocabularyError", "model 'WordLevel'.vocab['a']: id must be >= 0, got -1"
    )
    assert error_of(lambda: WordLevel.from_dict({"type": "WordLevel", "vocab": {"a": 0}, "unk_token": 5})) == (
        "ConfigError", "model 'WordLevel'.unk_token: Input should be a valid string"
    )
    assert error_of(lambda: WordLevel.from_dict({"vocab": {"a": 0}, "special_tokens": ["b"]}, where="file x")) == (
        "VocabularyError",
        "file x.special_tokens: 'b' is not in the vocabulary; special tokens must be vocabulary entries "
        "(trainers add them for you)",
    )
    model = WordLevel({"a": 0})
    with pytest.raises(VocabularyError, match=r"^WordLevel\.special_tokens: 'b' is not in the vocabulary"):
        model.special_tokens = ["b"]
    trained = WordLevelTrainer(special_tokens=["<unk>"]).train({"a": 2})
    with pytest.raises(VocabularyError, match=r"^WordLevelTrainer\.special_tokens: 'zz' is not in the vocabulary"):
        trained.special_tokens = ["zz"]  # a trained model names the trainer its vocabulary came from
    assert error_of(lambda: WordLevel({}).encode_piece("x")) == (
        "VocabularyError",
        "WordLevel: the model has no vocabulary; train it (Tokenizer.train) or load one (WordLevel(vocab))",
    )
    assert error_of(lambda: WordLevel({"a": 0}).encode_piece("x")) == (
        "InputError",
        "'x' is not in the WordLevel vocabulary and unk_token '<unk>' is not either; add the unknown token to "
        "the vocabulary (a special token of the trainer) or set unk_token to one",
    )
    assert error_of(lambda: WordLevelTrainer(special_tokens=["\ud800"])) == (
        "ConfigError", "WordLevelTrainer.special_tokens: '\\ud800' holds a lone surrogate (U+D800), which is not text"
    )
    assert error_of(lambda: WordLevelTrainer().train({"a": 1}, model=BPE())) == (
        "ConfigError", "WordLevelTrainer trains WordLevel models; the tokenizer's model is a BPE"
    )
