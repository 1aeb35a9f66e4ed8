"""The floats of a ``tokenizer.json`` as Hugging Face reads them (``toolkit.interop.hf_floats``).

HF's JSON parser reads some decimals one unit in the last place away from the correctly rounded value,
and a Unigram's scores decide its ties: ``hf_float`` must read every number as HF does (against HF on
generated numbers, and against a literal transcription of the parser's steps), ``hf_float_text`` must
give digits HF reads back exactly, and a trained Unigram, its export and both libraries' reading of the
export must cut every line alike.
"""

from __future__ import annotations

import json
import math
import random
import struct
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from conftest import require
from toolkit import Tokenizer
from toolkit.errors import SerializationError
from toolkit.interop.hf_floats import dumps_hf, hf_float, hf_float_text

_U64 = (1 << 64) - 1


def reference_hf_float(text: str) -> float:
    """serde_json's steps one character at a time (its ``parse_integer``, ``parse_long_integer``,
    ``parse_decimal``, ``parse_exponent`` and ``f64_from_parts`` without ``float_roundtrip``)."""
    i, positive = 0, True
    if text[0] == "-":
        positive, i = False, 1
    significand = exponent = 0
    long_integer = False
    while i < len(text) and text[i].isdigit():
        digit = int(text[i])
        if long_integer or significand * 10 + digit > _U64:
            long_integer = True
            exponent += 1
        else:
            significand = significand * 10 + digit
        i += 1
    if i < len(text) and text[i] == ".":
        i += 1
        while i < len(text) and text[i].isdigit():
            digit = int(text[i])
            if significand * 10 + digit > _U64:  # the rest of the fraction is dropped
                while i < len(text) and text[i].isdigit():
                    i += 1
                break
            significand = significand * 10 + digit
            exponent -= 1
            i += 1
    if i < len(text) and text[i] in "eE":
        i += 1
        positive_exp = True
        if text[i] in "+-":
            positive_exp = text[i] == "+"
            i += 1
        exp = 0
        while i < len(text):
            digit = int(text[i])
            if exp * 10 + digit > 2**31 - 1:
                if significand and positive_exp:
                    raise ValueError("number out of range")
                return 0.0 if positive else -0.0
            exp = exp * 10 + digit
            i += 1
        exponent = max(-(2**31), min(2**31 - 1, exponent + exp if positive_exp else exponent - exp))
    f = float(significand)
    while True:
        if abs(exponent) <= 308:
            if exponent >= 0:
                f *= float(f"1e{exponent}")
                if math.isinf(f):
                    raise ValueError("number out of range")
            else:
                f /= float(f"1e{-exponent}")
            break
        if f == 0.0:
            break
        if exponent >= 0:
            raise ValueError("number out of range")
        f /= 1e308
        exponent += 308
    return f if positive else -f


def _numbers(seed: int, count: int) -> list[str]:
    """JSON numbers of every shape that reaches the parser's branches: the repr of random doubles,
    long digit strings, integers that overflow a u64 before a fraction, exponents up to an i32's edge."""
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < count:
        kind = rng.randrange(6)
        if kind == 0:
            text = repr(-rng.uniform(0, 40))
        elif kind == 1:
            x = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
            if not math.isfinite(x):
                continue
            text = repr(-abs(x))
        elif kind == 2:
            digits = "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 28))).lstrip("0") or "0"
            cut = rng.randint(0, len(digits))
            text = "-" + (digits[:cut] or "0") + "." + (digits[cut:] or "0")
        elif kind == 3:
            whole = rng.randint(18446744073709551600, 18446744073709551700)  # about u64's largest
            text = f"-{whole}{rng.choice(['', '0'])}.{rng.randint(0, 99999)}"
        elif kind == 4:
            text = f"-{rng.randint(0, 10 ** rng.randint(1, 22))}.{rng.randint(0, 999)}e{rng.randint(-400, 310):+d}"
        else:
            exponent = rng.choice([2147483647, 2147483648, 99999999999, 300])  # about i32's largest
            text = f"-{rng.randint(0, 99)}.5e{rng.choice(['-', '+', ''])}{exponent}"
        out.append(text)
    return out


