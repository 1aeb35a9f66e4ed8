"""``Precompiled``: SentencePiece's precompiled character map (``nmt_nfkc``...), as HF serializes it.

The map is a Darts double-array trie over UTF-8 keys plus a table of NUL-terminated replacements
(SentencePiece's ``precompiled_charsmap`` bytes, base64 in a ``tokenizer.json``). :class:`CharsMap`
reads it (the whole trie, once per map, cached by content); text where no rule applies costs one
regex scan.

Two ways of matching, chosen by ``matching``:

- ``"hf"`` (default; what ``tokenizers`` does): text is cut into extended grapheme clusters; a cluster
  shorter than 6 UTF-8 bytes is replaced by the rule of its *shortest* matching prefix, otherwise
  each character by its own rule. Alignments follow HF (one-for-one, extra characters aligned to the
  last replaced one, removed characters dropped).
- ``"sentencepiece"`` (what ``sentencepiece`` does; ``.model`` files load with it): at each position
  the *longest* rule is applied; replacements align to the whole matched text.

The two differ only where a cluster starts with a character that has a rule of its own and goes on
(``ｶﾞ``, CR LF); the tests compare every code point with ``tokenizers`` and whole corpora with both.

SentencePiece's user-defined symbols (``user_defined_symbols``; HF has no such option) are copied
unchanged: at each position the longest of them is taken before any rule
(:func:`user_symbols_pattern`, which ``algorithms.SentencePieceBPE`` uses for its frozen symbols too).
``remove_extra_whitespaces`` removes spaces as SentencePiece's normalizer does, unit by unit, so that
the spaces inside a user-defined symbol survive (:meth:`Precompiled._spm_spaces`).
"""

from __future__ import annotations

import base64
import binascii
import re
import struct
from collections.abc import Mapping
from typing import Any, Literal

import regex
from pydantic import StrictBool, StrictStr, field_validator

from toolkit import limits
from toolkit.alignment import NormalizedString, Span
from toolkit.cache import BoundedCache
from toolkit.errors import ConfigError
from toolkit.interfaces import Normalizer, Params
from toolkit.registry import register

__all__ = [
    "MAX_KEY_BYTES", "CharsMap", "Precompiled", "build_charsmap", "user_symbols_pattern", "user_symbols_reference",
]

_GRAPHEME = regex.compile(r"\X")
#: The longest key a character map may hold, in UTF-8 bytes (the built-in maps' longest is 12).
MAX_KEY_BYTES = 256
_SPACES = re.compile(" +")


