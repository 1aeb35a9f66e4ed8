"""Behaviour tests for the ``pretokenizers`` package.

* parity with Hugging Face ``tokenizers.pre_tokenizers`` (pieces AND offsets) for every class and
  option combination: tricky strings, random text (hypothesis), every Unicode code point (for the
  character classes) and lines of the shared corpora;
* the named patterns split exactly like ``tiktoken`` (GPT-2, cl100k, o200k) and are tiktoken's strings;
* losslessness: pieces cover the text, offsets are in bounds and ordered, each piece is its source
  text (byte-level / ``▁`` spelled), ``split_text`` equals ``pre_tokenize``;
* the chat pattern keeps ``_``; regex timeouts and invalid patterns; JSON round trips and errors.

One documented difference from HF is normalized before comparing (see :func:`hf_offsets`): a piece
made only of a *prepended* character (ByteLevel's ``Ġ`` or Metaspace's ``▁``, when the next character
is split off) has the empty span at the piece start here, while HF gives it the span of that next
character.
"""

from __future__ import annotations

import copy
import doctest
import functools
import importlib
import inspect
import json
import pickle
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import regex
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pretokenizers
from pretokenizers import (
    CL100K_PATTERN,
    GPT2_PATTERN,
    O200K_PATTERN,
    BertPreTokenizer,
    ByteLevel,
    Digits,
    Metaspace,
    Punctuation,
    Sequence,
    Split,
    Whitespace,
    WhitespaceSplit,
)
from pretokenizers._classes import PUNCTUATION
from pretokenizers.patterns import CHAT_PATTERN, HF_GPT2_PATTERN
from toolkit.alignment import Piece
from toolkit.bytelevel import to_byte_level
from toolkit.errors import ConfigError, InputError, RegistryError
from toolkit.interfaces import PreTokenizer, build
from toolkit.normalizers import Regex
from toolkit.registry import lookup

from conftest import require, shared_path

BEHAVIORS = ["removed", "isolated", "merged_with_previous", "merged_with_next", "contiguous"]

TRICKY = [
    "",
    " ",
    "  ",
    "Hello world",
    "Hello, world! How's it going?",
    "I'm you're they've we'll he'd it's",
    "'S 'T 'RE DON'T 'll 'LL",
    "'ſ 'K",  # long s and the Kelvin sign case-fold to s and k
    "12345 1 22 333 4444 55555",
    "3.14159 1,000,000 -42 +7",
    "x² + y³ = z½ ¼ Ⅻ ٣٤٥ ۱۲ १२३",
    "naïve café résumé Ünïcödé",
    "e\u0301 n\u0303o combining marks",
    "emoji 🙂👍🏽 👩\u200d💻 family 👨\u200d👩\u200d👧 🇫🇷",
    "中文字符测试，你好！「引号」",
    "สวัสดีครับ ภาษาไทย ๑๒๓",
    "tabs\tand\nnewlines\r\n\r\nend",
    "multiple   spaces    here",
    "nbsp\u00a0here \u3000ideographic\u2009thin",
    "line\u2028sep\u2029para\u0085nel",
    "ctrl\x00\x01\x1c\x1d\x1e\x1f\x7f chars\x0b\x0c",
    "trailing spaces   ",
    "   leading",
    "\n\n\n",
    " \n \n",
    "a  \n  b",
    " \t x",
    "\tstart with tab",
    "\nnewline first",
    "a\u200bb\u200cc\u200dd",
    "__init__ snake_case_name _x_",
    "C++ & C# -> <html> $5 ~x^2 `q` |p| @home #tag 100%",
    "mixed123abc456DEF",
    "Ｆｕｌｌｗｉｄｔｈ１２３！",
    "▁already▁meta ▁▁x",
    "ĠĊ byte-level lookalikes",
    "CamelCaseWordsHere XMLHttpRequest iPhone",
    "¿Qué? ¡Sí! «quote» „deutsch“ — dash… ellipsis",
    "a--b---c...d",
    "x\u2e43y\u166dz\u061d",
    "path/to/file.txt http://example.com/a?b=c",
    "x" * 50 + " " + "y" * 50,
]


# ---------------------------------------------------------------------------------------------- HF specs
@dataclass(frozen=True)
class Spec:
    """One of our pre-tokenizers and the HF pre-tokenizer it must match."""

    id: str
    ours: Callable[[], PreTokenizer]
    hf: Callable[[Any, Any], Any]  # (tokenizers.pre_tokenizers, tokenizers.Regex) -> HF pre-tokenizer
    prefix: str | None = None  # a character the pre-tokenizer may prepend (Ġ / ▁)


def _bytelevel_specs() -> list[Spec]:
    out = []
    for aps in (False, True):
        for use_regex in (True, False):
            out.append(
                Spec(
                    f"ByteLevel(aps={aps},regex={use_regex})",
                    lambda a=aps, u=use_regex: ByteLevel(add_prefix_space=a, use_regex=u),
                    lambda H, R, a=aps, u=use_regex: H.ByteLevel(add_prefix_space=a, use_regex=u),
                    "Ġ",
                )
            )
    return out


def _simple_specs() -> list[Spec]:
    out = [
        Spec("Whitespace", Whitespace, lambda H, R: H.Whitespace()),
        Spec("WhitespaceSplit", WhitespaceSplit, lambda H, R: H.WhitespaceSplit()),
        Spec("BertPreTokenizer", BertPreTokenizer, lambda H, R: H.BertPreTokenizer()),
    ]
    for b in BEHAVIORS:
        out.append(Spec(f"Punctuation({b})", lambda b=b: Punctuation(behavior=b), lambda H, R, b=b: H.Punctuation(b)))
    for d in (False, True):
        out.append(
            Spec(f"Digits({d})", lambda d=d: Digits(individual_digits=d), lambda H, R, d=d: H.Digits(individual_digits=d))
        )
    return out


def _metaspace_specs() -> list[Spec]:
    out = []
    for scheme in ("always", "first", "never"):
        for split in (True, False):
            out.append(
                Spec(
                    f"Metaspace({scheme},split={split})",
                    lambda s=scheme, p=split: Metaspace(prepend_scheme=s, split=p),
                    lambda H, R, s=scheme, p=split: H.Metaspace(prepend_scheme=s, split=p),
                    "▁",
                )
            )
    out.append(
        Spec(
            "Metaspace(replacement=_)",
            lambda: Metaspace(replacement="_"),
            lambda H, R: H.Metaspace(replacement="_"),
            "_",
        )
    )
    return out


