"""Patterns as Hugging Face reads them: ``Regex``, literal strings, Oniguruma's matching rules.

Owns the regex dialect shared by the ``Replace`` normalizer and decoder and by the ``Split`` family of
pre-tokenizers: :func:`find_spans` (Oniguruma's iteration over matches), :func:`compile_pattern`
(Oniguruma's line anchors) and the ``Replace`` pattern forms. HF files use Oniguruma syntax: ``^``/``$``
match at line boundaries, and an empty match right where the previous match ended is skipped (the
search moves on one character). ``Replace`` regexes run under the time budget
``toolkit.limits.REGEX_TIMEOUT``, read at each call.

>>> replace_all(Regex("a*"), "-", "baab")
'-b-b-'
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import regex

from toolkit import limits
from toolkit.alignment import NormalizedString
from toolkit.cache import BoundedCache
from toolkit.errors import ConfigError, InputError

__all__ = ['ONIGURUMA_FLAGS', 'Regex', 'compile_pattern', 'oniguruma_syntax', 'check_repeat_cost', 'find_spans', 'replace_all', 'parse_pattern', 'pattern_to_json']

Span = tuple[int, int]


# --------------------------------------------------------------------------- matching

def find_spans(compiled: Any, text: str, timeout: float | None = None) -> list[Span]:
    """The ``(start, end)`` spans of the matches of ``compiled`` in ``text``, as Oniguruma's
    ``find_iter`` (so Hugging Face) yields them.

    An empty match right where the previous match ended is skipped and the search moves on one
    character, so ``a*`` finds ``(0, 0), (1, 3), (4, 4)`` in ``"baab"`` (Python would also find the
    empty match at 3). Python's own iteration differs only around empty matches, so the C-speed
    ``finditer`` result is used whenever it has none. ``timeout`` (seconds for the whole text; a
    ``regex``-module pattern) raises the built-in ``TimeoutError``: callers turn it into an
    :class:`InputError` naming their pattern.

    >>> find_spans(regex.compile("a*"), "baab")
    [(0, 0), (1, 3), (4, 4)]
    """
    if timeout is None:
        spans = [m.span() for m in compiled.finditer(text)]
        deadline = None
    else:
        deadline = time.monotonic() + timeout
        spans = [m.span() for m in compiled.finditer(text, timeout=timeout)]
    for s, e in spans:
        if s == e:
            break
    else:
        return spans
    return _oniguruma_spans(compiled, text, deadline)


def _oniguruma_spans(compiled: Any, text: str, deadline: float | None) -> list[Span]:
    """Oniguruma's iteration, one ``search`` per match (needed only when empty matches occur)."""
    out: list[Span] = []
    pos, last_end, n = 0, -1, len(text)
    search = compiled.search
    while pos <= n:
        if deadline is None:
            m = search(text, pos)
        else:
            m = search(text, pos, timeout=max(deadline - time.monotonic(), 1e-6))
        if m is None:
            break
        s, e = m.span()
        if s == e and e == last_end:
            pos = e + 1
            continue
        out.append((s, e))
        pos = last_end = e
    return out


# --------------------------------------------------------------------------- patterns

#: ``regex`` flags of a pattern Oniguruma reads: line anchors, and under (?i) full case folding ("ß"
#: matches "ss").
ONIGURUMA_FLAGS = regex.MULTILINE | regex.FULLCASE


