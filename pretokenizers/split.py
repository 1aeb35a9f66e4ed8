"""Regex splitting with Hugging Face's five delimiter behaviours, and the :class:`Split` pre-tokenizer.

Splitting a piece with a pattern first lists its segments, in order: every match of the pattern and
every stretch of text between two matches (a "gap"); ``invert`` swaps which segments count as matches.
The behaviour then decides what becomes of the matches:

==========================  =====================================================================
``"removed"``               matches are dropped; gaps are the pieces (the only lossy behaviour)
``"isolated"``              every match and every gap is its own piece
``"merged_with_previous"``  a match is glued to the end of the piece before it
``"merged_with_next"``      a match is glued to the start of the piece after it
``"contiguous"``            consecutive matches form one piece; gaps are pieces
==========================  =====================================================================

(for the two merge behaviours, a match that directly follows another match starts a new piece, as in
HF). Empty pieces are never produced. Empty matches follow Oniguruma's iteration rule (HF's regex
engine): an empty match right where the previous match ended is skipped, and the search moves on by
one character.

Patterns use the syntax of the ``regex`` module (Python's ``re`` plus ``\\p{..}``, possessive
quantifiers...). Hugging Face files use Oniguruma (Ruby) syntax, which differs in a few places: there
``^``/``$`` always match at line boundaries, ``(?m)`` means "dot matches newline", ``{n,m}+`` repeats
the interval instead of being possessive (so cl100k's ``\\p{N}{1,3}+`` keeps whole digit runs in HF),
and ``\\w`` also covers ``²³¹¼½¾`` but not the joiners ZWNJ/ZWJ.

>>> Split(r"\\d+").pre_tokenize_str("ab12cd")
[('ab', (0, 2)), ('12', (2, 4)), ('cd', (4, 6))]
>>> Split("-", behavior="merged_with_previous", literal=True).split_text("a-b--c")
['a-', 'b-', '-', 'c']
"""

from __future__ import annotations

import time
from typing import Any, Literal, get_args

import regex
from pydantic import field_validator

from toolkit.alignment import Piece
from toolkit.errors import ConfigError, InputError
from toolkit.interfaces import Params, PreTokenizer
from toolkit.limits import REGEX_TIMEOUT
from toolkit.registry import register

from pretokenizers._pieces import split_pieces
from pretokenizers.patterns import HF_GPT2_PATTERN, NAMED_PATTERNS

__all__ = [
    "Split",
    "Behavior",
    "BEHAVIORS",
    "DEFAULT_TIMEOUT",
    "normalize_behavior",
    "find_spans",
    "segments",
    "apply_behavior",
]

Behavior = Literal["removed", "isolated", "merged_with_previous", "merged_with_next", "contiguous"]
#: The five behaviour names, in the spelling the Python API and our JSON use.
BEHAVIORS: tuple[str, ...] = get_args(Behavior)
# Hugging Face's tokenizer.json spelling, accepted as an alias.
_HF_BEHAVIORS = {
    "Removed": "removed",
    "Isolated": "isolated",
    "MergedWithPrevious": "merged_with_previous",
    "MergedWithNext": "merged_with_next",
    "Contiguous": "contiguous",
}

#: Seconds a user-supplied pattern may spend on one text before :class:`InputError` is raised
#: (``toolkit.limits.REGEX_TIMEOUT``, the one place the toolkit's limits are set).
DEFAULT_TIMEOUT: float = REGEX_TIMEOUT

# Patterns shipped with the toolkit: linear-time, so they run without the timeout guard (the guard
# costs the ``regex`` module about half a microsecond per match, 2-6x on ordinary text).
_TRUSTED_PATTERNS = frozenset(NAMED_PATTERNS.values()) | {HF_GPT2_PATTERN}

Span = tuple[int, int]
Segment = tuple[int, int, bool]


def normalize_behavior(value: Any, *, where: str = "behavior") -> str:
    """Return the canonical behaviour name; HF's ``"MergedWithNext"`` spelling is accepted too.

    >>> normalize_behavior("Isolated")
    'isolated'
    """
    if isinstance(value, str):
        if value in BEHAVIORS:
            return value
        if value in _HF_BEHAVIORS:
            return _HF_BEHAVIORS[value]
    raise ConfigError(f"{where}: unknown behavior {value!r}; expected one of {', '.join(BEHAVIORS)}")


