"""The raw file readers and writers of toolkit.interop: formats, malformed files, typed errors.

No peer library and no shared corpus needed: every file is written by the test.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from toolkit.errors import ConfigError, SerializationError, ToolkitError, VocabularyError
from toolkit.interop._io import numbered_lines, rstrip_ws
from toolkit.interop.bert_vocab import read_bert_vocab, write_bert_vocab
from toolkit.interop.gpt2 import check_merges, read_merges_txt, read_vocab_json, write_merges_txt, write_vocab_json
from toolkit.interop.tiktoken_files import read_tiktoken, write_tiktoken


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8", newline="")
    return path


# ---------------------------------------------------------------------------- line splitting
def test_lines_split_on_newline_only_and_strip_cr() -> None:
    assert list(numbered_lines("a\r\nb\u2028c\n\nd")) == [(1, "a"), (2, "b\u2028c"), (3, ""), (4, "d")]


def test_rstrip_ws_is_unicode_white_space() -> None:
    assert rstrip_ws("x \t\u3000\u2028") == "x"
    assert rstrip_ws("x\x1f") == "x\x1f"  # not White_Space, unlike str.rstrip


# ---------------------------------------------------------------------------- vocab.json / merges.txt
def test_vocab_json_round_trip(tmp_path: Path) -> None:
    vocab = {"Ġt": 2, "a": 0, "é": 1}
    write_vocab_json(vocab, tmp_path / "vocab.json")
    assert read_vocab_json(tmp_path / "vocab.json") == vocab
    assert list(json.loads((tmp_path / "vocab.json").read_text(encoding="utf-8"))) == ["a", "é", "Ġt"]


@pytest.mark.parametrize(
    "content, needle",
    [
        ('{"a": 0, "b": ', "not valid JSON"),
        ('["a", "b"]', "must be a JSON object"),
        ('{"a": 0, "b": "1"}', "'b' has id '1'"),
        ('{"a": 0, "b": 1.5}', "'b' has id 1.5"),
        ('{"a": 0, "b": true}', "'b' has id True"),
        ('{"a": -1}', "negative id"),
    ],
)
def test_bad_encoder_json(tmp_path: Path, content: str, needle: str) -> None:
    path = write(tmp_path, "encoder.json", content)
    with pytest.raises(SerializationError) as info:
        read_vocab_json(path)
    assert needle in str(info.value) and "encoder.json" in str(info.value)


def test_encoder_json_duplicate_ids(tmp_path: Path) -> None:
    path = write(tmp_path, "encoder.json", '{"a": 0, "b": 0}')
    with pytest.raises(VocabularyError, match="'a' and 'b' both have id 0"):
        read_vocab_json(path)


def test_missing_and_non_utf8_files(tmp_path: Path) -> None:
    with pytest.raises(SerializationError, match="no such"):
        read_vocab_json(tmp_path / "nope.json")
    path = write(tmp_path, "merges.txt", b"#version: 0.2\na b\n\xff c\n")
    with pytest.raises(SerializationError, match=r"merges.txt:3: .*not UTF-8"):
        read_merges_txt(path)


def test_merges_round_trip_and_header(tmp_path: Path) -> None:
    merges = [("Ġ", "t"), ("h", "e"), ("Ġt", "he")]
    write_merges_txt(merges, tmp_path / "merges.txt")
    text = (tmp_path / "merges.txt").read_text(encoding="utf-8")
    assert text.startswith("#version: 0.2\n") and text.endswith("Ġt he\n")
    assert read_merges_txt(tmp_path / "merges.txt") == merges
    # Header optional, CRLF and trailing blank lines tolerated.
    assert read_merges_txt(write(tmp_path, "m2.txt", "a b\r\nab c\r\n\r\n")) == [("a", "b"), ("ab", "c")]


@pytest.mark.parametrize("bad", ["onlyone", "a b c", "a  b", " a", ""])
def test_merges_line_with_wrong_parts(tmp_path: Path, bad: str) -> None:
    path = write(tmp_path, "vocab.bpe", f"#version: 0.2\na b\n{bad}\nab c\n")
    with pytest.raises(SerializationError) as info:
        read_merges_txt(path)
    assert "vocab.bpe:3:" in str(info.value) and "two tokens" in str(info.value)


def test_merges_must_match_vocab(tmp_path: Path) -> None:
    vocab = {"a": 0, "b": 1, "ab": 2}
    check_merges(vocab, [("a", "b")])
    with pytest.raises(VocabularyError, match=r"merges.txt:3: .*'c'.*not in the vocabulary"):
        check_merges(vocab, [("a", "b"), ("ab", "c")], source="merges.txt", first_line=2)
    with pytest.raises(VocabularyError, match="result 'ba'"):
        check_merges(vocab, [("b", "a")])


@pytest.mark.parametrize("header, line", [("#version: 0.2\n", 3), ("", 2)])
def test_a_bpe_merge_outside_the_vocabulary_names_its_line(tmp_path: Path, header: str, line: int) -> None:
    from toolkit.interop import read_bpe_model

    write_vocab_json({"a": 0, "b": 1, "c": 2, "ab": 3}, tmp_path / "vocab.json")  # not byte-level: BPE checks
    (tmp_path / "m.txt").write_text(f"{header}a b\na c\n", encoding="utf-8")
    with pytest.raises(VocabularyError, match=rf"m.txt:{line}: merge \('a', 'c'\) produces 'ac', which is not in the vocabulary"):
        read_bpe_model(tmp_path / "vocab.json", tmp_path / "m.txt")


def test_merges_txt_cannot_hold_spaces(tmp_path: Path) -> None:
    with pytest.raises(SerializationError, match="space"):
        write_merges_txt([("a b", "c")], tmp_path / "merges.txt")
    assert not (tmp_path / "merges.txt").exists()


# ---------------------------------------------------------------------------- .tiktoken
def test_tiktoken_round_trip(tmp_path: Path) -> None:
    ranks = {b"a": 0, b"b": 1, b"\xff\x00": 3, b"ab": 2}
    write_tiktoken(ranks, tmp_path / "x.tiktoken")
    lines = (tmp_path / "x.tiktoken").read_text().splitlines()
    assert lines[0] == f"{base64.b64encode(b'a').decode()} 0" and lines[-1].endswith(" 3")
    assert read_tiktoken(tmp_path / "x.tiktoken") == ranks


@pytest.mark.parametrize(
    "line, needle, error",
    [
        ("YQ=! 1", "invalid base64", SerializationError),
        ("YQ 1", "invalid base64", SerializationError),
        ("Yg==", "expected '<base64 token> <rank>'", SerializationError),
        ("Yg== 1 2", "expected '<base64 token> <rank>'", SerializationError),
        ("Yg== one", "not a non-negative integer", SerializationError),
        ("Yg== -1", "not a non-negative integer", SerializationError),
        ("YQ== 1", "listed twice", VocabularyError),
        ("Yg== 0", "rank 0 is used twice", VocabularyError),
    ],
)
def test_bad_tiktoken_lines(tmp_path: Path, line: str, needle: str, error: type[Exception]) -> None:
    path = write(tmp_path, "bad.tiktoken", f"YQ== 0\n{line}\nYw== 2\n")
    with pytest.raises(error) as info:
        read_tiktoken(path)
    assert needle in str(info.value) and "bad.tiktoken:2:" in str(info.value)


def test_tiktoken_not_ascii_and_empty(tmp_path: Path) -> None:
    with pytest.raises(SerializationError, match=r"bad.tiktoken:2: .*ASCII"):
        read_tiktoken(write(tmp_path, "bad.tiktoken", "YQ== 0\nY\xe9== 1\n"))
    with pytest.raises(SerializationError, match="no tokens"):
        read_tiktoken(write(tmp_path, "empty.tiktoken", "\n\n"))


# ---------------------------------------------------------------------------- vocab.txt
def test_bert_vocab_round_trip(tmp_path: Path) -> None:
    vocab = {"[PAD]": 0, "[UNK]": 1, "hug": 2, "##s": 3, "é": 4}
    write_bert_vocab(vocab, tmp_path / "vocab.txt")
    assert (tmp_path / "vocab.txt").read_text(encoding="utf-8") == "[PAD]\n[UNK]\nhug\n##s\né\n"
    assert read_bert_vocab(tmp_path / "vocab.txt") == vocab


def test_bert_vocab_reads_like_hf(tmp_path: Path) -> None:
    # Trailing whitespace removed (U+2028 included), CRLF accepted, U+2028 does not split lines.
    path = write(tmp_path, "vocab.txt", "[UNK]\r\nhug \n##\u2028\nx\u2028y\n")
    assert read_bert_vocab(path) == {"[UNK]": 0, "hug": 1, "##": 2, "x\u2028y": 3}


def test_bert_vocab_duplicate_and_empty(tmp_path: Path) -> None:
    # As Hugging Face's WordPiece.read_file: a repeated token takes its last line's id, the earlier id stays unused.
    assert read_bert_vocab(write(tmp_path, "vocab.txt", "[UNK]\na\nb\na\n")) == {"[UNK]": 0, "a": 3, "b": 2}
    with pytest.raises(SerializationError, match="empty"):
        read_bert_vocab(write(tmp_path, "empty.txt", ""))


def test_bert_vocab_write_needs_dense_ids(tmp_path: Path) -> None:
    with pytest.raises(SerializationError, match="id 1 is missing"):
        write_bert_vocab({"[UNK]": 0, "a": 2}, tmp_path / "vocab.txt")
    with pytest.raises(SerializationError, match="line break"):
        write_bert_vocab({"[UNK]": 0, "a\nb": 1}, tmp_path / "vocab.txt")


def test_errors_are_toolkit_errors() -> None:
    assert issubclass(SerializationError, ToolkitError) and issubclass(VocabularyError, ToolkitError)
    assert issubclass(ConfigError, ValueError)


# ---------------------------------------------------------------------------------------- any format
def test_load_any_is_the_one_loader_of_every_format(tmp_path: Path) -> None:
    from toolkit.interop.files import detect_format, load_tokenizer, save_tokenizer
    from toolkit.registry import tool

    assert tool("load_any") is load_tokenizer
    vocab = write(tmp_path, "vocab.txt", "[UNK]\n[CLS]\n[SEP]\nHug\n##s\n")
    cased = load_tokenizer(vocab, lowercase=False, pattern=None, merges=None)  # other formats' options are ignored
    assert detect_format(vocab) == "vocab-txt" and cased.encode("Hugs").tokens == ["[CLS]", "Hug", "##s", "[SEP]"]
    written = save_tokenizer(cased, tmp_path / "hf.json", format="hf")
    assert written == [tmp_path / "hf.json"] and load_tokenizer(tmp_path / "hf.json").encode("Hugs") == cased.encode("Hugs")
    with pytest.raises(ConfigError, match="unknown option.*lowercse"):
        load_tokenizer(vocab, lowercse=False)
    with pytest.raises(ConfigError, match="unknown format 'bpe'"):
        load_tokenizer(vocab, format="bpe")


def test_options_meant_for_another_format_are_ignored_or_refused_on_request(tmp_path: Path) -> None:
    from toolkit.interop.files import load_tokenizer

    vocab = write(tmp_path, "vocab.txt", "[UNK]\n[CLS]\n[SEP]\nHug\n##s\n")
    assert load_tokenizer(vocab, pattern="GPT2_PATTERN").get_vocab() == load_tokenizer(vocab).get_vocab()
    with pytest.raises(ConfigError, match=r"vocab.txt is a vocab-txt file: the option pattern applies to tiktoken "
                                          r"files only; the option merges applies to vocab-merges files only; leave it out"):
        load_tokenizer(vocab, unused="error", pattern="GPT2_PATTERN", merges="m.txt", lowercase=True)
    with pytest.raises(ConfigError, match="special_tokens applies to vocab-merges and tiktoken files only"):
        load_tokenizer(vocab, unused="error", special_tokens=["<s>"])
    assert load_tokenizer(vocab, unused="error", lowercase=False, pattern=None).encode("Hugs").tokens[1] == "Hug"
    from toolkit.interop.files import save_tokenizer

    hf = tmp_path / "hf.json"
    save_tokenizer(load_tokenizer(vocab), tmp_path / "model", format="transformers")
    save_tokenizer(load_tokenizer(vocab), hf, format="hf")
    with pytest.raises(ConfigError, match=r"hf.json is an hf file: the option lowercase applies to vocab-txt files only"):
        load_tokenizer(hf, unused="error", lowercase=True)
    with pytest.raises(ConfigError, match=r"model is a transformers folder: the option pattern applies to tiktoken"):
        load_tokenizer(tmp_path / "model", unused="error", pattern="GPT2_PATTERN")
    assert load_tokenizer(tmp_path / "model", unused="error", strict=False).get_vocab() == load_tokenizer(vocab).get_vocab()
    with pytest.raises(ConfigError, match="unused must be 'ignore' or 'error'"):
        load_tokenizer(vocab, unused="warn")


def test_gpt2_files_take_their_options_through_the_one_loader(tmp_path: Path) -> None:
    from toolkit.interop.files import load_tokenizer

    # The options of from_gpt2 were dropped (special_tokens) or refused (add_prefix_space) by load_tokenizer.
    from toolkit.bytelevel import BYTE_TO_CHAR

    alphabet = {BYTE_TO_CHAR[b]: b for b in range(256)}  # a byte-level vocabulary holds every byte
    write_vocab_json({**alphabet, "hi": 256, "Ġh": 257, "Ġhi": 258, "<|end|>": 259}, tmp_path / "vocab.json")
    write_merges_txt([("Ġ", "h"), ("Ġh", "i"), ("h", "i")], tmp_path / "merges.txt")
    tok = load_tokenizer(tmp_path / "vocab.json", special_tokens=["<|end|>"], add_prefix_space=True, unused="error")
    assert tok.encode("hi<|end|>", allowed_special="all").tokens == ["Ġhi", "<|end|>"]
    plain = load_tokenizer(tmp_path)
    assert plain.encode("hi").tokens == ["hi"] and plain.encode("<|end|>").tokens != ["<|end|>"]
    with pytest.raises(ConfigError, match="is a folder, which holds its merges file; merges .* goes with a vocab.json file"):
        load_tokenizer(tmp_path, merges=tmp_path / "other-merges.txt")  # the folder's merges.txt silently won


def test_pattern_names_resolve_in_one_place() -> None:
    import pretokenizers
    from toolkit.interop.tiktoken_files import resolve_pattern

    assert resolve_pattern("CHAT_PATTERN") == resolve_pattern("chat") == pretokenizers.CHAT_PATTERN
    assert resolve_pattern("hf_gpt2") == pretokenizers.HF_GPT2_PATTERN
    assert resolve_pattern("cl100k_base") == resolve_pattern("CL100K") == pretokenizers.CL100K_PATTERN
    assert resolve_pattern("__doc__") == "__doc__" and resolve_pattern(r"\w+") == r"\w+"


def test_a_blank_line_of_vocab_txt_leaves_its_id_unused_and_encodes_as_hf(tmp_path: Path) -> None:
    """docs/migrating.md: HF keeps "" as a token; ours leaves the id unused, with the same ids for any text."""
    from conftest import require

    from toolkit import Tokenizer

    tokenizers = require("tokenizers")
    path = tmp_path / "vocab.txt"
    path.write_text("[PAD]\n[UNK]\n[CLS]\n[SEP]\n\nhello\n##s\nworld\n", encoding="utf-8")
    ours, hf = Tokenizer.from_bert_vocab(path), tokenizers.BertWordPieceTokenizer(str(path))
    assert (ours.get_vocab_size(), ours.id_to_token(4)) == (hf.get_vocab_size() - 1, None) and hf.id_to_token(4) == ""
    for text in ["hello worlds", "", "  x", "hellos"]:
        assert ours.encode(text).ids == hf.encode(text).ids
    with pytest.raises(SerializationError, match=r"id 4 is missing .* save such a vocabulary as tokenizer\.json"):
        ours.save_bert_vocab(tmp_path / "out.txt")
    assert not (tmp_path / "out.txt").exists()


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="no named pipes here")
@pytest.mark.parametrize("name, content, says", [
    ("fifo", None, None),  # our JSON, detected by content
    ("fifo.json", b'{"broken": ', "this does not look like a tokenizer file"),
])
def test_a_pipe_is_read_once_and_named_in_errors(tmp_path: Path, name: str, content: bytes | None, says: str | None) -> None:
    """``encode <(cat tok.json)`` and ``/dev/stdin``: detecting the format must not use up the stream."""
    import os
    import threading

    from algorithms import WordLevel
    from toolkit import Tokenizer
    from toolkit.interop.files import load_tokenizer

    tok = Tokenizer(WordLevel({"[UNK]": 0, "hi": 1}, unk_token="[UNK]"))
    data = tok.to_str().encode("utf-8") if content is None else content
    pipe = tmp_path / name
    os.mkfifo(pipe)

    def feed() -> None:
        with open(pipe, "wb") as fh:
            fh.write(data)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    try:
        if says is None:
            assert load_tokenizer(pipe).encode("hi").ids == [1]
        else:
            with pytest.raises(SerializationError) as caught:
                load_tokenizer(pipe)
            assert str(caught.value).startswith(f"{pipe}: ") and says in str(caught.value) and "tokenizer-toolkit-" not in str(caught.value)
    finally:
        writer.join(timeout=10)
