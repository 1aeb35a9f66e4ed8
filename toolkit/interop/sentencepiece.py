"""SentencePiece ``.model`` files: the pipeline they describe, read and written.

This module owns the translation between a SentencePiece ``ModelProto`` (bytes: :mod:`.spm_proto`)
and a :class:`~toolkit.Tokenizer` that gives the same ids and pieces as ``sentencepiece``:

- normalizer: ``Precompiled(charsmap, matching="sentencepiece")`` when the file has a character map,
  then SentencePiece's whitespace handling (``remove_extra_whitespaces``: runs of spaces become one,
  none at either end, nor a ``▁`` at the end once escaped; ``escape_whitespaces``: space → ``▁``;
  ``add_dummy_prefix``: a leading ``▁``). When a user-defined piece holds a space, or a rule of the
  map writes two in a row, ``Precompiled`` (with the empty map if the file has none) removes the extra
  spaces itself (``remove_extra_whitespaces=True``), because sentencepiece keeps the spaces inside
  such a piece or rule output;
- pre-tokenizer: for BPE, ``Metaspace(prepend_scheme="never")`` splitting before each ``▁`` when no
  piece holds a ``▁`` after its first character (then the split never changes a segmentation, and
  each word is cached); for Unigram none: sentencepiece sums float32 scores over the whole sentence
  and its ties depend on that rounding, so the sentence is one lattice;
- model: ``Unigram(float32=True, match_byte_pieces=False)`` (UNIGRAM files) or ``SentencePieceBPE`` (BPE files), with
  ``unk_id``, ``byte_fallback``, the CONTROL pieces as special tokens, the UNUSED pieces as ``unused``,
  the USER_DEFINED pieces as ``user_defined`` (and ``Precompiled``'s ``user_defined_symbols``: copied
  unchanged);
- decoder: ``decoders.SentencePiece``: ``▁`` → space, byte pieces → bytes, leading ``▁`` dropped as
  sentencepiece drops them.

:func:`save_sentencepiece` writes the reverse for a pipeline of that shape (a Hugging Face Unigram
``tokenizer.json`` with ``Precompiled``, ``Replace``, ``Metaspace`` included). Files are bounded by
:mod:`toolkit.limits`; every problem is a :class:`~toolkit.errors.SerializationError` naming the file.
"""

from __future__ import annotations

import base64
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from toolkit.decoders import SPACE
from toolkit.errors import SerializationError, ToolkitError
from toolkit.interop._io import PathLike, read_bytes
from toolkit.interop.pipelines import SAVE_AS_HF_JSON
from toolkit.interop.spm_proto import (
    BPE,
    BYTE,
    CHAR,
    CONTROL,
    NORMAL,
    UNIGRAM,
    UNKNOWN,
    UNUSED,
    USER_DEFINED,
    WORD,
    Message,
    ModelProto,
    Piece,
    parse_model,
    serialize_model,
)
from toolkit.normalizers.precompiled import Precompiled
from toolkit.serialization import atomic_write_bytes

if TYPE_CHECKING:
    from toolkit.tokenizer import Tokenizer

__all__ = [
    "extra_space_steps",
    "from_model_proto",
    "from_sentencepiece",
    "is_sentencepiece_model",
    "read_sentencepiece",
    "save_sentencepiece",
    "to_model_proto",
]

_BYTE_PIECES = {f"<0x{b:02X}>" for b in range(256)}
_TRAILING_SPACES = SPACE + r"+\z"
_SPACE_RUN = {"Regex": " {2,}"}
_END_SPACE = {"Regex": r"\A | \z"}


def extra_space_steps() -> list[dict[str, Any]]:
    """``remove_extra_whitespaces`` as ``Replace`` steps (HF's converter writes these, and so do we
    where no user-defined piece holds a space): runs of spaces become one, none at either end."""
    return [{"type": "Replace", "pattern": dict(_SPACE_RUN), "content": " "},
            {"type": "Replace", "pattern": dict(_END_SPACE), "content": ""}]


