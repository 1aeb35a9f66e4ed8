"""Exports of models we train: vocab.json + merges.txt, vocab.txt, .tiktoken, each loaded back with our
importers and with the reference library that reads that format, giving identical ids.

Trained on Python's own ``pydoc_data`` text: no shared corpus needed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from algorithms import BPE, BPETrainer
from conftest import require
from pretokenizers import ByteLevel, Whitespace
from test_interop_tiktoken import all_texts, training_lines
from toolkit import Tokenizer
from toolkit import decoders as D
from toolkit.errors import SerializationError
from toolkit.interop import read_bpe_model, read_vocab_json

tokenizers = require("tokenizers")


@pytest.fixture(scope="module")
def byte_level() -> Tokenizer:
    from toolkit.training.presets import gpt2_style

    tok, trainer = gpt2_style(vocab_size=800)
    return tok.train(training_lines(), trainer)


@pytest.fixture(scope="module")
def char_level() -> Tokenizer:
    tok = Tokenizer(BPE(unk_token="[UNK]", continuing_subword_prefix="##"), pre_tokenizer=Whitespace())
    return tok.train(
        training_lines(),
        BPETrainer(vocab_size=600, special_tokens=["[UNK]"], unk_token="[UNK]", continuing_subword_prefix="##"),
    )


def test_byte_level_vocab_merges_reload_everywhere(byte_level: Tokenizer, tmp_path: Path) -> None:
    tiktoken_load = require("tiktoken.load")
    tiktoken = require("tiktoken")
    from tokenizers import models, pre_tokenizers

    vocab_path, merges_path = byte_level.save_vocab_merges(tmp_path, prefix="mine")
    assert vocab_path.name == "mine-vocab.json" and merges_path.name == "mine-merges.txt"
    assert read_vocab_json(vocab_path) == byte_level.get_vocab()
    # Ours: the GPT-2 importer and the generic one.
    ours_again = Tokenizer.from_gpt2(vocab_path, merges_path)
    generic = Tokenizer(read_bpe_model(vocab_path, merges_path, special_tokens=["<|endoftext|>"]), pre_tokenizer=ByteLevel(add_prefix_space=False),
                        decoder=D.ByteLevel())
    # HF: models.BPE.from_file with the same pre-tokenizer.
    hf = tokenizers.Tokenizer(models.BPE.from_file(str(vocab_path), str(merges_path)))
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    # tiktoken: the data-gym loader. Our ids 0..255 are the bytes in byte order while tiktoken orders
    # single bytes its own way, so its one-byte ranks are taken from the vocabulary (clobber option);
    # the merged tokens then get exactly our ids (256 + merge index).
    ranks = tiktoken_load.data_gym_to_mergeable_bpe_ranks(
        vocab_bpe_file=str(merges_path), encoder_json_file=str(vocab_path), clobber_one_byte_tokens=True
    )
    from toolkit.interop import tiktoken_pattern

    enc = tiktoken.Encoding("mine", pat_str=tiktoken_pattern(byte_level), mergeable_ranks=ranks,
                            special_tokens={"<|endoftext|>": byte_level.token_to_id("<|endoftext|>")})
    for text in all_texts():
        ids = byte_level.encode_ids(text)
        assert ours_again.encode_ids(text) == ids, text
        assert generic.encode_ids(text) == ids, text
        assert hf.encode(text).ids == ids, text
        assert enc.encode_ordinary(text) == ids, text
    assert ours_again.special_tokens == byte_level.special_tokens


def test_char_level_vocab_merges_reload(char_level: Tokenizer, tmp_path: Path) -> None:
    from tokenizers import models, pre_tokenizers

    vocab_path, merges_path = char_level.save_vocab_merges(tmp_path)
    model = read_bpe_model(vocab_path, merges_path, unk_token="[UNK]", continuing_subword_prefix="##")
    assert type(model).__name__ == "BPE"
    ours_again = Tokenizer(model, pre_tokenizer=Whitespace())
    hf = tokenizers.Tokenizer(
        models.BPE.from_file(str(vocab_path), str(merges_path), unk_token="[UNK]", continuing_subword_prefix="##")
    )
    hf.pre_tokenizer = pre_tokenizers.Whitespace()
    for text in all_texts():
        ids = char_level.encode_ids(text)
        assert ours_again.encode_ids(text) == ids == hf.encode(text).ids, text


def test_exports_refuse_the_wrong_model(char_level: Tokenizer, byte_level: Tokenizer, tmp_path: Path) -> None:
    with pytest.raises(SerializationError, match="WordPiece vocabularies"):
        byte_level.save_bert_vocab(tmp_path / "vocab.txt")
    with pytest.raises(SerializationError, match="byte-level BPE"):
        char_level.save_tiktoken(tmp_path / "x.tiktoken")
    with pytest.raises(SerializationError, match="does not exist"):
        byte_level.save_vocab_merges(tmp_path / "missing-folder")


def test_rank_mode_model_exports_vocab_merges(byte_level: Tokenizer, tmp_path: Path) -> None:
    """A tiktoken-style model (no merge list) writes merges derived from its ranks."""
    from toolkit.interop import tiktoken_pattern

    byte_level.save_tiktoken(tmp_path / "x.tiktoken")
    ranked = Tokenizer.from_tiktoken(tmp_path / "x.tiktoken", pattern=tiktoken_pattern(byte_level),
                                     special_tokens=byte_level.special_tokens)
    vocab_path, merges_path = ranked.save_vocab_merges(tmp_path)
    again = Tokenizer.from_gpt2(vocab_path, merges_path)
    for text in all_texts():
        assert again.encode_ids(text) == ranked.encode_ids(text) == byte_level.encode_ids(text), text


def test_writes_are_atomic(byte_level: Tokenizer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure while writing leaves the previous file intact and no temporary file behind."""
    import os

    target = tmp_path / "x.tiktoken"
    target.write_text("previous", encoding="utf-8")

    def boom(*args: object, **kwargs: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(SerializationError, match="disk full"):
        byte_level.save_tiktoken(target)
    assert target.read_text(encoding="utf-8") == "previous"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.tiktoken"]


def test_vocab_merges_are_written_both_or_neither(byte_level: Tokenizer, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """``save_vocab_merges`` failing after ``vocab.json`` leaves the previous pair intact, nothing else."""
    from toolkit.interop import gpt2

    (tmp_path / "vocab.json").write_text("old vocab", encoding="utf-8")
    (tmp_path / "merges.txt").write_text("old merges", encoding="utf-8")

    def boom(*args: object, **kwargs: object) -> None:
        raise SerializationError("disk full")

    monkeypatch.setattr(gpt2, "write_merges_txt", boom)
    with pytest.raises(SerializationError, match="disk full"):
        byte_level.save_vocab_merges(tmp_path)
    assert {p.name: p.read_text(encoding="utf-8") for p in tmp_path.iterdir()} == {
        "vocab.json": "old vocab", "merges.txt": "old merges"}
    monkeypatch.undo()
    vocab, merges = byte_level.save_vocab_merges(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["merges.txt", "vocab.json"]
    assert read_bpe_model(vocab, merges).get_vocab() == byte_level.model.get_vocab()
