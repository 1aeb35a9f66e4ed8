"""The SentencePiece-style :class:`Metaspace` pre-tokenizer: spaces become ``▁`` and start words.

>>> Metaspace().split_text("Hey my friend")
['▁Hey', '▁my', '▁friend']
>>> Metaspace(prepend_scheme="never", split=False).split_text("Hey my friend")
['Hey▁my▁friend']
"""

from __future__ import annotations

from typing import Literal

import regex
from pydantic import StrictBool, StrictStr, field_validator

from toolkit.alignment import Piece
from toolkit.interfaces import Params, PreTokenizer
from toolkit.registry import register

from pretokenizers._pieces import one_to_one, split_pieces, with_prefix

__all__ = ["Metaspace", "PrependScheme"]

PrependScheme = Literal["always", "first", "never"]


@register("Metaspace")
class Metaspace(PreTokenizer):
    """Replace every space by ``replacement`` (``▁``), optionally prepend one, and split before each.

    Hugging Face semantics:

    * ``replacement``: one character, ``"▁"`` (U+2581) by default. Only U+0020 spaces are replaced.
    * ``prepend_scheme``: ``"always"`` prepends ``replacement`` to every input piece that does not
      already start with it; ``"first"`` only to a piece that starts at offset 0 (the start of the
      text); ``"never"`` does not prepend. The prepended character stands for the empty span at the
      start of its piece.
    * ``split``: cut before every ``replacement`` (each piece then starts with one, except a leading
      run of text); a run of several ``▁`` leaves single ``▁`` pieces and gives its last one to the
      next word. ``False`` keeps each input piece whole.

    >>> Metaspace().pre_tokenize_str("Hey  you")
    [('▁Hey', (0, 3)), ('▁', (3, 4)), ('▁you', (4, 8))]
    """

    positional = ("replacement", "prepend_scheme", "split")  # Hugging Face's argument order

    class Params(Params):
        replacement: StrictStr = "▁"
        prepend_scheme: PrependScheme = "always"
        split: StrictBool = True

        @field_validator("replacement")
        @classmethod
        def _one_char(cls, value: str) -> str:
            if len(value) != 1:
                raise ValueError(f"must be exactly one character, got {value!r}")
            return value

    replacement: str
    prepend_scheme: PrependScheme
    split: bool

    def _configure(self) -> None:
        r = regex.escape(self.replacement)
        # Splitting before each replacement with HF's "merged_with_next": the last of a run of
        # replacements joins the following text, the others stay alone.
        self._split_re = regex.compile(rf"{r}?[^{r}]+|{r}")

    @property
    def position_sensitive(self) -> bool:
        """True with ``prepend_scheme="first"``: a piece gets the prefix only if it starts the text."""
        return self.prepend_scheme == "first"

    def _spans(self, text: str) -> list[tuple[int, int]]:
        return [m.span() for m in self._split_re.finditer(text)]

    def pre_tokenize(self, pieces: list[Piece]) -> list[Piece]:
        out: list[Piece] = []
        repl = self.replacement
        for piece in pieces:
            if not piece.text:
                continue
            if " " in piece.text:
                piece = one_to_one(piece, piece.text.replace(" ", repl))
            if not piece.text.startswith(repl) and (
                self.prepend_scheme == "always" or (self.prepend_scheme == "first" and piece.start == 0)
            ):
                piece = with_prefix(piece, repl)
            if self.split:
                out.extend(split_pieces([piece], self._spans))
            else:
                out.append(piece)
        return out

    def split_text(self, text: str) -> list[str]:
        if not text:
            return []
        repl = self.replacement
        text = text.replace(" ", repl)
        if self.prepend_scheme != "never" and not text.startswith(repl):
            text = repl + text
        return self._split_re.findall(text) if self.split else [text]
