"""GPT-2 style vocabulary files: ``encoder.json`` / ``vocab.json`` and ``vocab.bpe`` / ``merges.txt``.

This module owns the two files every GPT-2-family BPE ships with, in both directions:

- ``encoder.json`` (OpenAI's name) = ``vocab.json`` (Hugging Face's name): one JSON object mapping each
  token string, written in the GPT-2 byte-level alphabet (``Ġ`` for a space), to its id;
- ``vocab.bpe`` (OpenAI) = ``merges.txt`` (HF): an optional ``#version: 0.2`` header line, then one merge
  per line, ``left right`` separated by one space, in rank order.

It builds the GPT-2 pipeline from them (``ByteLevel`` pre-tokenizer, :class:`~algorithms.ByteLevelBPE`,
``ByteLevel`` decoder, ``<|endoftext|>`` special) and writes the BPE models we train back to the same
files, so Hugging Face (``tokenizers.models.BPE.from_file``), tiktoken
(``data_gym_to_mergeable_bpe_ranks``) and :func:`from_gpt2` read them.

>>> from toolkit import Tokenizer
>>> tok = Tokenizer.from_gpt2("encoder.json", "vocab.bpe")        # doctest: +SKIP
>>> tok.encode_ids("Hello world")                                   # doctest: +SKIP
[15496, 995]
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit.errors import ConfigError, SerializationError, VocabularyError
from toolkit.interop._io import PathLike, numbered_lines, read_text, where, write_as_unit, write_text
from toolkit.interop.pipelines import SAVE_AS_HF_JSON, byte_level_tokenizer, pipeline_difference
from toolkit.serialization import parse_json

if TYPE_CHECKING:
    from toolkit.tokenizer import Tokenizer

__all__ = [
    "read_vocab_json",
    "read_merges_txt",
    "write_vocab_json",
    "write_merges_txt",
    "check_merges",
    "read_bpe_model",
    "from_gpt2",
    "save_vocab_merges",
    "bpe_merges_of",
    "reader_options",
]

#: The header line Hugging Face and OpenAI write at the top of a merges file.
MERGES_HEADER = "#version: 0.2"


def read_vocab_json(path: PathLike) -> dict[str, int]:
    """Read ``encoder.json`` / ``vocab.json``: a JSON object ``{token: id}`` with unique integer ids.

    >>> import json, tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "vocab.json")
    >>> _ = open(p, "w").write(json.dumps({"a": 0, "b": 1}))
    >>> read_vocab_json(p)
    {'a': 0, 'b': 1}
    """
    data = parse_json(read_text(path, what="vocabulary file"), source=os.fspath(path), decoded=True)
    if not isinstance(data, dict):
        raise SerializationError(
            f"{os.fspath(path)}: a vocab.json/encoder.json must be a JSON object {{token: id}}, "
            f"got {type(data).__name__}"
        )
    seen: dict[int, str] = {}
    for token, token_id in data.items():
        if not isinstance(token_id, int) or isinstance(token_id, bool):
            raise SerializationError(
                f"{os.fspath(path)}: token {token!r} has id {token_id!r}; ids must be non-negative integers"
            )
        if token_id < 0:
            raise SerializationError(f"{os.fspath(path)}: token {token!r} has a negative id {token_id}")
        if token_id in seen:
            raise VocabularyError(
                f"{os.fspath(path)}: tokens {seen[token_id]!r} and {token!r} both have id {token_id}; "
                "ids must be unique"
            )
        seen[token_id] = token
    return dict(data)


def read_merges_txt(path: PathLike) -> list[tuple[str, str]]:
    """Read ``vocab.bpe`` / ``merges.txt``: ``left right`` per line, in rank order.

    Lines starting with ``#version`` are skipped (as Hugging Face does); so are empty lines at the end.
    Any other line must be exactly two non-empty tokens separated by one space.

    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "merges.txt")
    >>> _ = open(p, "w").write("#version: 0.2\\nĠ t\\nh e\\n")
    >>> read_merges_txt(p)
    [('Ġ', 't'), ('h', 'e')]
    """
    lines = list(numbered_lines(read_text(path, what="merges file")))
    while lines and lines[-1][1] == "":
        lines.pop()
    merges: list[tuple[str, str]] = []
    for number, line in lines:
        if line.startswith("#version"):
            continue
        parts = line.split(" ")
        if len(parts) != 2 or not parts[0] or not parts[1]:
            raise SerializationError(
                f"{where(path, number)}: a merge line must be two tokens separated by one space "
                f"(\"left right\"), got {line!r}"
            )
        merges.append((parts[0], parts[1]))
    return merges


def check_merges(
    vocab: Mapping[str, int], merges: Sequence[tuple[str, str]], *, source: PathLike | None = None, first_line: int = 1
) -> None:
    """Check that every merge's parts and result are in ``vocab``; a problem names the merges line.

    ``first_line`` is the file line of ``merges[0]`` (2 when the file has a ``#version`` header).
    """
    for i, (left, right) in enumerate(merges):
        for token, role in ((left, "left part"), (right, "right part"), (left + right, "result")):
            if token not in vocab:
                loc = where(source, first_line + i) if source is not None else f"merge {i}"
                raise VocabularyError(
                    f"{loc}: merge {left!r} + {right!r}: its {role} {token!r} is not in the vocabulary; "
                    "the merges file does not belong to this vocab.json/encoder.json"
                )


def write_vocab_json(vocab: Mapping[str, int], path: PathLike) -> None:
    """Write ``{token: id}`` as one JSON object, ordered by id (as Hugging Face writes ``vocab.json``)."""
    ordered = dict(sorted(vocab.items(), key=lambda kv: kv[1]))
    write_text(path, json.dumps(ordered, ensure_ascii=False))


def write_merges_txt(merges: Sequence[tuple[str, str]], path: PathLike) -> None:
    """Write ``#version: 0.2`` and one ``left right`` line per merge.

    Tokens containing a space or a line break cannot be written in this format (HF's JSON can hold them),
    nor a merge whose line would start with ``#version``: readers (HF's too) skip such lines.
    """
    write_text(path, "\n".join([MERGES_HEADER, *_merge_lines(merges)]) + "\n")


def _merge_lines(merges: Sequence[tuple[str, str]]) -> list[str]:
    """The ``left right`` lines of ``merges``; a :class:`SerializationError` for one merges.txt cannot hold."""
    lines: list[str] = []
    for i, (left, right) in enumerate(merges):
        if left.startswith("#version"):
            raise SerializationError(
                f"cannot write merges.txt: merge {i} ({left!r}, {right!r}) would be a line starting with "
                "'#version', which readers skip as the header (use to_hf_json, whose merges are JSON lists)"
            )
        for part in (left, right):
            if not part or any(c in part for c in " \n\r"):
                raise SerializationError(
                    f"cannot write merges.txt: merge {i} ({left!r}, {right!r}) has a part that is empty or "
                    "contains a space or line break; merges.txt separates parts with one space "
                    "(use to_hf_json, whose merges are JSON lists, for such models)"
                )
        lines.append(f"{left} {right}")
    return lines


def from_gpt2(
    encoder_json: PathLike,
    vocab_bpe: PathLike,
    *,
    special_tokens: Sequence[str] | None = None,
    add_prefix_space: bool = False,
) -> Tokenizer:
    """The GPT-2 tokenizer from ``encoder.json`` + ``vocab.bpe`` (or HF ``vocab.json`` + ``merges.txt``).

    Pipeline: ``ByteLevel`` pre-tokenizer (GPT-2 regex, byte → ``Ġ``-alphabet), ``ByteLevelBPE`` with
    the merges in file order, ``ByteLevel(trim_offsets=False)`` post-processor, ``ByteLevel`` decoder. ``special_tokens`` defaults to ``<|endoftext|>``
    when the vocabulary has it (id 50256 for GPT-2); they stay ordinary text unless ``allowed_special``
    names them, like tiktoken's ``encode_ordinary``.

    >>> tok = from_gpt2("encoder.json", "vocab.bpe")   # doctest: +SKIP
    >>> tok.decode(tok.encode_ids("Hello world"))      # doctest: +SKIP
    'Hello world'
    """
    if special_tokens is not None:
        if isinstance(special_tokens, (str, bytes)) or not isinstance(special_tokens, Iterable):
            raise ConfigError(
                f"special_tokens must be a list of token strings, e.g. ['<|endoftext|>'], got "
                f"{type(special_tokens).__name__} {special_tokens!r:.60}"
            )
        special_tokens = list(special_tokens)
        for token in special_tokens:
            if not isinstance(token, str):
                raise ConfigError(f"special_tokens must hold token strings, got {type(token).__name__} {token!r:.60}")
    vocab = read_vocab_json(encoder_json)
    _check_byte_level(vocab, encoder_json)
    merges = read_merges_txt(vocab_bpe)
    header = 2 if _has_header(vocab_bpe) else 1
    check_merges(vocab, merges, source=vocab_bpe, first_line=header)
    if special_tokens is None:
        special_tokens = [t for t in ("<|endoftext|>",) if t in vocab]
    missing = [t for t in special_tokens if t not in vocab]
    if missing:
        raise VocabularyError(
            f"{os.fspath(encoder_json)}: special token(s) {', '.join(map(repr, missing))} are not in the vocabulary"
        )
    return byte_level_tokenizer(
        vocab=vocab,
        merges=merges,
        special_tokens={t: vocab[t] for t in special_tokens},
        add_prefix_space=add_prefix_space,
        metadata={"source": "gpt2", "encoder_json": Path(encoder_json).name, "vocab_bpe": Path(vocab_bpe).name},
    )


def _check_byte_level(vocab: Mapping[str, int], path: PathLike) -> None:
    """A vocabulary without the 256 byte-level characters is not GPT-2's: say what it is and what to do."""
    from toolkit.bytelevel import BYTE_TO_CHAR

    if not vocab:
        return  # the model names an empty vocabulary itself
    missing = [(b, c) for b, c in enumerate(BYTE_TO_CHAR) if c not in vocab]
    if missing:
        shown = ", ".join(f"{c!r} (byte 0x{b:02X})" for b, c in missing[:3])
        raise VocabularyError(
            f"{os.fspath(path)}: not a GPT-2 byte-level vocabulary: {len(missing)} of the 256 byte characters are "
            f"missing ({shown}{', ...' if len(missing) > 3 else ''}); vocab.json + merges.txt are read as GPT-2's "
            "byte-level BPE, and those of a character-level BPE do not record its normalizer, pre-tokenizer or "
            "unknown token: convert the original tokenizer to tokenizer.json instead, or read the model alone with "
            "toolkit.interop.read_bpe_model(vocab_json, merges_txt, unk_token=...)"
        )


def read_bpe_model(
    vocab_json: PathLike, merges_txt: PathLike, *, byte_level: bool | None = None, **options: Any
) -> Any:
    """A BPE model from ``vocab.json`` + ``merges.txt`` (HF's ``models.BPE.from_file``).

    ``byte_level=None`` picks :class:`~algorithms.ByteLevelBPE` when the vocabulary holds the 256
    byte-level characters, else :class:`~algorithms.BPE`; ``options`` go to the constructor
    (``unk_token``, ``continuing_subword_prefix``, ``special_tokens``...).

    >>> model = read_bpe_model("vocab.json", "merges.txt", unk_token="[UNK]")   # doctest: +SKIP
    """
    from algorithms import BPE, ByteLevelBPE
    from toolkit.bytelevel import BYTE_TO_CHAR

    vocab = read_vocab_json(vocab_json)
    merges = read_merges_txt(merges_txt)
    if byte_level is None:
        byte_level = all(c in vocab for c in BYTE_TO_CHAR) and not options.get("unk_token")
    first_line = 2 if _has_header(merges_txt) else 1
    if not byte_level:
        # BPE with a continuing-subword prefix merges "a" + "##b" into "ab": check_merges does not apply,
        # the model checks its merges; its message names the entry, which becomes the file's line here.
        try:
            return BPE(vocab, merges, **options)
        except VocabularyError as exc:
            found = re.match(r"BPE\.merges\[(\d+)\]: ", str(exc))
            if found is None:
                raise
            line = int(found.group(1)) + first_line
            raise VocabularyError(f"{where(merges_txt, line)}: merge {str(exc)[found.end():]}") from None
    check_merges(vocab, merges, source=merges_txt, first_line=first_line)
    return ByteLevelBPE(vocab, merges, **options)


def _has_header(path: PathLike) -> bool:
    with open(path, encoding="utf-8", errors="replace") as fh:
        return fh.readline().startswith("#version")


def bpe_merges_of(model: Any) -> list[tuple[str, str]]:
    """The merge list of a BPE-family model in rank order.

    A rank-mode ``ByteLevelBPE`` (a tiktoken file) derives it from its ranks: every split of each
    token into two tokens, ordered by the token's rank (how Hugging Face converts tiktoken files).
    """
    merges = getattr(model, "merges", None)
    if merges is None:
        raise SerializationError(
            f"{type(model).__name__} is not a BPE-family model: only BPE and ByteLevelBPE have merges"
        )
    return [(left, right) for left, right in merges]


def save_vocab_merges(
    tok: Tokenizer, folder: PathLike, *, prefix: str | None = None, create: bool = False
) -> tuple[Path, Path]:
    """Write ``vocab.json`` and ``merges.txt`` of a BPE-family tokenizer into ``folder``, both or neither.

    The files load with ``tokenizers.models.BPE.from_file``, tiktoken's
    ``data_gym_to_mergeable_bpe_ranks`` (byte-level models) and :func:`from_gpt2`. ``prefix`` names the
    files ``{prefix}-vocab.json`` / ``{prefix}-merges.txt`` like Hugging Face's ``model.save``;
    ``create`` makes a missing ``folder`` (removed again if writing fails). Returns the two paths.
    """
    model = tok.model
    if type(model).__name__ not in ("BPE", "ByteLevelBPE"):
        raise SerializationError(
            f"save_vocab_merges: the model is {type(model).__name__}; vocab.json + merges.txt hold BPE models "
            "(use save_bert_vocab for WordPiece)"
        )
    target = Path(folder)
    if not target.is_dir() and not create:
        raise SerializationError(f"save_vocab_merges: folder {target} does not exist")
    name = f"{prefix}-" if prefix else ""
    merges = bpe_merges_of(model)

    def write(staging: Path) -> list[Path]:
        vocab_path, merges_path = staging / f"{name}vocab.json", staging / f"{name}merges.txt"
        write_vocab_json(model.get_vocab(), vocab_path)
        write_merges_txt(merges, merges_path)
        return [vocab_path, merges_path]

    vocab_path, merges_path = write_as_unit(target, write)
    return vocab_path, merges_path


def reader_options(tok: Tokenizer) -> dict[str, Any]:
    """The options with which :func:`from_gpt2` (``load_tokenizer`` of the folder) reads the
    ``vocab.json`` + ``merges.txt`` of ``tok`` back as ``tok``: always ``{}``.

    The two files hold only the vocabulary and the merges; their readers (ours, ``transformers``'
    ``GPT2Tokenizer``) build GPT-2's byte-level pipeline around them: ``ByteLevel`` pre-tokenizer
    (GPT-2's regex, no prefix space), ``ByteLevelBPE``, ``ByteLevel`` decoder, ``<|endoftext|>`` as
    the only special token. A character-level BPE, or any other pipeline, would come back as a
    different tokenizer (or not load at all): a :class:`SerializationError` names the difference.
    """
    model = tok.model
    kind = type(model).__name__
    merges = bpe_merges_of(model) if kind in ("BPE", "ByteLevelBPE") else []
    _merge_lines(merges)  # first what the files cannot hold at all, as the writer says it
    if kind == "BPE":
        raise SerializationError(
            "save_vocab_merges: the model is a character-level BPE, but vocab.json + merges.txt are read as "
            "GPT-2's byte-level BPE (the 256 byte characters, ByteLevel pre-tokenizer and decoder) and cannot "
            "record its unknown token, pre-tokenizer or normalizer (toolkit.interop.read_bpe_model reads the model "
            f"alone): {SAVE_AS_HF_JSON}"
        )
    if kind != "ByteLevelBPE":
        raise SerializationError(f"save_vocab_merges: the model is {kind}; vocab.json + merges.txt hold BPE models "
                                 "(use save_bert_vocab for WordPiece)")
    vocab = model.get_vocab()
    specials = {t: vocab[t] for t in ("<|endoftext|>",) if t in vocab}
    why = None
    if dict(model.special_tokens) != specials:
        why = (f"its special tokens are {sorted(model.special_tokens)!r:.80}, where these files are read with "
               f"{sorted(specials)!r} (<|endoftext|> when the vocabulary has it)")
    else:
        reference = byte_level_tokenizer(vocab=vocab, merges=merges, special_tokens=specials)
        if tok.post_processor is None:  # the reader's ByteLevel(trim_offsets=False) adds no token, moves no offset
            reference.post_processor = None
        ours, theirs = _model_options(model), _model_options(reference.model)
        if model.mode == "ranks":  # its merges, derived from the ranks, give the same ids in merge mode
            ours.pop("ignore_merges", None)
            theirs.pop("ignore_merges", None)
        if ours != theirs:
            key = next(k for k in ours if ours[k] != theirs.get(k))
            why = f"its model has {key}={ours[key]!r}, where these files are read with {key}={theirs.get(key)!r}"
        else:
            why = pipeline_difference(tok, reference, read_as="vocab.json + merges.txt are read with")
    if why is not None:
        raise SerializationError(f"save_vocab_merges: vocab.json + merges.txt hold only the vocabulary and merges and "
                                 f"are read as GPT-2's byte-level pipeline; {why}: {SAVE_AS_HF_JSON}")
    return {}


def _model_options(model: Any) -> dict[str, Any]:
    """A byte-level BPE's options (not the vocabulary and merges the files hold, nor its mode: a rank-mode
    model, read from a ``.tiktoken`` file, writes the merges derived from its ranks)."""
    return {k: v for k, v in model.params().items() if k not in ("vocab", "merges", "special_tokens", "mode")}
