"""A training run from a config: count the corpus, train, measure, record, write.

This module owns :func:`train_from_config` and its :class:`TrainingResult`: the corpus is counted
(:func:`toolkit.training.corpus.count_corpus`), the trainer fits the model, the post-processor's ids
are checked against the trained vocabulary, the effective config and the corpus fingerprint go into
the tokenizer's ``metadata["training"]``, and the file is written atomically at the end. The config
itself (schema, files, overrides) is :mod:`toolkit.training.config`.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit.errors import ConfigError, CorpusError, ToolkitError

if TYPE_CHECKING:
    from toolkit.tokenizer import Tokenizer
    from toolkit.training.config import TrainingConfig
    from toolkit.training.corpus import Corpus, CorpusCounts

__all__ = ["TrainingResult", "train_from_config", "METADATA_KEY"]

#: Where the trained tokenizer's metadata keeps the record of how it was made.
METADATA_KEY = "training"


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
            f"training {self.training_seconds:.1f} s): vocab {self.tokenizer.vocab_size:,}, "
            f"{_size(self.corpus_bytes)} in {self.documents:,} documents, {self.distinct_words:,} distinct words, "
            f"{self.bytes_per_token:.2f} bytes/token{where}"
        )


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
    """The special tokens a post-processor adds must have the ids the trained model gave them.

    Post-processors name their tokens with fixed ids (``cls = ["[CLS]", 2]``); a mismatch would make
    every encoding wrong, so it is a configuration error, found here before anything is written.
    """
    if tokenizer.post_processor is None:
        return
    enc = tokenizer.encode("a", "a") if _accepts_pair(tokenizer) else tokenizer.encode("a")
    for token_id, token, special in zip(enc.ids, enc.tokens, enc.special_tokens_mask):
        if special and tokenizer.token_to_id(token) != token_id:
            actual = tokenizer.token_to_id(token)
            fix = f"use id {actual}" if actual is not None else "add it to trainer.special_tokens"
            raise ConfigError(
                f"post_processor: adds {token!r} with id {token_id}, but the trained vocabulary has "
                f"{'no such token' if actual is None else f'it at id {actual}'}; {fix}"
            )


def _accepts_pair(tokenizer: Tokenizer) -> bool:
    try:
        tokenizer.encode("a", "a")
    except ToolkitError:
        return False
    return True


def train_from_config(
    config: TrainingConfig,
    *,
    output: str | os.PathLike[str] | None = None,
    progress: Callable[[str, int, int], None] | None = None,
    write: bool = True,
) -> TrainingResult:
    """Count the corpus, train, record how the tokenizer was made, and write it (atomically, at the end).

    ``output`` overrides ``config.output``; with neither (or ``write=False``) nothing is written.
    ``progress(stage, done, total)`` hears ``"counting"`` (bytes) and the trainer's stages.

    >>> from toolkit.training.config import TrainingConfig
    >>> cfg = TrainingConfig.from_dict({"algorithm": "bpe", "corpus": {"texts": ["low lower lowest"] * 5},
    ...                                 "pre_tokenizer": "Whitespace", "trainer": {"vocab_size": 15}})
    >>> train_from_config(cfg).tokenizer.encode("lowest").tokens
    ['lowest']
    """
    t0 = time.perf_counter()
    tokenizer, trainer = config.build()
    if progress is not None and hasattr(trainer, "progress"):
        trainer.progress = progress  # trainers accept progress=callable(stage, done, total); not serialized
    corpus = config.corpus_spec()
    fingerprint = corpus.fingerprint()
    counted = _count(corpus, config, tokenizer, progress)
    if fingerprint is not None and corpus.fingerprint() != fingerprint:
        # Hashed again after counting: a file edited during the run would otherwise be recorded wrong.
        raise CorpusError("a corpus file changed while it was being read; train again on a stable corpus")
    t1 = time.perf_counter()
    tokenizer.model = trainer.train(counted.counts, model=tokenizer.model)
    t2 = time.perf_counter()
    _check_post_processor(tokenizer)
    tokens = _tokens_on_counts(tokenizer.model, counted.counts)
    tokenizer.model.clear_cache()
    if hasattr(trainer, "progress"):
        trainer.progress = None
    result = TrainingResult(
        tokenizer=tokenizer,
        output=None,
        seconds=time.perf_counter() - t0,
        counting_seconds=counted.seconds,
        training_seconds=t2 - t1,
        documents=counted.documents,
        corpus_bytes=counted.bytes,
        distinct_words=len(counted.counts),
        tokens=tokens,
        workers=counted.workers,
    )
    tokenizer.metadata = {**config.metadata, METADATA_KEY: _record(config, fingerprint, result)}
    target = output if output is not None else config.output
    if write and target is not None:
        path = Path(target)
        path.parent.mkdir(parents=True, exist_ok=True)
        tokenizer.save(path)
        result.output = path
    return result


def _count(corpus: Corpus, config: TrainingConfig, tokenizer: Tokenizer,
           progress: Callable[[str, int, int], None] | None) -> CorpusCounts:
    """Word counts of ``corpus``, cut by the tokenizer's normalizer and pre-tokenizer."""
    from toolkit.training.corpus import count_corpus

    return count_corpus(
        corpus,
        normalizer=tokenizer.normalizer,
        pre_tokenizer=tokenizer.pre_tokenizer,
        num_workers=config.num_workers,
        progress=progress,
        backend=config.backend,
        scheduler=config.scheduler,
    )


def _record(config: TrainingConfig, fingerprint: dict[str, Any] | None, result: TrainingResult) -> dict[str, Any]:
    """How the tokenizer was made: toolkit version, effective config, corpus fingerprint, statistics."""
    from toolkit import __version__

    return {
        "toolkit_version": __version__,
        "config": config.effective(),
        "corpus": fingerprint if fingerprint is not None else {"sha256": None, "files": []},
        "stats": {
            "documents": result.documents,
            "bytes": result.corpus_bytes,
            "distinct_words": result.distinct_words,
            "tokens": result.tokens,
            "bytes_per_token": round(result.bytes_per_token, 4),
        },
    }
