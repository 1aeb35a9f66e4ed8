"""Normalizers: rewrite text before it is split, keeping each character's origin.

This module owns the built-in normalizers (``NFC``, ``NFD``, ``NFKC``, ``NFKD``, ``Lowercase``,
``StripAccents``, ``Strip``, ``Replace``, ``Prepend``, ``BertNormalizer``, ``Sequence``), the ``Regex``
pattern wrapper used by ``Replace``, and the Unicode tables that make them agree with Hugging Face
``tokenizers``.

Each normalizer has two paths that produce the same text: :meth:`~Normalizer.normalize` returns a
:class:`~toolkit.alignment.NormalizedString` whose characters keep the span of the original text they
came from (so token offsets point into the user's text), and :meth:`~Normalizer.normalize_str` is the
fast path with no alignment, used by ``encode_ids`` and training.

Matching Hugging Face exactly needs a little care, because its Rust crates are not on the same
Unicode version as Python's :mod:`unicodedata`:

- its NFC/NFD/NFKC/NFKD tables predate characters such as U+32FF (㋿) or the combining marks added in
  Unicode 11-14, which it leaves untouched and treats as plain starters (``_CANON_PROTECTED_SPEC``,
  ``_COMPAT_EXTRA_SPEC``);
- ``StripAccents`` removes the characters of an old "combining mark" table, which holds spacing
  (Mc) and enclosing (Me) marks too, e.g. the Devanagari vowel sign U+093E, and misses marks added
  since (``_HF_MARKS_SPEC``); ``BertNormalizer(strip_accents=True)`` uses another old table, of
  nonspacing (Mn) marks only (``_BERT_MARKS_SPEC``);
- ``BertNormalizer(clean_text=True)`` removes a fixed set of control/format/private-use characters
  (``_BERT_CONTROL_SPEC``) and turns the Rust whitespace characters into spaces;
- ``Lowercase`` lowercases each character on its own (so ``"ΣΑΣ"`` gives ``"σασ"``, no final sigma)
  with a newer case table than Python 3.11's (``_LOWER_EXTRA_SPEC``).

The tables were measured against ``tokenizers`` 0.23 over every code point (Python 3.11, Unicode
14.0); the tests re-check them code point by code point whenever ``tokenizers`` is installed.

>>> Sequence([NFKC(), Lowercase()]).normalize_str("ＨＥＬＬＯ ﬁne")
'hello fine'
"""

from __future__ import annotations

import re
import time
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

import regex
from pydantic import StrictBool, StrictStr, field_validator

from toolkit.alignment import NormalizedString, Span
from toolkit import limits
from toolkit.errors import ConfigError, InputError
from toolkit.interfaces import Container, Normalizer, Params, check_options
from toolkit.registry import register

__all__ = [
    "NFC",
    "NFD",
    "NFKC",
    "NFKD",
    "Lowercase",
    "StripAccents",
    "Strip",
    "Replace",
    "Prepend",
    "BertNormalizer",
    "Sequence",
    "Regex",
]


# --------------------------------------------------------------------------- Unicode tables

def _class(spec: str) -> str:
    """Regex character-class body from ``"0300-036F 0483 ..."`` (hex code points and ranges)."""
    out = []
    for item in spec.split():
        first, _, last = item.partition("-")
        out.append(f"\\U{int(first, 16):08x}" + (f"-\\U{int(last, 16):08x}" if last else ""))
    return "".join(out)


def _chars(spec: str) -> frozenset[str]:
    out: set[str] = set()
    for item in spec.split():
        first, _, last = item.partition("-")
        out.update(map(chr, range(int(first, 16), int(last or first, 16) + 1)))
    return frozenset(out)


# The characters Hugging Face's StripAccents removes (its "nonspacing mark" table, see module doc).
_HF_MARKS_SPEC = (
    "0300-036F 0483-0489 0591-05BD 05BF 05C1-05C2 05C4-05C5 05C7 0610-061A "
    "064B-065F 0670 06D6-06DC 06DF-06E4 06E7-06E8 06EA-06ED 0711 0730-074A "
    "07A6-07B0 07EB-07F3 0816-0819 081B-0823 0825-0827 0829-082D 0859-085B 08D4-08E1 "
    "08E3-0903 093A-093C 093E-094F 0951-0957 0962-0963 0981-0983 09BC 09BE-09C4 "
    "09C7-09C8 09CB-09CD 09D7 09E2-09E3 0A01-0A03 0A3C 0A3E-0A42 0A47-0A48 "
    "0A4B-0A4D 0A51 0A70-0A71 0A75 0A81-0A83 0ABC 0ABE-0AC5 0AC7-0AC9 "
    "0ACB-0ACD 0AE2-0AE3 0B01-0B03 0B3C 0B3E-0B44 0B47-0B48 0B4B-0B4D 0B56-0B57 "
    "0B62-0B63 0B82 0BBE-0BC2 0BC6-0BC8 0BCA-0BCD 0BD7 0C00-0C03 0C3E-0C44 "
    "0C46-0C48 0C4A-0C4D 0C55-0C56 0C62-0C63 0C81-0C83 0CBC 0CBE-0CC4 0CC6-0CC8 "
    "0CCA-0CCD 0CD5-0CD6 0CE2-0CE3 0D01-0D03 0D3E-0D44 0D46-0D48 0D4A-0D4D 0D57 "
    "0D62-0D63 0D82-0D83 0DCA 0DCF-0DD4 0DD6 0DD8-0DDF 0DF2-0DF3 0E31 "
    "0E34-0E3A 0E47-0E4E 0EB1 0EB4-0EB9 0EBB-0EBC 0EC8-0ECD 0F18-0F19 0F35 "
    "0F37 0F39 0F3E-0F3F 0F71-0F84 0F86-0F87 0F8D-0F97 0F99-0FBC 0FC6 "
    "102B-103E 1056-1059 105E-1060 1062-1064 1067-106D 1071-1074 1082-108D 108F "
    "109A-109D 135D-135F 1712-1714 1732-1734 1752-1753 1772-1773 17B4-17D3 17DD "
    "180B-180D 1885-1886 18A9 1920-192B 1930-193B 1A17-1A1B 1A55-1A5E 1A60-1A7C "
    "1A7F 1AB0-1ABE 1B00-1B04 1B34-1B44 1B6B-1B73 1B80-1B82 1BA1-1BAD 1BE6-1BF3 "
    "1C24-1C37 1CD0-1CD2 1CD4-1CE8 1CED 1CF2-1CF4 1CF8-1CF9 1DC0-1DF5 1DFB-1DFF "
    "20D0-20F0 2CEF-2CF1 2D7F 2DE0-2DFF 302A-302F 3099-309A A66F-A672 A674-A67D "
    "A69E-A69F A6F0-A6F1 A802 A806 A80B A823-A827 A880-A881 A8B4-A8C5 "
    "A8E0-A8F1 A926-A92D A947-A953 A980-A983 A9B3-A9C0 A9E5 AA29-AA36 AA43 "
    "AA4C-AA4D AA7B-AA7D AAB0 AAB2-AAB4 AAB7-AAB8 AABE-AABF AAC1 AAEB-AAEF "
    "AAF5-AAF6 ABE3-ABEA ABEC-ABED FB1E FE00-FE0F FE20-FE2F 101FD 102E0 "
    "10376-1037A 10A01-10A03 10A05-10A06 10A0C-10A0F 10A38-10A3A 10A3F 10AE5-10AE6 11000-11002 "
    "11038-11046 1107F-11082 110B0-110BA 11100-11102 11127-11134 11173 11180-11182 111B3-111C0 "
    "111CA-111CC 1122C-11237 1123E 112DF-112EA 11300-11303 1133C 1133E-11344 11347-11348 "
    "1134B-1134D 11357 11362-11363 11366-1136C 11370-11374 11435-11446 114B0-114C3 115AF-115B5 "
    "115B8-115C0 115DC-115DD 11630-11640 116AB-116B7 1171D-1172B 11C2F-11C36 11C38-11C3F 11C92-11CA7 "
    "11CA9-11CB6 16AF0-16AF4 16B30-16B36 16F51-16F7E 16F8F-16F92 1BC9D-1BC9E 1D165-1D169 1D16D-1D172 "
    "1D17B-1D182 1D185-1D18B 1D1AA-1D1AD 1D242-1D244 1DA00-1DA36 1DA3B-1DA6C 1DA75 1DA84 "
    "1DA9B-1DA9F 1DAA1-1DAAF 1E000-1E006 1E008-1E018 1E01B-1E021 1E023-1E024 1E026-1E02A 1E8D0-1E8D6 "
    "1E944-1E94A E0100-E01EF "
)
_HF_MARKS_RE = re.compile(f"[{_class(_HF_MARKS_SPEC)}]+")

