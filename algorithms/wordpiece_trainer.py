"""The WordPiece trainer: learns a :class:`~algorithms.wordpiece.WordPiece` vocabulary with a
score-based criterion (Hugging Face's ``WordPieceTrainer`` trains BPE and converts the result).

``criterion="likelihood"`` (default) merges the pair whose merge most raises the unigram
log-likelihood of the training data (Schuster & Nakajima 2012), discounted by ``likelihood_discount``
occurrences; ``"score"`` the course's
``freq(ab) / (freq(a) * freq(b))``, compared exactly; ``"frequency"`` the most frequent pair (HF's
vocabulary). The merge loops live in :mod:`algorithms._wordpiece_runs` and
:mod:`algorithms._wordpiece_likelihood` (incremental, exact); the slow
oracle is :mod:`algorithms.reference.wordpiece`; docs/algorithms.md defines the criteria.

>>> trainer = WordPieceTrainer(vocab_size=12, special_tokens=["[UNK]"], tie_break="first_occurrence", criterion="score")
>>> model = trainer.train({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5})
>>> list(model.get_vocab())[-4:]
['##gs', 'hu', 'hugs', 'hug']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pydantic import Field, StrictInt, StrictStr

from algorithms._merges import TieBreak
from algorithms._vocab import check_initial_alphabet, checked_word_counts
from algorithms._wordpiece_likelihood import _LikelihoodRun, likelihood_gain
from algorithms._wordpiece_runs import WordPieceTraining, _Run
from algorithms.wordpiece import DEFAULT_SPECIAL_TOKENS, WordPiece
from toolkit import limits
from toolkit.errors import ConfigError, TrainingError
from toolkit.interfaces import Model, Trainer
from toolkit.progress import training_progress
from toolkit.registry import register
from toolkit.runtime import gc_paused

__all__ = ["WordPieceTrainer", "WordPieceTraining", "likelihood_gain"]


@register("WordPieceTrainer")
class WordPieceTrainer(Trainer):
    """Trains a :class:`WordPiece` vocabulary by a score-based criterion, exactly and incrementally.

    Options (by keyword, ``vocab_size`` also by position; each one assignable after construction):

    - ``vocab_size`` (30000): target size, special tokens and alphabet included. The alphabet is
      never cut, so a tiny ``vocab_size`` yields specials + alphabet.
    - ``min_frequency`` (0): pairs seen fewer times are never merged; training stops when no pair
      reaches it.
    - ``special_tokens`` (``[PAD] [UNK] [CLS] [SEP] [MASK]``): the first ids, in this order. The
      model's ``unk_token`` must be one of them.
    - ``continuing_subword_prefix`` (``"##"``); ``end_of_word_suffix`` (None): appended to each
      word's last symbol, as HF's ``WordPieceTrainer`` does (the model does not add it when encoding).
    - ``limit_alphabet`` (None): keep only this many distinct characters (the most frequent; ties by
      code point; ``initial_alphabet`` characters are always kept). Words with a dropped character are
      still learned from, but no pair spans the dropped character.
    - ``initial_alphabet`` (()): single characters always in the alphabet, both as word-initial
      symbols and as ``##`` continuations, even when absent from the corpus.
    - ``criterion`` (``"likelihood"``): ``"likelihood"``, ``"score"`` or ``"frequency"`` (above). With
      ``"likelihood"`` and ``"frequency"`` every character of the alphabet is also a word-initial
      symbol (HF's alphabet); ``"score"`` keeps only the symbols seen (the course's).
    - ``likelihood_discount`` (3): with ``"likelihood"``, a pair merged more than ``d`` times ranks by
      the gain of ``m - d`` occurrences, before every pair merged ``m <= d`` times (those by ``m``,
      then by ``freq(a) * freq(b)``, frequent first); 0 is the plain gain (docs/algorithms.md).
    - ``tie_break`` (``"ids"``): equal scores → smallest ``(left_id, right_id)``; ``"first_occurrence"``
      → the pair met first scanning the words in corpus order, left to right (the HF course).
    - ``progress``: ``progress(stage, done, total)`` callback; not serialized.

    >>> trainer = WordPieceTrainer(vocab_size=12, special_tokens=["[UNK]"], tie_break="first_occurrence", criterion="score")
    >>> model = trainer.train({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5})
    >>> list(model.get_vocab())[-4:]
    ['##gs', 'hu', 'hugs', 'hug']
    """

    class Params(Trainer.Params):
        vocab_size: StrictInt = Field(30000, ge=1)
        min_frequency: StrictInt = Field(0, ge=0)
        special_tokens: list[StrictStr] = list(DEFAULT_SPECIAL_TOKENS)
        continuing_subword_prefix: StrictStr = "##"
        end_of_word_suffix: StrictStr | None = None
        limit_alphabet: StrictInt | None = Field(None, ge=0)
        initial_alphabet: list[StrictStr] = []
        tie_break: TieBreak = "ids"
        criterion: Literal["likelihood", "score", "frequency"] = "likelihood"
        likelihood_discount: StrictInt = Field(3, ge=0)

    positional = ("vocab_size",)

    def _configure(self) -> None:
        where = type(self).__name__
        check_initial_alphabet(self.initial_alphabet, where=where)
        specials = self.special_tokens
        limits.check_trainer_options(
            self.vocab_size, specials, where=where, initial_alphabet=self.initial_alphabet,
            affixes=(self.continuing_subword_prefix, self.end_of_word_suffix),
        )

    # -------------------------------------------------------------------------------- public API
    def train(self, word_counts: Mapping[str, int], *, model: Model | None = None) -> WordPiece:
        """Learn a vocabulary from ``word_counts`` and return a new :class:`WordPiece`.

        ``model`` (optional template, a :class:`WordPiece`): its ``unk_token`` and
        ``max_input_chars_per_word`` are kept.
        """
        if model is not None and not isinstance(model, WordPiece):
            raise ConfigError(f"WordPieceTrainer trains WordPiece models; the tokenizer's model is a {type(model).__name__}")
        unk_token = "[UNK]"
        max_chars = 100
        if model is not None:
            unk_token = model.unk_token
            max_chars = model.max_input_chars_per_word
        if unk_token not in self.special_tokens:
            raise TrainingError(
                f"WordPieceTrainer: the model's unk_token {unk_token!r} is not among special_tokens "
                f"{self.special_tokens!r}; add it (e.g. special_tokens=[..., {unk_token!r}])"
            )
        result = self.train_merges(word_counts)
        options = {
            "unk_token": unk_token,
            "continuing_subword_prefix": self.continuing_subword_prefix,
            "max_input_chars_per_word": max_chars,
            "special_tokens": self.distinct_special_tokens,
        }
        vocab = {t: i for i, t in enumerate(result.tokens)}
        return WordPiece._assemble(options, validate=False, where="WordPieceTrainer", vocab=vocab, check=False)  # type: ignore[no-any-return]

    def train_merges(self, word_counts: Mapping[str, int]) -> WordPieceTraining:
        """Run training and return the vocabulary *and* the merges in order (for inspection/tests).

        >>> t = WordPieceTrainer(vocab_size=10, special_tokens=[], tie_break="first_occurrence", criterion="score")
        >>> t.train_merges({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}).merges[:2]
        [('##g', '##s', '##gs'), ('h', '##u', 'hu')]
        """
        items = checked_word_counts(word_counts)
        with training_progress(self):
            if self.criterion == "frequency":
                return self._train_frequency(items)
            with gc_paused():
                return (_LikelihoodRun if self.criterion == "likelihood" else _Run)(self, items).run()

    def _train_frequency(self, items: list[tuple[str, int]]) -> WordPieceTraining:
        """Hugging Face's proxy: BPE by pair count over the same ``##`` splits, vocabulary kept."""
        from algorithms.bpe import BPETrainer

        trainer = BPETrainer(
            vocab_size=self.vocab_size, min_frequency=self.min_frequency, special_tokens=self.special_tokens,
            limit_alphabet=self.limit_alphabet, initial_alphabet=self.initial_alphabet,
            continuing_subword_prefix=self.continuing_subword_prefix, end_of_word_suffix=self.end_of_word_suffix,
            tie_break=self.tie_break,
        )
        bpe = trainer.train(dict(items))  # below the base vocabulary: the alphabet, no merge (as HF)
        vocab = bpe.get_vocab()
        tokens = sorted(vocab, key=vocab.__getitem__)
        plen = len(self.continuing_subword_prefix)
        merges = [(a, b, a + b[plen:]) for a, b in bpe.merges]
        merged = {m[2] for m in merges}
        n_specials = len(self.distinct_special_tokens)
        n_base = next((i for i, t in enumerate(tokens) if t in merged and i >= n_specials), len(tokens))
        return WordPieceTraining(tokens, merges, n_base)
