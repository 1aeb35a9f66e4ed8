"""The :class:`Punctuation` pre-tokenizer: split at punctuation characters, with a chosen behaviour.

>>> Punctuation().split_text("Hi!! (you)")
['Hi', '!', '!', ' ', '(', 'you', ')']
>>> Punctuation(behavior="contiguous").split_text("Hi!! (you)")
['Hi', '!!', ' ', '(', 'you', ')']
"""

from __future__ import annotations

import regex

from toolkit.alignment import Piece
from toolkit.interfaces import Params, PreTokenizer
from toolkit.normalizers.patterns import find_spans
from toolkit.registry import register

from pretokenizers._classes import PUNCTUATION
from pretokenizers._pieces import split_pieces
from pretokenizers.split import BehaviorOption, apply_behavior, segments

__all__ = ["Punctuation"]

_PUNCT_RE = regex.compile(PUNCTUATION, flags=regex.V1)  # each punctuation character is one match
_ISOLATED_RE = regex.compile(rf"{PUNCTUATION}|[^{PUNCTUATION}]+", flags=regex.V1)


@register("Punctuation")
class Punctuation(PreTokenizer):
    """Split at every punctuation character (HF's definition, as :class:`BertPreTokenizer`).

    Each punctuation character is one delimiter; ``behavior`` (one of ``"removed"``, ``"isolated"``,
    ``"merged_with_previous"``, ``"merged_with_next"``, ``"contiguous"``) says what becomes of it.
    Whitespace is kept (it is not punctuation).

    >>> Punctuation(behavior="merged_with_previous").pre_tokenize_str("Hi, you")
    [('Hi,', (0, 3)), (' you', (3, 7))]
    """

    positional = ("behavior",)  # Hugging Face's argument order

    class Params(Params):
        behavior: BehaviorOption = "isolated"

    behavior: str

    def _spans(self, text: str) -> list[tuple[int, int]]:
        return apply_behavior(segments(find_spans(_PUNCT_RE, text), len(text)), self.behavior)

    def pre_tokenize(self, pieces: list[Piece]) -> list[Piece]:
        return split_pieces(pieces, self._spans)

    def split_text(self, text: str) -> list[str]:
        if self.behavior == "isolated":
            return _ISOLATED_RE.findall(text)
        return [text[s:e] for s, e in self._spans(text)]
