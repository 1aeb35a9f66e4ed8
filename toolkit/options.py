"""Component options: declared once, validated once, changeable after construction.

A component declares its options in one place, a nested pydantic ``Params`` model (names, types,
defaults, constraints, validators). From it come the constructor (keyword options, and the
``positional`` ones in order), ``params()``/``to_dict()``, the JSON schema check of files, and
assignment: ``component.option = value`` validates the value like the constructor does, rebuilds
what the component derives from its options (:meth:`Configurable._configure`) and takes effect at
once, as in Hugging Face ``tokenizers``. A rejected value raises :class:`ConfigError` and leaves the
component as it was.

>>> from toolkit.normalizers import Strip
>>> s = Strip(left=False)
>>> s.left = True
>>> s.normalize_str("  hi  ")
'hi'
>>> s.left = "yes please"
Traceback (most recent call last):
toolkit.errors.ConfigError: normalizer 'Strip'.left: Input should be a valid boolean...
"""

from __future__ import annotations

import inspect
import typing
from abc import ABCMeta
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, ValidationError

from toolkit.errors import ConfigError, did_you_mean

__all__ = [
    "Params",
    "Configurable",
    "validate_params",
    "format_validation_error",
    "validation_messages",
    "refuse_bool",
    "generation",
    "bump_generation",
    "where_override",
    "OptionList",
    "OptionDict",
    "StateDict",
    "StateList",
    "fixed_state_error",
    "frozen",
    "thawed",
]


class Params(BaseModel):
    """Base of every component's options model: unknown keys are errors, values are validated strictly."""

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)


def refuse_bool(value: Any, expected: str = "a number") -> Any:
    """``value`` unchanged, unless it is ``True``/``False``: a config's ``mode="before"`` check for a
    number field, since pydantic reads ``true`` as 1 there.

    >>> refuse_bool(3), refuse_bool(2.5)
    (3, 2.5)
    >>> refuse_bool(True, "a number of processes")
    Traceback (most recent call last):
    ...
    ValueError: expected a number of processes, got true
    """
    if isinstance(value, bool):
        raise ValueError(f"expected {expected}, got {str(value).lower()}")
    return value


def known_fields(model: type[BaseModel] | None, loc: tuple[Any, ...]) -> list[str]:
    """The field names of the (nested) pydantic model that holds the field at ``loc`` (for suggestions)."""
    current = model
    key_next = False  # the part after a dict-typed field is a key of that dict
    for part in loc[:-1]:
        if current is None:
            return []
        if isinstance(part, int) or key_next:
            key_next = False
            continue
        field = current.model_fields.get(str(part))
        if field is None:
            return []
        key_next = typing.get_origin(field.annotation) is dict
        candidates = [field.annotation, *typing.get_args(field.annotation)]
        current = next((c for c in candidates if isinstance(c, type) and issubclass(c, BaseModel)), None)
    return list(current.model_fields) if current is not None else []


def format_validation_error(exc: ValidationError, where: str, model: type[BaseModel] | None = None) -> str:
    """One line per bad field, each with its dotted path: ``model.vocab.foo: Input should be ...``.

    With the ``model`` validated, an unknown option gets the closest known name (``did you mean``).
    """
    lines = []
    for loc, msg in validation_messages(exc, model, word="option", see="the component's docstring for its options"):
        path = ".".join(str(p) for p in loc)
        lines.append(f"{where}.{path}: {msg}" if path else f"{where}: {msg}")
    return "; ".join(lines)


def validation_messages(exc: ValidationError, model: type[BaseModel] | None, *, word: str,
                        see: str) -> list[tuple[tuple[Any, ...], str]]:
    """``(location, message)`` of each error pydantic found, in our words: an unknown ``word`` gets the
    closest known name and ``see``; pydantic's ``"Value error, "`` prefix on our validators' messages goes."""
    out = []
    for err in exc.errors():
        loc = tuple(err["loc"])
        if err["type"] == "extra_forbidden":
            hint = did_you_mean(loc[-1] if loc else "", known_fields(model, loc))
            msg = f"unknown {word}{hint} (check the spelling; see {see})"
        elif err["type"] == "missing":
            msg = f"required {word} is missing"
        else:
            msg = err["msg"].removeprefix("Value error, ")
        out.append((loc, msg))
    return out


