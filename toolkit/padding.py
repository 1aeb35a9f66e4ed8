"""Truncation and padding, with Hugging Face ``tokenizers``' semantics and options.

This module owns the settings (:func:`truncation_params`, :func:`padding_params`, validated dicts in
HF's Python form; their ``tokenizer.json`` form is tooling, :mod:`toolkit.interop.hf_components`),
cutting a pair by strategy (:func:`truncate_pair`), padding a batch (:func:`pad_batch`) and the
pipeline step that runs them around the post-processor (:func:`post_process`); cutting one encoding
into windows and padding one are :class:`~toolkit.encoding.Encoding` operations
(``truncate_encoding``, ``pad_encoding`` in :mod:`toolkit.encoding`). :class:`TruncationPadding`
gives :class:`~toolkit.Tokenizer` HF's methods.

>>> from toolkit.encoding import Encoding, pad_encoding, pad_to, truncate_encoding
>>> enc = Encoding([1, 2, 3, 4, 5], list("abcde"), [(i, i + 1) for i in range(5)])
>>> truncate_encoding(enc, 3, stride=1)
>>> enc.tokens, [o.tokens for o in enc.overflowing]
(['a', 'b', 'c'], [['c', 'd', 'e']])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolkit import limits
from toolkit.encoding import Encoding, check_stride, pad_encoding, pad_to, truncate_encoding
from toolkit.arguments import check_flag
from toolkit.errors import ConfigError, InputError, InputTypeError, SerializationError

__all__ = [
    "DIRECTIONS",
    "STRATEGIES",
    "TruncationPadding",
    "pad_batch",
    "pad_encoding",
    "padding_params",
    "post_process",
    "settings_from_dict",
    "truncate_encoding",
    "truncate_pair",
    "truncation_params",
]

STRATEGIES = ("longest_first", "only_first", "only_second")
DIRECTIONS = ("right", "left")


def _count(value: Any, name: str, *, minimum: int = 0, maximum: int | None = None, limit: str = "") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ConfigError(f"{name} must be an integer >= {minimum}, got {type(value).__name__} {value!r:.60}")
    if maximum is not None and value > maximum:
        raise ConfigError(f"{name} must be at most {maximum:,}{limit}, got {value:,}")
    return value


def _choice(value: Any, name: str, choices: tuple[str, ...]) -> str:
    if value not in choices or not isinstance(value, str):
        raise ConfigError(f"{name} must be one of {', '.join(map(repr, choices))}, got {value!r:.60}")
    return value


def truncation_params(
    max_length: Any, *, stride: Any = 0, strategy: Any = "longest_first", direction: Any = "right"
) -> dict[str, Any]:
    """The validated truncation settings (HF's ``Tokenizer.truncation`` dict).

    >>> truncation_params(128, stride=16)
    {'max_length': 128, 'stride': 16, 'strategy': 'longest_first', 'direction': 'right'}
    """
    max_length = _count(max_length, "max_length")
    stride = _count(stride, "stride")
    if max_length and stride >= max_length:
        raise ConfigError(f"stride ({stride}) must be smaller than max_length ({max_length})")
    return {"max_length": max_length, "stride": stride, "strategy": _choice(strategy, "strategy", STRATEGIES),
            "direction": _choice(direction, "direction", DIRECTIONS)}


def padding_params(
    *, direction: Any = "right", pad_id: Any = 0, pad_type_id: Any = 0, pad_token: Any = "[PAD]",
    length: Any = None, pad_to_multiple_of: Any = None,
) -> dict[str, Any]:
    """The validated padding settings (HF's ``Tokenizer.padding`` dict; ``length=None``: the longest of the batch).

    >>> padding_params(pad_to_multiple_of=8)["pad_to_multiple_of"]
    8
    """
    if not isinstance(pad_token, str):
        raise ConfigError(f"pad_token must be a str, got {type(pad_token).__name__} {pad_token!r:.60}")
    # Padding to more than MAX_INPUT_CHARS tokens is no real use; an unbounded target exhausts memory.
    size = {"maximum": limits.MAX_INPUT_CHARS, "limit": " (toolkit.limits.MAX_INPUT_CHARS)"}
    return {
        "length": None if length is None else _count(length, "length", **size),
        # 0 pads to no multiple, as HF (which keeps the 0)
        "pad_to_multiple_of": None if pad_to_multiple_of is None else _count(pad_to_multiple_of, "pad_to_multiple_of", **size),
        "pad_id": _count(pad_id, "pad_id", maximum=limits.MAX_TOKEN_ID, limit=" (toolkit.limits.MAX_TOKEN_ID)"),
        "pad_token": pad_token,
        "pad_type_id": _count(pad_type_id, "pad_type_id", maximum=2**32 - 1, limit=" (a u32, as in HF)"),
        "direction": _choice(direction, "direction", DIRECTIONS),
    }


# ----------------------------------------------------------------------------- truncation
def truncate_pair(
    enc: Encoding, pair: Encoding | None, params: Mapping[str, Any], max_length: int | None = None
) -> None:
    """Truncate a sequence (and its pair) in place so that together they fit ``max_length`` (default:
    ``params["max_length"]``), following ``params["strategy"]`` (HF's ``truncate_encodings``)."""
    limit = params["max_length"] if max_length is None else max_length
    stride, direction = params["stride"], params["direction"]
    if limit == 0:
        for e in (enc, pair):
            if e is not None:
                truncate_encoding(e, 0, stride, direction)
        return
    total = len(enc) + (len(pair) if pair is not None else 0)
    if total <= limit:
        return
    to_remove = total - limit
    strategy = params["strategy"]
    if strategy == "longest_first":
        if pair is None:
            truncate_encoding(enc, limit, stride, direction)
            return
        n1, n2 = len(enc), len(pair)
        swap = n1 > n2
        if swap:
            n1, n2 = n2, n1
        n2 = n1 if n1 > limit else max(n1, limit - n1)
        if n1 + n2 > limit:
            n1 = limit // 2
            n2 = n1 + limit % 2
        if swap:
            n1, n2 = n2, n1
        truncate_encoding(enc, n1, stride, direction)
        truncate_encoding(pair, n2, stride, direction)
        return
    target = enc if strategy == "only_first" else pair
    if target is None:
        raise _no_pair_error()
    if len(target) <= to_remove:
        raise InputError(
            f"truncation strategy {strategy!r}: the sequence to truncate ({len(target)} tokens) is too short to fit "
            f"max_length {limit}; use strategy 'longest_first' or a larger max_length"
        )
    truncate_encoding(target, len(target) - to_remove, stride, direction)


def _no_pair_error() -> InputError:
    return InputError("truncation strategy 'only_second' needs a pair of sequences; use 'longest_first' for one text")


def truncate_ids(ids: list[int], params: Mapping[str, Any], max_length: int) -> list[int]:
    """The ids :func:`truncate_pair` keeps of one sequence, with its errors; the parts cut off are not
    built (``encode_ids`` returns none)."""
    n = len(ids)
    if max_length == 0:
        return []
    if n <= max_length:
        return ids
    if params["strategy"] == "only_second":
        raise _no_pair_error()
    check_stride(params["stride"], max_length)
    return ids[:max_length] if params["direction"] == "right" else ids[n - max_length:]


# ----------------------------------------------------------------------------- padding
def _padded_length(longest: int, params: Mapping[str, Any]) -> int:
    """``params["length"]``, or the longest length when it is ``None``, rounded up to a multiple of
    ``pad_to_multiple_of``."""
    length = longest if params["length"] is None else params["length"]
    multiple = params["pad_to_multiple_of"]
    if multiple and length % multiple:
        length += multiple - length % multiple
    return int(length)


def pad_batch(encodings: list[Encoding], params: Mapping[str, Any]) -> list[Encoding]:
    """Pad every encoding to ``params["length"]`` or, when it is ``None``, to the longest of the batch;
    rounded up to a multiple of ``pad_to_multiple_of`` (HF's ``pad_encodings``)."""
    if not encodings:
        return encodings
    length = _padded_length(max(len(e) for e in encodings), params)
    for e in encodings:
        pad_to(e, length, params)
    return encodings


def pad_ids(ids: list[int], params: Mapping[str, Any]) -> list[int]:
    """The ids of :func:`pad_batch` of one encoding."""
    k = _padded_length(len(ids), params) - len(ids)
    if k <= 0:
        return ids
    pad = [params["pad_id"]] * k
    return ids + pad if params["direction"] == "right" else pad + ids


# ----------------------------------------------------------------------------- the pipeline step
def post_process(
    processor: Any, enc: Encoding, pair: Encoding | None, *, add_special_tokens: bool,
    truncation: Mapping[str, Any] | None, padding: Mapping[str, Any] | None,
) -> Encoding:
    """Truncate (leaving room for the specials the post-processor adds), post-process, pad: HF's order.
    ``enc`` and ``pair`` are changed in place: the caller made them (``encode``) or copied them."""
    if truncation is not None:
        truncate_pair(enc, pair, truncation, _room(processor, truncation, pair is not None, add_special_tokens))
    if processor is not None:  # enc and pair are the caller's to give away (encode's, or copies)
        out = processor._process_owned(enc, pair, add_special_tokens)
    else:
        out = default_process(enc, pair)
    if padding is not None:
        pad_batch([out], padding)
    return out


def _room(processor: Any, truncation: Mapping[str, Any], is_pair: bool, add_special_tokens: bool) -> int:
    """The tokens the sequences may keep: ``max_length`` less the special tokens the post-processor adds."""
    added = processor.num_special_tokens_to_add(is_pair) if processor is not None and add_special_tokens else 0
    return max(truncation["max_length"] - added, 0) if added else int(truncation["max_length"])


def post_process_ids(
    processor: Any, ids: list[int], *, add_special_tokens: bool, truncation: Mapping[str, Any] | None,
    padding: Mapping[str, Any] | None,
) -> list[int]:
    """The ids of :func:`post_process` of one sequence, from its ids alone (``encode_ids``)."""
    if truncation is not None:
        ids = truncate_ids(ids, truncation, _room(processor, truncation, False, add_special_tokens))
    if processor is not None:
        ids = processor.process_ids(ids, add_special_tokens=add_special_tokens)
    return pad_ids(ids, padding) if padding is not None else ids


def default_process(enc: Encoding, pair: Encoding | None) -> Encoding:
    """What a pipeline without post-processor does (HF's ``default_process``): a single sequence as
    it is; a pair concatenated with the type ids it was encoded with, each part marked with its
    sequence first, so the overflowing combinations (a part of the first text + the pair) carry the
    pair's range."""
    if pair is None:
        return enc
    n, m = len(enc.ids), len(pair.ids)
    if not enc.overflow and not pair.overflow:  # the common case, built in one go
        return Encoding(enc.ids + pair.ids, enc.tokens + pair.tokens, enc.offsets + pair.offsets,
                        enc.type_ids + pair.type_ids, enc.special_tokens_mask + pair.special_tokens_mask,
                        enc.attention_mask + pair.attention_mask, enc.word_ids + pair.word_ids, (0, 0, n, 1, n, n + m))
    a, b = enc.copy(), pair.copy()
    a.set_sequence_id(0)
    b.set_sequence_id(1)
    return Encoding.concat([a, b])


def settings_from_dict(doc: Mapping[str, Any], source: str) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The ``truncation`` and ``padding`` fields of our tokenizer file (HF's Python dicts), validated."""
    out: list[dict[str, Any] | None] = []
    for name, build in (("truncation", truncation_params), ("padding", padding_params)):
        value = doc.get(name)
        if value is not None and not isinstance(value, Mapping):
            raise SerializationError(f"{source}: {name}: must be an object or null, got {type(value).__name__}")
        try:
            if value is None:
                out.append(None)
            elif name == "truncation":
                rest = {k: v for k, v in value.items() if k != "max_length"}
                out.append(build(value.get("max_length"), **rest))
            else:
                out.append(build(**value))
        except (TypeError, ConfigError) as exc:
            raise SerializationError(f"{source}: {name}: {exc}") from None
    return out[0], out[1]


class TruncationPadding:
    """Hugging Face's truncation and padding methods of :class:`~toolkit.Tokenizer`.

    >>> from toolkit import Tokenizer
    >>> from algorithms import WordPiece
    >>> tok = Tokenizer(WordPiece({"[PAD]": 0, "[UNK]": 1, "a": 2, "##a": 3}, unk_token="[UNK]"))
    >>> tok.enable_padding(length=4)
    >>> tok.encode("aa").ids, tok.padding["length"]
    ([2, 3, 0, 0], 4)
    """

    _truncation: dict[str, Any] | None = None
    _padding: dict[str, Any] | None = None

    def enable_truncation(
        self, max_length: int, *, stride: int = 0, strategy: str = "longest_first", direction: str = "right"
    ) -> None:
        """Truncate every encoding to ``max_length`` tokens, the specials the post-processor adds included;
        the cut-off parts go to ``Encoding.overflowing`` (``stride`` tokens of overlap)."""
        params = truncation_params(max_length, stride=stride, strategy=strategy, direction=direction)
        added = self.num_special_tokens_to_add(False)
        room = params["max_length"] - added
        # HF's check, when the option is set (its unsigned subtraction wraps below the specials: no check)
        if room >= 0 and params["stride"] > room:
            raise ConfigError(
                f"stride ({params['stride']}) is larger than the room the post-processor's special tokens leave "
                f"(max_length {params['max_length']} - {added} special tokens = {room}); give a smaller stride "
                "or a larger max_length"
            )
        self._truncation = params

    def no_truncation(self) -> None:
        """Stop truncating."""
        self._truncation = None

    @property
    def truncation(self) -> dict[str, Any] | None:
        """The truncation settings (a copy; change them with :meth:`enable_truncation`), or ``None``."""
        return dict(self._truncation) if self._truncation is not None else None

    def enable_padding(
        self, *, direction: str = "right", pad_id: int = 0, pad_type_id: int = 0, pad_token: str = "[PAD]",
        length: int | None = None, pad_to_multiple_of: int | None = None,
    ) -> None:
        """Pad every encoding to ``length`` tokens, or in ``encode_batch`` to the longest of the batch
        (``length=None``), rounded up to a multiple of ``pad_to_multiple_of``. ``pad_id`` must name a
        token (``decode`` refuses an id that names none)."""
        params = padding_params(direction=direction, pad_id=pad_id, pad_type_id=pad_type_id,
                                pad_token=pad_token, length=length, pad_to_multiple_of=pad_to_multiple_of)
        if self.id_to_token(params["pad_id"]) is None:  # type: ignore[attr-defined]
            found = self.token_to_id(params["pad_token"])  # type: ignore[attr-defined]
            hint = (f"the id of {pad_token!r} is {found}" if found is not None
                    else f"add the pad token first: tok.add_special_tokens([{pad_token!r}])")
            raise ConfigError(f"enable_padding: pad_id={pad_id} names no token of this tokenizer, so padded ids "
                              f"could not be decoded; {hint}")
        self._padding = params

    def no_padding(self) -> None:
        """Stop padding."""
        self._padding = None

    @property
    def padding(self) -> dict[str, Any] | None:
        """The padding settings (a copy; change them with :meth:`enable_padding`), or ``None``."""
        return dict(self._padding) if self._padding is not None else None

    def num_special_tokens_to_add(self, is_pair: bool) -> int:
        """How many special tokens the post-processor adds to one sequence or a pair."""
        is_pair = check_flag(is_pair, "is_pair")
        processor = getattr(self, "post_processor", None)
        return processor.num_special_tokens_to_add(is_pair) if processor is not None else 0

    def post_process(self, encoding: Encoding, pair: Encoding | None = None, add_special_tokens: bool = True) -> Encoding:
        """Truncate, add the post-processor's special tokens, pad: the last steps of ``encode``, on
        encodings made elsewhere (HF's ``Tokenizer.post_process``); the inputs are not changed."""
        for value, name in ((encoding, "encoding"), (pair, "pair")):
            if (value is not None or name == "encoding") and not isinstance(value, Encoding):
                raise InputTypeError(f"{name} must be an Encoding, got {type(value).__name__}")
        add_special_tokens = check_flag(add_special_tokens, "add_special_tokens")
        return post_process(
            getattr(self, "post_processor", None), encoding.copy(), None if pair is None else pair.copy(),
            add_special_tokens=add_special_tokens, truncation=self._truncation, padding=self._padding,
        )
