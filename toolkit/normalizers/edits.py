"""Edits of the text: ``Strip``, ``Replace`` (literal or regex) and ``Prepend``.

>>> Strip().normalize_str("  hi  ")
'hi'
"""

from __future__ import annotations

from typing import Any

from pydantic import StrictBool, StrictStr, field_validator

from toolkit import limits
from toolkit.alignment import NormalizedString
from toolkit.interfaces import Normalizer, Params
from toolkit.registry import register

from toolkit.normalizers.patterns import Regex, _replace_aligned, parse_pattern, pattern_to_json, replace_all
from toolkit.normalizers.unicode import WHITESPACE

__all__ = ['Strip', 'Replace', 'Prepend', 'PatternReplacement']


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

    positional = ("left", "right")
    left: bool
    right: bool

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
    :class:`Regex`; ``{"String": ...}`` / ``{"Regex": ...}`` in JSON) and ``content``.

    >>> from toolkit.normalizers import Replace
    >>> Replace(Regex(" +"), " ").normalize_str("a   b"), Replace("a", "b").to_dict()["pattern"]
    ('a b', {'String': 'a'})
    """

    class Params(Params):
        pattern: StrictStr | Regex | dict[str, Any]
        content: StrictStr

        @field_validator("pattern")
        @classmethod
        def _check_pattern(cls, value: Any) -> str | Regex:
            return parse_pattern(value)  # raises ConfigError (a ValueError) naming the pattern

    positional = ("pattern", "content")
    pattern: str | Regex
    content: str

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

    The prepended characters align to the first character's span, as in Hugging Face (a token made
    of the prefix alone, Llama's ``▁`` before a newline, has the offsets of that character).

    >>> Prepend("▁").normalize_str("hey"), Prepend("▁").normalize_str("")
    ('▁hey', '')
    """

    class Params(Params):
        prepend: StrictStr

    positional = ("prepend",)
    prepend: str

    def normalize(self, text: NormalizedString) -> NormalizedString:
        n = len(text.normalized)
        if not n or not self.prepend:
            return text
        limits.check_normalized_size(n + len(self.prepend), where="Prepend")
        first = text.normalized[0]
        return text.rewrite([(0, 1, self.prepend + first), (1, n, text.normalized[1:])])

    def normalize_str(self, text: str) -> str:
        if not text:
            return text
        limits.check_normalized_size(len(text) + len(self.prepend), where="Prepend")
        return self.prepend + text
