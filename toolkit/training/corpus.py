"""Corpus reading and word counting, shared by every trainer.

This module owns everything between "where is the text" and "word counts for the trainer":

- **Sources**: files, directories (every non-hidden file below them, sorted), glob patterns
  (``data/**/*.txt``), or a Python iterable of strings. Files are ``.txt`` (one document per line, the
  default, or one per file) or ``.jsonl``/``.ndjson`` (one JSON object per line, the text in a named
  field); any of them may be gzip-compressed (``.gz``, detected by its magic bytes).
- **Streaming**: files are read in blocks and counted block by block; memory grows with the number
  of distinct words, never with the corpus size (a ``document="file"`` document is the exception: it
  is one text, so it is held whole).
- **Parallel counting**: ``num_workers`` processes (default: every core) count byte ranges of the
  files (cut at line boundaries) and the counts are merged in corpus order, so the result, including
  the order in which words first appear (which ``tie_break="first_occurrence"`` depends on), is
  identical to serial counting.
- **Dask**: ``backend="dask"`` counts the same partitions on a Dask ``distributed`` cluster (an
  existing scheduler address, or a local cluster of worker processes) and reduces the counts here.
- **Errors**: invalid UTF-8 raises :class:`~toolkit.errors.CorpusError` naming the file and the byte
  offset (``errors="replace"`` substitutes U+FFFD instead; never a silent drop); a file that
  disappears, shrinks or becomes unreadable while it is read is a :class:`CorpusError` too.

>>> from pretokenizers import Whitespace
>>> count_words(["a b a", "b!"], pre_tokenizer=Whitespace())
Counter({'a': 2, 'b': 2, '!': 1})
"""

from __future__ import annotations

import glob
import gzip
import hashlib
import itertools
import json
import os
import time
import zlib
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import KW_ONLY, dataclass
from dataclasses import field as dataclass_field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Union

from toolkit.errors import ConfigError, CorpusError

if TYPE_CHECKING:
    from toolkit.interfaces import Normalizer, PreTokenizer

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

CorpusSource = Union[str, "os.PathLike[str]", Iterable[str], Iterable["os.PathLike[str]"], "Corpus"]
Format = Literal["auto", "text", "jsonl"]
Document = Literal["line", "file"]
Errors = Literal["strict", "replace"]
Backend = Literal["local", "dask"]
#: ``progress(stage, done, total)``; for counting, ``done``/``total`` are bytes (``total`` 0 = unknown).
Progress = Callable[[str, int, int], None]

_BLOCK = 1 << 20  # bytes read at a time; also the granularity of progress reports
_MIN_CHUNK = 1 << 20  # smallest byte range worth sending to a worker
_MAX_CHUNK = 64 << 20
_PARALLEL_THRESHOLD = 4 << 20  # below this many bytes, processes cost more than they save
_BATCH_BYTES = 1 << 20  # texts of an in-memory corpus are sent to workers in batches of about this size
_JSONL_SUFFIXES = (".jsonl", ".ndjson")
_DASK_CONNECT_TIMEOUT = "10s"
_MP_START_METHOD: str | None = None  # None: the platform default (tests also run "spawn")
_GLOB_CHARS = frozenset("*?[")