def _unigram_document(scores: list[str]) -> str:
    """An HF ``tokenizer.json`` of a Unigram whose scores are the given number texts, as written."""
    vocab = ", ".join(f'["p{i}", {s}]' for i, s in enumerate(scores))
    return ('{"version": "1.0", "truncation": null, "padding": null, "added_tokens": [], "normalizer": null, '
            '"pre_tokenizer": null, "post_processor": null, "decoder": null, '
            '"model": {"type": "Unigram", "unk_id": null, "vocab": [' + vocab + '], "byte_fallback": false}}')


def _hf_scores(tokenizers, document: str) -> list[float]:
    """The scores HF holds after reading ``document``: its own writer prints each one exactly."""
    return [s for _, s in json.loads(tokenizers.Tokenizer.from_str(document).to_str())["model"]["vocab"]]


# ------------------------------------------------------------------------------------ reading
def test_hf_float_reads_every_number_as_hugging_face() -> None:
    tokenizers = require("tokenizers")
    numbers = _numbers(seed=1, count=3000)
    readable, refused = [], []
    for text in numbers:
        try:
            value = hf_float(text)
        except ValueError:
            refused.append(text)
            continue
        assert repr(value) == repr(reference_hf_float(text))
        readable.append(text)
    theirs = _hf_scores(tokenizers, _unigram_document(readable))
    mine = [hf_float(t) for t in readable]
    assert [repr(x) for x in mine] == [repr(x) for x in theirs]  # repr: -0.0 and 0.0 told apart
    assert sum(m != float(t) for m, t in zip(mine, readable)) > 100  # the case that matters is common
    assert refused
    for text in refused[:20]:  # what we refuse, HF refuses
        with pytest.raises(Exception):
            tokenizers.Tokenizer.from_str(_unigram_document([text]))


@given(st.from_regex(r"-?(0|[1-9][0-9]{0,30})(\.[0-9]{1,30})?([eE][+-]?[0-9]{1,12})?", fullmatch=True))
@example("-3.9038457749524076")
@example("18446744073709551615.5")  # the fraction digit fits after the integer digits
@example("184467440737095516150.5")  # an integer digit dropped, then the fraction appended
@example("1e2147483648")
@example("0e99999999999")
@example("1.5e00")  # an exponent of zeros only
@example("1e000000000001")  # leading zeros of an exponent count for nothing (12 characters, value 1)
@example("1e+00000000001")
@example("1.5e-000000000002")
@example("1844674407370955161640e-74")  # the u64 edge between integer digits: one rounding apart
@example("184467440737095516157.8268e82")
@example("184467440737095516195678.99021e159")
@example("0.0181107873742649791834")
@example("1844674407370955161988750.03e-183")
@example("184467440737095516.163042e-172")
@example("184467440737095516165.5738478e-285")
def test_hf_float_follows_the_parsers_steps(text: str) -> None:
    try:
        expected: float | type[ValueError] = reference_hf_float(text)
    except ValueError:
        expected = ValueError
    if expected is ValueError:
        with pytest.raises(ValueError):
            hf_float(text)
    else:
        assert repr(hf_float(text)) == repr(expected)


# Numbers at the edges of serde_json's steps, each found to tell a small change of hf_float from HF:
# an exponent with leading zeros or too many digits for an int, and long digits about the u64 edge
# whose two readings (a digit kept or dropped) round to neighbouring floats.
_EDGE_NUMBERS = [
    "1e000000000001", "1e+00000000001", "-1.5e-000000000002", "-1.5e-1" + "0" * 5000, "1.5e00", "-2e-0",
    "1844674407370955161640e-74", "184467440737095516175e-57", "184467440737095516157.8268e82",
    "184467440737095516150.82898654e-244", "18446744073709551616.601e-306",
    "184467440737095516195678.99021e159", "1844674407370955161.85671373e-164",
    "17.540127116062307597273159002614e41", "0.0181107873742649791834", "1844674407370955161988750.03e-183",
    "1844674407370955158.83515977e-156", "184467440737095516.163042e-172", "1844674407370955161763.6508e-95",
    "184467440737095516165.5738478e-285", "184467440737095516162648.506e131",
]


