"""BERT vocab.txt: Tokenizer.from_bert_vocab equals HF's BertWordPieceTokenizer (ids and offsets) on
samples, vocab.txt export round trips, malformed vocabularies fail with typed errors.

Full-corpus WordPiece parity lives with the WordPiece tests; this file checks the interop entry point
on samples of every shared corpus, cased and uncased, single texts and pairs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import require, shared_path
from test_interop_gpt2 import MULTILINGUAL
from toolkit import Tokenizer
from toolkit.errors import SerializationError, VocabularyError

tokenizers = require("tokenizers")

SAMPLES = ["english/tinyshakespeare_input.txt", "english/gutenberg_part05.txt", *MULTILINGUAL]
LINES_PER_FILE = 600


def sample_lines() -> list[str]:
    lines: list[str] = []
    for relative in SAMPLES:
        with open(shared_path(relative), encoding="utf-8", newline="") as fh:
            lines += [line for _, line in zip(range(LINES_PER_FILE), fh)]
    return lines


def hf_bert(vocab: Path, *, lowercase: bool):
    from tokenizers.implementations import BertWordPieceTokenizer

    return BertWordPieceTokenizer(str(vocab), lowercase=lowercase)


VOCABS = [
    ("bert-base-uncased-vocab.txt", True),
    ("bert-base-cased-vocab.txt", False),
    ("bert-base-multilingual-cased-vocab.txt", False),
    ("bert-base-chinese-vocab.txt", True),
]


@pytest.mark.parity
@pytest.mark.parametrize("vocab_name, lowercase", VOCABS)
def test_ids_and_offsets_identical_to_hf(vocab_name: str, lowercase: bool) -> None:
    vocab = shared_path(f"vocab/bert/{vocab_name}")
    ours = Tokenizer.from_bert_vocab(vocab, lowercase=lowercase)
    hf = hf_bert(vocab, lowercase=lowercase)
    # HF also counts the empty token of bert-base-chinese's U+2028 line, which no text can produce.
    assert ours.vocab_size == hf.get_vocab_size() - ("" in hf.get_vocab())
    lines = sample_lines()
    assert len(lines) == LINES_PER_FILE * len(SAMPLES)
    for line, expected in zip(lines, hf.encode_batch(lines)):
        enc = ours.encode(line)
        assert enc.ids == expected.ids, line
        assert enc.offsets == expected.offsets, line
        assert enc.type_ids == expected.type_ids
        assert ours.encode_ids(line) == expected.ids
    pairs = list(zip(lines[::50], lines[1::50]))
    for (a, b), expected in zip(pairs, hf.encode_batch(pairs)):
        enc = ours.encode(a, b)
        assert (enc.ids, enc.type_ids, enc.offsets) == (expected.ids, expected.type_ids, expected.offsets)
    ids = ours.encode_ids(lines[0])
    assert ours.decode(ids, skip_special_tokens=True) == hf.decode(ids, skip_special_tokens=True)


def test_offsets_after_stripped_marks() -> None:
    """A stripped combining mark's span is dropped, as in HF (a token ending in one ends before it)."""
    vocab = shared_path("vocab/bert/bert-base-uncased-vocab.txt")
    ours = Tokenizer.from_bert_vocab(vocab, lowercase=True)
    hf = hf_bert(vocab, lowercase=True)
    for text in ["e\u0301", "cafe\u0301 x", "\u2639\ufe0f", "ab\u0301c", "a\u0301\u0302b c"]:
        assert ours.encode(text).offsets == hf.encode(text).offsets, text


def test_special_tokens_in_text_are_ordinary_unless_allowed() -> None:
    vocab = shared_path("vocab/bert/bert-base-uncased-vocab.txt")
    ours = Tokenizer.from_bert_vocab(vocab)
    hf = hf_bert(vocab, lowercase=True)
    text = "hello [SEP] world [MASK]"
    # HF always extracts added tokens; we only do when allowed_special says so.
    assert ours.encode(text, allowed_special="all").ids == hf.encode(text).ids
    assert 102 not in ours.encode_ids(text)[1:-1]


