"""The six component interfaces and the serialization contract they share.

A tokenizer pipeline reads top to bottom::

    text ──Normalizer──▶ NormalizedString ──PreTokenizer──▶ [Piece] ──Model──▶ ids ──PostProcessor──▶ Encoding
    ids ──Model (id → token)──▶ tokens ──Decoder──▶ text

and a :class:`Trainer` turns word counts into a :class:`Model`. Each interface is a small abstract
class with one job. Every concrete component is registered under a ``"type"`` name (see
:mod:`toolkit.registry`) and serializes as ``{"type": name, **params}``; its options are described by
a pydantic ``Params`` model, which validates user-supplied JSON and configs in full.
"""

from __future__ import annotations

import json
import warnings
from contextvars import ContextVar
from abc import abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import nullcontext
from types import MappingProxyType
from typing import Any, ClassVar

from pydantic import StrictBool, field_validator
from pydantic_core import PydanticCustomError

from toolkit import limits
from toolkit.alignment import NormalizedString, Piece
from toolkit.cache import MAX_CACHED_PIECE, BoundedCache
from toolkit.encoding import Encoding
from toolkit.errors import ConfigError, RegistryError, ToolkitError, VocabSizeWarning
from toolkit.options import (
    Configurable, Params, StateDict, StateList, bump_generation, fixed_state_error, thawed, validate_params,
    where_override,
)
from toolkit.registry import lookup

__all__ = [
    "Component",
    "Params",
    "Normalizer",
    "PreTokenizer",
    "Model",
    "Trainer",
    "PostProcessor",
    "Decoder",
    "ProgressCallback",
    "build",
    "build_children",
    "children_validator",
    "Container",
    "validate_params",
]

#: ``progress(stage, done, total)``: trainers call it as they go; the CLI turns it into a progress bar.
ProgressCallback = Callable[[str, int, int], None]


def build(kind: str, data: Any, *, validate: bool = True, where: str | None = None) -> Any:
    """Build a component of ``kind`` from its ``{"type": ..., **params}`` dict via the registry.

    >>> build("normalizer", {"type": "Lowercase"}).normalize_str("ABC")
    'abc'
    """
    where = where or kind
    if not isinstance(data, Mapping):
        raise ConfigError(f"{where}: must be an object with a \"type\" field, got {type(data).__name__}")
    if "type" not in data:
        raise ConfigError(f"{where}.type: required field is missing")
    cls = lookup(kind, data["type"])
    depth = _BUILD_DEPTH.get()
    if depth >= limits.MAX_NESTING_DEPTH:  # containers build their children through here
        raise ConfigError(
            f"{where}: components nested more than {limits.MAX_NESTING_DEPTH} levels deep "
            "(toolkit.limits.MAX_NESTING_DEPTH); flatten the Sequence"
        )
    token = _BUILD_DEPTH.set(depth + 1)
    try:
        return cls.from_dict(data, validate=validate, where=where)
    except ToolkitError:
        raise
    except (TypeError, ValueError, KeyError) as exc:
        raise ConfigError(f"{where}: invalid {kind} {data['type']!r}: {exc}") from exc
    finally:
        _BUILD_DEPTH.reset(token)


# How many build() calls enclose the current one (nested Sequence dicts).
_BUILD_DEPTH: ContextVar[int] = ContextVar("toolkit_build_depth", default=0)


