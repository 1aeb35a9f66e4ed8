"""``ByteLevel`` normalizer: every character becomes the byte-level spelling of its UTF-8 bytes (HF).

The same alphabet as the byte-level pre-tokenizer (``Ġ`` for a space...), applied to the whole text
without splitting it; each output character keeps the span of the character its byte came from.

>>> ByteLevel().normalize_str("hé !")
'hÃ©Ġ!'
"""

from __future__ import annotations

from toolkit import limits
from toolkit.alignment import NormalizedString
from toolkit.bytelevel import to_byte_level
from toolkit.interfaces import Normalizer, Params
from toolkit.registry import register

__all__ = ["ByteLevel"]


@register("ByteLevel", kind="normalizer")
class ByteLevel(Normalizer):
    """Rewrites text in the byte-level alphabet (Hugging Face's ``normalizers.ByteLevel``).

    >>> ByteLevel().normalize_str("héllo world")
    'hÃ©lloĠworld'
    """

    class Params(Params):
        """No options."""

    def normalize_str(self, text: str) -> str:
        out = to_byte_level(text)
        limits.check_normalized_size(len(out), where="ByteLevel")
        return out

    def normalize(self, text: NormalizedString) -> NormalizedString:
        limits.check_normalized_size(len(text.normalized.encode("utf-8", "surrogatepass")), where="ByteLevel")
        if text.normalized.isascii() and to_byte_level(text.normalized) == text.normalized:
            return text
        return text.map_chars(to_byte_level)