# The marks BertNormalizer(strip_accents=True) removes after NFD: a different, older table of
# nonspacing (Mn) marks than StripAccents uses.
_BERT_MARKS_SPEC = (
    "0300-033F 0342 0345-036F 0483-0487 0591-05BD 05BF 05C1-05C2 05C4-05C5 "
    "05C7 0610-061A 064B-065F 0670 06D6-06DC 06DF-06E4 06E7-06E8 06EA-06ED "
    "0711 0730-074A 07A6-07B0 07EB-07F3 0816-0819 081B-0823 0825-0827 0829-082D "
    "0859-085B 08E3-0902 093A 093C 0941-0948 094D 0951-0957 0962-0963 "
    "0981 09BC 09C1-09C4 09CD 09E2-09E3 0A01-0A02 0A3C 0A41-0A42 "
    "0A47-0A48 0A4B-0A4D 0A51 0A70-0A71 0A75 0A81-0A82 0ABC 0AC1-0AC5 "
    "0AC7-0AC8 0ACD 0AE2-0AE3 0B01 0B3C 0B3F 0B41-0B44 0B4D "
    "0B56 0B62-0B63 0B82 0BC0 0BCD 0C00 0C3E-0C40 0C46-0C47 "
    "0C4A-0C4D 0C55-0C56 0C62-0C63 0C81 0CBC 0CBF 0CC6 0CCC-0CCD "
    "0CE2-0CE3 0D01 0D41-0D44 0D4D 0D62-0D63 0DCA 0DD2-0DD4 0DD6 "
    "0E31 0E34-0E3A 0E47-0E4E 0EB1 0EB4-0EB9 0EBB-0EBC 0EC8-0ECD 0F18-0F19 "
    "0F35 0F37 0F39 0F71-0F72 0F74 0F77 0F79-0F7E 0F80 "
    "0F82-0F84 0F86-0F87 0F8D-0F92 0F94-0F97 0F99-0F9C 0F9E-0FA1 0FA3-0FA6 0FA8-0FAB "
    "0FAD-0FB8 0FBA-0FBC 0FC6 102D-1030 1032-1037 1039-103A 103D-103E 1058-1059 "
    "105E-1060 1071-1074 1082 1085-1086 108D 109D 135D-135F 1712-1714 "
    "1732-1734 1752-1753 1772-1773 17B4-17B5 17B7-17BD 17C6 17C9-17D3 17DD "
    "180B-180D 18A9 1920-1922 1927-1928 1932 1939-193B 1A17-1A18 1A1B "
    "1A56 1A58-1A5E 1A60 1A62 1A65-1A6C 1A73-1A7C 1A7F 1AB0-1ABD "
    "1B00-1B03 1B34 1B36-1B3A 1B3C 1B42 1B6B-1B73 1B80-1B81 1BA2-1BA5 "
    "1BA8-1BA9 1BAB-1BAD 1BE6 1BE8-1BE9 1BED 1BEF-1BF1 1C2C-1C33 1C36-1C37 "
    "1CD0-1CD2 1CD4-1CE0 1CE2-1CE8 1CED 1CF4 1CF8-1CF9 1DC0-1DF5 1DFC-1DFF "
    "20D0-20DC 20E1 20E5-20F0 2CEF-2CF1 2D7F 2DE0-2DFF 302A-302D 3099-309A "
    "A66F A674-A67D A69E-A69F A6F0-A6F1 A802 A806 A80B A825-A826 "
    "A8C4 A8E0-A8F1 A926-A92D A947-A951 A980-A982 A9B3 A9B6-A9B9 A9BC "
    "A9E5 AA29-AA2E AA31-AA32 AA35-AA36 AA43 AA4C AA7C AAB0 "
    "AAB2-AAB4 AAB7-AAB8 AABE-AABF AAC1 AAEC-AAED AAF6 ABE5 ABE8 "
    "ABED FB1E FE00-FE0F FE20-FE2F 101FD 102E0 10376-1037A 10A01-10A03 "
    "10A05-10A06 10A0C-10A0F 10A38-10A3A 10A3F 10AE5-10AE6 11001 11038-11046 1107F-11081 "
    "110B3-110B6 110B9-110BA 11100-11102 11127-1112B 1112D 11130-11134 11173 11180-11181 "
    "111B6-111BE 111CA-111CC 1122F-11231 11234 11236-11237 112DF 112E3-112EA 11300-11301 "
    "1133C 11340 11366-1136C 11370-11374 114B3-114B8 114BA 114BF-114C0 114C2-114C3 "
    "115B2-115B5 115BC-115BD 115BF-115C0 115DC-115DD 11633-1163A 1163D 1163F-11640 116AB "
    "116AD 116B0-116B5 116B7 1171D-1171F 11722-11725 11727-1172B 16AF0-16AF4 16B30-16B36 "
    "16F8F-16F92 1BC9D-1BC9E 1D167-1D169 1D17B-1D182 1D185-1D18B 1D1AA-1D1AD 1D242-1D244 1DA00-1DA36 "
    "1DA3B-1DA6C 1DA75 1DA84 1DA9B-1DA9F 1DAA1-1DAAF 1E8D0-1E8D6 E0100-E01EF "
)
_BERT_MARKS_RE = re.compile(f"[{_class(_BERT_MARKS_SPEC)}]+")

