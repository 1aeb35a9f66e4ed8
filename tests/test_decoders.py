"""Decoders: the same text as Hugging Face ``tokenizers.decoders`` on hand-picked and random token lists.

Each decoder's ``decode_chain`` keeps Hugging Face's per-token output, so chains (``Sequence``) agree
too. Peer-library tests skip when ``tokenizers`` is not installed.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import require
from toolkit.bytelevel import BYTE_TO_CHAR, to_byte_level
from toolkit.decoders import (
    BPEDecoder,
    ByteFallback,
    ByteLevel,
    Fuse,
    Metaspace,
    Replace,
    Sequence,
    Strip,
    WordPiece,
)
from toolkit.errors import ConfigError, RegistryError
from toolkit.interfaces import build
from toolkit.normalizers import Regex


@pytest.fixture(scope="module")
def D():
    return require("tokenizers.decoders")


def _hf_regex(p: str):
    from tokenizers import Regex as HRegex

    return HRegex(p)


# (ours, factory of the HF twin taking the decoders module) ; token lists to try on each
PAIRS = {
    "ByteLevel": (ByteLevel(), lambda D: D.ByteLevel()),
    "WordPiece": (WordPiece(), lambda D: D.WordPiece()),
    "WordPiece-nocleanup": (WordPiece(cleanup=False), lambda D: D.WordPiece(cleanup=False)),
    "WordPiece-@@": (WordPiece(prefix="@@"), lambda D: D.WordPiece(prefix="@@")),
    "Metaspace": (Metaspace(), lambda D: D.Metaspace()),
    "Metaspace-first": (Metaspace(prepend_scheme="first"), lambda D: D.Metaspace(prepend_scheme="first")),
    "Metaspace-never": (Metaspace(prepend_scheme="never"), lambda D: D.Metaspace(prepend_scheme="never")),
    "Metaspace-_": (Metaspace(replacement="_", split=False), lambda D: D.Metaspace(replacement="_", split=False)),
    "BPEDecoder": (BPEDecoder(), lambda D: D.BPEDecoder()),
    "BPEDecoder-@": (BPEDecoder(suffix="@"), lambda D: D.BPEDecoder(suffix="@")),
    "ByteFallback": (ByteFallback(), lambda D: D.ByteFallback()),
    "Fuse": (Fuse(), lambda D: D.Fuse()),
    "Strip-left": (Strip(content=" ", left=1), lambda D: D.Strip(" ", 1, 0)),
    "Strip-right": (Strip(content="a", right=2), lambda D: D.Strip("a", 0, 2)),
    "Replace": (Replace("▁", " "), lambda D: D.Replace("▁", " ")),
    "Replace-regex": (Replace(Regex("a+|▁"), "-"), lambda D: D.Replace(_hf_regex("a+|▁"), "-")),
    "Sequence-llama": (
        Sequence([Replace("▁", " "), ByteFallback(), Fuse(), Strip(content=" ", left=1)]),
        lambda D: D.Sequence([D.Replace("▁", " "), D.ByteFallback(), D.Fuse(), D.Strip(" ", 1, 0)]),
    ),
}

TOKEN_LISTS = [
    [],
    [""],
    ["Hello", "Ġmy", "Ġfriend", ",", "Ġhow", "Ġare", "Ġyou", "?"],
    ["Ã©", "Ġ", "æĹ", "¥", "æľ¬", "ĠðŁĻ", "Ĥ"],  # é, 日本, 🙂 split over tokens
    ["æĹ"],  # incomplete UTF-8
    ["<|endoftext|>", "Ġhi", "日本", "Ġ[SEP]"],  # added tokens outside the byte alphabet
    ["un", "##aff", "##able", "!", "it", "'s", "I", "do", "not", "know", ",", "you", "'re", "right", "."],
    ["##start", "a", "##", "##b", "' ", "n't", "'m", "'ve", " do not", "?", "!"],
    ["@@x", "y", "@@z", "##w"],
    ["▁Hey", "▁friend", "!", "▁▁", "a▁b"],
    ["_x_", "y_", "_"],
    ["hug</w>", "gi", "ng</w>", "!</w>", "</w>x</w>"],
    ["a@", "b", "c@"],
    ["<0x41>", "<0xE2>", "<0x82>", "<0xAC>", "b", "<0xE2>", "<0x82>", "<0xe2>", "<0x+A>", "<0xZZ>", "<0x041>"],
    ["▁Hi", "▁", "<0x21>", "▁", "<0xF0>", "<0x9F>", "<0x98>", "<0x80>"],
    [" Hello", "  two", "x ", " "],
    ["aab", "baa", "aaa", "a", "▁aa▁"],
]


@pytest.mark.parametrize("name", list(PAIRS))
def test_parity_on_token_lists(D, name: str) -> None:
    ours, factory = PAIRS[name]
    theirs = factory(D)
    compared = 0
    for tokens in TOKEN_LISTS:
        try:
            expected = theirs.decode(tokens)
        except BaseException:  # pyo3 PanicException: the 0.23 wheel's Strip panics on all-content tokens
            assert name.startswith("Strip")
            continue
        assert ours.decode(tokens) == expected, (name, tokens)
        compared += 1
    assert compared >= len(TOKEN_LISTS) - 3


_BYTE_TOKEN = st.lists(st.sampled_from(BYTE_TO_CHAR), min_size=1, max_size=4).map("".join)
_FOREIGN_TOKEN = st.sampled_from(["<|endoftext|>", "日本", "é", "[CLS]", "Ġ€"])


@given(tokens=st.lists(st.one_of(_BYTE_TOKEN, _FOREIGN_TOKEN), max_size=12))
def test_byte_level_parity_on_random_tokens(D, tokens: list[str]) -> None:
    assert ByteLevel().decode(tokens) == D.ByteLevel().decode(tokens)


@given(data=st.binary(max_size=24), cuts=st.lists(st.integers(0, 24), max_size=6))
def test_byte_level_invalid_utf8_matches_and_valid_text_round_trips(D, data: bytes, cuts: list[int]) -> None:
    text = "".join(BYTE_TO_CHAR[b] for b in data)
    bounds = sorted({0, len(text), *(c for c in cuts if c <= len(text))})
    tokens = [text[i:j] for i, j in zip(bounds, bounds[1:])]
    assert ByteLevel().decode(tokens) == D.ByteLevel().decode(tokens)
    assert ByteLevel().decode(tokens) == data.decode("utf-8", "replace")


@given(text=st.text(max_size=30), cut=st.integers(0, 40))
def test_byte_level_round_trip(text: str, cut: int) -> None:
    bl = to_byte_level(text)
    assert ByteLevel().decode([bl[:cut], bl[cut:]]) == text
    assert ByteLevel().decode_chain([bl[:cut], bl[cut:]]) == [text]  # one string: bytes decode together


_WP_PIECES = ["##", "#", "a", "b", "é", " ", ".", "?", "!", ",", "'", "n't", "'s", "do", "not", " do not", "'m",
              "'ve", "'re", "@@"]
_WP_TOKENS = st.lists(st.lists(st.sampled_from(_WP_PIECES), max_size=3).map("".join), max_size=10)


@given(tokens=_WP_TOKENS, prefix=st.sampled_from(["##", "@@", ""]), clean=st.booleans())
def test_wordpiece_parity_on_random_tokens(D, tokens: list[str], prefix: str, clean: bool) -> None:
    ours = WordPiece(prefix=prefix, cleanup=clean)
    theirs = D.WordPiece(prefix=prefix, cleanup=clean)
    assert ours.decode(tokens) == theirs.decode(tokens)
    # Chaining semantics: a Fuse after it sees the same text as decode().
    assert Sequence([WordPiece(prefix=prefix, cleanup=clean), Fuse()]).decode_chain(tokens) == [theirs.decode(tokens)]


@given(tokens=st.lists(st.text(alphabet="▁ ab_</w>", max_size=5), max_size=8))
def test_metaspace_bpe_and_replace_parity_on_random_tokens(D, tokens: list[str]) -> None:
    for scheme in ("always", "first", "never"):
        assert Metaspace(prepend_scheme=scheme).decode(tokens) == D.Metaspace(prepend_scheme=scheme).decode(tokens)
    assert BPEDecoder().decode(tokens) == D.BPEDecoder().decode(tokens)
    assert Replace("▁", " ").decode(tokens) == D.Replace("▁", " ").decode(tokens)
    assert Replace(Regex("b*"), "-").decode(tokens) == D.Replace(_hf_regex("b*"), "-").decode(tokens)


@given(tokens=st.lists(st.text(alphabet=" ab", min_size=1, max_size=6).filter(lambda t: t.strip(" ")), max_size=6),
       left=st.integers(0, 3), right=st.integers(0, 3))
def test_strip_parity_on_random_tokens(D, tokens: list[str], left: int, right: int) -> None:
    # Tokens made only of the stripped character are left out: the installed HF version panics on them.
    assert Strip(content=" ", left=left, right=right).decode(tokens) == D.Strip(" ", left, right).decode(tokens)


# --------------------------------------------------------------------------- documented behaviour


def test_decode_chain_outputs_per_token_pieces() -> None:
    assert WordPiece().decode_chain(["hug", "##s", "!", "yes"]) == ["hug", "s", "!", " yes"]
    assert Metaspace().decode_chain(["▁a▁b", "▁c"]) == ["ab", " c"]  # every ▁ of the first token goes
    assert BPEDecoder().decode_chain(["a</w>", "b", "c</w>"]) == ["a ", "b", "c"]
    assert ByteLevel().decode_chain([]) == [""]
    assert ByteFallback().decode_chain(["<0xE2>", "<0x82>", "x"]) == ["\ufffd", "\ufffd", "x"]
    assert Fuse().decode_chain([]) == [""]


def test_strip_never_overlaps_and_handles_all_content_tokens() -> None:
    # (Hugging Face's current source behaves like this; the 0.23 wheel panics on such tokens.)
    assert Strip(content=" ", left=2, right=2).decode_chain([" ", "  ", "   ", "    x    "]) == ["", "", "", "  x  "]
    assert Strip(content="a", right=1).decode_chain(["éa", "ba", "aa"]) == ["é", "b", "a"]


def test_wordpiece_cleanup_is_applied_token_by_token() -> None:
    # " ' " only matches inside one token, so "'" and "s" as separate tokens stay apart (as in HF).
    assert WordPiece().decode(["c", "'", "s"]) == "c ' s"
    assert WordPiece().decode(["I", "do", "not", "go", "."]) == "I do not go."
    assert WordPiece().decode(["I", "do not", "go", "."]) == "I don't go."


# --------------------------------------------------------------------------- serialization and errors

ALL = [
    ByteLevel(), WordPiece(prefix="@@", cleanup=False), Metaspace(replacement="_", prepend_scheme="first", split=False),
    BPEDecoder(suffix="@"), ByteFallback(), Fuse(), Strip(content="x", left=1, right=2), Replace("▁", " "),
    Replace(Regex(r"\s+"), " "), Sequence([Replace("▁", " "), Sequence([Fuse(), Strip(left=1)])]),
]


@pytest.mark.parametrize("decoder", ALL, ids=lambda d: type(d).__name__)
def test_json_round_trip(decoder) -> None:
    data = json.loads(json.dumps(decoder.to_dict()))
    again = build("decoder", data)
    assert type(again) is type(decoder) and again == decoder and again.to_dict() == data
    assert build("decoder", data, validate=False) == decoder
    tokens = ["▁Hi", "##x", "<0x41>", " a b ", "Ġz</w>"]
    assert again.decode(tokens) == decoder.decode(tokens)


def test_json_matches_hugging_face_where_the_options_are_the_same(D) -> None:
    pairs = [
        (WordPiece(), D.WordPiece()),
        (Metaspace(prepend_scheme="never"), D.Metaspace(prepend_scheme="never")),
        (BPEDecoder(), D.BPEDecoder()),
        (ByteFallback(), D.ByteFallback()),
        (Fuse(), D.Fuse()),
        (Replace("▁", " "), D.Replace("▁", " ")),
        (Sequence([Replace("▁", " "), Fuse()]), D.Sequence([D.Replace("▁", " "), D.Fuse()])),
    ]
    for ours, theirs in pairs:
        expected = json.loads(theirs.__getstate__())
        assert ours.to_dict() == expected
        assert build("decoder", expected) == ours
    # Where HF's JSON names differ, ours follow its Python constructors (documented in the module).
    assert json.loads(D.Strip(" ", 1, 0).__getstate__())["start"] == 1
    assert Strip(left=1).to_dict() == {"type": "Strip", "content": " ", "left": 1, "right": 0}
    assert ByteLevel().to_dict() == {"type": "ByteLevel"}


@pytest.mark.parametrize(
    "data,match",
    [
        ({"type": "WordPiece", "prefix": 3}, "prefix"),
        ({"type": "WordPiece", "cleanup": "yes"}, "cleanup"),
        ({"type": "Metaspace", "replacement": "ab"}, "replacement"),
        ({"type": "Metaspace", "replacement": ""}, "replacement"),
        ({"type": "Metaspace", "prepend_scheme": "sometimes"}, "prepend_scheme"),
        ({"type": "Strip", "left": -1}, "left"),
        ({"type": "Strip", "right": 1.5}, "right"),
        ({"type": "Strip", "content": "ab"}, "content"),
        ({"type": "Replace", "pattern": {"Regex": "[z"}, "content": "x"}, r"pattern.*'\[z'"),
        ({"type": "Replace", "pattern": "a"}, "content"),
        ({"type": "BPEDecoder", "suffix": None}, "suffix"),
        ({"type": "ByteLevel", "add_prefix_space": True}, "add_prefix_space"),
        ({"type": "Sequence", "decoders": [{"type": "Strip", "left": "1"}]}, r"decoders\[0\]\.left"),
        ({"type": "Sequence", "decoders": {"type": "Fuse"}}, "decoders"),
    ],
)
def test_bad_options_are_config_errors_naming_the_field(data, match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        build("decoder", data)


def test_unknown_child_type_is_a_registry_error_naming_it() -> None:
    with pytest.raises(RegistryError, match=r"decoders\[0\].*'NoSuchDecoder'"):
        build("decoder", {"type": "Sequence", "decoders": [{"type": "NoSuchDecoder"}]})


def test_constructor_errors() -> None:
    with pytest.raises(ConfigError, match="replacement"):
        Metaspace(replacement="▁▁")
    with pytest.raises(ConfigError, match=r"decoders\[1\]"):
        Sequence([Fuse(), "Fuse"])  # type: ignore[list-item]
    with pytest.raises(ConfigError, match="invalid regular expression"):
        Replace(Regex("(?P<"), "x")


# --------------------------------------------------------------------------- options after construction


def test_options_after_construction() -> None:
    meta = Metaspace()
    meta.replacement = "%"
    assert meta.decode(["%Hi", "%you"]) == "Hi you"
    with pytest.raises(ConfigError):
        meta.replacement = "%%"
    assert meta.replacement == "%"
    assert WordPiece("@@", False).decode(["a", "@@b", "c"]) == "ab c"  # HF's positional order
    assert Strip(" ", 1, 0).decode([" a ", " b"]) == "a b"
    assert BPEDecoder("@@").decode(["a@@", "b@@"]) == "a b"
    rep = Replace("▁", " ")
    rep.content = "_"
    assert rep.decode(["▁a"]) == "_a"


def test_sequence_item_assignment() -> None:
    from toolkit.options import generation

    seq = Sequence([Replace("▁", " "), Fuse()])
    start = generation()
    seq[1] = {"type": "Strip", "left": 1}
    assert seq.decode(["▁Hi", "▁you"]) == "Hiyou" and generation() == start + 1
    seq[1].left = 0  # a child changed in place takes effect
    assert seq.decode(["▁Hi"]) == " Hi"
    with pytest.raises(ConfigError, match=r"decoders\[1\]: must be a Decoder"):
        seq[1] = "Fuse"
    seq.decoders = [ByteFallback()]
    assert seq.decode(["<0x41>"]) == "A"


def test_byte_pieces_are_read_by_hf_rule_everywhere(D) -> None:
    """One reading of ``<0xHH>`` (``toolkit.bytelevel.byte_piece_value``) for the decoders, the stream
    decoder and the metrics, identical to HF's ``ByteFallback`` on every two-character middle drawn
    from ASCII and a few others (``<0x+F>`` is a byte for HF, ``<0x 1>`` is not)."""
    from toolkit.bytelevel import byte_piece_value

    hf = D.ByteFallback()
    chars = [chr(c) for c in range(32, 127)] + ["\x00", "\t", "é", "\u0301", "😀", "٣"]
    for a in chars:
        for b in chars:
            token = f"<0x{a}{b}>"
            value = byte_piece_value(token)
            ours = token if value is None else bytes([value]).decode("utf-8", "replace")
            assert hf.decode([token]) == ours == ByteFallback().decode([token]), token


@given(ids=st.lists(st.integers(0, 7), max_size=12))
def test_stream_decoder_reads_byte_pieces_as_decode_does(ids: list[int]) -> None:
    """The stream decoder must see the byte runs the decoder sees, whatever spelling HF accepts
    (``<0x+F>``, lower case): it prints exactly ``decode`` wherever no text it printed changes later
    (docs/migrating.md: a printed run that a later byte makes invalid is not printed again)."""
    from algorithms import WordLevel
    from toolkit import Tokenizer

    vocab = {t: i for i, t in enumerate(["<unk>", "<0xE2>", "<0x82>", "<0xac>", "<0x+F>", "<0xF0>", "a", "<0x9F>"])}
    tok = Tokenizer(WordLevel(vocab, unk_token="<unk>"), decoder=ByteFallback())
    text = tok.decode(ids)
    if all(text.startswith(tok.decode(ids[:k]).rstrip("\ufffd")) for k in range(len(ids))):
        stream = tok.stream_decoder()
        assert "".join(stream.feed(i) for i in ids) + stream.flush() == text
