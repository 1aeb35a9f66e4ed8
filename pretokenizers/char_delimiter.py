"""The :class:`CharDelimiterSplit` pre-tokenizer: split at one character, which is dropped (Hugging Face semantics).

>>> CharDelimiterSplit("|").split_text("a|b||c|")
['a', 'b', 'c']
"""

from __future__ import annotations

from pydantic import StrictStr, field_validator

from toolkit.alignment import Piece, Span
from toolkit.interfaces import Params, PreTokenizer
from toolkit.registry import register

from pretokenizers._pieces import split_pieces

__all__ = ["CharDelimiterSplit"]


@register("CharDelimiterSplit")
class CharDelimiterSplit(PreTokenizer):
    """Split each piece at every occurrence of ``delimiter`` (one character) and drop it.

    As Hugging Face ``pre_tokenizers.CharDelimiterSplit``: empty pieces (two delimiters in a row, a
    delimiter at either end) are not produced. ``Split(delimiter, behavior="removed")``
    cuts the same way.

    >>> CharDelimiterSplit("x").pre_tokenize_str("axxbx")
    [('a', (0, 1)), ('b', (3, 4))]
    """

    class Params(Params):
        delimiter: StrictStr

        @field_validator("delimiter")
        @classmethod
        def _one_char(cls, value: str) -> str:
            if len(value) != 1:
                raise ValueError(f"must be exactly one character, got {value!r}")
            return value

    positional = ("delimiter",)
    delimiter: str

    def _spans(self, text: str) -> list[Span]:
        spans: list[Span] = []
        start = 0
        d = self.delimiter
        while True:
            end = text.find(d, start)
            if end < 0:
                break
            if end > start:
                spans.append((start, end))
            start = end + 1
        if start < len(text):
            spans.append((start, len(text)))
        return spans

    def pre_tokenize(self, pieces: list[Piece]) -> list[Piece]:
        return split_pieces(pieces, self._spans)

    def split_text(self, text: str) -> list[str]:
        return [p for p in text.split(self.delimiter) if p]