class CharsMap:
    """A parsed ``precompiled_charsmap``: ``uint32`` trie size, the trie units, the replacement table.

    The first level of the trie is read once (the one-character rules, the characters that start a
    longer rule); ``interesting`` finds, at C speed, the only positions where a rule can apply, and
    longer rules are matched by walking the trie from there.

    >>> cm = CharsMap(base64.b64decode(build_charsmap({"a": "A", "ae": "æ"})))
    >>> cm.rules, cm.longest("aeb", 0), cm.shortest("aeb", 0, 2)
    ({'a': 'A'}, (2, 'æ'), (1, 'A'))
    """

    def __init__(self, blob: bytes, where: str = "precompiled_charsmap") -> None:
        self.where = where
        if len(blob) < 4:
            raise ConfigError(f"{where}: {len(blob)} bytes is too short for a precompiled character map")
        (size,) = struct.unpack_from("<I", blob)
        if size % 4 or size > len(blob) - 4:
            raise ConfigError(
                f"{where}: the trie claims {size:,} bytes but {len(blob) - 4:,} follow (or it is not a "
                "multiple of 4); the character map is corrupt"
            )
        self.units = struct.unpack_from(f"<{size // 4}I", blob, 4)
        self.table = blob[4 + size :]
        self.rules: dict[str, str] = {}  # one-character keys -> replacement
        self.starters: set[str] = set()  # characters some key begins with
        self._multi: set[str] = set()  # ... some longer key begins with
        self._second: set[str] = set()  # the second characters of the longer keys
        self._enumerate()
        parts = []
        if self.rules:
            parts.append(f"[{_charset(self.rules)}]")
        if self._multi:
            parts.append(f"[{_charset(self._multi)}](?=[{_charset(self._second)}])")
        # stdlib re: its big character sets are bitmaps, far faster than regex's for this scan
        self.interesting = re.compile("|".join(parts)) if parts else None
        # ASCII text can only meet the ASCII rules (and ASCII pairs, if some longer key is all ASCII).
        ascii_chars = {c for c in self.rules if c.isascii()}
        if any(c.isascii() for c in self._second):
            ascii_chars |= {c for c in self._multi if c.isascii()}
        self.ascii_interesting = re.compile(f"[{_charset(ascii_chars)}]") if ascii_chars else None

    # -------------------------------------------------------------- trie primitives (Darts-clone)
    def _step(self, pos: int, byte: int) -> tuple[int, bool] | None:
        """From node ``pos`` (already xor-ed with its offset) follow ``byte``: the next position and
        whether a key ends there, or ``None``."""
        units = self.units
        pos ^= byte
        if pos >= len(units):
            return None
        unit = units[pos]
        if unit & 0x800000FF != byte:
            return None
        return pos ^ ((unit >> 10) << ((unit & 0x200) >> 6)), bool(unit >> 8 & 1)

    def _root(self) -> int:
        if not self.units:
            return -1
        unit = self.units[0]
        return (unit >> 10) << ((unit & 0x200) >> 6)

    def _value(self, pos: int) -> str:
        if pos >= len(self.units):
            raise ConfigError(f"{self.where}: a rule points outside the trie; the character map is corrupt")
        start = self.units[pos] & 0x7FFFFFFF
        end = self.table.find(b"\0", start)
        if start >= len(self.table) or end < 0:
            raise ConfigError(f"{self.where}: a rule points past the replacement table; the character map is corrupt")
        try:
            return self.table[start:end].decode("utf-8")
        except UnicodeDecodeError:
            raise ConfigError(f"{self.where}: a replacement is not UTF-8; the character map is corrupt") from None

    def _children(self, pos: int, xl: bytes) -> list[tuple[int, int, bool]]:
        """``(label, next position, a key ends there)`` of the node at ``pos`` (xor-ed with its offset):
        the units ``p`` of its 256-unit block whose label is ``p ^ pos``, i.e. ``xl[p] == pos & 0xFF``."""
        units, n = self.units, len(self.units)
        block, target = pos & ~0xFF, pos & 0xFF
        out = []
        found = xl.find(target, block, min(block + 256, n))
        while found >= 0:
            unit = units[found]
            label = found ^ pos
            if not unit >> 31 and 0 < label < 256:
                out.append((label, found ^ _offset(unit), bool(unit >> 8 & 1)))
            found = xl.find(target, found + 1, min(block + 256, n))
        return out

    def _enumerate(self) -> None:
        """The one-character rules, the characters that start a longer key and the characters that can
        come second in one: a walk of the trie's first two UTF-8 characters only."""
        root = self._root()
        if root < 0:
            return
        xl = bytes((u ^ p) & 0xFF for p, u in enumerate(self.units))
        for pos, char, leaf in self._next_chars(root, xl):
            self.starters.add(char)
            if leaf:
                self.rules[char] = self._value(pos)
            second = self._next_chars(pos, xl)
            if second:
                self._multi.add(char)
                self._second.update(c for _, c, _ in second)

    def _next_chars(self, pos: int, xl: bytes) -> list[tuple[int, str, bool]]:
        """``(position, character, a key ends there)`` one whole UTF-8 character below ``pos``."""
        out = []
        stack = [(p, bytes([lab]), lf) for lab, p, lf in self._children(pos, xl)]
        while stack:
            p, key, leaf = stack.pop()
            try:
                out.append((p, key.decode("utf-8"), leaf))
            except UnicodeDecodeError:  # an incomplete character: one continuation byte deeper
                if len(key) < 4:
                    stack.extend((q, key + bytes([lab]), lf) for lab, q, lf in self._children(p, xl) if lab >= 0x80)
        return out

    def _walk(self, text: str, i: int, shortest: bool, end: int | None = None) -> tuple[int, str] | None:
        """The (longest or shortest) rule matching ``text[i:end]`` at ``i``: (characters, replacement).

        A key longer than :data:`MAX_KEY_BYTES` (or a trie whose links loop, which no key-building
        tool writes) is refused when a walk reaches it: each walk is bounded, so matching is linear."""
        pos = self._root()
        best: tuple[int, int] | None = None
        stop = len(text) if end is None else end
        depth = 0  # key bytes matched so far
        for j in range(i, stop):
            for b in text[j].encode("utf-8", "surrogatepass"):
                step = self._step(pos, b)
                if step is None:
                    return None if best is None else (best[0], self._value(best[1]))
                pos, leaf = step
                depth += 1
            if depth > MAX_KEY_BYTES:
                raise ConfigError(
                    f"{self.where}: a rule's key is longer than {MAX_KEY_BYTES} bytes (or the trie loops); the "
                    "character map is corrupt (SentencePiece's own maps hold keys of a few characters)"
                )
            if leaf:
                best = (j + 1 - i, pos)
                if shortest:
                    break
        return None if best is None else (best[0], self._value(best[1]))

    def longest(self, text: str, i: int) -> tuple[int, str] | None:
        """SentencePiece's match at ``text[i]``: the longest rule, as (characters matched, replacement)."""
        if text[i] in self._multi:
            return self._walk(text, i, shortest=False)
        rep = self.rules.get(text[i])
        return None if rep is None else (1, rep)

    def shortest(self, text: str, i: int, end: int) -> tuple[int, str] | None:
        """Hugging Face's match of the cluster ``text[i:end]``: the shortest rule at ``i``."""
        rep = self.rules.get(text[i])
        if rep is not None:
            return 1, rep
        if text[i] in self._multi:
            return self._walk(text, i, shortest=True, end=end)
        return None