def _timeout_kwargs(deadline: float | None) -> dict[str, float]:
    if deadline is None:
        return {}
    return {"timeout": max(deadline - time.monotonic(), 1e-6)}


def find_spans(compiled: regex.Pattern[str], text: str, timeout: float | None = None) -> list[Span]:
    """The ``(start, end)`` spans of the matches of ``compiled`` in ``text``, in order.

    Matches are found like Oniguruma's iterator (so like Hugging Face): an empty match that starts
    where the previous match ended is skipped and the search resumes one character later. Python's
    own iteration differs only around empty matches, so the fast ``finditer`` result is used whenever
    it has none. ``timeout`` (seconds, for the whole text) raises ``TimeoutError``.

    >>> find_spans(regex.compile("a*"), "baab")
    [(0, 0), (1, 3), (4, 4)]
    """
    kwargs: dict[str, float] = {} if timeout is None else {"timeout": timeout}
    spans = [m.span() for m in compiled.finditer(text, **kwargs)]
    for s, e in spans:
        if s == e:
            break
    else:
        return spans
    deadline = None if timeout is None else time.monotonic() + timeout
    out: list[Span] = []
    pos, last_end, n = 0, -1, len(text)
    search = compiled.search
    while pos <= n:
        m = search(text, pos, **_timeout_kwargs(deadline))
        if m is None:
            break
        s, e = m.span()
        if s == e and e == last_end:
            pos = e + 1
            continue
        out.append((s, e))
        pos = last_end = e
    return out


def segments(spans: list[Span], length: int, *, invert: bool = False) -> list[Segment]:
    """Matches and the gaps between them as ``(start, end, is_match)``, covering ``0..length``.

    >>> segments([(1, 2)], 4)
    [(0, 1, False), (1, 2, True), (2, 4, False)]
    """
    out: list[Segment] = []
    prev = 0
    is_match = not invert
    for s, e in spans:
        if s != prev:
            out.append((prev, s, not is_match))
        out.append((s, e, is_match))
        prev = e
    if prev != length:
        out.append((prev, length, not is_match))
    return out


def apply_behavior(segs: list[Segment], behavior: str) -> list[Span]:
    """The non-empty piece spans that ``behavior`` makes of ``segs`` (HF semantics).

    >>> apply_behavior([(0, 1, False), (1, 2, True), (2, 3, True), (3, 4, False)], "merged_with_previous")
    [(0, 2), (2, 3), (3, 4)]
    """
    if behavior == "isolated":
        return [(s, e) for s, e, _ in segs if e > s]
    if behavior == "removed":
        return [(s, e) for s, e, m in segs if not m and e > s]
    out: list[list[int]] = []
    prev_match = False
    if behavior == "merged_with_previous":
        for s, e, m in segs:
            if m and not prev_match and out:
                out[-1][1] = e
            else:
                out.append([s, e])
            prev_match = m
    elif behavior == "merged_with_next":
        for s, e, m in reversed(segs):
            if m and not prev_match and out:
                out[-1][0] = s
            else:
                out.append([s, e])
            prev_match = m
        out.reverse()
    elif behavior == "contiguous":
        for s, e, m in segs:
            if m == prev_match and out:
                out[-1][1] = e
            else:
                out.append([s, e])
            prev_match = m
    else:
        raise ConfigError(f"unknown behavior {behavior!r}; expected one of {', '.join(BEHAVIORS)}")
    return [(s, e) for s, e in out if e > s]