class Component(Configurable):
    """Base of all components: the ``type`` tag, options (``params``) and JSON (de)serialization.

    Subclasses declare their options once, as a nested ``Params`` model (see :mod:`toolkit.options`):
    the constructor, assignment after construction, ``params()``, ``to_dict()``, ``from_dict()``,
    equality and ``repr`` then come for free. Components with nested components or large tables
    override ``to_dict``/``from_dict``.
    """

    kind: ClassVar[str] = ""
    type_name: ClassVar[str] = ""

    def params(self) -> dict[str, Any]:
        """The options that rebuild this component, as JSON-compatible values."""
        return {name: thawed(getattr(self, name)) for name in type(self).Params.model_fields}

    def to_dict(self) -> dict[str, Any]:
        """``{"type": name, **params}``; the inverse of :meth:`from_dict`."""
        if not self.type_name:
            raise ConfigError(
                f"{type(self).__name__} is not registered; decorate it with @toolkit.registry.register(...)"
            )
        return {"type": self.type_name, **self.params()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, validate: bool = True, where: str | None = None) -> Any:
        """Build from :meth:`to_dict` output. ``validate=False`` trusts the data (files we wrote)."""
        options = {k: v for k, v in data.items() if k != "type"}
        where = where or f"{cls.kind} {cls.type_name!r}"
        if validate and not options.keys() <= cls.Params.model_fields.keys():
            validate_params(cls.Params, options, where=where)  # names every unknown (and bad) option
        with where_override(where):  # the constructor validates the options, naming ``where``
            component = cls(**options)
        if validate and not options.keys() <= component.__dict__.get("_options_validated", frozenset()):
            # A plugin's own constructor that stores its options itself: validate them here.
            validate_params(cls.Params, options, where=where)
        return component

    def __eq__(self, other: object) -> bool:
        if type(self) is not type(other):
            return NotImplemented
        return _canonical(self.to_dict()) == _canonical(other.to_dict())  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        try:
            items = self.params()
        except Exception:  # repr must never fail
            items = {}
        shown = ", ".join(f"{k}={_short(v)}" for k, v in items.items())
        return f"{type(self).__name__}({shown})"


def _canonical(d: Any) -> str:
    return json.dumps(d, sort_keys=True, ensure_ascii=False, default=repr)


def _short(v: Any) -> str:
    if isinstance(v, (dict, list, tuple)) and len(v) > 8:
        return f"<{type(v).__name__} of {len(v)}>"
    return repr(v)


class Normalizer(Component):
    """Rewrites text before splitting (Unicode forms, case, accents), keeping the alignment."""

    kind = "normalizer"

    @abstractmethod
    def normalize(self, text: NormalizedString) -> NormalizedString:
        """Return the normalized string, each character aligned to its original span."""

    def normalize_str(self, text: str) -> str:
        """Fast path without alignment; the same text as :meth:`normalize` produces.

        >>> from toolkit.normalizers import Lowercase
        >>> Lowercase().normalize_str("HeLLo")
        'hello'
        """
        return self.normalize(NormalizedString(text)).normalized


