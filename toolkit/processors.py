"""Post-processors: the last encoding step, which adds special tokens and sets type ids.

This module owns ``TemplateProcessing`` (Hugging Face's template language: ``"[CLS] $A [SEP]"``),
``BertProcessing`` (``[CLS] A [SEP]`` / ``[CLS] A [SEP] B [SEP]``), ``RobertaProcessing``
(``<s> A </s> </s> B </s>``, type ids all 0), the ``ByteLevel`` post-processor
(trims the spaces that byte-level tokens carry out of their offsets) and ``Sequence``.

They follow Hugging Face's model: :meth:`process` sets type id 0 on the first sequence and 1 on the
pair, hands the list of encodings to :meth:`process_encodings` (which returns a list again, so
processors chain in a ``Sequence``) and concatenates the result. Added special tokens have offsets
``(0, 0)``, ``special_tokens_mask`` 1 and word id ``None``. With ``add_special_tokens=False`` nothing
is added, but templates still order the sequences and set their type ids.

>>> from toolkit.encoding import Encoding
>>> enc = Encoding([7, 8], ["hi", "there"], [(0, 2), (3, 8)])
>>> BertProcessing().process(enc).tokens
['[CLS]', 'hi', 'there', '[SEP]']
"""

from __future__ import annotations

import re
from abc import abstractmethod
from collections.abc import Iterable, Mapping
from typing import Any, cast

from pydantic import Field, StrictBool, StrictInt, StrictStr, field_validator, model_validator

from toolkit import limits
from toolkit.bytelevel import BYTE_TO_CHAR
from toolkit.encoding import Encoding
from toolkit.errors import ConfigError, InputError
from toolkit.interfaces import Container, Params, PostProcessor, children_validator
from toolkit.normalizers import WHITESPACE
from toolkit.registry import register

__all__ = ["TemplateProcessing", "BertProcessing", "RobertaProcessing", "ByteLevel", "Sequence"]


class _EncodingsProcessor(PostProcessor):
    """Shared driver: per-sequence processing as in Hugging Face, then one concatenation."""

    def process(self, encoding: Encoding, pair: Encoding | None = None, add_special_tokens: bool = True) -> Encoding:
        # Copies: implementations may share and change these lists freely.
        return self._process_owned(encoding.copy(), None if pair is None else pair.copy(), add_special_tokens)

    def _process_owned(self, encoding: Encoding, pair: Encoding | None, add_special_tokens: bool) -> Encoding:
        # Each sequence (its overflowing parts too) gets the standard type id and is marked with its
        # sequence, in place.
        encodings = [encoding] if pair is None else [encoding, pair]
        for i, e in enumerate(encodings):
            for part in (e, *(e.overflow or ())):
                n = len(part.ids)
                part.type_ids = [i] * n
                # A fresh mark: the sequence-0 range an earlier encode gave the pair is dropped,
                # where HF keeps it and loses the first text's range (docs/migrating.md).
                part.ranges = (i, 0, n)
        out = self.process_encodings(encodings, add_special_tokens=add_special_tokens)
        return out[0] if len(out) == 1 else Encoding.concat(out)

    @abstractmethod
    def process_encodings(self, encodings: list[Encoding], *, add_special_tokens: bool = True) -> list[Encoding]:
        """Process the encodings of the sequences (one or two); return the parts to concatenate."""


# --------------------------------------------------------------------------- templates

_TYPE_ID_RE = re.compile(r"\+?[0-9]+")  # Rust's u32 parser accepts a leading "+"


def _type_id(text: str, piece: str) -> int:
    if not _TYPE_ID_RE.fullmatch(text) or int(text) >= 2**32:
        raise ConfigError(f"cannot read template piece {piece!r}: the type id must be a non-negative integer")
    return int(text)