# What BertNormalizer's clean_text removes: NUL, U+FFFD and the control, format and private-use
# characters of its (older) Unicode table, except tab, newline and carriage return.
_BERT_CONTROL_SPEC = (
    "0000-0008 000B-000C 000E-001F 007F-009F 00AD 0600-0605 061C 06DD "
    "070F 180E 200B-200F 202A-202E 2060-2064 2066-206F E000-F8FF FEFF "
    "FFF9-FFFB FFFD 110BD 1BCA0-1BCA3 1D173-1D17A E0001 E0020-E007F F0000-FFFFD "
    "100000-10FFFD "
)
_BERT_CONTROL_RE = re.compile(f"[{_class(_BERT_CONTROL_SPEC)}]+")

# Rust's ``char::is_whitespace`` (the Unicode White_Space property). Python's ``str.isspace`` also
# accepts U+001C..U+001F, which Hugging Face does not strip, so the set is spelled out.
WHITESPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)
# After clean_text removed the controls (\x0b, \x0c, \x85 among them), these become a plain space.
_BERT_SPACE = str.maketrans({c: " " for c in WHITESPACE if c not in "\x0b\x0c\x85 "})

# BertNormalizer's "Chinese characters": the CJK ideograph blocks it pads with spaces.
_CJK_CLASS = (
    "[\u4e00-\u9fff\u3400-\u4dbf\U00020000-\U0002a6df\U0002a700-\U0002b73f\U0002b740-\U0002b81f"
    "\U0002b920-\U0002ceaf\uf900-\ufaff\U0002f800-\U0002fa1f]"
)
_CJK_RE = re.compile(_CJK_CLASS)
_CJK_RUN_RE = re.compile(_CJK_CLASS + "+")


def _pad_cjk_run(m: re.Match[str]) -> str:
    return " " + "  ".join(m.group()) + " "  # " 中 " + " 文 " for each ideograph of the run


# Characters Hugging Face's normalization tables do not know (combining marks added in Unicode 11-14,
# the Dives Akuru vowel sign O and its second component): it keeps them as they are and, since it
# sees them as starters, nothing reorders or composes across them.
_CANON_PROTECTED_SPEC = (
    "07FD 0898-089F 08CA-08D3 09FE 0C3C 0D3B-0D3C 0EBA 1715 "
    "1ABF-1ACE 1DF6-1DFA A82C 10D24-10D27 10EAB-10EAC 10F46-10F50 10F82-10F85 11070 "
    "1133B 1145E 11839-1183A 11930 11938 1193D-1193E 11943 119E0 11A34 "
    "11A47 11A99 11D42 11D44-11D45 11D97 16FF0-16FF1 1E130-1E136 1E2AE "
    "1E2EC-1E2EF "
)
# ...plus, for the compatibility forms, characters whose compatibility mapping it does not know.
_COMPAT_EXTRA_SPEC = "32FF A7F2-A7F4 AB69 10781-10785 10787-107B0 107B2-107BA 1F16C 1FBF0-1FBF9 "

_PROTECTED: dict[str, tuple[re.Pattern[str], frozenset[str]]] = {}
for _form in ("NFC", "NFD"):
    _PROTECTED[_form] = (re.compile(f"[{_class(_CANON_PROTECTED_SPEC)}]"), _chars(_CANON_PROTECTED_SPEC))
for _form in ("NFKC", "NFKD"):
    _spec = _CANON_PROTECTED_SPEC + _COMPAT_EXTRA_SPEC
    _PROTECTED[_form] = (re.compile(f"[{_class(_spec)}]"), _chars(_spec))

# Lowercase mappings Hugging Face (Rust's newer case tables) applies and Python 3.11 does not know.
_LOWER_EXTRA_SPEC = (
    "1C89:1C8A A7CB:0264 A7CC:A7CD A7CE:A7CF A7D2:A7D3 A7D4:A7D5 A7DA:A7DB A7DC:019B "
    "10D50:10D70 10D51:10D71 10D52:10D72 10D53:10D73 10D54:10D74 10D55:10D75 10D56:10D76 10D57:10D77 "
    "10D58:10D78 10D59:10D79 10D5A:10D7A 10D5B:10D7B 10D5C:10D7C 10D5D:10D7D 10D5E:10D7E 10D5F:10D7F "
    "10D60:10D80 10D61:10D81 10D62:10D82 10D63:10D83 10D64:10D84 10D65:10D85 16EA0:16EBB 16EA1:16EBC "
    "16EA2:16EBD 16EA3:16EBE 16EA4:16EBF 16EA5:16EC0 16EA6:16EC1 16EA7:16EC2 16EA8:16EC3 16EA9:16EC4 "
    "16EAA:16EC5 16EAB:16EC6 16EAC:16EC7 16EAD:16EC8 16EAE:16EC9 16EAF:16ECA 16EB0:16ECB 16EB1:16ECC "
    "16EB2:16ECD 16EB3:16ECE 16EB4:16ECF 16EB5:16ED0 16EB6:16ED1 16EB7:16ED2 16EB8:16ED3 "
)
_LOWER_EXTRA = {
    int(k, 16): chr(int(v, 16)) for k, v in (item.split(":") for item in _LOWER_EXTRA_SPEC.split())
}
# Python lowercases a capital sigma by context (final form ς); Hugging Face maps each char alone: σ.
_LOWER_TABLE = {**_LOWER_EXTRA, 0x03A3: "σ"}
_LOWER_FIX_RE = re.compile("[" + "".join(f"\\U{cp:08x}" for cp in _LOWER_TABLE) + "]")