# Patterns whose meaning is the same in the ``regex`` module and in Oniguruma (HF). Not included:
# ``\w``/``\b`` (Oniguruma's word class adds ²³¹¼½¾ and drops ZWNJ/ZWJ), ``^``/``$`` (line anchors in
# Oniguruma), and ``{n,m}+`` (possessive here, "repeat the interval" in Oniguruma, which is why
# cl100k's ``\p{N}{1,3}+`` is compared in the Llama-3 spelling ``\p{N}{1,3}``).
LLAMA3_PATTERN = CL100K_PATTERN.replace(r"\p{N}{1,3}+", r"\p{N}{1,3}")
SPLIT_PATTERNS = [
    r"\s+",
    r"\d",
    r"[aeiou]+",
    r"\p{L}+",
    HF_GPT2_PATTERN,
    LLAMA3_PATTERN,
    r"a*",  # empty matches
    r"x*?",  # lazy: empty matches before non-empty ones
    r"|-",  # an empty alternative first
    r"(?=[A-Z])",  # lookahead: only empty matches
    r"(?<=\p{Ll})(?=\p{Lu})",
    r"[-.]",
    r"(\d)(\d)",  # capture groups
]


def _split_specs() -> list[Spec]:
    out = []
    for i, pattern in enumerate(SPLIT_PATTERNS):
        for b in BEHAVIORS:
            for inv in (False, True):
                out.append(
                    Spec(
                        f"Split#{i}({b},invert={inv})",
                        lambda p=pattern, b=b, inv=inv: Split(Regex(p), behavior=b, invert=inv),
                        lambda H, R, p=pattern, b=b, inv=inv: H.Split(R(p), b, invert=inv),
                    )
                )
    for literal in ("-", " ", "ab", ""):
        for b in BEHAVIORS:
            for inv in (False, True):
                out.append(
                    Spec(
                        f"Split(literal={literal!r},{b},invert={inv})",
                        lambda p=literal, b=b, inv=inv: Split(p, behavior=b, invert=inv),
                        lambda H, R, p=literal, b=b, inv=inv: H.Split(p, b, invert=inv),
                    )
                )
    return out


def _sequence_specs() -> list[Spec]:
    return [
        Spec(
            "Seq(WhitespaceSplit,Metaspace first)",
            lambda: Sequence([WhitespaceSplit(), Metaspace(prepend_scheme="first")]),
            lambda H, R: H.Sequence([H.WhitespaceSplit(), H.Metaspace(prepend_scheme="first")]),
            "▁",
        ),
        Spec(
            "Seq(Punctuation,ByteLevel aps)",
            lambda: Sequence([Punctuation(), ByteLevel()]),
            lambda H, R: H.Sequence([H.Punctuation(), H.ByteLevel(add_prefix_space=True)]),
            "Ġ",
        ),
        Spec(
            "Seq(Split llama3,ByteLevel no regex)",  # the Llama-3 pipeline
            lambda: Sequence([Split(Regex(LLAMA3_PATTERN)), ByteLevel(add_prefix_space=False, use_regex=False)]),
            lambda H, R: H.Sequence([H.Split(R(LLAMA3_PATTERN), "isolated"), H.ByteLevel(add_prefix_space=False, use_regex=False)]),
        ),
        Spec(
            "Seq(ByteLevel,Punctuation)",  # punctuation found inside byte-level spellings
            lambda: Sequence([ByteLevel(add_prefix_space=False), Punctuation()]),
            lambda H, R: H.Sequence([H.ByteLevel(add_prefix_space=False), H.Punctuation()]),
        ),
        Spec(
            "Seq(ByteLevel,ByteLevel)",  # byte-level spelling of byte-level pieces: alignment through two maps
            lambda: Sequence([ByteLevel(add_prefix_space=False), ByteLevel(add_prefix_space=False)]),
            lambda H, R: H.Sequence([H.ByteLevel(add_prefix_space=False), H.ByteLevel(add_prefix_space=False)]),
        ),
        Spec(
            "Seq(Metaspace,Digits single,Punctuation contiguous)",
            lambda: Sequence([Metaspace(), Digits(individual_digits=True), Punctuation(behavior="contiguous")]),
            lambda H, R: H.Sequence([H.Metaspace(), H.Digits(individual_digits=True), H.Punctuation("contiguous")]),
            "▁",
        ),
        Spec(
            "Seq(Bert,Digits,Seq(Metaspace never))",
            lambda: Sequence([BertPreTokenizer(), Digits(), Sequence([Metaspace(prepend_scheme="never")])]),
            lambda H, R: H.Sequence([H.BertPreTokenizer(), H.Digits(), H.Sequence([H.Metaspace(prepend_scheme="never")])]),
            "▁",
        ),
    ]


FAMILIES: dict[str, list[Spec]] = {
    "bytelevel": _bytelevel_specs(),
    "simple": _simple_specs(),
    "metaspace": _metaspace_specs(),
    "split": _split_specs(),
    "sequence": _sequence_specs(),
}
ALL_SPECS = [spec for specs in FAMILIES.values() for spec in specs]


@pytest.fixture(scope="module")
def hf() -> tuple[Any, Any]:
    tokenizers = require("tokenizers")
    return tokenizers.pre_tokenizers, tokenizers.Regex


_HF_CACHE: dict[str, Any] = {}


def hf_of(spec: Spec, hf: tuple[Any, Any]) -> Any:
    if spec.id not in _HF_CACHE:
        _HF_CACHE[spec.id] = spec.hf(*hf)
    return _HF_CACHE[spec.id]


def hf_offsets(spec: Spec, text: str, result: list[tuple[str, tuple[int, int]]]) -> list[tuple[str, tuple[int, int]]]:
    """HF's result with the one documented offset difference applied.

    A piece that is only a prepended character has the empty span at its start here; HF aligns the
    prepended character with the character after it. Such a piece is recognisable: its one character
    does not come from the text it covers (Ġ stands for " ", ▁ replaces " " or is itself).
    """
    if spec.prefix is None:
        return result
    # The characters of the text that are spelled like the prefix character.
    natural = {" "} if spec.prefix == "Ġ" else {" ", spec.prefix}
    out = []
    for piece, (s, e) in result:
        if piece == spec.prefix and e == s + 1 and text[s:e] not in natural:
            out.append((piece, (s, s)))
        else:
            out.append((piece, (s, e)))
    return out


def assert_hf_parity(spec: Spec, ours: PreTokenizer, hf_pt: Any, text: str) -> None:
    got = ours.pre_tokenize_str(text)
    expected = hf_offsets(spec, text, hf_pt.pre_tokenize_str(text))
    assert got == expected, f"{spec.id} on {text!r}"
    assert ours.split_text(text) == [p for p, _ in got], f"{spec.id} split_text on {text!r}"


