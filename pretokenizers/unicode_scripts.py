"""The :class:`UnicodeScripts` pre-tokenizer: cut where the writing system changes (Hugging Face semantics).

>>> UnicodeScripts().split_text("Hello世界 123 テスト")
['Hello', '世界 ', '123 ', 'テスト']
"""

from __future__ import annotations

from itertools import pairwise

from toolkit.alignment import Piece, Span
from toolkit.interfaces import Params, PreTokenizer
from toolkit.registry import register

from pretokenizers._pieces import split_pieces
from toolkit.unicode_scripts import ANY, script_of

__all__ = ["UnicodeScripts"]


def script_spans(text: str) -> list[Span]:
    """HF's cut points: before every character whose script differs from the last non-Any script.

    Characters of no script ("Any": the space, code points HF's table does not list) join the piece
    before them; Any characters before the first scripted one are dropped, as in HF.

    >>> script_spans("Hi 世界!"), script_spans("  ab")
    ([(0, 3), (3, 5), (5, 6)], [(2, 4)])
    """
    cuts: list[int] = []
    last = ANY
    for i, char in enumerate(text):
        script = script_of(char)
        if script != ANY:
            if script != last:
                cuts.append(i)
            last = script
    cuts.append(len(text))
    return list(pairwise(cuts))


@register("UnicodeScripts")
class UnicodeScripts(PreTokenizer):
    """Split each piece where the Unicode script changes (Latin, Han, Thai, Cyrillic, Common...).

    Follows Hugging Face ``pre_tokenizers.UnicodeScripts`` exactly, with its script table (Unicode
    9.0, see :mod:`toolkit.unicode_scripts`): Hiragana and Katakana count as Han; digits and
    punctuation are the script ``Common``; combining marks are ``Inherited`` (so a decomposed ``é``
    is cut between ``e`` and its accent); spaces belong to no script and stay with the text before
    them; spaces at the start of a piece are dropped, and a piece of spaces only disappears.

    >>> UnicodeScripts().pre_tokenize_str("  Привет, мир")
    [('Привет', (2, 8)), (', ', (8, 10)), ('мир', (10, 13))]
    """

    class Params(Params):
        pass

    def pre_tokenize(self, pieces: list[Piece]) -> list[Piece]:
        return split_pieces(pieces, script_spans)

    def split_text(self, text: str) -> list[str]:
        return [text[s:e] for s, e in script_spans(text)]