_NON_ASCII_RE = re.compile(r"[^\x00-\x7f]+")


# --------------------------------------------------------------------------- shared helpers

def _lowercase(text: str) -> str:
    """Per-character lowercasing with Hugging Face's (Rust's) semantics."""
    if text.isascii():
        return text.lower()
    if _LOWER_FIX_RE.search(text) is not None:
        text = text.translate(_LOWER_TABLE)
    return text.lower()


def _lower_char(c: str) -> str:
    return _LOWER_TABLE.get(ord(c)) or c.lower()


def _lowercase_aligned(ns: NormalizedString) -> NormalizedString:
    lowered = _lowercase(ns.normalized)
    if lowered == ns.normalized:
        return ns
    if len(lowered) == len(ns.normalized):
        # No character lowercases to zero characters, so equal lengths mean one for one.
        return NormalizedString(ns.original, lowered, ns.alignments)
    return ns.map_chars(_lower_char)  # İ → i + U+0307: both characters keep the İ's span


def _unicode_normalize(form: str, text: str) -> str:
    """``unicodedata.normalize`` as Hugging Face computes it: protected characters are left alone and
    act as barriers (see the module docstring)."""
    if text.isascii():
        return text
    pattern, _ = _PROTECTED[form]
    if pattern.search(text) is None:
        return unicodedata.normalize(form, text)
    out: list[str] = []
    pos = 0
    for m in pattern.finditer(text):
        out.append(unicodedata.normalize(form, text[pos : m.start()]))
        out.append(m.group())
        pos = m.end()
    out.append(unicodedata.normalize(form, text[pos:]))
    return "".join(out)


def _splice(ns: NormalizedString, regions: Iterable[tuple[int, int, str]]) -> NormalizedString:
    """Replace the given regions of ``ns.normalized``; the rest keeps its alignment character by character.

    ``regions`` are sorted, non-overlapping ``(start, end, replacement)``; every character of a
    replacement is aligned to the whole original span of its region (an empty replacement deletes,
    an empty region inserts). Unlike :meth:`NormalizedString.rewrite`, a same-length replacement is
    aligned as a block too: after canonical reordering, character ``i`` of a chunk need not come from
    character ``i`` of the original.
    """
    text = ns.normalized
    old = ns.alignments
    parts: list[str] = []
    align: list[Span] = []
    pos = 0
    changed = False
    for start, end, rep in regions:
        if start > pos:
            parts.append(text[pos:start])
            align.extend(old[pos:start] if old is not None else zip(range(pos, start), range(pos + 1, start + 1)))
        if rep:
            parts.append(rep)
            align.extend([ns.original_span(start, end)] * len(rep))
        pos = end
        changed = True
    if not changed:
        return ns
    if pos < len(text):
        parts.append(text[pos:])
        align.extend(old[pos:] if old is not None else zip(range(pos, len(text)), range(pos + 1, len(text) + 1)))
    return NormalizedString(ns.original, "".join(parts), align)


def _island_regions(text: str, start: int, end: int, form: str) -> list[tuple[int, int, str]]:
    """Changed chunks of ``text[start:end]`` under ``form``.

    A chunk is a starter and the combining marks after it; a chunk whose normalization interacts
    with the previous one (Hangul jamo composing into a syllable, a halfwidth voiced mark joining its
    kana under NFKC...) is merged with it, so each output character aligns to the smallest original
    chunk that produced it.
    """
    protected = _PROTECTED[form][1]
    combining = unicodedata.combining
    normalize = unicodedata.normalize
    chunks: list[list[Any]] = []  # [start, end, normalized, protected]
    i = start
    while i < end:
        c = text[i]
        if c in protected:
            chunks.append([i, i + 1, c, True])
            i += 1
            continue
        j = i + 1
        while j < end and combining(text[j]) and text[j] not in protected:
            j += 1
        rep = normalize(form, text[i:j])
        if chunks and not chunks[-1][3]:
            prev = chunks[-1]
            joined = normalize(form, text[prev[0] : j])
            if joined != prev[2] + rep:
                prev[1], prev[2] = j, joined
                i = j
                continue
        chunks.append([i, j, rep, False])
        i = j
    return [(a, b, rep) for a, b, rep, _ in chunks if rep != text[a:b]]


def _normalize_aligned(ns: NormalizedString, form: str) -> NormalizedString:
    """Apply a Unicode normal form chunk by chunk, so every output character keeps its origin."""
    text = ns.normalized
    if text.isascii():
        return ns
    expected = _unicode_normalize(form, text)
    if expected == text:
        return ns
    protected = _PROTECTED[form][0]
    islands: list[tuple[int, int]] = []
    last_end = 0
    for m in _NON_ASCII_RE.finditer(text):
        s, e = m.span()
        # Include the ASCII character before the run: combining marks may belong to it. ASCII never
        # composes with what precedes it, so the boundary before it is safe.
        if s > last_end:
            s -= 1
        last_end = e
        island = text[s:e]
        if protected.search(island) is None and unicodedata.is_normalized(form, island):
            continue
        islands.append((s, e))
    regions = [r for s, e in islands for r in _island_regions(text, s, e, form)]
    if _result(text, regions) != expected:
        # Chunks interacted in a way the pairwise check missed: align whole runs instead.
        regions = [(s, e, rep) for s, e in islands if (rep := _unicode_normalize(form, text[s:e])) != text[s:e]]
        if _result(text, regions) != expected:
            regions = [(0, len(text), expected)]
    return _splice(ns, regions)


def _result(text: str, regions: list[tuple[int, int, str]]) -> str:
    parts = []
    pos = 0
    for start, end, rep in regions:
        parts.append(text[pos:start])
        parts.append(rep)
        pos = end
    parts.append(text[pos:])
    return "".join(parts)


def _strip_marks(text: str, marks: re.Pattern[str] = _HF_MARKS_RE) -> str:
    return text if text.isascii() else marks.sub("", text)  # no ASCII character is a mark


def _strip_marks_aligned(ns: NormalizedString, marks: re.Pattern[str] = _HF_MARKS_RE) -> NormalizedString:
    """Remove marks, dropping their spans as Hugging Face does (``e`` + U+0301 → ``e`` spanning only
    the ``e``), so offsets agree with HF's exactly."""
    text = ns.normalized
    if text.isascii():
        return ns
    return _splice(ns, [(m.start(), m.end(), "") for m in marks.finditer(text)])