class PreTokenizer(Component):
    """Cuts normalized text into pieces ("words"); the model encodes each piece on its own.

    :meth:`pre_tokenize` is the definition. The other methods are fast paths with a correct default,
    which a subclass overrides when it can do better; callers use them without looking for them:
    :meth:`split_text` (piece strings only), :meth:`split_raw` (pieces before a per-piece
    respelling), :meth:`split_slices` (pieces that are slices of the text, with their starts) and
    the properties :attr:`respelling_only` and :attr:`position_sensitive`.
    """

    kind = "pre_tokenizer"

    @abstractmethod
    def pre_tokenize(self, pieces: list[Piece]) -> list[Piece]:
        """Split (and possibly transform) each piece; spans stay spans of the normalized string."""

    def split_text(self, text: str) -> list[str]:
        """Fast path: only the piece strings, no spans. Never yields empty strings."""
        return [p.text for p in self.pre_tokenize([Piece(text, 0, len(text))]) if p.text]

    def split_raw(self, text: str) -> tuple[list[str], Callable[[str], str] | None]:
        """Fast path for caching: pieces *before* a per-piece respelling, and that respelling.

        ``[spell(p) for p in raw] == split_text(text)`` always holds (``spell`` ``None`` means no
        respelling). The byte-level pre-tokenizer respells each piece in the ``Ġ`` alphabet; returning
        the raw pieces lets the pipeline cache ids by raw piece, so a repeated word costs one dict
        look-up and no respelling. The default returns :meth:`split_text` and ``None``.
        """
        return self.split_text(text), None

    def split_slices(self, text: str) -> tuple[list[str], list[int], Callable[[str], str] | None] | None:
        """Fast path for offsets: ``(raws, starts, spell)`` when every raw piece is a slice of ``text``.

        ``raws`` and ``spell`` are those of :meth:`split_raw`, and raw piece ``i`` is the slice of
        ``text`` that begins at ``starts[i]``: the tokens of a piece, with spans relative to its
        start, then depend on its text alone and can be cached. ``None`` means "cannot" (the
        default, or a text where a piece would not be a slice, such as one with a prefix added):
        the caller falls back to :meth:`pre_tokenize`.

        >>> from pretokenizers import BertPreTokenizer, Whitespace
        >>> BertPreTokenizer().split_slices("Hi, you"), Whitespace().split_slices("Hi")
        ((['Hi', ',', 'you'], [0, 2, 4], None), None)
        """
        return None

    def scanner(self) -> tuple[Any, Callable[[str], str] | None, bool] | None:
        """Fast path for ids: ``(compiled, spell, prefix_space)`` when :meth:`split_raw` is exactly
        ``compiled.findall(text)`` (after a space is put in front of a text that does not start with
        one, if ``prefix_space``) with the respelling ``spell``, and ``compiled`` is one of the named
        patterns for which splitting at single spaces is proven safe (``toolkit.fast_paths.scan_ids``).
        Default ``None``."""
        return None

    @property
    def respelling_only(self) -> bool:
        """True when this pre-tokenizer never splits or adds text, only respells each piece with the
        ``spell`` of ``split_raw("")`` (a container can then defer that respelling). Default False."""
        return False

    @property
    def position_sensitive(self) -> bool:
        """True when the result for a piece depends on where the piece starts, not only on its text
        (Metaspace's ``prepend_scheme="first"``): fast paths that split pieces on their own must not
        be used. Default False."""
        return False

    def pre_tokenize_str(self, text: str) -> list[tuple[str, tuple[int, int]]]:
        """Debugging helper: ``[(piece, (start, end)), ...]`` with spans into ``text``.

        >>> from pretokenizers import Whitespace
        >>> Whitespace().pre_tokenize_str("Hi, you")
        [('Hi', (0, 2)), (',', (2, 3)), ('you', (4, 7))]
        """
        return [(p.text, (p.start, p.end)) for p in self.pre_tokenize([Piece(text, 0, len(text))]) if p.text]


class _CacheCapacity:
    """``Model.cache_capacity``: the class default, or on a model the capacity of its caches.

    Assigning it on a model resizes (and empties) every :class:`BoundedCache` the model holds, and the
    pipelines using the model make their caches anew at that capacity.
    """

    def __init__(self, default: int) -> None:
        self.default = default

    def __get__(self, obj: Any, owner: type | None = None) -> int:
        if obj is None:
            return self.default
        if obj.stochastic:  # a sampled encoding must not be served again: its caches keep nothing
            return 0
        return obj.__dict__.get("_cache_capacity", self.default)  # type: ignore[no-any-return]

    def __set__(self, obj: Any, value: int) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ConfigError(f"{type(obj).__name__}.cache_capacity: must be an integer >= 0 (0 caches nothing), "
                              f"got {value!r:.40}")
        obj.__dict__["_cache_capacity"] = value
        for cache in list(obj.__dict__.values()):
            if isinstance(cache, BoundedCache):
                cache.capacity = value
                cache.clear()
        bump_generation()  # the pipelines' caches are sized from the model's capacity