def _parse_piece(item: Any) -> dict[str, dict[str, Any]]:
    """One template piece in Hugging Face's JSON form from ``"$A"``, ``"$B:1"``, ``"$1"``,
    ``"[CLS]"``, ``"[SEP]:1"`` or an already structured ``{"Sequence"/"SpecialToken": {...}}``."""
    if isinstance(item, Mapping):
        if len(item) == 1:
            ((kind, body),) = item.items()
            if kind in ("Sequence", "SpecialToken") and isinstance(body, Mapping) and set(body) == {"id", "type_id"}:
                ident, type_id = body["id"], body["type_id"]
                ok_id = ident in ("A", "B") if kind == "Sequence" else isinstance(ident, str)
                if ok_id and isinstance(type_id, int) and not isinstance(type_id, bool) and 0 <= type_id < 2**32:
                    return {kind: {"id": ident, "type_id": type_id}}
        raise ConfigError(
            f'cannot read template piece {dict(item)!r}: expected {{"Sequence": {{"id": "A" or "B", "type_id": n}}}} '
            f'or {{"SpecialToken": {{"id": "...", "type_id": n}}}}'
        )
    if not isinstance(item, str):
        raise ConfigError(f"cannot read template piece {item!r}: expected a string such as \"$A\" or \"[CLS]:1\"")
    parts = item.split(":")
    if len(parts) > 2:
        raise ConfigError(f"cannot read template piece {item!r}: use at most one ':' (name:type_id)")
    name = parts[0]
    type_id = _type_id(parts[1], item) if len(parts) == 2 else None
    if not name.startswith("$"):
        return {"SpecialToken": {"id": name, "type_id": type_id or 0}}
    rest = name[1:]
    if rest in ("", "A", "a"):
        seq, default = "A", 0
    elif rest in ("B", "b"):
        seq, default = "B", 0
    elif _TYPE_ID_RE.fullmatch(rest):
        seq, default = "A", _type_id(rest, item)  # "$1": sequence A with type id 1
    else:
        raise ConfigError(f"cannot read template piece {item!r}: a sequence is $A, $B or $<type id>")
    return {"Sequence": {"id": seq, "type_id": default if type_id is None else type_id}}


def parse_template(value: Any) -> list[dict[str, dict[str, Any]]]:
    """A template in Hugging Face's JSON form from a string (pieces separated by spaces) or a list.

    >>> parse_template("[CLS] $A [SEP]:1")[1:]
    [{'Sequence': {'id': 'A', 'type_id': 0}}, {'SpecialToken': {'id': '[SEP]', 'type_id': 1}}]
    """
    if isinstance(value, str):
        pieces = value.split(" ")  # as HF: one space between pieces, no other separator
        if "" in pieces:
            raise ConfigError(
                f"template {value!r}: an empty piece (the template is empty, or has a space at either end or two "
                'in a row); separate the pieces by single spaces, as in "[CLS] $A [SEP]"'
            )
        value = pieces
    if isinstance(value, Mapping) or not isinstance(value, Iterable):
        raise ConfigError(f"a template must be a string or a list of pieces, got {type(value).__name__}")
    return [_parse_piece(item) for item in value]


def _special_entry(ident: Any, ids: Any, tokens: Any) -> dict[str, Any]:
    if not isinstance(ident, str):
        raise ConfigError(f"special token id must be a string, got {ident!r}")
    if isinstance(ids, (str, bytes, Mapping)) or not isinstance(ids, Iterable):
        raise ConfigError(f"special token {ident!r}: ids must be a list of integers")
    if isinstance(tokens, (str, bytes, Mapping)) or not isinstance(tokens, Iterable):
        raise ConfigError(f"special token {ident!r}: tokens must be a list of strings")
    ids, tokens = list(ids), list(tokens)
    if any(not isinstance(i, int) or isinstance(i, bool) or not 0 <= i <= limits.MAX_TOKEN_ID for i in ids):
        raise ConfigError(
            f"special token {ident!r}: ids must be non-negative integers up to {limits.MAX_TOKEN_ID} "
            f"(toolkit.limits.MAX_TOKEN_ID), got {ids!r}"
        )
    if any(not isinstance(t, str) for t in tokens):
        raise ConfigError(f"special token {ident!r}: tokens must be strings, got {tokens!r}")
    if len(ids) != len(tokens):
        raise ConfigError(
            f"special token {ident!r}: ids and tokens must have the same length ({len(ids)} != {len(tokens)})"
        )
    return {"id": ident, "ids": ids, "tokens": tokens}


