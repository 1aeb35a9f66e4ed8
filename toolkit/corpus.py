"""Corpus reading and word counting, shared by every trainer.

A corpus is an iterable of strings, or files read line by line (never whole). Counting runs the
pipeline's normalizer and pre-tokenizer over the text and counts the resulting pieces ("words"); the
trainer only ever sees those counts.

Invalid UTF-8 is an error naming the file and the byte offset, never silently dropped.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Union

from toolkit.errors import CorpusError

if TYPE_CHECKING:
    from toolkit.interfaces import Normalizer, PreTokenizer

__all__ = ["CorpusSource", "iter_texts", "iter_file_lines", "count_words", "count_texts"]

CorpusSource = Union[str, "os.PathLike[str]", Iterable[str], Iterable["os.PathLike[str]"]]


def _as_paths(corpus: CorpusSource) -> list[Path] | None:
    """The file paths ``corpus`` names, or ``None`` when it is an iterable of texts.

    A single ``str`` or path is a file; a list is a list of files when it holds ``Path`` objects or
    when every string in it names an existing file; otherwise it is a list of texts.
    """
    if isinstance(corpus, (str, os.PathLike)):
        return [Path(corpus)]
    if isinstance(corpus, (list, tuple)) and corpus:
        if all(isinstance(c, os.PathLike) for c in corpus):
            return [Path(c) for c in corpus]
        if all(isinstance(c, str) and "\n" not in c and len(c) < 4096 and os.path.isfile(c) for c in corpus):
            return [Path(c) for c in corpus]
    return None


def iter_file_lines(path: Path, *, errors: str = "strict") -> Iterator[str]:
    """Lines of a UTF-8 file, newline included, read in a streaming way.

    With ``errors="strict"`` an invalid byte raises :class:`CorpusError` with the file and byte
    offset; ``errors="replace"`` substitutes U+FFFD instead.
    """
    offset = 0
    try:
        fh = open(path, "rb")
    except FileNotFoundError:
        raise CorpusError(f"corpus file {path} does not exist") from None
    except OSError as exc:
        raise CorpusError(f"cannot open corpus file {path}: {exc.strerror}") from None
    with fh:
        while True:
            try:
                raw = fh.readline()
            except OSError as exc:
                raise CorpusError(f"cannot read corpus file {path} at byte {offset}: {exc.strerror}") from None
            if not raw:
                return
            try:
                line = raw.decode("utf-8", errors)
            except UnicodeDecodeError as exc:
                raise CorpusError(
                    f"corpus file {path} is not valid UTF-8: invalid byte 0x{raw[exc.start]:02x} at byte offset "
                    f"{offset + exc.start}; convert it to UTF-8, or read it with errors='replace'"
                ) from None
            offset += len(raw)
            yield line


def iter_texts(corpus: CorpusSource) -> Iterator[str]:
    """The texts of a corpus: file lines for paths, the strings themselves otherwise."""
    paths = _as_paths(corpus)
    if paths is not None:
        for path in paths:
            yield from iter_file_lines(path)
        return
    for i, text in enumerate(corpus):  # type: ignore[union-attr]
        if not isinstance(text, str):
            raise CorpusError(f"corpus item {i} is a {type(text).__name__}, expected str")
        yield text


def count_texts(
    texts: Iterable[str], *, normalizer: Normalizer | None = None, pre_tokenizer: PreTokenizer | None = None
) -> Counter[str]:
    """Count the pieces of ``texts`` after normalization and pre-tokenization.

    >>> from pretokenizers import Whitespace
    >>> count_texts(["a b a", "b!"], pre_tokenizer=Whitespace())
    Counter({'a': 2, 'b': 2, '!': 1})
    """
    counts: Counter[str] = Counter()
    normalize = normalizer.normalize_str if normalizer is not None else None
    split = pre_tokenizer.split_text if pre_tokenizer is not None else None
    for text in texts:
        if normalize is not None:
            text = normalize(text)
        if split is None:
            if text:
                counts[text] += 1
        else:
            counts.update(split(text))
    return counts


def count_words(
    corpus: CorpusSource, *, normalizer: Normalizer | None = None, pre_tokenizer: PreTokenizer | None = None
) -> Counter[str]:
    """Count the pieces of a corpus (texts or files); see :func:`count_texts`."""
    return count_texts(iter_texts(corpus), normalizer=normalizer, pre_tokenizer=pre_tokenizer)
