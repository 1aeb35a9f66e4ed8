"""Patterns as Hugging Face reads them: ``Regex``, literal strings, Oniguruma's matching rules.

Shared by the ``Replace`` normalizer and decoder. HF files use Oniguruma syntax: ``^``/``$`` match at
line boundaries, and an empty match right where the previous match ended is skipped (the search moves
on one character). User regexes run under the time budget ``toolkit.limits.REGEX_TIMEOUT``.

>>> replace_all(Regex("a*"), "-", "baab")
'-b-b-'
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from typing import Any

import regex

from toolkit import limits
from toolkit.alignment import NormalizedString
from toolkit.cache import BoundedCache
from toolkit.errors import ConfigError, InputError

__all__ = ['Regex', 'compile_pattern', 'replace_all', 'parse_pattern', 'pattern_to_json']


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

    >>> from toolkit.normalizers import Replace
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


# Compiled literal patterns (only the empty literal and aligned replacement go through a regex).
_LITERAL_CACHE: BoundedCache = BoundedCache(1000)


def _timeout(pattern: str | Regex) -> float | None:
    # Only user regexes can backtrack catastrophically; literal strings are searched in linear time.
    return limits.REGEX_TIMEOUT if isinstance(pattern, Regex) else None


def _compiled(pattern: str | Regex) -> Any:
    if isinstance(pattern, Regex):
        return pattern.compiled
    compiled = _LITERAL_CACHE.get(pattern)
    if compiled is None:
        compiled = _LITERAL_CACHE.put(pattern, regex.compile(regex.escape(pattern)))
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
