"""Tokenizer files of any supported format: detect the format, load, save.

This module owns the table of formats (our JSON, Hugging Face ``tokenizer.json``, BERT ``vocab.txt``,
GPT-2 ``vocab.json`` + ``merges.txt``, ``.tiktoken`` and SentencePiece ``.model``), how a format is told from a file's name and
first bytes, and which reader or writer of this package handles each one. The command line and
``Tokenizer.load_any`` both go through :func:`load_tokenizer`.

>>> detect_format("out/vocab.txt"), detect_format("cl100k_base.tiktoken")
('vocab-txt', 'tiktoken')
>>> output_format(Path("out/tokenizer.json"), "toolkit")
'hf'
"""

from __future__ import annotations

import inspect
import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit.errors import ConfigError, SerializationError
from toolkit.interop import bert_vocab, gpt2, hf_json, sentencepiece, tiktoken_files, transformers

if TYPE_CHECKING:
    from toolkit.tokenizer import Tokenizer

__all__ = [
    "TOKENIZER_FORMATS", "detect_format", "output_format", "vocab_merges_pair", "load_tokenizer", "save_tokenizer",
    "written_files", "read_files", "same_file", "reader_options",
]

#: Formats ``load_tokenizer(format=...)`` and ``save_tokenizer(format=...)`` accept (``--from`` / ``--to``).
TOKENIZER_FORMATS = ("auto", "toolkit", "hf", "vocab-txt", "vocab-merges", "tiktoken", "sentencepiece", "transformers")

_CHOICES = ",".join(TOKENIZER_FORMATS[1:])

# A file named like one of the pair: the other file of the pair (same prefix, same folder).
_PAIR_SIBLINGS = {
    "vocab.json": "merges.txt", "encoder.json": "vocab.bpe", "merges.txt": "vocab.json", "vocab.bpe": "encoder.json",
}


# ---------------------------------------------------------------------------------------- formats
_HEAD_BYTES = 65536
_TIKTOKEN_LINE = re.compile(r"[A-Za-z0-9+/]+=*\s+\d+")
_VOCAB_JSON = re.compile(r'\{\s*(\}|"(?:[^"\\]|\\.)*"\s*:\s*\d)')
_EXPECTED = (
    "give a tokenizer file (our JSON or Hugging Face tokenizer.json, vocab.json + merges.txt, a BERT vocab.txt, "
    "a .tiktoken file), or --from FMT (format=FMT) if it is one"
)


def _not_a_tokenizer(path: Path, why: str) -> SerializationError:
    return SerializationError(f"{path}: this does not look like a tokenizer file ({why}); {_EXPECTED}")