def test_numbers_at_the_parsers_edges_read_as_hugging_face() -> None:
    tokenizers = require("tokenizers")
    mine = [hf_float(t) for t in _EDGE_NUMBERS]
    assert [repr(x) for x in mine] == [repr(reference_hf_float(t)) for t in _EDGE_NUMBERS]
    assert [repr(x) for x in mine] == [repr(x) for x in _hf_scores(tokenizers, _unigram_document(_EDGE_NUMBERS))]
    assert mine[:6] == [10.0, 10.0, -0.015, -0.0, 1.5, -2.0]


def test_hf_float_errors_say_what_is_wrong() -> None:
    for text in ("abc", "1.", ".5", "1e", "--1", "1.5 "):
        with pytest.raises(ValueError, match="not a JSON number"):
            hf_float(text)
    # the three ways out of range: an exponent beyond an i32, a product that overflows, a power beyond 1e308
    for text in ("1.5e2147483648", "1.5e+99999999999", "10e308", "1e400"):
        with pytest.raises(ValueError, match="number out of range"):
            hf_float(text)


def test_an_out_of_range_score_is_a_serialization_error(tmp_path: Path) -> None:
    path = tmp_path / "tokenizer.json"
    path.write_text(_unigram_document(["-1.5", "1e400"]), encoding="utf-8")
    with pytest.raises(SerializationError, match="out of range"):
        Tokenizer.from_hf_json(path)
    with pytest.raises(SerializationError, match="out of range"):
        Tokenizer.from_str(path.read_text(encoding="utf-8"))


# ------------------------------------------------------------------------------------ writing
@given(st.floats(allow_nan=False, allow_infinity=False))
@example(-3.9038457749524076)
@example(-31.516236637832886)  # no decimal gives it in HF: the nearest it reads
@example(1.7976931348623157e308)
def test_hf_float_text_is_read_back_exactly_or_at_the_nearest(x: float) -> None:
    text = hf_float_text(x)
    assert json.loads(text) == pytest.approx(x, rel=1e-15, abs=1e-300)  # a JSON number near x
    try:
        value = hf_float(text)
    except ValueError:  # only next to the largest float, where HF's reading overflows
        assert text == repr(x) and abs(x) > 1e307
        return
    assert value == x or (text == repr(x) and abs(value - x) <= math.ulp(x))


# Floats whose repr HF reads one ulp off, of every magnitude (the digits written for them take each
# branch of the decimal writer: an integer, digits on both sides of the point, "0." and zeros), with
# the digits hf_float_text gives: the fewest of its 16 to 20 that HF reads back exactly.
_REWRITTEN = [
    (3.7636886680767283, "3.76368866807672832"),
    (0.10776643850782727, "0.1077664385078272768"),
    (-0.47745187707061276, "-0.477451877070612736"),
    (5.34023088807115e-09, "0.000000005340230888071150"),
    (-6.993029826975581e-13, "-0.0000000000006993029826975580"),
    (-1663.2315643272207, "-1663.2315643272206"),
    (-1022805285143392.1, "-1022805285143392.16"),
    (-9.681378248029389e17, "-968137824802938800.0"),
    (-4.4542033023022317e17, "-445420330230223168.0"),  # the third scale, with no zeros added
    (-4.1088999467105596e25, "-41088999467105600000000000.0"),  # 16 digits; truncating a near one reads too
    (-2.9115733021026274e23, "-291157330210262720000000.0"),
    (2.2961513518321568e39, "2296151351832156800000000000000000000000.0"),
    (1.7976931348623155e308, "17976931348623154" + "0" * 292 + ".0"),  # candidates nearby overflow in HF
]


def test_hf_float_text_of_floats_hf_reads_otherwise() -> None:
    tokenizers = require("tokenizers")
    xs = [x for x, _ in _REWRITTEN]
    assert all(hf_float(repr(x)) != x for x in xs)  # each needs other digits
    assert [hf_float_text(x) for x in xs] == [text for _, text in _REWRITTEN]
    assert [hf_float(text) for _, text in _REWRITTEN] == xs
    assert _hf_scores(tokenizers, _unigram_document([text for _, text in _REWRITTEN])) == xs
    assert [hf_float_text(x) for x in (float("nan"), float("inf"), float("-inf"), 0.0, -0.0, 0.5)] == [
        "nan", "inf", "-inf", "0.0", "-0.0", "0.5"]