def compile_pattern(pattern: str) -> Any:
    """Compile a user regex the way Hugging Face's Oniguruma reads it: ``^``/``$`` match at line
    boundaries, ``^`` never matches at the very end of the text (after a final newline), and ``(?i)``
    folds case fully (``ß`` matches ``ss``).
    An invalid pattern is a :class:`ConfigError` naming it.

    >>> [m.group() for m in compile_pattern("(?i)STRASSE").finditer("Straße")]
    ['Straße']
    """
    if not isinstance(pattern, str):
        raise ConfigError(f"a regular expression must be a str, got {type(pattern).__name__}")
    check_repeat_cost(pattern, where="Regex")
    try:
        return regex.compile(oniguruma_syntax(pattern), ONIGURUMA_FLAGS)
    except (regex.error, ValueError, OverflowError) as exc:
        raise ConfigError(f"invalid regular expression {pattern!r}: {exc}") from None
    except RecursionError:  # the parser recurses per group: hundreds of nested groups exhaust the stack
        raise ConfigError(f"regular expression {pattern[:60]!r}... nests its groups too deeply to compile; "
                          "flatten the groups") from None


_COUNTED = regex.compile(r"\{(\d*)(?:,(\d*))?\}")


def check_repeat_cost(pattern: str, *, where: str) -> None:
    """Refuse a regex whose counted repetitions multiply past ``toolkit.limits.MAX_REGEX_REPEAT``.

    Compiling unrolls ``{n}``/``{n,m}``: ``(?:a{65535}){65535}`` (20 characters) asks for about 10 GB.
    The cost is estimated statically, before compiling: an atom costs 1, a group the sum of its
    parts, and a counted repetition multiplies the cost of what it repeats by its largest count.

    >>> check_repeat_cost("(?:a{1000}){100}", where="x")
    >>> check_repeat_cost("(?:a{65535}){65535}", where="Split")
    Traceback (most recent call last):
    ...
    toolkit.errors.ConfigError: Split: the counted repetitions of '(?:a{65535}){65535}' multiply to 4,294,836,225 copies, more than the limit of 100,000 (toolkit.limits.MAX_REGEX_REPEAT); compiling it would take gigabytes: use + or * instead of large counts
    """
    if "{" not in pattern:
        return
    stack = [[0, 0]]  # per open group: [cost so far, cost of the last atom]
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        cost = 1
        if c == "\\":
            i += 2
            if i < n and pattern[i - 1] in "pPNxgk" and pattern[i] in "{<":
                close = pattern.find("}" if pattern[i] == "{" else ">", i)
                i = n if close == -1 else close + 1
        elif c == "[":
            i = _class_end(pattern, i)
        elif c == "(":
            stack.append([0, 0])
            i = _group_body(pattern, i + 1)
            continue
        elif c == ")" and len(stack) > 1:
            cost = max(stack.pop()[0], 1)
            i += 1
        elif c == "{" and (m := _COUNTED.match(pattern, i)) and (m.group(1) or m.group(2)):
            times = max(int(m.group(1) or 0), int(m.group(2) or 0))
            top = stack[-1]
            top[0] += top[1] * (times - 1)
            top[1] *= times
            i = m.end()
            continue
        else:
            i += 1
        top = stack[-1]
        top[0] += cost
        top[1] = cost
    total = sum(level[0] for level in stack)
    if total > limits.MAX_REGEX_REPEAT:
        raise ConfigError(
            f"{where}: the counted repetitions of {pattern[:60]!r} multiply to {total:,} copies, more than the "
            f"limit of {limits.MAX_REGEX_REPEAT:,} (toolkit.limits.MAX_REGEX_REPEAT); compiling it would take "
            "gigabytes: use + or * instead of large counts"
        )


def _group_body(pattern: str, j: int) -> int:
    """Skip a group's header after its ``(``: ``?:``, ``?=``, ``?P<name>``, ``?i:``... (not an atom)."""
    if not pattern.startswith("?", j):
        return j
    j += 1
    if pattern.startswith("P<", j) or (pattern.startswith("<", j) and pattern[j + 1 : j + 2] not in ("=", "!")):
        close = pattern.find(">", j)
        return len(pattern) if close == -1 else close + 1
    for header in ("<=", "<!", ":", "=", "!", ">", "|"):
        if pattern.startswith(header, j):
            return j + len(header)
    while j < len(pattern) and pattern[j] in "-^imsxaulLVbefrw":  # inline flags: (?i) or (?i:...)
        j += 1
    return j + 1 if pattern.startswith(":", j) else j