def default_num_workers() -> int:
    """Every core this process may use (``os.sched_getaffinity`` where available)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # macOS, Windows
        return max(1, os.cpu_count() or 1)


# ---------------------------------------------------------------------------------------- sources
@dataclass(frozen=True)
class CorpusFile:
    """One resolved corpus file: its path, size, format and whether it is gzip-compressed."""

    path: str
    size: int
    mtime_ns: int
    format: Literal["text", "jsonl"]
    compressed: bool


def _is_gzip(path: Path) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(2) == b"\x1f\x8b"
    except OSError as exc:
        raise CorpusError(f"cannot open corpus file {path}: {exc.strerror}") from None


def _file_format(path: Path, fmt: Format) -> Literal["text", "jsonl"]:
    if fmt != "auto":
        return fmt
    name = path.name.lower()
    if name.endswith(".gz"):
        name = name[:-3]
    return "jsonl" if name.endswith(_JSONL_SUFFIXES) else "text"


def _describe(path: Path, fmt: Format) -> CorpusFile:
    try:
        st = path.stat()
    except FileNotFoundError:
        raise CorpusError(f"corpus file {path} does not exist") from None
    except OSError as exc:
        raise CorpusError(f"cannot read corpus file {path}: {exc.strerror}") from None
    if not path.is_file():
        raise CorpusError(f"corpus source {path} is not a regular file")
    return CorpusFile(str(path), st.st_size, st.st_mtime_ns, _file_format(path, fmt), _is_gzip(path))


def _expand_source(source: str | os.PathLike[str]) -> list[Path]:
    text = os.fspath(source)
    path = Path(text)
    if path.is_dir():
        found = []
        for root, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))  # sorted + in place: stable walk order
            found.extend(Path(root, f) for f in sorted(files) if not f.startswith("."))
        if not found:
            raise CorpusError(f"corpus directory {path} contains no files")
        return found
    if path.exists():
        return [path]
    if _GLOB_CHARS & set(text):
        matches = sorted(Path(m) for m in glob.glob(text, recursive=True))
        files = [m for m in matches if m.is_file()]
        if not files:
            raise CorpusError(f"corpus pattern {text!r} matched no files")
        return files
    raise CorpusError(f"corpus file {text} does not exist")


def resolve_sources(sources: Sequence[str | os.PathLike[str]], *, format: Format = "auto") -> list[CorpusFile]:
    """Expand files, directories and glob patterns into the list of corpus files, in corpus order.

    Each source keeps its position; a directory or pattern contributes its files sorted by path. A file
    named twice is read once. Raises :class:`CorpusError` for a source that names nothing.

    >>> resolve_sources(["no/such/file.txt"])
    Traceback (most recent call last):
    ...
    toolkit.errors.CorpusError: corpus file no/such/file.txt does not exist
    """
    seen: set[str] = set()
    out: list[CorpusFile] = []
    for source in sources:
        for path in _expand_source(source):
            key = os.path.realpath(path)
            if key not in seen:
                seen.add(key)
                out.append(_describe(path, format))
    if not out:
        raise CorpusError("the corpus names no files")
    return out


def fingerprint_files(files: Sequence[CorpusFile | str | os.PathLike[str]]) -> dict[str, Any]:
    """sha256 of each file's bytes (as stored, compressed or not) and of the whole list, in order.

    The combined ``sha256`` hashes the per-file digests in corpus order, so it changes when any file's
    content or the order changes, but not when files are merely moved.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "a.txt"; _ = p.write_text("hi\\n")
    >>> fingerprint_files([p])["sha256"][:12]
    '1a9ba2a2fb80'
    """
    entries = []
    combined = hashlib.sha256()
    for f in files:
        path = f.path if isinstance(f, CorpusFile) else os.fspath(f)
        digest = hashlib.sha256()
        size = 0
        try:
            with open(path, "rb") as fh:
                while block := fh.read(_BLOCK * 4):
                    digest.update(block)
                    size += len(block)
        except FileNotFoundError:
            raise CorpusError(f"corpus file {path} disappeared while it was being read") from None
        except OSError as exc:
            raise CorpusError(f"cannot read corpus file {path}: {exc.strerror}") from None
        hexdigest = digest.hexdigest()
        combined.update(f"{hexdigest} {size}\n".encode())
        entries.append({"path": str(path), "bytes": size, "sha256": hexdigest})
    return {"sha256": combined.hexdigest(), "files": entries}


# ---------------------------------------------------------------------------------------- corpus
@dataclass
class Corpus:
    """A corpus description: where the text is and how to read it.

    ``sources`` are file paths, directories or glob patterns; or ``texts`` is an iterable of strings
    (exactly one of the two). Options:

    - ``format``: ``"auto"`` (by extension: ``.jsonl``/``.ndjson``, optionally ``.gz``, are JSON
      lines, everything else text), ``"text"`` or ``"jsonl"``.
    - ``document``: text files hold one document per ``"line"`` (default; each line keeps its
      newline, as Hugging Face reads files) or one per ``"file"``.
    - ``field``: the JSON lines field holding the text (``"text"``); dotted for nested objects
      (``"meta.body"``).
    - ``errors``: ``"strict"`` (invalid UTF-8 is a :class:`CorpusError` naming file and byte offset)
      or ``"replace"`` (U+FFFD).

    >>> list(Corpus(texts=["one", "two"]).iter_texts())
    ['one', 'two']
    """

    sources: Sequence[str | os.PathLike[str]] = ()
    _: KW_ONLY
    texts: Iterable[str] | None = None
    format: Format = "auto"
    document: Document = "line"
    field: str = "text"
    errors: Errors = "strict"
    _files: list[CorpusFile] | None = dataclass_field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        if isinstance(self.sources, (str, os.PathLike)):
            self.sources = [self.sources]
        if self.texts is not None and self.sources:
            raise ConfigError("Corpus: give either sources (files) or texts, not both")
        if self.texts is not None and isinstance(self.texts, str):
            raise ConfigError("Corpus: texts must be an iterable of strings, not one string")
        for name, value, allowed in (
            ("format", self.format, ("auto", "text", "jsonl")),
            ("document", self.document, ("line", "file")),
            ("errors", self.errors, ("strict", "replace")),
        ):
            if value not in allowed:
                raise ConfigError(f"Corpus.{name}: must be one of {', '.join(map(repr, allowed))}, got {value!r}")
        if not isinstance(self.field, str) or not self.field:
            raise ConfigError(f"Corpus.field: must be a non-empty string, got {self.field!r}")

    @property
    def files(self) -> list[CorpusFile]:
        """The resolved files (empty for an in-memory corpus); resolved once, on first use."""
        if self.texts is not None:
            return []
        if self._files is None:
            self._files = resolve_sources(self.sources, format=self.format)
        return self._files

    @property
    def total_bytes(self) -> int:
        """Bytes stored on disk (0 for an in-memory corpus): the progress total."""
        return sum(f.size for f in self.files)

    def iter_texts(self) -> Iterator[str]:
        """The documents in corpus order, streamed."""
        if self.texts is not None:
            yield from _checked_texts(self.texts)
            return
        for task in _plan(self, chunk_size=None):
            yield from _task_texts(task, self, None)

    def fingerprint(self) -> dict[str, Any] | None:
        """:func:`fingerprint_files` of the files, ``None`` for an in-memory corpus."""
        return fingerprint_files(self.files) if self.texts is None else None


def _as_corpus(corpus: CorpusSource, options: dict[str, Any]) -> Corpus:
    """Interpret the ``corpus`` argument of :func:`count_words` and friends.

    A single ``str`` or path is a source (file, directory or glob); a list is a list of sources when it
    holds path objects, or when every string names an existing file or directory; otherwise it is a list
    of texts. Any other iterable is texts.
    """
    if isinstance(corpus, Corpus):
        if any(v is not None for v in options.values()):
            raise ConfigError("pass reading options to Corpus(...) or to count_words, not both")
        return corpus
    opts = {k: v for k, v in options.items() if v is not None}
    if isinstance(corpus, (str, os.PathLike)):
        return Corpus(sources=[corpus], **opts)
    if isinstance(corpus, (list, tuple)) and corpus:
        if all(isinstance(c, os.PathLike) for c in corpus):
            return Corpus(sources=list(corpus), **opts)
        if all(isinstance(c, str) and "\n" not in c and len(c) < 4096 and os.path.exists(c) for c in corpus):
            return Corpus(sources=list(corpus), **opts)
    return Corpus(texts=corpus, **opts)  # type: ignore[arg-type]


def _checked_texts(texts: Iterable[str]) -> Iterator[str]:
    for i, text in enumerate(texts):
        if not isinstance(text, str):
            raise CorpusError(f"corpus item {i} is a {type(text).__name__}, expected str")
        yield text


# ---------------------------------------------------------------------------------------- tasks
@dataclass(frozen=True)
class _Task:
    """A unit of counting work: a byte range of a file, a whole (compressed) file, or a batch of texts."""

    file: CorpusFile | None = None
    start: int = 0
    end: int = -1  # -1: to the end of the file
    texts: list[str] | None = None
    nbytes: int = 0  # for progress: bytes on disk (files) or characters (texts)


def _line_boundary(fh: Any, offset: int) -> int:
    """The first line start at or after ``offset`` (``offset`` itself when a line starts there)."""
    fh.seek(offset - 1)
    fh.readline()  # reads up to and including the "\n" that ends the line containing offset - 1
    return fh.tell()


def _plan(corpus: Corpus, chunk_size: int | None) -> Iterator[_Task]:
    """The tasks of a file corpus, in corpus order. ``chunk_size=None``: one task per file."""
    for f in corpus.files:
        splittable = not f.compressed and (f.format == "jsonl" or corpus.document == "line")
        if chunk_size is None or not splittable or f.size <= chunk_size:
            yield _Task(file=f, nbytes=f.size)
            continue
        # Cut at line starts (found here, once, so workers read exact ranges and no line is read
        # twice or lost). "\n" never occurs inside a UTF-8 sequence, so cuts never split a character.
        try:
            with open(f.path, "rb") as fh:
                cuts = [0]
                offset = chunk_size
                while offset < f.size:
                    cut = _line_boundary(fh, offset)
                    if cut >= f.size:
                        break
                    if cut > cuts[-1]:
                        cuts.append(cut)
                    offset = max(cut, cuts[-1]) + chunk_size
        except FileNotFoundError:
            raise CorpusError(f"corpus file {f.path} disappeared while it was being read") from None
        except OSError as exc:
            raise CorpusError(f"cannot read corpus file {f.path}: {exc.strerror}") from None
        cuts.append(f.size)
        for a, b in zip(cuts, cuts[1:]):
            yield _Task(file=f, start=a, end=b, nbytes=b - a)


def _text_batches(texts: Iterable[str]) -> Iterator[_Task]:
    batch: list[str] = []
    size = 0
    for text in _checked_texts(texts):
        batch.append(text)
        size += len(text)
        if size >= _BATCH_BYTES:
            yield _Task(texts=batch, nbytes=size)
            batch, size = [], 0
    if batch:
        yield _Task(texts=batch, nbytes=size)


def _open_checked(f: CorpusFile) -> Any:
    try:
        fh = open(f.path, "rb")
    except FileNotFoundError:
        raise CorpusError(f"corpus file {f.path} disappeared before it could be read") from None
    except OSError as exc:
        raise CorpusError(f"cannot open corpus file {f.path}: {exc.strerror}") from None
    st = os.fstat(fh.fileno())
    if st.st_size != f.size or st.st_mtime_ns != f.mtime_ns:
        fh.close()
        raise CorpusError(
            f"corpus file {f.path} changed while the corpus was being read "
            f"({f.size} bytes when listed, {st.st_size} now); counts would mix two versions"
        )
    return fh


def _raw_blocks(task: _Task, report: Callable[[int], None] | None) -> Iterator[tuple[int, bytes]]:
    """``(offset, block)`` of the task's bytes (uncompressed), each block ending at a line end.

    Offsets are byte offsets in the file (in the uncompressed stream for gzip files).
    """
    f = task.file
    assert f is not None
    fh = _open_checked(f)
    with fh:
        reader: Any = fh
        if f.compressed:
            reader = gzip.GzipFile(fileobj=fh, mode="rb")
        else:
            fh.seek(task.start)
        end = f.size if task.end < 0 else task.end
        pos = task.start  # offset of the next byte to read (uncompressed stream for gzip)
        carry = b""
        carry_at = pos
        last_disk = fh.tell()
        while True:
            want = _BLOCK if f.compressed else min(_BLOCK, end - pos)
            if want <= 0:
                break
            try:
                block = reader.read(want)
            except (OSError, EOFError, zlib.error) as exc:
                what = "is not a valid gzip file or is truncated" if f.compressed else "became unreadable"
                raise CorpusError(f"corpus file {f.path} {what} at byte {pos}: {exc}") from None
            if not block:
                if not f.compressed and pos < end:
                    raise CorpusError(
                        f"corpus file {f.path} ended at byte {pos}, before its listed size {end}: "
                        "it was truncated while being read"
                    )
                break
            pos += len(block)
            if report is not None:
                disk = fh.tell()
                report(disk - last_disk)
                last_disk = disk
            data = carry + block if carry else block
            cut = data.rfind(b"\n") + 1
            if cut == 0:  # no line end yet: keep reading (one very long line)
                carry = data
                continue
            yield carry_at, data[:cut]
            carry = data[cut:]
            carry_at += cut
        if carry:
            yield carry_at, carry


def _decode(data: bytes, offset: int, path: str, errors: str) -> str:
    try:
        return data.decode("utf-8", errors)
    except UnicodeDecodeError as exc:
        raise CorpusError(
            f"corpus file {path} is not valid UTF-8: invalid byte 0x{data[exc.start]:02x} at byte offset "
            f"{offset + exc.start}; convert it to UTF-8, or read it with errors = \"replace\""
        ) from None


def _split_lines(text: str) -> list[str]:
    # Only "\n" ends a line (str.splitlines would also cut at \r, \x0b, U+2028...), and each line
    # keeps its "\n", as when reading a file line by line.
    lines = text.split("\n")
    last = lines.pop()
    lines = [line + "\n" for line in lines]
    if last:
        lines.append(last)
    return lines


def _get_field(obj: Any, dotted: str) -> Any:
    for part in dotted.split("."):
        if not isinstance(obj, dict) or part not in obj:
            return _MISSING
        obj = obj[part]
    return obj


_MISSING = object()


def _task_texts(task: _Task, corpus: Corpus, report: Callable[[int], None] | None) -> Iterator[str]:
    """The documents of one task."""
    if task.texts is not None:
        if report is not None:
            report(task.nbytes)
        yield from task.texts
        return
    f = task.file
    assert f is not None
    if f.format == "text" and corpus.document == "file":
        parts = [_decode(block, offset, f.path, corpus.errors) for offset, block in _raw_blocks(task, report)]
        text = "".join(parts)
        if text:
            yield text
        return
    for offset, block in _raw_blocks(task, report):
        lines = _split_lines(_decode(block, offset, f.path, corpus.errors))
        if f.format == "text":
            yield from lines
            continue
        at = offset
        for line in lines:
            line_at = at
            at += len(line) if line.isascii() else len(line.encode("utf-8", "surrogatepass"))
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise CorpusError(
                    f"corpus file {f.path}: invalid JSON on the line at byte offset {line_at}: {exc.msg}"
                ) from None
            value = _get_field(obj, corpus.field)
            if value is _MISSING:
                raise CorpusError(
                    f"corpus file {f.path}: the JSON object at byte offset {line_at} has no field "
                    f"{corpus.field!r}; set corpus.field to the field holding the text"
                )
            if value is None:
                continue  # an explicit null is "no text", not an error
            if not isinstance(value, str):
                raise CorpusError(
                    f"corpus file {f.path}: field {corpus.field!r} at byte offset {line_at} is a "
                    f"{type(value).__name__}, expected a string"
                )
            yield value


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


def _count_into(
    counts: Counter[str], texts: Iterable[str], normalizer: Any, pre_tokenizer: Any
) -> tuple[int, int]:
    """Add the pieces of ``texts`` to ``counts``; return ``(documents, utf8_bytes)``."""
    normalize = normalizer.normalize_str if normalizer is not None else None
    split = pre_tokenizer.split_text if pre_tokenizer is not None else None
    docs = 0
    nbytes = 0
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
            extend(split(text))
        # One Counter.update per batch of pieces: its per-call overhead would dominate per line.
        if len(pieces) >= 65536:
            counts.update(pieces)
            pieces.clear()
    if pieces:
        counts.update(pieces)
    return docs, nbytes


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


def _init_worker(corpus_options: Corpus, normalizer: Any, pre_tokenizer: Any, shared: Any) -> None:
    _W.update(corpus=corpus_options, normalizer=normalizer, pre_tokenizer=pre_tokenizer, shared=shared)


def _worker_report(n: int) -> None:
    shared = _W["shared"]
    with shared.get_lock():
        shared.value += n


def _count_task(task: _Task, corpus: Corpus, normalizer: Any, pre_tokenizer: Any,
                report: Callable[[int], None] | None) -> tuple[Counter[str], int, int]:
    counts: Counter[str] = Counter()
    docs, nbytes = _count_into(counts, _task_texts(task, corpus, report), normalizer, pre_tokenizer)
    return counts, docs, nbytes


def _count_task_in_worker(task: _Task) -> tuple[Counter[str], int, int]:
    return _count_task(task, _W["corpus"], _W["normalizer"], _W["pre_tokenizer"], _worker_report)


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
    c = _as_corpus(corpus, {"format": format, "document": document, "field": field, "errors": errors})
    t0 = time.perf_counter()
    if backend == "dask":
        merger, workers = _count_dask(c, normalizer, pre_tokenizer, num_workers, scheduler, progress)
    else:
        merger, workers = _count_local(c, normalizer, pre_tokenizer, num_workers, progress)
    return CorpusCounts(merger.result(), merger.documents, merger.bytes, time.perf_counter() - t0, workers)


def _in_daemon_process() -> bool:
    import multiprocessing

    return bool(multiprocessing.current_process().daemon)


def _chunk_size(total: int, workers: int) -> int:
    # About four tasks per worker balances the load without merging too many Counters.
    return max(_MIN_CHUNK, min(_MAX_CHUNK, total // (workers * 4) + 1))


def _count_local(
    c: Corpus, normalizer: Any, pre_tokenizer: Any, num_workers: int | None, progress: Progress | None
) -> tuple[_Merger, int]:
    merger = _Merger()
    total = c.total_bytes  # resolves the files (errors surface here, before any process starts)
    workers = default_num_workers() if num_workers is None else num_workers
    if c.texts is None and num_workers is None and total < _PARALLEL_THRESHOLD:
        workers = 1
    if workers > 1 and _in_daemon_process():
        workers = 1  # a daemonic process (a Pool worker) may not start processes of its own
    tasks: Iterable[_Task] = ()
    if workers > 1 and c.texts is None:
        planned = list(_plan(c, _chunk_size(total, workers)))
        tasks = planned
        if len(planned) < 2:
            workers = 1
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
    _run_pool(c, tasks, normalizer, pre_tokenizer, workers, total, progress, merger)
    return merger, workers


def _run_pool(
    c: Corpus, tasks: Iterable[_Task], normalizer: Any, pre_tokenizer: Any, workers: int, total: int,
    progress: Progress | None, merger: _Merger,
) -> None:
    import multiprocessing

    # The platform default (fork on Linux up to Python 3.13): workers start fast and inherit
    # registered plugins. Everything sent to workers is picklable, so spawn/forkserver work too.
    ctx = multiprocessing.get_context(_MP_START_METHOD)
    shared = ctx.Value("q", 0)
    pool = ctx.Pool(workers, initializer=_init_worker, initargs=(_reading_options(c), normalizer, pre_tokenizer, shared))
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


def _count_dask(
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
            try:
                client = Client(scheduler, timeout=_DASK_CONNECT_TIMEOUT)
            except (OSError, TimeoutError) as exc:
                raise CorpusError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
        else:
            n = num_workers or default_num_workers()
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


def iter_texts(corpus: CorpusSource, **options: Any) -> Iterator[str]:
    """The documents of a corpus in order: file lines (or files, or JSON fields), or the strings themselves.

    >>> list(iter_texts(["a", "b"]))
    ['a', 'b']
    """
    yield from _as_corpus(corpus, {k: options.get(k) for k in ("format", "document", "field", "errors")}).iter_texts()


def iter_file_lines(path: str | os.PathLike[str], *, errors: Errors = "strict") -> Iterator[str]:
    """Lines of a UTF-8 text file (gzip allowed), newline included, streamed.

    With ``errors="strict"`` an invalid byte raises :class:`CorpusError` with the file and byte
    offset; ``errors="replace"`` substitutes U+FFFD instead.
    """
    yield from Corpus(sources=[path], format="text", errors=errors).iter_texts()
