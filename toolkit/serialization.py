"""The tokenizer file format: one versioned JSON document, and atomic writes.

Layout (``version`` 2)::

    {
      "format": "tokenizer-toolkit",
      "version": 2,
      "normalizer": {"type": ...} | null,
      "pre_tokenizer": {"type": ...} | null,
      "model": {"type": ...},
      "post_processor": {"type": ...} | null,
      "decoder": {"type": ...} | null,
      "metadata": {...}
    }

Every component carries its ``"type"`` tag and is rebuilt through :mod:`toolkit.registry`. Reading
validates fully unless the caller marks the document as trusted; while an untrusted document is
built, :func:`reading_untrusted` is true, so a component can refuse options that are fine in a
program but not from a stranger (``Split`` refuses to switch its regex timeout off). Every problem
is a :class:`~toolkit.errors.SerializationError` naming the field. Files are written to a temporary file in
the same folder and renamed over the target, so a crash never leaves a half-written file.

Version 1 documents (written before Hugging Face's defaults were adopted) are read with the meaning
they were written with (:func:`upgrade_document`): a ``ByteLevel`` pre-tokenizer without
``add_prefix_space`` adds no space, and a ``Split`` pattern given as a plain string is a regular
expression (``"literal": true``: literal text). Version 2 writes a ``Split`` pattern as HF does,
``{"Regex": "..."}`` or ``{"String": "..."}``.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from toolkit import limits
from toolkit.errors import SerializationError, ToolkitError
from toolkit.interfaces import build
from toolkit.runtime import gc_paused

__all__ = [
    "FORMAT",
    "VERSION",
    "PIPELINE_FIELDS",
    "parse_json",
    "refuse_lone_surrogates",
    "check_document",
    "upgrade_document",
    "build_components",
    "reading_untrusted",
    "untrusted_document",
    "atomic_write_text",
    "write_problem",
    "names_a_folder",
    "write_target",
    "missing_folders",
    "utf8",
    "atomic_write_bytes",
]

FORMAT = "tokenizer-toolkit"
VERSION = 2
PIPELINE_FIELDS = ("normalizer", "pre_tokenizer", "model", "post_processor", "decoder")


def parse_json(text: str, *, source: str = "<string>", decoded: bool = False,
               parse_float: Callable[[str], float] | None = None) -> Any:
    """Parse JSON text; malformed or truncated JSON is a :class:`SerializationError` with its position,
    and so is nesting deeper than ``toolkit.limits.MAX_NESTING_DEPTH``, and a lone surrogate in any
    string (:func:`refuse_lone_surrogates`). ``decoded``: ``text`` was decoded from UTF-8 bytes, so only a JSON
    escape can make one (a C-speed search; a str from Python is checked by encoding it). ``parse_float``
    reads each number with a point or an exponent (as ``json.loads``'s; a ``ValueError`` it raises
    is a :class:`SerializationError`)."""
    try:
        with gc_paused():  # a large file is millions of cycle-free containers: collecting them is wasted time
            data = json.loads(text, parse_float=parse_float)
    except json.JSONDecodeError as exc:
        raise SerializationError(
            f"{source}: not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno}); "
            "the file may be truncated or not a tokenizer file"
        ) from None
    except RecursionError:
        raise SerializationError(f"{source}: JSON nested too deeply to be a tokenizer file") from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits (sys.get_int_max_str_digits)
        raise SerializationError(f"{source}: not a valid tokenizer file ({exc})") from None
    limits.check_nesting_depth(data, source=source)
    if _SURROGATE_ESCAPE.search(text) or not (decoded or _encodable(text)):  # else no string holds one
        refuse_lone_surrogates(data, source=source)
    return data


# A "\ud800"-style escape, upper or lower case (a pair, or an escaped backslash before "ud800", also
# matches: the walk then finds nothing).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")  # faster than searching a non-ASCII str for surrogates
    except UnicodeEncodeError:
        return False
    return True


def refuse_lone_surrogates(data: Any, *, source: str) -> None:
    """Refuse a document any of whose strings (keys too) holds a lone surrogate: no file can hold it,
    and saving the document again would fail. HF's JSON reader refuses it too.

    >>> refuse_lone_surrogates({"metadata": {"x": "\\ud800"}}, source="t.json")
    Traceback (most recent call last):
    toolkit.errors.SerializationError: t.json: metadata.x: '\\ud800' holds a lone surrogate (U+D800), ...
    """
    found = limits.lone_surrogate_in(data)
    if found is not None:
        path, value = found
        raise SerializationError(
            f"{source}: {path}: {limits.surrogate_problem(value)}; a \\uD800-style escape must be half of a "
            "pair (\\ud83d\\ude00 is one emoji): remove it or write the character itself"
        )


def check_document(data: Any, *, source: str = "<string>") -> dict[str, Any]:
    """Check the envelope of a parsed document: format name, version, field types."""
    if not isinstance(data, dict):
        raise SerializationError(f"{source}: the document must be a JSON object, got {type(data).__name__}")
    fmt = data.get("format")
    if fmt != FORMAT:
        hint = " (this looks like a Hugging Face tokenizer.json: use Tokenizer.from_hf_json)" if "added_tokens" in data else ""
        raise SerializationError(f"{source}: format: expected {FORMAT!r}, got {fmt!r}{hint}")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise SerializationError(f"{source}: version: must be an integer, got {version!r}")
    if version > VERSION:
        raise SerializationError(
            f"{source}: version: file format version {version} is newer than this toolkit supports "
            f"({VERSION}); upgrade tokenizer-toolkit to read it"
        )
    if version < 1:
        raise SerializationError(f"{source}: version: must be >= 1, got {version}")
    unknown = set(data) - {"format", "version", "metadata", "truncation", "padding", "added_tokens", *PIPELINE_FIELDS}
    if unknown:
        raise SerializationError(f"{source}: unknown top-level field(s): {', '.join(sorted(unknown))}")
    if "model" not in data or data["model"] is None:
        raise SerializationError(f"{source}: model: required field is missing")
    meta = data.get("metadata", {})
    if not isinstance(meta, dict):
        raise SerializationError(f"{source}: metadata: must be an object, got {type(meta).__name__}")
    return upgrade_document(data)


def upgrade_document(data: dict[str, Any]) -> dict[str, Any]:
    """A document of an earlier ``version`` rewritten in the current one, with the same meaning.

    >>> old = {"version": 1, "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
    ...     {"type": "Split", "pattern": "\\\\s+", "literal": False}, {"type": "ByteLevel", "use_regex": False}]}}
    >>> upgrade_document(old)["pre_tokenizer"]["pretokenizers"]
    [{'type': 'Split', 'pattern': {'Regex': '\\\\s+'}}, {'type': 'ByteLevel', 'use_regex': False, 'add_prefix_space': False}]
    """
    if data.get("version") != 1 or not isinstance(data.get("pre_tokenizer"), dict):
        return data
    return {**data, "version": VERSION, "pre_tokenizer": _upgrade_v1_pre_tokenizer(data["pre_tokenizer"])}


def _upgrade_v1_pre_tokenizer(spec: Any, depth: int = 0) -> Any:
    """Version 1 → 2 of one pre-tokenizer (and its children): the defaults that changed, made explicit.
    Anything malformed is left as it is, for the component check to name."""
    if not isinstance(spec, dict) or depth > limits.MAX_NESTING_DEPTH:
        return spec
    kind = spec.get("type")
    if kind == "ByteLevel" and "add_prefix_space" not in spec:
        return {**spec, "add_prefix_space": False}  # version 1's default
    literal = spec.get("literal", False)
    if kind == "Split" and isinstance(spec.get("pattern"), str) and isinstance(literal, bool):
        out = {k: v for k, v in spec.items() if k != "literal"}
        out["pattern"] = {"String" if literal else "Regex": spec["pattern"]}  # version 1: a regex unless literal
        return out
    if kind == "Sequence" and isinstance(spec.get("pretokenizers"), list):
        children = [_upgrade_v1_pre_tokenizer(child, depth + 1) for child in spec["pretokenizers"]]
        return {**spec, "pretokenizers": children}
    return spec


_UNTRUSTED: ContextVar[bool] = ContextVar("toolkit_untrusted_document", default=False)


def reading_untrusted() -> bool:
    """True while the components of an untrusted (validated) document are being built.

    >>> reading_untrusted()
    False
    >>> with untrusted_document():
    ...     reading_untrusted()
    True
    """
    return _UNTRUSTED.get()


@contextmanager
def untrusted_document() -> Iterator[None]:
    """Within the block, :func:`reading_untrusted` is true (:func:`build_components` uses it)."""
    token = _UNTRUSTED.set(True)
    try:
        yield
    finally:
        _UNTRUSTED.reset(token)


def build_components(data: dict[str, Any], *, validate: bool, source: str = "<string>") -> dict[str, Any]:
    """Build the pipeline components of a parsed document through the registry (its nesting depth
    checked already: by :func:`parse_json`, or by ``Tokenizer.from_dict`` for a dict built in memory).

    ``validate=True`` treats the document as untrusted: every option is checked, and components
    apply their rules for files from elsewhere (see :func:`reading_untrusted`).
    """
    out: dict[str, Any] = {}
    with gc_paused():  # a large model builds hundreds of thousands of cycle-free tuples and dicts
        for kind in PIPELINE_FIELDS:
            out[kind] = _build_one(kind, data.get(kind), validate=validate, source=source)
    return out


def _build_one(kind: str, spec: Any, *, validate: bool, source: str) -> Any:
    """One pipeline component of a document (``None`` stays ``None``); errors name ``source``."""
    if spec is None:
        return None
    try:
        if validate:
            with untrusted_document():
                return build(kind, spec, validate=True)
        return build(kind, spec, validate=False)
    except SerializationError:
        raise
    except ToolkitError as exc:
        raise SerializationError(f"{source}: {exc}") from None


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically: see :func:`atomic_write_bytes` and :func:`utf8`."""
    atomic_write_bytes(path, utf8(text, path=path))