def parse_special_tokens(value: Any) -> dict[str, dict[str, Any]]:
    """Special tokens in Hugging Face's JSON form (``{id: {"id", "ids", "tokens"}}``, sorted by id).

    Accepts ``[("[CLS]", 101), ...]`` (either order inside the pair), ``[{"id", "ids", "tokens"}, ...]``,
    ``{"[CLS]": 101}`` or the JSON form itself.

    >>> parse_special_tokens([("[CLS]", 101)])
    {'[CLS]': {'id': '[CLS]', 'ids': [101], 'tokens': ['[CLS]']}}
    """
    if value is None:
        return {}
    entries: list[dict[str, Any]] = []
    if isinstance(value, Mapping):
        for key, item in value.items():
            if isinstance(item, int) and not isinstance(item, bool):
                entries.append(_special_entry(key, [item], [key]))
            elif isinstance(item, Mapping) and set(item) == {"id", "ids", "tokens"} and item["id"] == key:
                entries.append(_special_entry(key, item["ids"], item["tokens"]))
            else:
                raise ConfigError(f'special token {key!r}: expected an id or {{"id", "ids", "tokens"}}, got {item!r}')
    elif isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise ConfigError(f"special_tokens must be a list or a mapping, got {type(value).__name__}")
    else:
        for item in value:
            if isinstance(item, Mapping) and set(item) == {"id", "ids", "tokens"}:
                entries.append(_special_entry(item["id"], item["ids"], item["tokens"]))
            elif isinstance(item, (tuple, list)) and len(item) == 2:
                a, b = item
                token, token_id = (b, a) if isinstance(a, int) and isinstance(b, str) else (a, b)
                if not isinstance(token_id, int) or isinstance(token_id, bool):
                    raise ConfigError(f"special token {item!r}: expected (token, id)")
                entries.append(_special_entry(token, [token_id], [token]))
            else:
                raise ConfigError(f'special token {item!r}: expected (token, id) or {{"id", "ids", "tokens"}}')
    out: dict[str, dict[str, Any]] = {}
    for entry in entries:
        if entry["id"] in out and out[entry["id"]] != entry:
            raise ConfigError(f"special token {entry['id']!r} is given twice with different ids")
        out[entry["id"]] = entry
    return dict(sorted(out.items()))


def _check_templates(single: list[dict[str, Any]], pair: list[dict[str, Any]], special: Mapping[str, Any]) -> None:
    seqs = {p["Sequence"]["id"] for p in pair if "Sequence" in p}
    if seqs != {"A", "B"}:
        raise ConfigError("pair: the pair template must use both sequences, $A and $B")
    if any(p.get("Sequence", {}).get("id") == "B" for p in single):
        raise ConfigError("single: the single-sequence template cannot use $B")
    missing = sorted(
        {p["SpecialToken"]["id"] for p in single + pair if "SpecialToken" in p} - set(special)
    )
    if missing:
        raise ConfigError(
            f"special_tokens: the templates use special token(s) {', '.join(map(repr, missing))} "
            "that special_tokens does not define; add them as (token, id)"
        )


_Plan = list[tuple[bool, Any, int]]  # (is_sequence, sequence index or special id, type id)