def validate_params(params_model: type[Params], data: Mapping[str, Any], *, where: str) -> dict[str, Any]:
    """Validate ``data`` against ``params_model``; return the validated values of the given keys.

    Raises :class:`ConfigError` naming every bad field with its path.
    """
    try:
        validated = params_model.model_validate(dict(data))
    except ValidationError as exc:
        raise ConfigError(format_validation_error(exc, where, params_model)) from None
    return {name: getattr(validated, name) for name in data}


# Bumped by every option assignment anywhere: a pipeline whose caches were filled under an older
# generation forgets them (one integer compare per call; assignments are rare, so a change to an
# unrelated component costs at most one cache refill).
_generation = 0


def generation() -> int:
    """How many option assignments (and container item assignments) have taken effect so far."""
    return _generation


def bump_generation() -> None:
    """Record a change of options that may change ids (called by assignments and containers)."""
    global _generation
    _generation += 1


def _refuse(label: str, kind: str) -> ConfigError:
    owner = label.split(" ", 1)[0] if " " in label else "component"  # "trainer 'BPETrainer'.x" -> trainer
    example = f"{owner}.{label.rsplit('.', 1)[-1]} = {'[...]' if kind == 'list' else '{...}'}"
    return ConfigError(f"{label} cannot be changed in place (the change would not take effect); "
                       f"assign a new {kind} instead: {example}")


class _HeldOption:
    """What :class:`OptionList` and :class:`OptionDict` share: the label that errors name, and refusal."""

    __slots__ = ()
    _kind: ClassVar[str]
    _plain: ClassVar[type]
    _label: str

    def __init__(self, items: Any = (), label: str = "option") -> None:
        super().__init__(items)  # type: ignore[call-arg]  # list or dict, next in the MRO
        self._label = label

    def _refused(self, *args: Any, **kwargs: Any) -> Any:
        raise self._refusal()

    def _refusal(self) -> ConfigError:
        return _refuse(self._label, self._kind)

    def __reduce__(self) -> Any:
        return (type(self), (self._plain(self), self._label))  # type: ignore[call-arg]


class OptionList(_HeldOption, list):  # type: ignore[type-arg]
    """A list-valued option as the component holds it: read it like a list; change it by assignment.

    Changing it in place would bypass validation and leave what the component derived from it stale,
    so the mutating methods raise :class:`ConfigError` naming the fix; ``+=`` builds a new list, which
    the assignment then validates and applies.

    >>> from algorithms import BPETrainer
    >>> t = BPETrainer(special_tokens=["[UNK]"])
    >>> t.special_tokens += ["[PAD]"]
    >>> t.special_tokens
    ['[UNK]', '[PAD]']
    >>> t.special_tokens.append("[CLS]")
    Traceback (most recent call last):
    toolkit.errors.ConfigError: trainer 'BPETrainer'.special_tokens cannot be changed in place ...
    """

    __slots__ = ("_label",)
    _kind, _plain = "list", list
    append = extend = insert = remove = pop = clear = sort = reverse = _HeldOption._refused
    __setitem__ = __delitem__ = _HeldOption._refused

    def __iadd__(self, other: Any) -> list[Any]:  # type: ignore[override,misc]
        return [*self, *other]

    def __imul__(self, n: Any) -> list[Any]:  # type: ignore[override,misc]
        return list(self) * n


class OptionDict(_HeldOption, dict):  # type: ignore[type-arg]
    """A dict-valued option as the component holds it: read it like a dict; change it by assignment."""

    __slots__ = ("_label",)
    _kind, _plain = "dict", dict
    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _HeldOption._refused

    def __ior__(self, other: Any) -> dict[Any, Any]:  # type: ignore[override,misc]
        return {**self, **other}


def fixed_state_error(label: str, kind: str) -> ConfigError:
    """The error for changing a model's vocabulary or merges (``label``: "model 'BPE'.vocab", ``kind``:
    "dict" or "list")."""
    name = label.rsplit(".", 1)[-1]
    return ConfigError(
        f"{label} cannot be changed: the model built its look-up tables from it; build a new model from a "
        f"changed copy ({kind}(model.{name})) and assign it to tokenizer.model, or add tokens with "
        "tokenizer.add_tokens([...])"
    )