def _offset(unit: int) -> int:
    return (unit >> 10) << ((unit & 0x200) >> 6)


def _charset(chars: Any) -> str:
    """A character-class body with runs of consecutive code points as ranges (``re`` scans a long
    list of single characters outside the BMP one by one)."""
    cps = sorted(map(ord, chars))
    out = []
    i = 0
    while i < len(cps):
        j = i
        while j + 1 < len(cps) and cps[j + 1] == cps[j] + 1:
            j += 1
        first, last = re.escape(chr(cps[i])), re.escape(chr(cps[j]))
        out.append(first if i == j else f"{first}-{last}")
        i = j + 1
    return "".join(out)


def build_charsmap(rules: Mapping[str, str]) -> str:
    """A ``precompiled_charsmap`` (base64) holding ``rules`` (text -> replacement), readable by
    SentencePiece, Hugging Face and :class:`CharsMap` (for tests, examples and hand-made rules).

    >>> CharsMap(base64.b64decode(build_charsmap({"Ⅻ": "XII"}))).rules
    {'Ⅻ': 'XII'}
    """
    table = bytearray()
    offsets: dict[bytes, int] = {}
    root: dict[int, Any] = {}
    for key in sorted(rules):
        if not key:
            raise ConfigError("build_charsmap: a rule needs a non-empty key")
        rep = rules[key].encode("utf-8")
        if rep not in offsets:
            offsets[rep] = len(table)
            table += rep + b"\0"
        node = root
        for b in key.encode("utf-8"):
            node = node.setdefault(b, {})
        node[0] = offsets[rep]  # label 0: the key ends here, the unit holds the value
    units = [0]
    used = {0}
    free = 1
    queue = [(0, root)]
    while queue:
        pos, node = queue.pop()
        labels = sorted(node)
        while free in used:
            free += 1
        probe = free
        while True:
            base = probe ^ labels[0]
            if all(base ^ lab not in used and base ^ lab for lab in labels):
                break
            probe += 1
        units[pos] |= (pos ^ base) << 10 | (256 if 0 in node else 0)
        for lab in labels:
            child = base ^ lab
            if child >= len(units):
                units.extend([0] * (child + 1 - len(units)))
            used.add(child)
            if lab == 0:
                units[child] = node[0] | 1 << 31
            else:
                units[child] = lab
                queue.append((child, node[lab]))
    units.extend([0] * (-len(units) % 256))  # sentencepiece wants whole blocks of 256 units
    blob = struct.pack(f"<I{len(units)}I", 4 * len(units), *units) + bytes(table)
    return base64.b64encode(blob).decode()


_MAPS: BoundedCache = BoundedCache(8)


