"""Pathological inputs encode in bounded time and memory, for every algorithm.

1 M repeated characters, 1 MB without spaces, 100 k emoji, deep combining-mark stacks, mixed scripts,
NUL and control characters, long runs of spaces and digits, the empty string, every special token;
lone surrogates are refused with :class:`InputError` (the documented choice, see docs/robustness.md);
wrong types are :class:`InputError` too, never a crash deep inside.

Default run: ``encode_ids`` on the full-size inputs for three pipelines and ``encode`` (with offsets)
on 5% versions (50 k characters) for BERT and the other four; the ``slow`` set runs both for every
pipeline, and the full-size ``encode`` of every input. Memory is measured
in a fresh process (peak RSS growth) so it is not disturbed by the test runner.
"""

from __future__ import annotations

import functools
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import slow_params
from test_robustness_support import ALL, LOSSLESS, SPECIALS, pipelines
from toolkit import Tokenizer
from toolkit.errors import InputError

ONE_M = 1_000_000


def _no_space(n: int) -> str:
    rng = random.Random(0)
    return "".join(rng.choice("abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789,.;:!?éàçßøœ-_'\"()") for _ in range(n))


@functools.lru_cache(maxsize=None)  # built once per scale (1M random characters take 0.4 s), read only
def make_inputs(scale: float = 1.0) -> dict[str, str]:
    n = int(ONE_M * scale)
    return {
        "1M same char": "a" * n,
        "1MB no spaces": _no_space(n),
        "100k emoji": "🙂" * (n // 10),
        "combining stack": "e" + "\u0301" * (n // 10),
        "combining on every char": "a\u0301\u0327\u0308" * (n // 40),
        "mixed scripts": ("Hello мир 世界 مرحبا שלום नमस्ते ไทย 🙂 한국어 Ελληνικά " * (n // 60))[:n],
        "NUL and controls": "".join(chr(i) for i in range(32)) * (n // 32) + "\x7f\x85",
        "1M spaces": " " * n,
        "digits": "1234567890" * (n // 10),
        "ZWJ family emoji": "👩\u200d👩\u200d👧\u200d👦" * (n // 70),
        "bidi controls": "\u202eabc\u202d\u2066x\u2069" * (n // 80),
        "every special token": "".join(SPECIALS) * (n // 100),
    }


def _check(tok: Tokenizer, name: str, text: str, ids: list[int]) -> None:
    assert ids or not text.strip() or name in ("bert",)
    if name in LOSSLESS:
        assert tok.decode(ids) == text


#: The default run covers one pipeline per algorithm family (byte level: tiktoken's; the chat
#: pipeline adds special tokens to it); the others run with ``-m slow``.
DEFAULT = ("tiktoken", "bpe", "bert")


@pytest.mark.parametrize("name", slow_params(ALL, default=DEFAULT))
def test_full_size_pathological_inputs_encode_ids(name: str) -> None:
    # No wall-clock assertion (it fails on a loaded machine): a quadratic path would make this test
    # run for hours instead of about a second per pipeline, which the CI time limit catches.
    tok = pipelines()[name]
    for text in make_inputs().values():
        _check(tok, name, text, tok.encode_ids(text))


# The pipelines the full-size test above leaves to -m slow, and BERT (cheap, and its offsets cover
# combining stacks and controls): the default run covers each shape.
@pytest.mark.parametrize("name", slow_params(ALL, slow=("tiktoken", "bpe")))
def test_pathological_inputs_encode_with_offsets(name: str) -> None:
    tok = pipelines()[name]
    for case, text in make_inputs(0.05).items():
        enc = tok.encode(text)
        assert enc.ids == tok.encode_ids(text), case
        assert all(0 <= s <= e <= len(text) for s, e in enc.offsets), case


@pytest.mark.slow
@pytest.mark.parametrize("name", ALL)
def test_full_size_pathological_inputs_encode_with_offsets(name: str) -> None:
    tok = pipelines()[name]
    for case, text in make_inputs().items():
        enc = tok.encode(text)
        assert enc.ids == tok.encode_ids(text), case
        assert all(0 <= s <= e <= len(text) for s, e in enc.offsets), case


# ---------------------------------------------------------------------------------------- memory
_MEMORY_PROBE = r"""
import json, resource, sys
sys.path.insert(0, sys.argv[3])
from test_robustness_pathological import make_inputs
from toolkit import Tokenizer
tok = Tokenizer.load(sys.argv[1])
text = make_inputs()[sys.argv[2]]
tok.encode_ids("warm up the caches and imports")
tok.encode("warm up the caches and imports")
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
n = len(tok.encode_ids(text))
after_ids = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
m = len(tok.encode(text))
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"ids_kb": after_ids - before, "encode_kb": after - before, "tokens": n, "tokens2": m}))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ru_maxrss in KiB is Linux's unit")
@pytest.mark.parametrize(
    "case", ["1M same char", "100k emoji", *(pytest.param(c, marks=pytest.mark.slow) for c in ("1MB no spaces", "combining stack"))]
)
def test_memory_is_linear_in_the_input(tmp_path: Path, case: str) -> None:
    path = tmp_path / "chat.json"
    pipelines()["chat"].save(path)
    proc = subprocess.run(
        [sys.executable, "-c", _MEMORY_PROBE, str(path), case, str(Path(__file__).parent)],
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    tokens = result["tokens"]
    assert result["tokens2"] == tokens
    # encode_ids keeps one int per token; encode keeps ids, token strings, offsets, masks and word
    # ids (measured ~300 bytes per token). Both must stay linear: well under 1 KiB per token.
    assert result["ids_kb"] * 1024 < 200 * tokens + 64 * 2**20, result
    assert result["encode_kb"] * 1024 < 1024 * tokens + 64 * 2**20, result


# ---------------------------------------------------------------------------------------- small edge cases
@pytest.mark.parametrize("name", ALL)
def test_empty_and_whitespace_only_text(name: str) -> None:
    tok = pipelines()[name]
    empty = tok.encode("")
    assert all(empty.special_tokens_mask)  # nothing but what the post-processor adds
    for text in ("", " ", "\n", "\u3000", "\u200b", "\r\n\t "):
        enc = tok.encode(text)
        assert enc.ids == tok.encode_ids(text)
        if name in LOSSLESS:
            assert tok.decode(enc.ids) == text
    assert tok.decode([]) == ""
    assert tok.encode_batch([]) == []
    assert tok.encode_batch([""]) == [empty]


LONE_SURROGATES = ["\ud800", "abc\udfff", "\udc80\udc81", "ok 🙂 \ud83d", "\ud83d\ude42".encode("utf-16", "surrogatepass").decode("utf-16")]


@pytest.mark.parametrize("name", ALL)
def test_lone_surrogates_are_an_input_error(name: str) -> None:
    tok = pipelines()[name]
    for text in LONE_SURROGATES[:4]:
        index = next(i for i, c in enumerate(text) if 0xD800 <= ord(c) <= 0xDFFF)
        for call in (
            lambda: tok.encode(text),
            lambda: tok.encode_ids(text),
            lambda: tok.encode("fine", text),
            lambda: tok.encode_batch(["fine", text]),
            lambda: tok.encode_batch([("fine", text)]),
            lambda: tok.normalize_str(text),
            lambda: tok.pre_tokenize_str(text),
        ):
            with pytest.raises(InputError, match=rf"lone surrogate U\+{ord(text[index]):04X} at index {index}"):
                call()
    # A proper pair (what Python makes of a UTF-16 surrogate pair) is one character: fine.
    assert tok.encode_ids(LONE_SURROGATES[4]) == tok.encode_ids("🙂")


@pytest.mark.parametrize("name", LOSSLESS)
def test_decode_never_produces_lone_surrogates(name: str) -> None:
    tok = pipelines()[name]
    rng = random.Random(1)
    for _ in range(200):
        ids = [rng.randrange(tok.vocab_size - len(tok.special_tokens)) for _ in range(rng.randrange(1, 12))]
        text = tok.decode(ids)
        text.encode("utf-8")  # raises on a lone surrogate
        stream = tok.stream_decoder()
        ("".join(stream.feed(i) for i in ids) + stream.flush()).encode("utf-8")


def test_surrogateescape_text_from_the_os_is_refused_not_mangled() -> None:
    raw = b"caf\xe9 au lait"  # Latin-1 bytes read as UTF-8 with surrogateescape (os.fsdecode, sys.argv...)
    text = raw.decode("utf-8", "surrogateescape")
    tok = pipelines()["gpt2"]
    with pytest.raises(InputError, match=r"U\+DCE9 at index 3.*errors='replace'"):
        tok.encode_ids(text)
    fixed = raw.decode("utf-8", "replace")
    assert tok.decode(tok.encode_ids(fixed)) == fixed


@pytest.mark.parametrize("bad", [None, b"bytes", 123, 1.5, ["list"], {"a": 1}])
def test_wrong_input_types_are_input_errors(bad: object) -> None:
    tok = pipelines()["bert"]
    calls = [lambda: tok.encode(bad), lambda: tok.encode_ids(bad), lambda: tok.encode_batch([bad])]
    if bad is not None:  # pair=None means "no pair"
        calls.append(lambda: tok.encode("x", bad))
    for call in calls:
        with pytest.raises(InputError):
            call()
    with pytest.raises(InputError, match=r"\(text, pair\) tuple or list of 2 items, got 3"):
        tok.encode_batch([("a", "b", "c")])
    with pytest.raises(InputError, match="got one string; use encode"):
        tok.encode_batch("a text, not a list of texts")


@pytest.mark.parametrize("bad", [[-1], [10**9], [2**64], [1.0], ["1"], [None]])
def test_decoding_unknown_ids_is_an_input_error(bad: list) -> None:  # noqa: ANN001
    for name in ("gpt2", "bert", "tiktoken"):
        tok = pipelines()[name]
        with pytest.raises(InputError, match="cannot decode id"):
            tok.decode(bad)
        with pytest.raises(InputError):
            tok.stream_decoder().feed(bad[0])


def test_cli_refuses_invalid_utf8_input(tmp_path: Path) -> None:
    script = Path(sys.executable).with_name("tokenizer-toolkit")
    if not script.exists():
        pytest.skip("console script not installed")
    path = tmp_path / "tok.json"
    pipelines()["gpt2"].save(path)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run([str(script), "encode", str(path)], input=b"ok \xff\xfe", capture_output=True, timeout=60, env=env)
    assert proc.returncode == 1
    assert b"not valid UTF-8" in proc.stderr and proc.stdout == b""


def test_adding_many_tokens_in_one_call_is_linear(monkeypatch: pytest.MonkeyPatch) -> None:
    """``add_tokens`` of k tokens compared each with every token already added (a scan of the ids'
    values, O(k^2): 5,000 tokens took 18 s); counted comparisons, no clock."""
    from algorithms import BPE
    from toolkit import Tokenizer
    from toolkit.added_tokens import AddedToken

    calls = [0]
    real_eq = AddedToken.__eq__

    def counting_eq(self, other):  # type: ignore[no-untyped-def]
        calls[0] += 1
        return real_eq(self, other)

    monkeypatch.setattr(AddedToken, "__eq__", counting_eq)
    tok = Tokenizer(BPE(vocab={"a": 0}, merges=[]))
    n = 3000
    assert tok.add_tokens([f"<t{i}>" for i in range(n)] + ["<t5>"]) == n
    assert tok.encode("a<t7>a").ids == [0, 8, 0] and tok.get_vocab_size() == n + 1
    assert calls[0] < 10 * n, f"{calls[0]} token comparisons for {n} tokens: not linear"


@pytest.mark.parametrize("form", ["NFC", "NFD", "NFKC", "NFKD"])
def test_long_runs_of_marks_reach_unicodedata_in_canonical_order(form: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``unicodedata``'s canonical ordering is quadratic in a run of marks whose classes alternate
    (100,000 marks: 17 s in NFC, NFD, NFKC, NFKD and BertNormalizer); the normalizers hand it long runs
    already ordered (each character decomposed, the marks stably sorted by class), and the results are
    ``unicodedata``'s. Checked without a clock: every string ``unicodedata.normalize`` receives has its
    long runs of marks in order."""
    import unicodedata

    from toolkit.alignment import NormalizedString
    from toolkit.normalizers import unicode as module

    def ordered_runs(text: str) -> bool:
        classes = [unicodedata.combining(c) for c in text]
        run = 0
        for k in range(1, len(classes)):
            run = run + 1 if classes[k] else 0
            if run > 40 and 0 < classes[k] < classes[k - 1]:
                return False
        return True

    class Checked:
        def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
            return getattr(unicodedata, name)

        @staticmethod
        def normalize(f: str, text: str) -> str:
            assert ordered_runs(text), f"a run of {len(text)} characters out of order"
            return unicodedata.normalize(f, text)

    text = "x é" + "\u0301\u0327\u0316" * 400 + " y" + "a\u0344\u0301\u05b0" * 30
    expected = unicodedata.normalize(form, text)
    monkeypatch.setattr(module, "unicodedata", Checked())
    normalizer = getattr(module, form)()
    assert normalizer.normalize_str(text) == expected
    ns = normalizer.normalize(NormalizedString(text))
    assert ns.normalized == expected and len(ns.alignments) == len(expected)
