"""Shared file helpers for the interop readers and writers.

This module owns reading foreign files into text or bytes with typed errors (missing file, invalid
UTF-8, unreadable), splitting them into numbered lines the way the reference libraries do, and the
atomic write used by every exporter. Every message names the file, and the line where there is one.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from toolkit.errors import SerializationError
from toolkit.limits import check_file_size, read_bounded
from toolkit.serialization import atomic_write_text, missing_folders, write_target

__all__ = ["PathLike", "missing_folders", "numbered_lines", "read_bytes", "read_text", "remove_empty_folders", "rstrip_ws",
           "where", "write_as_unit", "write_text"]

PathLike = str | os.PathLike[str]

# The Unicode White_Space property (what Rust's ``str::trim_end`` removes, so what Hugging Face strips
# from each vocab.txt line). Python's ``str.rstrip()`` also strips U+001C..U+001F, which are not
# White_Space; using the exact set keeps token strings identical to HF's.
_WHITE_SPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)


def rstrip_ws(text: str) -> str:
    """``text`` without trailing Unicode White_Space (Rust ``trim_end`` semantics).

    >>> rstrip_ws("[UNK] \\r"), rstrip_ws("##\\u2028")
    ('[UNK]', '##')
    """
    return text.rstrip(_WHITE_SPACE)


def where(path: PathLike, line: int | None = None) -> str:
    """``"file:line"`` (1-based line) or just the file, for error messages."""
    return f"{os.fspath(path)}:{line}" if line is not None else os.fspath(path)


def read_bytes(path: PathLike, *, what: str = "file") -> bytes:
    """The bytes of ``path``; a missing or unreadable file is a :class:`SerializationError`."""
    try:
        with open(path, "rb") as fh:
            check_file_size(os.fstat(fh.fileno()).st_size, source=os.fspath(path))  # fail fast
            return read_bounded(fh, source=os.fspath(path))  # a FIFO or device has st_size 0
    except FileNotFoundError:
        raise SerializationError(f"{os.fspath(path)}: no such {what}") from None
    except IsADirectoryError:
        raise SerializationError(f"{os.fspath(path)}: is a folder, expected a {what}") from None
    except OSError as exc:
        raise SerializationError(f"{os.fspath(path)}: cannot read the {what}: {exc.strerror}") from None


def read_text(path: PathLike, *, what: str = "file") -> str:
    """UTF-8 text of ``path`` (a leading BOM is dropped); invalid UTF-8 names the line and byte offset."""
    data = read_bytes(path, what=what)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise SerializationError(
            f"{where(path, line)}: the {what} is not UTF-8 text (invalid byte 0x{data[exc.start]:02x} at "
            f"byte offset {exc.start})"
        ) from None
    return text[1:] if text.startswith("\ufeff") else text


def numbered_lines(text: str) -> Iterator[tuple[int, str]]:
    """``(line_number, line)`` for each line, 1-based, split on ``\\n`` only, ``\\r`` removed.

    Vocabulary files are split on ``\\n`` only: ``str.splitlines`` would also cut at U+2028 and
    U+0085, which occur *inside* real tokens (bert-base-chinese has ``"\\u2028"`` as a token).

    >>> list(numbered_lines("a\\r\\nb\\u2028\\n"))
    [(1, 'a'), (2, 'b\\u2028')]
    """
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the file's final newline does not start a line
    for i, line in enumerate(lines, 1):
        yield i, line[:-1] if line.endswith("\r") else line


def write_text(path: PathLike, text: str) -> None:
    """Write ``text`` atomically (see :func:`toolkit.serialization.atomic_write_text`)."""
    atomic_write_text(path, text)


def write_as_unit(folder: Path, write: Callable[[Path], list[Path]], *, remove: Sequence[str] = ()) -> list[Path]:
    """Write several files into ``folder`` all or nothing: ``write(staging)`` writes them into a fresh
    folder inside ``folder``, then each replaces its namesake (keeping its permissions; a symlink's
    target is replaced, the link stays, as :func:`toolkit.serialization.atomic_write_bytes` does) and
    the files named in ``remove`` go; a failure at any point restores the files that were there and
    removes the folders created for the purpose. A namesake that is not a file (a folder called
    ``vocab.json``) or is read-only is an error before anything moves. Returns the final paths.
    """
    made = missing_folders(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".tokenizer-toolkit-", dir=folder))
    except OSError as exc:
        remove_empty_folders(made)
        raise SerializationError(f"{folder}: cannot write into this folder: {exc.strerror or exc}") from None
    moved: list[tuple[Path, Path | None]] = []  # (file replaced or removed, its backup beside it; None: new)
    copies: list[Path] = []  # staged files copied beside a link's target elsewhere (maybe another disk)
    try:
        staged = write(staging)
        targets = [write_target(folder / path.name) for path in staged]  # every refusal before anything moves
        _refuse_shared_targets(folder, staged, targets, remove)
        for index, (path, target) in enumerate(zip(staged, targets)):
            if not os.path.samefile(target.parent, folder):
                fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
                os.close(fd)
                copies.append(Path(name))
                shutil.copyfile(path, name)
                shutil.copymode(path, name)
                path = Path(name)
            backup = _set_aside(target, f"{staging.name}-{index}", moved)
            if backup is not None:
                os.chmod(path, stat.S_IMODE(os.stat(backup).st_mode))
            os.replace(path, target)
        for index, name in enumerate(remove):
            old = folder / name
            if old.is_file() or old.is_symlink():
                _set_aside(old, f"{staging.name}-removed-{index}", moved)
    except BaseException:
        for target, backup in reversed(moved):
            if backup is None:
                target.unlink(missing_ok=True)
            elif backup.exists() or backup.is_symlink():  # else the move aside never happened
                os.replace(backup, target)
        raise
    finally:
        try:
            for copy in copies:
                copy.unlink(missing_ok=True)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
            remove_empty_folders(made)
    for _, backup in moved:  # the new files are in place: what they replaced can go
        if backup is not None:
            with contextlib.suppress(OSError):
                backup.unlink()
    return [folder / path.name for path in staged]


def _set_aside(path: Path, tag: str, moved: list[tuple[Path, Path | None]]) -> Path | None:
    """Move the existing ``path`` aside (same folder, a hidden name with ``tag``), recorded in ``moved``
    first, so that an interruption between the two still finds it; ``None`` if there is nothing."""
    if not (path.exists() or path.is_symlink()):
        moved.append((path, None))
        return None
    backup = path.with_name(f".{path.name}.{tag}.old")
    moved.append((path, backup))
    os.replace(path, backup)
    return backup


def _refuse_shared_targets(folder: Path, staged: list[Path], targets: list[Path], remove: Sequence[str]) -> None:
    """Two files of the unit that are one file (``vocab.json`` a link to ``merges.txt``), or one that is
    a file the unit removes, would overwrite each other: a :class:`SerializationError` before anything moves."""
    seen: dict[str, str] = {}
    removed = {os.path.realpath(folder / name): name for name in remove  # a removed link goes alone: harmless
               if (folder / name).is_file() and not (folder / name).is_symlink()}
    for path, target in zip(staged, targets):
        real = os.path.realpath(target)
        other = seen.get(real) or removed.get(real)
        if other is not None:
            raise SerializationError(f"{folder / path.name} and {folder / other} are one file ({real}), through a "
                                     "symbolic link; the save would write one over the other: remove the link")
        seen[real] = path.name


def remove_empty_folders(folders: list[Path]) -> None:
    """Remove the folders this write created (deepest first) where they are still empty."""
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:
            return  # not empty (the files were written) or already gone
