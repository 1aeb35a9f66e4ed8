"""``Tokenizer.encode_batch(num_workers=N)``: encoding in spawned worker processes.

The inputs are cut into contiguous chunks (about four per worker); each worker receives the tokenizer
and the calling process's limits once, encodes its chunks, and sends each back as packed flat columns
(:func:`toolkit.encoding.pack_encodings`: a list of ``Encoding`` objects costs more to pickle than to
encode). Results come back in input order, identical to the serial ones.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from itertools import repeat
from typing import Any

from toolkit import limits
from toolkit.encoding import Encoding, PackedEncodings, pack_encodings, unpack_encodings
from toolkit.runtime import gc_paused

# The tokenizer is typed ``Any``: naming ``toolkit.tokenizer`` here would be an import cycle.
Tokenizer = Any

__all__ = ["encode_in_processes"]


def encode_in_processes(
    tokenizer: Tokenizer, items: list[Any], workers: int, add_special_tokens: bool, allowed: Any
) -> list[Encoding]:
    """``tokenizer.encode_batch(items)`` in ``workers`` spawned processes, chunked, in order."""
    if multiprocessing.current_process().daemon:  # a daemonic process may not start processes
        return [tokenizer._encode_item(item, add_special_tokens, allowed) for item in items]
    workers = min(workers, len(items))
    size = -(-len(items) // (workers * 4))
    chunks = [items[i : i + size] for i in range(0, len(items), size)]
    out: list[Encoding] = []
    with ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_worker_init,
        initargs=(tokenizer, limits.snapshot()),
    ) as pool:
        try:
            with gc_paused():  # millions of cycle-free lists: collecting them is wasted time
                for part in pool.map(_worker_encode, chunks, repeat(add_special_tokens), repeat(allowed)):
                    out += unpack_encodings(part)
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise
    return out


_worker_tokenizer: Tokenizer | None = None  # set in worker processes only


def _worker_init(tokenizer: Tokenizer, limit_values: dict[str, Any]) -> None:
    global _worker_tokenizer
    limits.restore(limit_values)
    _worker_tokenizer = tokenizer


def _worker_encode(chunk: list[Any], add_special_tokens: bool, allowed: Any) -> PackedEncodings:
    tok = _worker_tokenizer
    assert tok is not None, "worker not initialised"
    with gc_paused():
        return pack_encodings([tok._encode_item(item, add_special_tokens, allowed) for item in chunk])
