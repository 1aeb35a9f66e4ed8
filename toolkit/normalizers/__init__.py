"""Normalizers: rewrite text before it is split, keeping each character's origin.

One module per family: :mod:`.unicode` (``NFC``, ``NFD``, ``NFKC``, ``NFKD``, ``StripAccents``),
:mod:`.case` (``Lowercase``), :mod:`.edits` (``Strip``, ``Replace``, ``Prepend``), :mod:`.bert`
(``BertNormalizer``), :mod:`.precompiled` (``Precompiled``, SentencePiece's character maps),
:mod:`.nmt` (``Nmt``), :mod:`.bytelevel` (``ByteLevel``),
:mod:`.sequence` (``Sequence``), and :mod:`.patterns` (``Regex`` and the
Oniguruma matching rules, shared with the ``Replace`` decoder and the ``Split`` pre-tokenizer).

Each normalizer has two paths that produce the same text: :meth:`~toolkit.interfaces.Normalizer.normalize`
returns a :class:`~toolkit.alignment.NormalizedString` whose characters keep the span of the original
text they came from (so token offsets point into the user's text), and ``normalize_str`` is the fast
path with no alignment, used by ``encode_ids`` and training.

>>> Sequence([NFKC(), Lowercase()]).normalize_str("ＨＥＬＬＯ ﬁne")
'hello fine'
"""

from toolkit.normalizers.bert import BertNormalizer
from toolkit.normalizers.case import Lowercase
from toolkit.normalizers.edits import PatternReplacement, Prepend, Replace, Strip
from toolkit.normalizers.bytelevel import ByteLevel
from toolkit.normalizers.nmt import Nmt
from toolkit.normalizers.precompiled import Precompiled
from toolkit.normalizers.patterns import Regex, compile_pattern, parse_pattern, pattern_to_json, replace_all
from toolkit.normalizers.sequence import Sequence
from toolkit.normalizers.unicode import NFC, NFD, NFKC, NFKD, WHITESPACE, StripAccents

__all__ = [
    "NFC",
    "NFD",
    "NFKC",
    "NFKD",
    "Lowercase",
    "StripAccents",
    "Strip",
    "Replace",
    "Prepend",
    "BertNormalizer",
    "Sequence",
    "Precompiled",
    "Nmt",
    "ByteLevel",
    "Regex",
    "PatternReplacement",
    "WHITESPACE",
    "compile_pattern",
    "parse_pattern",
    "pattern_to_json",
    "replace_all",
]