def _class_end(pattern: str, i: int) -> int:
    """The index after the character class starting at ``pattern[i] == "["``."""
    j = i + 1
    if j < len(pattern) and pattern[j] == "^":
        j += 1
    if j < len(pattern) and pattern[j] == "]":
        j += 1
    while j < len(pattern) and pattern[j] != "]":
        j += 2 if pattern[j] == "\\" else 1
    return j + 1


# Oniguruma's begin-of-line: the start of the text, or after a newline unless that is the end.
_BEGIN_LINE = r"(?:\A|^(?!\Z))"


# Oniguruma's \w: no joiners (ZWNJ, ZWJ), which regex's holds; outside a class also the Latin-1
# numbers ² ³ ¹ ¼ ½ ¾.
_WORD = r"\p{Alphabetic}\p{M}\p{Nd}\p{Pc}"
_WORD_LATIN1 = _WORD + r"\u00b2\u00b3\u00b9\u00bc-\u00be"

#: Oniguruma's escapes that Python's ``regex`` reads otherwise (``\\h`` is horizontal space there),
#: written as ``regex`` reads them: outside a character class, and inside one (``None``: as a nested
#: class of its own; inside a class Oniguruma reads ``\\N`` as the letter).
_ONIGURUMA_ESCAPES = {
    "h": ("[0-9a-fA-F]", "0-9a-fA-F"), "H": ("[^0-9a-fA-F]", None), "N": ("[^\\n]", "N"),
    "w": (f"[{_WORD_LATIN1}]", _WORD), "W": (f"[^{_WORD_LATIN1}]", None), "p{Word}": (f"[{_WORD_LATIN1}]", _WORD),
    "e": ("\\x1b", "\\x1b"),
}
# Outside a class only: Oniguruma's word boundaries (its word characters, not regex's, which hold the
# joiners) and its \Z (the end, or before a final newline; regex's \Z is the very end).
_WORD_CHAR = f"[{_WORD_LATIN1}]"
_ANCHORS = {
    "b": f"(?:(?<={_WORD_CHAR})(?!{_WORD_CHAR})|(?<!{_WORD_CHAR})(?={_WORD_CHAR}))",
    "B": f"(?:(?<={_WORD_CHAR})(?={_WORD_CHAR})|(?<!{_WORD_CHAR})(?!{_WORD_CHAR}))",
    "Z": "(?=\\n?\\Z)",
}
# An inline flag group: Oniguruma's (Ruby syntax) "m" is regex's "s" (dot matches a newline).
_FLAGS = regex.compile(r"\(\?[imx]*(?:-[imx]*)?[:)]")
#: What makes a pattern need :func:`oniguruma_syntax` at all.
_REWRITTEN = regex.compile(r"[\^\[]|\\[hHNwWebBZc]|\\x\{|\\p\{Word\}|\(\?[imx]*-?[imx]*[:)]")


def _spelled_escape(escape: str) -> str | None:
    """``regex``'s spelling of an escape it lacks or reads otherwise: ``\\x{263a}``, ``\\cA``."""
    if escape.startswith("\\x{") and escape.endswith("}"):
        digits = escape[3:-1]
        if digits and len(digits) <= 8 and all(c in "0123456789abcdefABCDEF" for c in digits):
            return f"\\U{int(digits, 16):08x}" if int(digits, 16) <= 0x10FFFF else None
    if len(escape) == 3 and escape.startswith("\\c") and escape[2].isascii():
        return f"\\x{ord(escape[2]) & 0x1F:02x}"
    return None
#: Inside a class, the escapes above spelled ``None`` there: a nested class of their own.
_NESTED_IN_CLASS = {"H": "[^0-9a-fA-F]", "W": f"[^{_WORD}]"}