@pytest.mark.parametrize("spec", ALL_SPECS, ids=lambda s: s.id)
def test_hf_parity_tricky_strings(spec: Spec, hf: tuple[Any, Any]) -> None:
    ours, hf_pt = spec.ours(), hf_of(spec, hf)
    for text in TRICKY:
        assert_hf_parity(spec, ours, hf_pt, text)


def test_prefix_offset_difference_is_the_documented_one(hf: tuple[Any, Any]) -> None:
    """HF: ('Ġ', (0, 1)) for the space ByteLevel adds before "\\tx"; here the empty span (0, 0)."""
    H, _ = hf
    assert H.ByteLevel(add_prefix_space=True).pre_tokenize_str("\tx") == [("Ġ", (0, 1)), ("ĉ", (0, 1)), ("x", (1, 2))]
    assert ByteLevel(add_prefix_space=True).pre_tokenize_str("\tx") == [("Ġ", (0, 0)), ("ĉ", (0, 1)), ("x", (1, 2))]
    # When the prepended character stays with text (the usual case) the spans agree.
    assert ByteLevel(add_prefix_space=True).pre_tokenize_str("hi") == H.ByteLevel(add_prefix_space=True).pre_tokenize_str("hi")
    assert Metaspace().pre_tokenize_str("Hey") == H.Metaspace().pre_tokenize_str("Hey") == [("▁Hey", (0, 3))]


# Text HF and we classify identically: characters assigned in Python's Unicode database (each
# library ships its own tables; only the newest assignments can differ), plus tricky ones, often.
_TRICKY_CHARS = list(" \t\n\r\u00a0\u2028\u3000'sdmtlrvSDMTLRVE0123456789aZé,.!?-_▁Ġ中ไ🙂\u200d\u0301²½٣ſ")
assigned_char = st.characters(blacklist_categories=("Cs", "Cn"))
hf_text = st.text(st.one_of(st.sampled_from(_TRICKY_CHARS), assigned_char), max_size=30)


@pytest.mark.parametrize("family", list(FAMILIES))
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_hf_parity_random_text(family: str, data: st.DataObject, hf: tuple[Any, Any]) -> None:
    spec = data.draw(st.sampled_from(FAMILIES[family]), label="spec")
    text = data.draw(hf_text, label="text")
    assert_hf_parity(spec, spec.ours(), hf_of(spec, hf), text)


@functools.lru_cache(maxsize=None)
def _code_points(assigned_only: bool) -> tuple[str, ...]:
    if assigned_only:
        return tuple(chr(c) for c in range(0x110000) if unicodedata.category(chr(c)) not in ("Cs", "Cn"))
    return tuple(chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF)


@functools.lru_cache(maxsize=None)
def _sampled_word_split_points() -> tuple[str, ...]:
    """Whitespace's code points for the default run: every ASCII and Latin-1 one, every 97th beyond, the
    first and last of each range of HF's word table and their neighbours (where the class changes), every
    character whose class drifts (``\\w`` and ``\\s``: the installed ``regex`` against the pinned tables),
    and the tricky characters of the random tests."""
    from pretokenizers.pinned import class_drift
    from toolkit.unicode_tables import RANGES

    points = set(range(0x100)) | set(range(0x100, 0x110000, 97))
    for lo, hi in RANGES["hf_word"]:
        points |= {lo - 1, lo, hi, hi + 1}
    points |= {ord(c) for k in ((r"\w", "hf_word"), (r"\s", "s")) for c in class_drift(k)}
    points |= {ord(c) for c in _TRICKY_CHARS}
    return tuple(chr(c) for c in sorted(points) if 0 <= c < 0x110000 and not 0xD800 <= c <= 0xDFFF)


# Every code point costs Whitespace about 20 s (1.9 M pieces with offsets, ours and HF's), ByteLevel
# about 10 s and each Digits about 5 s: the default run takes the sample above, -m slow every code
# point. The others are cheap enough to run in full by default.
@pytest.mark.parametrize(
    ("spec_id", "separators", "every"),
    [
        ("BertPreTokenizer", "a", True),
        ("Punctuation(isolated)", "a", True),
        ("WhitespaceSplit", "a", True),
        *((spec_id, separators, every) if not every else pytest.param(spec_id, separators, every, marks=pytest.mark.slow)
          for spec_id, separators in (("Whitespace", "a"), ("Digits(True)", "a"), ("Digits(False)", "a"),
                                      ("ByteLevel(aps=False,regex=True)", "a!"))
          for every in (False, True)),
    ],
    ids=lambda v: {True: "every", False: "sampled"}.get(v, v) if isinstance(v, bool) else None,
)
def test_hf_parity_every_code_point(spec_id: str, separators: str, every: bool, hf: tuple[Any, Any]) -> None:
    """Character classes (punctuation, whitespace, \\w, \\p{N}, \\p{L}) agree with HF on every character.

    Each character sits between two separators, so its class decides the pieces: with "a" a letter
    joins the separators while anything else is cut out; with "!" a symbol joins them and whitespace
    does not. Punctuation's, Whitespace's and Digits' tables are pinned to HF's, so they are checked on
    *every* code point (even ones assigned after Python's Unicode version); ByteLevel on every assigned one.
    Whitespace samples them by default (:func:`_sampled_word_split_points`) and takes all in ``-m slow``.
    """
    spec = next(s for s in ALL_SPECS if s.id == spec_id)
    ours, hf_pt = spec.ours(), hf_of(spec, hf)
    assigned = spec_id.startswith("ByteLevel")
    chars = _code_points(assigned_only=assigned) if every else _sampled_word_split_points()
    if assigned and not every:
        chars = tuple(c for c in chars if unicodedata.category(c) not in ("Cs", "Cn"))
    for sep in separators:
        for i in range(0, len(chars), 20_000):
            text = sep + sep.join(chars[i : i + 20_000]) + sep
            expected = hf_pt.pre_tokenize_str(text)
            if spec_id.startswith("ByteLevel"):  # pieces only: the offsets path is slow on such text
                assert ours.split_text(text) == [p for p, _ in expected], (sep, i)
            else:
                assert ours.pre_tokenize_str(text) == expected, (sep, i)


def test_byte_level_alphabet(hf: tuple[Any, Any]) -> None:
    H, _ = hf
    alphabet = ByteLevel.alphabet()
    assert len(alphabet) == len(set(alphabet)) == 256
    assert set(alphabet) == set(H.ByteLevel.alphabet())
    assert to_byte_level(" \n") == alphabet[32] + alphabet[10] == "ĠĊ"


