"""The protobuf wire format of SentencePiece ``.model`` files, read and written without protobuf.

This module owns the bytes: :func:`parse_model` turns a ``ModelProto`` into a :class:`ModelProto`
(pieces, and the three specs as :class:`Message` field lists), :func:`serialize_model` turns it back.
Every field is kept, known or not, in file order, so reading and writing an unchanged model gives
the same bytes. The schema below is the subset of ``sentencepiece_model.proto`` the toolkit reads.
A malformed file (truncated varint, length past the end, wrong wire type, nesting) is a
:class:`~toolkit.errors.SerializationError` naming the byte offset and the field.

>>> m = ModelProto(pieces=[Piece("<unk>", 0.0, 2), Piece("▁a", -1.5, 1)])
>>> m.trainer_spec.set("model_type", 2)
>>> again = parse_model(serialize_model(m), source="x")
>>> [(p.piece, p.score, p.type) for p in again.pieces], again.trainer_spec.get("model_type")
([('<unk>', 0.0, 2), ('▁a', -1.5, 1)], 2)
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Any

from toolkit import limits
from toolkit.errors import SerializationError

__all__ = [
    "BPE",
    "BYTE",
    "CHAR",
    "CONTROL",
    "NORMAL",
    "UNIGRAM",
    "UNKNOWN",
    "UNUSED",
    "USER_DEFINED",
    "WORD",
    "Message",
    "ModelProto",
    "Piece",
    "parse_model",
    "serialize_model",
]

# SentencePiece.Type and TrainerSpec.ModelType
NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6
UNIGRAM, BPE, WORD, CHAR = 1, 2, 3, 4

_VARINT, _I64, _LEN, _I32 = 0, 1, 2, 5

# name -> (field number, kind, default); kinds: int (varint, int32 sign), uint, bool, enum, float, str, bytes
_TRAINER = {
    "model_type": (3, "enum", UNIGRAM),
    "vocab_size": (4, "int", 8000),
    "character_coverage": (10, "float", 0.9995),
    "split_by_whitespace": (22, "bool", True),
    "treat_whitespace_as_suffix": (24, "bool", False),
    "byte_fallback": (35, "bool", False),
    "unk_id": (40, "int", 0),
    "bos_id": (41, "int", 1),
    "eos_id": (42, "int", 2),
    "pad_id": (43, "int", -1),
    "unk_surface": (44, "str", " \u2047 "),
    "unk_piece": (45, "str", "<unk>"),
    "bos_piece": (46, "str", "<s>"),
    "eos_piece": (47, "str", "</s>"),
    "pad_piece": (48, "str", "<pad>"),
}
_NORMALIZER = {
    "name": (1, "str", ""),
    "precompiled_charsmap": (2, "bytes", b""),
    "add_dummy_prefix": (3, "bool", True),
    "remove_extra_whitespaces": (4, "bool", True),
    "escape_whitespaces": (5, "bool", True),
    "normalization_rule_tsv": (6, "str", ""),
}
_SCHEMAS = {"trainer_spec": _TRAINER, "normalizer_spec": _NORMALIZER, "denormalizer_spec": _NORMALIZER}
_EXPECTED_WIRE = {"int": _VARINT, "uint": _VARINT, "bool": _VARINT, "enum": _VARINT, "float": _I32,
                  "str": _LEN, "bytes": _LEN}


# ---------------------------------------------------------------------------------------- wire level
def _varint(data: bytes, pos: int, source: str) -> tuple[int, int]:
    result = shift = 0
    end = len(data)
    while True:
        if pos >= end:
            raise SerializationError(f"{source}: truncated varint at byte {pos}; the file is cut short or not a "
                                     "SentencePiece model")
        b = data[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7
        if shift >= 70:
            raise SerializationError(f"{source}: varint longer than 10 bytes at byte {pos}; not a SentencePiece model")


def _encode_varint(value: int) -> bytes:
    if value < 0:
        value += 1 << 64  # int32/int64 negatives are ten-byte two's complement varints
    out = bytearray()
    while True:
        b = value & 0x7F
        value >>= 7
        if value:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _fields(data: bytes, source: str) -> list[tuple[int, int, Any]]:
    """``(field number, wire type, value)`` of one message: an int for varints, bytes otherwise."""
    out: list[tuple[int, int, Any]] = []
    pos, end = 0, len(data)
    while pos < end:
        start = pos
        key, pos = _varint(data, pos, source)
        number, wire = key >> 3, key & 7
        if number == 0 or number > (1 << 29) - 1:
            raise SerializationError(f"{source}: invalid field number {number} at byte {start}; not a SentencePiece model")
        if wire == _VARINT:
            value, pos = _varint(data, pos, source)
        elif wire == _LEN:
            length, pos = _varint(data, pos, source)
            if length > end - pos:
                raise SerializationError(
                    f"{source}: field {number} at byte {start} claims {length:,} bytes but only {end - pos:,} are "
                    "left; the file is truncated or corrupt"
                )
            value, pos = data[pos : pos + length], pos + length
        elif wire in (_I32, _I64):
            size = 4 if wire == _I32 else 8
            if size > end - pos:
                raise SerializationError(f"{source}: truncated fixed-size field {number} at byte {start}")
            value, pos = data[pos : pos + size], pos + size
        else:
            raise SerializationError(
                f"{source}: unsupported wire type {wire} (field {number}) at byte {start}; not a SentencePiece model"
            )
        out.append((number, wire, value))
    return out


def _serialize(fields: list[tuple[int, int, Any]]) -> bytes:
    out = bytearray()
    for number, wire, value in fields:
        out += _encode_varint(number << 3 | wire)
        if wire == _VARINT:
            out += _encode_varint(value)
        elif wire == _LEN:
            out += _encode_varint(len(value)) + value
        else:
            out += value
    return bytes(out)


# ---------------------------------------------------------------------------------------- messages
@dataclass
class Message:
    """One spec message (``TrainerSpec`` or ``NormalizerSpec``) as its raw fields, in file order;
    :meth:`get` and :meth:`set` read and write the known ones by name with protobuf's defaults."""

    schema: str
    fields: list[tuple[int, int, Any]] = field(default_factory=list)
    source: str = "<model>"

    def _spec(self, name: str) -> tuple[int, str, Any]:
        return _SCHEMAS[self.schema][name]

    def has(self, name: str) -> bool:
        number = self._spec(name)[0]
        return any(f[0] == number for f in self.fields)

    def get(self, name: str) -> Any:
        number, kind, default = self._spec(name)
        found = [f for f in self.fields if f[0] == number]
        if not found:
            return default
        _, wire, raw = found[-1]  # protobuf: the last occurrence of a scalar wins
        if wire != _EXPECTED_WIRE[kind]:
            raise SerializationError(
                f"{self.source}: {self.schema}.{name} has wire type {wire}, expected {_EXPECTED_WIRE[kind]}; "
                "the file is corrupt"
            )
        if kind == "float":
            return struct.unpack("<f", raw)[0]
        if kind == "bool":
            return bool(raw)
        if kind in ("int", "enum"):
            raw &= (1 << 64) - 1
            return raw - (1 << 64) if raw >= 1 << 63 else raw
        if kind == "str":
            return _text(raw, f"{self.source}: {self.schema}.{name}")
        return raw

    def set(self, name: str, value: Any) -> None:
        number, kind, _ = self._spec(name)
        wire = _EXPECTED_WIRE[kind]
        if kind == "float":
            raw: Any = struct.pack("<f", value)
        elif kind == "str":
            raw = value.encode("utf-8")
        elif kind == "bytes":
            raw = bytes(value)
        else:
            raw = int(value)
        kept = [f for f in self.fields if f[0] != number]
        kept.append((number, wire, raw))
        kept.sort(key=lambda f: f[0])  # stable: unknown repeated fields keep their order
        self.fields = kept


