"""The public API given wrong arguments: a typed error naming the argument, never a raw ``TypeError`` /
``OSError`` or a silent wrong answer; and a rejected call leaves the object as it was (issue 18, items
13, 20 and 21).
"""

from __future__ import annotations

import base64
import errno
import os
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from algorithms import BPE, BPETrainer
from test_robustness_support import pipelines
from toolkit import Tokenizer
from toolkit.errors import ConfigError, CorpusError, InputError, SerializationError


@pytest.fixture(scope="module")
def gpt2() -> Tokenizer:
    return Tokenizer.from_json(pipelines()["gpt2"].to_json())


# ---------------------------------------------------------------------------------------- item 13
def test_a_rejected_id_leaves_the_stream_decoder_as_it_was(gpt2: Tokenizer) -> None:
    ids = gpt2.encode_ids("héllo 🙂 wörld")
    sd = gpt2.stream_decoder()
    out = "".join(sd.feed(i) for i in ids[:3])
    for bad in (-5, gpt2.vocab_size + 10**6, True, None, "3", 10**5000):
        with pytest.raises(InputError):
            sd.feed(bad)  # type: ignore[arg-type]
    out += "".join(sd.feed(i) for i in ids[3:]) + sd.flush()
    assert out == "héllo 🙂 wörld"


_VALID = st.integers(0, 419)  # the gpt2 pipeline of test_robustness_support has 420 tokens
_INVALID = st.one_of(st.integers(max_value=-1), st.integers(min_value=420), st.booleans(), st.none(), st.text(max_size=2))


@settings(max_examples=150, deadline=None)
@given(stream=st.lists(st.one_of(_VALID.map(lambda i: ("ok", i)), _INVALID.map(lambda i: ("bad", i))), max_size=40),
       skip=st.booleans())
def test_stream_decoder_output_is_decode_of_the_valid_ids(stream: list[tuple[str, Any]], skip: bool) -> None:
    tok = pipelines()["gpt2"]
    assert tok.vocab_size == 420
    sd = tok.stream_decoder(skip_special_tokens=skip)
    out, valid = [], []
    for kind, value in stream:
        if kind == "ok":
            valid.append(value)
            out.append(sd.feed(value))
        else:
            with pytest.raises(InputError):
                sd.feed(value)
    out.append(sd.flush())
    assert "".join(out) == tok.decode(valid, skip_special_tokens=skip)


def _byte_fallback() -> Tokenizer:
    from algorithms import Unigram
    from toolkit.decoders import ByteFallback, Fuse, Sequence

    vocab = [("<unk>", 0.0), ("<s>", 0.0), ("a", -1.0), *((f"<0x{b:02X}>", -5.0) for b in range(256))]
    return Tokenizer(Unigram(vocab, 0, byte_fallback=True, special_tokens=["<s>"]),
                     decoder=Sequence([ByteFallback(), Fuse()]))


@settings(max_examples=200, deadline=None)
@given(data=st.lists(st.integers(0, 255), max_size=30), sizes=st.lists(st.integers(1, 5), min_size=1, max_size=8),
       specials=st.lists(st.integers(0, 30), max_size=3), skip=st.booleans())
def test_a_byte_fallback_run_invalid_from_its_first_byte_streams_as_decode(
    data: list[int], sizes: list[int], specials: list[int], skip: bool
) -> None:
    """0xF8 never starts a character, so the run prints one U+FFFD per byte whatever follows; the
    stream, fed lists of any size with skipped <s> inside, prints the same (never the bytes after a
    cut decoded as a run of their own)."""
    tok = _byte_fallback()
    ids = [3 + 0xF8] + [3 + b for b in data]
    for k in specials:
        ids.insert(min(k, len(ids)), 1)
    if not skip:
        ids = [i for i in ids if i != 1]  # a kept <s> ends the run
    chunks, k = [], 0
    while k < len(ids):
        size = sizes[len(chunks) % len(sizes)]
        chunks.append(ids[k:k + size])
        k += size
    stream = tok.stream_decoder(skip_special_tokens=skip)
    assert "".join(stream.feed(c) for c in chunks) + stream.flush() == tok.decode(ids, skip_special_tokens=skip)