def read_sentencepiece(path: PathLike) -> ModelProto:
    """The parsed ``.model`` file (pieces and specs), without building a pipeline."""
    return parse_model(read_bytes(path, what="SentencePiece model"), source=os.fspath(path))


def is_sentencepiece_model(head: bytes) -> bool:
    """Whether the first bytes look like a ``ModelProto``: a first piece (field 1) holding a string.

    >>> is_sentencepiece_model(b"\\n\\t\\n\\x05<unk>"), is_sentencepiece_model(b'{"version"')
    (True, False)
    """
    return len(head) >= 4 and head[0] == 0x0A and (head[2] == 0x0A or head[3] == 0x0A)


def from_sentencepiece(path: PathLike) -> Tokenizer:
    """The pipeline of a SentencePiece ``.model`` file (see the module docstring)."""
    return from_model_proto(read_sentencepiece(path), source=os.fspath(path))


# ---------------------------------------------------------------------------------------- reading
def _pipeline_parts(proto: ModelProto, source: str) -> dict[str, Any]:
    norm = proto.normalizer_spec
    trainer = proto.trainer_spec
    if trainer.get("treat_whitespace_as_suffix"):
        raise SerializationError(f"{source}: treat_whitespace_as_suffix=true models are not supported (the ▁ "
                                 "goes at the end of words); retrain without it")
    escape = norm.get("escape_whitespaces")
    normalizers: list[dict[str, Any]] = []
    charsmap = norm.get("precompiled_charsmap")
    users = _user_defined(proto)
    # sentencepiece removes extra spaces a unit at a time, keeping a run inside one unit (a user-defined
    # symbol, or a rule whose output holds one): only Precompiled knows the units (HF's Replace steps
    # below are the same wherever no unit holds two spaces in a row)
    spaced = bool(norm.get("remove_extra_whitespaces")) and (
        any(" " in u for u in users) or _writes_space_runs(charsmap)
    )
    if charsmap or spaced:
        # sentencepiece copies its user-defined pieces unchanged (they bypass the character map)
        normalizers.append({"type": "Precompiled",
                            "precompiled_charsmap": base64.b64encode(charsmap).decode() if charsmap else
                            Precompiled.EMPTY, "matching": "sentencepiece", "user_defined_symbols": users,
                            "remove_extra_whitespaces": spaced})
    if norm.get("remove_extra_whitespaces") and not spaced:
        normalizers += extra_space_steps()
    if escape:
        normalizers.append({"type": "Replace", "pattern": {"String": " "}, "content": SPACE})
        if norm.get("remove_extra_whitespaces"):  # sentencepiece strips every trailing ▁, typed ones too
            normalizers.append({"type": "Replace", "pattern": {"Regex": _TRAILING_SPACES}, "content": ""})
    if norm.get("add_dummy_prefix") and norm.get("remove_extra_whitespaces"):
        normalizers.append({"type": "Prepend", "prepend": SPACE if escape else " "})
    elif norm.get("add_dummy_prefix"):
        # sentencepiece adds the prefix to any non-empty input before normalizing it: text the map
        # deletes entirely ("\x0b") still gives the prefix, which no extra-space removal takes away here.
        # It writes the prefix to its output, so neither the map nor a user-defined piece (" A") sees
        # it: prepended as ▁, which they leave alone (escaped already).
        normalizers.insert(0, {"type": "Prepend", "prepend": SPACE if escape else " "})
    return {"normalizers": normalizers, "escape": escape, "dummy": norm.get("add_dummy_prefix"),
            "remove_extra": norm.get("remove_extra_whitespaces")}


def _writes_space_runs(charsmap: bytes | None) -> bool:
    """Whether a rule of the character map writes two spaces in a row (a custom rule set may; the
    built-in ones do not). The map is a trie (its size first, 4 bytes) and then the rules' outputs,
    each ending in a NUL, so a run of spaces there lies inside one output."""
    if not charsmap or len(charsmap) < 4:
        return False
    return b"  " in charsmap[4 + int.from_bytes(charsmap[:4], "little") :]


def _user_defined(proto: ModelProto) -> list[str]:
    return [p.piece for p in proto.pieces if p.type == USER_DEFINED]


