"""``Tokenizer.encode_batch(num_workers=N)``: encoding in worker processes.

This process first encodes a small probe of the inputs: if its caches already held nearly every piece,
workers would cost more (starting, packing, unpacking) than the encoding they take over, and this
process encodes the rest alone. Otherwise the rest is cut into one contiguous share per process,
balanced by characters; this process encodes the first while each worker encodes one of the others and
sends it back in parts, as packed flat columns (:func:`toolkit.encoding.pack_encodings`: a list of
``Encoding`` objects costs more to pickle than to encode), which this process takes between parts of its
own. Results come back in input order, identical to the serial ones, and so do errors.

Workers are forked where that is safe (Linux, a process with one thread: nothing to re-import, the
tokenizer and its warm caches are inherited, no lock can be held by a thread that does not exist in
the child), else spawned where that is safe (:func:`spawn_is_safe`), else this process encodes alone.
"""

from __future__ import annotations

import ast
import io
import multiprocessing
import os
import pickle
import sys
import types
from bisect import bisect_left
from itertools import accumulate
from typing import Any

from toolkit import limits
from toolkit.encoding import Encoding, pack_encodings, unpack_encodings
from toolkit.runtime import gc_paused

# The tokenizer is typed ``Any``: naming ``toolkit.tokenizer`` here would be an import cycle.
Tokenizer = Any

__all__ = ["MIN_PARALLEL_CHARS", "encode_in_processes", "loads_in_new_process", "spawn_is_safe", "start_method"]

#: Below this many characters in all, starting workers costs more than it saves: one process encodes.
MIN_PARALLEL_CHARS = 1_000_000


