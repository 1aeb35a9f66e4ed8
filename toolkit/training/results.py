"""What a training run produced, and the checks a freshly trained tokenizer must pass.

This module owns :class:`TrainingResult` (the trained tokenizer, the times, the corpus statistics,
the one-line summary the CLI prints), the token count of the training corpus computed from the word
counts, and the check that a post-processor's special-token ids are those the trainer gave them.
:func:`toolkit.training.config.train_from_config` runs the training and builds the result.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit.errors import ConfigError

if TYPE_CHECKING:
    from toolkit.tokenizer import Tokenizer

__all__ = ["TrainingResult"]


@dataclass
class TrainingResult:
    """What :func:`train_from_config` produced and measured."""

    tokenizer: Tokenizer
    output: Path | None
    seconds: float
    counting_seconds: float
    training_seconds: float
    documents: int
    corpus_bytes: int
    distinct_words: int
    tokens: int
    workers: int
    #: The trainer's ``vocab_size``; the vocabulary is smaller when the corpus ran out of pairs.
    requested_vocab_size: int | None = None
    #: What went less well than asked (a ``vocab_size`` the corpus cannot fill), one message each.
    warnings: list[str] = field(default_factory=list)

    @property
    def bytes_per_token(self) -> float:
        """UTF-8 bytes of training text per token of its encoding (compression; higher is better)."""
        return self.corpus_bytes / self.tokens if self.tokens else 0.0

    def summary(self) -> str:
        """One line: time, vocab size, bytes per token, where the file went."""
        where = f" -> {self.output}" if self.output else ""
        return (
            f"trained {type(self.tokenizer.model).__name__} in {self.seconds:.1f} s "
            f"(counting {self.counting_seconds:.1f} s on {self.workers} worker{'s' if self.workers != 1 else ''}, "
            f"training {self.training_seconds:.1f} s): vocab {self.tokenizer.vocab_size:,}{self._requested()}, "
            f"{_size(self.corpus_bytes)} in {self.documents:,} documents, {self.distinct_words:,} distinct words, "
            f"{self.bytes_per_token:.2f} bytes/token{where}"
        )


    def _requested(self) -> str:
        wanted = self.requested_vocab_size
        if wanted is None or self.tokenizer.vocab_size >= wanted:
            return ""
        return f" (of {wanted:,} requested: the corpus cannot fill it; the warning says why)"


def _size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000  # type: ignore[assignment]
    return str(n)


def _tokens_on_counts(model: Any, counts: Mapping[str, int]) -> int:
    """Tokens the trained model produces on the training corpus, from the word counts.

    The model encodes each piece independently, so the corpus' token count is the sum over distinct
    pieces of ``count × len(encode_piece(piece))``: no second pass over the text.
    """
    encode = model.encode_piece
    return sum(n * len(encode(w)) for w, n in counts.items())


def _check_post_processor(tokenizer: Tokenizer) -> None:
    """The special tokens a post-processor adds must have the ids the trained model gave them: a
    configuration error, found here before anything is written (``Tokenizer._special_id_mismatch``)."""
    mismatch = tokenizer._special_id_mismatch()
    if mismatch is not None:
        raise ConfigError(f"post_processor: {mismatch}")
