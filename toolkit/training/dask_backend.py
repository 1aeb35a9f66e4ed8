"""Counting a corpus on a Dask ``distributed`` cluster (``backend="dask"`` of :func:`~toolkit.training.corpus.count_corpus`).

This module owns the Dask backend: connecting to a scheduler (or starting a local cluster of worker
processes), submitting the tasks the local backend would run (byte ranges of the files, batches of
texts) with the pipeline components scattered once, and merging the results here in task order, so
the counts equal serial counting. Dask is an optional extra: ``pip install "tokenizer-toolkit[dask]"``.
"""

from __future__ import annotations

import re
from collections import deque
from typing import Any

from toolkit.errors import ConfigError, CorpusError
from toolkit.training.tasks import _chunk_size, _count_task_standalone, _Merger, _reading_options
from toolkit.training.reading import Corpus, Progress, _plan, _text_batches, default_num_workers

__all__ = ["count_dask", "scheduler_problem"]

_DASK_CONNECT_TIMEOUT = "10s"

#: ``[scheme://]host:port`` (Dask's own schemes; ``inproc://`` addresses are Dask's internal ones).
_ADDRESS = re.compile(r"(?:(?:tcp|tls|ucx|ws|wss)://)?(?:\[[0-9A-Fa-f:.]+\]|[^\s:/\[\]]+):(\d{1,5})|inproc://\S+")


def scheduler_problem(address: Any) -> str | None:
    """Why ``address`` is no Dask scheduler address, or ``None``.

    >>> scheduler_problem("tcp://10.0.0.5:8786") is None, scheduler_problem("localhost")
    (True, "scheduler: 'localhost' is not a Dask scheduler address; write it as tcp://host:port (e.g. tcp://10.0.0.5:8786)")
    """
    match = _ADDRESS.fullmatch(address) if isinstance(address, str) else None
    if match is not None and (match.group(1) is None or 0 < int(match.group(1)) < 65536):
        return None
    return f"scheduler: {address!r:.80} is not a Dask scheduler address; write it as tcp://host:port (e.g. tcp://10.0.0.5:8786)"


def count_dask(
    c: Corpus, normalizer: Any, pre_tokenizer: Any, num_workers: int | None, scheduler: str | None,
    progress: Progress | None,
) -> tuple[_Merger, int]:
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise ConfigError(
            'backend "dask" needs Dask distributed: pip install "tokenizer-toolkit[dask]" '
            '(or pip install "dask[distributed]")'
        ) from None
    merger = _Merger()
    total = c.total_bytes
    cluster = None
    try:
        if scheduler:
            problem = scheduler_problem(scheduler)
            if problem is not None:
                raise ConfigError(problem)
            try:
                client = Client(scheduler, timeout=_DASK_CONNECT_TIMEOUT)
            except (OSError, TimeoutError) as exc:
                raise CorpusError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
        else:
            n = min(num_workers or default_num_workers(), default_num_workers())  # no more than the cores
            # Processes, one thread each: counting is pure Python, so threads would share one GIL.
            cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None)
            client = Client(cluster)
        with client:
            workers = max(1, len(client.scheduler_info().get("workers", {})))
            tasks = _text_batches(c.texts) if c.texts is not None else _plan(c, _chunk_size(total, workers))
            options = _reading_options(c)
            # Scatter the (small) pipeline components once instead of pickling them into every task.
            norm_f, pre_f, opt_f = client.scatter([normalizer, pre_tokenizer, options], broadcast=True)
            window: deque[Any] = deque()
            done = 0
            if progress is not None:
                progress("counting", 0, total)
            it = iter(tasks)
            exhausted = False
            while True:
                while not exhausted and len(window) < workers * 2:
                    task = next(it, None)
                    if task is None:
                        exhausted = True
                        break
                    future = client.submit(_count_task_standalone, task, opt_f, norm_f, pre_f, pure=False)
                    window.append((task.nbytes, future))
                if not window:
                    break
                nbytes, future = window.popleft()
                merger.add(future.result())
                done += nbytes
                if progress is not None:
                    progress("counting", done, total)
        return merger, workers
    finally:
        if cluster is not None:
            cluster.close()