class StateList(OptionList):
    """A model's merges (or Unigram's scored pieces) as the model holds them: read it like a list; a
    change in place is refused (:func:`fixed_state_error`), as is assignment (``Model.__setattr__``)."""

    __slots__ = ()

    def _refusal(self) -> ConfigError:
        return fixed_state_error(self._label, self._kind)


class StateDict(OptionDict):
    """A model's vocabulary as the model holds it: read it like a dict; see :class:`StateList`.

    >>> from algorithms import WordLevel
    >>> WordLevel({"a": 0}).vocab["b"] = 1
    Traceback (most recent call last):
    toolkit.errors.ConfigError: model 'WordLevel'.vocab cannot be changed: ...
    """

    __slots__ = ()

    def _refusal(self) -> ConfigError:
        return fixed_state_error(self._label, self._kind)


def frozen(value: Any, label: str) -> Any:
    """``value`` with its lists and dicts (nested ones too) made :class:`OptionList`/:class:`OptionDict`."""
    if isinstance(value, list):
        return value if isinstance(value, OptionList) else OptionList((frozen(v, label) for v in value), label)
    if isinstance(value, dict):
        return value if isinstance(value, OptionDict) else OptionDict(
            ((k, frozen(v, label)) for k, v in value.items()), label)
    if type(value) is tuple:
        return tuple(frozen(v, label) for v in value)
    return value


def thawed(value: Any) -> Any:
    """The plain lists and dicts of a :func:`frozen` value (a copy the caller may change)."""
    if isinstance(value, list):
        return [thawed(v) for v in value]
    if isinstance(value, dict):
        return {k: thawed(v) for k, v in value.items()}
    if type(value) is tuple:
        return tuple(thawed(v) for v in value)
    return value


_WHERE: ContextVar[str | None] = ContextVar("toolkit_options_where", default=None)


@contextmanager
def where_override(where: str) -> Iterator[None]:
    """Within the block, constructor errors name ``where`` (a path in a file: ``model.normalizers[2]``)."""
    token = _WHERE.set(where)
    try:
        yield
    finally:
        _WHERE.reset(token)


class _ConfigurableMeta(ABCMeta):
    """Builds each class's option tables; after ``__init__`` marks the instance configured."""

    def __init__(cls, name: str, bases: tuple[type, ...], namespace: dict[str, Any], **kw: Any) -> None:
        super().__init__(name, bases, namespace, **kw)
        params = cls.Params  # type: ignore[attr-defined]
        cls._option_names = frozenset(params.model_fields)  # type: ignore[attr-defined]
        cls._assignment_model = None  # type: ignore[attr-defined]  (built on the first assignment)
        if "__init__" not in namespace and "__signature__" not in namespace:
            cls.__signature__ = _signature(params, cls.positional)  # type: ignore[attr-defined]

    def __call__(self, /, *args: Any, **kwargs: Any) -> Any:  # ``self`` is the class: ``cls`` may be an option
        obj = super().__call__(*args, **kwargs)
        obj._reconfigure()
        object.__setattr__(obj, "_configured", True)
        return obj


def _signature(params: type[Params], positional: tuple[str, ...]) -> inspect.Signature:
    """``(self, pos1=..., *, opt=..., ...)`` from the options model, for ``help()`` and IDEs."""
    fields = params.model_fields
    out = []
    for name in (*positional, *(n for n in fields if n not in positional)):
        field = fields[name]
        kind = inspect.Parameter.POSITIONAL_OR_KEYWORD if name in positional else inspect.Parameter.KEYWORD_ONLY
        default = inspect.Parameter.empty if field.is_required() else field.get_default(call_default_factory=True)
        out.append(inspect.Parameter(name, kind, default=default, annotation=field.annotation))
    return inspect.Signature(out)


