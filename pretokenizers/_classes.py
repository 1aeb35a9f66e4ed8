"""Hugging Face's punctuation class, pinned as a ``regex`` character class.

HF's ``BertPreTokenizer`` and ``Punctuation`` call a character punctuation when it is ASCII
punctuation (``char::is_ascii_punctuation``: all of ``!"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~``, symbols
included) or in a Unicode P* general category. The P* table comes from the ``unicode_categories``
crate, which is frozen at Unicode 8.0: it lacks later punctuation such as U+2E43 or U+061D and still
counts U+166D and U+111C9, which have left P* since. Computing the class from today's tables would
disagree with HF on about a hundred rarely used characters and would move whenever ``regex`` updates
its Unicode data, so the 726 characters are listed here as ranges (read off the installed
``tokenizers`` over every code point; the tests re-check the whole range).

``regex``'s ``\\s``, Oniguruma's ``\\s`` and Rust's ``char::is_whitespace`` are all the 25 Unicode
``White_Space`` characters (Python's ``str.isspace`` adds U+001C..U+001F, so ``str.split()`` is only
used when those are absent). HF's ``Whitespace`` runs ``\\w+|[^\\w\\s]+`` with Rust's ``regex``
crate, and ``Digits`` asks ``char::is_numeric``: the same sets as the ``regex`` module's ``\\w`` and
``\\p{N}`` but in an older Unicode version, so characters assigned since (17,559 word characters,
323 numeric ones with ``regex`` 2026.11) are not theirs. ``HF_WORD_SPLIT``, ``HF_DIGIT_RUNS`` and
``HF_DIGITS`` keep the fast classes and switch to the pinned tables (``toolkit.unicode_tables``) for a
text that holds such a character (:class:`pretokenizers.pinned.DriftSwitch`).

>>> HF_WORD_SPLIT.findall("a\\U0003ED9D?"), HF_WORD_SPLIT.findall("ab, c")
(['a', '\\U0003ed9d?'], ['ab', ',', 'c'])
"""

from __future__ import annotations

import regex

from pretokenizers.pinned import DriftSwitch
from toolkit.unicode_tables import RANGES

__all__ = ["PUNCTUATION", "PUNCTUATION_RANGES", "HF_WORD_SPLIT", "HF_DIGIT_RUNS", "HF_DIGITS"]

#: Inclusive code point ranges of HF's punctuation (ASCII punctuation + Unicode 8.0 general category P*).
PUNCTUATION_RANGES: tuple[tuple[int, int], ...] = (
    (0x0021, 0x002F), (0x003A, 0x0040), (0x005B, 0x0060), (0x007B, 0x007E), (0x00A1, 0x00A1), (0x00A7, 0x00A7),
    (0x00AB, 0x00AB), (0x00B6, 0x00B7), (0x00BB, 0x00BB), (0x00BF, 0x00BF), (0x037E, 0x037E), (0x0387, 0x0387),
    (0x055A, 0x055F), (0x0589, 0x058A), (0x05BE, 0x05BE), (0x05C0, 0x05C0), (0x05C3, 0x05C3), (0x05C6, 0x05C6),
    (0x05F3, 0x05F4), (0x0609, 0x060A), (0x060C, 0x060D), (0x061B, 0x061B), (0x061E, 0x061F), (0x066A, 0x066D),
    (0x06D4, 0x06D4), (0x0700, 0x070D), (0x07F7, 0x07F9), (0x0830, 0x083E), (0x085E, 0x085E), (0x0964, 0x0965),
    (0x0970, 0x0970), (0x0AF0, 0x0AF0), (0x0DF4, 0x0DF4), (0x0E4F, 0x0E4F), (0x0E5A, 0x0E5B), (0x0F04, 0x0F12),
    (0x0F14, 0x0F14), (0x0F3A, 0x0F3D), (0x0F85, 0x0F85), (0x0FD0, 0x0FD4), (0x0FD9, 0x0FDA), (0x104A, 0x104F),
    (0x10FB, 0x10FB), (0x1360, 0x1368), (0x1400, 0x1400), (0x166D, 0x166E), (0x169B, 0x169C), (0x16EB, 0x16ED),
    (0x1735, 0x1736), (0x17D4, 0x17D6), (0x17D8, 0x17DA), (0x1800, 0x180A), (0x1944, 0x1945), (0x1A1E, 0x1A1F),
    (0x1AA0, 0x1AA6), (0x1AA8, 0x1AAD), (0x1B5A, 0x1B60), (0x1BFC, 0x1BFF), (0x1C3B, 0x1C3F), (0x1C7E, 0x1C7F),
    (0x1CC0, 0x1CC7), (0x1CD3, 0x1CD3), (0x2010, 0x2027), (0x2030, 0x2043), (0x2045, 0x2051), (0x2053, 0x205E),
    (0x207D, 0x207E), (0x208D, 0x208E), (0x2308, 0x230B), (0x2329, 0x232A), (0x2768, 0x2775), (0x27C5, 0x27C6),
    (0x27E6, 0x27EF), (0x2983, 0x2998), (0x29D8, 0x29DB), (0x29FC, 0x29FD), (0x2CF9, 0x2CFC), (0x2CFE, 0x2CFF),
    (0x2D70, 0x2D70), (0x2E00, 0x2E2E), (0x2E30, 0x2E42), (0x3001, 0x3003), (0x3008, 0x3011), (0x3014, 0x301F),
    (0x3030, 0x3030), (0x303D, 0x303D), (0x30A0, 0x30A0), (0x30FB, 0x30FB), (0xA4FE, 0xA4FF), (0xA60D, 0xA60F),
    (0xA673, 0xA673), (0xA67E, 0xA67E), (0xA6F2, 0xA6F7), (0xA874, 0xA877), (0xA8CE, 0xA8CF), (0xA8F8, 0xA8FA),
    (0xA8FC, 0xA8FC), (0xA92E, 0xA92F), (0xA95F, 0xA95F), (0xA9C1, 0xA9CD), (0xA9DE, 0xA9DF), (0xAA5C, 0xAA5F),
    (0xAADE, 0xAADF), (0xAAF0, 0xAAF1), (0xABEB, 0xABEB), (0xFD3E, 0xFD3F), (0xFE10, 0xFE19), (0xFE30, 0xFE52),
    (0xFE54, 0xFE61), (0xFE63, 0xFE63), (0xFE68, 0xFE68), (0xFE6A, 0xFE6B), (0xFF01, 0xFF03), (0xFF05, 0xFF0A),
    (0xFF0C, 0xFF0F), (0xFF1A, 0xFF1B), (0xFF1F, 0xFF20), (0xFF3B, 0xFF3D), (0xFF3F, 0xFF3F), (0xFF5B, 0xFF5B),
    (0xFF5D, 0xFF5D), (0xFF5F, 0xFF65), (0x10100, 0x10102), (0x1039F, 0x1039F), (0x103D0, 0x103D0), (0x1056F, 0x1056F),
    (0x10857, 0x10857), (0x1091F, 0x1091F), (0x1093F, 0x1093F), (0x10A50, 0x10A58), (0x10A7F, 0x10A7F), (0x10AF0, 0x10AF6),
    (0x10B39, 0x10B3F), (0x10B99, 0x10B9C), (0x11047, 0x1104D), (0x110BB, 0x110BC), (0x110BE, 0x110C1), (0x11140, 0x11143),
    (0x11174, 0x11175), (0x111C5, 0x111C9), (0x111CD, 0x111CD), (0x111DB, 0x111DB), (0x111DD, 0x111DF), (0x11238, 0x1123D),
    (0x112A9, 0x112A9), (0x114C6, 0x114C6), (0x115C1, 0x115D7), (0x11641, 0x11643), (0x1173C, 0x1173E), (0x12470, 0x12474),
    (0x16A6E, 0x16A6F), (0x16AF5, 0x16AF5), (0x16B37, 0x16B3B), (0x16B44, 0x16B44), (0x1BC9F, 0x1BC9F), (0x1DA87, 0x1DA8B),
)


