"""tiktoken's names on our Tokenizer against tiktoken itself, and the stream decoder.

``encode_ordinary``, ``decode_bytes``, ``n_vocab`` and ``disallowed_special`` (raises on a listed
special token, as tiktoken does; our default ``()`` keeps special tokens typed in text as text) on
cl100k from the shared ``.tiktoken`` file; the stream decoder's prefix ids (HF's
``DecodeStream(ids=...)``) and independent copies.
"""

from __future__ import annotations

import copy

import pytest
from conftest import require
from test_interop_tiktoken import CL100K_SPECIALS, cl100k_path, ours, reference  # noqa: F401  (fixtures)

from toolkit import Tokenizer
from toolkit.errors import ConfigError, InputError

tiktoken = require("tiktoken")

TEXTS = [
    "Hello world, naïve café — 東京 🙂👍🏽!",
    "a<|endoftext|>b <|fim_prefix|>x",
    "",
    "\n\n  spaces\tand tabs",
]


@pytest.mark.parametrize("text", TEXTS)
def test_encode_ordinary_decode_bytes_n_vocab_like_tiktoken(ours: Tokenizer, reference, text: str) -> None:  # noqa: F811
    ids = ours.encode_ordinary(text)
    assert ids == reference.encode_ordinary(text)
    assert ours.decode_bytes(ids) == reference.decode_bytes(ids)
    allowed = ours.encode_ids(text, allowed_special="all")
    assert ours.decode_bytes(allowed) == reference.decode_bytes(allowed)  # special tokens included
    assert ours.n_vocab == reference.n_vocab


def test_decode_bytes_keeps_split_characters(ours: Tokenizer, reference) -> None:  # noqa: F811
    ids = ours.encode_ordinary("🙂")
    for k in range(1, len(ids)):
        assert ours.decode_bytes(ids[:k]) == reference.decode_bytes(ids[:k])
        assert ours.decode_bytes(ids[:k]) != ours.decode(ids[:k]).encode()


@pytest.mark.parametrize("text", TEXTS)
def test_disallowed_special_like_tiktoken(ours: Tokenizer, reference, text: str) -> None:  # noqa: F811
    for allowed, disallowed in [(set(), "all"), ({"<|endoftext|>"}, "all"), (set(), {"<|fim_prefix|>"}), ("all", "all")]:
        try:
            expected = reference.encode(text, allowed_special=allowed, disallowed_special=disallowed)
        except ValueError:
            with pytest.raises(InputError, match="disallowed_special"):
                ours.encode_ids(text, allowed_special=allowed, disallowed_special=disallowed)
            with pytest.raises(InputError, match="disallowed_special"):
                ours.encode(text, allowed_special=allowed, disallowed_special=disallowed)
            with pytest.raises(InputError, match="disallowed_special"):
                ours.encode_batch([text], allowed_special=allowed, disallowed_special=disallowed)
            continue
        assert ours.encode_ids(text, allowed_special=allowed, disallowed_special=disallowed) == expected
        assert ours.encode(text, allowed_special=allowed, disallowed_special=disallowed).ids == expected
    # Our default: nothing raises, special tokens typed in text are text (tiktoken's disallowed_special=()).
    assert ours.encode_ids(text) == reference.encode(text, disallowed_special=())


def test_bad_disallowed_special(ours: Tokenizer) -> None:  # noqa: F811
    with pytest.raises(ConfigError, match="disallowed_special names tokens that are not special"):
        ours.encode_ids("x", disallowed_special={"<nope>"})
    with pytest.raises(ConfigError, match="disallowed_special must be"):
        ours.encode_ids("x", disallowed_special="<|endoftext|>")


# ------------------------------------------------------------------------------------ stream decoder
def _tok() -> Tokenizer:
    from toolkit.training.presets import gpt2_style

    tok, trainer = gpt2_style(vocab_size=300)
    tok = tok.train(["héllo wörld 🙂 " * 20], trainer)
    tok.add_special_tokens(["<|end|>"])
    return tok


def test_stream_from_prefix_ids_gives_the_rest() -> None:
    tok = _tok()
    text = "héllo 🙂 wörld"
    ids = tok.encode_ids(text)
    for cut in range(len(ids) + 1):
        stream = tok.stream_decoder(ids=ids[:cut])
        rest = "".join(stream.feed(i) for i in ids[cut:]) + stream.flush()
        shown = tok.decode(ids[:cut])
        if not shown.endswith("\ufffd"):
            assert shown + rest == text
        else:  # the prefix ends inside a character: that character is printed by the stream
            assert rest.endswith(text[len(shown.rstrip("\ufffd")):].lstrip("\ufffd")[-3:])


def test_stream_copy_is_independent_and_specials_skipped_by_default() -> None:
    tok = _tok()
    ids = tok.encode_ids("héllo")
    end = tok.token_to_id("<|end|>")
    stream = tok.stream_decoder()
    first = stream.feed(ids[0])
    other = copy.copy(stream)
    a = "".join(stream.feed(i) for i in ids[1:]) + stream.feed(end) + stream.flush()
    b = "".join(other.feed(i) for i in ids[1:]) + other.flush()
    assert first + a == first + b == "héllo"
    keep = tok.stream_decoder(skip_special_tokens=False)
    assert "".join(keep.feed(i) for i in [*ids, end]) + keep.flush() == "héllo<|end|>"