def test_scores_written_for_hugging_face_are_read_exactly() -> None:
    tokenizers = require("tokenizers")
    rng = random.Random(2)
    xs = [-rng.uniform(0, 40) for _ in range(3000)]
    theirs = _hf_scores(tokenizers, dumps_hf(json.loads(_unigram_document(["0.0"] * len(xs))) | {
        "model": {"type": "Unigram", "unk_id": None, "vocab": [[f"p{i}", x] for i, x in enumerate(xs)],
                  "byte_fallback": False}}))
    exact = sum(a == b for a, b in zip(theirs, xs))
    assert exact >= 0.995 * len(xs)  # the rest have no decimal HF reads exactly (about 1 in 600)
    assert all(a == hf_float(repr(b)) for a, b in zip(theirs, xs) if a != b)


def test_dumps_hf_changes_only_the_digits_of_floats() -> None:
    doc = {"a": [["x\x00y", -3.9038457749524076], ["\x00zz:0", 0.5]], "b": None, "c": 1, "d": True, "e": "1.5"}
    text = dumps_hf(doc, indent=2)
    assert json.loads(text, parse_float=hf_float) == doc
    assert text != json.dumps(doc, ensure_ascii=False, indent=2)  # the first score has other digits
    assert json.loads(text) == doc  # which a correct reader rounds to the same float
    assert dumps_hf({"a": [1, 2.5]}) == json.dumps({"a": [1, 2.5]})
    expected = json.dumps(doc, ensure_ascii=False, indent=2).replace("-3.9038457749524076", "-3.90384577495240768")
    assert text == expected  # json.dumps's layout, only those digits changed


def test_dumps_hf_writes_text_and_layout_as_json_dumps_without_ascii_escapes() -> None:
    doc = {"model": {"vocab": [["▁é", -3.9038457749524076], ["日本", -31.516236637832886]]}}
    assert dumps_hf(doc) == '{"model": {"vocab": [["▁é", -3.90384577495240768], ["日本", -31.516236637832886]]}}'
    assert dumps_hf({"s": -3.9038457749524076}) == '{"s": -3.90384577495240768}'  # every value of a dict changed
    assert dumps_hf((1.5, -3.9038457749524076)) == "[1.5, -3.90384577495240768]"
    for x in (float("nan"), float("inf")):  # not HF's JSON, but written as json.dumps writes them
        assert dumps_hf({"a": [x, "é"]}) == json.dumps({"a": [x, "é"]}, ensure_ascii=False)
    assert dumps_hf({"a": 0.5}, indent=1) == json.dumps({"a": 0.5}, indent=1)
    assert dumps_hf({"a": -3.9038457749524076}, indent=1) == '{\n "a": -3.90384577495240768\n}'


# ------------------------------------------------------------------------------------ a trained Unigram
def test_a_trained_unigram_and_its_export_cut_every_line_alike_in_both_libraries(tmp_path: Path) -> None:
    """Before: 5 of 8,716 lines were cut otherwise by HF reading the export (its scores 1 ulp off)."""
    tokenizers = require("tokenizers")
    from pydoc_data.topics import topics

    from toolkit.training.presets import t5_unigram

    texts = [line for topic in topics.values() for line in topic.splitlines() if line.strip()]
    tok, trainer = t5_unigram(vocab_size=2000)
    trainer.show_progress = False
    tok.train_from_iterator(texts, trainer)
    path = tmp_path / "tokenizer.json"
    tok.to_hf_json(path)
    hf = tokenizers.Tokenizer.from_file(str(path))
    ours = Tokenizer.from_hf_json(path)
    from_string = Tokenizer.from_str(path.read_text(encoding="utf-8"))
    for text in texts:
        expected = hf.encode(text, add_special_tokens=False).ids
        assert tok.encode(text, add_special_tokens=False).ids == expected, text
        assert ours.encode(text, add_special_tokens=False).ids == expected, text
        assert from_string.encode(text, add_special_tokens=False).ids == expected, text