def _ranges_class(ranges: tuple[tuple[int, int], ...]) -> str:
    parts = []
    for start, end in ranges:
        parts.append(f"\\U{start:08x}" if start == end else f"\\U{start:08x}-\\U{end:08x}")
    return "[" + "".join(parts) + "]"


def _punctuation_class() -> str:
    # The exact class is the ranges; matching a long list of ranges is slow in ``regex``, so it is
    # intersected with a fast property class that contains all of it (\p{P}, ASCII punctuation, and
    # the few listed characters outside today's \p{P}). Needs ``flags=regex.V1``.
    p = regex.compile(r"[\p{P}!-/:-@\[-`{-~]")
    outside = [c for a, b in PUNCTUATION_RANGES for c in range(a, b + 1) if not p.match(chr(c))]
    extra = "".join(f"\\U{c:08x}" for c in outside)
    return rf"[[\p{{P}}!-/:-@\[-`{{-~{extra}]&&{_ranges_class(PUNCTUATION_RANGES)}]"


#: ``regex`` character class (V1 syntax: compile with ``flags=regex.V1``) of one HF punctuation character.
PUNCTUATION: str = _punctuation_class()


_WORD = _ranges_class(RANGES["hf_word"])
_NUMERIC = _ranges_class(RANGES["hf_numeric"])
_NOT_NUMERIC = "[^" + _NUMERIC[1:]
_WORD_CLASS = ((r"\w", "hf_word"),)
_NUMERIC_CLASS = ((r"\p{N}", "hf_numeric"),)

#: HF's ``Whitespace`` split: runs of its word characters, and runs of what is neither those nor space.
HF_WORD_SPLIT = DriftSwitch(regex.compile(r"\w+|[^\w\s]+"), rf"{_WORD}+|[^\s{_WORD[1:-1]}]+", _WORD_CLASS)
#: HF's ``Digits``: runs of numeric characters and runs of the others; ``HF_DIGITS`` each numeric one alone.
HF_DIGIT_RUNS = DriftSwitch(regex.compile(r"\p{N}+|\P{N}+"), rf"{_NUMERIC}+|{_NOT_NUMERIC}+", _NUMERIC_CLASS)
HF_DIGITS = DriftSwitch(regex.compile(r"\p{N}|\P{N}+"), rf"{_NUMERIC}|{_NOT_NUMERIC}+", _NUMERIC_CLASS)