def test_a_long_invalid_byte_run_keeps_a_bounded_buffer() -> None:
    tok = _byte_fallback()
    stream = tok.stream_decoder()
    ids = [3 + 0xF8] + [3 + 0x48] * 3000  # "H" bytes are valid alone, not after 0xF8 in one run
    out = "".join(stream.feed(i) for i in ids)
    assert len(stream._ids) <= 8  # the poison byte and the last ids, not the whole run
    assert out + stream.flush() == tok.decode(ids) == "\ufffd" * 3001


def test_decode_stream_takes_arrays_and_names_a_bad_id_in_the_callers_list(gpt2: Tokenizer) -> None:
    np = pytest.importorskip("numpy")
    from toolkit.decoders import DecodeStream
    from toolkit.errors import InputTypeError

    ids = gpt2.encode_ids("hello there")
    assert DecodeStream().step(gpt2, np.array(ids)) == gpt2.decode(ids)
    assert DecodeStream().step(gpt2, np.int64(ids[0])) == gpt2.decode(ids[:1])
    with pytest.raises(InputTypeError):  # a TypeError, as HF's
        DecodeStream().step(gpt2, "5")
    stream = gpt2.stream_decoder()
    stream.feed(ids[:3])
    with pytest.raises(InputError, match=r"ids\[1\]"):
        stream.feed([ids[0], True])


def test_stream_decoder_refuses_a_non_bool_skip_flag(gpt2: Tokenizer) -> None:
    with pytest.raises(InputError, match="skip_special_tokens"):
        gpt2.stream_decoder(skip_special_tokens="yes")  # type: ignore[arg-type]


def test_decode_stream_takes_lists_refuses_bad_arguments_and_copies(gpt2: Tokenizer) -> None:
    import copy

    from toolkit.decoders import DecodeStream
    text = "héllo 🙂 wörld"
    ids = gpt2.encode_ids(text)
    for bad in ({"skip_special_tokens": 1}, {"ids": "12"}, {"ids": 5}):
        with pytest.raises(InputError):
            DecodeStream(**bad)  # type: ignore[arg-type]
    stream = DecodeStream()
    first = stream.step(gpt2, ids[:2])
    for bad in ("3", b"3", {3}, [3, "x"], -1):
        with pytest.raises(InputError):
            stream.step(gpt2, bad)  # type: ignore[arg-type]
    twin = copy.copy(stream)
    rest = [stream.step(gpt2, i) for i in ids[2:]]
    assert [twin.step(gpt2, i) for i in ids[2:]] == rest  # independent: the twin starts where it was copied
    assert (first or "") + "".join(r for r in rest if r) == text
    assert stream.step(gpt2, []) is None
    with pytest.raises(InputError):
        DecodeStream(ids=[10**9]).step(gpt2, 0)  # the prefix is checked by the first step


# ---------------------------------------------------------------------------------------- item 20
def _tiktoken_with_gap(tmp_path: Path) -> Path:
    lines = [f"{base64.b64encode(bytes([b])).decode()} {b}" for b in range(256)]
    lines.append(f"{base64.b64encode(b'ab').decode()} 300")  # ranks 256..299 are missing
    path = tmp_path / "gappy.tiktoken"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_missing_id_in_a_vocabulary_with_gaps_is_named_as_missing(tmp_path: Path) -> None:
    tok = Tokenizer.from_tiktoken(_tiktoken_with_gap(tmp_path), pattern="cl100k")
    assert tok.decode([300, 97]) == "aba"
    with pytest.raises(InputError) as info:
        tok.decode([270])
    message = str(info.value)
    assert "270" in message and "missing" in message and "0..300" in message
    with pytest.raises(InputError, match=r"id 301: not in the vocabulary \(ids are 0\.\.300\)"):
        tok.decode([301])  # the old message said 0..256 (vocab_size - 1): wrong with gaps


def test_a_huge_id_is_named_by_its_size() -> None:
    tok = Tokenizer(BPE(vocab={"a": 0}, merges=[]))
    with pytest.raises(InputError, match="-bit integer"):
        tok.decode([10**5000])


