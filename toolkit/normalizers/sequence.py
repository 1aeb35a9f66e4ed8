"""``Sequence``: normalizers applied one after the other."""

from __future__ import annotations

from typing import Any

from toolkit.alignment import NormalizedString
from toolkit.interfaces import Container, Normalizer, Params, children_validator
from toolkit.registry import register

__all__ = ['Sequence']


# --------------------------------------------------------------------------- Sequence

@register("Sequence")
class Sequence(Container, Normalizer):
    """Applies normalizers one after the other; alignments compose.

    ``normalizers`` holds normalizer objects (or their dicts). In JSON each child is a full
    ``{"type": ...}`` object.

    >>> from toolkit.normalizers import NFD, Lowercase, StripAccents
    >>> seq = Sequence([NFD(), StripAccents(), Lowercase()])
    >>> seq.normalize_str("Ébène"), seq.to_dict()["normalizers"][0]
    ('ebene', {'type': 'NFD'})
    """

    children_field = "normalizers"
    positional = ("normalizers",)
    normalizers: list[Normalizer]

    class Params(Params):
        normalizers: list[Any]

        _children = children_validator("normalizers", "normalizer")

    def normalize(self, text: NormalizedString) -> NormalizedString:
        for n in self.normalizers:
            text = n.normalize(text)
        return text

    def normalize_str(self, text: str) -> str:
        for n in self.normalizers:
            text = n.normalize_str(text)
        return text
