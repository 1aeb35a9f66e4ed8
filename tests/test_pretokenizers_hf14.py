"""UnicodeScripts, CharDelimiterSplit and FixedLength: exhaustive and differential parity with HF tokenizers.

UnicodeScripts is checked on every code point (surrogates excepted) in several contexts against the
installed ``tokenizers``, whose script table (Unicode 9.0) is the one ``toolkit.unicode_scripts`` lists.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import require
from algorithms import BPE
from pretokenizers import CharDelimiterSplit, FixedLength, Sequence, UnicodeScripts, Whitespace
from toolkit.unicode_scripts import ANY, SCRIPT_NAMES, SCRIPT_RANGES, script_of
from toolkit import ConfigError, Tokenizer
from toolkit.interfaces import build

hf_pre = require("tokenizers").pre_tokenizers

CODE_POINTS = [cp for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF]


def _hf(ours: object) -> object:
    name = type(ours).__name__
    if name == "UnicodeScripts":
        return hf_pre.UnicodeScripts()
    if name == "CharDelimiterSplit":
        return hf_pre.CharDelimiterSplit(ours.delimiter)  # type: ignore[attr-defined]
    return hf_pre.FixedLength(length=ours.length)  # type: ignore[attr-defined]


def _same(ours: object, text: str) -> None:
    expected = _hf(ours).pre_tokenize_str(text)  # type: ignore[attr-defined]
    assert ours.pre_tokenize_str(text) == expected  # type: ignore[attr-defined]
    assert ours.split_text(text) == [p for p, _ in expected]  # type: ignore[attr-defined]


# ------------------------------------------------------------------------------ UnicodeScripts
def _every_code_point_after(context: str, *, chunk: int = 50_000) -> None:
    ours, hf = UnicodeScripts(), hf_pre.UnicodeScripts()
    for i in range(0, len(CODE_POINTS), chunk):
        text = "".join(context + chr(cp) for cp in CODE_POINTS[i:i + chunk])
        assert ours.pre_tokenize_str(text) == hf.pre_tokenize_str(text), f"code points from U+{CODE_POINTS[i]:04X}"


@pytest.mark.parametrize("context", ["a", "中"])
def test_unicode_scripts_every_code_point(context: str) -> None:
    # "a c1 a c2 ...": a cut before c exactly when HF gives c another script than the context (or c
    # is Any and the next context character decides), and before the next context character again.
    _every_code_point_after(context)


@pytest.mark.slow
@pytest.mark.parametrize("context", [" ", "1", "\u0301", "ก", "ア", "\U00010000", ""])
def test_unicode_scripts_every_code_point_more_contexts(context: str) -> None:
    _every_code_point_after(context)


def test_the_table_is_hfs_unicode_9() -> None:
    assert len(SCRIPT_NAMES) == 135 and len(SCRIPT_RANGES) == 852
    names = {SCRIPT_NAMES[script_of(c)] for c in "aЖ中ア한ก1\u0301"}
    assert names == {"Latin", "Cyrillic", "Han", "Hangul", "Thai", "Common", "Inherited"}
    # Scripts of Unicode 9.0 are there; later ones (Dogra 11.0, Nushu 10.0, Yezidi 13.0) are Any, as in HF.
    assert SCRIPT_NAMES[script_of("\U0001E900")] == "Adlam" and SCRIPT_NAMES[script_of("\U00017000")] == "Tangut"
    for later in ("\U00011800", "\U0001B170", "\U00010E80"):
        assert script_of(later) == ANY
        assert hf_pre.UnicodeScripts().pre_tokenize_str(f"a{later}b") == [(f"a{later}b", (0, 3))]
    assert script_of(" ") == ANY and script_of("\u30fc") == script_of("中") == script_of("ひ")


@pytest.mark.parametrize("text", [
    "", "   ", "  ab", "ab  ", "a 中 b", "abc中文 123 テスト", "e\u0301x", "Привет, мир!", "สวัสดีครับ hello",
    "x² + y² = z²", "مرحبا بالعالم", "😀 emoji 😀😀", "\t\nnew\r\nlines", "ｆｕｌｌｗｉｄｔｈ ＡＢＣ", "한국어 텍스트",
])
def test_unicode_scripts_examples(text: str) -> None:
    _same(UnicodeScripts(), text)


def test_unicode_scripts_keeps_offsets_into_the_original_text() -> None:
    tok = Tokenizer(BPE({c: i for i, c in enumerate("abc中文 ")}, []), pre_tokenizer=Sequence(
        [Whitespace(), UnicodeScripts()]))
    enc = tok.encode("ab中 c文")
    assert [(t, o) for t, o in zip(enc.tokens, enc.offsets)] == [
        ("a", (0, 1)), ("b", (1, 2)), ("中", (2, 3)), ("c", (4, 5)), ("文", (5, 6))]


# ------------------------------------------------------------------------------ CharDelimiterSplit / FixedLength
@pytest.mark.parametrize("text", ["", "x", "xx", "axxbx", "xax", "a x b", "no delimiter", "xéxx中x"])
def test_char_delimiter_split_examples(text: str) -> None:
    _same(CharDelimiterSplit("x"), text)
    _same(CharDelimiterSplit(" "), text)


@pytest.mark.parametrize("length", [1, 2, 3, 5, 7, 100])
def test_fixed_length_examples(length: int) -> None:
    for text in ["", "a", "abcdefgh", "héllo wörld! 中文テキスト 😀😀😀", " " * 11]:
        _same(FixedLength(length=length), text)


CHARS = st.sampled_from(list("ax 中文ア1,.é\u0301ก\n😀Жb")) | st.characters(max_codepoint=0x2FFFF, exclude_categories=("Cs",))
TEXT = st.text(CHARS, max_size=40)


@settings(max_examples=300, deadline=None)
@given(text=TEXT, delimiter=st.sampled_from(["x", " ", "中", "😀", "\n"]), length=st.integers(1, 9))
def test_differential_against_hf(text: str, delimiter: str, length: int) -> None:
    _same(UnicodeScripts(), text)
    _same(CharDelimiterSplit(delimiter), text)
    _same(FixedLength(length=length), text)


def test_options_errors_and_live_assignment() -> None:
    with pytest.raises(ConfigError, match="exactly one character"):
        CharDelimiterSplit("ab")
    with pytest.raises(ConfigError, match="delimiter"):
        CharDelimiterSplit()  # type: ignore[call-arg]
    with pytest.raises(ConfigError, match="length"):
        FixedLength(length=0)
    with pytest.raises(ConfigError, match="length"):
        FixedLength(length=True)  # type: ignore[arg-type]
    f, c = FixedLength(), CharDelimiterSplit("-")
    f.length, c.delimiter = 2, "b"
    assert f.split_text("abcde") == ["ab", "cd", "e"] and c.split_text("abba") == ["a", "a"]
    assert FixedLength(3).length == 3  # HF's argument order: positional length


# ------------------------------------------------------------------------------ serialization
@pytest.mark.parametrize("component", [UnicodeScripts(), CharDelimiterSplit("|"), FixedLength(length=4)])
def test_json_round_trip_and_hf_tokenizer_json(component: object, tmp_path: Path) -> None:
    data = component.to_dict()  # type: ignore[attr-defined]
    again = build("pre_tokenizer", json.loads(json.dumps(data)))
    assert type(again) is type(component) and again.to_dict() == data
    tokenizers = require("tokenizers")
    vocab = {c: i for i, c in enumerate(" abcdx|中文")}
    ours = Tokenizer(BPE(vocab, []), pre_tokenizer=component)  # type: ignore[arg-type]
    ours.to_hf_json(tmp_path / "tokenizer.json")
    hf = tokenizers.Tokenizer.from_file(str(tmp_path / "tokenizer.json"))
    exported = json.loads((tmp_path / "tokenizer.json").read_text(encoding="utf-8"))["pre_tokenizer"]
    assert exported == json.loads(hf.to_str())["pre_tokenizer"]
    text = "ab|cd 中文 x|dcba"
    assert hf.pre_tokenizer.pre_tokenize_str(text) == component.pre_tokenize_str(text)  # type: ignore[attr-defined]
    # And back: HF's own file imports to the same component, encoding the same ids.
    (tmp_path / "hf.json").write_text(hf.to_str(), encoding="utf-8")
    imported = Tokenizer.from_hf_json(tmp_path / "hf.json")
    assert imported.pre_tokenizer.to_dict() == data  # type: ignore[union-attr]
    assert imported.encode(text).ids == hf.encode(text).ids
