"""``Nmt``: the NMT clean-up of SentencePiece and Hugging Face (control characters out, odd spaces in).

Control characters (U+0001-0008, U+000B, U+000E-001F, U+007F, U+008F, U+009F) are removed;
tab, newlines, form feed, U+1680, zero-width spaces and marks (U+200B-200F), line and paragraph
separators, ``▁``, the BOM and U+FFFD become a space. Each kept character keeps its own span.

>>> Nmt().normalize_str("a\\tb\\x07c\\u200bd\\ufeff")
'a bc d '
"""

from __future__ import annotations

import re

from toolkit.alignment import NormalizedString
from toolkit.interfaces import Normalizer, Params
from toolkit.registry import register

__all__ = ["Nmt"]

_REMOVED = "\x01-\x08\x0b\x0e-\x1f\x7f\x8f\x9f"
_SPACES = "\t\n\x0c\r\u1680\u200b-\u200f\u2028\u2029\u2581\ufeff\ufffd"
_REMOVED_RE = re.compile(f"[{_REMOVED}]+")
_SPACES_RE = re.compile(f"[{_SPACES}]")
_ANY_RE = re.compile(f"[{_REMOVED}{_SPACES}]")


@register("Nmt")
class Nmt(Normalizer):
    """Removes control characters and maps other spacing characters to a space (HF ``Nmt``).

    >>> Nmt().normalize_str("a\x07b\u2028c")
    'ab c'
    """

    class Params(Params):
        """No options."""

    def normalize_str(self, text: str) -> str:
        if _ANY_RE.search(text) is None:
            return text
        return _SPACES_RE.sub(" ", _REMOVED_RE.sub("", text))

    def normalize(self, text: NormalizedString) -> NormalizedString:
        s = text.normalized
        if _ANY_RE.search(s) is None:
            return text
        return text.rewrite(
            (i, i + 1, "" if _REMOVED_RE.match(c) else " " if _SPACES_RE.match(c) else c) for i, c in enumerate(s)
        )
