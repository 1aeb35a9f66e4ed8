"""Unicode normal forms (``NFC``, ``NFD``, ``NFKC``, ``NFKD``) and ``StripAccents``, aligned like HF.

Hugging Face's Rust tables predate some characters that Python's :mod:`unicodedata` knows (U+32FF,
combining marks of Unicode 11-15, the Cyrillic modifier letters of Unicode 15.0): HF leaves them
untouched and treats them as starters (``_CANON_PROTECTED_SPEC``, ``_COMPAT_EXTRA_SPEC``), and so do
we, whatever Unicode version the running Python has. The lists cover the ``unicodedata`` of Python 3.11
(Unicode 14.0), 3.12 (15.0) and 3.13 (15.1) (:data:`UNICODE_VERSIONS`); characters a newer Python's
tables add would be normalized as that Python says. ``StripAccents`` removes the characters of HF's
older "combining mark" table, spacing (Mc) and enclosing (Me) marks included (``_HF_MARKS_SPEC``).
The tables are checked code point by code point against ``tokenizers`` by the tests.

>>> NFKC().normalize_str("ﬁne ①")
'fine 1'
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

import regex


from toolkit import limits
from toolkit.alignment import NormalizedString, Span
from toolkit.interfaces import Normalizer, Params
from toolkit.registry import register

__all__ = ['WHITESPACE', 'NFC', 'NFD', 'NFKC', 'NFKD', 'StripAccents']


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

_CANON_PROTECTED_SPEC = (
    "07FD 0898-089F 08CA-08D3 09FE 0C3C 0D3B-0D3C 0EBA 1715 "
    "1ABF-1ACE 1DF6-1DFA A82C 10D24-10D27 10EAB-10EAC 10F46-10F50 10F82-10F85 11070 "
    "1133B 1145E 11839-1183A 11930 11938 1193D-1193E 11943 119E0 11A34 "
    "11A47 11A99 11D42 11D44-11D45 11D97 16FF0-16FF1 1E130-1E136 1E2AE "
    "1E2EC-1E2EF "
    # Unicode 15.0 (Python 3.12+; unassigned, so untouched, in 3.11's tables): marks with a combining class.
    "10EFD-10EFF 11F41-11F42 1E08F 1E4EC-1E4EF "
)
# ...plus, for the compatibility forms, characters whose compatibility mapping it does not know
# (1E030-1E06D: the Cyrillic modifier letters of Unicode 15.0, Python 3.12+).
_COMPAT_EXTRA_SPEC = "32FF A7F2-A7F4 AB69 10781-10785 10787-107B0 107B2-107BA 1F16C 1FBF0-1FBF9 1E030-1E06D "
#: The ``unicodedata.unidata_version`` values whose characters the two lists above account for: every
#: character with a decomposition or a combining class in these tables and not in HF's is listed (Unicode
#: 15.1 added none). Checked by tests/test_normalizers.py on Python 3.11, 3.12 and 3.13.
UNICODE_VERSIONS = ("14.0.0", "15.0.0", "15.1.0")

_PROTECTED: dict[str, tuple[re.Pattern[str], frozenset[str]]] = {}
for _form in ("NFC", "NFD"):
    _PROTECTED[_form] = (re.compile(f"[{_class(_CANON_PROTECTED_SPEC)}]"), _chars(_CANON_PROTECTED_SPEC))
for _form in ("NFKC", "NFKD"):
    _spec = _CANON_PROTECTED_SPEC + _COMPAT_EXTRA_SPEC
    _PROTECTED[_form] = (re.compile(f"[{_class(_spec)}]"), _chars(_spec))

_NON_ASCII_RE = re.compile(r"[^\x00-\x7f]+")
#: A run of combining marks long enough for ``unicodedata``'s canonical ordering (an insertion sort:
#: quadratic in the run when its classes alternate; measured: docs/robustness.md, "Found later") to matter.
_LONG_MARK_RUN_RE = regex.compile(r"\p{M}{32}")
#: Such a run with the starter before it, whose decomposition may end in marks of the run.
_STARTER_AND_MARKS_RE = regex.compile(r"\P{M}?\p{M}{32,}")


def _ordered(text: str) -> str:
    """``text`` with each long run of combining marks replaced by its canonical decomposition (NFD), in
    O(n log n): each character decomposed alone, then each run of marks stably sorted by class. Every
    normal form gives the same result for it as for ``text`` (canonically equivalent strings), and
    ``unicodedata`` then meets runs already in order."""
    def nfd(m: re.Match[str]) -> str:
        chars = "".join(unicodedata.normalize("NFD", c) for c in m.group())
        out: list[str] = []
        run: list[str] = []
        for c in chars:
            if unicodedata.combining(c):
                run.append(c)
                continue
            out.extend(sorted(run, key=unicodedata.combining))
            run.clear()
            out.append(c)
        out.extend(sorted(run, key=unicodedata.combining))
        return "".join(out)

    return _STARTER_AND_MARKS_RE.sub(nfd, text)


def _nf(form: str, text: str) -> str:
    """``unicodedata.normalize(form, text)``, in O(n log n) on long runs of combining marks. Text already
    normalized (most text) returns after ``is_normalized``, a linear check that stops at the first
    mark out of order, so only the rest is searched for long runs."""
    if unicodedata.is_normalized(form, text):
        return text
    if _LONG_MARK_RUN_RE.search(text) is not None:
        text = _ordered(text)
    return unicodedata.normalize(form, text)


def _unicode_normalize(form: str, text: str) -> str:
    """``unicodedata.normalize`` as Hugging Face computes it: protected characters are left alone and
    act as barriers (see the module docstring)."""
    if text.isascii():
        return text
    pattern, _ = _PROTECTED[form]
    if pattern.search(text) is None:
        return _nf(form, text)
    out: list[str] = []
    pos = 0
    for m in pattern.finditer(text):
        out.append(_nf(form, text[pos : m.start()]))
        out.append(m.group())
        pos = m.end()
    out.append(_nf(form, text[pos:]))
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
        if isinstance(rep, _Traced):  # each character aligned to its own source character
            parts.append(str(rep))
            align.extend(_monotonic_spans(ns, rep.origins))
        elif rep:
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
    normalize = _nf
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
    out: list[tuple[int, int, str]] = []
    for a, b, rep, _ in chunks:
        if rep != text[a:b]:
            out.extend(_per_char(text, a, b, rep, form))
    return out


class _Traced(str):
    """A chunk's replacement that knows the text position each of its characters comes from."""

    origins: list[int]