# ---------------------------------------------------------------------------------------------- corpora
CORPUS_FILES = [
    "english/tinyshakespeare_input.txt",
    "multilingual/french_entre_nous_pg44157-0.txt",
    "multilingual/chinese_xiyouji_pg23962-0.txt",
    "multilingual/thai_wisesight_sentiment_neg.txt",
]


def corpus_chunks(relative: str, n_lines: int = 2000, chunk_lines: int = 100) -> list[str]:
    """The first ``n_lines`` lines (line endings kept: CRLF files stay CRLF), in chunks."""
    path: Path = shared_path(relative)
    lines: list[str] = []
    with open(path, encoding="utf-8", newline="") as fh:
        for line in fh:
            lines.append(line)
            if len(lines) >= n_lines:
                break
    return ["".join(lines[i : i + chunk_lines]) for i in range(0, len(lines), chunk_lines)]


CORPUS_SPEC_IDS = [
    "ByteLevel(aps=False,regex=True)",
    "ByteLevel(aps=True,regex=True)",
    "Whitespace",
    "WhitespaceSplit",
    "BertPreTokenizer",
    "Punctuation(isolated)",
    "Digits(True)",
    "Metaspace(always,split=True)",
    "Split#5(isolated,invert=False)",
    "Seq(Split llama3,ByteLevel no regex)",
]


@pytest.mark.parametrize("relative", CORPUS_FILES)
def test_hf_parity_corpora(relative: str, hf: tuple[Any, Any]) -> None:
    chunks = corpus_chunks(relative)
    specs = [next(s for s in ALL_SPECS if s.id == i) for i in CORPUS_SPEC_IDS]
    for spec in specs:
        ours, hf_pt = spec.ours(), hf_of(spec, hf)
        for k, chunk in enumerate(chunks):
            if k < 3:  # offsets on a few chunks (the slow path), pieces on all of them
                assert_hf_parity(spec, ours, hf_pt, chunk)
            else:
                assert ours.split_text(chunk) == [p for p, _ in hf_pt.pre_tokenize_str(chunk)], (spec.id, k)


# ---------------------------------------------------------------------------------------------- tiktoken
def tiktoken_split(pattern: str, text: str, expected: list[str]) -> list[bytes]:
    """How tiktoken cuts ``text``: an encoding whose vocabulary holds every expected piece whole.

    tiktoken returns a piece's own id when the whole piece is in the vocabulary, so when its split
    agrees with ``expected`` each token is one expected piece; any other split shows up as other
    tokens.
    """
    tiktoken = require("tiktoken")
    ranks = {bytes([i]): i for i in range(256)}
    for piece in expected:
        ranks.setdefault(piece.encode("utf-8"), len(ranks))
    enc = tiktoken.Encoding("probe", pat_str=pattern, mergeable_ranks=ranks, special_tokens={})
    return [enc.decode_single_token_bytes(t) for t in enc.encode_ordinary(text)]


NAMED = {"gpt2": GPT2_PATTERN, "cl100k": CL100K_PATTERN, "o200k": O200K_PATTERN}


@pytest.mark.parametrize("name", list(NAMED))
def test_patterns_split_like_tiktoken_tricky(name: str) -> None:
    pattern = NAMED[name]
    split = Split(Regex(pattern))
    for text in TRICKY:
        pieces = split.split_text(text)
        assert pieces == regex.findall(pattern, text)
        assert "".join(pieces) == text
        assert [p.encode() for p in pieces] == tiktoken_split(pattern, text, pieces), (name, text)


@pytest.mark.parametrize("name", list(NAMED))
@settings(max_examples=150, deadline=None)
@given(text=st.text(st.one_of(st.sampled_from(_TRICKY_CHARS), assigned_char), max_size=40))
def test_patterns_split_like_tiktoken_random(name: str, text: str) -> None:
    pattern = NAMED[name]
    pieces = Split(Regex(pattern)).split_text(text)
    assert "".join(pieces) == text
    assert [p.encode() for p in pieces] == tiktoken_split(pattern, text, pieces)


@pytest.mark.parametrize("name", list(NAMED))
def test_patterns_split_like_tiktoken_corpora(name: str, corpora: Path) -> None:
    pattern = NAMED[name]
    split = Split(Regex(pattern))
    for relative in CORPUS_FILES:
        text = "".join(corpus_chunks(relative, n_lines=1000))
        pieces = split.split_text(text)
        assert "".join(pieces) == text
        assert [p.encode() for p in pieces] == tiktoken_split(pattern, text, pieces), (name, relative)


def test_pattern_strings_are_tiktokens() -> None:
    """The constants are character for character the strings in tiktoken_ext/openai_public.py."""
    require("tiktoken")
    openai_public = importlib.import_module("tiktoken_ext.openai_public")
    assert GPT2_PATTERN == openai_public.r50k_pat_str
    source = inspect.getsource(openai_public)
    assert f'r"""{CL100K_PATTERN}"""' in source
    for part in O200K_PATTERN.split("|"):
        assert part in source
    for pattern in (GPT2_PATTERN, CL100K_PATTERN, O200K_PATTERN, HF_GPT2_PATTERN, CHAT_PATTERN):
        regex.compile(pattern)


@settings(max_examples=300, deadline=None)
@given(text=st.text(st.one_of(st.sampled_from(_TRICKY_CHARS), st.characters(blacklist_categories=("Cs",))), max_size=40))
def test_tiktoken_gpt2_pattern_equals_original_gpt2_pattern(text: str) -> None:
    assert regex.findall(GPT2_PATTERN, text) == regex.findall(HF_GPT2_PATTERN, text)


def test_pattern_examples() -> None:
    assert Split(Regex(CL100K_PATTERN)).split_text("I'M 12345 DON'T\n\n  go") == [
        "I", "'M", " ", "123", "45", " DON", "'T", "\n\n", " ", " go"
    ]
    assert Split(Regex(O200K_PATTERN)).split_text("CamelCase I'M 12345") == ["Camel", "Case", " I'M", " ", "123", "45"]
    assert Split(Regex(GPT2_PATTERN)).split_text("I'M 12345") == ["I", "'", "M", " 12345"]


# ---------------------------------------------------------------------------------------------- lossless
@dataclass(frozen=True)
class Lossless:
    """A pre-tokenizer that keeps all text, and how a piece spells its source text."""

    id: str
    make: Callable[[], PreTokenizer]
    spell: Callable[[str], str] = lambda s: s
    prefix: str = ""  # a character that may be prepended (standing for an empty span)


def _meta_spell(s: str) -> str:
    return s.replace(" ", "▁")


