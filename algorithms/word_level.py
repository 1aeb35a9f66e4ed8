"""WordLevel: the :class:`WordLevel` model (one piece, one token) and :class:`WordLevelTrainer`.

Hugging Face ``models.WordLevel`` semantics: a piece found in the vocabulary is its id, any other
piece is ``unk_token`` (an error when the vocabulary has no ``unk_token``). The trainer keeps
``special_tokens`` first, then the words seen at least ``min_frequency`` times, most frequent first
(ties by code point), up to ``vocab_size`` (Hugging Face ``WordLevelTrainer``).

>>> model = WordLevelTrainer(vocab_size=4, special_tokens=["<unk>"]).train({"the": 5, "cat": 2, "sat": 2, "a": 1})
>>> model.get_vocab(), model.encode_piece("cat"), model.encode_piece("dog")
({'<unk>': 0, 'the': 1, 'cat': 2, 'sat': 3}, (2,), (0,))
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from pydantic import Field, StrictBool, StrictInt, StrictStr

from algorithms._vocab import (
    SpecialTokens,
    VocabLookup,
    check_special_tokens,
    check_vocab,
    checked_word_counts,
    held_special_tokens,
    ordered_vocab,
)
from toolkit import limits
from toolkit.errors import ConfigError, InputError, TrainingError, VocabularyError
from toolkit.interfaces import Model, Params, Trainer
from toolkit.progress import training_progress
from toolkit.registry import register, tool

__all__ = ["WordLevel", "WordLevelTrainer"]


@register("WordLevel")
class WordLevel(VocabLookup, Model):
    """Word-level model: ``vocab`` maps whole pieces to ids; options ``unk_token`` (``"<unk>"``) and
    ``special_tokens`` (vocabulary entries never matched inside text).

    >>> WordLevel({"<unk>": 0, "hello": 1}).tokenize("hello"), WordLevel({"<unk>": 0}).tokenize("bye")
    ([(1, 0, 5)], [(0, 0, 3)])
    """

    _state_names = ("vocab",)

    class Params(Params):
        unk_token: StrictStr = Field("<unk>", min_length=1)
        special_tokens: SpecialTokens = []

    positional = ("unk_token",)

    def __init__(self, vocab: Mapping[str, int] | None = None, *args: Any, **options: Any) -> None:
        super().__init__(*args, **options)
        self._set_state(vocab, check=True, where="WordLevel")

    def _set_state(self, vocab: Any = None, *, check: bool, where: str) -> None:
        vocab = {} if vocab is None else vocab
        self._id_to_token = check_vocab(vocab, where=where) if check else {i: t for t, i in vocab.items()}
        self.vocab: dict[str, int]
        self._hold_state("vocab", ordered_vocab(vocab))
        self._origin = where

    def _configure(self) -> None:
        super()._configure()
        specials = check_special_tokens(self.special_tokens, self.vocab, where=self._origin)
        object.__setattr__(self, "special_tokens", held_special_tokens(self, specials))
        self._words = {t: i for t, i in self.vocab.items() if t not in specials} if specials else self.vocab
        self._unk_id = self.vocab.get(self.unk_token)

    def params(self) -> dict[str, Any]:
        return {"vocab": dict(self.vocab), "unk_token": self.unk_token, "special_tokens": list(self.special_tokens)}

    @classmethod
    def read_file(cls, vocab: str | os.PathLike[str]) -> dict[str, int]:
        """Read a ``vocab.json`` (token → id), as HF's ``WordLevel.read_file`` (the reader is
        :func:`toolkit.interop.read_vocab_json`).

        >>> WordLevel.read_file("vocab.json")   # doctest: +SKIP
        {'<unk>': 0, 'hello': 1, ...}
        """
        return tool("read_vocab_json")(vocab)  # type: ignore[no-any-return]

    @classmethod
    def from_file(cls, vocab: str | os.PathLike[str], unk_token: str | None = None, **options: Any) -> WordLevel:
        """A model from a ``vocab.json`` (HF's ``WordLevel.from_file(vocab, unk_token)``; ``None``: the
        default ``"<unk>"``); ``options`` as the constructor."""
        if unk_token is not None:
            options["unk_token"] = unk_token
        return cls(cls.read_file(vocab), **options)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, validate: bool = True, where: str | None = None) -> WordLevel:
        """Rebuild from :meth:`to_dict` output; ``validate=False`` trusts the vocabulary."""
        options = {k: v for k, v in data.items() if k not in ("type", "vocab")}
        return cls._assemble(  # type: ignore[no-any-return]
            options, validate=validate, where=where or "model 'WordLevel'", vocab=data.get("vocab"), check=validate
        )

    def _encode_piece(self, piece: str) -> tuple[int, ...]:
        if not piece:
            return ()
        found = self._words.get(piece)
        if found is not None:
            return (found,)
        if self._unk_id is None:
            if not self.vocab:
                raise VocabularyError(
                    "WordLevel: the model has no vocabulary; train it (Tokenizer.train) or load one (WordLevel(vocab))"
                )
            raise InputError(
                f"{piece!r:.60} is not in the WordLevel vocabulary and unk_token {self.unk_token!r} is not either; "
                "add the unknown token to the vocabulary (a special token of the trainer) or set unk_token to one"
            )
        return (self._unk_id,)

    def tokenize(self, piece: str) -> list[tuple[int, int, int]]:
        return [(i, 0, len(piece)) for i in self.encode_piece(piece)]


@register("WordLevelTrainer")
class WordLevelTrainer(Trainer):
    """Learns a :class:`WordLevel` vocabulary (Hugging Face ``WordLevelTrainer``): ``vocab_size``
    (30,000), ``min_frequency`` (0), ``special_tokens``, ``show_progress``; ``progress`` (a
    ``callback(stage, done, total)``, not serialized) hears ``"words"``.

    >>> WordLevelTrainer(special_tokens=["[UNK]"], show_progress=False).train({"the": 5, "cat": 2}).get_vocab()
    {'[UNK]': 0, 'the': 1, 'cat': 2}
    """

    class Params(Params):
        vocab_size: StrictInt = Field(30000, ge=0)
        min_frequency: StrictInt = Field(0, ge=0)
        show_progress: StrictBool = True
        special_tokens: list[StrictStr] = []

    positional = ("vocab_size",)

    def _configure(self) -> None:
        limits.check_trainer_options(max(1, self.vocab_size), self.special_tokens, where=type(self).__name__)

    def unreached_reason(self, floor: int) -> str:
        """A word-level vocabulary holds whole words: it stops at the number of distinct words."""
        return "the training text has no more distinct words" + (f" seen at least {floor} times" if floor > 1 else "")

    def train(self, word_counts: Mapping[str, int], *, model: Model | None = None) -> WordLevel:
        """A :class:`WordLevel` model of the most frequent words; a WordLevel ``model`` template keeps
        its ``unk_token``."""
        if model is not None and not isinstance(model, WordLevel):
            raise ConfigError(f"WordLevelTrainer trains WordLevel models; the tokenizer's model is a {type(model).__name__}")
        items = checked_word_counts(word_counts)
        specials = self.distinct_special_tokens
        taken = set(specials)
        # A word longer than a token may be (limits.MAX_TOKEN_LENGTH) is left out: no file could hold it.
        longest = limits.MAX_TOKEN_LENGTH
        ranked = sorted((kv for kv in items if kv[1] >= self.min_frequency and kv[0] not in taken and len(kv[0]) <= longest),
                        key=lambda kv: (-kv[1], kv[0]))
        tokens = (specials + [w for w, _ in ranked])[: self.vocab_size]
        if not tokens:  # a model without a vocabulary encodes nothing
            raise TrainingError(
                "WordLevelTrainer: vocab_size=0 keeps no token; ask for a vocab_size of at least 1"
                if self.vocab_size == 0 else
                f"WordLevelTrainer: no word is seen at least min_frequency={self.min_frequency} times (words longer "
                f"than {longest:,} characters left out) and there are no special tokens; lower min_frequency"
            )
        with training_progress(self) as progress:  # a bar (show_progress), the callback, or the command line's
            if progress is not None:
                progress("words", len(tokens), len(tokens))
        options = {"unk_token": model.unk_token if model is not None else "<unk>"}
        return WordLevel._assemble(  # type: ignore[no-any-return]
            {**options, "special_tokens": [t for t in specials if t in tokens]},
            validate=False, where="WordLevelTrainer", vocab={t: i for i, t in enumerate(tokens)}, check=False,
        )