class Model(Component):
    """Maps one piece to token ids (and back): the vocabulary and the algorithm that uses it.

    Subclasses implement :meth:`tokenize` (ids with character spans inside the piece),
    :meth:`_encode_piece` (ids only) and the vocabulary look-ups, and extend :meth:`_configure`
    (calling ``super()._configure()``). :meth:`encode_piece` adds a per-piece :class:`BoundedCache`,
    made anew by :meth:`_new_caches` after every :meth:`_configure`, so an option change never serves
    stale ids and copies stop sharing it.
    """

    kind = "model"
    #: Largest number of pieces kept in the per-piece cache before it is cleared.
    cache_capacity = _CacheCapacity(100_000)
    #: Special tokens of this model and their ids; part of the vocabulary (models with the option
    #: ``special_tokens`` replace this empty default).
    special_tokens: Mapping[str, int] = MappingProxyType({})
    #: True while encoding is random (BPE-dropout, Unigram sampling): then the model's caches and the
    #: pipeline's store nothing (their capacity reads 0), so every call draws anew.
    stochastic: bool = False

    #: Public attributes holding what the model is built from besides its options (``vocab``,
    #: ``merges``): held as :class:`~toolkit.options.StateDict` / ``StateList``, never reassigned.
    _state_names: ClassVar[tuple[str, ...]] = ()

    def __setattr__(self, name: str, value: Any) -> None:
        if name in self._state_names and self.__dict__.get("_configured"):
            kind = "list" if isinstance(getattr(self, name, None), list) else "dict"
            raise fixed_state_error(f"model {type(self).__name__!r}.{name}", kind)
        super().__setattr__(name, value)

    def __init__(self, *args: Any, cache_capacity: int | None = None, **options: Any) -> None:
        """Options as :class:`Configurable`; ``cache_capacity`` (HF ``models.BPE``'s keyword) sets
        :attr:`cache_capacity` as assigning it does (not saved: a file holds no cache size)."""
        super().__init__(*args, **options)
        if cache_capacity is not None:
            self.cache_capacity = cache_capacity

    def _new_caches(self) -> None:
        #: Ids of each piece seen; read directly by the pipeline's fast path (a hit is one ``dict.get``).
        self.piece_cache: BoundedCache = BoundedCache(self.cache_capacity, longest=MAX_CACHED_PIECE)

    def _set_state(self, **state: Any) -> None:
        """Store what the model holds besides its options (vocabulary, merges); see :meth:`_assemble`."""

    @classmethod
    def _assemble(cls, options: Mapping[str, Any], *, validate: bool, where: str | None = None, **state: Any) -> Any:
        """A model from its options and its other state, as the constructor makes it.

        ``validate=False`` trusts the options (files we wrote, trainers' results); ``state`` goes to
        :meth:`_set_state` with ``where`` (the place errors name), then :meth:`_reconfigure` runs.
        """
        model = cls.__new__(cls)
        with where_override(where) if where is not None else nullcontext():
            model._set_options(options, validate=validate)
        model._set_state(where=where or cls.__name__, **state)
        model._reconfigure()
        object.__setattr__(model, "_configured", True)
        return model

    @abstractmethod
    def tokenize(self, piece: str) -> list[tuple[int, int, int]]:
        """``[(id, start, end), ...]``: the tokens of ``piece``, spans are character indices in it."""

    @abstractmethod
    def _encode_piece(self, piece: str) -> tuple[int, ...]:
        """The ids of ``piece``, uncached; equal to the ids of :meth:`tokenize`."""

    def encode_piece(self, piece: str) -> tuple[int, ...]:
        """The ids of ``piece``, through the per-piece cache."""
        cache = self.piece_cache  # read once: an option change meanwhile replaces it (see _reconfigure)
        ids = cache.get(piece)
        if ids is None:
            ids = cache.put(piece, self._encode_piece(piece))
        return ids

    def _held(self, name: str, value: dict[Any, Any] | list[Any]) -> Any:
        """``value`` read-only, as the state attribute ``name`` (one of :attr:`_state_names`) holds it."""
        label = f"model {type(self).__name__!r}.{name}"
        return StateDict(value, label) if isinstance(value, dict) else StateList(value, label)

    def _hold_state(self, name: str, value: dict[Any, Any] | list[Any]) -> None:
        """Store ``value`` as the state attribute ``name``, read-only (:meth:`_held`)."""
        object.__setattr__(self, name, self._held(name, value))

    def clear_cache(self) -> None:
        """Forget cached pieces, to free their memory (a cache never serves stale ids: an option
        change renews it, and the vocabulary cannot change in place)."""
        for cache in list(self.__dict__.values()):
            if isinstance(cache, BoundedCache):
                cache.clear()

    @abstractmethod
    def get_vocab(self) -> dict[str, int]:
        """Token string → id, special tokens included."""

    @property
    def vocab_size(self) -> int:
        """The number of vocabulary entries, special tokens included (a count, not ``max id + 1``)."""
        return len(self.get_vocab())

    @abstractmethod
    def token_to_id(self, token: str) -> int | None:
        """The id of ``token`` or ``None``."""

    @abstractmethod
    def id_to_token(self, token_id: int) -> str | None:
        """The token string of ``token_id`` or ``None``."""