def _escape_end(pattern: str, i: int) -> int:
    """The index after the escape at ``pattern[i] == "\\"`` (``\\p{L}``, ``\\x{41}``, ``\\k<n>``,
    ``\\cA``: whole)."""
    j = i + 2
    if j < len(pattern) and pattern[i + 1] in "pPxNgk" and pattern[j] in "{<":
        close = pattern.find("}" if pattern[j] == "{" else ">", j)
        return len(pattern) if close == -1 else close + 1
    if j < len(pattern) and pattern[i + 1] == "c":
        return j + 1
    return j


def _oniguruma_class(pattern: str, i: int) -> tuple[str, int]:
    """The character class at ``pattern[i] == "["`` as ``regex`` reads Oniguruma's, and the index after it.

    A plain class stays a class, its Oniguruma escapes (``\\h``, ``\\w``) spelled out and a short negated
    one listed twice. Oniguruma's nested classes (``[a[bc]]``, a union), intersections (``[a-z&&[^aeiou]]``,
    the loosest operator, an empty side the empty set) and ``\\H``/``\\W`` inside a class become
    one-character expressions: a lookahead per member of a union, and per ``&&`` operand but the last,
    then ``[\\s\\S]``; ``(?:(?!...)[\\s\\S])`` for a negated class. A range up to a class
    (``[a-[bc]]``, whose start Oniguruma drops) is a :class:`ConfigError`.
    """
    n = len(pattern)
    j = i + 1
    negated = pattern.startswith("^", j)
    j += negated
    own: list[str] = []
    # what the last item was, for "x-[...]": a range whose end is a class ("char", "-" after a char)
    last: str | None = None
    if pattern.startswith("]", j):  # a "]" first in the class is a literal
        own.append("\\]")
        last = "char"
        j += 1
    nested: list[str] = []
    operands: list[tuple[str, list[str]]] = []
    while j < n and pattern[j] != "]":
        c = pattern[j]
        if c == "\\":
            k = _escape_end(pattern, j)
            spelled = _ONIGURUMA_ESCAPES.get(pattern[j + 1 : k], ())
            last = "set" if pattern[j + 1 : j + 2] in "dDwWsShHpP" else "range" if last == "-" else "char"
            if spelled == ():
                own.append(_spelled_escape(pattern[j:k]) or pattern[j:k])
            elif spelled[1] is None:
                nested.append(_NESTED_IN_CLASS[pattern[j + 1]])
            else:
                own.append(spelled[1])
            j = k
        elif pattern.startswith("[:", j) and pattern.find(":]", j + 2) != -1:
            k = pattern.index(":]", j + 2) + 2  # a POSIX class such as [:alpha:]
            own.append(pattern[j:k])
            last = "set"
            j = k
        elif c == "[":
            if last == "-":
                raise ConfigError(
                    f"a range up to a character class ({pattern[j - 2 : j + 1]}...) has no equivalent here "
                    "(Oniguruma drops its start); escape the dash (\\-) or move it last"
                )
            expr, j = _oniguruma_class(pattern, j)
            nested.append(expr)
            last = "set"
        elif pattern.startswith("&&", j):
            operands.append(("".join(own), nested))
            own, nested = [], []
            last = None
            j += 2
        else:
            own.append(c)
            last = "-" if c == "-" and last == "char" else "range" if last == "-" else "char"
            j += 1
    if j >= n:  # unterminated: left for the compiler to report
        return pattern[i:], n
    end = j + 1
    if not operands and not nested:
        items = "".join(own)
        if negated and "-" not in items and len(items) <= 12:
            # A one-character negation listed twice (same set): regex 2026.11 reads "[^a]|[^b]" as
            # "[^ab]" (it finds only "x" in "abx"), not "[^aa]|[^bb]".
            items += items
        return f"[{'^' if negated else ''}{items}]", end
    operands.append(("".join(own), nested))
    sets = []
    for items, classes in operands:
        if items.startswith("^"):  # a "^" after a nested class, now first: a literal, not a negation
            items = "\\" + items
        parts = ([f"[{items}]"] if items else []) + classes
        # A union as lookaheads, not as "[^a]|[^b]": regex 2026.11 reads that alternation of negated
        # sets as their intersection (it finds only "x" in "abx").
        sets.append("(?!)" if not parts else parts[0] if len(parts) == 1
                    else f"(?:{'|'.join(f'(?={q})' for q in parts)})[\\s\\S]")
    one = "".join(f"(?={q})" for q in sets[:-1]) + sets[-1]
    return (f"(?:(?!{one})[\\s\\S])" if negated else f"(?:{one})"), end