def utf8(text: str, *, path: str | os.PathLike[str]) -> bytes:
    """``text`` as UTF-8 for the file ``path``. Text holding a lone surrogate (made in Python: a loaded
    file cannot hold one, :func:`refuse_lone_surrogates`) is a :class:`SerializationError`, before anything is written.

    >>> utf8("é", path="t.json")
    b'\\xc3\\xa9'
    """
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise SerializationError(
            f"cannot write {path}: {text[max(exc.start - 20, 0) : exc.end + 20]!r} holds a lone surrogate "
            f"(U+{ord(text[exc.start]):04X}), which is not text; find the string that holds it (a token, a "
            "pattern, metadata) and replace it"
        ) from None


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` via a temporary file in the same folder and an atomic rename.

    If anything fails, the previous file (if any) is untouched, no temporary file is left, and a
    :class:`SerializationError` names ``path`` (disk full, read-only folder...). A symlink is
    followed (its target is replaced, the link stays); a FIFO, device or folder is refused, and so is
    a path ending in a slash (it names a folder).
    """
    target = write_target(path)
    folder = target.parent
    if not folder.is_dir():
        raise SerializationError(f"cannot write {path}: folder {folder} does not exist")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise _write_error(path, exc) from exc
    try:
        with os.fdopen(fd, "wb") as fh:
            # mkstemp creates the file private (0600); give it the mode a plain open() would (or keep
            # the mode of the file it replaces), so saving never changes who can read the tokenizer.
            os.chmod(tmp, _mode_for(target))
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(exc, OSError):
            raise _write_error(path, exc) from exc
        raise


_NAMES_A_FOLDER = "the path ends with a slash or a dot, which names a folder; give a file path"


def names_a_folder(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` ends with a separator or a ``.`` part (``out/``, ``out/.``): ``Path`` would drop
    it and write a file ``out``.

    >>> names_a_folder("out/"), names_a_folder("out/."), names_a_folder("out/tok.json")
    (True, True, False)
    """
    text = os.fspath(path)
    return text.endswith(tuple(sep for sep in (os.sep, os.altsep) if sep)) or os.path.basename(text) in (".", "..")


def _not_a_file(path: Path) -> str | None:
    """Why the existing ``path`` (a symlink followed, ``/dev/stdout`` to its pipe) cannot be replaced by
    a file, or ``None``."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "it is a loop of symbolic links; remove it or give another path"
        return None  # nothing there yet (or a dangling link: its target is created)
    if stat.S_ISREG(mode):
        return None
    kind = "folder" if stat.S_ISDIR(mode) else "FIFO" if stat.S_ISFIFO(mode) else "device or special file"
    return f"it is a {kind}, not a regular file; save to a file path instead"


