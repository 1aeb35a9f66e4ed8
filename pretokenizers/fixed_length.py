"""The :class:`FixedLength` pre-tokenizer: pieces of ``length`` characters (Hugging Face semantics).

>>> FixedLength(length=3).split_text("abcdefgh")
['abc', 'def', 'gh']
"""

from __future__ import annotations

from pydantic import Field, StrictInt

from toolkit.alignment import Piece, Span
from toolkit.interfaces import Params, PreTokenizer
from toolkit.registry import register

from pretokenizers._pieces import split_pieces

__all__ = ["FixedLength"]


@register("FixedLength")
class FixedLength(PreTokenizer):
    """Cut each piece into chunks of ``length`` characters (code points); the last one may be shorter.

    As Hugging Face ``pre_tokenizers.FixedLength`` (``length=5`` by default); nothing is dropped,
    spaces included. Lengths count characters, not bytes: ``é`` is one.

    >>> FixedLength().pre_tokenize_str("héllo wörld!")
    [('héllo', (0, 5)), (' wörl', (5, 10)), ('d!', (10, 12))]
    """

    class Params(Params):
        length: StrictInt = Field(5, ge=1)

    positional = ("length",)
    length: int

    def _spans(self, text: str) -> list[Span]:
        n, size = len(text), self.length
        return [(s, min(s + size, n)) for s in range(0, n, size)]

    def pre_tokenize(self, pieces: list[Piece]) -> list[Piece]:
        return split_pieces(pieces, self._spans)

    def split_text(self, text: str) -> list[str]:
        size = self.length
        return [text[s:s + size] for s in range(0, len(text), size)]