@register("TemplateProcessing")
class TemplateProcessing(_EncodingsProcessor):
    """Adds special tokens following a template, as Hugging Face's ``TemplateProcessing``.

    Templates are strings of space-separated pieces (or lists of pieces): ``$A`` / ``$B`` are the
    sequences, ``$0``, ``$1``... the first sequence with that type id, anything else a special token;
    ``:n`` sets a piece's type id (``$B:1``, ``[SEP]:1``). ``special_tokens`` gives each special
    token's id: ``[("[CLS]", 101), ...]``, or ``{"id", "ids", "tokens"}`` dicts for a piece that
    stands for several tokens. The options are stored (and saved) in Hugging Face's JSON form.

    >>> from toolkit.encoding import Encoding
    >>> tp = TemplateProcessing(single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
    ...                         special_tokens=[("[CLS]", 1), ("[SEP]", 2)])
    >>> a, b = Encoding([5], ["hi"], [(0, 2)]), Encoding([6], ["yo"], [(0, 2)])
    >>> out = tp.process(a, b)
    >>> out.ids, out.type_ids, out.special_tokens_mask
    ([1, 5, 2, 6, 2], [0, 0, 0, 1, 1], [1, 0, 1, 0, 1])
    """

    class Params(Params):
        # Stored in Hugging Face's JSON form: the validators parse what the user gives.
        single: str | list[Any] | None = Field(None, validate_default=True)
        pair: str | list[Any] | None = Field(None, validate_default=True)
        special_tokens: list[Any] | dict[str, Any] | tuple[Any, ...] | None = Field(None, validate_default=True)

        @field_validator("single")
        @classmethod
        def _parse_single(cls, value: Any) -> list[dict[str, Any]]:
            return parse_template("$0" if value is None else value)

        @field_validator("pair")
        @classmethod
        def _parse_pair(cls, value: Any) -> list[dict[str, Any]]:
            return parse_template("$A:0 $B:1" if value is None else value)

        @field_validator("special_tokens")
        @classmethod
        def _parse_special(cls, value: Any) -> dict[str, Any]:
            return parse_special_tokens(value)

        @model_validator(mode="after")
        def _check_all(self) -> Any:
            _check_templates(self.single, self.pair, self.special_tokens)  # type: ignore[arg-type]
            return self

    positional = ("single", "pair", "special_tokens")
    single: list[dict[str, Any]]
    pair: list[dict[str, Any]]
    special_tokens: dict[str, dict[str, Any]]

    def _configure(self) -> None:
        self._tokens = {k: (v["ids"], v["tokens"]) for k, v in self.special_tokens.items()}
        self._single_plan = self._plan(self.single)
        self._pair_plan = self._plan(self.pair)
        # process_ids: the ids of each piece of the single template (None for the sequence).
        self._single_ids = [None if is_seq else self._tokens[key][0] for is_seq, key, _ in self._single_plan]
        self._one_sequence_piece = sum(is_seq for is_seq, _, _ in self._single_plan) == 1

    @staticmethod
    def _plan(template: list[dict[str, Any]]) -> _Plan:
        plan: _Plan = []
        for piece in template:
            if "Sequence" in piece:
                body = piece["Sequence"]
                plan.append((True, 0 if body["id"] == "A" else 1, body["type_id"]))
            else:
                body = piece["SpecialToken"]
                plan.append((False, body["id"], body["type_id"]))
        return plan

    def process_encodings(self, encodings: list[Encoding], *, add_special_tokens: bool = True) -> list[Encoding]:
        if len(encodings) not in (1, 2):
            raise InputError(f"TemplateProcessing handles one or two sequences, got {len(encodings)}")
        plan = self._pair_plan if len(encodings) == 2 else self._single_plan
        out = []
        for is_seq, key, type_id in plan:
            if is_seq:
                e = encodings[key]
                out.append(e if e.type_ids == [type_id] * len(e.ids) and not e.overflow else e.with_type_id(type_id))
            elif add_special_tokens:
                ids, tokens = self._tokens[key]
                n = len(ids)
                out.append(Encoding(list(ids), list(tokens), [(0, 0)] * n, [type_id] * n, [1] * n, [1] * n, [None] * n))
        return out

    def _process_owned(self, encoding: Encoding, pair: Encoding | None, add_special_tokens: bool) -> Encoding:
        if pair is not None or not add_special_tokens or encoding.overflow or not self._one_sequence_piece:
            return super()._process_owned(encoding, pair, add_special_tokens)
        # The common call, one sequence, built in one go: what the driver builds from a part per piece
        # of the template, concatenated (tests/test_processors.py compares the two).
        e = encoding
        ids: list[int] = []
        tokens: list[str] = []
        offsets: list[tuple[int, int]] = []
        type_ids: list[int] = []
        special: list[int] = []
        attention: list[int] = []
        words: list[int | None] = []
        start = 0
        for is_seq, key, type_id in self._single_plan:
            if is_seq:
                start = len(ids)
                ids += e.ids
                tokens += e.tokens
                offsets += e.offsets
                special += e.special_tokens_mask
                attention += e.attention_mask
                words += e.word_ids
                type_ids += [type_id] * len(e.ids)
            else:
                piece_ids, piece_tokens = self._tokens[key]
                n = len(piece_ids)
                ids += piece_ids
                tokens += piece_tokens
                offsets += [(0, 0)] * n
                special += [1] * n
                attention += [1] * n
                words += [None] * n
                type_ids += [type_id] * n
        return Encoding(ids, tokens, offsets, type_ids, special, attention, words, (0, start, start + len(e.ids)))

    def process_ids(self, ids: list[int], *, add_special_tokens: bool = True) -> list[int]:
        out: list[int] = []
        for seg in self._single_ids:
            if seg is None:
                out += ids
            elif add_special_tokens:
                out += seg
        return out

    def added_tokens(self, *, is_pair: bool) -> int:
        plan = self._pair_plan if is_pair else self._single_plan
        return sum(len(self._tokens[key][0]) for is_seq, key, _ in plan if not is_seq)