# ---------------------------------------------------------------------------------------- item 21
@pytest.mark.parametrize("bad", [[1], 5, b"all", "<|endoftext|>", [b"<|endoftext|>"], [None], 1.5])
def test_allowed_special_of_the_wrong_type_is_a_config_error(gpt2: Tokenizer, bad: Any) -> None:
    for call in (gpt2.encode, gpt2.encode_ids, lambda t, **kw: gpt2.encode_batch([t], **kw)):
        with pytest.raises(ConfigError, match="allowed_special"):
            call("hi <|endoftext|>", allowed_special=bad)


@pytest.mark.parametrize("empty", [None, (), [], set(), frozenset()])
def test_allowed_special_none_means_none_in_every_encode(gpt2: Tokenizer, empty: Any) -> None:
    text = "hi <|endoftext|>"
    plain = gpt2.encode_ids(text)
    assert gpt2.encode(text, allowed_special=empty).ids == plain
    assert gpt2.encode_ids(text, allowed_special=empty) == plain
    assert gpt2.encode_batch([text], allowed_special=empty)[0].ids == plain
    assert gpt2.token_to_id("<|endoftext|>") not in plain


@pytest.mark.parametrize(
    ("ids", "skip", "match"),
    [
        ([[1]], True, r"^cannot decode ids\[0\] = \[1\]: a list, not an integer id$"),
        ([[1]], False, r"^cannot decode ids\[0\] = \[1\]: a list, not an integer id$"),
        (None, False, "ids must be a sequence"),
        ("12", False, "ids must be a sequence"),
        (5, False, "ids must be a sequence"),
        ([1, True], False, r"ids\[1\] = True: a bool, not an integer id"),
        ([False], True, r"ids\[0\] = False: a bool"),
        ([1.0], False, r"ids\[0\] = 1\.0: a float"),
        (["1"], False, r"ids\[0\] = '1': a str"),
    ],
)
def test_decode_refuses_what_is_not_a_list_of_ints(gpt2: Tokenizer, ids: Any, skip: bool, match: str) -> None:
    with pytest.raises(InputError, match=match):
        gpt2.decode(ids, skip_special_tokens=skip)


def test_decode_accepts_integer_like_ids(gpt2: Tokenizer) -> None:
    np = pytest.importorskip("numpy")
    ids = gpt2.encode_ids("hello world")
    assert gpt2.decode(np.array(ids)) == gpt2.decode(tuple(ids)) == gpt2.decode(iter(ids)) == "hello world"


@pytest.mark.parametrize("bad", [None, "b", 5])
def test_decode_batch_and_flags(gpt2: Tokenizer, bad: Any) -> None:
    with pytest.raises(InputError, match="decode_batch"):
        gpt2.decode_batch(bad)
    with pytest.raises(InputError, match="skip_special_tokens"):
        gpt2.decode([1], skip_special_tokens="no")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="add_special_tokens"):
        gpt2.encode("a", add_special_tokens="no")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="add_special_tokens"):
        gpt2.encode_ids("a", add_special_tokens=None)  # type: ignore[arg-type]
    with pytest.raises(InputError, match="encode_batch"):
        gpt2.encode_batch(5)  # type: ignore[arg-type]


def test_from_tiktoken_special_tokens_must_be_a_mapping(tmp_path: Path) -> None:
    path = _tiktoken_with_gap(tmp_path)
    with pytest.raises(ConfigError, match=r"special_tokens must map each special token to its id"):
        Tokenizer.from_tiktoken(path, special_tokens=["<|endoftext|>"])  # type: ignore[arg-type]


def _gpt2_files(tmp_path: Path) -> tuple[Path, Path]:
    from toolkit.bytelevel import bytes_to_byte_level

    vocab = {bytes_to_byte_level(bytes([b])): b for b in range(256)}
    vocab["<|endoftext|>"] = 256
    enc = tmp_path / "encoder.json"
    enc.write_text(__import__("json").dumps(vocab))
    bpe = tmp_path / "vocab.bpe"
    bpe.write_text("#version: 0.2\n")
    return enc, bpe


def test_from_gpt2_special_tokens_given_as_one_string(tmp_path: Path) -> None:
    enc, bpe = _gpt2_files(tmp_path)
    assert Tokenizer.from_gpt2(enc, bpe, special_tokens=["<|endoftext|>"]).special_tokens == {"<|endoftext|>": 256}
    with pytest.raises(ConfigError, match=r"special_tokens must be a list of token strings, e\.g\. \['<\|endoftext\|>'\]"):
        Tokenizer.from_gpt2(enc, bpe, special_tokens="<|endoftext|>")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="special_tokens must hold token strings"):
        Tokenizer.from_gpt2(enc, bpe, special_tokens=[256])  # type: ignore[list-item]


