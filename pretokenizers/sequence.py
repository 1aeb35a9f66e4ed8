"""The :class:`Sequence` pre-tokenizer: apply several pre-tokenizers one after the other.

>>> from pretokenizers import Digits, WhitespaceSplit
>>> Sequence([WhitespaceSplit(), Digits(individual_digits=True)]).split_text("room 42b")
['room', '4', '2', 'b']
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import accumulate
from typing import Any

from toolkit.alignment import Piece
from toolkit.bytelevel import to_byte_level
from toolkit.interfaces import Container, Params, PreTokenizer, children_validator
from toolkit.registry import register

__all__ = ["Sequence"]


@register("Sequence")
class Sequence(Container, PreTokenizer):
    """Chain pre-tokenizers: each one splits (and may rewrite) the pieces of the one before.

    ``pretokenizers`` holds pre-tokenizer objects or their dicts (built through the registry);
    assigning a new list takes effect like any option. Serializes as
    ``{"type": "Sequence", "pretokenizers": [...]}`` (the Hugging Face layout).

    >>> from pretokenizers import ByteLevel, Punctuation
    >>> Sequence([Punctuation(), ByteLevel(add_prefix_space=False, use_regex=False)]).split_text("hi, you")
    ['hi', ',', 'Ġyou']
    """

    children_field = "pretokenizers"
    positional = ("pretokenizers",)

    class Params(Params):
        pretokenizers: list[Any]

        _children = children_validator("pretokenizers", "pre_tokenizer")

    pretokenizers: list[PreTokenizer]

    @property
    def position_sensitive(self) -> bool:
        return any(child.position_sensitive for child in self.pretokenizers)

    def pre_tokenize(self, pieces: list[Piece]) -> list[Piece]:
        for child in self.pretokenizers:
            pieces = child.pre_tokenize(pieces)
        return [p for p in pieces if p.text]

    def split_raw(self, text: str) -> tuple[list[str], Callable[[str], str] | None]:
        """Pieces before the last child's respelling, and that respelling (see ``PreTokenizer.split_raw``).

        Only the last child's respelling is deferred: ``Sequence([Split(p), ByteLevel(use_regex=False)])``
        returns the ``Split`` pieces and the byte-level respelling, so the pipeline can cache by raw piece.
        """
        children = self.pretokenizers
        if not children or self.position_sensitive:
            return self.split_text(text), None
        *first, last = children
        pieces = [text] if text else []
        for child in first:
            split = child.split_text
            out: list[str] = []
            for piece in pieces:
                out += split(piece)
            pieces = out
        if last.respelling_only:
            _, spell = last.split_raw("")
            return pieces, spell
        raw: list[str] = []
        spell = None
        for piece in pieces:
            sub, spell = last.split_raw(piece)
            raw += sub
        return raw, spell

    def split_slices(self, text: str) -> tuple[list[str], list[int], Callable[[str], str] | None] | None:
        """Slices when every child cuts slices (``PreTokenizer.split_slices``), each applied to the pieces
        of the one before, and a last child may only respell in the byte-level alphabet, which writes
        each character on its own (DeepSeek-V3's three ``Split``s and ``ByteLevel``); else None.

        >>> from pretokenizers import ByteLevel, Split
        >>> from toolkit.normalizers import Regex
        >>> seq = Sequence([Split(Regex("[0-9]"), "isolated"), Split(Regex(" ?[a-z]+"), "isolated"),
        ...                 ByteLevel(add_prefix_space=False, use_regex=False)])
        >>> seq.split_slices("ab1cd ef")[:2]
        (['ab', '1', 'cd', ' ef'], [0, 2, 3, 5])
        """
        children = self.pretokenizers
        if not children or self.position_sensitive:
            return None
        if len(children) == 1:
            return children[0].split_slices(text)
        cutters, spell = children, None
        if children[-1].respelling_only:
            if children[-1].split_raw("")[1] is not to_byte_level:
                return None
            cutters, spell = children[:-1], to_byte_level
        if all(getattr(child, "_tiles", False) for child in cutters):
            # Splits whose pieces come in order at C speed (DeepSeek-V3's three, GPT-4o's): the pieces
            # alone, their starts counted once at the end when they tile the text (else the path below).
            pieces = [text]
            for child in cutters:
                split = child.split_text
                out = []
                for piece in pieces:
                    out += split(piece)
                pieces = out
            starts = list(accumulate(map(len, pieces), initial=0))
            if starts.pop() == len(text):  # they tile the text (as Split.split_slices checks)
                return pieces, starts, spell
        sliced = cutters[0].split_slices(text)
        if sliced is None or sliced[2] is not None:
            return None
        pieces, starts = sliced[0], sliced[1]
        for child in cutters[1:]:
            cut = child.split_slices
            out: list[str] = []
            out_starts: list[int] = []
            for piece, start in zip(pieces, starts):
                sub = cut(piece)
                if sub is None or sub[2] is not None:
                    return None
                out += sub[0]
                out_starts += [start + s for s in sub[1]] if start else sub[1]
            pieces, starts = out, out_starts
        return pieces, starts, spell

    def scanner(self) -> tuple[Any, Callable[[str], str] | None, bool] | None:
        """The first child's scanner when the others only respell (at most one respelling, the last's)."""
        children = self.pretokenizers
        if not children:
            return None
        first = children[0].scanner()
        rest = children[1:]
        if first is None or first[1] is not None or len(rest) > 1 or not all(c.respelling_only for c in rest):
            return None
        return (first[0], rest[0].split_raw("")[1], first[2]) if rest else first

    def split_text(self, text: str) -> list[str]:
        children = self.pretokenizers
        if not children:
            return [text] if text else []
        if any(child.position_sensitive for child in children[1:]):
            # A later child needs the pieces' offsets (Metaspace "first"): use the full path.
            return super().split_text(text)
        pieces = children[0].split_text(text)
        for child in children[1:]:
            split = child.split_text
            out: list[str] = []
            for piece in pieces:
                out += split(piece)
            pieces = out
        return pieces
