"""The BERT pre-tokenizer: split on whitespace, and make every punctuation character its own piece.

>>> BertPreTokenizer().split_text("Hello, world!! (ok)")
['Hello', ',', 'world', '!', '!', '(', 'ok', ')']
"""

from __future__ import annotations

import re
from itertools import accumulate

import regex

from toolkit.alignment import Piece
from toolkit.interfaces import Params, PreTokenizer
from toolkit.registry import register

from pretokenizers._classes import PUNCTUATION, PUNCTUATION_RANGES
from pretokenizers._pieces import keep_matches

__all__ = ["BertPreTokenizer"]

# The definition: one punctuation character, or a run of characters that are neither whitespace nor
# punctuation. Kept as the reference the fast patterns below are tested against.
_BERT_RE = regex.compile(rf"{PUNCTUATION}|[^\s{PUNCTUATION}]+", flags=regex.V1)

# The same classes spelled out for the standard ``re`` module, which matches them faster than
# ``regex`` does the V1 set intersection (the tests check every code point against _BERT_RE).
# Whitespace is ``regex``'s ``\s``: the 25 Unicode White_Space characters (``re``'s ``\s`` would add
# U+001C..U+001F).
_WHITE_SPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)


def _class_body(ranges: tuple[tuple[int, int], ...]) -> str:
    return "".join(re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in ranges)


_PUNCT = _class_body(PUNCTUATION_RANGES)
_SPACE = "".join(map(re.escape, _WHITE_SPACE))
_UNICODE = f"[{_PUNCT}]|[^{_SPACE}{_PUNCT}]+"
# ASCII text (most text) gets a pattern with small classes: ASCII punctuation is !-/ :-@ [-` {-~ and
# ASCII whitespace \t..\r and space.
_ASCII = r"[!-/:-@\[-`{-~]|[^\t-\r !-/:-@\[-`{-~]+"
_UNICODE_RE = re.compile(_UNICODE)
_ASCII_RE = re.compile(_ASCII)
# With a group, ``split`` returns [whitespace, piece, whitespace, piece, ..., whitespace].
_UNICODE_SPLIT_RE = re.compile(f"({_UNICODE})")
_ASCII_SPLIT_RE = re.compile(f"({_ASCII})")


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

    def pre_tokenize(self, pieces: list[Piece]) -> list[Piece]:
        out: list[Piece] = []
        for piece in pieces:
            out += keep_matches(_ASCII_RE if piece.text.isascii() else _UNICODE_RE, [piece])
        return out

    def split_text(self, text: str) -> list[str]:
        return (_ASCII_RE if text.isascii() else _UNICODE_RE).findall(text)

    def split_slices(self, text: str) -> tuple[list[str], list[int], None]:
        """:meth:`split_text` with where each piece starts in ``text`` (pieces are plain slices, never
        respelled: the third item is ``None``). The fast path of ``Tokenizer.encode``'s offsets.

        >>> BertPreTokenizer().split_slices("Hi,  you")
        (['Hi', ',', 'you'], [0, 2, 5], None)
        """
        parts = (_ASCII_SPLIT_RE if text.isascii() else _UNICODE_SPLIT_RE).split(text)
        ends = list(accumulate(map(len, parts)))  # parts[k] ends at ends[k]; piece 2i+1 starts at ends[2i]
        return parts[1::2], ends[0:-1:2], None
