"""Known answers for ``toolkit/decoders.py`` that its first mutation run showed unpinned
(docs/testing.md, "decoders"): CTC against Hugging Face's decoder on generated token lists, tokens
holding a lone surrogate in the byte decoders, and the one-character option's error text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import require
from toolkit.decoders import CTC, ByteFallback, ByteLevel, Strip
from toolkit.errors import ConfigError

_CTC_TOKENS = st.lists(st.sampled_from(["<pad>", "|", "a", "b", "h", " .", " ,", " ' ", "n't", "'s", "a|b", "<pad>a", ""]),
                       max_size=12)


@settings(max_examples=300, deadline=None)
@given(_CTC_TOKENS, st.sampled_from([("<pad>", "|", True), ("<pad>", "|", False), ("a", "b", True), ("<pad>", "|b", True)]))
def test_ctc_decodes_as_hugging_face(tokens: list[str], options: tuple[str, str, bool]) -> None:
    tokenizers = require("tokenizers")
    pad, delimiter, cleanup = options
    ours = CTC(pad_token=pad, word_delimiter_token=delimiter, cleanup=cleanup)
    theirs = tokenizers.decoders.CTC(pad_token=pad, word_delimiter_token=delimiter, cleanup=cleanup)
    assert ours.decode(tokens) == theirs.decode(tokens)


def test_ctc_known_answers() -> None:
    tokens = ["<pad>", "h", "h", "e", "l", "l", "<pad>", "l", "o", "|", "w", "o", "r", "l", "d", " ."]
    assert CTC().decode(tokens) == "hello world."
    assert CTC().decode_chain(["a", "a", "<pad>", "|", "|", "b"]) == ["a", " ", "b"]
    assert CTC(cleanup=False).decode_chain(["a", "|", " .", "<pad>"]) == ["a", "|", " ."]


def test_byte_decoders_keep_a_lone_surrogate_as_replacement_bytes() -> None:
    # A token outside the byte alphabet is written as its UTF-8 bytes (surrogatepass: a lone
    # surrogate is 3 bytes, each invalid, so 3 replacement characters), never an exception.
    assert ByteLevel().decode(["a", "\ud800", "b"]) == "a\ufffd\ufffd\ufffdb"
    assert ByteFallback().decode(["<0x\ud800", "<0x41>"]) == "<0x\ud800A"  # not a byte token: kept as text


def test_one_character_options_name_the_value() -> None:
    with pytest.raises(ConfigError) as info:
        Strip(content="ab")
    assert str(info.value) == "decoder 'Strip'.content: must be exactly one character, got 'ab'"
