"""The GPT-2 byte-level pre-tokenizer: split with the GPT-2 pattern, then spell every piece in bytes.

Each piece is encoded to UTF-8 and every byte is written as its printable stand-in from the GPT-2
table (:mod:`toolkit.bytelevel`): a space becomes ``Ġ``, a newline ``Ċ``, ``é`` (two bytes) becomes
``Ã©``. A byte-level BPE model then only ever sees 256 base symbols, so no text is unknown. Each
byte-level character stays aligned to the character it came from, so offsets still point into the
text.

>>> ByteLevel().split_text("Hello my friend, héllo")
['ĠHello', 'Ġmy', 'Ġfriend', ',', 'ĠhÃ©llo']
>>> ByteLevel(add_prefix_space=False).split_text("Hello")  # GPT-2 itself adds no space
['Hello']
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import accumulate
from typing import Any

from pydantic import StrictBool

from pretokenizers._pieces import one_to_one, split_pieces, with_prefix
from pretokenizers.patterns import GPT2_PATTERN
from pretokenizers.pinned import compile_pinned
from pretokenizers.split import apply_behavior, segments
from toolkit.alignment import Piece
from toolkit.bytelevel import BYTE_TO_CHAR, to_byte_level
from toolkit.cache import MAX_CACHED_PIECE, BoundedCache
from toolkit.interfaces import Params, PreTokenizer
from toolkit.normalizers.patterns import find_spans
from toolkit.registry import register

__all__ = ["ByteLevel"]

# Classes pinned to tiktoken's / HF's Unicode tables, scanned by ``re`` (see pretokenizers.pinned).
_GPT2_RE = compile_pinned(GPT2_PATTERN)
#: Pieces whose byte-level spelling a ByteLevel keeps (a full cache is cleared; longer pieces than
#: MAX_CACHED_PIECE are spelled every time: a ``use_regex=False`` piece can be a whole document).
_CACHE_CAPACITY = 100_000


class _CharSpelling(BoundedCache):
    """``table[c]``: the byte-level spelling of one character, computed on the first look-up."""

    __slots__ = ()

    def __missing__(self, c: str) -> str:
        return self.put(c, to_byte_level(c))


_CHAR_TO_BL = _CharSpelling(_CACHE_CAPACITY)


def _byte_level_piece(piece: Piece, bl: str) -> Piece:
    """The piece spelled in the byte-level alphabet (``bl``, its spelling), each character aligned to
    its source character."""
    if len(bl) == len(piece.text):  # only one-byte characters: a character-for-character rewrite
        return one_to_one(piece, bl)
    return piece.map_chars(_CHAR_TO_BL.__getitem__)


@register("ByteLevel")
class ByteLevel(PreTokenizer):
    """GPT-2 pre-tokenization: the GPT-2 split pattern, then the byte → character table (``Ġ``).

    Options (Hugging Face's names, meanings and defaults):

    * ``add_prefix_space`` (default ``True``): put a space in front of each input piece that does not start with one,
      so the first word is spelled like the others (``Ġhello``). The added space stands for the empty
      span at the start of the piece. GPT-2 and tiktoken encodings add none: their loaders set
      ``add_prefix_space=False``.
    * ``use_regex`` (default ``True``): split with :data:`~pretokenizers.GPT2_PATTERN` (words with their leading space,
      digit runs, symbol runs, spaces). ``False`` keeps each input piece whole (use it after a
      :class:`~pretokenizers.Split` with another pattern, e.g. cl100k's).
    * ``trim_offsets`` (default ``True``): accepted so a Hugging Face ``tokenizer.json`` ``ByteLevel``
      block loads as is;
      it has no effect on pre-tokenization (HF only uses it in its ``ByteLevel`` post-processor).

    >>> ByteLevel().pre_tokenize_str("Hi  there")
    [('ĠHi', (0, 2)), ('Ġ', (2, 3)), ('Ġthere', (3, 9))]
    >>> len(ByteLevel.alphabet())
    256
    """

    positional = ("add_prefix_space", "trim_offsets", "use_regex")  # Hugging Face's argument order

    class Params(Params):
        add_prefix_space: StrictBool = True
        use_regex: StrictBool = True
        trim_offsets: StrictBool = True

    add_prefix_space: bool
    use_regex: bool
    trim_offsets: bool

    def _configure(self) -> None:
        self._cache = BoundedCache(_CACHE_CAPACITY, longest=MAX_CACHED_PIECE)  # raw piece -> its byte-level spelling

    @staticmethod
    def alphabet() -> list[str]:
        """The 256 byte-level characters, in byte order (``initial_alphabet`` for trainers)."""
        return list(BYTE_TO_CHAR)

    def _spans(self, text: str) -> list[tuple[int, int]]:
        """The pieces' spans by definition: the pattern's matches, and (``isolated``) any text between."""
        if not self.use_regex:
            return [(0, len(text))]
        return apply_behavior(segments(find_spans(_GPT2_RE, text), len(text)), "isolated")

    def _spell(self, text: str) -> str:
        """:func:`to_byte_level` through the spelling cache."""
        bl = self._cache.get(text)
        if bl is None:
            bl = self._cache.put(text, to_byte_level(text))
        return bl

    def pre_tokenize(self, pieces: list[Piece]) -> list[Piece]:
        out: list[Piece] = []
        spell = self._spell
        for piece in pieces:
            if not piece.text:
                continue
            if self.add_prefix_space and not piece.text.startswith(" "):
                piece = with_prefix(piece, " ")
            if not self.use_regex:
                out.append(_byte_level_piece(piece, spell(piece.text)))
                continue
            if piece.align is None:
                # The GPT-2 pattern matches every character (see split_slices), so its matches tile
                # the text: the pieces _spans gives, cut without building the spans first.
                subs = []
                pos = piece.start
                for sub in _GPT2_RE.findall(piece.text):
                    subs.append(Piece(sub, pos, pos + len(sub)))
                    pos += len(sub)
            else:
                subs = split_pieces([piece], self._spans)
            for sub in subs:
                out.append(_byte_level_piece(sub, spell(sub.text)))
        return out

    def split_text(self, text: str) -> list[str]:
        if not text:
            return []
        if self.add_prefix_space and text[0] != " ":
            text = " " + text
        if not self.use_regex:
            return [to_byte_level(text)]
        cache = self._cache
        get = cache.get
        put = cache.put
        out = []
        append = out.append
        for piece in _GPT2_RE.findall(text):
            bl = get(piece)
            if bl is None:
                bl = put(piece, to_byte_level(piece))
            append(bl)
        return out

    def split_raw(self, text: str) -> tuple[list[str], Callable[[str], str] | None]:
        """The GPT-2 pieces before respelling, and the respelling (:func:`toolkit.bytelevel.to_byte_level`).

        >>> ByteLevel(add_prefix_space=False).split_raw("Hi there")[0]
        ['Hi', ' there']
        """
        if not text:
            return [], to_byte_level
        if self.add_prefix_space and text[0] != " ":
            text = " " + text
        return (_GPT2_RE.findall(text) if self.use_regex else [text]), to_byte_level

    def split_slices(self, text: str) -> tuple[list[str], list[int], Callable[[str], str] | None] | None:
        """:meth:`split_raw` with where each raw piece starts in ``text``: the fast path of
        ``Tokenizer.encode``'s offsets. ``None`` when a prefix space would be added (that piece is not
        a slice of ``text``). The respelling writes each character as its UTF-8 bytes, on its own.

        >>> ByteLevel(add_prefix_space=False).split_slices("Hi there")[:2]
        (['Hi', ' there'], [0, 2])
        """
        if self.add_prefix_space and text and text[0] != " ":
            return None
        pieces, spell = self.split_raw(text)
        # The GPT-2 pattern matches every character (its last alternatives take any whitespace, the
        # others any non-whitespace), so the pieces tile the text and their lengths give the starts.
        starts = list(accumulate(map(len, pieces), initial=0))
        starts.pop()
        return pieces, starts, spell

    def scanner(self) -> tuple[Any, Callable[[str], str] | None, bool] | None:
        """The GPT-2 scanner, the byte-level respelling and whether a prefix space is added (``use_regex``).

        >>> ByteLevel(add_prefix_space=False).scanner()[0].findall("Hi there")
        ['Hi', ' there']
        """
        return (_GPT2_RE, to_byte_level, self.add_prefix_space) if self.use_regex else None

    @property
    def respelling_only(self) -> bool:
        """True when this pre-tokenizer never splits or adds text, only respells each piece."""
        return not self.use_regex and not self.add_prefix_space