class Trainer(Component):
    """Learns a model from word counts: a pure function ``Mapping[str, int] -> Model``.

    Every trainer has ``show_progress`` (Hugging Face's name and default; declared here, and again by
    the trainers whose ``Params`` list their fields in Hugging Face's order): a bar while training when
    stderr is a terminal or in a notebook, unless a ``progress(stage, done, total)`` callback is set
    (see :mod:`toolkit.progress`, whose ``training_progress(self)`` a trainer enters around its work).
    """

    kind = "trainer"

    class Params(Params):
        show_progress: StrictBool = True

    def __init__(self, *args: Any, progress: ProgressCallback | None = None, **options: Any) -> None:
        """Options as :class:`Configurable`; ``progress(stage, done, total)``: a callback instead of the
        bar (not an option: a function is not saved)."""
        super().__init__(*args, **options)
        if progress is not None and not callable(progress):
            raise ConfigError(f"{type(self).__name__}.progress must be a callable progress(stage, done, total)")
        self.progress = progress

    @property
    def distinct_special_tokens(self) -> list[str]:
        """The trainer's ``special_tokens`` with a repeated one counted once (its first place), as HF's
        trainers count them; ``[]`` for a trainer without the option.

        >>> from algorithms import WordLevelTrainer
        >>> WordLevelTrainer(special_tokens=["<s>", "<pad>", "<s>"]).distinct_special_tokens
        ['<s>', '<pad>']
        """
        return list(dict.fromkeys(getattr(self, "special_tokens", ())))

    def check_reached(self, model: Model) -> str | None:
        """Warn (:class:`~toolkit.errors.VocabSizeWarning`) when ``model`` is smaller than ``vocab_size``,
        or larger (the special tokens and the alphabet alone exceed it: no merge was learned, as in HF).

        Returns the warning's message, or ``None`` when the size was reached (or the trainer has none).
        ``Tokenizer.train`` and config training call it; the trainers themselves stay silent.
        """
        requested = getattr(self, "vocab_size", None)
        reached = len(model.get_vocab())
        if not isinstance(requested, int) or reached == requested:
            return None
        if reached > requested:
            if not hasattr(self, "limit_alphabet"):
                return None  # only the merge trainers keep a base vocabulary above vocab_size (HF's rule)
            message = (
                f"{type(self).__name__}: vocab_size={requested:,} is below the base vocabulary: the special tokens "
                f"and the alphabet alone make {reached:,} tokens, so nothing was learned; ask for more than "
                f"{reached:,}, or set limit_alphabet"
            )
            warnings.warn(message, VocabSizeWarning, stacklevel=3)
            return message
        floor = getattr(self, "min_frequency", 0) or 0
        why = self.unreached_reason(floor)
        fix = "train on more text" + (", lower min_frequency" if floor > 1 else "")
        message = (
            f"{type(self).__name__}: vocab_size={requested:,} cannot be reached: training stopped at "
            f"{reached:,} tokens because {why}; {fix}, or ask for vocab_size={reached:,}"
        )
        warnings.warn(message, VocabSizeWarning, stacklevel=3)
        return message

    def unreached_reason(self, floor: int) -> str:
        """Why training stopped short of ``vocab_size`` (for :meth:`check_reached`); merge trainers' wording."""
        return (f"no pair of symbols occurs at least {floor} times" if floor > 1
                else "no pair of adjacent symbols is left to merge") + " in the training text"

    @abstractmethod
    def train(self, word_counts: Mapping[str, int], *, model: Model | None = None) -> Model:
        """Return a new model trained on ``word_counts`` (piece → frequency).

        ``model`` is an optional template: encoding options it carries (``unk_token``...) are kept.
        The counts are not modified.
        """