def _find_matches(pattern: re.Pattern[str] | Any, text: str, timeout: float | None = None) -> list[tuple[int, int]]:
    """Match spans as Hugging Face (Oniguruma's ``find_iter``) yields them.

    An empty match right where the previous match ended is skipped and the search moves on one
    character, so ``a*`` replaces ``"baab"`` as ``-b-b-`` (Python's ``re.sub`` would give ``-b--b-``).
    ``timeout`` (seconds for the whole text, user regexes only) raises :class:`InputError`.
    """
    if timeout is not None:
        deadline = time.monotonic() + timeout
        try:
            return _find_matches_until(pattern, text, deadline)
        except TimeoutError:
            raise InputError(
                f"Replace pattern {pattern.pattern!r} took longer than {timeout:g} s on a text of {len(text)} "
                "characters (catastrophic backtracking?); simplify the pattern (avoid nested or overlapping "
                "quantifiers such as (a|a)+ or (a+)+) or split the text (toolkit.limits.REGEX_TIMEOUT)"
            ) from None
    return _find_matches_until(pattern, text, None)


def _find_matches_until(pattern: Any, text: str, deadline: float | None) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    pos = 0
    last_match_end = -1
    n = len(text)
    search = pattern.search
    while pos <= n:
        m = search(text, pos) if deadline is None else search(text, pos, timeout=max(deadline - time.monotonic(), 1e-6))
        if m is None:
            break
        s, e = m.span()
        if s == e and e == last_match_end:
            pos += 1
            continue
        spans.append((s, e))
        pos = last_match_end = e
    return spans


def replace_all(pattern: str | Regex, content: str, text: str) -> str:
    """Replace every match of a ``Replace`` pattern in ``text`` (Hugging Face's matching rules).

    >>> replace_all(Regex("a*"), "-", "baab")
    '-b-b-'
    """
    if not text:
        return text  # Hugging Face leaves empty text alone, even for patterns matching ""
    if isinstance(pattern, str) and pattern:
        return text.replace(pattern, content)  # leftmost, non-overlapping: the same as the regex path
    parts: list[str] = []
    pos = 0
    for s, e in _find_matches(_compiled(pattern), text, _timeout(pattern)):
        parts.append(text[pos:s])
        parts.append(content)
        pos = e
    parts.append(text[pos:])
    return "".join(parts)


def _replace_aligned(pattern: str | Regex, content: str, ns: NormalizedString) -> NormalizedString:
    text = ns.normalized
    if not text:
        return ns
    segments: list[tuple[int, int, str]] = []
    pos = 0
    for s, e in _find_matches(_compiled(pattern), text, _timeout(pattern)):
        if s > pos:
            segments.append((pos, s, text[pos:s]))
        segments.append((s, e, content))
        pos = e
    if not segments:
        return ns
    if pos < len(text):
        segments.append((pos, len(text), text[pos:]))
    return ns.rewrite(segments)


# --------------------------------------------------------------------------- patterns

def compile_pattern(pattern: str) -> Any:
    """Compile a user regex the way Hugging Face's Oniguruma reads it: ``^``/``$`` match at line
    boundaries, and ``^`` never matches at the very end of the text (after a final newline).
    An invalid pattern is a :class:`ConfigError` naming it."""
    if not isinstance(pattern, str):
        raise ConfigError(f"a regular expression must be a str, got {type(pattern).__name__}")
    try:
        return regex.compile(_oniguruma_anchors(pattern), regex.MULTILINE)
    except (regex.error, ValueError, OverflowError) as exc:
        raise ConfigError(f"invalid regular expression {pattern!r}: {exc}") from None


# Oniguruma's begin-of-line: the start of the text, or after a newline unless that is the end.
_BEGIN_LINE = r"(?:\A|^(?!\Z))"


def _oniguruma_anchors(pattern: str) -> str:
    """Rewrite each ``^`` anchor (outside character classes) into Oniguruma's begin-of-line."""
    if "^" not in pattern:
        return pattern
    out: list[str] = []
    i, n = 0, len(pattern)
    in_class = False
    while i < n:
        c = pattern[i]
        if c == "\\":
            j = i + 2
            if j < n and pattern[i + 1] in "pPxNgk" and pattern[j] in "{<":
                close = pattern.find("}" if pattern[j] == "{" else ">", j)
                j = n if close == -1 else close + 1
            out.append(pattern[i:j])
            i = j
        elif in_class:
            if pattern.startswith("[:", i) and ":]" in pattern[i + 2 :]:
                j = pattern.index(":]", i + 2) + 2  # a POSIX class such as [:alpha:]
                out.append(pattern[i:j])
                i = j
                continue
            in_class = c != "]"
            out.append(c)
            i += 1
        elif c == "[":
            in_class = True
            j = i + 1
            if j < n and pattern[j] == "^":
                j += 1
            if j < n and pattern[j] == "]":  # a "]" first in the class is a literal
                j += 1
            out.append(pattern[i:j])
            i = j
        else:
            out.append(_BEGIN_LINE if c == "^" else c)
            i += 1
    return "".join(out)


class Regex:
    """A regular-expression pattern, to tell ``Replace`` (and the ``Replace`` decoder) that the
    pattern is a regex rather than a literal string (as ``tokenizers.Regex``).

    Patterns use the :mod:`regex` module's syntax; ``^`` and ``$`` match at line boundaries as in
    Hugging Face. In JSON a regex pattern is written ``{"Regex": "..."}`` and a literal one
    ``{"String": "..."}``.

    >>> Replace(Regex(r"\\s+"), " ").normalize_str("a \\t\\n b")
    'a b'
    """

    __slots__ = ("pattern", "compiled")

    def __init__(self, pattern: str) -> None:
        self.compiled = compile_pattern(pattern)
        self.pattern = pattern

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Regex) and other.pattern == self.pattern

    def __hash__(self) -> int:
        return hash(("Regex", self.pattern))

    def __repr__(self) -> str:
        return f"Regex({self.pattern!r})"


_LITERAL_CACHE: dict[str, Any] = {}


def _timeout(pattern: str | Regex) -> float | None:
    # Only user regexes can backtrack catastrophically; literal strings are searched in linear time.
    return limits.REGEX_TIMEOUT if isinstance(pattern, Regex) else None