def user_symbols_pattern(symbols: Any) -> re.Pattern[str] | None:
    """A pattern whose ``finditer`` finds SentencePiece's user-defined symbols as its ``PrefixMatcher``
    does: left to right, at each position the longest symbol; ``None`` for no symbols.

    The pattern is the symbols' trie (:func:`_trie_regex`), so at a position ``re`` follows one branch
    per character instead of trying every symbol as the plain alternation does
    (:func:`user_symbols_reference`, which it equals and which stands in where the trie would nest too
    deeply for ``re``).

    >>> [m.group() for m in user_symbols_pattern(["ab", "abc", "b"]).finditer("abcab b")]
    ['abc', 'ab', 'b']
    """
    symbols = {s for s in symbols if s}
    if not symbols:
        return None
    trie: dict[str, Any] = {}
    for symbol in symbols:
        node = trie
        for ch in symbol:
            node = node.setdefault(ch, {})
        node[""] = {}  # a symbol ends here
    pattern = _trie_regex(trie)
    return re.compile(pattern) if pattern is not None else user_symbols_reference(symbols)


#: The deepest nesting of groups :func:`_trie_regex` writes; ``re``'s parser recurses once per level.
_MAX_TRIE_NESTING = 100


def _trie_regex(trie: dict[str, Any]) -> str | None:
    """The regex of a trie: one branch per next character, and where a symbol ends, the longer
    continuations first (a greedy ``?``), so the match at a position is the longest symbol there.
    Written without recursion (a symbol may be 1,024 characters long) and in one pass, so its size and
    cost stay linear in the trie; ``None`` when it would nest groups more than ``_MAX_TRIE_NESTING``
    deep (prefixes of prefixes of ...)."""
    # The nesting, children before parents: a node with one child and no symbol ending adds no group.
    order: list[dict[str, Any]] = []
    stack = [trie]
    while stack:
        node = stack.pop()
        order.append(node)
        stack.extend(child for ch, child in node.items() if ch)
    nesting: dict[int, int] = {}
    for node in reversed(order):
        below = [nesting[id(child)] for ch, child in node.items() if ch]
        if not below:
            nesting[id(node)] = 0
        elif len(below) == 1 and "" not in node:
            nesting[id(node)] = below[0]
        elif max(below) + 1 > _MAX_TRIE_NESTING:
            return None
        else:
            nesting[id(node)] = max(below) + 1
    # The text, written depth first: a node is its branches "(?:a...|b...)" ("?" after it where a
    # symbol ends), or its one character and what follows.
    out: list[str] = []
    todo: list[str | dict[str, Any]] = [trie]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        branches = sorted((ch, child) for ch, child in item.items() if ch)
        if not branches:
            continue
        if len(branches) == 1 and "" not in item:
            out.append(re.escape(branches[0][0]))
            todo.append(branches[0][1])
            continue
        out.append("(?:")
        todo.append(")?" if "" in item else ")")
        for k in range(len(branches) - 1, -1, -1):
            ch, child = branches[k]
            todo.append(child)
            todo.append(("|" if k else "") + re.escape(ch))
    return "".join(out)


def user_symbols_reference(symbols: Any) -> re.Pattern[str] | None:
    """:func:`user_symbols_pattern` the obvious way: the literal symbols, longest first, as one
    alternation (the first that matches at a position is the longest); its scan time grows with the
    number of symbols."""
    symbols = sorted({s for s in symbols if s}, key=lambda s: (-len(s), s))
    return re.compile("|".join(map(re.escape, symbols))) if symbols else None


def _charsmap(encoded: str) -> CharsMap:
    cm = _MAPS.get(encoded)
    if cm is None:
        cm = CharsMap(base64.b64decode(encoded), "Precompiled.precompiled_charsmap")
        _MAPS.put(encoded, cm)
    return cm  # type: ignore[no-any-return]


