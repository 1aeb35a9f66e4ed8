"""The :class:`Sequence` pre-tokenizer: apply several pre-tokenizers one after the other.

>>> from pretokenizers import Digits, WhitespaceSplit
>>> Sequence([WhitespaceSplit(), Digits(individual_digits=True)]).split_text("room 42b")
['room', '4', '2', 'b']
"""

from __future__ import annotations

from collections.abc import Callable
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
        """The first child's slices when the others only respell in the byte-level alphabet, which
        writes each character on its own (``PreTokenizer.split_slices``); else None.

        >>> from pretokenizers import ByteLevel, Split
        >>> from toolkit.normalizers import Regex
        >>> seq = Sequence([Split(Regex(" ?[a-z]+"), "isolated"), ByteLevel(add_prefix_space=False, use_regex=False)])
        >>> seq.split_slices("ab cd")[:2]
        (['ab', ' cd'], [0, 2])
        """
        children = self.pretokenizers
        if not children or self.position_sensitive:
            return None
        rest = children[1:]
        if len(rest) > 1 or not all(c.respelling_only and c.split_raw("")[1] is to_byte_level for c in rest):
            return None
        sliced = children[0].split_slices(text)
        if sliced is None or not rest:
            return sliced
        return None if sliced[2] is not None else (sliced[0], sliced[1], to_byte_level)

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