def write_target(path: str | os.PathLike[str]) -> Path:
    """The file a save to ``path`` replaces: the target of a symlink (so the link survives), else
    ``path``; a path naming a folder, an existing folder, FIFO or device and a read-only file are a
    :class:`SerializationError` (:func:`write_problem` says why without raising).

    >>> write_target("out/tokenizer.json")
    PosixPath('out/tokenizer.json')
    """
    target, problem = _checked_target(path)
    if problem is not None:
        raise SerializationError(f"cannot write {os.fspath(path)}: {problem}")
    return target


def _checked_target(path: str | os.PathLike[str]) -> tuple[Path, str | None]:
    """:func:`write_target` and why it cannot be written (``None``: it can)."""
    given = Path(path)
    if names_a_folder(path):
        return given, _NAMES_A_FOLDER
    problem = _not_a_file(given)
    if problem is not None:
        return given, problem
    target = Path(os.path.realpath(given)) if given.is_symlink() else given
    return target, _READ_ONLY if is_read_only(target) else None


def write_problem(path: str | os.PathLike[str]) -> str | None:
    """Why a save to ``path`` would be refused, or ``None``; a command checks it before its work (a
    training, a comparison), so that the work never ends in a refused save. The folders on the way
    may be missing (the caller makes them), but the nearest one that exists must be a folder this user
    may write in; the folder of a symlink's target must exist.

    >>> write_problem("/dev/null")
    'it is a device or special file, not a regular file; save to a file path instead'
    >>> write_problem("out/")
    'the path ends with a slash or a dot, which names a folder; give a file path'
    """
    if not os.fspath(path):
        return "the path is empty; give a file path"
    try:
        target, problem = _checked_target(path)
        if problem is not None:
            return problem
        if target != Path(path) and not target.parent.is_dir():
            return f"it is a link to {target}, whose folder does not exist; create {target.parent} or give another path"
        missing = missing_folders(target.parent)  # the caller makes them, in the nearest one that exists
        dangling = next((f for f in missing if f.is_symlink()), None)
        if dangling is not None:
            return f"{dangling} is a link to {os.readlink(dangling)}, which does not exist; create it or give another path"
        folder = missing[-1].parent if missing else target.parent
        if not folder.is_dir():
            kind = "a file" if folder.is_file() else "a device or special file"
            return f"{folder} is {kind}, not a folder; give another path"
    except OSError as exc:  # a folder on the way that we may not look into
        return f"cannot reach it: {exc.strerror or exc}; give another path"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"the folder {folder} is not writable; give another path"
    return None