@register("BertProcessing")
class BertProcessing(_EncodingsProcessor):
    """BERT's special tokens: ``[CLS] A [SEP]`` and ``[CLS] A [SEP] B [SEP]`` (type ids 0 then 1).

    ``sep`` and ``cls`` are ``(token, id)`` pairs; in JSON they are two-element lists. ``cls_token=``
    is the keyword of current Hugging Face versions for ``cls``, taken too.

    >>> from toolkit.encoding import Encoding
    >>> a, b = Encoding([5], ["hi"], [(0, 2)]), Encoding([6], ["yo"], [(0, 2)])
    >>> out = BertProcessing(sep=("[SEP]", 102), cls=("[CLS]", 101)).process(a, b)
    >>> out.tokens, out.type_ids, out.offsets[:2]
    (['[CLS]', 'hi', '[SEP]', 'yo', '[SEP]'], [0, 0, 0, 1, 1], [(0, 0), (0, 2)])
    """

    class Params(Params):
        sep: tuple[StrictStr, StrictInt] = ("[SEP]", 102)
        cls: tuple[StrictStr, StrictInt] = ("[CLS]", 101)

        @field_validator("sep", "cls")
        @classmethod
        def _check_id(cls, value: tuple[str, int]) -> tuple[str, int]:
            if not 0 <= value[1] <= limits.MAX_TOKEN_ID:
                raise ValueError(
                    f"the id must be a non-negative integer up to {limits.MAX_TOKEN_ID} (toolkit.limits.MAX_TOKEN_ID), "
                    f"got {value[1]}"
                )
            return value

    positional = ("sep", "cls")
    sep: tuple[str, int]
    cls: tuple[str, int]
    aliases = {"cls_token": "cls"}  # the keyword of current Hugging Face versions

    def params(self) -> dict[str, Any]:
        return {"sep": list(self.sep), "cls": list(self.cls)}  # JSON arrays, as Hugging Face writes them

    def _special(self, token: tuple[str, int], type_id: int) -> Encoding:
        return Encoding([token[1]], [token[0]], [(0, 0)], [type_id], [1], [1], [None])

    def process(self, encoding: Encoding, pair: Encoding | None = None, add_special_tokens: bool = True) -> Encoding:
        if pair is not None or not add_special_tokens or encoding.overflow:
            return super().process(encoding, pair, add_special_tokens=add_special_tokens)
        return self._one_sequence(encoding)

    def _process_owned(self, encoding: Encoding, pair: Encoding | None, add_special_tokens: bool) -> Encoding:
        if pair is not None or not add_special_tokens or encoding.overflow:
            return super()._process_owned(encoding, pair, add_special_tokens)
        return self._one_sequence(encoding)

    def _one_sequence(self, encoding: Encoding) -> Encoding:
        # The common call, one sequence, built in one go: the same result as the generic driver,
        # which copies the encoding and concatenates three parts (five Encodings per text).
        (cls_token, cls_id), (sep_token, sep_id) = self.cls, self.sep
        e = encoding
        return Encoding(
            [cls_id, *e.ids, sep_id],
            [cls_token, *e.tokens, sep_token],
            [(0, 0), *e.offsets, (0, 0)],
            [0] * (len(e.ids) + 2),
            [1, *_content_mask(e), 1],
            [1] * (len(e.ids) + 2),  # the attention mask is made anew, as HF's (padding given in is content)
            [None, *e.word_ids, None],
            (0, 1, len(e.ids) + 1),
        )

    def process_encodings(self, encodings: list[Encoding], *, add_special_tokens: bool = True) -> list[Encoding]:
        if not add_special_tokens:
            return encodings
        if len(encodings) not in (1, 2):
            raise InputError(f"BertProcessing handles one or two sequences, got {len(encodings)}")
        encodings = [_content(e) for e in encodings]
        out = [self._special(self.cls, 0), encodings[0], self._special(self.sep, 0)]
        if len(encodings) == 2:
            out += [encodings[1], self._special(self.sep, 1)]
        return out

    def process_ids(self, ids: list[int], *, add_special_tokens: bool = True) -> list[int]:
        return [self.cls[1], *ids, self.sep[1]] if add_special_tokens else list(ids)

    def added_tokens(self, *, is_pair: bool) -> int:
        return 3 if is_pair else 2