def _monotonic_spans(ns: NormalizedString, origins: list[int]) -> list[Span]:
    """Spans for characters coming from ``origins``, widened where marks were reordered so that starts
    and ends never decrease: ``(min(origins[i:]), max(origins[:i + 1]) + 1)`` in the text, mapped back."""
    lows = origins[:]
    for i in range(len(lows) - 2, -1, -1):
        lows[i] = min(lows[i], lows[i + 1])
    out: list[Span] = []
    high = -1
    for low, k in zip(lows, origins):
        high = max(high, k)
        out.append(ns.original_span(low, high + 1))
    return out


def _per_char(text: str, a: int, b: int, rep: str, form: str) -> list[tuple[int, int, str]]:
    """A changed chunk with each output character aligned to the character it came from, as Hugging
    Face aligns decompositions (``"Ö"`` + U+0301 → ``O`` U+0308 from the ``Ö``, U+0301 from itself,
    also when canonical ordering moves marks); a chunk whose characters compose stays one block."""
    if b - a > 1:
        pieces = [unicodedata.normalize(form, c) for c in text[a:b]]
        if "".join(pieces) == rep:
            return [(k, k + 1, p) for k, p in zip(range(a, b), pieces) if p != text[k]]
        # Canonical ordering moved marks (any form; under NFC/NFKC only when nothing composes,
        # e.g. Thai vowel and tone marks): trace each character to its origin.
        traced = [(ch, k) for k, piece in zip(range(a, b), pieces) for ch in piece]
        # Canonical ordering: a stable sort of the combining marks by class, starters stay put.
        starters = sum(1 for ch, _ in traced if not unicodedata.combining(ch))
        if starters == 1 and not unicodedata.combining(traced[0][0]):
            traced[1:] = sorted(traced[1:], key=lambda item: unicodedata.combining(item[0]))
            out = _Traced("".join(ch for ch, _ in traced))
            if out == rep:
                out.origins = [k for _, k in traced]
                return [(a, b, out)]
    return [(a, b, rep)]


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

# --------------------------------------------------------------------------- Unicode normal forms

_MAX_EXPANSION = 18  # the most characters one character becomes in any form (NFKC/NFKD of U+FDFA)


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
        if len(text.normalized) * _MAX_EXPANSION > limits.MAX_INPUT_CHARS:
            # Long enough to break the limit once expanded: measure the output before aligning it.
            limits.check_normalized_size(len(_unicode_normalize(self.form, text.normalized)), where=self.form)
        return _normalize_aligned(text, self.form)

    def normalize_str(self, text: str) -> str:
        out = _unicode_normalize(self.form, text)
        limits.check_normalized_size(len(out), where=self.form)
        return out


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

@register("StripAccents")
class StripAccents(Normalizer):
    """Removes combining marks (use after ``NFD`` so precomposed letters are decomposed first).

    Like Hugging Face, it removes the marks of its older table (see the module docstring) and only
    those: a precomposed ``é`` is left alone. A removed mark's span belongs to no character any
    more, exactly as in HF, so offsets agree with HF's.

    >>> from toolkit.normalizers import Sequence
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


#: The characters Rust's ``char::is_whitespace`` accepts (HF splits and strips on these).
WHITESPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)