@register("Precompiled")
class Precompiled(Normalizer):
    """SentencePiece's compiled normalization rules (``precompiled_charsmap``: base64 as in HF's JSON,
    or the bytes themselves as HF's ``Precompiled(bytes)`` takes them; stored as base64).
    ``matching``: ``"hf"`` or ``"sentencepiece"`` (module docstring); ``user_defined_symbols``: strings
    copied unchanged, as SentencePiece's user-defined pieces (not written to a ``tokenizer.json``);
    ``remove_extra_whitespaces`` (``False``; needs ``matching="sentencepiece"``): remove leading and
    trailing spaces and collapse runs of spaces the way SentencePiece does, keeping the spaces inside a
    user-defined symbol (a ``tokenizer.json`` gets HF's ``Replace`` steps instead, which do not).

    >>> p = Precompiled(build_charsmap({"ﬁ": "fi", "①": "1", "\u3000": " "}))
    >>> p.normalize_str("ﬁne①\u3000Ｘ")
    'fine1 Ｘ'
    >>> p.matching, p.user_defined_symbols = "sentencepiece", ["①"]
    >>> p.normalize_str("ﬁne①")
    'fine①'
    >>> p.user_defined_symbols, p.remove_extra_whitespaces = ["b  "], True
    >>> p.normalize_str("  a   b  　c ")
    'a b  c'
    """

    #: An empty map (no rule): the trie of a SentencePiece ``identity`` normalizer.
    EMPTY = base64.b64encode(struct.pack("<II", 4, 0)).decode()

    class Params(Params):
        precompiled_charsmap: StrictStr
        matching: Literal["hf", "sentencepiece"] = "hf"
        user_defined_symbols: list[StrictStr] = []
        remove_extra_whitespaces: StrictBool = False

        @field_validator("user_defined_symbols")
        @classmethod
        def _check_symbols(cls, value: list[str]) -> list[str]:
            for symbol in value:
                if len(symbol) > limits.MAX_TOKEN_LENGTH:  # a symbol is a piece of the model's vocabulary
                    raise ValueError(
                        f"symbol {symbol[:40]!r}... is {len(symbol):,} characters long, more than the limit of "
                        f"{limits.MAX_TOKEN_LENGTH:,} (toolkit.limits.MAX_TOKEN_LENGTH)"
                    )
            return value

        @field_validator("precompiled_charsmap", mode="before")
        @classmethod
        def _base64_of_bytes(cls, value: Any) -> Any:
            return base64.b64encode(value).decode("ascii") if isinstance(value, (bytes, bytearray)) else value

        @field_validator("precompiled_charsmap")
        @classmethod
        def _check_map(cls, value: str) -> str:
            try:
                blob = base64.b64decode(value, validate=True)
            except (binascii.Error, ValueError):
                raise ValueError("must be base64 (the precompiled_charsmap of a tokenizer.json)") from None
            if value not in _MAPS:
                _MAPS.put(value, CharsMap(blob, "precompiled_charsmap"))  # raises ConfigError naming the problem
            return value

    positional = ("precompiled_charsmap",)
    precompiled_charsmap: str
    matching: str
    user_defined_symbols: list[str]
    remove_extra_whitespaces: bool

    def _configure(self) -> None:
        if self.remove_extra_whitespaces and self.matching != "sentencepiece":
            raise ConfigError(
                "Precompiled.remove_extra_whitespaces: SentencePiece's space removal works on its units; set "
                "matching='sentencepiece' with it (HF's pipelines use Replace(Regex(' {2,}'), ' ') instead)"
            )
        self._map = _charsmap(self.precompiled_charsmap)
        self._user = user_symbols_pattern(self.user_defined_symbols)

    # -------------------------------------------------------------- fast path
    def _untouched(self, text: str) -> bool:
        cm = self._map
        if text.isascii():
            return cm.ascii_interesting is None or cm.ascii_interesting.search(text) is None
        return cm.interesting is None or cm.interesting.search(text) is None

    def normalize_str(self, text: str) -> str:
        if self.remove_extra_whitespaces:
            parts = [rep for _, _, rep in self._spm_spaces(text, self._edits(text))]
        elif self._untouched(text):
            return text
        else:
            parts = [rep for _, _, rep in self._edits(text)]
        # checked before the join: a rule may write a thousand characters for each one read
        limits.check_normalized_size(sum(map(len, parts)), where="Precompiled")
        return "".join(parts)

    def _edits(self, text: str) -> list[tuple[int, int, str]]:
        """Contiguous ``(start, end, replacement)`` segments covering ``text``."""
        cm = self._map
        out: list[tuple[int, int, str]] = []
        pos = 0
        n = len(text)
        sentencepiece = self.matching == "sentencepiece"
        user = self._user
        symbol = None  # the next user-defined symbol at or after pos (sentencepiece: kept unchanged)
        interesting = cm.interesting
        while pos < n:
            m = interesting.search(text, pos) if interesting is not None else None  # None: the map has no rule
            if user is not None:
                if symbol is None or symbol.start() < pos:
                    symbol = user.search(text, pos)
                    if symbol is None:
                        user = None  # none starts at pos or later: searching again would be quadratic
                if symbol is not None and (m is None or symbol.start() <= m.start()):
                    if symbol.start() > pos:
                        out.append((pos, symbol.start(), text[pos : symbol.start()]))
                    out.append((symbol.start(), symbol.end(), symbol.group()))
                    pos = symbol.end()
                    continue
            if m is None:
                out.append((pos, n, text[pos:]))
                break
            i = m.start()
            if sentencepiece:
                if i > pos:
                    out.append((pos, i, text[pos:i]))
                hit = cm.longest(text, i)
                if hit is None:
                    out.append((i, i + 1, text[i]))
                    pos = i + 1
                else:
                    out.append((i, i + hit[0], hit[1]))
                    pos = i + hit[0]
                continue
            # Hugging Face: the grapheme cluster holding text[i]; clusters are found from `pos`, a boundary.
            g_start = pos
            for g in _GRAPHEME.finditer(text, pos):
                if g.end() > i:
                    g_start, g_end = g.span()
                    break
            if g_start > pos:
                out.append((pos, g_start, text[pos:g_start]))
            out.extend(self._hf_cluster(text, g_start, g_end))
            pos = g_end
        return out

    def _spm_spaces(self, text: str, edits: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
        """``edits`` with SentencePiece's ``remove_extra_whitespaces`` applied (``normalizer.cc``).

        SentencePiece normalizes a unit at a time (a user-defined symbol, a rule's match, or one other
        character); a unit's leading spaces are dropped when the text written so far ends in a space
        (or nothing is written yet), and the text's trailing spaces at the end. So a run of spaces
        collapses to one, except inside a unit: ``"b  "`` as a user-defined symbol keeps both.
        A collapsed run's space aligns to the whole run, as ``Replace(Regex(" {2,}"), " ")`` does.
        """
        out: list[tuple[int, int, str]] = []
        after_space = True
        user = self._user
        for start, end, rep in edits:
            plain = rep == text[start:end] and (user is None or user.fullmatch(text, start, end) is None)
            if not plain:  # one unit: a user-defined symbol or a rule's replacement
                if after_space:
                    rep = rep.lstrip(" ")
                if rep:
                    after_space = rep.endswith(" ")
                out.append((start, end, rep))
                continue
            pos = start  # characters: a run of spaces is one space, none after a space
            for run in _SPACES.finditer(text, start, end):
                if run.start() > pos:
                    out.append((pos, run.start(), text[pos : run.start()]))
                    after_space = False
                out.append((run.start(), run.end(), "" if after_space else " "))
                after_space = True
                pos = run.end()
            if pos < end:
                out.append((pos, end, text[pos:end]))
                after_space = False
        for k in range(len(out) - 1, -1, -1):  # the trailing spaces, which may span several segments
            start, end, rep = out[k]
            kept = rep.rstrip(" ")
            out[k] = (start, end, kept)
            if kept:
                break
        return out

    def _hf_cluster(self, text: str, start: int, end: int) -> list[tuple[int, int, str]]:
        cm = self._map
        if len(text[start:end].encode("utf-8", "surrogatepass")) < 6:
            hit = cm.shortest(text, start, end)
            if hit is not None:
                return [(start, end, hit[1])]
        rules = cm.rules
        return [(k, k + 1, rules.get(text[k], text[k])) for k in range(start, end)]

    # -------------------------------------------------------------- aligned path
    def normalize(self, text: NormalizedString) -> NormalizedString:
        s = text.normalized
        if self.remove_extra_whitespaces:
            edits = self._spm_spaces(s, self._edits(s))
            limits.check_normalized_size(sum(len(rep) for _, _, rep in edits), where="Precompiled")
            return text.rewrite(edits)
        if self._untouched(s):
            return text
        edits = self._edits(s)
        limits.check_normalized_size(sum(len(rep) for _, _, rep in edits), where="Precompiled")
        if self.matching == "sentencepiece":
            return text.rewrite(edits)
        return _hf_aligned(text, edits)


def _hf_aligned(ns: NormalizedString, edits: list[tuple[int, int, str]]) -> NormalizedString:
    """Hugging Face's alignment of replacements: new character ``t`` takes old character ``t``'s span;
    extra characters take the span of the last old one; old characters beyond the new ones are dropped."""
    parts: list[str] = []
    align: list[Span] = []
    for start, end, rep in edits:
        parts.append(rep)
        if rep == ns.normalized[start:end] and ns.alignments is None:
            align.extend((k, k + 1) for k in range(start, end))
            continue
        for t in range(len(rep)):
            k = start + min(t, end - start - 1)
            align.append(ns.original_span(k, k + 1))
    return NormalizedString(ns.original, "".join(parts), align)
