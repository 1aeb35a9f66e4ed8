"""WordLevel model and trainer: known answers, Hugging Face parity, tokenizer.json in and out, bad input."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from conftest import shared_path

from algorithms import WordLevel, WordLevelTrainer
from toolkit import Tokenizer
from toolkit.errors import ConfigError, InputError, VocabularyError
from toolkit.interfaces import build

tokenizers = pytest.importorskip("tokenizers")


def test_known_answers() -> None:
    model = WordLevel({"<unk>": 0, "the": 1, "cat": 2})
    assert model.encode_piece("cat") == (2,) and model.tokenize("dog") == [(0, 0, 3)]
    assert model.encode_piece("") == () and model.unk_token == "<unk>"
    assert WordLevel({"[UNK]": 0}, "[UNK]").encode_piece("x") == (0,)  # unk_token positional, as HF


def test_trainer_order_min_frequency_and_size() -> None:
    counts = {"b": 3, "a": 3, "c": 5, "d": 1}
    model = WordLevelTrainer(vocab_size=10, min_frequency=2, special_tokens=["<unk>", "<pad>"]).train(counts)
    assert model.get_vocab() == {"<unk>": 0, "<pad>": 1, "c": 2, "a": 3, "b": 4}
    assert model.special_tokens == {"<unk>": 0, "<pad>": 1}
    assert WordLevelTrainer(vocab_size=2).train(counts).get_vocab() == {"c": 0, "a": 1}
    assert counts == {"b": 3, "a": 3, "c": 5, "d": 1}


def test_special_tokens_are_not_matched_as_words() -> None:
    model = WordLevel({"<unk>": 0, "<pad>": 1}, special_tokens=["<pad>"])
    assert model.encode_piece("<pad>") == (0,)


def test_bad_input() -> None:
    with pytest.raises(InputError, match="unk_token"):
        WordLevel({"a": 0}).encode_piece("b")
    with pytest.raises(VocabularyError, match="no vocabulary"):
        WordLevel().encode_piece("b")
    with pytest.raises(ConfigError):
        WordLevel({"a": 0}, unk_token="")
    with pytest.raises(VocabularyError):
        WordLevel({"a": 0, "b": 0})
    with pytest.raises(ConfigError):
        WordLevelTrainer(vocab_size=-1)
    with pytest.raises(ConfigError, match="trains WordLevel"):
        from algorithms import Unigram

        WordLevelTrainer().train({"a": 1}, model=Unigram())


def test_json_round_trip() -> None:
    model = WordLevel({"<unk>": 0, "hi": 1}, special_tokens=["<unk>"])
    assert build("model", json.loads(json.dumps(model.to_dict()))) == model
    assert Tokenizer.from_json(Tokenizer(model).to_json()).model == model


def _hf_wordlevel(lines: list[str], size: int) -> object:
    hf = tokenizers.Tokenizer(tokenizers.models.WordLevel(unk_token="<unk>"))
    hf.pre_tokenizer = tokenizers.pre_tokenizers.WhitespaceSplit()
    trainer = tokenizers.trainers.WordLevelTrainer(vocab_size=size, min_frequency=2, special_tokens=["<unk>"],
                                                   show_progress=False)
    hf.train_from_iterator(lines, trainer)
    return hf


def test_hugging_face_parity_training_and_encoding(tmp_path) -> None:  # type: ignore[no-untyped-def]
    lines = shared_path("english/tinyshakespeare_input.txt").read_text(encoding="utf-8").splitlines()[:6000]
    hf = _hf_wordlevel(lines, 3000)
    counts = Counter(w for line in lines for w in line.split())
    ours = WordLevelTrainer(vocab_size=3000, min_frequency=2, special_tokens=["<unk>"]).train(counts)
    assert ours.get_vocab() == hf.get_vocab()  # type: ignore[attr-defined]
    for line in lines[:500] + ["unseen wordz here"]:
        expected = hf.encode(line).ids  # type: ignore[attr-defined]
        assert [i for w in line.split() for i in ours.encode_piece(w)] == expected
    # tokenizer.json both ways
    path = tmp_path / "tokenizer.json"
    hf.save(str(path))  # type: ignore[attr-defined]
    loaded = Tokenizer.from_hf_json(path)
    assert loaded.model.get_vocab() == ours.get_vocab() and loaded.model.unk_token == "<unk>"
    out = tmp_path / "ours.json"
    loaded.to_hf_json(out)
    again = tokenizers.Tokenizer.from_file(str(out))
    assert again.encode("the king is dead qqq").ids == hf.encode("the king is dead qqq").ids  # type: ignore[attr-defined]
