"""Word counting, shared by every trainer: the pieces of a corpus after normalization and pre-tokenization.

This module owns counting; the corpus itself is read by :mod:`toolkit.training.reading` (whose
public names this module re-exports):

- **Streaming**: files are counted block by block; memory grows with the number of distinct words,
  never with the corpus size (a ``document="file"`` document is the exception: it is one text, so it
  is held whole).
- **Parallel counting**: ``num_workers`` processes (default: every core) count byte ranges of the
  files (cut at line boundaries) and the counts are merged in corpus order, so the result, including
  the order in which words first appear (which ``tie_break="first_occurrence"`` depends on), is
  identical to serial counting.
- **Dask**: ``backend="dask"`` counts the same partitions on a Dask ``distributed`` cluster
  (:mod:`toolkit.training.dask_backend`).

>>> from pretokenizers import Whitespace
>>> count_words(["a b a", "b!"], pre_tokenizer=Whitespace())
Counter({'a': 2, 'b': 2, '!': 1})
"""

from __future__ import annotations

import itertools
import signal
import time
from collections import Counter, deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from toolkit import limits
from toolkit.errors import ConfigError
from toolkit.interfaces import Normalizer, PreTokenizer
from toolkit.training.reading import (
    Corpus,
    CorpusFile,
    CorpusSource,
    Document,
    Errors,
    Format,
    Progress,
    _as_corpus,
    _plan,
    _Task,
    _text_batches,
    default_num_workers,
    fingerprint_files,
    iter_file_lines,
    iter_texts,
    resolve_sources,
)
from toolkit.training.tasks import _chunk_size, _count_into, _count_task, _Merger, _reading_options

__all__ = [
    "CorpusSource",
    "Corpus",
    "CorpusCounts",
    "CorpusFile",
    "resolve_sources",
    "iter_texts",
    "iter_file_lines",
    "count_texts",
    "count_words",
    "count_corpus",
    "fingerprint_files",
    "default_num_workers",
]

Backend = Literal["local", "dask"]

_PARALLEL_THRESHOLD = 4 << 20  # below this many bytes, processes cost more than they save
_MP_START_METHOD: str | None = None  # None: chosen by _start_method (tests also force "fork" and "spawn")


# ---------------------------------------------------------------------------------------- counting
def count_texts(
    texts: Iterable[str], *, normalizer: Normalizer | None = None, pre_tokenizer: PreTokenizer | None = None
) -> Counter[str]:
    """Count the pieces of ``texts`` after normalization and pre-tokenization, in one process.

    >>> from pretokenizers import Whitespace
    >>> count_texts(["a b a", "b!"], pre_tokenizer=Whitespace())
    Counter({'a': 2, 'b': 2, '!': 1})
    """
    counts: Counter[str] = Counter()
    _count_into(counts, texts, normalizer, pre_tokenizer)
    return counts


@dataclass
class CorpusCounts:
    """Word counts of a corpus plus what was read: documents, UTF-8 bytes of text, seconds."""

    counts: Counter[str]
    documents: int = 0
    bytes: int = 0
    seconds: float = 0.0
    workers: int = 1

    @property
    def words(self) -> int:
        """Total number of pieces (sum of the counts)."""
        return sum(self.counts.values())


# Worker-process state, set once per process by _init_worker (fork or spawn alike).
_W: dict[str, Any] = {}


def _init_worker(corpus_options: Corpus, normalizer: Any, pre_tokenizer: Any, shared: Any,
                 limit_values: dict[str, Any]) -> None:
    # Ctrl-C reaches the whole process group: the parent reports it and ends the pool, so a worker
    # ignores it (else each one prints its own KeyboardInterrupt traceback)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    limits.restore(limit_values)  # this process's limits, also where workers are spawned
    _W.update(corpus=corpus_options, normalizer=normalizer, pre_tokenizer=pre_tokenizer, shared=shared)


def _worker_report(n: int) -> None:
    shared = _W["shared"]
    with shared.get_lock():
        shared.value += n


def _count_task_in_worker(task: _Task) -> tuple[Counter[str], int, int]:
    return _count_task(task, _W["corpus"], _W["normalizer"], _W["pre_tokenizer"], _worker_report)


