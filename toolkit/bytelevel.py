"""The string forms of bytes in vocabularies: GPT-2's byte ↔ unicode table, and byte-fallback pieces.

Byte-level tokenizers work on UTF-8 bytes, but vocabularies are stored as strings. GPT-2 maps each of
the 256 bytes to one printable character: printable Latin-1 bytes map to themselves, the others
(space, control characters...) to characters from U+0100 on, so a space becomes ``Ġ`` and a newline
``Ċ``. This module owns that table and the fast conversions built on it, and the reading of
SentencePiece's byte-fallback pieces (``<0x0A>`` is the byte 0x0A): :func:`byte_piece_value`.

>>> BYTE_TO_CHAR[ord(" ")], to_byte_level("hé !")
('Ġ', 'hÃ©Ġ!')
>>> from_byte_level("hÃ©Ġ!")
b'h\\xc3\\xa9 !'
"""

from __future__ import annotations

import codecs

__all__ = [
    "BYTE_TO_CHAR",
    "CHAR_TO_BYTE",
    "alphabet",
    "to_byte_level",
    "from_byte_level",
    "byte_symbols",
    "bytes_to_byte_level",
    "is_byte_level",
    "byte_piece_value",
]


def _bytes_to_unicode() -> list[str]:
    printable = (
        list(range(ord("!"), ord("~") + 1))
        + list(range(ord("¡"), ord("¬") + 1))
        + list(range(ord("®"), ord("ÿ") + 1))
    )
    table: dict[int, str] = {b: chr(b) for b in printable}
    n = 0
    for b in range(256):
        if b not in table:
            table[b] = chr(256 + n)
            n += 1
    return [table[b] for b in range(256)]


#: ``BYTE_TO_CHAR[b]`` is the character standing for byte ``b``.
BYTE_TO_CHAR: list[str] = _bytes_to_unicode()
#: The inverse table: character → byte value.
CHAR_TO_BYTE: dict[str, int] = {c: b for b, c in enumerate(BYTE_TO_CHAR)}

# The table as a charmap codec's (the machinery of the standard library's single-byte encodings): bytes
# to characters and back in one C pass, where str.translate looks each character up in a dict.
_DECODING_TABLE = "".join(BYTE_TO_CHAR)
_ENCODING_MAP = codecs.charmap_build(_DECODING_TABLE)


def alphabet() -> list[str]:
    """The 256 byte-level characters, in byte order."""
    return list(BYTE_TO_CHAR)


def bytes_to_byte_level(data: bytes) -> str:
    """Byte-level string of raw bytes: one character per byte."""
    return codecs.charmap_decode(data, "strict", _DECODING_TABLE)[0]


def to_byte_level(text: str) -> str:
    """Byte-level string of the UTF-8 encoding of ``text`` (lone surrogates are encoded as-is)."""
    return codecs.charmap_decode(text.encode("utf-8", "surrogatepass"), "strict", _DECODING_TABLE)[0]


def from_byte_level(text: str) -> bytes:
    """The bytes a byte-level string stands for; raises ``ValueError`` for a foreign character.

    >>> from_byte_level("Ġ")
    b' '
    >>> from_byte_level(" ")
    Traceback (most recent call last):
    ValueError: ' ' is not a byte-level character
    """
    try:
        return codecs.charmap_encode(text, "strict", _ENCODING_MAP)[0]
    except UnicodeEncodeError as exc:
        raise ValueError(f"{text[exc.start]!r} is not a byte-level character") from None


def byte_symbols(text: str) -> str | None:
    """The bytes a byte-level string stands for, as the characters U+0000..U+00FF (a trainer's symbols:
    one per byte, its code point the byte's value), or ``None`` when ``text`` holds a foreign character.

    >>> byte_symbols("aĠb"), byte_symbols("a b")
    ('a b', None)
    """
    try:
        return codecs.charmap_encode(text, "strict", _ENCODING_MAP)[0].decode("latin-1")
    except UnicodeEncodeError:
        return None


def is_byte_level(text: str) -> bool:
    """True when every character of ``text`` is one of the 256 byte-level characters.

    >>> is_byte_level("Ġhi"), is_byte_level("h i")
    (True, False)
    """
    return all(c in CHAR_TO_BYTE for c in text)


def byte_piece_value(token: str) -> int | None:
    """The byte a byte-fallback piece ``<0xHH>`` stands for, else ``None``.

    Hugging Face's rule (its ``ByteFallback`` decoder): six UTF-8 bytes, ``<0x``, two characters
    its hexadecimal parser reads (a ``+`` sign and one digit pass too) and ``>``; either case.

    >>> byte_piece_value("<0x0A>"), byte_piece_value("<0xe9>"), byte_piece_value("<0x+F>")
    (10, 233, 15)
    >>> byte_piece_value("<0x100>") is None, byte_piece_value("<0x 1>") is None
    (True, True)
    """
    if len(token) != 6 or not token.startswith("<0x") or token[5] != ">":
        return None  # a non-ASCII character makes a 6-byte token shorter than 6 characters
    digits = token[3:5]
    if digits[0] == "+":
        digits = digits[1]
    return int(digits, 16) if all(c in _HEX_DIGITS for c in digits) else None


_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