def oniguruma_syntax(pattern: str) -> str:
    """Rewrite each ``^`` anchor (outside character classes) into Oniguruma's begin-of-line, and
    Oniguruma's ``\\h``, ``\\H``, ``\\N``, ``\\w``, ``\\W``, ``\\p{Word}``, ``\\b``, ``\\B``, ``\\Z``,
    ``\\e``, ``\\cX``, ``\\x{...}`` and the inline flag ``m`` into what they mean there (hex digit, not
    one, not a newline, its word characters, the others, its word boundaries, the end or before a final
    newline, escape, control characters, a code point, dot matches a newline); character classes as
    :func:`_oniguruma_class` reads them.

    >>> oniguruma_syntax(r"(?m).\\Z")
    '(?s).(?=\\\\n?\\\\Z)'
    """
    if not _REWRITTEN.search(pattern):
        return pattern
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            j = _escape_end(pattern, i)
            name = pattern[i + 1 : j]
            spelled = _ONIGURUMA_ESCAPES.get(name)
            out.append(spelled[0] if spelled is not None else _ANCHORS.get(name) or _spelled_escape(pattern[i:j])
                       or pattern[i:j])
            i = j
        elif c == "(" and (flags := _FLAGS.match(pattern, i)) is not None:
            out.append(flags.group().replace("m", "s"))
            i = flags.end()
        elif c == "[":
            expr, i = _oniguruma_class(pattern, i)
            out.append(expr)
        else:
            out.append(_BEGIN_LINE if c == "^" else c)
            i += 1
    return "".join(out)


class Regex:
    """A regular-expression pattern, to tell ``Replace`` (the normalizer and the decoder) and the
    ``Split`` pre-tokenizer that the pattern is a regex rather than a literal string (as ``tokenizers.Regex``).

    Patterns use the :mod:`regex` module's syntax; ``^`` and ``$`` match at line boundaries as in
    Hugging Face. In JSON a regex pattern is written ``{"Regex": "..."}`` and a literal one
    ``{"String": "..."}``.

    >>> from toolkit.normalizers import Replace
    >>> Replace(Regex(r"\\s+"), " ").normalize_str("a \\t\\n b")
    'a b'
    """

    __slots__ = ("pattern", "compiled")

    def __init__(self, pattern: str) -> None:
        # Immutable, as HF's: components compiled it already, and it hashes by its pattern.
        object.__setattr__(self, "compiled", compile_pattern(pattern))
        object.__setattr__(self, "pattern", pattern)

    def __setattr__(self, name: str, value: Any) -> None:
        raise ConfigError(
            "a Regex cannot be changed: the components built with it keep the old pattern; assign a new "
            "Regex to the component's pattern option instead (split.pattern = Regex(...))"
        )

    def __delattr__(self, name: str) -> None:
        self.__setattr__(name, None)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Regex, (self.pattern,))

    def __copy__(self) -> Regex:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Regex:
        return self

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Regex) and other.pattern == self.pattern

    def __hash__(self) -> int:
        return hash(("Regex", self.pattern))

    def __repr__(self) -> str:
        return f"Regex({self.pattern!r})"