def count_corpus(
    corpus: CorpusSource,
    *,
    normalizer: Normalizer | None = None,
    pre_tokenizer: PreTokenizer | None = None,
    num_workers: int | None = None,
    progress: Progress | None = None,
    backend: Backend = "local",
    scheduler: str | None = None,
    format: Format | None = None,
    document: Document | None = None,
    field: str | None = None,
    errors: Errors | None = None,
) -> CorpusCounts:
    """Count the pieces of a corpus; return the counts and what was read.

    ``num_workers``: processes for the local backend (``None``: every core; small corpora are counted
    in this process, where starting processes would cost more than it saves), or worker processes of
    the local Dask cluster. ``backend="dask"`` counts on Dask ``distributed``: on the scheduler at
    ``scheduler`` (e.g. ``"tcp://10.0.0.5:8786"``; the files must be readable at the same paths on the
    workers) or, without one, on a local cluster of ``num_workers`` processes. ``progress`` receives
    ``("counting", bytes_done, bytes_total)``. The counts are identical whatever the backend and the
    number of workers, including the order in which words first appear.

    >>> from pretokenizers import Whitespace
    >>> result = count_corpus(["to be or", "not to be"], pre_tokenizer=Whitespace(), num_workers=1)
    >>> result.counts.most_common(2), result.documents
    ([('to', 2), ('be', 2)], 2)
    """
    if num_workers is not None and (not isinstance(num_workers, int) or isinstance(num_workers, bool) or num_workers < 1):
        raise ConfigError(f"num_workers: must be a positive integer, got {num_workers!r}")
    if backend not in ("local", "dask"):
        raise ConfigError(f"backend: must be 'local' or 'dask', got {backend!r}")
    for name, value, kind in (("normalizer", normalizer, Normalizer), ("pre_tokenizer", pre_tokenizer, PreTokenizer)):
        if value is not None and not isinstance(value, kind):
            raise ConfigError(f"{name}: must be a {kind.__name__} (or None), got {type(value).__name__} {value!r:.60}")
    c = _as_corpus(corpus, {"format": format, "document": document, "field": field, "errors": errors})
    t0 = time.perf_counter()
    if backend == "dask":
        from toolkit.training.dask_backend import count_dask

        merger, workers = count_dask(c, normalizer, pre_tokenizer, num_workers, scheduler, progress)
    else:
        merger, workers = _count_local(c, normalizer, pre_tokenizer, num_workers, progress)
    return CorpusCounts(merger.result(), merger.documents, merger.bytes, time.perf_counter() - t0, workers)


def _in_daemon_process() -> bool:
    import multiprocessing

    return bool(multiprocessing.current_process().daemon)


def _count_local(
    c: Corpus, normalizer: Any, pre_tokenizer: Any, num_workers: int | None, progress: Progress | None
) -> tuple[_Merger, int]:
    merger = _Merger()
    total = c.total_bytes  # resolves the files (errors surface here, before any process starts)
    # More processes than cores (or than tasks, below) only add start-up time and memory.
    workers = default_num_workers() if num_workers is None else min(num_workers, default_num_workers())
    if c.texts is None and num_workers is None and total < _PARALLEL_THRESHOLD:
        workers = 1
    if workers > 1 and _in_daemon_process():
        workers = 1  # a daemonic process (a Pool worker) may not start processes of its own
    method = _start_method(normalizer, pre_tokenizer) if workers > 1 else None
    if method is None:
        workers = 1  # no safe way to start workers from here (see _start_method)
    tasks: Iterable[_Task] = ()
    if workers > 1 and c.texts is None:
        planned = list(_plan(c, _chunk_size(total, workers)))
        tasks = planned
        workers = min(workers, len(planned))
    elif workers > 1:
        # The size of an iterable is unknown: look at the first two batches; a corpus that fits in
        # one is counted here (starting processes would take longer than counting it).
        batches = _text_batches(c.texts)  # type: ignore[arg-type]
        head = list(itertools.islice(batches, 2))
        tasks = itertools.chain(head, batches)
        if len(head) < 2:
            workers = 1
    if workers <= 1:
        done = 0

        def report(n: int) -> None:
            nonlocal done
            done += n
            if progress is not None:
                progress("counting", done, total)

        if c.texts is None:
            tasks = _plan(c, None)
        elif not tasks:
            tasks = _text_batches(c.texts)
        if progress is not None:
            progress("counting", 0, total)
        for task in tasks:
            merger.add(_count_task(task, c, normalizer, pre_tokenizer, report))
        if progress is not None:
            progress("counting", max(done, total), max(done, total))
        return merger, 1
    assert method is not None  # workers > 1
    _run_pool(c, tasks, normalizer, pre_tokenizer, workers, total, progress, merger, method)
    return merger, workers