def _content(enc: Encoding) -> Encoding:
    """``enc`` as the text between special tokens, overflowing parts too: attention 1 throughout (HF's
    ``BertProcessing`` and ``RobertaProcessing`` make the masks anew, so an encoding padded before
    ``post_process`` gets its padding counted as content) and :func:`_content_mask`."""
    n = len(enc.ids)
    overflow = [_content(o) for o in enc.overflow] if enc.overflow else None
    return Encoding(enc.ids, enc.tokens, enc.offsets, enc.type_ids, _content_mask(enc), [1] * n, enc.word_ids,
                    enc.ranges, overflow)


def _content_mask(enc: Encoding) -> list[int]:
    """The special-tokens mask of ``enc`` as content: padding (attention 0) is content, 0, as in HF; a
    special token typed in the text stays 1 (docs/migrating.md), whatever the post-processor."""
    return [mask & attention for mask, attention in zip(enc.special_tokens_mask, enc.attention_mask)]


# --------------------------------------------------------------------------- byte level

_SPACE_MARK = BYTE_TO_CHAR[ord(" ")]  # Ġ
_TRIMMED = frozenset(WHITESPACE + _SPACE_MARK)


def _count_leading(token: str) -> int:
    n = 0
    for c in token:
        if c not in _TRIMMED:
            break
        n += 1
    return n


@register("ByteLevel", kind="post_processor")
class ByteLevel(_EncodingsProcessor):
    """Trims the spaces byte-level tokens carry (``Ġhello``) out of their offsets, as Hugging Face's
    ``processors.ByteLevel``; adds no tokens.

    With ``add_prefix_space`` the single leading ``Ġ`` of the first token is kept in its offsets (it
    was added by the pre-tokenizer, not taken from the text). ``use_regex`` is only stored, for the
    same JSON as Hugging Face.

    >>> from toolkit.encoding import Encoding
    >>> enc = Encoding([1, 2], ["Hi", "Ġyou"], [(0, 2), (2, 6)])
    >>> ByteLevel(trim_offsets=True).process(enc).offsets
    [(0, 2), (3, 6)]
    """

    class Params(Params):
        add_prefix_space: StrictBool = True
        trim_offsets: StrictBool = True
        use_regex: StrictBool = True

    positional = ("add_prefix_space", "trim_offsets", "use_regex")
    add_prefix_space: bool
    trim_offsets: bool
    use_regex: bool

    def _trim(self, enc: Encoding) -> Encoding:
        return _trim_offsets(enc, self.add_prefix_space)

    def process_encodings(self, encodings: list[Encoding], *, add_special_tokens: bool = True) -> list[Encoding]:
        return [self._trim(e) for e in encodings] if self.trim_offsets else encodings

    def process_ids(self, ids: list[int], *, add_special_tokens: bool = True) -> list[int]:
        return ids  # the caller's new list, unchanged: no copy on the encode_ids hot path

    def added_tokens(self, *, is_pair: bool) -> int:
        return 0


def _trim_offsets(enc: Encoding, add_prefix_space: bool) -> Encoding:
    """Hugging Face's ``process_offsets``: leading and trailing spaces (and ``Ġ``) out of each token's
    offsets, except the one space ``add_prefix_space`` put before the first token."""
    offsets = []
    for i, (token, (start, end)) in enumerate(zip(enc.tokens, enc.offsets)):
        leading = _count_leading(token)
        trailing = _count_leading(token[::-1]) if leading < len(token) else leading
        if leading:
            # Offsets starting at 0 also count as "first" (pre-tokenized input restarts at 0).
            if (i == 0 or start == 0) and add_prefix_space and leading == 1:
                leading = 0
            start = min(start + leading, end)
        if trailing and end >= trailing:
            end = max(end - trailing, start)
        offsets.append((start, end))
    overflow = [_trim_offsets(o, add_prefix_space) for o in enc.overflow] if enc.overflow else None
    return Encoding(enc.ids, enc.tokens, offsets, enc.type_ids, enc.special_tokens_mask, enc.attention_mask,
                    enc.word_ids, enc.ranges, overflow)