def _model_dict(proto: ModelProto, source: str) -> dict[str, Any]:
    trainer = proto.trainer_spec
    model_type = trainer.get("model_type")
    if model_type not in (UNIGRAM, BPE):
        kind = {WORD: "WORD", CHAR: "CHAR"}.get(model_type, str(model_type))
        raise SerializationError(f"{source}: model_type {kind} is not supported (UNIGRAM and BPE are)")
    if not proto.pieces:
        raise SerializationError(f"{source}: the model has no pieces")
    byte_fallback = trainer.get("byte_fallback")
    vocab = [[p.piece, p.score] for p in proto.pieces]
    unk = [i for i, p in enumerate(proto.pieces) if p.type == UNKNOWN]
    if len(unk) != 1:
        raise SerializationError(f"{source}: a SentencePiece model has exactly one UNKNOWN piece, this one has {len(unk)}")
    seen: set[str] = set()
    for i, p in enumerate(proto.pieces):
        if p.piece in seen:
            raise SerializationError(f"{source}: pieces[{i}] {p.piece!r:.40} is already defined")
        seen.add(p.piece)
        if p.type == BYTE and not byte_fallback:
            raise SerializationError(f"{source}: pieces[{i}] is a byte piece although byte_fallback is false")
    if byte_fallback and not _BYTE_PIECES <= {p.piece for p in proto.pieces if p.type == BYTE}:
        raise SerializationError(f"{source}: byte_fallback is true but the 256 byte pieces <0x00>..<0xFF> are missing")
    specials = [p.piece for p in proto.pieces if p.type == CONTROL]
    out: dict[str, Any] = {"vocab": vocab, "unk_id": unk[0], "byte_fallback": byte_fallback,
                           "user_defined": _user_defined(proto),
                           "unused": [p.piece for p in proto.pieces if p.type == UNUSED]}
    # The unknown piece is special: never matched inside text (SentencePiece keeps it apart) and, like
    # the CONTROL pieces, left out by decode(skip_special_tokens=True), as in HF's converted files.
    specials = [proto.pieces[unk[0]].piece, *specials]
    if model_type == UNIGRAM:
        # BYTE pieces stand for bytes only: typed "<0x41>" is text to sentencepiece.
        out.update(type="Unigram", special_tokens=specials, float32=True, match_byte_pieces=False)
    else:
        out.update(type="SentencePieceBPE", special_tokens=specials)
    return out


def from_model_proto(proto: ModelProto, *, source: str = "<model>") -> Tokenizer:
    """Build the pipeline of a parsed ``.model`` (see the module docstring)."""
    from toolkit.tokenizer import Tokenizer

    parts = _pipeline_parts(proto, source)
    model = _model_dict(proto, source)
    normal = [p.piece for p in proto.pieces if p.type in (NORMAL, USER_DEFINED, UNUSED)]
    matched = {p.piece for p in proto.pieces if p.type in (NORMAL, USER_DEFINED)}
    # Unigram sums float32 scores over the whole sentence (its ties depend on it): never split. A BPE
    # merge never crosses a ▁ that no piece holds after its first character: split there (and cache).
    # Only where ▁ is a piece matched in text: an UNUSED (or missing) ▁ is unknown, and a run of
    # unknown characters across it is one unknown piece.
    split = (model["type"] == "SentencePieceBPE" and parts["escape"] and SPACE in matched
             and not any(SPACE in p[1:] for p in normal))
    decoder = {"type": "SentencePiece", "add_dummy_prefix": bool(parts["dummy"]),
               "remove_extra_whitespaces": bool(parts["remove_extra"]), "byte_fallback": bool(model["byte_fallback"])}
    data = {
        "normalizer": {"type": "Sequence", "normalizers": parts["normalizers"]},
        "pre_tokenizer": {"type": "Metaspace", "replacement": SPACE, "prepend_scheme": "never", "split": True}
        if split else None,
        "model": model,
        "decoder": decoder,
    }
    try:
        return Tokenizer.from_dict(_document(data), source=source)
    except ToolkitError as exc:
        message = str(exc)
        raise SerializationError(message if message.startswith(source) else f"{source}: {message}") from None


