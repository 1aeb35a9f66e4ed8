"""``Tokenizer.encode_batch(num_workers=N)``: encoding in worker processes.

The inputs are cut into contiguous chunks (about four per worker); each worker receives the tokenizer
and the calling process's limits once, encodes its chunks, and sends each back as packed flat columns
(:func:`toolkit.encoding.pack_encodings`: a list of ``Encoding`` objects costs more to pickle than to
encode). Results come back in input order, identical to the serial ones.

Workers are forked where that is safe (Linux, a process with one thread: nothing to re-import, the
tokenizer and its warm caches are inherited, no lock can be held by a thread that does not exist in
the child), else spawned where that is safe (:func:`spawn_is_safe`), else this process encodes alone.
"""

from __future__ import annotations

import ast
import multiprocessing
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from itertools import repeat
from typing import Any

from toolkit import limits
from toolkit.encoding import Encoding, PackedEncodings, pack_encodings, unpack_encodings
from toolkit.runtime import gc_paused

# The tokenizer is typed ``Any``: naming ``toolkit.tokenizer`` here would be an import cycle.
Tokenizer = Any

__all__ = ["MIN_PARALLEL_CHARS", "encode_in_processes", "spawn_is_safe", "start_method"]

#: Below this many characters in all, starting workers costs more than it saves: one process encodes.
MIN_PARALLEL_CHARS = 1_000_000


def _main_is_guarded() -> bool:
    """False when ``__main__`` is a script whose module level calls code without an
    ``if __name__ == "__main__":`` guard: a spawned worker re-runs that script on import."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if main is None or path is None or getattr(main, "__spec__", None) is not None:
        return True  # interactive, ``python -c``, ``python -m``: the child does not re-run a script
    try:
        tree = ast.parse(open(path, encoding="utf-8").read())  # noqa: SIM115
    except (OSError, SyntaxError, ValueError):
        return False
    quiet = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.Assign,
             ast.AnnAssign, ast.Expr, ast.Pass)
    for node in tree.body:
        if isinstance(node, ast.If) and "__main__" in ast.unparse(node.test):
            continue
        if not isinstance(node, quiet) or (isinstance(node, ast.Expr) and not isinstance(node.value, ast.Constant)):
            return False
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.If)) and any(
            isinstance(n, ast.Call) for n in ast.walk(node)
        ):
            return False
    return True


def spawn_is_safe() -> bool:
    """True when worker processes may be spawned from here: not inside a daemon or a spawning child,
    and the main script (if any) is guarded, so a worker importing it does not encode again (or hang)."""
    return _may_start_children() and _main_is_guarded()


def _may_start_children() -> bool:
    """False in a daemon (it may not have children) and in a spawning child (still importing its script)."""
    proc = multiprocessing.current_process()
    return not (proc.daemon or getattr(proc, "_inheriting", False))


def _threads() -> int:
    """The threads of this process, native ones included (Linux's ``/proc``; elsewhere unknown: 2)."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return 2


def start_method() -> str | None:
    """How workers may start from here: ``"fork"`` on Linux in a process with one thread, else
    ``"spawn"`` when :func:`spawn_is_safe`, else ``None`` (encode in this process)."""
    if not _may_start_children():
        return None
    if sys.platform.startswith("linux") and _threads() == 1:
        return "fork"
    return "spawn" if _main_is_guarded() else None


def encode_in_processes(
    tokenizer: Tokenizer, items: list[Any], workers: int, add_special_tokens: bool, allowed: Any
) -> list[Encoding]:
    """``tokenizer.encode_batch(items)`` by ``workers`` processes, chunked, in order: this one encodes the
    first ``1 / workers`` of the chunks while ``workers - 1`` worker processes encode the rest."""
    size_chars = sum(len(i) if isinstance(i, str) else sum(map(len, i)) for i in items)
    method = start_method() if size_chars >= MIN_PARALLEL_CHARS else None
    if method is None:  # one process: faster, or the only safe way
        return [tokenizer._encode_item(item, add_special_tokens, allowed) for item in items]
    workers = min(workers, len(items))
    size = -(-len(items) // (workers * 4))
    chunks = [items[i : i + size] for i in range(0, len(items), size)]
    own = len(chunks) // workers  # the first chunks: encoded here, so their errors come first as well
    out: list[Encoding] = []
    with ProcessPoolExecutor(
        workers - 1,
        mp_context=multiprocessing.get_context(method),
        initializer=_worker_init,
        initargs=(tokenizer, limits.snapshot()),
    ) as pool:
        try:
            with gc_paused():  # millions of cycle-free lists: collecting them is wasted time
                parts = pool.map(_worker_encode, chunks[own:], repeat(add_special_tokens), repeat(allowed))
                for chunk in chunks[:own]:  # while the workers run
                    out += [tokenizer._encode_item(item, add_special_tokens, allowed) for item in chunk]
                for part in parts:
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
