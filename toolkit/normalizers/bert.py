"""``BertNormalizer``: BERT's cleaning, CJK spacing, accents and lowercasing, as HF does it.

``clean_text`` removes a fixed set of control, format and private-use characters
(``_BERT_CONTROL_SPEC``) and turns the Rust whitespace characters into spaces; ``strip_accents``
uses BERT's old table of nonspacing (Mn) marks (``_BERT_MARKS_SPEC``).

>>> BertNormalizer().normalize_str("Héllo 世界")
'hello  世  界 '
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from pydantic import StrictBool

from toolkit import limits
from toolkit.alignment import NormalizedString, Span
from toolkit.cache import BoundedCache
from toolkit.interfaces import Normalizer, Params
from toolkit.registry import register

from toolkit.normalizers.case import _lowercase, _lowercase_aligned
from toolkit.normalizers.unicode import (
    WHITESPACE,
    _class,
    _normalize_aligned,
    _splice,
    _strip_marks,
    _strip_marks_aligned,
    _unicode_normalize,
)

__all__ = ['BertNormalizer']


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
# These become a plain space; the controls among them (\x0b, \x0c, \x85) are left to
# _BERT_CONTROL_RE, which clean_text applies next and which removes them.
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

    positional = ("clean_text", "handle_chinese_chars", "strip_accents", "lowercase")
    clean_text: bool
    handle_chinese_chars: bool
    strip_accents: bool | None
    lowercase: bool

    def _configure(self) -> None:
        self._strip = self.lowercase if self.strip_accents is None else self.strip_accents
        key = (self.clean_text, self.handle_chinese_chars, self._strip, self.lowercase)
        self._tables = _bert_tables(key)

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state.pop("_tables", None)  # learnt per configuration: rebuilt on load, never pickled
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._configure()

    # The fast paths below give exactly what the step-by-step methods (_normalize_stepwise and
    # _normalize_str_stepwise, kept as the oracles the tests compare against) give; see _BertCharTables.
    def normalize(self, text: NormalizedString) -> NormalizedString:
        out = self._normalize_fast(text)
        limits.check_normalized_size(len(out.normalized), where="BertNormalizer")  # CJK padding: 3x
        return out

    def _normalize_fast(self, text: NormalizedString) -> NormalizedString:
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
        tables = self._tables
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
        out = self._normalize_str_fast(text)
        limits.check_normalized_size(len(out), where="BertNormalizer")
        return out

    def _normalize_str_fast(self, text: str) -> str:
        if text.isascii():
            # No CJK, nothing to decompose or strip, ASCII lowercasing; clean_text only matters when
            # there are control characters, i.e. when the text is not printable.
            if self.clean_text and not text.isprintable():
                text = text.translate(_BERT_ASCII_CLEAN)
            return text.lower() if self.lowercase else text
        out = text.translate(self._tables.per_char)
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


class _OnDemand(BoundedCache):
    """A ``str.translate`` table (code point → string) whose entries are computed on first use.

    A :class:`BoundedCache` of ``_BERT_TABLE_LIMIT`` characters: the three tables of one
    configuration are filled together, so they reach the bound, and are cleared, together.
    """

    __slots__ = ("_fill", "_index")

    def __init__(self, fill: Any, index: int) -> None:
        super().__init__(_BERT_TABLE_LIMIT)
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
        for table, value in zip((self.per_char, self.one_for_one, self._aligned), entry):
            table.put(cp, value)
        return entry


# One set of tables per configuration, shared by every normalizer with those options. At most 16
# entries (four booleans), so this is a plain table rather than a cache; each table is bounded itself.
_BERT_TABLES: dict[tuple[bool, bool, bool, bool], _BertCharTables] = {}


def _bert_tables(key: tuple[bool, bool, bool, bool]) -> _BertCharTables:
    """The tables of the configuration ``(clean_text, handle_chinese_chars, strip, lowercase)``."""
    tables = _BERT_TABLES.get(key)
    if tables is None:
        tables = _BERT_TABLES.setdefault(key, _BertCharTables(*key))
    return tables