def _document(parts: dict[str, Any]) -> dict[str, Any]:
    from toolkit.serialization import FORMAT, VERSION

    return {"format": FORMAT, "version": VERSION, **{k: v for k, v in parts.items() if v is not None}}


# ---------------------------------------------------------------------------------------- writing
def _normalizer_spec(tok: Tokenizer) -> Message:
    """The NormalizerSpec of ``tok``'s normalizer and pre-tokenizer (the shapes this module and HF's
    converter write); anything else is a :class:`SerializationError` naming the component."""
    spec = Message("normalizer_spec")
    flags = {"add_dummy_prefix": False, "remove_extra_whitespaces": False, "escape_whitespaces": False}
    charsmap = b""
    unit_spaces = False
    strips: list[str] = []
    items: list[Any] = []
    todo = [tok.normalizer] if tok.normalizer is not None else []
    while todo:  # flattened: our tokenizer.json export writes a Sequence inside the Sequence
        n = todo.pop(0)
        inner = getattr(n, "normalizers", None)
        if inner is None:
            items.append(n)
        else:
            todo[:0] = inner
    for n in items:
        d = n.to_dict()
        t, pattern = d["type"], d.get("pattern")
        if t == "Precompiled":
            if d["precompiled_charsmap"] != Precompiled.EMPTY:  # the empty map is an identity normalizer
                charsmap = base64.b64decode(d["precompiled_charsmap"])
            if set(d["user_defined_symbols"]) != set(tok.model.user_defined):
                raise SerializationError(
                    "save_sentencepiece: the normalizer's user_defined_symbols and the model's user_defined differ; "
                    "a .model file has one list of user-defined pieces: assign the same list to both"
                )
            flags["remove_extra_whitespaces"] |= d["remove_extra_whitespaces"]
            unit_spaces |= d["remove_extra_whitespaces"]
        elif t == "Replace" and pattern == _SPACE_RUN:
            flags["remove_extra_whitespaces"] = True
        elif t == "Replace" and pattern in (_END_SPACE, {"Regex": _TRAILING_SPACES}) or t == "Strip":
            strips.append(t)  # SentencePiece strips the ends only with remove_extra_whitespaces (below)
            continue
        elif t == "Replace" and pattern in (" ", {"String": " "}) and d["content"] == SPACE:
            flags["escape_whitespaces"] = True
        elif t == "Prepend" and d["prepend"] in (SPACE, " "):
            flags["add_dummy_prefix"] = True
        else:
            raise SerializationError(f"save_sentencepiece: the normalizer {t} {d!r:.80} has no SentencePiece equivalent")
    if flags["remove_extra_whitespaces"] and not unit_spaces:  # collapsed by Replace, not a unit at a time
        spaced = ("a user-defined piece holds a space" if any(" " in u for u in tok.model.user_defined) else
                  "a rule of the character map writes two spaces in a row" if _writes_space_runs(charsmap) else None)
        if spaced:
            raise SerializationError(
                f"save_sentencepiece: {spaced}, which sentencepiece keeps where this pipeline's "
                "Replace(Regex(' {2,}'), ' ') collapses it; normalize with Precompiled(..., matching='sentencepiece', "
                "user_defined_symbols=..., remove_extra_whitespaces=True) in place of the Replace steps"
            )
    if strips and not flags["remove_extra_whitespaces"]:
        raise SerializationError(
            f"save_sentencepiece: the normalizer {strips[0]} strips the ends of the text, which SentencePiece does "
            "only together with collapsing runs of spaces (remove_extra_whitespaces: Replace(Regex(' {2,}'), ' ') "
            "with it); add that Replace, or remove the Strip"
        )
    pre = tok.pre_tokenizer
    if pre is not None:
        d = pre.to_dict()
        if d["type"] != "Metaspace" or d["replacement"] != SPACE:
            raise SerializationError(f"save_sentencepiece: the pre-tokenizer {d['type']} has no SentencePiece equivalent")
        flags["escape_whitespaces"] = True
        if d["prepend_scheme"] != "never":
            flags["add_dummy_prefix"] = True
    spec.set("name", "user_defined" if charsmap else "identity")
    if charsmap:
        spec.set("precompiled_charsmap", charsmap)
    for name, value in flags.items():
        spec.set(name, value)
    return spec