@register("Split")
class Split(PreTokenizer):
    """Split on a regular expression (or a literal string) with one of HF's five behaviours.

    ``pattern`` is a ``regex``-module pattern (``literal=True``: a plain string to find). Text the
    pattern does not match still forms pieces (except with ``"removed"``), so splitting is lossless.
    ``invert=True`` splits on the complement: what the pattern does *not* match counts as the
    delimiter.

    User patterns run under a ``timeout`` (seconds per text; ``None`` disables it): a pattern that
    backtracks catastrophically raises :class:`~toolkit.errors.InputError` naming the pattern instead
    of hanging. Literal strings and the patterns shipped in :mod:`pretokenizers.patterns` cannot
    backtrack catastrophically and always run without the guard (it costs the ``regex`` module about
    half a microsecond per match).

    >>> Split(r"\\s+", behavior="removed").split_text("to  be or")
    ['to', 'be', 'or']
    >>> Split(r"\\w+", behavior="removed", invert=True).split_text("to, be!")
    ['to', 'be']
    >>> Split(",", behavior="merged_with_next", literal=True).pre_tokenize_str("a,b")
    [('a', (0, 1)), (',b', (1, 3))]
    """

    class Params(Params):
        pattern: str
        behavior: Behavior = "isolated"
        invert: bool = False
        literal: bool = False
        timeout: float | None = DEFAULT_TIMEOUT

        @field_validator("behavior", mode="before")
        @classmethod
        def _hf_spelling(cls, value: Any) -> Any:
            return _HF_BEHAVIORS.get(value, value) if isinstance(value, str) else value

        @field_validator("timeout")
        @classmethod
        def _positive(cls, value: float | None) -> float | None:
            if value is not None and not value > 0:
                raise ValueError("must be a positive number of seconds, or null for no timeout")
            return value

    def __init__(
        self,
        pattern: str,
        *,
        behavior: Behavior = "isolated",
        invert: bool = False,
        literal: bool = False,
        timeout: float | None = DEFAULT_TIMEOUT,
    ) -> None:
        if not isinstance(pattern, str):
            raise ConfigError(
                f"Split pattern must be a string (a regex, or literal text with literal=True), "
                f"got {type(pattern).__name__}"
            )
        if timeout is not None and (
            isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0
        ):
            raise ConfigError(f"Split timeout must be a positive number of seconds or None, got {timeout!r}")
        self.pattern = pattern
        self.behavior = normalize_behavior(behavior, where="Split behavior")
        self.invert = bool(invert)
        self.literal = bool(literal)
        self.timeout = None if timeout is None else float(timeout)
        if self.literal:
            self._regex = regex.compile(regex.escape(pattern))
        else:
            try:
                self._regex = regex.compile(pattern)
            except regex.error as exc:
                raise ConfigError(f"Split pattern {pattern!r} is not a valid regular expression: {exc}") from None
        trusted = self.literal or pattern in _TRUSTED_PATTERNS
        self._timeout_kw: dict[str, float] = {} if trusted or self.timeout is None else {"timeout": self.timeout}
        # findall/split return only whole matches and gaps when the pattern has no groups.
        self._no_groups = self._regex.groups == 0

    # ------------------------------------------------------------------ matching
    def _timeout_error(self, text: str) -> InputError:
        return InputError(
            f"Split pattern {self.pattern!r} took longer than {self.timeout} s on a text of {len(text)} "
            "characters (catastrophic backtracking?); simplify the pattern (avoid nested or overlapping "
            "quantifiers such as (a|a)+ or (a+)+), split the text, or raise the Split timeout"
        )

    def _spans(self, text: str) -> list[Span]:
        """Matches (Oniguruma iteration), with the timeout turned into an :class:`InputError`."""
        try:
            return find_spans(self._regex, text, self._timeout_kw.get("timeout"))
        except TimeoutError:
            raise self._timeout_error(text) from None

    def piece_spans(self, text: str) -> list[Span]:
        """Spans of the pieces ``text`` is cut into.

        >>> Split("a", behavior="contiguous").piece_spans("baab")
        [(0, 1), (1, 3), (3, 4)]
        """
        if not text:
            return []
        return apply_behavior(segments(self._spans(text), len(text), invert=self.invert), self.behavior)

    def pre_tokenize(self, pieces: list[Piece]) -> list[Piece]:
        return split_pieces(pieces, self.piece_spans)

    def split_text(self, text: str) -> list[str]:
        if not text:
            return []
        behavior = self.behavior
        if self._no_groups and behavior in ("isolated", "removed"):
            # C-speed paths: ``findall`` gives the matches, ``split`` the gaps between them. They
            # agree with Oniguruma's iteration whenever no match is empty.
            try:
                matches = self._regex.findall(text, **self._timeout_kw)
                if "" not in matches:
                    if behavior == "isolated":
                        if sum(map(len, matches)) == len(text):
                            return matches  # the matches tile the text
                        gaps = self._regex.split(text, **self._timeout_kw)
                        out = [gaps[0]] if gaps[0] else []
                        for match, gap in zip(matches, gaps[1:]):
                            out.append(match)
                            if gap:
                                out.append(gap)
                        return out
                    if self.invert:
                        return matches  # the gaps are the delimiters
                    return [gap for gap in self._regex.split(text, **self._timeout_kw) if gap]
            except TimeoutError:
                raise self._timeout_error(text) from None
        return [text[s:e] for s, e in self.piece_spans(text)]