def _main_is_guarded() -> bool:
    """False when ``__main__`` is a script (or a module run with ``python -m``) whose module level
    calls code without an ``if __name__ == "__main__":`` guard: a spawned worker re-runs it on import
    (as ``__mp_main__``; a package's ``__main__`` is not re-run)."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if main is None or path is None:
        return True  # interactive, ``python -c``: no script for the child to re-run
    spec = getattr(main, "__spec__", None)
    if spec is not None and (spec.name == "__main__" or spec.name.endswith(".__main__")):
        return True  # multiprocessing does not re-run a package's __main__
    try:
        with open(path, encoding="utf-8") as script:  # closed at once: no ResourceWarning
            tree = ast.parse(script.read())
    except (OSError, SyntaxError, ValueError):
        return False
    return _quiet(tree.body)


_QUIET = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.Assign,
          ast.AnnAssign, ast.Expr, ast.Pass)


def _quiet(body: list[ast.stmt]) -> bool:
    """Whether running ``body`` calls nothing: imports, definitions, constants, the ``__main__``
    guard; a class body runs too, so its statements are checked the same way."""
    for node in body:
        if isinstance(node, ast.If) and "__main__" in ast.unparse(node.test):
            continue
        if not isinstance(node, _QUIET) or (isinstance(node, ast.Expr) and not isinstance(node.value, ast.Constant)):
            return False
        if isinstance(node, ast.ClassDef) and not _quiet(node.body):
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


class _NewProcessCheck(pickle.Pickler):
    """Pickles to nowhere, noting any class or function that a new process would look up in a
    ``__main__`` it cannot import (no file: an interactive session, a notebook, ``python -c``)."""

    def __init__(self, main_has_file: bool) -> None:
        super().__init__(_Discard(), protocol=pickle.HIGHEST_PROTOCOL)
        self.main_has_file = main_has_file
        self.from_main = False

    def reducer_override(self, obj: Any) -> Any:
        if not self.main_has_file and isinstance(obj, (type, types.FunctionType)) and obj.__module__ == "__main__":
            self.from_main = True
        return NotImplemented


class _Discard(io.RawIOBase):
    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        return len(data)


def loads_in_new_process(*objects: Any) -> bool:
    """Whether a spawned (or forkserver) worker could load ``objects``: they pickle, and no class or
    function they need is defined in a ``__main__`` without a file (a component class written in a
    notebook cell), which the worker could not import. A forked worker inherits them instead.

    >>> from pretokenizers import Whitespace
    >>> loads_in_new_process(Whitespace()), loads_in_new_process(lambda: 0)
    (True, False)
    """
    main = sys.modules.get("__main__")
    check = _NewProcessCheck(main_has_file=getattr(main, "__file__", None) is not None)
    try:
        check.dump(objects)
    except Exception:  # noqa: BLE001 - any failure to pickle: a new process cannot get them
        return False
    return not check.from_main


def _chars(item: Any) -> int:
    """The characters of one input (a text, a pair, pre-tokenized words), to balance the shares; 0
    for what is not text (``None`` of a pair, a bad item: encoding it reports it, as in one process).

    >>> _chars("abc"), _chars(("ab", None)), _chars((["a", "bc"], ["d"])), _chars(5)
    (3, 2, 4, 0)
    """
    if isinstance(item, str):
        return len(item)
    if not isinstance(item, (tuple, list)):
        return 0
    return sum(len(part) if isinstance(part, str) else _chars(part) if isinstance(part, (tuple, list)) else 0
               for part in item)


def _shares(sizes: list[int], processes: int, own: float) -> list[int]:
    """Cuts ``[0, c1, ..., len(sizes)]`` into ``processes`` contiguous shares of about equal characters,
    the first (this process's) ``own`` times the size of each other one.

    >>> _shares([1] * 10, 2, 1.0), _shares([1] * 10, 3, 0.5)
    ([0, 5, 10], [0, 2, 6, 10])
    """
    ends = list(accumulate(sizes))
    unit = ends[-1] / (own + processes - 1) if ends else 0
    cuts = [0]
    for k in range(processes - 1):
        cuts.append(min(len(sizes), max(cuts[-1], bisect_left(ends, unit * (own + k)) + 1)))
    return cuts + [len(sizes)]


#: The probe: the first items, up to this share of all characters, encoded in this process before
#: any worker starts. Only where that is a small part of the items (``_probe_end``).
PROBE_SHARE = 0.02

#: Warm caches: fewer new cache entries than this per 1,000 characters of the probe. Then this process
#: encodes the rest alone: workers would cost more than they save (docs/benchmarks.md).
WARM_NEW_PER_1000 = 2.0


def _probe_end(ends: list[int]) -> int:
    """The items the probe encodes: ``items[:k]``, the first whose characters reach ``PROBE_SHARE`` of
    all; 0 (no probe) when those are more than a tenth of the items or more than twice that share of
    the characters (a few long texts: the probe would be much of the work)."""
    if not ends:
        return 0
    k = bisect_left(ends, PROBE_SHARE * ends[-1]) + 1
    return k if k * 10 <= len(ends) and ends[k - 1] <= 2 * PROBE_SHARE * ends[-1] else 0


#: This process's share relative to a worker's: a worker also packs and sends its share, and this
#: process unpacks it, so this process takes a bit more (measured: docs/benchmarks.md).
OWN_SHARE = 1.1


def encode_in_processes(
    tokenizer: Tokenizer, items: list[Any], workers: int, add_special_tokens: bool, allowed: Any
) -> list[Encoding]:
    """``tokenizer.encode_batch(items)`` by up to ``workers`` processes, in order: this one encodes the
    probe, then the rest alone if the probe found the caches warm, else with ``workers - 1`` worker
    processes (:func:`_encode_shares`). A model that samples (BPE-dropout, Unigram sampling) draws in
    one process, in input order: a seeded model then gives the serial encodings, and a forked worker
    never repeats this process's draws."""
    sizes = [_chars(item) for item in items]
    method = start_method() if sum(sizes) >= MIN_PARALLEL_CHARS and not tokenizer.model.stochastic else None
    if method not in (None, "fork") and not loads_in_new_process(tokenizer):
        method = None  # a spawned worker could not load the tokenizer (a component defined in a notebook)
    if method is None:  # one process: faster, the only safe way, or the only way to draw as in one process
        return _encode_here(tokenizer, items, add_special_tokens, allowed)
    ends = list(accumulate(sizes))
    k = _probe_end(ends)
    caches = tokenizer._current_caches()
    before = caches.entries()
    head = _encode_here(tokenizer, items[:k], add_special_tokens, allowed)
    new = caches.entries() - before  # negative: a full cache started again, the caches are not warm
    # Caches of capacity 0 (``cache_capacity = 0``) hold nothing, and every piece is work.
    if k and caches.capacity > 0 and 0 <= new < WARM_NEW_PER_1000 * ends[k - 1] / 1000:
        return head + _encode_here(tokenizer, items[k:], add_special_tokens, allowed)
    return head + _encode_shares(tokenizer, items[k:], sizes[k:], workers, method, add_special_tokens, allowed)


def _encode_here(tokenizer: Tokenizer, items: list[Any], add_special_tokens: bool, allowed: Any) -> list[Encoding]:
    """``items`` encoded in this process (or in a worker, by the worker), the collector paused: the
    encodings are many small cycle-free lists."""
    with gc_paused():
        return [tokenizer._encode_item(item, add_special_tokens, allowed) for item in items]


def _encode_shares(
    tokenizer: Tokenizer, items: list[Any], sizes: list[int], workers: int, method: str, add_special_tokens: bool,
    allowed: Any,
) -> list[Encoding]:
    """``items`` encoded by this process (the first share) and ``workers - 1`` worker processes, one
    contiguous share each.

    Each worker gets its share once (inherited when forked, in its start-up data when spawned) and
    sends it back in parts of about ``PART_CHARS`` characters through its own pipe, enlarged where
    the system allows so that a part fits: the worker goes on encoding while its last part waits.
    This process encodes its own share in parts too and takes what has arrived in between, so
    neither side waits for the other until the end. No thread runs in this process meanwhile: a
    thread reading the pipes would wait for the interpreter lock while this process encodes."""
    cuts = _shares(sizes, min(workers, len(items)), OWN_SHARE)
    context = multiprocessing.get_context(method)
    started: list[_Share] = []
    limit_values = limits.snapshot()
    try:
        for start, stop in zip(cuts[1:-1], cuts[2:]):
            if start == stop:
                continue
            reader, writer = context.Pipe(duplex=False)
            _enlarge(writer)
            process = context.Process(
                target=_worker,
                args=(writer, tokenizer, limit_values, items[start:stop], sizes[start:stop], add_special_tokens,
                      allowed),
                daemon=True,
            )
            process.start()
            writer.close()  # the worker holds the only writing end: its death ends our read
            started.append(_Share(process, reader))
        with gc_paused():  # millions of cycle-free lists: collecting them is wasted time
            out: list[Encoding] = []
            own = cuts[1]
            for start, stop in _parts(sizes[:own]):
                out += _encode_here(tokenizer, items[start:stop], add_special_tokens, allowed)
                for share in started:
                    share.take(block=False)
            for share in started:  # in input order: the first error of the serial loop is raised
                share.take(block=True)
                for part in share.parts:
                    out += part
        return out
    finally:
        for share in started:
            share.reader.close()
            if share.process.is_alive():
                share.process.terminate()
            share.process.join()


#: The size of the parts a worker sends (and this process encodes between looking at the pipes), in
#: characters: a packed part of ordinary text (about 20 bytes per token) then fits an enlarged pipe.
PART_CHARS = 100_000

#: The pipe buffer asked for (Linux ``F_SETPIPE_SZ``; its default limit for any user is 1 MiB).
PIPE_BYTES = 1 << 20


def _parts(sizes: list[int]) -> list[tuple[int, int]]:
    """``[(start, stop), ...]``: consecutive runs of items of about ``PART_CHARS`` characters each (at
    least one item each).

    >>> _parts([60_000, 60_000, 10, 200_000, 5])
    [(0, 2), (2, 4), (4, 5)]
    """
    out: list[tuple[int, int]] = []
    start = total = 0
    for i, n in enumerate(sizes):
        total += n
        if total >= PART_CHARS:
            out.append((start, i + 1))
            start, total = i + 1, 0
    if start < len(sizes):
        out.append((start, len(sizes)))
    return out


def _enlarge(connection: Any) -> None:
    """Ask for a ``PIPE_BYTES`` buffer on the pipe under ``connection`` (Linux; elsewhere, or when the
    system refuses, the pipe keeps its size: a worker then waits for this process to read)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import fcntl

        fcntl.fcntl(connection.fileno(), fcntl.F_SETPIPE_SZ, PIPE_BYTES)
    except (OSError, ValueError, AttributeError):
        pass


class _Share:
    """One worker's process and pipe, and the parts of its share received so far (unpacked)."""

    def __init__(self, process: Any, reader: Any) -> None:
        self.process = process
        self.reader = reader
        self.parts: list[list[Encoding]] = []
        self.done = False
        self.error: BaseException | None = None

    def take(self, *, block: bool) -> None:
        """Receive the parts that have arrived (``block``: every part, until the worker's end). The
        worker's error is kept until ``block``, and raised then: after this process's own share and
        the shares before this one, as the serial loop would meet it."""
        while self.error is None and not self.done and (block or self.reader.poll()):
            status, payload = _receive(self.process, self.reader)
            if status == "end":
                self.done = True
            elif status == "part":
                self.parts.append(unpack_encodings(payload))
            else:
                self.error = payload
        if block and self.error is not None:
            raise self.error


def _receive(process: Any, reader: Any) -> tuple[str, Any]:
    """A worker's next message: ``("part", packed encodings)``, ``("end", None)`` or ``("error",
    exception)``, also when the worker ended without a word."""
    try:
        message: tuple[str, Any] = reader.recv()
    except EOFError:
        process.join()
        return "error", RuntimeError(
            f"an encode_batch worker process ended without a result (exit code {process.exitcode}); "
            "if it ran out of memory, use fewer num_workers or smaller batches"
        )
    return message


def _worker(
    conn: Any, tokenizer: Tokenizer, limit_values: dict[str, Any], items: list[Any], sizes: list[int],
    add_special_tokens: bool, allowed: Any,
) -> None:
    """Encode ``items`` and send ``("part", packed encodings)`` per part, then ``("end", None)``; or,
    at the first failure, ``("error", exception)``."""
    limits.restore(limit_values)
    try:
        for start, stop in _parts(sizes):
            conn.send(("part", pack_encodings(_encode_here(tokenizer, items[start:stop], add_special_tokens, allowed))))
        message: tuple[str, Any] = ("end", None)
    except Exception as exc:  # noqa: BLE001 - sent to the caller, who raises it
        message = ("error", exc)
    try:
        conn.send(message)
    except Exception as exc:  # noqa: BLE001 - an exception that does not pickle
        conn.send(("error", RuntimeError(f"an encode_batch worker failed: {message[1]!r:.500} ({exc})")))
    conn.close()