LOSSLESS = [
    Lossless("ByteLevel", lambda: ByteLevel(add_prefix_space=False), to_byte_level),
    Lossless("ByteLevel aps", lambda: ByteLevel(add_prefix_space=True), to_byte_level, "Ġ"),
    Lossless("ByteLevel no regex aps", lambda: ByteLevel(add_prefix_space=True, use_regex=False), to_byte_level, "Ġ"),
    Lossless("Punctuation isolated", Punctuation),
    Lossless("Punctuation contiguous", lambda: Punctuation(behavior="contiguous")),
    Lossless("Punctuation merged_with_next", lambda: Punctuation(behavior="merged_with_next")),
    Lossless("Digits", Digits),
    Lossless("Digits single", lambda: Digits(individual_digits=True)),
    Lossless("Metaspace", Metaspace, _meta_spell, "▁"),
    Lossless("Metaspace first no split", lambda: Metaspace(prepend_scheme="first", split=False), _meta_spell, "▁"),
    Lossless("Metaspace never", lambda: Metaspace(prepend_scheme="never"), _meta_spell),
    Lossless("Split chat", lambda: Split(Regex(CHAT_PATTERN))),
    Lossless("Split cl100k", lambda: Split(Regex(CL100K_PATTERN))),
    Lossless("Split o200k", lambda: Split(Regex(O200K_PATTERN))),
    Lossless("Split a* merged_with_previous", lambda: Split(Regex("a*"), behavior="merged_with_previous")),
    Lossless("Split \\s merged_with_next invert", lambda: Split(Regex(r"\s"), behavior="merged_with_next", invert=True)),
    Lossless("Split vowels contiguous", lambda: Split(Regex("[aeiou]"), behavior="contiguous")),
    Lossless("Split literal isolated", lambda: Split("ab")),
    Lossless("Split groups isolated", lambda: Split(Regex(r"(\w)(\w)?"))),
    Lossless(
        "Seq(Split chat, ByteLevel no regex)",
        lambda: Sequence([Split(Regex(CHAT_PATTERN)), ByteLevel(add_prefix_space=False, use_regex=False)]),
        to_byte_level,
    ),
    Lossless(
        "Seq(Punctuation, Metaspace first)",  # split_text must fall back to offsets for "first"
        lambda: Sequence([Punctuation(), Metaspace(prepend_scheme="first")]),
        _meta_spell,
        "▁",
    ),
    Lossless("Seq()", lambda: Sequence([])),
]

any_text = st.text(st.one_of(st.sampled_from(_TRICKY_CHARS), st.characters(blacklist_categories=("Cs",))), max_size=40)


@pytest.mark.parametrize("case", LOSSLESS, ids=lambda c: c.id)
@settings(max_examples=60, deadline=None)
@given(text=any_text, base=st.sampled_from([0, 0, 7]))
def test_lossless(case: Lossless, text: str, base: int) -> None:
    pt = case.make()
    pieces = pt.pre_tokenize([Piece(text, base, base + len(text))])
    assert all(p.text for p in pieces)
    if not text:
        assert pieces == [] and pt.split_text(text) == []
        return
    # Pieces cover the text, in order, without gaps or overlaps.
    assert pieces[0].start == base and pieces[-1].end == base + len(text)
    for a, b in zip(pieces, pieces[1:]):
        assert a.end == b.start
    # Each piece spells its source text; a prepended character stands for nothing.
    for p in pieces:
        source = text[p.start - base : p.end - base]
        spelled = case.spell(source)
        assert p.text == spelled or (case.prefix and p.text == case.prefix + spelled), (p, source)
        # Per-character spans lie inside the piece and never go backwards.
        spans = [p.span(i, i + 1) for i in range(len(p.text))]
        assert all(p.start <= s <= e <= p.end for s, e in spans)
        assert all(a[0] <= b[0] for a, b in zip(spans, spans[1:]))
    if base == 0:
        assert pt.split_text(text) == [p.text for p in pieces]


REMOVING = [
    (Whitespace, r"\s"),
    (WhitespaceSplit, r"\s"),
    (BertPreTokenizer, r"\s"),
    (lambda: Split(Regex(r"\s+"), behavior="removed"), r"\s"),
    (lambda: Split(Regex(r"[^\W\d]+"), behavior="removed", invert=True), r"[\W\d]"),
    (lambda: Punctuation(behavior="removed"), PUNCTUATION),
]


@pytest.mark.parametrize("index", range(len(REMOVING)))
@settings(max_examples=60, deadline=None)
@given(text=any_text)
def test_removing_pre_tokenizers_drop_only_delimiters(index: int, text: str) -> None:
    make, dropped = REMOVING[index]
    pt = make()
    pieces = pt.pre_tokenize([Piece(text, 0, len(text))])
    pos = 0
    for p in pieces:
        assert pos <= p.start < p.end <= len(text)
        assert p.text == text[p.start : p.end]
        assert regex.fullmatch(f"{dropped}*", text[pos : p.start], flags=regex.V1)
        pos = p.end
    assert regex.fullmatch(f"{dropped}*", text[pos:], flags=regex.V1)
    assert pt.split_text(text) == [p.text for p in pieces]


def test_pieces_keep_their_alignment_through_a_sequence() -> None:
    """A byte-level piece (with per-character spans) is split again; spans still point at the text."""
    text = "été, çà!"
    pieces = Sequence([ByteLevel(add_prefix_space=False), Punctuation()]).pre_tokenize([Piece(text, 0, len(text))])
    # "ç" is spelled "Ã§" and "§" is punctuation: the split falls inside the character, and both
    # halves still point at it.
    assert [(p.text, p.start, p.end) for p in pieces] == [
        ("Ã©tÃ©", 0, 3), (",", 3, 4), ("ĠÃ", 4, 6), ("§", 5, 6), ("Ãł", 6, 7), ("!", 7, 8)
    ]
    p = pieces[0]
    assert [p.span(i, i + 1) for i in range(len(p.text))] == [(0, 1), (0, 1), (1, 2), (2, 3), (2, 3)]
    shifted = ByteLevel(add_prefix_space=False).pre_tokenize([Piece("ab cd", 10, 15)])
    assert [(p.text, p.start, p.end) for p in shifted] == [("ab", 10, 12), ("Ġcd", 12, 15)]


def test_metaspace_first_only_prepends_at_offset_zero() -> None:
    seq = Sequence([WhitespaceSplit(), Metaspace(prepend_scheme="first")])
    assert seq.split_text("Hey my friend") == ["▁Hey", "my", "friend"]
    assert seq.split_text(" Hey") == ["Hey"]  # the first piece starts at 1: no prepend (as HF)
    assert Metaspace(prepend_scheme="first").pre_tokenize([Piece("Hey", 4, 7)])[0].text == "Hey"


