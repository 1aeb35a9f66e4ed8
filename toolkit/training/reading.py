"""Corpus reading: where the training text is, and how it is read, streamed and cut into tasks.

This module owns the sources of a corpus: files, directories (every non-hidden file below them,
sorted), glob patterns (``data/**/*.txt``), or a Python iterable of strings. Files are ``.txt`` (one
document per line, the default, or one per file) or ``.jsonl``/``.ndjson`` (one JSON object per line,
the text in a named field); any of them may be gzip-compressed (``.gz``, detected by its magic bytes).
Files are read in blocks, and cut at line boundaries into byte ranges (tasks) that counting processes
read independently. Invalid UTF-8 raises :class:`~toolkit.errors.CorpusError` naming the file and the
byte offset (``errors="replace"`` substitutes U+FFFD instead; never a silent drop); a file that
disappears, shrinks or becomes unreadable while it is read is a :class:`CorpusError` too.

>>> list(iter_texts(["a", "b"]))
['a', 'b']
"""

from __future__ import annotations

import glob
import gzip
import hashlib
import json
import os
import re
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import KW_ONLY, dataclass
from dataclasses import field as dataclass_field
from pathlib import Path
from typing import Any, Literal, Union

from toolkit import limits
from toolkit.errors import ConfigError, CorpusError

__all__ = [
    "CorpusSource",
    "Corpus",
    "CorpusFile",
    "resolve_sources",
    "iter_texts",
    "iter_file_lines",
    "fingerprint_files",
    "default_num_workers",
]

CorpusSource = Union[str, "os.PathLike[str]", Iterable[str], Iterable["os.PathLike[str]"], "Corpus"]
Format = Literal["auto", "text", "jsonl"]
Document = Literal["line", "file"]
Errors = Literal["strict", "replace"]
#: ``progress(stage, done, total)``; for counting, ``done``/``total`` are bytes (``total`` 0 = unknown).
Progress = Callable[[str, int, int], None]

_BLOCK = 1 << 20  # bytes read at a time; also the granularity of progress reports
_BATCH_BYTES = 1 << 20  # texts of an in-memory corpus are sent to workers in batches of about this size
_JSONL_SUFFIXES = (".jsonl", ".ndjson")
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


def _glob(pattern: str) -> list[Path]:
    """The paths ``pattern`` matches, as ``glob.glob(pattern, recursive=True)``, except that ``**``
    does not descend into symbolic links to directories (as a directory source, ``os.walk``): a link
    back up the tree would otherwise repeat the tree under ever longer paths, without end.

    >>> import tempfile, pathlib, os
    >>> root = pathlib.Path(tempfile.mkdtemp()); (root / "a").mkdir(); _ = (root / "a" / "x.txt").write_text("x")
    >>> os.symlink("..", root / "a" / "up"); os.symlink("..", root / "b")
    >>> [str(p.relative_to(root)) for p in _glob(f"{root}/**/*.txt")]
    ['a/x.txt']
    """
    if "**" not in pattern:
        return [Path(m) for m in glob.glob(pattern)]  # one level per component: no loop possible
    parts = Path(pattern).parts
    first = next(i for i, part in enumerate(parts) if _GLOB_CHARS & set(part))
    root = Path(*parts[:first]) if first else Path(".")
    rest = parts[first:]
    if rest[-1] == "**":
        rest = (*rest, "*")  # glob's trailing ** lists files too; pathlib's lists directories only
    # glob skips names that start with "." unless the pattern spells the dot; pathlib does not
    hidden = any(part.startswith(".") for part in rest)
    found = []
    for path in root.glob(str(Path(*rest))):  # pathlib's ** does not follow links to directories
        below = path.relative_to(root).parts
        if hidden or not any(part.startswith(".") for part in below):
            found.append(path)
    return found


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
        matches = sorted(_glob(text))
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
    '25ca050d6e04'
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
        entries.append({"path": _printable_path(str(path)), "bytes": size, "sha256": hexdigest})
    return {"sha256": combined.hexdigest(), "files": entries}


def _printable_path(path: str) -> str:
    """``path`` as text a JSON file can hold: the bytes of a file name that is not UTF-8 (which Python
    keeps as lone surrogates) are written as ``\\xe9`` escapes.

    >>> _printable_path("caf\\udce9.txt")
    'caf\\\\xe9.txt'
    """
    try:
        path.encode("utf-8")
        return path
    except UnicodeEncodeError:
        pass
    try:
        return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a surrogate that stands for no byte
        return path.encode("utf-8", "backslashreplace").decode("utf-8")


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
    holds path objects, or when every string names an existing file or directory; a list some of whose
    first 64 strings name one and others not is refused (a mistyped path), and so is one whose first 64
    strings all read as corpus file paths (:func:`_looks_like_a_path`) yet name nothing; otherwise it is
    a list of texts. Any other iterable is texts.
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
        if all(_names_a_path(c) for c in corpus):
            return Corpus(sources=list(corpus), **opts)
        if any(_names_a_path(c) for c in corpus[:64]):  # the first 64: a list of texts is not stat-ed whole
            missing = next(c for c in corpus if not _names_a_path(c))
            raise CorpusError(
                f"corpus: some items name existing files and {missing!r:.80} does not; read as texts, the "
                "list would train on the paths themselves: fix the path, or pass texts with train_from_iterator"
            )
        if all(map(_looks_like_a_path, corpus[:64])):  # HF's train(files): a list of paths, one mistyped
            raise CorpusError(
                f"corpus file {corpus[0]} does not exist; to train on these strings as texts, pass them with "
                "train_from_iterator (or an iterator)"
            )
    return Corpus(texts=corpus, **opts)  # type: ignore[arg-type]