class Configurable(metaclass=_ConfigurableMeta):
    """Base of every component: options from ``Params``, a generated constructor, live assignment.

    Subclasses declare ``class Params(Params)`` and, where HF takes some options positionally, the
    tuple ``positional``. They need no ``__init__`` unless they take more than options (a model's
    vocabulary): then ``def __init__(self, vocab=None, **options)`` calls ``super().__init__(**options)``.
    What a component derives from its options (look-up tables, compiled patterns) is built in
    :meth:`_configure`, which runs after construction and after every option change; its caches of
    results are made in :meth:`_new_caches`, which runs right after.
    """

    class Params(Params):
        pass

    #: Options that may also be passed positionally, in this order (Hugging Face's argument order).
    positional: ClassVar[tuple[str, ...]] = ()
    #: Other keywords the constructor takes for an option (``{"cls_token": "cls"}``): Hugging Face's
    #: names where they differ from the option's, which is the attribute and the JSON key.
    aliases: ClassVar[dict[str, str]] = {}

    _option_names: ClassVar[frozenset[str]]
    _assignment_model: ClassVar[type[Params] | None]

    def __init__(self, *args: Any, **options: Any) -> None:
        cls = type(self)
        if len(args) > len(cls.positional):
            raise ConfigError(
                f"{self._where()}: takes at most {len(cls.positional)} positional option(s) "
                f"({', '.join(cls.positional) or 'none'}), got {len(args)}; pass the others by name"
            )
        for alias, name in cls.aliases.items():
            if alias in options:
                if name in options:
                    raise ConfigError(f"{self._where()}: {alias!r} is another name of option {name!r}; give one of them")
                options[name] = options.pop(alias)
        for name, value in zip(cls.positional, args):
            if name in options:
                raise ConfigError(f"{self._where()}: option {name!r} given twice (by position and by name)")
            options[name] = value
        self._set_options(options, validate=True)

    def _set_options(self, options: Mapping[str, Any], *, validate: bool) -> None:
        """Store every option: the given values (validated unless ``validate=False``) and the defaults."""
        params = type(self).Params
        try:
            model = params.model_validate(dict(options)) if validate else params.model_construct(**options)
        except ValidationError as exc:
            raise ConfigError(format_validation_error(exc, self._where(), params)) from None
        for name in params.model_fields:
            object.__setattr__(self, name, getattr(model, name))
        # The names validated here: Component.from_dict validates the rest (a plugin's own constructor).
        object.__setattr__(self, "_options_validated", frozenset(options) if validate else frozenset())

    def _configure(self) -> None:
        """Build what is derived from the options; raise :class:`ConfigError` for a bad combination."""

    def _new_caches(self) -> None:
        """Make the caches of results anew; runs after :meth:`_configure` (none by default)."""

    def _reconfigure(self) -> None:
        """:meth:`_configure`, then :meth:`_new_caches`: the new caches come last, so a thread encoding
        meanwhile either fills an old cache (dropped) or starts after the tables are rebuilt, and never
        stores results of the old tables in the new cache."""
        self._configure()
        self._freeze_options()
        self._new_caches()

    def _freeze_options(self) -> None:
        """Hold list and dict options as :class:`OptionList`/:class:`OptionDict`: a change in place
        would not take effect, so it is refused with the fix (assign a new value)."""
        values = self.__dict__
        for name in self._option_names:
            value = values.get(name)
            if isinstance(value, (list, dict, tuple)):
                object.__setattr__(self, name, frozen(value, f"{self._where()}.{name}"))

    def _where(self) -> str:
        override = _WHERE.get()
        if override is not None:
            return override
        kind = getattr(self, "kind", "") or "component"
        return f"{kind} {getattr(self, 'type_name', '') or type(self).__name__!r}"

    def __setattr__(self, name: str, value: Any) -> None:
        if name in self._option_names and self.__dict__.get("_configured"):
            self._assign_option(name, value)
        else:
            object.__setattr__(self, name, value)

    def _assign_option(self, name: str, value: Any) -> None:
        cls = type(self)
        model = cls._assignment_model
        if model is None:  # the options model, validating single assignments
            config = ConfigDict(**{**cls.Params.model_config, "validate_assignment": True})  # type: ignore[typeddict-item]
            model = type(f"{cls.__name__}Assignment", (cls.Params,), {"model_config": config})
            cls._assignment_model = model
        current = model.model_construct()  # values set below: an option may be named ``cls`` (BertProcessing)
        current.__dict__.update({n: self.__dict__[n] for n in cls._option_names if n in self.__dict__})
        try:
            setattr(current, name, value)
        except ValidationError as exc:
            raise ConfigError(format_validation_error(exc, self._where())) from None
        old = self.__dict__.get(name)
        object.__setattr__(self, name, getattr(current, name))
        try:
            self._reconfigure()
        except BaseException:
            object.__setattr__(self, name, old)
            self._reconfigure()
            raise
        bump_generation()