def _start_method(normalizer: Any, pre_tokenizer: Any) -> str | None:
    """How counting workers start: as ``encode_batch``'s (:func:`toolkit.batch.start_method`), forked on
    Linux from a process with one thread (they start fast and inherit registered plugins), else spawned
    when the main script (if any) is guarded and a new process can load the components (not a class
    written in a notebook: :func:`toolkit.batch.loads_in_new_process`), else ``None``: this process
    counts alone. Never the platform default, which forks a process that has threads (Jupyter,
    pytest-xdist; Python 3.12+ warns that the child may deadlock) and from Python 3.14 on Linux is
    ``forkserver``, which, like spawn, re-runs an unguarded script in every worker."""
    if _MP_START_METHOD is not None:
        return _MP_START_METHOD
    from toolkit.batch import loads_in_new_process, start_method

    method = start_method()
    if method not in (None, "fork") and not loads_in_new_process(normalizer, pre_tokenizer):
        return None
    return method


def _run_pool(
    c: Corpus, tasks: Iterable[_Task], normalizer: Any, pre_tokenizer: Any, workers: int, total: int,
    progress: Progress | None, merger: _Merger, method: str,
) -> None:
    import multiprocessing

    ctx = multiprocessing.get_context(method)
    shared = ctx.Value("q", 0)
    pool = ctx.Pool(workers, initializer=_init_worker,
                    initargs=(_reading_options(c), normalizer, pre_tokenizer, shared, limits.snapshot()))
    # A bounded window of tasks in flight: an in-memory corpus is never queued whole, and results
    # are consumed in task order (the merge order that makes counts identical to serial counting).
    window: deque[Any] = deque()
    limit = workers * 2
    it = iter(tasks)
    submitted_bytes = 0
    exhausted = False
    try:
        if progress is not None:
            progress("counting", 0, total)
        while True:
            while not exhausted and len(window) < limit:
                task = next(it, None)
                if task is None:
                    exhausted = True
                    break
                submitted_bytes += task.nbytes
                window.append(pool.apply_async(_count_task_in_worker, (task,)))
            if not window:
                break
            head = window[0]
            while not head.ready():
                head.wait(0.1)
                if progress is not None:
                    progress("counting", shared.value, total)
            merger.add(window.popleft().get())
        if progress is not None:
            done = max(shared.value, total)
            progress("counting", done, done)
        pool.close()
        pool.join()
    finally:
        pool.terminate()


def count_words(
    corpus: CorpusSource,
    *,
    normalizer: Normalizer | None = None,
    pre_tokenizer: PreTokenizer | None = None,
    num_workers: int | None = None,
    progress: Progress | None = None,
    backend: Backend = "local",
    scheduler: str | None = None,
    format: Format | None = None,
    document: Document | None = None,
    field: str | None = None,
    errors: Errors | None = None,
) -> Counter[str]:
    """Count the pieces of a corpus (texts, files, directories, globs); see :func:`count_corpus`.

    >>> from pretokenizers import Whitespace
    >>> count_words(["a b a", "b!"], pre_tokenizer=Whitespace())
    Counter({'a': 2, 'b': 2, '!': 1})
    """
    return count_corpus(
        corpus, normalizer=normalizer, pre_tokenizer=pre_tokenizer, num_workers=num_workers, progress=progress,
        backend=backend, scheduler=scheduler, format=format, document=document, field=field, errors=errors,
    ).counts