def _compiled(pattern: str | Regex) -> Any:
    if isinstance(pattern, Regex):
        return pattern.compiled
    compiled = _LITERAL_CACHE.get(pattern)
    if compiled is None:
        compiled = regex.compile(regex.escape(pattern))
        if len(_LITERAL_CACHE) > 1000:
            _LITERAL_CACHE.clear()
        _LITERAL_CACHE[pattern] = compiled
    return compiled


def parse_pattern(value: Any) -> str | Regex:
    """A ``Replace`` pattern from its Python or JSON form: ``"lit"``, ``Regex("re")``,
    ``{"String": "lit"}`` or ``{"Regex": "re"}``."""
    if isinstance(value, (str, Regex)):
        return value
    if isinstance(value, Mapping) and len(value) == 1:
        ((key, inner),) = value.items()
        if key in ("String", "Regex") and isinstance(inner, str):
            return inner if key == "String" else Regex(inner)
    raise ConfigError(
        f'must be a string, a Regex, {{"String": "..."}} or {{"Regex": "..."}}; got {value!r}'
    )


def pattern_to_json(pattern: str | Regex) -> dict[str, str]:
    """The JSON form of a ``Replace`` pattern (the same as Hugging Face's)."""
    return {"Regex": pattern.pattern} if isinstance(pattern, Regex) else {"String": pattern}


# --------------------------------------------------------------------------- Unicode normal forms

class _UnicodeForm(Normalizer):
    """Shared code of the four Unicode normal forms.

    The text is normalized chunk by chunk (a starter and the combining marks after it, merged with
    its neighbour when they compose, as Hangul jamo do), so every output character is aligned to the
    original chunk it came from; the result is checked against normalizing the whole text at once.
    """

    form = "NFC"

    class Params(Params):
        """No options."""

    def normalize(self, text: NormalizedString) -> NormalizedString:
        return _normalize_aligned(text, self.form)

    def normalize_str(self, text: str) -> str:
        return _unicode_normalize(self.form, text)


@register("NFC")
class NFC(_UnicodeForm):
    """Unicode canonical composition (NFC): ``e`` + U+0301 → ``é``.

    >>> ns = NFC().normalize(NormalizedString("cafe\\u0301!"))
    >>> ns.normalized, ns.original_span(3, 4)
    ('café!', (3, 5))
    """

    form = "NFC"


@register("NFD")
class NFD(_UnicodeForm):
    """Unicode canonical decomposition (NFD): ``é`` → ``e`` + U+0301, both aligned to the ``é``.

    >>> ns = NFD().normalize(NormalizedString("é"))
    >>> [ns.original_span(i, i + 1) for i in range(len(ns.normalized))]
    [(0, 1), (0, 1)]
    """

    form = "NFD"


@register("NFKC")
class NFKC(_UnicodeForm):
    """Unicode compatibility composition (NFKC): ``ﬁ`` → ``fi``, full-width → ASCII, ``²`` → ``2``.

    >>> NFKC().normalize_str("ﬁ ＡＢ x²")
    'fi AB x2'
    """

    form = "NFKC"


@register("NFKD")
class NFKD(_UnicodeForm):
    """Unicode compatibility decomposition (NFKD): ``Ǆ`` → ``DZ`` + U+030C.

    >>> NFKD().normalize_str("Ǆ") == "DZ\\u030c"
    True
    """

    form = "NFKD"


# --------------------------------------------------------------------------- case and accents

@register("Lowercase")
class Lowercase(Normalizer):
    """Lowercases each character on its own, as Hugging Face: ``İ`` → ``i`` + U+0307 and a capital
    sigma is always ``σ`` (no final-sigma rule).

    >>> Lowercase().normalize_str("ΣΑΣ İ")
    'σασ i̇'
    """

    class Params(Params):
        """No options."""

    def normalize(self, text: NormalizedString) -> NormalizedString:
        return _lowercase_aligned(text)

    def normalize_str(self, text: str) -> str:
        return _lowercase(text)


@register("StripAccents")
class StripAccents(Normalizer):
    """Removes combining marks (use after ``NFD`` so precomposed letters are decomposed first).

    Like Hugging Face, it removes the marks of its older table (see the module docstring) and only
    those: a precomposed ``é`` is left alone. A removed mark's span belongs to no character any
    more, exactly as in HF, so offsets agree with HF's.

    >>> Sequence([NFD(), StripAccents()]).normalize_str("Crème brûlée")
    'Creme brulee'
    >>> StripAccents().normalize_str("é")  # precomposed: nothing to strip without NFD
    'é'
    """

    class Params(Params):
        """No options."""

    def normalize(self, text: NormalizedString) -> NormalizedString:
        return _strip_marks_aligned(text)

    def normalize_str(self, text: str) -> str:
        return _strip_marks(text)


# --------------------------------------------------------------------------- edits

@register("Strip")
class Strip(Normalizer):
    """Removes whitespace (Unicode White_Space, as Rust) from the left and/or right end.

    >>> Strip().normalize_str("\\u3000 hi \\n"), Strip(right=False).normalize_str(" hi ")
    ('hi', 'hi ')
    """

    class Params(Params):
        left: StrictBool = True
        right: StrictBool = True

    def __init__(self, *, left: bool = True, right: bool = True) -> None:
        opts = check_options(self, left=left, right=right)
        self.left: bool = opts["left"]
        self.right: bool = opts["right"]

    def _bounds(self, text: str) -> tuple[int, int]:
        start, end = 0, len(text)
        if self.left:
            start = end - len(text.lstrip(WHITESPACE))
        if self.right:
            end = start + len(text[start:].rstrip(WHITESPACE))
        return start, end

    def normalize(self, text: NormalizedString) -> NormalizedString:
        n = len(text.normalized)
        start, end = self._bounds(text.normalized)
        if (start, end) == (0, n):
            return text
        return text.rewrite([(0, start, ""), (start, end, text.normalized[start:end]), (end, n, "")])

    def normalize_str(self, text: str) -> str:
        start, end = self._bounds(text)
        return text[start:end]


class PatternReplacement:
    """Options of the ``Replace`` normalizer and decoder: ``pattern`` (a literal string or a
    :class:`Regex`; ``{"String": ...}`` / ``{"Regex": ...}`` in JSON) and ``content``."""

    class Params(Params):
        pattern: StrictStr | Regex | dict[str, Any]
        content: StrictStr

        @field_validator("pattern")
        @classmethod
        def _check_pattern(cls, value: Any) -> Any:
            parse_pattern(value)  # raises ConfigError (a ValueError) naming the pattern
            return value

    def __init__(self, pattern: str | Regex | Mapping[str, str], content: str) -> None:
        opts = check_options(self, pattern=pattern, content=content)  # type: ignore[arg-type]
        self.pattern: str | Regex = parse_pattern(opts["pattern"])
        self.content: str = opts["content"]

    def params(self) -> dict[str, Any]:
        return {"pattern": pattern_to_json(self.pattern), "content": self.content}


