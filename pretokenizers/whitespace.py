"""Whitespace-based pre-tokenizers: :class:`Whitespace` (words and symbol runs) and :class:`WhitespaceSplit`.

Both drop the whitespace itself. "Whitespace" means the 25 Unicode ``White_Space`` characters (space,
tab, newlines, NBSP, U+2028...), as in Hugging Face; Python's ``str.split()`` would also cut at the
control characters U+001C..U+001F, which are not whitespace here.

>>> Whitespace().split_text("Hello, y'all!")
['Hello', ',', 'y', "'", 'all', '!']
>>> WhitespaceSplit().split_text("Hello, y'all!")
['Hello,', "y'all!"]
"""

from __future__ import annotations

import regex

from toolkit.alignment import Piece
from toolkit.interfaces import Params, PreTokenizer
from toolkit.registry import register

from pretokenizers._classes import HF_WORD_SPLIT
from pretokenizers._pieces import keep_matches

__all__ = ["Whitespace", "WhitespaceSplit"]

# HF runs \w+|[^\w\s]+ with Rust's regex crate: the regex module's \w in HF's Unicode version.
_WHITESPACE_RE = HF_WORD_SPLIT
_NON_SPACE_RE = regex.compile(r"\S+")
_NOT_WHITE_SPACE = ("\x1c", "\x1d", "\x1e", "\x1f")  # str.split() separators that are not White_Space


@register("Whitespace")
class Whitespace(PreTokenizer):
    """Split into runs of word characters and runs of other non-space characters (``\\w+|[^\\w\\s]+``).

    Whitespace is dropped. Word characters are Unicode's (letters, marks, decimal digits, ``_`` and
    the other connector punctuation, the joiners ZWNJ/ZWJ), as in Hugging Face; ``²`` or ``½`` are
    not decimal digits, so they are symbols here.

    >>> Whitespace().pre_tokenize_str("x² = 4.5")
    [('x', (0, 1)), ('²', (1, 2)), ('=', (3, 4)), ('4', (5, 6)), ('.', (6, 7)), ('5', (7, 8))]
    """

    class Params(Params):
        pass

    def pre_tokenize(self, pieces: list[Piece]) -> list[Piece]:
        return keep_matches(_WHITESPACE_RE, pieces)

    def split_text(self, text: str) -> list[str]:
        return _WHITESPACE_RE.findall(text)


@register("WhitespaceSplit")
class WhitespaceSplit(PreTokenizer):
    """Split on whitespace only (dropping it): every maximal run of non-whitespace is a piece.

    >>> WhitespaceSplit().pre_tokenize_str(" to\\tbe,  or\\u00a0not ")
    [('to', (1, 3)), ('be,', (4, 7)), ('or', (9, 11)), ('not', (12, 15))]
    """

    class Params(Params):
        pass

    def pre_tokenize(self, pieces: list[Piece]) -> list[Piece]:
        return keep_matches(_NON_SPACE_RE, pieces)

    def split_text(self, text: str) -> list[str]:
        for c in _NOT_WHITE_SPACE:
            if c in text:
                return _NON_SPACE_RE.findall(text)
        return text.split()