#: A file name ending of a corpus file (or a compressed one): a string ending so, without spaces, is
#: taken for a path, not a text.
_CORPUS_FILE = re.compile(r"(?i)[^\s]*\.(?:txt|text|jsonl|ndjson|json|csv|tsv|md|gz|bz2|xz|zst|parquet)")


def _looks_like_a_path(item: Any) -> bool:
    """Whether a string that names nothing still reads as a file path: no whitespace, and a corpus
    file's ending (``"data/train.txt"``, ``"corpus.jsonl"``; not ``"hello"``, nor a line of base64 or
    a URL, which hold ``/`` too).

    >>> _looks_like_a_path("data/train.txt"), _looks_like_a_path("wiki.jsonl.gz"), _looks_like_a_path("a b.txt")
    (True, True, False)
    >>> _looks_like_a_path("hello"), _looks_like_a_path("3.14"), _looks_like_a_path("aGk/b3I+Zm9v")
    (False, False, False)
    """
    return isinstance(item, str) and len(item) < 4096 and _CORPUS_FILE.fullmatch(item) is not None


def _names_a_path(item: Any) -> bool:
    return isinstance(item, str) and "\n" not in item and len(item) < 4096 and os.path.exists(item)


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
        carry: list[bytes] = []  # the start of a line not ended yet, joined once its end arrives (linear)
        carried = 0  # its bytes
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
            cut = block.rfind(b"\n") + 1
            if cut == 0:  # no line end yet: keep reading (one very long line)
                carry.append(block)
                carried += len(block)
                if carried > limits.MAX_DOCUMENT_BYTES:
                    raise _too_long(f.path, carry_at, "a line")
                continue
            _check_lines(block, carried, f.path, carry_at)
            data = b"".join([*carry, block[:cut]]) if carry else block[:cut]
            yield carry_at, data
            carry_at += len(data)
            carry = [block[cut:]] if cut < len(block) else []
            carried = len(block) - cut
        if carry:
            yield carry_at, b"".join(carry)


def _check_lines(block: bytes, carried: int, path: str, at: int) -> None:
    """Raise :func:`_too_long` for a line of ``block`` (the first one continuing ``carried`` bytes
    read before) longer than ``MAX_DOCUMENT_BYTES``; the lines inside a block are only searched when
    the limit is below the block's size."""
    limit = limits.MAX_DOCUMENT_BYTES
    first = block.find(b"\n")
    if carried + first > limit:
        raise _too_long(path, at, "a line")
    if limit < len(block):  # one C split, linear (a regex for a long run would retry at every byte)
        lines = block[first + 1 :].split(b"\n")
        if max(map(len, lines)) > limit:
            offset = at + carried + first + 1
            for line in lines:
                if len(line) > limit:
                    raise _too_long(path, offset, "a line")
                offset += len(line) + 1


def _too_long(path: str, at: int, what: str) -> CorpusError:
    return CorpusError(
        f"corpus file {path}: {what} from byte {at} is longer than {limits.MAX_DOCUMENT_BYTES:,} bytes "
        "(toolkit.limits.MAX_DOCUMENT_BYTES), and counting holds a whole document in memory; split the text "
        "into lines (one document per line), or raise the limit"
    )


def _decode(data: bytes, offset: int, path: str, errors: str) -> str:
    nul = data.count(0)
    if nul and nul * 10 > len(data):  # valid UTF-8, but not text: training would learn NUL tokens
        raise CorpusError(
            f"corpus file {path}: {nul * 100 // len(data)}% of the {len(data):,} bytes from byte offset {offset} "
            "are NUL (0x00): a binary file, or UTF-16/UTF-32 text; convert it to UTF-8 text"
        )
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
        parts = []
        size = 0
        for offset, block in _raw_blocks(task, report):
            size += len(block)
            if size > limits.MAX_DOCUMENT_BYTES:
                raise _too_long(f.path, 0, 'the file (document="file" makes each file one document)')
            parts.append(_decode(block, offset, f.path, corpus.errors))
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
            obj = _parse_json_line(line, f.path, line_at)
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
            yield _no_surrogates(value, f.path, line_at, corpus.errors)


def _parse_json_line(line: str, path: str, at: int) -> Any:
    try:
        return json.loads(line)
    except json.JSONDecodeError as exc:
        reason = exc.msg
    except RecursionError:
        reason = "nested too deeply"
    except ValueError as exc:  # an integer of more than 4300 digits (sys.get_int_max_str_digits)
        reason = str(exc)
    raise CorpusError(f"corpus file {path}: invalid JSON on the line at byte offset {at}: {reason}")


_SURROGATE_RE = re.compile("[\ud800-\udfff]")


def _no_surrogates(value: str, path: str, at: int, errors: str) -> str:
    """A JSON string may escape a lone surrogate (``"\\ud800"``), which is no character of UTF-8 text."""
    if value.isascii() or _SURROGATE_RE.search(value) is None:
        return value
    if errors == "replace":
        return _SURROGATE_RE.sub("\ufffd", value)
    raise CorpusError(
        f"corpus file {path}: the JSON string at byte offset {at} escapes a lone surrogate "
        "(\\ud800-\\udfff), which is not text; fix the file, or read it with errors = \"replace\""
    )


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
