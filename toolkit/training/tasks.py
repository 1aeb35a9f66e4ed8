"""Counting one task of a corpus, and merging the results of many in corpus order.

This module owns the unit of work of every counting backend: a task (a byte range of a file, or a
batch of in-memory texts, see :mod:`toolkit.training.reading`) is read, normalized, pre-tokenized and
counted into a ``Counter``; :class:`_Merger` adds the per-task counts in task order, so the order in
which words first appear equals serial counting. The local process pool
(:mod:`toolkit.training.corpus`) and Dask (:mod:`toolkit.training.dask_backend`) both run these.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from toolkit.errors import CorpusError, InputError
from toolkit.training.reading import Corpus, _Task, _task_texts

_MIN_CHUNK = 1 << 20  # smallest byte range worth sending to a worker
_MAX_CHUNK = 64 << 20


def _count_into(
    counts: Counter[str], texts: Iterable[str], normalizer: Any, pre_tokenizer: Any
) -> tuple[int, int]:
    """Add the pieces of ``texts`` to ``counts``; return ``(documents, utf8_bytes)``.

    Pieces are counted before their respelling (``split_raw``: the byte-level ``Ġ`` spelling of
    each piece), which then runs once per distinct piece, where ``split_text`` would look each
    occurrence up in its spelling cache in a Python loop; the counts and their first-occurrence
    order are those of counting ``split_text`` (the reference, :func:`_count_into_reference`).
    """
    normalize = normalizer.normalize_str if normalizer is not None else None
    split = pre_tokenizer.split_raw if pre_tokenizer is not None else None
    docs = 0
    nbytes = 0
    spell = None
    raw_counts = counts  # pieces to respell with ``spell`` at the end: ``counts`` itself while there is none
    pieces: list[str] = []
    extend = pieces.extend
    append = pieces.append
    for text in texts:
        docs += 1
        nbytes += len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))
        if normalize is not None:
            text = normalize(text)
        if split is None:
            if text:
                append(text)
        else:
            raw, respell = split(text)
            if respell is not spell:  # the first respelling, or one that changes: count what came before
                raw_counts.update(pieces)
                pieces.clear()
                _add_spelled(counts, raw_counts, spell)
                spell = respell
                raw_counts = counts if spell is None else Counter()
            extend(raw)
        # One Counter.update per batch of pieces: its per-call overhead would dominate per line.
        if len(pieces) >= 65536:
            raw_counts.update(pieces)
            pieces.clear()
    raw_counts.update(pieces)
    _add_spelled(counts, raw_counts, spell)
    return docs, nbytes


def _add_spelled(counts: Counter[str], raw_counts: Counter[str], spell: Any) -> None:
    """Add ``raw_counts`` to ``counts`` under the pieces ``spell`` makes of them, in order (nothing to
    do when ``raw_counts`` is ``counts``: no respelling)."""
    if raw_counts is not counts:
        for piece, n in raw_counts.items():
            counts[spell(piece)] += n


def _count_into_reference(
    counts: Counter[str], texts: Iterable[str], normalizer: Any, pre_tokenizer: Any
) -> tuple[int, int]:
    """:func:`_count_into` the obvious way: ``split_text`` of each text, each piece counted."""
    docs = nbytes = 0
    for text in texts:
        docs += 1
        nbytes += len(text.encode("utf-8", "surrogatepass"))
        if normalizer is not None:
            text = normalizer.normalize_str(text)
        counts.update(pre_tokenizer.split_text(text) if pre_tokenizer is not None else [text] if text else [])
    return docs, nbytes


def _count_task(task: _Task, corpus: Corpus, normalizer: Any, pre_tokenizer: Any,
                report: Callable[[int], None] | None) -> tuple[Counter[str], int, int]:
    counts: Counter[str] = Counter()
    try:
        docs, nbytes = _count_into(counts, _task_texts(task, corpus, report), normalizer, pre_tokenizer)
    except InputError as exc:  # a normalized document over MAX_INPUT_CHARS: say which file, and the fix here
        where = f"corpus file {task.file.path}" if task.file is not None else "corpus texts"
        one = ('document = "file" makes each file one document: use document = "line", or ' if task.file is not None
               and corpus.document == "file" else "split the long documents, or ")
        reason = str(exc).rsplit("; ", 1)[0]  # its fix is for encode
        raise CorpusError(f"{where}: a document cannot be normalized: {reason}; {one}raise the limit") from None
    return counts, docs, nbytes


def _count_task_standalone(task: _Task, corpus: Corpus, normalizer: Any, pre_tokenizer: Any) -> tuple[Counter[str], int, int]:
    """Entry point for remote (Dask) workers: everything comes with the call."""
    return _count_task(task, corpus, normalizer, pre_tokenizer, None)


def _reading_options(corpus: Corpus) -> Corpus:
    """A picklable copy of the reading options (no texts, no files) to ship to workers."""
    return Corpus(sources=(), format=corpus.format, document=corpus.document, field=corpus.field, errors=corpus.errors)


class _Merger:
    """Merges per-task counts in task order, so first-occurrence order equals serial counting."""

    def __init__(self) -> None:
        self.counts: Counter[str] | None = None
        self.documents = 0
        self.bytes = 0

    def add(self, result: tuple[Counter[str], int, int]) -> None:
        counts, docs, nbytes = result
        self.documents += docs
        self.bytes += nbytes
        if self.counts is None:
            self.counts = counts
        else:
            self.counts.update(counts)

    def result(self) -> Counter[str]:
        return self.counts if self.counts is not None else Counter()


def _chunk_size(total: int, workers: int) -> int:
    # About four tasks per worker balances the load without merging too many Counters.
    return max(_MIN_CHUNK, min(_MAX_CHUNK, total // (workers * 4) + 1))