class PostProcessor(Component):
    """Adds special tokens around encoded sequences (``[CLS] A [SEP] B [SEP]``) and sets type ids."""

    kind = "post_processor"

    @abstractmethod
    def process(self, encoding: Encoding, pair: Encoding | None = None, add_special_tokens: bool = True) -> Encoding:
        """Return the final encoding of a single sequence or a pair."""

    def _process_owned(self, encoding: Encoding, pair: Encoding | None, add_special_tokens: bool) -> Encoding:
        """:meth:`process` of encodings the caller made and keeps no reference to (``encode``'s), which
        may then be changed in place instead of copied."""
        return self.process(encoding, pair, add_special_tokens)

    def process_ids(self, ids: list[int], *, add_special_tokens: bool = True) -> list[int]:
        """Fast path for a single sequence of ids; the ids :meth:`process` would produce."""
        enc = Encoding(ids, [""] * len(ids), [(0, 0)] * len(ids))
        return self.process(enc, add_special_tokens=add_special_tokens).ids

    def num_special_tokens_to_add(self, is_pair: bool) -> int:
        """How many special tokens :meth:`process` adds (Hugging Face's name; truncation leaves room for them)."""
        return self.added_tokens(is_pair=bool(is_pair))

    def added_tokens(self, *, is_pair: bool) -> int:
        """How many special tokens :meth:`process` adds."""
        a = Encoding([0], [""], [(0, 0)])
        return len(self.process(a, a if is_pair else None)) - (2 if is_pair else 1)


class Decoder(Component):
    """Turns token strings back into text (joins ``##`` pieces, maps bytes back, restores spaces)."""

    kind = "decoder"

    @abstractmethod
    def decode_chain(self, tokens: list[str]) -> list[str]:
        """Transform the token strings; chained decoders feed each other's output (HF semantics)."""

    def decode(self, tokens: Sequence[str]) -> str:
        """The decoded text.

        >>> from toolkit.decoders import WordPiece
        >>> WordPiece().decode(["hug", "##s", "!"])
        'hugs!'
        """
        return "".join(self.decode_chain(list(tokens)))


# --------------------------------------------------------------------------- containers
# Shared by the Sequence components of every kind: children are instances or their dicts.

_INTERFACES: dict[str, type] = {
    "normalizer": Normalizer,
    "pre_tokenizer": PreTokenizer,
    "post_processor": PostProcessor,
    "decoder": Decoder,
}


def build_children(kind: str, items: Any, field: str, *, validate: bool = True, where: str) -> list[Any]:
    """Components for a container's ``field`` (``Sequence.normalizers``...): instances are kept,
    dicts are built through the registry; errors name ``where.field[i]``."""
    if isinstance(items, (str, bytes, Mapping)) or not isinstance(items, Iterable):
        raise ConfigError(f"{where}.{field}: must be a list of {kind} objects, got {type(items).__name__}")
    return [_build_child(kind, item, f"{where}.{field}[{i}]", validate) for i, item in enumerate(items)]