@register("Replace")
class Replace(PatternReplacement, Normalizer):
    """Replaces every match of ``pattern`` by ``content``.

    ``pattern`` is a literal string, or ``Regex("...")`` for a regular expression; in JSON it is
    ``{"String": "..."}`` or ``{"Regex": "..."}`` as in Hugging Face. Matches are found left to right
    without overlap; replaced text is aligned to the whole match.

    >>> Replace(" ", "▁").normalize_str("a b  c")
    'a▁b▁▁c'
    >>> Replace(Regex(r"\\d+"), "#").normalize_str("1 and 23")
    '# and #'
    """

    def normalize(self, text: NormalizedString) -> NormalizedString:
        return _replace_aligned(self.pattern, self.content, text)

    def normalize_str(self, text: str) -> str:
        return replace_all(self.pattern, self.content, text)


@register("Prepend")
class Prepend(Normalizer):
    """Puts ``prepend`` in front of any non-empty text (SentencePiece-style ``▁``).

    The prepended characters stand for the empty span at the start of the text, as a Metaspace or
    byte-level prefix does (Hugging Face aligns them to the first character instead).

    >>> Prepend("▁").normalize_str("hey"), Prepend("▁").normalize_str("")
    ('▁hey', '')
    """

    class Params(Params):
        prepend: StrictStr

    def __init__(self, prepend: str) -> None:
        self.prepend: str = check_options(self, prepend=prepend)["prepend"]

    def normalize(self, text: NormalizedString) -> NormalizedString:
        n = len(text.normalized)
        if not n or not self.prepend:
            return text
        return text.rewrite([(0, 0, self.prepend), (0, n, text.normalized)])

    def normalize_str(self, text: str) -> str:
        return self.prepend + text if text else text


# --------------------------------------------------------------------------- BERT

@register("BertNormalizer")
class BertNormalizer(Normalizer):
    """BERT's text cleaning, in Hugging Face's order: ``clean_text`` (drop NUL, U+FFFD and control
    characters; whitespace → space), ``handle_chinese_chars`` (pad CJK ideographs with spaces),
    ``strip_accents`` (NFD then drop marks; ``None`` means "same as ``lowercase``"), ``lowercase``.

    >>> BertNormalizer().normalize_str("Héllo\\t中文\\x00!")
    'hello  中  文 !'
    >>> BertNormalizer(lowercase=False).normalize_str("Héllo")  # strip_accents follows lowercase
    'Héllo'
    """

    class Params(Params):
        clean_text: StrictBool = True
        handle_chinese_chars: StrictBool = True
        strip_accents: StrictBool | None = None
        lowercase: StrictBool = True

    def __init__(
        self,
        *,
        clean_text: bool = True,
        handle_chinese_chars: bool = True,
        strip_accents: bool | None = None,
        lowercase: bool = True,
    ) -> None:
        opts = check_options(
            self,
            clean_text=clean_text,
            handle_chinese_chars=handle_chinese_chars,
            strip_accents=strip_accents,
            lowercase=lowercase,
        )
        self.clean_text: bool = opts["clean_text"]
        self.handle_chinese_chars: bool = opts["handle_chinese_chars"]
        self.strip_accents: bool | None = opts["strip_accents"]
        self.lowercase: bool = opts["lowercase"]

    @property
    def _strip(self) -> bool:
        return self.lowercase if self.strip_accents is None else self.strip_accents

    # The fast paths below give exactly what the step-by-step methods (_normalize_stepwise and
    # _normalize_str_stepwise, kept as the oracles the tests compare against) give; see _BertCharTables.
    def normalize(self, text: NormalizedString) -> NormalizedString:
        s = text.normalized
        if s.isascii():
            # Only clean_text and lowercasing can change ASCII text. Tab, newline and carriage return
            # become spaces, which keeps the alignment; a deleted control character does not.
            out = s.translate(_BERT_ASCII_CLEAN) if self.clean_text and not s.isprintable() else s
            if len(out) != len(s):
                return self._normalize_stepwise(text)
            if self.lowercase:
                out = out.lower()
            return text if out == s else NormalizedString(text.original, out, text.alignments)
        tables = _bert_tables(self)
        out = s.translate(tables.one_for_one)
        if _BERT_UNSAFE not in out:  # every character became one character: the alignment holds
            return text if out == s else NormalizedString(text.original, out, text.alignments)
        # Some character is deleted or expanded (or needs the step-by-step path): align each output
        # character to its source character, as the step-by-step path does for safe characters.
        rep_of = tables.aligned_rep
        parts: list[str] = []
        align: list[Span] = []
        old = text.alignments
        for i, c in enumerate(s):
            rep = rep_of(c)
            if rep is None:
                return self._normalize_stepwise(text)
            if rep:
                parts.append(rep)
                align.extend([(i, i + 1) if old is None else old[i]] * len(rep))
        return NormalizedString(text.original, "".join(parts), align)

    def normalize_str(self, text: str) -> str:
        if text.isascii():
            # No CJK, nothing to decompose or strip, ASCII lowercasing; clean_text only matters when
            # there are control characters, i.e. when the text is not printable.
            if self.clean_text and not text.isprintable():
                text = text.translate(_BERT_ASCII_CLEAN)
            return text.lower() if self.lowercase else text
        out = text.translate(_bert_tables(self).per_char)
        return self._normalize_str_stepwise(text) if _BERT_UNSAFE in out else out

    def _normalize_stepwise(self, text: NormalizedString) -> NormalizedString:
        ns = text
        if self.clean_text:
            spaced = ns.normalized.translate(_BERT_SPACE)
            ns = NormalizedString(ns.original, spaced, ns.alignments)  # same length: same alignment
            ns = _splice(ns, [(m.start(), m.end(), "") for m in _BERT_CONTROL_RE.finditer(spaced)])
        if self.handle_chinese_chars:
            ns = _splice(ns, [(m.start(), m.end(), f" {m.group()} ") for m in _CJK_RE.finditer(ns.normalized)])
        if self._strip:
            ns = _strip_marks_aligned(_normalize_aligned(ns, "NFD"), _BERT_MARKS_RE)
        if self.lowercase:
            ns = _lowercase_aligned(ns)
        return ns

    def _normalize_str_stepwise(self, text: str) -> str:
        if self.clean_text:
            text = _BERT_CONTROL_RE.sub("", text.translate(_BERT_SPACE))
        if self.handle_chinese_chars:
            text = _CJK_RUN_RE.sub(_pad_cjk_run, text)
        if self._strip:
            text = _strip_marks(_unicode_normalize("NFD", text), _BERT_MARKS_RE)
        if self.lowercase:
            text = _lowercase(text)
        return text