def missing_folders(folder: Path) -> list[Path]:
    """``folder`` and those of its parents that do not exist yet, deepest first.

    >>> missing_folders(Path("/no-such-folder/deeper"))
    [PosixPath('/no-such-folder/deeper'), PosixPath('/no-such-folder')]
    """
    out = []
    while not folder.exists() and folder != folder.parent:
        out.append(folder)
        folder = folder.parent
    return out


def is_read_only(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is an existing file this user may not write (root may write any).

    A save refuses such a file: it replaces the file by a rename, which the folder's permissions allow
    even when the file's do not, where a plain ``open(path, "w")`` (and Hugging Face's ``save``) fails,
    so a file made read-only to protect it must not be replaced.
    """
    return os.access(path, os.F_OK) and not os.access(path, os.W_OK)


_READ_ONLY = "the file is read-only (Permission denied); make it writable (chmod u+w) or save elsewhere"


def _write_error(path: str | os.PathLike[str], exc: OSError) -> SerializationError:
    reason = exc.strerror or str(exc)
    return SerializationError(f"cannot write {os.fspath(path)}: {reason}")


def _mode_for(target: Path) -> int:
    """Permission bits for a new version of ``target``: those of the existing file, else 0666 & ~umask."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        pass
    mask = os.umask(0o077)  # reading the umask means setting it (to the safe side), then back at once
    os.umask(mask)
    return 0o666 & ~mask