def test_stream_bad_prefix_is_a_typed_error() -> None:
    tok = _tok()
    with pytest.raises(InputError):
        tok.stream_decoder(ids="abc")  # type: ignore[arg-type]
    with pytest.raises(InputError):
        tok.stream_decoder(ids=[10**9])


def test_tiktoken_encoding_names_like_tiktoken(ours: Tokenizer, reference) -> None:  # noqa: F811
    """The rest of tiktoken's ``Encoding`` names, against tiktoken on cl100k."""
    assert ours.max_token_value == reference.max_token_value
    assert ours.eot_token == reference.eot_token
    assert ours.special_tokens_set == reference.special_tokens_set
    for token_id in (0, 1000, reference.eot_token, reference.max_token_value):
        assert ours.is_special_token(token_id) == reference.is_special_token(token_id)
        assert ours.decode_single_token_bytes(token_id) == reference.decode_single_token_bytes(token_id)
    for piece in ("hello", " world", "<|endoftext|>", b"\xf0\x9f", b" the", "🙂"[0]):
        try:
            expected = reference.encode_single_token(piece)
        except KeyError:
            with pytest.raises(InputError, match="no single token"):
                ours.encode_single_token(piece)
            continue
        assert ours.encode_single_token(piece) == expected
    ids = ours.encode_ordinary(TEXTS[0])
    assert ours.decode_tokens_bytes(ids) == reference.decode_tokens_bytes(ids)
    assert ours.encode_ordinary_batch(TEXTS) == reference.encode_ordinary_batch(TEXTS)
    assert ours.encode_ordinary_batch(TEXTS, num_threads=2) == reference.encode_ordinary_batch(TEXTS, num_threads=2)
    batch = [reference.encode(t, allowed_special="all") for t in TEXTS]
    assert ours.decode_bytes_batch(batch) == reference.decode_bytes_batch(batch)
    assert ours.token_byte_values() == reference.token_byte_values()
    with pytest.raises(InputError):
        ours.decode_single_token_bytes(100256)  # no token has this id (tiktoken: KeyError)
    with pytest.raises(InputError):
        ours.encode_ordinary_batch("one string")
    with pytest.raises(InputError):
        ours.is_special_token("1")  # type: ignore[arg-type]


def test_documented_differences_from_tiktoken(ours: Tokenizer, reference) -> None:  # noqa: F811
    """docs/migrating.md, "From tiktoken": pinned on both sides."""
    text = "hi<|endoftext|>"
    unknown = {"<|endoftext|>", "<|im_start|>"}  # not a special token of cl100k
    assert reference.encode(text, allowed_special=unknown) == [6151, 100257]
    with pytest.raises(ConfigError, match="<\\|im_start\\|>"):
        ours.encode_ids(text, allowed_special=unknown)
    assert ours.encode_ids(text, allowed_special=unknown & ours.special_tokens_set) == [6151, 100257]
    assert reference.encode_ordinary("a\udfffb") == reference.encode_ordinary("a\ufffdb")
    with pytest.raises(InputError, match="surrogate"):
        ours.encode_ordinary("a\udfffb")
    with pytest.raises(KeyError):
        reference.decode_single_token_bytes(100256)
    with pytest.raises(InputError):
        ours.decode_bytes([100256])
    ids = [6151, 100257]
    assert reference.decode(ids) == ours.decode(ids, skip_special_tokens=False) == "hi<|endoftext|>"
    assert ours.decode(ids) == "hi"  # HF's default
    assert reference.decode_batch([ids]) == ours.decode_batch([ids], skip_special_tokens=False) == ["hi<|endoftext|>"]
    assert ours.decode_batch([ids]) == ["hi"]  # HF's default, as decode
    assert reference.encode_ordinary_batch("ab") == [reference.encode_ordinary("a"), reference.encode_ordinary("b")]
    with pytest.raises(TypeError):
        ours.encode_ordinary_batch("ab")


def test_keyword_names_and_type_errors_like_tiktoken(ours: Tokenizer, reference) -> None:  # noqa: F811
    ids = reference.encode_ordinary("hello world")
    assert ours.decode_bytes(tokens=ids) == reference.decode_bytes(tokens=ids) == b"hello world"
    for bad in (5, None, 1.5):
        with pytest.raises(TypeError):
            reference.encode_single_token(bad)
        with pytest.raises(TypeError):
            ours.encode_single_token(bad)
    np = pytest.importorskip("numpy")
    assert ours.is_special_token(np.int64(reference.eot_token)) and not ours.is_special_token(np.int64(0))


def test_text_a_custom_pattern_does_not_match_is_kept(cl100k_path) -> None:  # noqa: F811
    """docs/migrating.md: tiktoken drops what its pattern does not match; ours keeps it."""
    from tiktoken import load as tiktoken_load

    text = "Hello, world"
    words = tiktoken.Encoding("words", pat_str=r"\w+", mergeable_ranks=tiktoken_load.load_tiktoken_bpe(str(cl100k_path)),
                              special_tokens={})
    kept = Tokenizer.from_tiktoken(cl100k_path, pattern=r"\w+")
    assert words.decode(words.encode_ordinary(text)) == "Helloworld"
    assert kept.decode_bytes(kept.encode_ordinary(text)) == text.encode()