@register("RobertaProcessing")
class RobertaProcessing(_EncodingsProcessor):
    """RoBERTa's special tokens, as Hugging Face's ``RobertaProcessing``: ``<s> A </s>`` and
    ``<s> A </s> </s> B </s>``, every type id 0 (``sequence_ids`` still tells the two apart), and with
    ``trim_offsets`` the byte-level offsets trimmed as the ``ByteLevel`` post-processor does.

    >>> from toolkit.encoding import Encoding
    >>> a, b = Encoding([5], ["Ġhi"], [(0, 3)]), Encoding([6], ["yo"], [(0, 2)])
    >>> out = RobertaProcessing(("</s>", 2), ("<s>", 0)).process(a, b)
    >>> out.ids, out.type_ids, out.offsets[1], out.n_sequences
    ([0, 5, 2, 2, 6, 2], [0, 0, 0, 0, 0, 0], (0, 3), 2)
    """

    class Params(BertProcessing.Params):
        sep: tuple[StrictStr, StrictInt] = ("</s>", 2)
        cls: tuple[StrictStr, StrictInt] = ("<s>", 0)
        trim_offsets: StrictBool = True
        add_prefix_space: StrictBool = True

    positional = ("sep", "cls", "trim_offsets", "add_prefix_space")
    sep: tuple[str, int]
    cls: tuple[str, int]
    trim_offsets: bool
    add_prefix_space: bool
    aliases = {"cls_token": "cls"}  # the keyword of current Hugging Face versions

    def params(self) -> dict[str, Any]:
        return {"sep": list(self.sep), "cls": list(self.cls), "trim_offsets": self.trim_offsets,
                "add_prefix_space": self.add_prefix_space}

    def process_encodings(self, encodings: list[Encoding], *, add_special_tokens: bool = True) -> list[Encoding]:
        if len(encodings) not in (1, 2):
            raise InputError(f"RobertaProcessing handles one or two sequences, got {len(encodings)}")
        if self.trim_offsets:
            encodings = [_trim_offsets(e, self.add_prefix_space) for e in encodings]
        encodings = [e.with_type_id(0) for e in encodings]  # RoBERTa: every type id is 0
        if not add_special_tokens:
            return encodings
        encodings = [_content(e) for e in encodings]
        cls, sep = Encoding.special(*self.cls), Encoding.special(*self.sep)
        out = [cls, encodings[0], sep]
        if len(encodings) == 2:
            out += [Encoding.special(*self.sep), encodings[1], Encoding.special(*self.sep)]
        return out

    def process_ids(self, ids: list[int], *, add_special_tokens: bool = True) -> list[int]:
        return [self.cls[1], *ids, self.sep[1]] if add_special_tokens else list(ids)

    def added_tokens(self, *, is_pair: bool) -> int:
        return 4 if is_pair else 2


# --------------------------------------------------------------------------- Sequence

@register("Sequence", kind="post_processor")
class Sequence(Container, _EncodingsProcessor):
    """Runs post-processors one after the other (e.g. ``ByteLevel`` trimming, then a template).

    >>> from toolkit.encoding import Encoding
    >>> template = TemplateProcessing(single="<s> $A", special_tokens=[("<s>", 0)])
    >>> seq = Sequence([ByteLevel(add_prefix_space=False), template])
    >>> out = seq.process(Encoding([5], ["Ġhi"], [(0, 3)]))
    >>> out.ids, out.offsets
    ([0, 5], [(0, 0), (1, 3)])
    """

    children_field = "processors"
    positional = ("processors",)
    processors: list[PostProcessor]

    class Params(Params):
        processors: list[Any]

        _children = children_validator("processors", "post_processor")

    def _configure(self) -> None:
        super()._configure()
        for i, p in enumerate(self.processors):
            if not isinstance(p, _EncodingsProcessor):
                raise ConfigError(
                    f"{self.kind} {self.type_name!r}.processors[{i}]: {type(p).__name__} has no process_encodings, "
                    "so it cannot be chained"
                )

    def process_encodings(self, encodings: list[Encoding], *, add_special_tokens: bool = True) -> list[Encoding]:
        for p in self.processors:  # each one is an _EncodingsProcessor (checked in _configure)
            encodings = cast(_EncodingsProcessor, p).process_encodings(encodings, add_special_tokens=add_special_tokens)
        return encodings

    def process_ids(self, ids: list[int], *, add_special_tokens: bool = True) -> list[int]:
        for p in self.processors:
            ids = p.process_ids(ids, add_special_tokens=add_special_tokens)
        return ids

    def added_tokens(self, *, is_pair: bool) -> int:
        return sum(p.added_tokens(is_pair=is_pair) for p in self.processors)