#: The CONTROL pieces each role of ``trainer_spec`` is inferred from, first match wins: SentencePiece's
#: default names, then those of files in use (Gemma's ``<bos>``, ALBERT's ``[CLS]``/``[SEP]``).
SPM_ROLE_NAMES: dict[str, tuple[str, ...]] = {
    "bos": ("<s>", "<bos>", "[CLS]", "<|begin_of_text|>"),
    "eos": ("</s>", "<eos>", "[SEP]", "<|end_of_text|>", "<|endoftext|>"),
    "pad": ("<pad>", "[PAD]", "<|pad|>"),
}
_INFER = "infer"


def spm_roles(specials: Mapping[str, int], **given: str | None) -> dict[str, int]:
    """Role (``bos``, ``eos``, ``pad``) -> id: ``given`` (a CONTROL piece, or ``None`` for none), else
    the first of :data:`SPM_ROLE_NAMES` among ``specials`` that no other role took; -1 for none.

    >>> spm_roles({"[CLS]": 2, "[SEP]": 3, "<pad>": 0})
    {'bos': 2, 'eos': 3, 'pad': 0}
    >>> spm_roles({"<s>": 1, "</s>": 2}, eos=None)
    {'bos': 1, 'eos': -1, 'pad': -1}
    """
    out: dict[str, int] = {}
    for role, names in SPM_ROLE_NAMES.items():
        token = given.get(role, _INFER)
        if token is None:
            out[role] = -1
        elif token != _INFER:
            if not isinstance(token, str) or token not in specials:
                raise SerializationError(f"save_sentencepiece: {role}_token={token!r} is not a special token of the "
                                         f"model; pass one of {sorted(specials)} or None")
            out[role] = specials[token]
    taken = set(out.values())
    for role, names in SPM_ROLE_NAMES.items():
        if role not in out:
            out[role] = next((specials[n] for n in names if n in specials and specials[n] not in taken), -1)
            taken.add(out[role])
    return {role: out[role] for role in SPM_ROLE_NAMES}


def to_model_proto(tok: Tokenizer, *, bos_token: str | None = _INFER, eos_token: str | None = _INFER,
                   pad_token: str | None = _INFER) -> ModelProto:
    """The ``ModelProto`` of a SentencePiece-shaped pipeline (Unigram or SentencePieceBPE model).

    ``bos_token``, ``eos_token``, ``pad_token``: the CONTROL pieces ``trainer_spec`` names for
    ``add_bos``, ``add_eos`` and ``pad_id`` (``None``: none); by default inferred (:func:`spm_roles`).
    """
    model = tok.model
    kind = type(model).__name__
    if kind not in ("Unigram", "SentencePieceBPE"):
        raise SerializationError(f"save_sentencepiece: the model {kind} has no SentencePiece equivalent "
                                 "(Unigram and SentencePieceBPE do)")
    pieces = model.params()["vocab"]
    unk_id = model.unk_id
    if unk_id is None:
        raise SerializationError("save_sentencepiece: SentencePiece needs an unknown piece; set the model's unk_id")
    specials = set(model.special_tokens)
    unused = set(model.unused)
    user_defined = set(model.user_defined)
    if model.byte_fallback and not _BYTE_PIECES <= {p for p, _ in pieces}:
        raise SerializationError(
            "save_sentencepiece: byte_fallback is on but the vocabulary lacks some of the 256 pieces <0x00>..<0xFF> "
            "that sentencepiece (and our reader) require; set model.byte_fallback = False, or add the byte pieces"
        )
    out = ModelProto()
    for i, (piece, score) in enumerate(pieces):
        _check_piece(i, piece)
        if i == unk_id:
            kind_id = UNKNOWN
        elif model.byte_fallback and piece in _BYTE_PIECES:  # a byte piece, even if listed as special
            kind_id = BYTE
        elif piece in specials:
            kind_id = CONTROL
        elif piece in unused:
            kind_id = UNUSED
        elif piece in user_defined:
            kind_id = USER_DEFINED
        else:
            kind_id = NORMAL
        out.pieces.append(Piece(piece, float(score), kind_id))
    trainer = out.trainer_spec
    trainer.set("model_type", UNIGRAM if kind == "Unigram" else BPE)
    trainer.set("vocab_size", len(pieces))
    if model.byte_fallback:
        trainer.set("byte_fallback", True)
    trainer.set("unk_id", unk_id)
    trainer.set("unk_piece", pieces[unk_id][0])
    controls = {p: i for i, (p, _) in enumerate(pieces) if out.pieces[i].type == CONTROL}
    for role, role_id in spm_roles(controls, bos=bos_token, eos=eos_token, pad=pad_token).items():
        trainer.set(f"{role}_id", role_id)
        if role_id >= 0:
            trainer.set(f"{role}_piece", pieces[role_id][0])
    out.normalizer_spec = _normalizer_spec(tok)
    return out


