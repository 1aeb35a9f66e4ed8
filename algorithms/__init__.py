"""The algorithms package: one module per tokenization model, with its trainer.

- :mod:`algorithms.bpe` — character-level BPE (:class:`BPE`, :class:`BPETrainer`);
- :mod:`algorithms.byte_level_bpe` — byte-level BPE (:class:`ByteLevelBPE`, :class:`ByteLevelBPETrainer`),
  with merges mode (Hugging Face / GPT-2 files) and rank mode (tiktoken files);
- :mod:`algorithms.sentencepiece_bpe` — SentencePiece's score-based BPE encoder (:class:`SentencePieceBPE`);
- :mod:`algorithms.wordpiece` — the :class:`WordPiece` model; :mod:`algorithms.wordpiece_trainer` —
  :class:`WordPieceTrainer`;
- :mod:`algorithms.unigram` — the :class:`Unigram` model (SentencePiece), its lattice in
  :mod:`algorithms._lattice`; :mod:`algorithms.unigram_trainer` — :class:`UnigramTrainer`;
- :mod:`algorithms.word_level` — :class:`WordLevel` and :class:`WordLevelTrainer`.

Shared internals: :mod:`algorithms._vocab` (vocabulary checks, alphabet, pair table),
:mod:`algorithms._bpe_encode` (the merge-application core) and :mod:`algorithms._merges` (the
incremental merge-learning engine). :mod:`algorithms.reference` holds the slow, readable oracles.
Importing this package registers every class with :mod:`toolkit.registry`.

>>> from algorithms import BPE
>>> BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")]).encode_piece("abb")
(2, 1)
"""

__tokenizer_toolkit__ = True  # this distribution's package (checked by toolkit.registry.check_installation)

from algorithms.bpe import BPE, BPETrainer
from algorithms.byte_level_bpe import ByteLevelBPE, ByteLevelBPETrainer
from algorithms.sentencepiece_bpe import SentencePieceBPE
from algorithms.wordpiece import WordPiece
from algorithms.wordpiece_trainer import WordPieceTrainer
from algorithms.unigram import Unigram
from algorithms.unigram_trainer import UnigramTrainer
from algorithms.word_level import WordLevel, WordLevelTrainer

__all__ = ["BPE", "BPETrainer", "ByteLevelBPE", "ByteLevelBPETrainer", "WordPiece", "WordPieceTrainer", "Unigram",
           "UnigramTrainer", "WordLevel", "WordLevelTrainer", "SentencePieceBPE"]
