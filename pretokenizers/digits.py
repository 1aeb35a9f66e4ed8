"""The :class:`Digits` pre-tokenizer: separate numbers from the rest of the text.

>>> Digits().split_text("Call 911 or 112")
['Call ', '911', ' or ', '112']
>>> Digits(individual_digits=True).split_text("x=42")
['x=', '4', '2']
"""

from __future__ import annotations

from pydantic import StrictBool

from toolkit.alignment import Piece
from toolkit.interfaces import Params, PreTokenizer
from toolkit.registry import register

from pretokenizers._classes import HF_DIGIT_RUNS, HF_DIGITS
from pretokenizers._pieces import keep_matches

__all__ = ["Digits"]

# Numeric characters are general category N (Nd, Nl, No) in HF's Unicode version: Rust's char::is_numeric.
_RUNS_RE = HF_DIGIT_RUNS
_SINGLE_RE = HF_DIGITS


@register("Digits")
class Digits(PreTokenizer):
    """Split numeric characters from the rest: runs of them (default), or each one alone.

    "Numeric" is Unicode category N, so ``٣`` (Arabic-Indic three) and ``½`` are digits too, as in
    Hugging Face. Nothing is dropped.

    >>> Digits().pre_tokenize_str("a12b")
    [('a', (0, 1)), ('12', (1, 3)), ('b', (3, 4))]
    """

    positional = ("individual_digits",)  # Hugging Face's argument order

    class Params(Params):
        individual_digits: StrictBool = False

    individual_digits: bool

    def _configure(self) -> None:
        self._re = _SINGLE_RE if self.individual_digits else _RUNS_RE

    def pre_tokenize(self, pieces: list[Piece]) -> list[Piece]:
        return keep_matches(self._re, pieces)

    def split_text(self, text: str) -> list[str]:
        return self._re.findall(text)
