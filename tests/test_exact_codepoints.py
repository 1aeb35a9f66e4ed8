"""Exact on every code point: the named patterns split, and the tokenizers encode, as tiktoken and HF do.

Every code point (surrogates aside) goes through each named pattern in several contexts (alone, after a
letter, after a space, before a digit, after an apostrophe, before ``'s``), the texts of a context joined
by a newline. The pieces must equal HF ``tokenizers``' ``Split`` with the pattern's HF spelling (Oniguruma),
and the ids those of tiktoken (GPT-2, cl100k, o200k) or HF (the Llama-3 file). The default run samples
the code points (every ASCII and Latin-1 one, every 313th beyond, a few points where Unicode tables of
different versions disagree); ``-m slow`` runs all of them.
"""

from __future__ import annotations

import json
import re

import pytest
import regex
from conftest import require, shared_path

from pretokenizers import (
    CL100K_PATTERN,
    GPT2_PATTERN,
    HF_GPT2_PATTERN,
    LLAMA3_PATTERN,
    O200K_PATTERN,
)
from pretokenizers.pinned import (
    PINNED_PATTERNS,
    UNICODE_VERSION,
    class_body,
    compile_pinned,
    from_hf_spelling,
    hf_spelling,
    pin,
)
from toolkit import Tokenizer
from toolkit.bytelevel import CHAR_TO_BYTE
from toolkit.unicode_tables import RANGES