def _build_child(kind: str, item: Any, place: str, validate: bool = True) -> Any:
    """One child of a container: an instance of the ``kind`` interface is kept, a dict is built."""
    interface = _INTERFACES[kind]
    if isinstance(item, interface):
        return item
    if isinstance(item, Mapping):
        try:
            return build(kind, item, validate=validate, where=place)
        except RegistryError as exc:
            raise RegistryError(f"{place}: {exc}") from None
    raise ConfigError(f"{place}: must be a {interface.__name__} or its dict, got {type(item).__name__}")


def children_validator(field: str, kind: str) -> Any:
    """The ``Params`` validator of a container's children ``field``: any iterable but a string or
    a mapping, stored as a list (the children themselves are built by :meth:`Container._configure`)."""

    def check(cls: type, items: Any) -> list[Any]:
        if isinstance(items, (str, bytes, Mapping)) or not isinstance(items, Iterable):
            raise PydanticCustomError("children", f"must be a list of {kind} objects, got {type(items).__name__}")
        return list(items)

    return field_validator(field, mode="before")(check)


class Container:
    """Mixin of the ``Sequence`` components: an ordered list of children of the component's kind.

    A subclass (``class Sequence(Container, Normalizer)``) names the option that holds the children
    in ``children_field`` and declares it in ``Params``; the children are built (instances kept,
    dicts built through the registry) in :meth:`_configure`, so construction and assignment of the
    whole field (``seq.normalizers = [...]``) share one path. It serializes each child as a full
    ``{"type": ...}`` object, loads with errors naming ``where.field[i]``, and supports ``len``,
    indexing, iteration and item assignment (``seq[0] = NFC()``, or the child's dict).
    """

    children_field: ClassVar[str]
    kind: ClassVar[str]
    type_name: ClassVar[str]

    def _set_children(self, items: Any) -> None:
        """Store ``items`` (components of this kind, or their dicts) as the children."""
        field = self.children_field
        object.__setattr__(self, field, build_children(self.kind, items, field, where=self._container_where()))

    def _container_where(self) -> str:
        return f"{self.kind} {self.type_name!r}"

    def _configure(self) -> None:
        self._set_children(getattr(self, self.children_field))
        super()._configure()  # type: ignore[misc]

    @property
    def children(self) -> list[Any]:
        return getattr(self, self.children_field)  # type: ignore[no-any-return]

    def params(self) -> dict[str, Any]:
        return {self.children_field: [child.to_dict() for child in self.children]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, validate: bool = True, where: str | None = None) -> Any:
        """Validate the options, then build each child with its path in the error messages."""
        where = where or f"{cls.kind} {cls.type_name!r}"
        field = cls.children_field
        options = {k: v for k, v in data.items() if k != "type"}
        if validate:
            options = validate_params(cls.Params, options, where=where)  # type: ignore[attr-defined]
        return cls(build_children(cls.kind, options.get(field, []), field, validate=validate, where=where))

    def __len__(self) -> int:
        return len(self.children)

    def __getitem__(self, index: int) -> Any:
        return self.children[index]

    def __setitem__(self, index: int, item: Any) -> None:
        """Replace one child (a component of this kind or its dict); pipelines forget their caches.

        >>> from toolkit.normalizers import NFC, NFD, Sequence
        >>> seq = Sequence([NFD()])
        >>> seq[0] = {"type": "NFC"}
        >>> seq[0] == NFC()
        True
        """
        field = self.children_field
        old = self.children
        new = list(old)
        position = range(len(old))[index]  # IndexError for an index out of range, as a list
        new[position] = _build_child(self.kind, item, f"{self._container_where()}.{field}[{position}]")
        object.__setattr__(self, field, new)
        try:
            self._reconfigure()
        except BaseException:
            object.__setattr__(self, field, old)
            self._reconfigure()
            raise
        bump_generation()

    def __iter__(self) -> Iterator[Any]:
        return iter(self.children)