def parse_pattern(value: Any) -> str | Regex:
    """A ``Replace`` or ``Split`` pattern from its Python or JSON form: ``"lit"``, ``Regex("re")``,
    ``{"String": "lit"}`` or ``{"Regex": "re"}``.

    >>> parse_pattern({"String": "a.b"}), parse_pattern({"Regex": "[0-9]+"}).pattern
    ('a.b', '[0-9]+')
    """
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
    """The JSON form of a ``Replace`` or ``Split`` pattern (the same as Hugging Face's).

    >>> pattern_to_json("a.b"), pattern_to_json(Regex("[0-9]+"))
    ({'String': 'a.b'}, {'Regex': '[0-9]+'})
    """
    return {"Regex": pattern.pattern} if isinstance(pattern, Regex) else {"String": pattern}


# --------------------------------------------------------------------------- Replace

def replace_all(pattern: str | Regex, content: str, text: str) -> str:
    """Replace every match of a ``Replace`` pattern in ``text`` (Hugging Face's matching rules).

    >>> replace_all(Regex("a*"), "-", "baab")
    '-b-b-'
    """
    if not text:
        return text  # Hugging Face leaves empty text alone, even for patterns matching ""
    if isinstance(pattern, str) and pattern:
        if len(content) > len(pattern):  # check the size before building a text that may be huge
            _check_replaced_size(len(text) + text.count(pattern) * (len(content) - len(pattern)))
        return text.replace(pattern, content)  # leftmost, non-overlapping: the same as the regex path
    spans = _replace_spans(pattern, text)
    _check_replaced_size(len(text) + sum(len(content) - (e - s) for s, e in spans))
    parts: list[str] = []
    pos = 0
    for s, e in spans:
        parts.append(text[pos:s])
        parts.append(content)
        pos = e
    parts.append(text[pos:])
    return "".join(parts)


def _replace_aligned(pattern: str | Regex, content: str, ns: NormalizedString) -> NormalizedString:
    """:func:`replace_all` on a normalized string: each replacement aligned to its whole match."""
    text = ns.normalized
    if not text:
        return ns
    if isinstance(pattern, str) and pattern and len(content) == len(pattern):
        # Every replacement has its match's length, so every character keeps its alignment (what
        # ``rewrite`` does with such segments): Gemma's " " -> "▁" at C speed.
        return NormalizedString(ns.original, text.replace(pattern, content), ns.alignments)
    segments: list[tuple[int, int, str]] = []
    pos = 0
    spans = _replace_spans(pattern, text)
    _check_replaced_size(len(text) + sum(len(content) - (e - s) for s, e in spans))
    for s, e in spans:
        if s > pos:
            segments.append((pos, s, text[pos:s]))
        segments.append((s, e, content))
        pos = e
    if not segments:
        return ns
    if pos < len(text):
        segments.append((pos, len(text), text[pos:]))
    return ns.rewrite(segments)


def _check_replaced_size(length: int) -> None:
    limits.check_normalized_size(length, where="Replace")


_LITERALS = BoundedCache(1000)  # literal Replace pattern -> its compiled, escaped regex


def _replace_spans(pattern: str | Regex, text: str) -> list[Span]:
    """The matches of a ``Replace`` pattern, under the regex guard.

    Only user regexes can backtrack catastrophically, so a :class:`Regex` runs under
    ``toolkit.limits.REGEX_TIMEOUT`` seconds per text (read now, so a program may raise it at any
    time); literal strings are searched in linear time, unguarded.
    """
    if not isinstance(pattern, Regex):
        compiled = _LITERALS.get(pattern) or _LITERALS.put(pattern, regex.compile(regex.escape(pattern)))
        return find_spans(compiled, text)
    timeout = limits.REGEX_TIMEOUT
    try:
        return find_spans(pattern.compiled, text, timeout)
    except TimeoutError:
        raise InputError(
            f"Replace pattern {pattern.pattern!r} took longer than {timeout:g} s on a text of {len(text)} "
            "characters (catastrophic backtracking?); simplify the pattern (avoid nested or overlapping "
            "quantifiers such as (a|a)+ or (a+)+) or split the text (toolkit.limits.REGEX_TIMEOUT)"
        ) from None