ALL = [c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
# Letters / numbers in the ``regex`` module's tables but not in tiktoken's, and a few classic edge cases.
EDGES = [0x3D000, 0x2EBF0, 0x31350, 0x10D40, 0x1E290, 0x017F, 0x212A, 0x0130, 0x00A0, 0x0085, 0x3000, 0x1C, 0x1F,
         0x200B, 0x2028, 0xFEFF, 0x0301, 0x0345, 0xFF10, 0x2160, 0x00B2, 0x10FFFF]
SAMPLE = sorted(set(range(0x100)) | set(range(0x100, 0x110000, 313)) - set(range(0xD800, 0xE000)) | set(EDGES))
CONTEXTS = {
    "alone": "{}",
    "after a letter": "a{}",
    "after a space": " {}",
    "before a digit": "{}1",
    "after an apostrophe": "'{}",
    "before 's": "{}'s",
}
PATTERNS = {
    "gpt2": GPT2_PATTERN,
    "hf-gpt2": HF_GPT2_PATTERN,
    "cl100k": CL100K_PATTERN,
    "o200k": O200K_PATTERN,
    "llama3": LLAMA3_PATTERN,
}


def texts(points: list[int]) -> list[str]:
    """One text per context for the points below U+10000 and one for those above, so that each goes
    through its own compiled twin (``PinnedScanner``: a text without astral characters takes ``bmp``)."""
    groups = [g for g in ([c for c in points if c < 0x10000], [c for c in points if c >= 0x10000]) if g]
    return ["\n".join(fmt.format(chr(c)) for c in group) for group in groups for fmt in CONTEXTS.values()]


def hf_pieces(pattern: str, text: str) -> list[str]:
    tokenizers = require("tokenizers")
    split = tokenizers.pre_tokenizers.Split(tokenizers.Regex(hf_spelling(pattern)), behavior="isolated")
    return [p for p, _ in split.pre_tokenize_str(text)]


def first_difference(a: list, b: list) -> str:
    k = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"at {k}: ours {a[k - 2:k + 3]!r}, peer {b[k - 2:k + 3]!r}"


# ------------------------------------------------------------------------------------ the tables
def test_tables_are_what_tiktoken_and_hf_match():
    tiktoken = require("tiktoken")
    tokenizers = require("tokenizers")
    sample = "".join(map(chr, SAMPLE))
    for name in ("L", "N", "s", "M", "Lu", "Ll"):
        cls = r"\s" if name == "s" else rf"\p{{{name}}}"
        enc = tiktoken.Encoding("probe", pat_str=cls, mergeable_ranks={bytes([i]): i for i in range(256)},
                                special_tokens={})
        members = set(map(ord, bytes(enc.encode_ordinary(sample)).decode()))
        split = tokenizers.pre_tokenizers.Split(tokenizers.Regex(cls), behavior="removed", invert=True)
        hf_members = {ord(c) for p, _ in split.pre_tokenize_str(sample) for c in p}
        member = re.compile("[" + class_body(name) + "]").fullmatch  # compiled once: the body is long
        pinned = {c for c in SAMPLE if member(chr(c))}
        assert pinned == members == hf_members, name


def test_tables_do_not_follow_the_regex_module():
    # U+3D000 is a letter to the newest ``regex`` (Unicode after 15.1), not to tiktoken or HF.
    assert UNICODE_VERSION == "15.1"
    assert not re.fullmatch("[" + class_body("L") + "]", "\U0003d000")
    assert compile_pinned(CL100K_PATTERN).findall("x\U0003d000:A") == ["x", "\U0003d000:", "A"]
    assert len(RANGES["s"]) == 10 and sum(b - a + 1 for a, b in RANGES["s"]) == 25


def test_pin_rewrites_only_pinned_classes():
    members = {name: {c for a, b in RANGES[name] for c in range(a, b + 1)} for name in ("s", "L", "N")}
    cases = {
        r"[^\s\p{L}]": lambda c: c not in members["s"] and c not in members["L"],
        r"\S": lambda c: c not in members["s"],
        r"\P{N}": lambda c: c not in members["N"],
        r"\p{L}": lambda c: c in members["L"],
        r"[\r\n\p{N}]": lambda c: c in members["N"] or c in (10, 13),
    }
    for source, expected in cases.items():
        compiled = re.compile(pin(source))
        for c in SAMPLE:
            assert bool(compiled.fullmatch(chr(c))) == expected(c), (source, hex(c))
    assert pin(r"[\S]") is None and pin(r"\p{Greek}") is None and pin(r"\d") is None
    assert re.fullmatch(pin(r"[]a]\["), "][")
    for pattern in PINNED_PATTERNS:
        scanner = compile_pinned(pattern)
        assert scanner.full.__class__ is re.Pattern and scanner.bmp.__class__ is re.Pattern
    assert isinstance(compile_pinned(r"\w+"), regex.Pattern)


# ------------------------------------------------------------------------------------ pieces vs HF
def check_pieces(name: str, points: list[int]) -> None:
    pattern = PATTERNS[name]
    ours = compile_pinned(pattern)
    for text in texts(points):
        mine = ours.findall(text)
        assert "".join(mine) == text  # the named patterns tile any text
        peer = hf_pieces(pattern, text)
        assert mine == peer, f"{name}: " + first_difference(mine, peer)


@pytest.mark.parametrize("name", PATTERNS)
def test_pieces_equal_hf_sampled(name):
    check_pieces(name, SAMPLE)


@pytest.mark.parametrize("name", PATTERNS)
def test_the_bmp_twin_splits_every_bmp_code_point_as_the_full_pattern(name):
    """The faster twin for texts without astral characters cuts every code point below U+10000 (in
    every context) as the full pinned pattern does; the full one is what the tests below compare with HF."""
    scanner = compile_pinned(PATTERNS[name])
    bmp = [c for c in ALL if c < 0x10000]
    for text in texts(bmp):
        assert scanner.for_text(text) is scanner.bmp
        mine, full = scanner.bmp.findall(text), scanner.full.findall(text)
        assert mine == full, f"{name}: " + first_difference(mine, full)
    assert scanner.for_text("a\U0001F600") is scanner.full and scanner.for_text("ab") is scanner.bmp


@pytest.mark.slow
@pytest.mark.parametrize("name", PATTERNS)
def test_pieces_equal_hf_every_code_point(name):
    check_pieces(name, ALL)


# ------------------------------------------------------------------------------------ ids vs tiktoken / HF
def _o200k_ranks() -> dict[bytes, int]:
    data = json.loads(shared_path("vocab/llm/gpt4o/tokenizer.json").read_text(encoding="utf-8"))
    return {bytes(CHAR_TO_BYTE[c] for c in token): i for token, i in data["model"]["vocab"].items()}


@pytest.fixture(scope="module")
def peers():
    """name -> (our tokenizer, the peer's encode function)."""
    tiktoken = require("tiktoken")
    tokenizers = require("tokenizers")
    from tiktoken.load import data_gym_to_mergeable_bpe_ranks, load_tiktoken_bpe

    enc_json, bpe = shared_path("vocab/gpt2/encoder.json"), shared_path("vocab/gpt2/vocab.bpe")
    cl100k = shared_path("vocab/tiktoken/cl100k_base.tiktoken")
    llama3 = shared_path("vocab/llm/llama3/tokenizer.json")

    def tk(pattern, ranks):
        return tiktoken.Encoding("peer", pat_str=pattern, mergeable_ranks=ranks, special_tokens={}).encode_ordinary

    hf_llama3 = tokenizers.Tokenizer.from_file(str(llama3))
    return {
        "gpt2": (Tokenizer.from_gpt2(enc_json, bpe), tk(GPT2_PATTERN, data_gym_to_mergeable_bpe_ranks(str(bpe), str(enc_json)))),
        "cl100k": (Tokenizer.from_tiktoken(cl100k), tk(CL100K_PATTERN, load_tiktoken_bpe(str(cl100k)))),
        "o200k": (Tokenizer.from_hf_json(shared_path("vocab/llm/gpt4o/tokenizer.json")), tk(O200K_PATTERN, _o200k_ranks())),
        "llama3": (Tokenizer.from_hf_json(llama3), lambda t: hf_llama3.encode(t, add_special_tokens=False).ids),
    }


def check_ids(peers, name: str, points: list[int], *, full: bool) -> None:
    ours, peer = peers[name]
    for text in texts(points):
        mine = ours.encode_ids(text, add_special_tokens=False)
        theirs = peer(text)
        assert mine == theirs, f"{name}: " + first_difference(mine, theirs)
        if full:  # the Encoding path (offsets) too
            assert ours.encode(text, add_special_tokens=False).ids == theirs


@pytest.mark.parity
@pytest.mark.parametrize("name", ["gpt2", "cl100k", "o200k", "llama3"])
def test_ids_equal_peer_sampled(peers, name):
    check_ids(peers, name, SAMPLE, full=True)


@pytest.mark.slow
@pytest.mark.parity
@pytest.mark.parametrize("name", ["gpt2", "cl100k", "o200k", "llama3"])
def test_ids_equal_peer_every_code_point(peers, name):
    check_ids(peers, name, ALL, full=False)


# ------------------------------------------------------------------------------------ HF spelling
def test_hf_spelling_round_trips_and_means_the_same_to_hf():
    for pattern in PINNED_PATTERNS:
        assert from_hf_spelling(hf_spelling(pattern)) == pattern
    text = "0" * 17 + " 1,000,000 and 3.14159 x12345y"
    assert hf_pieces(CL100K_PATTERN, text) == compile_pinned(CL100K_PATTERN).findall(text)
    tokenizers = require("tokenizers")
    raw = tokenizers.pre_tokenizers.Split(tokenizers.Regex(CL100K_PATTERN), behavior="isolated")
    assert [p for p, _ in raw.pre_tokenize_str("0" * 17)] == ["0" * 17]  # why the spelling matters
    # Oniguruma's repeated interval, read from a file, keeps its meaning in ours.
    assert regex.findall(from_hf_spelling(r"\d{1,3}+"), "12345") == ["12345"]


# ------------------------------------------------------------------------------------ other Split patterns
# The Split patterns of the Qwen3 and DeepSeek-V3 tokenizer.json files (read as HF reads them): not named,
# so they run on ``regex`` and switch to their pinned twin for a text holding a character whose class
# the installed ``regex`` sees otherwise (pretokenizers.pinned.DriftSwitch).
OTHER_PATTERNS = {
    "qwen3": r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+",
    "deepseek-digits": r"\p{N}{1,3}",
    "deepseek-words": r"[!\"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+| ?[\p{P}\p{S}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+",
}


def _other_points(every: bool) -> list[int]:
    from pretokenizers.pinned import class_drift, pinned_classes

    if every:
        return ALL
    drift = {ord(c) for p in OTHER_PATTERNS.values() for k in pinned_classes(p) for c in class_drift(k)}
    return sorted(set(SAMPLE) | set(list(sorted(drift))[::7]))


@pytest.mark.parametrize("every", [False, pytest.param(True, marks=pytest.mark.slow)])
@pytest.mark.parametrize("name", OTHER_PATTERNS)
def test_other_split_patterns_equal_hf_on_every_code_point(name: str, every: bool) -> None:
    from pretokenizers import Split
    from toolkit import Regex

    tokenizers = require("tokenizers")
    pattern = OTHER_PATTERNS[name]
    ours = Split(Regex(pattern), "isolated")
    hf = tokenizers.pre_tokenizers.Split(tokenizers.Regex(pattern), "isolated")
    points = _other_points(every)
    for i in range(0, len(points), 50_000):
        for text in texts(points[i : i + 50_000]):
            expected = hf.pre_tokenize_str(text)
            assert ours.pre_tokenize_str(text) == expected, first_difference(ours.split_text(text), [p for p, _ in expected])


def test_drifting_agrees_with_the_reference_on_every_code_point() -> None:
    """The per-character test of the switch against the whole-table reference."""
    from pretokenizers.pinned import class_drift, drifting

    for pinned in ((r"\p{N}", "N"), (r"\s", "s"), (r"\w", "hf_word")):
        assert drifting(map(chr, ALL), pinned) == class_drift(pinned), pinned
