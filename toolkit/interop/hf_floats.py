"""The floats of a ``tokenizer.json`` as Hugging Face ``tokenizers`` reads them, and the text that gives it ours.

HF parses JSON with ``serde_json`` built without its ``float_roundtrip`` feature. A number is read as
its digits in a ``u64`` (digits beyond that are dropped) and a power of ten: the digits become an ``f64``
(rounded once when there are more than 15-16 of them) and are then divided or multiplied by ``1eK``
(rounded again). So ``-3.9038457749524076`` is ``-3.903845774952408`` in HF, one unit in the last place
away from the correctly rounded value Python's ``json`` gives. A Unigram model's scores decide ties
between segmentations, so reading them the other way cuts some words differently from HF
(docs/interop.md, "The scores as HF reads them"). :func:`hf_float` reads a number as HF
does (the HF readers use it for every float), and :func:`hf_float_text` writes a float as digits HF
reads back exactly (the HF writers use it through :func:`dumps_hf`).

>>> hf_float("-3.9038457749524076"), float("-3.9038457749524076")
(-3.903845774952408, -3.9038457749524076)
>>> hf_float(hf_float_text(-3.9038457749524076))
-3.9038457749524076
"""

from __future__ import annotations

import json
import math
import re
import secrets
from collections.abc import Callable
from decimal import Decimal
from typing import Any

__all__ = ["dumps_hf", "hf_float", "hf_float_text"]

_U64 = (1 << 64) - 1
_I32 = (1 << 31) - 1
_POW10 = [float(f"1e{k}") for k in range(309)]  # serde_json's table: each power correctly rounded
_NUMBER = re.compile(r"(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?")


def hf_float(text: str) -> float:
    """The ``f64`` HF reads for the JSON number ``text`` (a decimal point or an exponent: Python's
    ``json`` calls this for every such number when given as ``parse_float``).

    >>> hf_float("0.5"), hf_float("-1e-3"), hf_float("12345678901234567890123.0")
    (0.5, -0.001, 1.2345678901234568e+22)
    """
    m = _NUMBER.fullmatch(text)
    if m is None:
        raise ValueError(f"not a JSON number: {text!r:.40}")
    sign, whole, fraction, exponent_text = m.groups()
    fraction = fraction or ""
    digits = whole + fraction
    if len(digits) <= 19 and int(digits) <= _U64:  # every digit kept (the usual case)
        significand, exponent = int(digits), -len(fraction)
    else:
        significand, exponent = _long_digits(whole, fraction)
    if exponent_text is not None:
        magnitude = exponent_text.lstrip("+-").lstrip("0")
        if len(magnitude) > 10 or int(magnitude or "0") > _I32:  # beyond an i32: serde's overflow rule
            if significand and not exponent_text.startswith("-"):
                raise ValueError(f"number out of range: {text!r:.40}")
            return -0.0 if sign else 0.0
        exponent = max(-_I32 - 1, min(_I32, exponent + int(exponent_text)))  # serde saturates
    value = float(significand)
    while True:
        if abs(exponent) < len(_POW10):
            if exponent >= 0:
                value *= _POW10[exponent]
                if value == float("inf"):
                    raise ValueError(f"number out of range: {text!r:.40}")
            else:
                value /= _POW10[-exponent]
            break
        if value == 0.0:
            break
        if exponent >= 0:
            raise ValueError(f"number out of range: {text!r:.40}")
        value /= 1e308
        exponent += 308
    return -value if sign else value


def _long_digits(whole: str, fraction: str) -> tuple[int, int]:
    """Significand and power of ten of digits that overflow a u64, as serde_json reads them: an integer
    digit that does not fit is dropped and counts a power of ten, and so is every later integer digit;
    then each fractional digit is appended while it fits (even after integer digits were dropped) and
    the rest are dropped."""
    significand = exponent = 0
    full = False
    for c in whole:
        if full or significand * 10 + (ord(c) - 48) > _U64:
            full = True
            exponent += 1
        else:
            significand = significand * 10 + ord(c) - 48
    for c in fraction:
        if significand * 10 + (ord(c) - 48) > _U64:
            break
        significand = significand * 10 + ord(c) - 48
        exponent -= 1
    return significand, exponent


