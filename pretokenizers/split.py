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

A ``str`` pattern is literal text and a :class:`~toolkit.normalizers.Regex` a regular expression, as in
Hugging Face (and our ``Replace``). Regexes use the syntax of the ``regex`` module (Python's ``re`` plus
``\\p{..}``, possessive quantifiers...). Hugging Face files use Oniguruma (Ruby) syntax, which differs
in a few places: there ``^``/``$`` always match at line boundaries, ``(?m)`` means "dot matches
newline", ``{n,m}+`` repeats the interval instead of being possessive (so cl100k's ``\\p{N}{1,3}+``
keeps whole digit runs in HF), and ``\\w`` also covers ``²³¹¼½¾`` but not the joiners ZWNJ/ZWJ.

>>> Split(Regex(r"\\d+")).pre_tokenize_str("ab12cd")
[('ab', (0, 2)), ('12', (2, 4)), ('cd', (4, 6))]
>>> Split("-", behavior="merged_with_previous").split_text("a-b--c")
['a-', 'b-', '-', 'c']
"""

from __future__ import annotations

from itertools import accumulate
from typing import Annotated, Any, Literal, get_args

import regex
from pydantic import (
    BeforeValidator,
    Field,
    StrictBool,
    StrictFloat,
    StrictStr,
    ValidationInfo,
    field_validator,
)
from pydantic_core import PydanticCustomError

from pretokenizers._pieces import split_pieces
from pretokenizers.patterns import HF_GPT2_PATTERN, NAMED_PATTERNS
from pretokenizers.pinned import PINNED_PATTERNS, DriftSwitch, compile_pinned, pin, pinned_classes
from toolkit import limits
from toolkit.alignment import Piece
from toolkit.errors import ConfigError, InputError
from toolkit.interfaces import Params, PreTokenizer
from toolkit.normalizers.patterns import (
    ONIGURUMA_FLAGS,
    Regex,
    check_repeat_cost,
    find_spans,
    oniguruma_syntax,
    parse_pattern,
    pattern_to_json,
)
from toolkit.registry import register
from toolkit.serialization import reading_untrusted

__all__ = [
    "BEHAVIORS",
    "DEFAULT_TIMEOUT",  # noqa: F822 (module __getattr__: the current limit)
    "Behavior",
    "BehaviorOption",
    "Split",
    "apply_behavior",
    "find_spans",
    "normalize_behavior",
    "segments",
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


def _hf_spelling(value: Any) -> Any:
    return _HF_BEHAVIORS.get(value, value) if isinstance(value, str) else value


#: The ``behavior`` option of :class:`Split` and :class:`~pretokenizers.Punctuation`: one of
#: :data:`BEHAVIORS`, HF's ``"MergedWithNext"`` spelling accepted.
BehaviorOption = Annotated[Behavior, BeforeValidator(_hf_spelling)]

# Patterns shipped with the toolkit: linear-time, so they run without the timeout guard (which costs
# the ``regex`` module time per match: docs/benchmarks.md, "Design measurements"), and a file may
# run them unguarded.
_TRUSTED_PATTERNS = frozenset(NAMED_PATTERNS.values()) | {HF_GPT2_PATTERN} | PINNED_PATTERNS

Span = tuple[int, int]
Segment = tuple[int, int, bool]


def __getattr__(name: str) -> Any:
    if name == "DEFAULT_TIMEOUT":  # Split's default timeout: the current toolkit.limits.REGEX_TIMEOUT
        return limits.REGEX_TIMEOUT
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def normalize_behavior(value: Any, *, where: str = "behavior") -> str:
    """Return the canonical behaviour name; HF's ``"MergedWithNext"`` spelling is accepted too.

    >>> normalize_behavior("Isolated")
    'isolated'
    """
    value = _hf_spelling(value)
    if isinstance(value, str) and value in BEHAVIORS:
        return value
    raise ConfigError(f"{where}: unknown behavior {value!r}; expected one of {', '.join(BEHAVIORS)}")


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


def _user_regex(pattern: Any) -> bool:
    """True for a regex that is not one of the shipped, linear-time patterns (it runs under the guard)."""
    return isinstance(pattern, Regex) and pattern.pattern not in _TRUSTED_PATTERNS


def _check_file_timeout(value: float | None, pattern: str) -> None:
    """The guard of a user pattern from an untrusted file: on, and at most ``limits.MAX_REGEX_TIMEOUT``."""
    cap = limits.MAX_REGEX_TIMEOUT
    if value is None:
        message = (
            f"null switches off the timeout that stops a catastrophic regex ({pattern!r}); a tokenizer file "
            f"from elsewhere may not do that. Set a timeout of at most {cap:g} s, or load a file your own "
            "code wrote with trusted=True"
        )
    elif value > cap:
        message = (
            f"{value:g} s is more than the limit of {cap:g} s (toolkit.limits.MAX_REGEX_TIMEOUT) for a regex "
            "from a tokenizer file; lower it, or load a file your own code wrote with trusted=True"
        )
    else:
        return
    # The message goes in the context: a template would read the braces of the pattern as fields.
    raise PydanticCustomError("regex_guard", "{message}", {"message": message})


def _named_as_literal(text: str) -> str | None:
    """The name of the shipped regex that ``text`` spells, if any (passing one as a ``str`` is a mistake)."""
    for name, value in NAMED_PATTERNS.items():
        if text == value:
            return f"{name.upper()}_PATTERN"
    return "HF_GPT2_PATTERN" if text == HF_GPT2_PATTERN else None


def _check_split_pattern(value: Any) -> str | Regex:
    """A ``Split`` pattern from its Python or JSON form (see :func:`~toolkit.normalizers.patterns.parse_pattern`)."""
    pattern = parse_pattern(value)
    if isinstance(pattern, str) and (name := _named_as_literal(pattern)):
        raise ConfigError(
            f"the {name} regex given as a str, which Split reads as literal text (as Hugging Face does); "
            f"pass Regex({name}) to split with the regex"
        )
    return pattern


@register("Split")
class Split(PreTokenizer):
    """Split on a literal string or a regular expression with one of HF's five behaviours.

    ``pattern`` is literal text when it is a ``str`` and a regular expression when it is a
    :class:`~toolkit.normalizers.Regex` (``regex``-module syntax), as in Hugging Face; in JSON it is
    ``{"String": "..."}`` or ``{"Regex": "..."}``. Text the pattern does not match still forms pieces
    (except with ``"removed"``), so splitting is lossless. ``invert=True`` splits on the complement:
    what the pattern does *not* match counts as the delimiter.

    User regexes run under a ``timeout`` (seconds per text; ``None`` disables it; the default is
    ``toolkit.limits.REGEX_TIMEOUT`` when the Split is made): a pattern that backtracks
    catastrophically raises :class:`~toolkit.errors.InputError` naming the pattern instead of
    hanging. Literal strings and the patterns shipped in :mod:`pretokenizers.patterns` cannot
    backtrack catastrophically and always run without the guard. A tokenizer file that is not
    trusted may neither switch the guard off for a user regex nor set it above
    ``toolkit.limits.MAX_REGEX_TIMEOUT``.

    >>> Split(Regex(r"\\s+"), behavior="removed").split_text("to  be or")
    ['to', 'be', 'or']
    >>> Split(Regex(r"\\w+"), behavior="removed", invert=True).split_text("to, be!")
    ['to', 'be']
    >>> Split(",", behavior="merged_with_next").pre_tokenize_str("a,b")
    [('a', (0, 1)), (',b', (1, 3))]
    >>> Split(".").split_text("a.b"), Split(Regex(".")).split_text("a.b")
    (['a', '.', 'b'], ['a', '.', 'b'])
    """

    positional = ("pattern", "behavior", "invert")  # Hugging Face's argument order

    class Params(Params):
        pattern: StrictStr | Regex | dict[str, Any]
        behavior: BehaviorOption = "isolated"
        invert: StrictBool = False
        timeout: StrictFloat | None = Field(default_factory=lambda: limits.REGEX_TIMEOUT)

        @field_validator("pattern")
        @classmethod
        def _check_pattern(cls, value: Any) -> str | Regex:
            return _check_split_pattern(value)  # raises ConfigError (a ValueError) naming the problem

        @field_validator("timeout")
        @classmethod
        def _guard(cls, value: float | None, info: ValidationInfo) -> float | None:
            if value is not None and not value > 0:
                raise PydanticCustomError("timeout", "must be a positive number of seconds, or null for no timeout")
            pattern = info.data.get("pattern")  # absent when the pattern itself was invalid
            if _user_regex(pattern) and reading_untrusted():
                _check_file_timeout(value, pattern.pattern)
            return value

    pattern: str | Regex
    behavior: str
    invert: bool
    timeout: float | None

    def params(self) -> dict[str, Any]:
        return {**super().params(), "pattern": pattern_to_json(self.pattern)}

    @property
    def regex_text(self) -> str | None:
        """The regular expression's text, or ``None`` for a literal pattern.

        >>> Split(Regex("a+")).regex_text, Split("a+").regex_text
        ('a+', None)
        """
        return self.pattern.pattern if isinstance(self.pattern, Regex) else None

    def _configure(self) -> None:
        text = self.regex_text
        self._switch: DriftSwitch | None = None
        if text is None:
            self._regex = regex.compile(regex.escape(self.pattern))
        elif text in PINNED_PATTERNS:  # Unicode classes pinned to tiktoken's / HF's tables, on ``re``
            self._regex = compile_pinned(text)
        else:
            if text not in _TRUSTED_PATTERNS:
                check_repeat_cost(text, where=f"{self._where()}.pattern")
            # Compiled by Regex as Hugging Face's Oniguruma reads it (line anchors, \h, \N), as for Replace;
            # a text holding a character whose class the pinned tables see otherwise takes the pinned twin.
            self._regex = self.pattern.compiled
            classes = pinned_classes(text)
            exact = pin(oniguruma_syntax(text)) if classes else None
            if exact is not None:
                self._switch = DriftSwitch(self._regex, exact, classes, ONIGURUMA_FLAGS)
        self._timeout = self.timeout if _user_regex(self.pattern) else None  # the guard, for user regexes only
        self._timeout_kw: dict[str, float] = {} if self._timeout is None else {"timeout": self._timeout}
        # findall/split return only whole matches and gaps when the pattern has no groups.
        self._no_groups = self._regex.groups == 0
        #: split_text gives the pieces at C speed (findall), in order, and they should tile the text: always
        #: for "isolated", and for the matches kept by "removed" + invert when they cover it (GPT-4o's).
        self._tiles = self._no_groups and (self.behavior == "isolated" or (self.behavior == "removed" and self.invert))

    def scanner(self) -> tuple[Any, None, bool] | None:
        """The pinned scanner when this Split keeps exactly the matches of a named pattern that tiles any text.

        >>> from pretokenizers import CL100K_PATTERN
        >>> Split(Regex(CL100K_PATTERN)).scanner()[0].findall("ab 1234")
        ['ab', ' ', '123', '4']
        """
        keeps_matches = (self.behavior, self.invert) in (("isolated", False), ("removed", True))
        if self.regex_text not in PINNED_PATTERNS or not keeps_matches:
            return None
        return self._regex, None, False

    # ------------------------------------------------------------------ matching
    def _timeout_error(self, text: str) -> InputError:
        return InputError(
            f"Split pattern {self.regex_text!r} took longer than {self.timeout} s on a text of {len(text)} "
            "characters (catastrophic backtracking?); simplify the pattern (avoid nested or overlapping "
            "quantifiers such as (a|a)+ or (a+)+), split the text, or raise the Split timeout"
        )

    def _regex_for(self, text: str) -> Any:
        """The compiled pattern for ``text``: pinned to HF's Unicode tables when ``text`` holds a character
        they classify otherwise than the installed ``regex`` (docs/interop.md), else the fast one."""
        return self._regex if self._switch is None else self._switch.for_text(text)

    def _spans(self, text: str) -> list[Span]:
        """Matches (Oniguruma iteration), with the timeout turned into an :class:`InputError`."""
        try:
            return find_spans(self._regex_for(text), text, self._timeout)
        except TimeoutError:
            raise self._timeout_error(text) from None

    def piece_spans(self, text: str) -> list[Span]:
        """Spans of the pieces ``text`` is cut into.

        >>> Split(Regex("a"), behavior="contiguous").piece_spans("baab")
        [(0, 1), (1, 3), (3, 4)]
        """
        if not text:
            return []
        return apply_behavior(segments(self._spans(text), len(text), invert=self.invert), self.behavior)

    def pre_tokenize(self, pieces: list[Piece]) -> list[Piece]:
        return split_pieces(pieces, self.piece_spans)

    def split_slices(self, text: str) -> tuple[list[str], list[int], None]:
        """The pieces, each a slice of ``text``, with their starts (``PreTokenizer.split_slices``):
        ``Tokenizer.encode`` then takes each piece's tokens from a cache.

        >>> Split(Regex(" "), "removed").split_slices("ab cd")
        (['ab', 'cd'], [0, 3], None)
        """
        if self._tiles:
            pieces = self.split_text(text)
            starts = list(accumulate(map(len, pieces), initial=0))
            if starts.pop() == len(text):  # the pieces tile the text, in order
                return pieces, starts, None
        spans = self.piece_spans(text)
        return [text[s:e] for s, e in spans], [s for s, _ in spans], None

    def split_text(self, text: str) -> list[str]:
        if not text:
            return []
        if self._no_groups and self.behavior in ("isolated", "removed"):
            try:
                fast = self._split_fast(text)
            except TimeoutError:
                raise self._timeout_error(text) from None
            if fast is not None:
                return fast
        return [text[s:e] for s, e in self.piece_spans(text)]

    def _split_fast(self, text: str) -> list[str] | None:
        """``isolated``/``removed`` at C speed: ``findall`` gives the matches, ``split`` the gaps
        between them. They agree with Oniguruma's iteration whenever no match is empty (else None)."""
        compiled, kw = self._regex_for(text), self._timeout_kw
        matches = compiled.findall(text, **kw)
        if not matches:  # text is not empty: one piece, or none when the matches were to be kept alone
            return [] if self.behavior == "removed" and self.invert else [text]
        if "" in matches:
            return None
        if self.behavior == "removed":
            if self.invert:
                return matches  # the gaps are the delimiters
            return [gap for gap in compiled.split(text, **kw) if gap]
        if sum(map(len, matches)) == len(text):
            return matches  # the matches tile the text
        gaps = compiled.split(text, **kw)
        out = [gaps[0]] if gaps[0] else []
        for match, gap in zip(matches, gaps[1:]):
            out.append(match)
            if gap:
                out.append(gap)
        return out