# ---------------------------------------------------------------------------------------------- chat / Split API
def test_chat_pattern_keeps_underscores() -> None:
    text = "snake_case __init__ x_1 _"
    assert "_" not in "".join(regex.findall(CHAT_PATTERN, text))  # the pattern alone would lose them
    pieces = Split(Regex(CHAT_PATTERN), behavior="isolated").split_text(text)
    assert pieces == ["snake", "_", "case", " ", "__", "init", "__", " x", "_", "1", " ", "_"]
    assert "".join(pieces) == text
    assert Split(Regex(CHAT_PATTERN)).pre_tokenize_str("a_b") == [("a", (0, 1)), ("_", (1, 2)), ("b", (2, 3))]


def test_split_behaviours_examples() -> None:
    text = "a--b-c-"
    expected = {
        "removed": ["a", "b", "c"],
        "isolated": ["a", "-", "-", "b", "-", "c", "-"],
        "merged_with_previous": ["a-", "-", "b-", "c-"],
        "merged_with_next": ["a", "-", "-b", "-c", "-"],
        "contiguous": ["a", "--", "b", "-", "c", "-"],
    }
    for behavior, pieces in expected.items():
        assert Split(Regex("-"), behavior=behavior).split_text(text) == pieces, behavior
        assert Split("-", behavior=behavior).split_text(text) == pieces, behavior
    assert Split("-", behavior="removed", invert=True).split_text(text) == ["-", "-", "-", "-"]
    assert Split(".").split_text("a.b") == ["a", ".", "b"]  # a str is literal: "." is a dot
    assert Split(".").split_text("a-b") == ["a-b"]
    assert Split(Regex(".")).split_text("a.b") == ["a", ".", "b"]  # a Regex: "." is any character
    assert Split(Regex("."), behavior="removed").split_text("a-b") == []


def test_split_accepts_hf_behaviour_spelling() -> None:
    assert Split("-", behavior="MergedWithNext") == Split("-", behavior="merged_with_next")
    assert build("pre_tokenizer", {"type": "Punctuation", "behavior": "Contiguous"}) == Punctuation(behavior="contiguous")


def test_options_take_hf_positional_order() -> None:
    """Options may be passed by position in Hugging Face's order (issue 13); one too many is an error."""
    assert Split("-", "isolated", True) == Split(pattern="-", behavior="isolated", invert=True)
    assert Digits(True) == Digits(individual_digits=True)
    with pytest.raises(ConfigError, match="positional"):
        Split("-", "isolated", True, False)  # type: ignore[misc]
    assert list(inspect.signature(Split).parameters)[:3] == ["pattern", "behavior", "invert"]
    assert inspect.signature(Split).parameters["timeout"].kind is inspect.Parameter.KEYWORD_ONLY


# ---------------------------------------------------------------------------------------------- live options
TEXT = "Hi  there, héllo 12345 ok"

# (component, option, new value, the same component built with that value)
ASSIGNMENTS = [
    (lambda: Metaspace(), "replacement", "%", lambda: Metaspace(replacement="%")),
    (lambda: Metaspace(), "prepend_scheme", "never", lambda: Metaspace(prepend_scheme="never")),
    (lambda: Metaspace(), "split", False, lambda: Metaspace(split=False)),
    (lambda: Digits(), "individual_digits", True, lambda: Digits(individual_digits=True)),
    (lambda: ByteLevel(), "add_prefix_space", False, lambda: ByteLevel(add_prefix_space=False)),
    (lambda: ByteLevel(), "use_regex", False, lambda: ByteLevel(use_regex=False)),
    (lambda: Punctuation(), "behavior", "MergedWithNext", lambda: Punctuation(behavior="merged_with_next")),
    (lambda: Split(Regex(r"\d+")), "pattern", Regex(r"\s+"), lambda: Split(Regex(r"\s+"))),
    (lambda: Split(Regex(r"\d+")), "behavior", "removed", lambda: Split(Regex(r"\d+"), behavior="removed")),
    (lambda: Split(Regex(r"\d+"), behavior="removed"), "invert", True, lambda: Split(Regex(r"\d+"), behavior="removed", invert=True)),
    (lambda: Split(Regex(".")), "pattern", ".", lambda: Split(".")),
    (lambda: Split("."), "pattern", {"Regex": "."}, lambda: Split(Regex("."))),
    (lambda: Sequence([Digits()]), "pretokenizers", [{"type": "Whitespace"}], lambda: Sequence([Whitespace()])),
]


@pytest.mark.parametrize(
    ("make", "option", "value", "expected"), ASSIGNMENTS, ids=lambda v: v if isinstance(v, str) else ""
)
def test_every_option_can_be_assigned_and_takes_effect(
    make: Callable[[], PreTokenizer], option: str, value: Any, expected: Callable[[], PreTokenizer]
) -> None:
    pt, want = make(), expected()
    warm = pt.split_text(TEXT), pt.pre_tokenize_str(TEXT)  # fills any cache the old options built
    setattr(pt, option, value)
    assert pt == want and pt.to_dict() == want.to_dict()
    assert pt.split_text(TEXT) == want.split_text(TEXT) and pt.pre_tokenize_str(TEXT) == want.pre_tokenize_str(TEXT)
    assert pt.split_raw(TEXT) == want.split_raw(TEXT) and pt.split_slices(TEXT) == want.split_slices(TEXT)
    assert warm != (pt.split_text(TEXT), pt.pre_tokenize_str(TEXT))