# BertNormalizer(clean_text=True) on ASCII: tab, newline and carriage return become spaces, the other
# C0 controls and DEL are removed (what _BERT_SPACE then _BERT_CONTROL_RE do, in one str.translate).
_BERT_ASCII_CLEAN: dict[int, str | None] = {
    **{cp: None for cp in range(0x20)}, 0x09: " ", 0x0A: " ", 0x0D: " ", 0x7F: None,
}
# What the per-character tables give a character that needs the step-by-step path. U+FFFF itself is
# such a character, so finding this in a translated text is proof that the step-by-step path is needed.
_BERT_UNSAFE = "\uffff"
_BERT_TABLE_LIMIT = 1 << 17  # characters remembered per configuration before the tables are cleared


class _OnDemand(dict):  # type: ignore[type-arg]
    """A ``str.translate`` table (code point → string) whose entries are computed on first use."""

    def __init__(self, fill: Any, index: int) -> None:
        super().__init__()
        self._fill = fill
        self._index = index

    def __missing__(self, cp: int) -> Any:
        return self._fill(cp)[self._index]


class _BertCharTables:
    """What one ``BertNormalizer`` configuration makes of each character on its own, learnt on demand.

    Every step of ``BertNormalizer`` works one character at a time except one: NFD (for
    ``strip_accents``) also sorts each run of combining marks (nonzero combining class). The sort
    cannot show in the result while no combining mark survives the stripping, because it only moves
    marks among marks. So a text none of whose characters leaves a combining mark normalizes to the
    concatenation of what its characters give on their own: one ``str.translate`` (``per_char``).
    The other characters translate to ``_BERT_UNSAFE``, which sends the text down the step-by-step path.

    Alignments need more: the step-by-step path decomposes a character *together with* the combining
    marks after it and aligns the result to the whole group, so for ``normalize`` a character that is a
    combining mark, or decomposes to one first (which could sort with the marks before it), is unsafe
    too. ``one_for_one`` translates the characters that are safe there and give one character (the
    alignment is then unchanged); ``aligned_rep(c)`` gives the others' output, ``None`` when unsafe.
    """

    def __init__(self, clean_text: bool, handle_chinese_chars: bool, strip: bool, lowercase: bool) -> None:
        self._options = (clean_text, handle_chinese_chars, strip, lowercase)
        self.per_char = _OnDemand(self._fill, 0)
        self.one_for_one = _OnDemand(self._fill, 1)
        self._aligned = _OnDemand(self._fill, 2)

    def aligned_rep(self, c: str) -> str | None:
        return self._aligned[ord(c)]

    def _analyse(self, c: str) -> tuple[str, bool, bool]:
        """``(output, safe for normalize_str, safe for normalize)`` of the one-character text ``c``."""
        clean_text, handle_chinese_chars, strip, lowercase = self._options
        if c == _BERT_UNSAFE:
            return c, False, False
        text = c
        if clean_text:
            text = _BERT_CONTROL_RE.sub("", text.translate(_BERT_SPACE))
        if handle_chinese_chars:
            text = _CJK_RUN_RE.sub(_pad_cjk_run, text)
        str_safe = aligned_safe = True
        if strip:
            combining = unicodedata.combining
            decomposed = [_unicode_normalize("NFD", x) for x in text]
            aligned_safe = not any(combining(x) or combining(d[:1] or " ") for x, d in zip(text, decomposed))
            text = _strip_marks("".join(decomposed), _BERT_MARKS_RE)
            str_safe = not any(combining(x) for x in text)
        if lowercase:
            text = _lowercase(text)
        return text, str_safe, str_safe and aligned_safe

    def _fill(self, cp: int) -> tuple[str, str, str | None]:
        text, str_safe, aligned_safe = self._analyse(chr(cp))
        entry = (
            text if str_safe else _BERT_UNSAFE,
            text if aligned_safe and len(text) == 1 else _BERT_UNSAFE,
            text if aligned_safe else None,
        )
        tables = (self.per_char, self.one_for_one, self._aligned)
        if len(self.per_char) >= _BERT_TABLE_LIMIT:
            for table in tables:
                table.clear()
        for table, value in zip(tables, entry):
            table[cp] = value
        return entry


_BERT_TABLES: dict[tuple[bool, bool, bool, bool], _BertCharTables] = {}


def _bert_tables(normalizer: BertNormalizer) -> _BertCharTables:
    # Looked up by the options on every call (not stored on the normalizer), so that changing an
    # option attribute takes effect and the tables never travel with a pickled normalizer.
    key = (normalizer.clean_text, normalizer.handle_chinese_chars, normalizer._strip, normalizer.lowercase)
    tables = _BERT_TABLES.get(key)
    if tables is None:
        tables = _BERT_TABLES[key] = _BertCharTables(*key)
    return tables


# --------------------------------------------------------------------------- Sequence

@register("Sequence")
class Sequence(Container, Normalizer):
    """Applies normalizers one after the other; alignments compose.

    ``normalizers`` holds normalizer objects (or their dicts). In JSON each child is a full
    ``{"type": ...}`` object.

    >>> seq = Sequence([NFD(), StripAccents(), Lowercase()])
    >>> seq.normalize_str("Ébène"), seq.to_dict()["normalizers"][0]
    ('ebene', {'type': 'NFD'})
    """

    children_field = "normalizers"

    class Params(Params):
        normalizers: list[Any]

    def __init__(self, normalizers: Iterable[Normalizer | Mapping[str, Any]]) -> None:
        self.normalizers: list[Normalizer]
        self._set_children(normalizers)

    def normalize(self, text: NormalizedString) -> NormalizedString:
        for n in self.normalizers:
            text = n.normalize(text)
        return text

    def normalize_str(self, text: str) -> str:
        for n in self.normalizers:
            text = n.normalize_str(text)
        return text