@pytest.mark.parametrize("corpus", [5, object(), b"some text", 3.5])
def test_train_refuses_a_corpus_of_the_wrong_type(corpus: Any) -> None:
    with pytest.raises(CorpusError, match="corpus must be"):
        Tokenizer(BPE()).train(corpus, BPETrainer(vocab_size=50))


@pytest.mark.parametrize("bad", [None, 5, b"tok.json"])
def test_paths_of_the_wrong_type(gpt2: Tokenizer, bad: Any) -> None:
    for call in (gpt2.save, gpt2.to_hf_json, gpt2.save_tiktoken, Tokenizer.load, Tokenizer.load_any,
                 Tokenizer.from_hf_json, Tokenizer.from_tiktoken, Tokenizer.from_bert_vocab):
        with pytest.raises(SerializationError, match="must be a file path"):
            call(bad)


def test_save_wraps_os_errors_naming_the_path(gpt2: Tokenizer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def disk_full(*args: Any, **kwargs: Any) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "replace", disk_full)
    for save in (gpt2.save, gpt2.to_hf_json, gpt2.save_tiktoken):
        target = tmp_path / "out.json"
        with pytest.raises(SerializationError, match=re.escape(str(target))):  # the output, not a .tmp file
            save(target)
        assert not target.exists() and os.listdir(tmp_path) == []
    with pytest.raises(SerializationError, match=re.escape(str(tmp_path))):
        gpt2.save_vocab_merges(tmp_path)


@pytest.mark.parametrize("indent", [-1, 100_000, "  ", 2.0, True])
def test_indent_is_bounded(gpt2: Tokenizer, indent: Any, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="indent must be None or an integer 0..64"):
        gpt2.to_json(indent=indent)
    with pytest.raises(ConfigError, match="indent"):
        gpt2.to_hf_json(tmp_path / "hf.json", indent=indent)
    assert not (tmp_path / "hf.json").exists()


def test_replacing_components_with_the_wrong_type(gpt2: Tokenizer) -> None:
    tok = Tokenizer.from_json(gpt2.to_json())
    with pytest.raises(ConfigError, match="model must be a Model"):
        tok.model = "bpe"  # type: ignore[assignment]
    for name in ("pre_tokenizer", "normalizer", "post_processor", "decoder"):
        with pytest.raises(ConfigError, match=f"^{name} must be a "):
            setattr(tok, name, 5)
    with pytest.raises(ConfigError, match="metadata must be a mapping"):
        Tokenizer(tok.model, metadata=[("a", 1)])  # type: ignore[arg-type]
    assert tok.encode_ids("hello world") == gpt2.encode_ids("hello world")  # left as it was


def test_vocabulary_lookups_check_their_argument(gpt2: Tokenizer) -> None:
    with pytest.raises(InputError, match="token must be a str, got int"):
        gpt2.token_to_id(5)  # type: ignore[arg-type]
    for bad in (True, "5", 5.0, None):
        with pytest.raises(InputError, match="token_id must be an int"):
            gpt2.id_to_token(bad)  # type: ignore[arg-type]
    np = pytest.importorskip("numpy")
    assert gpt2.id_to_token(np.int64(5)) == gpt2.id_to_token(5) is not None


def test_load_any_messages_speak_to_python_callers(tmp_path: Path) -> None:
    """Item 20's class: messages that name a command-line flag to a Python caller."""
    path = tmp_path / "tok.bin"
    path.write_text("x")
    with pytest.raises(ConfigError, match=r"pass format=FMT \(--from FMT on the command line\)"):
        Tokenizer.load_any(path)
    with pytest.raises(ConfigError, match=r"^format: unknown format 'bpe' \(--from on the command line\)"):
        Tokenizer.load_any(path, format="bpe")
    lonely = tmp_path / "vocab.json"
    lonely.write_text("{}")
    with pytest.raises(SerializationError, match=r"pass merges=PATH \(--merges PATH on the command line\)"):
        Tokenizer.load_any(lonely, format="vocab-merges")