#: sentencepiece refuses to load a model holding a piece of this many UTF-8 bytes or more ("piece is too long").
SPM_MAX_PIECE_BYTES = 8000


def _check_piece(index: int, piece: str) -> None:
    """Refuse a piece that sentencepiece's model loader refuses (``ModelInterface::InitializePieces``:
    "piece must not be empty", "piece must not include null character", "piece is too long"), or that
    protobuf cannot hold (a string that is not UTF-8: a lone surrogate)."""
    fix = f"remove it from the vocabulary (retrain on text without it), or {SAVE_AS_HF_JSON}"
    if not piece:
        raise SerializationError(f"save_sentencepiece: piece {index} is empty, which sentencepiece refuses in a .model "
                                 "file (\"piece must not be empty\"); remove it from the vocabulary")
    if "\x00" in piece:
        raise SerializationError(
            f"save_sentencepiece: piece {index} {piece!r:.60} contains a NUL character, which sentencepiece refuses "
            f"in a .model file (\"piece must not include null character\"); {fix}"
        )
    try:
        size = len(piece.encode("utf-8"))
    except UnicodeEncodeError as exc:
        raise SerializationError(
            f"save_sentencepiece: piece {index} {piece!r:.60} holds a lone surrogate ({piece[exc.start]!r}), which is "
            "not UTF-8 and cannot be written in a .model file; remove it from the vocabulary"
        ) from None
    if size >= SPM_MAX_PIECE_BYTES:
        raise SerializationError(
            f"save_sentencepiece: piece {index} {piece!r:.40} is {size} UTF-8 bytes long; sentencepiece refuses pieces "
            f"of {SPM_MAX_PIECE_BYTES} bytes or more (\"piece is too long\"); {fix}"
        )


def check_added_tokens(tok: Tokenizer) -> None:
    """Refuse a pipeline with added tokens that are not pieces of its model: a ``.model`` file holds only
    the model's pieces, so they (and their ids) would be lost (``save_tokenizer(..., exact=True)``)."""
    pieces = tok.model.get_vocab()
    lost = [t.content for t in tok.get_added_tokens_decoder().values() if t.content not in pieces]
    if lost:
        raise SerializationError(
            f"save_sentencepiece: the added token(s) {', '.join(map(repr, lost[:5]))} are not pieces of the model, and "
            f"a .model file holds only the model's pieces (they would be lost); {SAVE_AS_HF_JSON}"
        )


def save_sentencepiece(tok: Tokenizer, path: PathLike, *, bos_token: str | None = _INFER,
                       eos_token: str | None = _INFER, pad_token: str | None = _INFER) -> None:
    """Write ``tok`` as a ``.model`` file (atomic write) that ``sentencepiece`` loads; the role
    keywords as in :func:`to_model_proto`."""
    proto = to_model_proto(tok, bos_token=bos_token, eos_token=eos_token, pad_token=pad_token)
    atomic_write_bytes(path, serialize_model(proto))
