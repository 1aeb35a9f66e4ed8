"""The BERT pre-tokenizer: split on whitespace, and make every punctuation character its own piece.

>>> BertPreTokenizer().split_text("Hello, world!! (ok)")
['Hello', ',', 'world', '!', '!', '(', 'ok', ')']
"""

from __future__ import annotations

import regex

from toolkit.alignment import Piece
from toolkit.interfaces import Params, PreTokenizer
from toolkit.registry import register

from pretokenizers._classes import PUNCTUATION
from pretokenizers._pieces import keep_matches

__all__ = ["BertPreTokenizer"]

# One punctuation character, or a run of characters that are neither whitespace nor punctuation.
_BERT_RE = regex.compile(rf"{PUNCTUATION}|[^\s{PUNCTUATION}]+", flags=regex.V1)


@register("BertPreTokenizer")
class BertPreTokenizer(PreTokenizer):
    """Whitespace is dropped; each punctuation character is isolated (Hugging Face semantics).

    Punctuation is ASCII punctuation (which includes symbols such as ``$ + < = > ^ ` | ~``) plus the
    Unicode P* categories, with HF's exact table (see :mod:`pretokenizers._classes`). Other symbols
    (``€``, ``©``, emoji) stay inside words.

    >>> BertPreTokenizer().pre_tokenize_str("a+b=c €5")
    [('a', (0, 1)), ('+', (1, 2)), ('b', (2, 3)), ('=', (3, 4)), ('c', (4, 5)), ('€5', (6, 8))]
    """

    class Params(Params):
        pass

    def __init__(self) -> None:
        pass

    def pre_tokenize(self, pieces: list[Piece]) -> list[Piece]:
        return keep_matches(_BERT_RE, pieces)

    def split_text(self, text: str) -> list[str]:
        return _BERT_RE.findall(text)