def hf_float_text(x: float) -> str:
    """A JSON number that HF reads as exactly ``x``: ``repr(x)`` when HF reads that so (most floats),
    else digits found near it (16 to 20 significant ones).

    >>> hf_float_text(0.25), hf_float_text(-3.9038457749524076)
    ('0.25', '-3.90384577495240768')
    """
    text = repr(x)
    if x != x or x in (float("inf"), float("-inf")) or _reads_as(text, x):
        return text
    # HF reads ``d / 10**scale`` for the double ``d`` nearest the digits: look for a double near
    # ``|x| * 10**scale`` whose quotient rounds to ``x``, at a few scales.
    exact = abs(Decimal(x))
    sign = "-" if x < 0 else ""
    first = 15 - exact.adjusted()  # the scale that gives 16 digits
    for scale in range(first, first + 6):
        target = exact.scaleb(scale)
        if target > _U64:
            break
        near = float(target)
        for d in (near, math.nextafter(near, math.inf), math.nextafter(near, 0.0),
                  math.nextafter(math.nextafter(near, math.inf), math.inf),
                  math.nextafter(math.nextafter(near, 0.0), 0.0)):
            significand = int(d)
            if d == significand and 0 < significand <= _U64:
                candidate = sign + _decimal(significand, scale)
                if _reads_as(candidate, x):
                    return candidate
    return text  # not found (never seen): the correctly rounded digits


def _reads_as(text: str, x: float) -> bool:
    try:
        return hf_float(text) == x
    except ValueError:  # out of HF's range (near the largest float, HF may overflow where Python does not)
        return False


def _decimal(significand: int, scale: int) -> str:
    """``significand * 10**-scale`` written with a decimal point (HF reads ``"0.00123"`` as 123 and -5)."""
    digits = str(significand)
    if scale <= 0:
        return digits + "0" * -scale + ".0"
    if scale < len(digits):
        return digits[:-scale] + "." + digits[-scale:]
    return "0." + "0" * (scale - len(digits)) + digits


def dumps_hf(document: Any, *, indent: int | None = None) -> str:
    """``json.dumps`` of an HF document (``ensure_ascii=False``) whose floats HF reads back exactly:
    each float whose ``repr`` HF would read otherwise is written with :func:`hf_float_text`.

    >>> dumps_hf({"vocab": [["a", -3.9038457749524076], ["b", 0.5]]})
    '{"vocab": [["a", -3.90384577495240768], ["b", 0.5]]}'
    """
    marker = f"\x00{secrets.token_hex(8)}:"  # a string no document holds: the float's place in the text
    texts: list[str] = []

    def mark(x: float) -> Any:
        text = hf_float_text(x)
        if text == repr(x):
            return x
        texts.append(text)
        return f"{marker}{len(texts) - 1}"

    marked = _map_floats(document, mark)
    out = json.dumps(marked, ensure_ascii=False, indent=indent)
    if not texts:
        return out
    escaped = re.escape(json.dumps(marker)[:-1])  # the marker as json.dumps writes it, without the closing quote
    return re.sub(escaped + r'(\d+)"', lambda m: texts[int(m.group(1))], out)


def _map_floats(value: Any, fn: Callable[[float], Any]) -> Any:
    """``value`` with every float ``x`` replaced by ``fn(x)``; containers without floats are kept as they are."""
    if type(value) is float:
        return fn(value)
    if isinstance(value, dict):
        items = {k: _map_floats(v, fn) for k, v in value.items()}
        return value if all(items[k] is v for k, v in value.items()) else items
    if isinstance(value, (list, tuple)):
        mapped = [_map_floats(v, fn) for v in value]
        return value if all(a is b for a, b in zip(mapped, value)) else mapped
    return value
