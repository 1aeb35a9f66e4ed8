"""WordPiece model edges pinned down after a mutation run of ``algorithms/wordpiece.py`` (docs/testing.md).

The place each error names (constructor, ``from_dict``), the exact text of the "no vocabulary" error,
and ``read_vocab_file``: the limits name the file, a directory is refused with a readable message,
blank lines are dropped but still count, and lines end where a text-mode ``open()`` ends them (the
oracle here is ``open().readlines()``).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from algorithms import WordPiece
from toolkit import limits
from toolkit.errors import SerializationError, VocabularyError


def test_errors_name_the_constructor_or_the_file_section() -> None:
    with pytest.raises(VocabularyError, match=r"^WordPiece\.vocab: ids must be unique"):
        WordPiece({"[UNK]": 0, "a": 0})
    with pytest.raises(VocabularyError) as err:
        WordPiece({"a": 0})
    assert str(err.value) == (
        "WordPiece: unk_token '[UNK]' is not in the vocabulary (1 tokens); add '[UNK]' to the vocabulary, "
        "or pass the unknown token it uses as unk_token=..."
    )
    with pytest.raises(VocabularyError, match=r"^WordPiece\.special_tokens: '\[CLS\]' is not in the vocabulary"):
        WordPiece({"[UNK]": 0}, special_tokens=["[CLS]"])
    with pytest.raises(VocabularyError, match=r"^model 'WordPiece': unk_token '\[UNK\]' is not in the vocabulary"):
        WordPiece.from_dict({"vocab": {"a": 0}})
    with pytest.raises(VocabularyError, match=r"^model 'WordPiece'\.vocab: ids must be unique"):
        WordPiece.from_dict({"vocab": {"[UNK]": 0, "a": 0}})
    with pytest.raises(VocabularyError, match=r"^here: unk_token"):
        WordPiece.from_dict({"vocab": {"a": 0}}, where="here")


def test_live_changes_name_the_model() -> None:
    model = WordPiece({"[UNK]": 0, "a": 1})
    with pytest.raises(VocabularyError, match=r"^WordPiece: unk_token '<unk>' is not in the vocabulary"):
        model.unk_token = "<unk>"


def test_an_untrained_model_says_how_to_get_a_vocabulary() -> None:
    message = (
        "WordPiece: the model has no vocabulary; train it (Tokenizer.train) or load one "
        "(WordPiece(vocab) / WordPiece.from_file('vocab.txt'))"
    )
    for call in (WordPiece().encode_piece, WordPiece().tokenize):
        with pytest.raises(VocabularyError) as err:
            call("a")
        assert str(err.value) == message


def test_vocab_file_lines_as_hf_reads_them(tmp_path: Path) -> None:
    """One reader for vocab.txt (toolkit.interop.read_bert_vocab), HF's ``WordPiece.read_file``: a lone
    CR is not a line end, a blank line is the token ""."""
    path = tmp_path / "vocab.txt"
    path.write_bytes(b"[UNK]\ra\r\n\nb\n##c  \n")  # old Mac, Windows and Unix line ends, a blank line
    assert WordPiece.read_vocab_file(path) == {"[UNK]\ra": 0, "": 1, "b": 2, "##c": 3}


def test_vocab_file_errors_name_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(SerializationError) as err:
        WordPiece.read_vocab_file(tmp_path)
    assert str(err.value) == f"{tmp_path}: is a folder, expected a vocab.txt"
    path = tmp_path / "vocab.txt"
    path.write_text("[UNK]\n" * 4, encoding="utf-8")  # 24 bytes
    monkeypatch.setattr(limits, "MAX_FILE_BYTES", 10)
    with pytest.raises(SerializationError, match=rf"^{path}: the file has 24 bytes, more than the limit of 10 "):
        WordPiece.read_vocab_file(path)
    if os.path.exists("/dev/zero"):  # st_size 0: the bounded read counts what it reads
        with pytest.raises(SerializationError, match=r"^/dev/zero: more than 10 bytes, the limit"):
            WordPiece.read_vocab_file("/dev/zero")


def test_special_tokens_are_never_matched_inside_text() -> None:
    vocab = {"[UNK]": 0, "[CLS]": 1, "a": 2, "##b": 3}
    model = WordPiece(vocab, special_tokens=["[CLS]"])
    assert model.encode_piece("[CLS]") == (0,) and model.tokenize("[CLS]") == [(0, 0, 5)]
    assert model.encode_piece("ab") == (2, 3)
    assert WordPiece(vocab).encode_piece("[CLS]") == (1,)  # an ordinary token when not special
