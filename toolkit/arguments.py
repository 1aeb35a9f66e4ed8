"""Argument checks at the API boundary of :class:`~toolkit.Tokenizer`: flags, ids, paths, JSON indents,
and write errors. Each wrong argument is a typed error (:mod:`toolkit.errors`) naming the argument;
``check_text`` (the input text) lives with the encode paths in :mod:`toolkit.fast_paths`.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

from toolkit.errors import ConfigError, InputError, InputTypeError, SerializationError
from toolkit.interfaces import Model

__all__ = ["ComponentSlot", "MAX_INDENT", "as_index", "check_flag", "check_indent", "check_path", "writing", "ids_to_tokens"]


#: Largest JSON indent accepted: more only makes the file bigger (an indent of 100,000 would write
#: 100 KB of spaces per line).
MAX_INDENT = 64


def check_indent(indent: Any) -> int | None:
    """``indent`` if it is ``None`` or an integer 0..:data:`MAX_INDENT`; else :class:`ConfigError`."""
    if indent is not None and (type(indent) is not int or not 0 <= indent <= MAX_INDENT):
        raise ConfigError(f"indent must be None or an integer 0..{MAX_INDENT}, got {indent!r:.60}")
    return indent


def check_path(path: Any, what: str) -> Any:
    """``path`` if it is a ``str`` or ``os.PathLike``; else :class:`SerializationError` naming ``what``."""
    if not isinstance(path, (str, os.PathLike)):
        raise SerializationError(f"{what} must be a file path (str or os.PathLike), got {type(path).__name__} {path!r:.60}")
    return path


@contextlib.contextmanager
def writing(path: Any) -> Iterator[None]:
    """An :class:`OSError` while writing ``path`` becomes a :class:`SerializationError` naming it (as
    :meth:`Tokenizer.load` does for reading)."""
    check_path(path, "path")
    try:
        yield
    except OSError as exc:
        raise SerializationError(f"{os.fspath(path)}: cannot write: {exc.strerror or exc}") from exc


def check_flag(value: Any, what: str) -> bool:
    """``value`` if it is a ``bool``; else :class:`InputTypeError` naming ``what``."""
    if value is not True and value is not False:
        raise InputTypeError(f"{what} must be True or False, got {type(value).__name__} {value!r:.60}")
    return value


def as_index(value: Any) -> int | None:
    """``value`` as an ``int`` when it is an integer (numpy and torch integers too), else ``None``; a
    bool is not one (a mask passed for ids is a bug in the caller).

    >>> as_index(7), as_index(True), as_index("7")
    (7, None, None)
    """
    if type(value) is int:
        return value
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        return None
    return int(value.__index__())


def check_batch(batch: Any, what: str, items: str) -> list[Any]:
    """``batch`` as a list when it is a collection (not one string); else :class:`InputTypeError`:
    ``"{what} expects a list of {items}, got ..."``."""
    if batch is None or isinstance(batch, (str, bytes)) or not hasattr(batch, "__iter__"):
        raise InputTypeError(f"{what} expects a list of {items}, got {type(batch).__name__} {batch!r:.60}")
    return list(batch)


def _bad_id(token_id: Any, position: int) -> InputTypeError:
    return InputTypeError(f"cannot decode ids[{position}] = {token_id!r:.60}: a {type(token_id).__name__}, not an integer id")


def check_id_sequence(ids: Any) -> None:
    """Raise :class:`InputTypeError` unless ``ids`` is an iterable of ids, not text or bytes (whose
    iteration gives characters or byte values, never ids); the ids themselves are checked by their use.

    >>> check_id_sequence(b"hi")
    Traceback (most recent call last):
    ...
    toolkit.errors.InputTypeError: ids must be a sequence of integer ids, got bytes b'hi'
    """
    if ids is None or isinstance(ids, (str, bytes, bytearray)) or not hasattr(ids, "__iter__"):
        raise InputTypeError(f"ids must be a sequence of integer ids, got {type(ids).__name__} {ids!r:.60}")


def ids_to_tokens(
    model: Model, ids: Any, skip_special_tokens: bool, added: Any = None, special_ids: Any = None
) -> list[str]:
    """The token strings of ``ids`` (:meth:`Tokenizer.decode`'s look-up): every id must be an integer
    (not a bool) that names a token; a problem is an :class:`InputError` naming the id and its position
    (an :class:`InputTypeError` for what is not an integer).
    ``added`` (id → content) is looked up before the model; ``special_ids`` default to the model's."""
    check_id_sequence(ids)
    id_to_token = model.id_to_token
    if added:
        model_id_to_token = model.id_to_token

        def id_to_token(token_id: int) -> str | None:
            found = added.get(token_id)
            return model_id_to_token(token_id) if found is None else found

    if special_ids is None:
        special_ids = set(model.special_tokens.values()) if skip_special_tokens else ()
    tokens: list[str] = []
    for position, token_id in enumerate(ids):
        if type(token_id) is not int:
            index = as_index(token_id)
            if index is None:
                raise _bad_id(token_id, position)
            token_id = index
        if skip_special_tokens and token_id in special_ids:
            continue
        token = id_to_token(token_id) if token_id >= 0 else None
        if token is None:
            raise _unknown_id(model, token_id, added)
        tokens.append(token)
    return tokens


def _unknown_id(model: Model, token_id: int, added: Any = None) -> InputError:
    """The error for an id no token has, naming the ids that do exist (the model's and the added ones)."""
    ids = [*model.get_vocab().values(), *(added or ())]
    top = max(ids, default=-1)
    if 0 <= token_id <= top:  # a gap: the ids do not run 0..top without holes (e.g. a .tiktoken file)
        return InputError(
            f"cannot decode id {token_id}: no token has this id (the vocabulary's {len(set(ids)):,} ids lie in "
            f"0..{top} but this one is missing)"
        )
    # A huge id is named by its size: str() of an int over 4,300 digits raises ValueError.
    shown = str(token_id) if abs(token_id) < 10**30 else f"{'-' if token_id < 0 else ''}(a {token_id.bit_length()}-bit integer)"
    return InputError(f"cannot decode id {shown}: not in the vocabulary (ids are 0..{top})")


class ComponentSlot:
    """A pipeline attribute that holds an instance of ``kind`` or ``None``: assigning anything else is a
    :class:`ConfigError` naming the attribute, and leaves the pipeline as it was."""

    def __init__(self, kind: type) -> None:
        self.kind = kind

    def __set_name__(self, owner: type, name: str) -> None:
        self.name, self.slot = name, f"_{name}"

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        return self if obj is None else obj.__dict__.get(self.slot)

    def __set__(self, obj: Any, value: Any) -> None:
        if value is not None and not isinstance(value, self.kind):
            hint = ""
            if type(value).__module__.split(".")[0] == "tokenizers":  # transformers hands HF's components over
                hint = ("; that is a Hugging Face tokenizers component: use this toolkit's, or give code that needs "
                        "HF's Tokenizer (transformers' tokenizer_object=) tok.to_hf()")
            raise ConfigError(f"{self.name} must be a {self.kind.__name__} or None, got {type(value).__name__}{hint}")
        obj.__dict__[self.slot] = value