def _head(path: Path) -> str:
    """The first 64 KiB of ``path`` as text (a character cut at the end is dropped)."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(_HEAD_BYTES)
    except OSError as exc:
        raise SerializationError(f"{path}: cannot read: {exc.strerror}") from None
    text = data.decode("utf-8", errors="ignore" if len(data) == _HEAD_BYTES else "strict") if _utf8(data) else None
    if text is None:
        raise _not_a_tokenizer(path, "it is not UTF-8 text")
    return text.removeprefix("\ufeff")


def _utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return len(data) == _HEAD_BYTES and exc.start >= len(data) - 3  # only the last character is cut
    return True


def _detect_json(path: Path) -> str:
    """``toolkit``, ``hf`` or ``vocab-merges`` from the first 64 KiB of a ``.json`` file."""
    head = _head(path)
    compact = head.replace(" ", "").replace("\n", "")
    if '"format":"tokenizer-toolkit"' in compact:
        return "toolkit"
    if '"added_tokens"' in compact or ('"model":{' in compact and '"version":"' in compact):
        return "hf"
    if _VOCAB_JSON.match(head.lstrip()):
        return "vocab-merges"
    raise _not_a_tokenizer(path, "a JSON file that is neither a tokenizer file nor a vocab.json {token: id} object")


def _detect_text(path: Path) -> str:
    """``vocab-txt``, ``vocab-merges`` (a merges file) or ``tiktoken`` from the lines of a text file."""
    head = _head(path)
    lines = head.split("\n")
    if len(head.encode("utf-8")) >= _HEAD_BYTES - 3:
        lines = lines[:-1]  # the last line may be cut
    lines = [line.rstrip("\r") for line in lines[:1000]]
    filled = [(i + 1, line) for i, line in enumerate(lines) if line.strip()]
    if not filled:
        raise _not_a_tokenizer(path, "it is empty")
    if filled[0][1].startswith("#version"):
        return "vocab-merges"
    if all(_TIKTOKEN_LINE.fullmatch(line) for _, line in filled):
        return "tiktoken"
    spaced = [(n, line) for n, line in filled if " " in line.strip()]
    if not spaced:
        return "vocab-txt"
    if all(len(line.split(" ")) == 2 for _, line in filled):
        return "vocab-merges"
    n, line = spaced[0]
    shown = line.strip()
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    raise _not_a_tokenizer(
        path, f"line {n} is {shown!r}: a vocab.txt holds one token per line, merges.txt two tokens, "
        "a .tiktoken file base64 and a rank"
    )


#: The formats a file's name says by itself (a ``.json`` name is read to tell ours, HF's and a vocab.json
#: apart): what :func:`detect_format` takes for a file that does not exist, :func:`output_format` writes,
#: and what a training refuses to name its JSON output (``training.config.output_problem``).
FORMAT_BY_SUFFIX = {".tiktoken": "tiktoken", ".model": "sentencepiece", ".txt": "vocab-txt", ".bpe": "vocab-merges"}


def format_from_name(path: str | os.PathLike[str]) -> str | None:
    """The format ``path``'s name says (:data:`FORMAT_BY_SUFFIX`), or ``None``.

    >>> format_from_name("cl100k_base.tiktoken"), format_from_name("out/tokenizer.json")
    ('tiktoken', None)
    """
    name = Path(path).name.lower()
    return next((fmt for suffix, fmt in FORMAT_BY_SUFFIX.items() if name.endswith(suffix)), None)


def _first_bytes(path: Path) -> bytes:
    """The first 16 bytes of ``path``: enough to recognise a SentencePiece model."""
    try:
        with open(path, "rb") as fh:
            return fh.read(16)
    except OSError as exc:
        raise SerializationError(f"{path}: cannot read: {exc.strerror}") from None


def detect_format(path: str | os.PathLike[str]) -> str:
    """Tell a tokenizer file's format from its content (and, for a file that does not exist, its name).

    ``.model``, or any other file whose first bytes are a SentencePiece ``ModelProto`` → ``sentencepiece``;
    a folder holding a ``tokenizer.json`` → ``transformers`` (as ``AutoTokenizer`` reads it), another
    folder or ``.bpe`` → ``vocab-merges``; a ``.json`` file (or a JSON object under another name) →
    ``toolkit`` (our format), ``hf`` (``tokenizer.json``) or ``vocab-merges`` (``vocab.json``); other
    files by their lines: BERT ``vocab.txt`` (one token per line; only for ``.txt`` names), a merges
    file (two), ``.tiktoken`` (base64 and rank). A file that is none of these (a corpus given by
    mistake) is a :class:`SerializationError` saying so.
    """
    p = Path(path)
    name = p.name.lower()
    named = format_from_name(p)
    if named == "sentencepiece" or (p.is_file() and named is None and not name.endswith(".json")
                                    and sentencepiece.is_sentencepiece_model(_first_bytes(p))):
        return "sentencepiece"
    if p.is_dir():  # a transformers directory, or a folder of vocab.json + merges.txt
        return "transformers" if _is_transformers_folder(p) else "vocab-merges"
    if named == "vocab-merges":  # vocab.bpe, GPT-2's merges file
        return named
    if not p.exists():
        if name.endswith(".json"):
            raise SerializationError(f"{p}: no such tokenizer file")
        if named is not None:
            return named
        raise ConfigError(f"{p}: cannot tell the tokenizer format from the name; pass format=FMT (--from FMT on the command line), FMT one of {_CHOICES}")
    if name.endswith(".json"):
        return _detect_json(p)
    if named == "tiktoken":  # the name says it: a bad line is for the reader to name, not a reason to guess
        return named
    if named == "vocab-txt":
        return _detect_text(p)
    if _head(p).lstrip().startswith("{"):
        return _detect_json(p)
    fmt = _detect_text(p)
    if fmt == "vocab-txt":  # one word per line, under a name that says nothing: too weak a sign
        raise ConfigError(f"{p}: cannot tell the tokenizer format from the name; pass format=FMT (--from FMT on the command line), FMT one of {_CHOICES}")
    return fmt


def _is_transformers_folder(path: Path) -> bool:
    """A folder holding a ``tokenizer.json``: what ``AutoTokenizer`` reads (and ``--to transformers`` writes)."""
    return path.is_dir() and (path / "tokenizer.json").is_file()


def output_format(output: Path, source_format: str) -> str:
    """The format to write ``output`` in, from its name (``source_format``: what was read).

    Converting our file to ``.json`` means "export to Hugging Face"; any other ``.json`` output is ours.
    """
    name = output.name.lower()
    named = format_from_name(output)
    if named is not None and named != "vocab-merges":  # vocab-merges is written to a folder, not a .bpe file
        return named
    if name.endswith(".json"):
        return "hf" if source_format == "toolkit" else "toolkit"
    if _is_transformers_folder(output):
        return "transformers"
    if output.is_dir() or not output.suffix:
        return "vocab-merges"
    raise ConfigError(f"{output}: cannot tell the output format from the name; pass --to {{{_CHOICES}}}")


def vocab_merges_pair(path: Path, merges: str | os.PathLike[str] | None = None) -> tuple[Path, Path]:
    """(vocab.json, merges.txt) from a folder, either file of the pair, or an explicit ``merges`` file."""
    if path.is_dir() and merges is not None:  # the folder's own merges file would silently win
        raise ConfigError(f"{path} is a folder, which holds its merges file; merges (--merges on the command line) "
                          f"goes with a vocab.json file: give {path / 'vocab.json'} with it, or leave it out")
    if path.is_dir():
        for v, m in ((path / "vocab.json", path / "merges.txt"), (path / "encoder.json", path / "vocab.bpe")):
            if v.exists() and m.exists():
                return v, m
        raise SerializationError(f"{path}: expected vocab.json + merges.txt (or encoder.json + vocab.bpe) in the folder")
    if merges is not None:
        return path, Path(merges)
    name = path.name
    for a, b in _PAIR_SIBLINGS.items():
        if name.endswith(a):
            other = path.with_name(name[: -len(a)] + b)
            if other.exists():
                return (path, other) if a.endswith("json") else (other, path)
    raise SerializationError(f"{path}: cannot find the matching merges file; pass merges=PATH (--merges PATH on the "
                             "command line), or give the folder holding it as vocab.json + merges.txt")


# ---------------------------------------------------------------------------------------- loading
def _load_toolkit(path: Path, **options: Any) -> Tokenizer:
    from toolkit.tokenizer import Tokenizer

    return Tokenizer.load(path, **options)


def _load_vocab_merges(path: Path, *, merges: str | os.PathLike[str] | None = None,
                       special_tokens: Sequence[str] | None = None, add_prefix_space: bool = False) -> Tokenizer:
    vocab, merge_file = vocab_merges_pair(path, merges)
    return gpt2.from_gpt2(vocab, merge_file, special_tokens=special_tokens, add_prefix_space=add_prefix_space)


#: Format → reader; each reader takes the path and the keyword options of its signature.
_READERS: dict[str, Callable[..., Tokenizer]] = {
    "toolkit": _load_toolkit,
    "hf": hf_json.load_hf_json,
    "vocab-txt": bert_vocab.from_bert_vocab,
    "vocab-merges": _load_vocab_merges,
    "tiktoken": tiktoken_files.from_tiktoken,
    "sentencepiece": sentencepiece.from_sentencepiece,
    "transformers": transformers.load_pretrained,  # a save_pretrained directory (its tokenizer.json)
}


def _keyword_options(reader: Callable[..., Any]) -> set[str]:
    params = inspect.signature(reader).parameters.values()
    return {p.name for p in params if p.kind is inspect.Parameter.KEYWORD_ONLY}


# _load_toolkit forwards to Tokenizer.load, whose only option is `trusted`.
_OPTIONS = {fmt: _keyword_options(reader) for fmt, reader in _READERS.items()} | {"toolkit": {"trusted"}}
_ALL_OPTIONS = set().union(*_OPTIONS.values())


def load_tokenizer(path: str | os.PathLike[str], *, format: str = "auto", unused: str = "ignore",
                   **options: Any) -> Tokenizer:
    """Read a tokenizer in any supported format (see :data:`TOKENIZER_FORMATS`).

    ``options`` go to the reader of the format: ``merges``, ``special_tokens`` and ``add_prefix_space``
    (GPT-2 ``vocab.json`` + ``merges.txt``), ``pattern`` and ``special_tokens`` (``.tiktoken``),
    ``lowercase``, ``unk_token``... (``vocab.txt``), ``strict`` (``tokenizer.json``), ``trusted`` (ours).
    An option set to ``None`` is ignored, and so is one meant for another format, so one call can
    carry the options of every format; with ``unused="error"`` (the command line's choice: an option
    the user typed must do something) that is a :class:`ConfigError` naming the option and the
    format. A name no reader takes is a :class:`ConfigError` either way.

    >>> load_tokenizer("no-such.json")
    Traceback (most recent call last):
    ...
    toolkit.errors.SerializationError: no-such.json: no such tokenizer file
    """
    unknown = sorted(set(options) - _ALL_OPTIONS)
    if unknown:
        raise ConfigError(f"load_tokenizer: unknown option(s) {', '.join(unknown)}; known: {', '.join(sorted(_ALL_OPTIONS))}")
    if unused not in ("ignore", "error"):
        raise ConfigError(f"load_tokenizer: unused must be 'ignore' or 'error', got {unused!r}")
    p = Path(path)
    if _is_stream(p):
        return _load_stream(p, format, options, unused)
    fmt = detect_format(p) if format == "auto" else format
    reader = _READERS.get(fmt)
    if reader is None:
        raise ConfigError(f"format: unknown format {fmt!r} (--from on the command line); choose one of {', '.join(TOKENIZER_FORMATS)}")
    ignored = [name for name, value in options.items() if value is not None and name not in _OPTIONS[fmt]]
    if ignored and unused == "error":
        takes = {name: [f for f, names in _OPTIONS.items() if name in names] for name in ignored}
        kind = f"{'an' if fmt[0] in 'aehiou' else 'a'} {fmt} {'folder' if p.is_dir() else 'file'}"
        raise ConfigError(f"{p} is {kind}: " + "; ".join(
            f"the option {name} applies to {' and '.join(takes[name])} files only" for name in ignored) + "; leave it out")
    if fmt != "vocab-merges" and not p.exists():
        raise SerializationError(f"{p}: no such tokenizer file")
    return reader(p, **{k: v for k, v in options.items() if v is not None and k in _OPTIONS[fmt]})


def _is_stream(path: Path) -> bool:
    """A pipe or device (``<(cat tok.json)``, ``/dev/stdin``): it can be read only once, and detecting
    its format reads it."""
    try:
        return path.exists() and not path.is_file() and not path.is_dir()
    except OSError:
        return False


def _load_stream(path: Path, format: str, options: dict[str, Any], unused: str) -> Tokenizer:
    """:func:`load_tokenizer` of a stream: read once (up to ``MAX_FILE_BYTES``) into a file of the same
    name in a temporary folder, loaded from there; errors name the stream, not the copy."""
    import tempfile

    from toolkit import limits
    from toolkit.errors import ToolkitError

    try:
        with open(path, "rb") as fh:
            data = limits.read_bounded(fh, source=str(path))
    except OSError as exc:
        raise SerializationError(f"{path}: cannot read: {exc.strerror or exc}") from None
    with tempfile.TemporaryDirectory(prefix="tokenizer-toolkit-") as folder:
        copy = Path(folder) / path.name
        copy.write_bytes(data)
        try:
            return load_tokenizer(copy, format=format, unused=unused, **options)
        except ToolkitError as exc:
            exc.args = tuple(a.replace(str(copy), str(path)) if isinstance(a, str) else a for a in exc.args)
            raise


# ---------------------------------------------------------------------------------------- saving
def reader_options(tok: Tokenizer, format: str) -> dict[str, Any]:
    """The options :func:`load_tokenizer` needs to read ``tok``, written in ``format``, back as ``tok``
    (``{"lowercase": False}`` for a cased BERT ``vocab.txt``; ``{}`` for most).

    ``vocab-txt`` and ``vocab-merges`` hold only the vocabulary (and merges), and are read as BERT's
    and GPT-2's pipelines: a tokenizer they would come back as another one (a character-level BPE, a
    WordPiece with another normalizer, pre-tokenizer, prefix or unknown token...) is a
    :class:`SerializationError` naming the difference. The other formats store the whole pipeline, or
    refuse what they cannot store when written (``tiktoken`` needs its ``pattern`` given back).
    """
    if format == "vocab-txt":
        return bert_vocab.reader_options(tok)
    if format == "vocab-merges":
        return gpt2.reader_options(tok)
    if format == "sentencepiece":
        sentencepiece.check_added_tokens(tok)
    return {}


def save_tokenizer(tok: Tokenizer, path: str | os.PathLike[str], *, format: str, indent: int | None = None,
                   template: str | os.PathLike[str] | None = None, exact: bool = False) -> list[Path]:
    """Write ``tok`` in ``format`` (not ``auto``: see :func:`output_format`); the files written.

    ``vocab-merges`` writes ``vocab.json`` + ``merges.txt`` into the folder ``path`` (created if needed);
    ``indent`` applies to the JSON formats; ``template`` to ``transformers`` (see
    :func:`toolkit.interop.transformers.save_pretrained`). ``exact=True`` (the command line's
    ``convert``) first refuses, writing nothing, a tokenizer that the file would not give back
    (:func:`reader_options`); without it, ``vocab-txt`` and ``vocab-merges`` write the vocabulary of any
    WordPiece or BPE model, as ``save_bert_vocab`` and ``save_vocab_merges`` do.
    """
    if exact:
        reader_options(tok, format)
    output = Path(path)
    if format == "toolkit":
        tok.save(output, indent=indent)
    elif format == "hf":
        hf_json.save_hf_json(tok, output, indent=indent)
    elif format == "vocab-txt":
        bert_vocab.save_bert_vocab(tok, output)
    elif format == "tiktoken":
        tiktoken_files.save_tiktoken(tok, output)
    elif format == "sentencepiece":
        sentencepiece.save_sentencepiece(tok, output)
    elif format == "vocab-merges":
        return list(gpt2.save_vocab_merges(tok, output, create=True))
    elif format == "transformers":  # a directory for transformers.AutoTokenizer, written all or nothing
        return [Path(p) for p in transformers.save_pretrained(tok, output, template=template)]
    else:
        raise ConfigError(f"format: unknown format {format!r} (--to on the command line); choose one of {', '.join(TOKENIZER_FORMATS)}")
    return [output]


def written_files(path: str | os.PathLike[str], format: str) -> list[Path]:
    """The files :func:`save_tokenizer` writes for ``path`` in ``format``.

    >>> [str(p) for p in written_files("out", "vocab-merges")]
    ['out/vocab.json', 'out/merges.txt']
    """
    output = Path(path)
    if format == "transformers":
        return [output / name for name in ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json")]
    return [output / "vocab.json", output / "merges.txt"] if format == "vocab-merges" else [output]


def read_files(path: str | os.PathLike[str], format: str, merges: str | os.PathLike[str] | None = None) -> list[Path]:
    """The files :func:`load_tokenizer` reads for ``path`` in ``format`` (those that exist)."""
    p = Path(path)
    if format == "vocab-merges":
        try:
            return list(vocab_merges_pair(p, merges))
        except SerializationError:
            return [p]
    return [p]


def same_file(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` name one file (through symlinks, ``..``, hard links)."""
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet): compare the paths they resolve to
        return os.path.realpath(a) == os.path.realpath(b)