@dataclass
class Piece:
    """``ModelProto.SentencePiece``: the piece, its score and type (1 NORMAL ... 6 BYTE)."""

    piece: str
    score: float = 0.0
    type: int = NORMAL
    extra: list[tuple[int, int, Any]] = field(default_factory=list)


@dataclass
class ModelProto:
    """A parsed ``.model`` file: pieces in id order and the three specs (absent ones are empty)."""

    pieces: list[Piece] = field(default_factory=list)
    trainer_spec: Message = field(default_factory=lambda: Message("trainer_spec"))
    normalizer_spec: Message = field(default_factory=lambda: Message("normalizer_spec"))
    denormalizer_spec: Message | None = None
    extra: list[tuple[int, int, Any]] = field(default_factory=list)  # self_test_data and unknown fields


def _text(raw: bytes, where: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SerializationError(f"{where}: not UTF-8 (invalid byte 0x{raw[exc.start]:02x}); the file is corrupt") from None


_FLOAT = struct.Struct("<f")


def _parse_piece(raw: bytes, index: int, source: str) -> Piece:
    # The layout every writer uses (piece < 128 bytes, score, optional type), read without the field
    # loop, which dominated loading (measured: docs/benchmarks.md, "SentencePiece `.model` files").
    # Anything else takes the general path below.
    n = len(raw)
    if n >= 7 and raw[0] == 0x0A and raw[1] < 0x80:
        end = 2 + raw[1]
        typed = n == end + 7 and raw[end + 5] == 0x18 and NORMAL <= raw[end + 6] <= BYTE
        if (n == end + 5 or typed) and raw[end] == 0x15:
            try:
                text = raw[2:end].decode("utf-8")
            except UnicodeDecodeError:
                pass  # the general path names the problem
            else:
                return Piece(text, _FLOAT.unpack_from(raw, end + 1)[0], raw[end + 6] if typed else NORMAL)
    where = f"{source}: pieces[{index}]"
    piece = Piece("", 0.0, NORMAL)
    for number, wire, value in _fields(raw, where):
        if number == 1 and wire == _LEN:
            piece.piece = _text(value, f"{where}.piece")
        elif number == 2 and wire == _I32:
            piece.score = struct.unpack("<f", value)[0]
        elif number == 3 and wire == _VARINT:
            if not NORMAL <= value <= BYTE:
                raise SerializationError(f"{where}.type: unknown piece type {value} (expected 1..6)")
            piece.type = value
        elif number in (1, 2, 3):
            raise SerializationError(f"{where}: field {number} has the wrong wire type {wire}; the file is corrupt")
        else:
            piece.extra.append((number, wire, value))
    return piece


def parse_model(data: bytes, *, source: str) -> ModelProto:
    """Parse the bytes of a ``.model`` file (typed errors, never a traceback from deep inside)."""
    limits.check_file_size(len(data), source=source)
    model = ModelProto()
    for number, wire, value in _fields(data, source):
        if number in (1, 2, 3, 5) and wire != _LEN:
            raise SerializationError(f"{source}: ModelProto field {number} has wire type {wire}, expected 2; "
                                     "not a SentencePiece model")
        if number == 1:
            if len(model.pieces) >= limits.MAX_VOCAB_SIZE:
                limits.check_vocab_size(len(model.pieces) + 1, where=f"{source}: pieces")
            model.pieces.append(_parse_piece(value, len(model.pieces), source))
        elif number in (2, 3, 5):
            name = {2: "trainer_spec", 3: "normalizer_spec", 5: "denormalizer_spec"}[number]
            message = Message(name, _fields(value, f"{source}: {name}"), source)
            if number == 5:
                model.denormalizer_spec = message
            else:
                setattr(model, name, message)
        else:
            model.extra.append((number, wire, value))
    return model


def serialize_model(model: ModelProto) -> bytes:
    """The bytes of ``model`` in protobuf's canonical order (pieces, specs, then the rest)."""
    fields: list[tuple[int, int, Any]] = []
    for p in model.pieces:
        inner = [(1, _LEN, p.piece.encode("utf-8")), (2, _I32, struct.pack("<f", p.score))]
        if p.type != NORMAL:  # proto2 optional with default NORMAL: written only when set otherwise
            inner.append((3, _VARINT, p.type))
        fields.append((1, _LEN, _serialize(inner + p.extra)))
    fields.append((2, _LEN, _serialize(model.trainer_spec.fields)))
    fields.append((3, _LEN, _serialize(model.normalizer_spec.fields)))
    if model.denormalizer_spec is not None:
        fields.append((5, _LEN, _serialize(model.denormalizer_spec.fields)))
    extra = sorted(model.extra, key=lambda f: f[0])
    return _serialize(fields[: len(model.pieces) + 2] + [f for f in extra if f[0] == 4]
                      + fields[len(model.pieces) + 2 :] + [f for f in extra if f[0] != 4])
