"""``Lowercase``: each character lowercased on its own, with HF's (newer) case table.

``"ΣΑΣ"`` gives ``"σασ"`` (no final sigma, as HF), and the characters whose lowercase Python 3.11
does not know yet follow HF (``_LOWER_EXTRA_SPEC``).

>>> Lowercase().normalize_str("ΣΑΣ Ünïcode")
'σασ ünïcode'
"""

from __future__ import annotations

import re


from toolkit import limits
from toolkit.alignment import NormalizedString
from toolkit.interfaces import Normalizer, Params
from toolkit.registry import register

__all__ = ['Lowercase']


_LOWER_EXTRA_SPEC = (
    "1C89:1C8A A7CB:0264 A7CC:A7CD A7CE:A7CF A7D2:A7D3 A7D4:A7D5 A7DA:A7DB A7DC:019B "
    "10D50:10D70 10D51:10D71 10D52:10D72 10D53:10D73 10D54:10D74 10D55:10D75 10D56:10D76 10D57:10D77 "
    "10D58:10D78 10D59:10D79 10D5A:10D7A 10D5B:10D7B 10D5C:10D7C 10D5D:10D7D 10D5E:10D7E 10D5F:10D7F "
    "10D60:10D80 10D61:10D81 10D62:10D82 10D63:10D83 10D64:10D84 10D65:10D85 16EA0:16EBB 16EA1:16EBC "
    "16EA2:16EBD 16EA3:16EBE 16EA4:16EBF 16EA5:16EC0 16EA6:16EC1 16EA7:16EC2 16EA8:16EC3 16EA9:16EC4 "
    "16EAA:16EC5 16EAB:16EC6 16EAC:16EC7 16EAD:16EC8 16EAE:16EC9 16EAF:16ECA 16EB0:16ECB 16EB1:16ECC "
    "16EB2:16ECD 16EB3:16ECE 16EB4:16ECF 16EB5:16ED0 16EB6:16ED1 16EB7:16ED2 16EB8:16ED3 "
)
_LOWER_EXTRA = {
    int(k, 16): chr(int(v, 16)) for k, v in (item.split(":") for item in _LOWER_EXTRA_SPEC.split())
}
# Python lowercases a capital sigma by context (final form ς); Hugging Face maps each char alone: σ.
_LOWER_TABLE = {**_LOWER_EXTRA, 0x03A3: "σ"}
_LOWER_FIX_RE = re.compile("[" + "".join(f"\\U{cp:08x}" for cp in _LOWER_TABLE) + "]")

# --------------------------------------------------------------------------- shared helpers

def _lowercase(text: str) -> str:
    """Per-character lowercasing with Hugging Face's (Rust's) semantics."""
    if text.isascii():
        return text.lower()
    if _LOWER_FIX_RE.search(text) is not None:
        text = text.translate(_LOWER_TABLE)
    return text.lower()


def _lower_char(c: str) -> str:
    return _LOWER_TABLE.get(ord(c)) or c.lower()


def _lowercase_aligned(ns: NormalizedString) -> NormalizedString:
    lowered = _lowercase(ns.normalized)
    if lowered == ns.normalized:
        return ns
    if len(lowered) == len(ns.normalized):
        # No character lowercases to zero characters, so equal lengths mean one for one.
        return NormalizedString(ns.original, lowered, ns.alignments)
    return ns.map_chars(_lower_char)  # İ → i + U+0307: both characters keep the İ's span

# --------------------------------------------------------------------------- Lowercase

@register("Lowercase")
class Lowercase(Normalizer):
    """Lowercases each character on its own, as Hugging Face: ``İ`` → ``i`` + U+0307 and a capital
    sigma is always ``σ`` (no final-sigma rule).

    >>> Lowercase().normalize_str("ΣΑΣ İ")
    'σασ i̇'
    """

    class Params(Params):
        """No options."""

    def normalize(self, text: NormalizedString) -> NormalizedString:
        out = _lowercase_aligned(text)
        limits.check_normalized_size(len(out.normalized), where="Lowercase")  # İ -> 2 characters
        return out

    def normalize_str(self, text: str) -> str:
        out = _lowercase(text)
        limits.check_normalized_size(len(out), where="Lowercase")
        return out