def test_save_bert_vocab_round_trip(tmp_path: Path) -> None:
    vocab = shared_path("vocab/bert/bert-base-cased-vocab.txt")
    ours = Tokenizer.from_bert_vocab(vocab, lowercase=False)
    out = tmp_path / "vocab.txt"
    ours.save_bert_vocab(out)
    assert out.read_bytes() == vocab.read_bytes()


def test_vocab_without_unk_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "vocab.txt"
    path.write_text("[PAD]\n[CLS]\n[SEP]\nhello\n##s\n", encoding="utf-8")
    with pytest.raises(VocabularyError) as info:
        Tokenizer.from_bert_vocab(path)
    assert "vocab.txt" in str(info.value) and "'[UNK]'" in str(info.value)


def test_vocab_without_cls_and_bad_utf8(tmp_path: Path) -> None:
    path = tmp_path / "vocab.txt"
    path.write_text("[UNK]\n[SEP]\nhello\n", encoding="utf-8")
    with pytest.raises(VocabularyError, match=r"'\[CLS\]'.*cls_token"):
        Tokenizer.from_bert_vocab(path)
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"[UNK]\n[CLS]\n[SEP]\nhel\xfflo\n")
    with pytest.raises(SerializationError, match=r"bad.txt:4: .*not UTF-8"):
        Tokenizer.from_bert_vocab(bad)


def test_trained_wordpiece_exports_to_vocab_txt(tmp_path: Path) -> None:
    """A WordPiece we train, saved as vocab.txt, reloads (ours and HF) to the same ids."""
    from algorithms import WordPiece, WordPieceTrainer
    from pretokenizers import BertPreTokenizer
    from toolkit.decoders import WordPiece as WordPieceDecoder
    from toolkit.normalizers import BertNormalizer
    from toolkit.processors import BertProcessing
    from test_interop_tiktoken import all_texts, training_lines

    tok = Tokenizer(
        WordPiece(), normalizer=BertNormalizer(lowercase=True), pre_tokenizer=BertPreTokenizer(),
        decoder=WordPieceDecoder(),
    )
    tok.train(training_lines(), WordPieceTrainer(vocab_size=800))
    tok.post_processor = BertProcessing(sep=("[SEP]", tok.token_to_id("[SEP]")), cls=("[CLS]", tok.token_to_id("[CLS]")))
    path = tmp_path / "vocab.txt"
    tok.save_bert_vocab(path)
    again = Tokenizer.from_bert_vocab(path, lowercase=True)
    hf = hf_bert(path, lowercase=True)
    for text in all_texts():
        assert again.encode(text).ids == tok.encode(text).ids == hf.encode(text).ids, text
        assert again.encode(text).offsets == hf.encode(text).offsets, text


def test_repeated_token_reads_like_hf(tmp_path: Path) -> None:
    """A token on two lines takes the later line's id in both libraries; the earlier id is unused."""
    from tokenizers.models import WordPiece as HFWordPiece

    from toolkit.interop.bert_vocab import read_bert_vocab
    from toolkit.training.presets import bert_pipeline

    vocab = tmp_path / "vocab.txt"
    vocab.write_text("[PAD]\n[UNK]\n[CLS]\n[SEP]\nhug\n##s\nhug\n!\n", encoding="utf-8")
    assert read_bert_vocab(vocab) == HFWordPiece.read_file(str(vocab))
    hf = hf_bert(vocab, lowercase=True)
    for ours in (Tokenizer.from_bert_vocab(vocab), bert_pipeline(vocab)):
        for text in ("Hugs!", "hug hugs", "HUG"):
            want, got = hf.encode(text), ours.encode(text)
            assert (got.ids, got.tokens, got.offsets) == (want.ids, want.tokens, want.offsets), text
        assert ours.id_to_token(4) is None and ours.token_to_id("hug") == 6