@pytest.mark.parametrize(
    ("make", "option", "value"),
    [
        (lambda: Metaspace(), "replacement", "%%"),
        (lambda: Metaspace(), "replacement", 3),
        (lambda: Metaspace(), "prepend_scheme", "sometimes"),
        (lambda: Digits(), "individual_digits", "perhaps"),
        (lambda: ByteLevel(), "use_regex", [1]),
        (lambda: Punctuation(), "behavior", "sideways"),
        (lambda: Split(Regex(r"\d+")), "pattern", {"Regex": "("}),
        (lambda: Split(Regex(r"\d+")), "pattern", 42),
        (lambda: Split(Regex(r"\d+")), "pattern", {"Regexp": "x"}),
        (lambda: Split(Regex(r"\d+")), "pattern", CL100K_PATTERN),
        (lambda: Split(Regex(r"\d+")), "timeout", -1),
        (lambda: Split(Regex(r"\d+")), "timeout", True),
        (lambda: Sequence([Digits()]), "pretokenizers", ["Whitespace"]),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_an_invalid_assignment_is_a_config_error_and_changes_nothing(
    make: Callable[[], PreTokenizer], option: str, value: Any
) -> None:
    pt = make()
    before = pt.to_dict(), pt.pre_tokenize_str(TEXT)
    with pytest.raises(ConfigError, match=option):
        setattr(pt, option, value)
    assert (pt.to_dict(), pt.pre_tokenize_str(TEXT)) == before


def test_split_timeout_default_is_read_when_the_split_is_made(monkeypatch: pytest.MonkeyPatch) -> None:
    import toolkit.limits as limits
    from pretokenizers import split

    assert Split("x").timeout == limits.REGEX_TIMEOUT == split.DEFAULT_TIMEOUT
    monkeypatch.setattr(limits, "REGEX_TIMEOUT", 12.5)
    assert Split("x").timeout == 12.5 == split.DEFAULT_TIMEOUT
    assert build("pre_tokenizer", {"type": "Split", "pattern": "x"}).timeout == 12.5
    trap = Split(Regex(r"(a|a)+$"))
    trap.timeout = 0.2  # takes effect at once
    with pytest.raises(InputError, match="0.2 s"):
        trap.split_text("a" * 40 + "c")


def test_declared_fast_path_hooks() -> None:
    """The fast paths are part of the interface: defaults say "cannot" or "no respelling"."""
    for pt in (Whitespace(), WhitespaceSplit(), Digits(), Metaspace(), Punctuation(), Sequence([]),
               Sequence([Split("-"), Digits()])):
        assert pt.split_slices("a b") is None
        assert pt.respelling_only is False
        raw, spell = pt.split_raw("a b-c 1")
        assert spell is None and raw == pt.split_text("a b-c 1")
    assert ByteLevel(add_prefix_space=False, use_regex=False).respelling_only and not ByteLevel().respelling_only
    assert not ByteLevel(use_regex=False).respelling_only  # it adds a space
    assert Metaspace(prepend_scheme="first").position_sensitive and not Metaspace().position_sensitive
    assert Sequence([Digits(), Metaspace(prepend_scheme="first")]).position_sensitive
    assert ByteLevel(add_prefix_space=True).split_slices("hi") is None
    assert ByteLevel(add_prefix_space=True).split_slices(" hi") == ([" hi"], [0], to_byte_level)


def test_one_oniguruma_match_iterator() -> None:
    """``Split`` and ``Replace`` find matches with the same function (the regex dialect's one home)."""
    from pretokenizers import split
    from toolkit.normalizers import Regex, patterns, replace_all

    assert split.find_spans is patterns.find_spans
    assert patterns.find_spans(regex.compile("a*"), "baab") == [(0, 0), (1, 3), (4, 4)]
    assert Split(Regex("a*"), behavior="removed").split_text("baab") == ["b", "b"]
    assert replace_all(Regex("a*"), "-", "baab") == "-b-b-"
    with pytest.raises(TimeoutError):
        patterns.find_spans(regex.compile(r"(a|a)+$"), "a" * 40 + "!", 0.05)


def test_byte_level_cache_is_bounded_and_travels_empty() -> None:
    from toolkit.cache import BoundedCache

    pt = ByteLevel(add_prefix_space=False)
    pt.split_text("hello there hello")
    cache = pt.__dict__["_cache"]
    assert isinstance(cache, BoundedCache) and sorted(cache) == [" hello", " there", "hello"]
    assert len(pickle.loads(pickle.dumps(pt)).__dict__["_cache"]) == 0
    assert len(copy.deepcopy(pt).__dict__["_cache"]) == 0


def test_catastrophic_pattern_times_out() -> None:
    # ``(a+)+$`` is defused by the ``regex`` module's own guards; ``(a|a)+$`` still backtracks
    # exponentially (2**40 paths here) and must be stopped by the timeout.
    split = Split(Regex(r"(a|a)+$"), timeout=0.2)
    text = "a" * 40 + "c"
    for call in (split.split_text, split.pre_tokenize_str):
        start = time.monotonic()
        with pytest.raises(InputError, match=regex.escape("(a|a)+$")):
            call(text)
        assert time.monotonic() - start < 5
    # The same through a configuration file.
    loaded = build("pre_tokenizer", {"type": "Split", "pattern": {"Regex": "(?:a|a)+$"}, "behavior": "contiguous", "timeout": 0.2})
    with pytest.raises(InputError, match="timeout"):
        loaded.split_text(text)


def test_invalid_pattern_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match=r"'\('.*missing \)"):
        Split(Regex("("))
    with pytest.raises(ConfigError, match=r"\[z-a\]"):
        build("pre_tokenizer", {"type": "Split", "pattern": {"Regex": "[z-a]"}})
    assert Split("(").split_text("f(x)") == ["f", "(", "x)"]


@pytest.mark.parametrize(
    "make",
    [
        lambda: Split("x", behavior="sideways"),  # type: ignore[arg-type]
        lambda: Split("x", timeout=0),
        lambda: Split("x", timeout=-1.0),
        lambda: Split(42),  # type: ignore[arg-type]
        lambda: Split({"Regex": "x", "String": "y"}),
        lambda: Split(GPT2_PATTERN),  # a named regex given as a str: refused, not split on as text
        lambda: Punctuation(behavior="nope"),  # type: ignore[arg-type]
        lambda: Metaspace(replacement="ab"),
        lambda: Metaspace(replacement=""),
        lambda: Metaspace(prepend_scheme="sometimes"),  # type: ignore[arg-type]
        lambda: Sequence([Digits(), "Whitespace"]),  # type: ignore[list-item]
        lambda: Sequence(Digits()),  # type: ignore[arg-type]
    ],
)
def test_invalid_constructor_options(make: Callable[[], Any]) -> None:
    with pytest.raises(ConfigError):
        make()


# ---------------------------------------------------------------------------------------------- JSON
ROUND_TRIP = [
    ByteLevel(),
    ByteLevel(add_prefix_space=True, use_regex=False, trim_offsets=False),
    Split(Regex(CL100K_PATTERN)),
    Split(Regex(r"\s+"), behavior="merged_with_next", invert=True, timeout=None),
    Split("--", behavior="contiguous", timeout=1.5),
    Whitespace(),
    WhitespaceSplit(),
    BertPreTokenizer(),
    Punctuation(behavior="merged_with_previous"),
    Digits(individual_digits=True),
    Metaspace(replacement="_", prepend_scheme="first", split=False),
    Sequence([WhitespaceSplit(), Sequence([Digits(), Metaspace()]), ByteLevel(use_regex=False)]),
    Sequence([]),
]


@pytest.mark.parametrize("pt", ROUND_TRIP, ids=repr)
@pytest.mark.parametrize("validate", [True, False])
def test_json_round_trip(pt: PreTokenizer, validate: bool) -> None:
    data = json.loads(json.dumps(pt.to_dict()))
    assert data["type"] == type(pt).type_name
    rebuilt = build("pre_tokenizer", data, validate=validate)
    assert type(rebuilt) is type(pt)
    assert rebuilt == pt
    assert rebuilt.to_dict() == pt.to_dict()
    for text in TRICKY:
        assert rebuilt.split_text(text) == pt.split_text(text)
        assert rebuilt.pre_tokenize_str(text) == pt.pre_tokenize_str(text)


@pytest.mark.parametrize("pt", ROUND_TRIP, ids=repr)
def test_pickle_and_copy(pt: PreTokenizer) -> None:
    """Pre-tokenizers travel to worker processes (parallel corpus counting) and copy cleanly."""
    text = "Hello, wörld 12345 __x__  !"
    for clone in (pickle.loads(pickle.dumps(pt)), copy.deepcopy(pt)):
        assert clone == pt
        assert clone.pre_tokenize_str(text) == pt.pre_tokenize_str(text)


def test_json_forms() -> None:
    assert Split("-").to_dict() == {
        "type": "Split", "pattern": {"String": "-"}, "behavior": "isolated", "invert": False, "timeout": 5.0
    }
    assert Split(Regex("-")).to_dict()["pattern"] == {"Regex": "-"}
    assert ByteLevel().to_dict() == {"type": "ByteLevel", "add_prefix_space": True, "use_regex": True, "trim_offsets": True}
    assert Sequence([Digits()]).to_dict() == {"type": "Sequence", "pretokenizers": [{"type": "Digits", "individual_digits": False}]}
    assert Metaspace().to_dict() == {"type": "Metaspace", "replacement": "▁", "prepend_scheme": "always", "split": True}
    assert Whitespace() == Whitespace() and Digits() != Digits(individual_digits=True)


def test_hugging_face_json_blocks_load(hf: tuple[Any, Any]) -> None:
    """The JSON HF writes for these pre-tokenizers (ByteLevel, Metaspace...) builds as is."""
    H, _ = hf
    for hf_pt in (H.ByteLevel(add_prefix_space=False), H.Metaspace(), H.Digits(individual_digits=True),
                  H.Punctuation("contiguous"), H.Whitespace(), H.WhitespaceSplit(), H.BertPreTokenizer(),
                  H.Sequence([H.WhitespaceSplit(), H.Digits()])):
        data = json.loads(hf_pt.__getstate__())
        ours = build("pre_tokenizer", data)
        text = "Hello,  world 42!"
        assert ours.pre_tokenize_str(text) == hf_pt.pre_tokenize_str(text)


@pytest.mark.parametrize(
    "data",
    [{"type": t} for t in ("ByteLevel", "Whitespace", "WhitespaceSplit", "BertPreTokenizer", "Punctuation", "Digits", "Metaspace")]
    + [{"type": "Split", "pattern": "x"}, {"type": "Sequence", "pretokenizers": []}],
    ids=lambda d: d["type"],
)
def test_unknown_option_is_named(data: dict[str, Any]) -> None:
    with pytest.raises(ConfigError, match="bogus_option"):
        build("pre_tokenizer", {**data, "bogus_option": 1})


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": "Digits", "individual_digits": "perhaps"}, "individual_digits"),
        ({"type": "Split"}, "pattern"),
        ({"type": "Split", "pattern": "x", "behavior": "sideways"}, "behavior"),
        ({"type": "Split", "pattern": "x", "timeout": -3}, "timeout"),
        ({"type": "Metaspace", "replacement": "ab"}, "replacement"),
        ({"type": "Metaspace", "prepend_scheme": "sometimes"}, "prepend_scheme"),
        ({"type": "Sequence"}, "pretokenizers"),
        ({"type": "Sequence", "pretokenizers": [{"type": "Digits"}, {"type": "Digits", "oops": 1}]}, r"pretokenizers\[1\]\.oops"),
        ({"type": "Sequence", "pretokenizers": [{"type": "Sequence", "pretokenizers": [{"type": "Metaspace", "split": "maybe"}]}]},
         r"pretokenizers\[0\]\.pretokenizers\[0\]\.split"),
    ],
)
def test_invalid_json_is_a_config_error_naming_the_field(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        build("pre_tokenizer", data)


def test_unknown_child_type_in_sequence() -> None:
    with pytest.raises(RegistryError, match="NoSuchThing"):
        build("pre_tokenizer", {"type": "Sequence", "pretokenizers": [{"type": "NoSuchThing"}]})


def test_registered_names() -> None:
    for name in pretokenizers.__all__:
        obj = getattr(pretokenizers, name)
        if isinstance(obj, type):
            assert lookup("pre_tokenizer", name) is obj
            assert issubclass(obj, PreTokenizer)


def test_docstring_examples() -> None:
    modules = ["pretokenizers"] + [
        f"pretokenizers.{m}" for m in ("split", "bytelevel", "whitespace", "bert", "punctuation", "digits", "metaspace", "sequence", "patterns")
    ]
    for name in modules:
        result = doctest.testmod(importlib.import_module(name))
        assert result.failed == 0, name


def test_byte_level_conversions_on_every_code_point() -> None:
    """The C conversions (a charmap codec's tables) against the dict they are built from, on every
    code point: each byte-level character is its byte, every other character is refused."""
    from toolkit.bytelevel import (
        BYTE_TO_CHAR,
        CHAR_TO_BYTE,
        byte_symbols,
        bytes_to_byte_level,
        from_byte_level,
        to_byte_level,
    )

    every = "".join(map(chr, range(0x110000)))  # lone surrogates too: encoded as-is
    assert to_byte_level(every) == "".join(BYTE_TO_CHAR[b] for b in every.encode("utf-8", "surrogatepass"))
    assert bytes_to_byte_level(bytes(range(256))) == "".join(BYTE_TO_CHAR)
    alphabet = "".join(BYTE_TO_CHAR)
    assert from_byte_level(alphabet) == bytes(range(256)) and byte_symbols(alphabet) == "".join(map(chr, range(256)))
    foreign = [c for c in every if c not in CHAR_TO_BYTE]
    assert len(foreign) == 0x110000 - 256
    assert not any(map(byte_symbols, foreign))
    refused = 0
    for c in foreign:
        try:
            from_byte_level("Ġ" + c)
        except ValueError as exc:
            refused += str(exc) == f"{c!r} is not a byte-level character"
    assert refused == len(foreign)
