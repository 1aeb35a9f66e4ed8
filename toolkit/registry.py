"""The component registry: maps each JSON ``"type"`` tag of each kind to its class.

A tokenizer file stores every component as ``{"type": "<name>", ...options}``. Loading looks the name up
here, under the component's kind (``"normalizer"``, ``"pre_tokenizer"``, ``"model"``, ``"trainer"``,
``"post_processor"``, ``"decoder"``), so the same name may exist once per kind (``ByteLevel`` is both a
pre-tokenizer and a decoder, as in Hugging Face ``tokenizers``).

Built-in components register when their module is imported; the registry imports the built-in modules
on the first look-up, so ``toolkit`` never imports ``algorithms`` or ``pretokenizers`` at start-up.
Third-party packages register with :func:`register` and, to be found without an explicit import,
declare an entry point in the group ``tokenizer_toolkit.components`` whose value is the module (or
class) to import.

:func:`check_installation` (run at ``import toolkit`` and before discovery) makes sure ``algorithms`` and
``pretokenizers`` are this distribution's packages, not another project's of the same name.

>>> from toolkit.interfaces import Normalizer
>>> @register("DocShout")
... class Shout(Normalizer):
...     def normalize(self, ns):
...         return ns.map_chars(str.upper)
>>> lookup("normalizer", "DocShout")().normalize_str("hi")
'HI'
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import threading
from collections.abc import Callable, Iterator
from importlib.metadata import PackageNotFoundError, distribution, entry_points, packages_distributions
from typing import Any, TypeVar

from toolkit.errors import RegistryError, ToolkitError, did_you_mean

__all__ = [
    "register",
    "lookup",
    "registered",
    "tool",
    "check_installation",
    "ENTRY_POINT_GROUP",
    "KINDS",
    "TOOLS",
    "PLUGIN_PACKAGES",
]

ENTRY_POINT_GROUP = "tokenizer_toolkit.components"
KINDS = ("normalizer", "pre_tokenizer", "model", "trainer", "post_processor", "decoder")

# Modules whose import registers the built-in components.
_BUILTIN_MODULES = (
    "toolkit.normalizers",
    "toolkit.processors",
    "toolkit.decoders",
    "pretokenizers",
    "algorithms",
)

_registry: dict[str, dict[str, type]] = {kind: {} for kind in KINDS}
_lock = threading.RLock()
_discovered = False

C = TypeVar("C", bound=type)


def register(type_name: str | None = None, *, kind: str | None = None) -> Callable[[C], C]:
    """Class decorator: register a component class under its kind and ``type_name``.

    ``kind`` defaults to the ``kind`` class attribute inherited from the interface (``Normalizer``...);
    ``type_name`` defaults to the class name. Registering a name twice for one kind is an error.

    >>> from toolkit.interfaces import Decoder
    >>> @register("Upper")
    ... class Upper(Decoder):
    ...     def decode_chain(self, tokens): return [t.upper() for t in tokens]
    """

    def decorate(cls: C) -> C:
        k = kind or getattr(cls, "kind", None)
        if k not in _registry:
            raise RegistryError(
                f"cannot register {cls.__name__}: kind {k!r} is not one of {', '.join(KINDS)}; "
                "subclass one of the interfaces in toolkit.interfaces"
            )
        name = type_name or cls.__name__
        with _lock:
            existing = _registry[k].get(name)
            if existing is not None and existing is not cls:
                if _same_class(existing, cls):
                    # The same module imported twice (e.g. under __main__ and its package name).
                    pass
                else:
                    raise RegistryError(
                        f"{k} type {name!r} is already registered by {existing.__module__}."
                        f"{existing.__qualname__}; choose another name for {cls.__module__}.{cls.__qualname__}"
                    )
            _registry[k][name] = cls
        cls.type_name = name  # type: ignore[attr-defined]
        return cls

    return decorate


def _same_class(a: type, b: type) -> bool:
    return a.__qualname__ == b.__qualname__ and a.__module__ == b.__module__


def _discover() -> None:
    """Import built-in modules and entry-point plugins once, so their classes register."""
    global _discovered
    if _discovered:
        return
    with _lock:
        if _discovered:
            return
        # Marked first so that imports which look components up do not recurse; reset on failure so
        # a failed import is retried (and reported again) instead of leaving an empty registry.
        _discovered = True
        try:
            check_installation()
            for module in _BUILTIN_MODULES:
                imported = importlib.import_module(module)
                if module in PLUGIN_PACKAGES and getattr(imported, _MARKER, None) is not True:
                    raise ToolkitError(_foreign_message(module, getattr(imported, "__file__", None) or repr(imported)))
            for ep in entry_points(group=ENTRY_POINT_GROUP):
                try:
                    ep.load()
                except Exception as exc:
                    raise RegistryError(
                        f"plugin entry point {ep.name!r} ({ep.value}) in group {ENTRY_POINT_GROUP!r} "
                        f"failed to import: {exc}"
                    ) from exc
        except BaseException:
            _discovered = False
            raise


def lookup(kind: str, type_name: Any) -> type:
    """Return the class registered as ``type_name`` for ``kind``, or raise :class:`RegistryError`.

    >>> lookup("normalizer", "Lowercase").__name__
    'Lowercase'
    """
    if kind not in _registry:
        raise RegistryError(f"unknown component kind {kind!r}; expected one of {', '.join(KINDS)}")
    if not isinstance(type_name, str):
        raise RegistryError(f"{kind}.type: must be a string naming a component, got {type_name!r}")
    cls = _registry[kind].get(type_name)
    if cls is None:
        _discover()
        cls = _registry[kind].get(type_name)
    if cls is None:
        known = ", ".join(sorted(_registry[kind])) or "none"
        raise RegistryError(
            f"{kind}.type: unknown {kind} type {type_name!r}{did_you_mean(type_name, _registry[kind])}; known types: {known}. "
            f"A plugin must be imported or declare an entry point in {ENTRY_POINT_GROUP!r}"
        )
    return cls


def registered(kind: str | None = None) -> Iterator[tuple[str, str, type]]:
    """Yield ``(kind, type_name, class)`` for every registered component (built-ins included)."""
    _discover()
    with _lock:
        items = [(k, n, c) for k, names in _registry.items() for n, c in names.items()]
    for k, n, c in sorted(items, key=lambda t: (t[0], t[1])):
        if kind is None or k == kind:
            yield k, n, c


# ------------------------------------------------------------------------------------------ tools
#: Functions of the tooling packages that :class:`~toolkit.Tokenizer` methods delegate to, by name
#: (``"module:function"``). The core names them here and imports them on first use, the way it finds
#: built-in components: no import statement of the core reaches into the tooling (the layering test
#: checks both this table and the imports).
TOOLS: dict[str, str] = {
    "count_words": "toolkit.training.corpus:count_words",
    "load_hf_json": "toolkit.interop.hf_json:load_hf_json",
    "save_hf_json": "toolkit.interop.hf_json:save_hf_json",
    "to_hf_tokenizer": "toolkit.interop.hf_json:to_hf_tokenizer",
    "from_gpt2": "toolkit.interop.gpt2:from_gpt2",
    "save_vocab_merges": "toolkit.interop.gpt2:save_vocab_merges",
    "from_tiktoken": "toolkit.interop.tiktoken_files:from_tiktoken",
    "save_tiktoken": "toolkit.interop.tiktoken_files:save_tiktoken",
    "from_bert_vocab": "toolkit.interop.bert_vocab:from_bert_vocab",
    "read_bert_vocab": "toolkit.interop.bert_vocab:read_bert_vocab",
    "read_vocab_json": "toolkit.interop.gpt2:read_vocab_json",
    "save_bert_vocab": "toolkit.interop.bert_vocab:save_bert_vocab",
    "load_any": "toolkit.interop.files:load_tokenizer",
    "from_sentencepiece": "toolkit.interop.sentencepiece:from_sentencepiece",
    "save_sentencepiece": "toolkit.interop.sentencepiece:save_sentencepiece",
    "visualize": "toolkit.analysis.visualize:visualize",
    # HF names and the hand-off to transformers
    "from_hf_dict": "toolkit.interop.hf_json:from_hf_dict",
    "hf_float": "toolkit.interop.hf_floats:hf_float",
    "save_pretrained": "toolkit.interop.transformers:save_pretrained",
}


def tool(name: str) -> Callable[..., Any]:
    """The tooling function registered as ``name`` in :data:`TOOLS`, imported on first use.

    >>> tool("count_words").__module__
    'toolkit.training.corpus'
    """
    target = TOOLS.get(name)
    if target is None:
        raise RegistryError(f"unknown tool {name!r}; known: {', '.join(sorted(TOOLS))}")
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)  # type: ignore[no-any-return]


# ---------------------------------------------------------------------------- installation check
#: The top-level packages this distribution installs besides ``toolkit``. Each ``__init__.py`` sets
#: ``__tokenizer_toolkit__ = True``: another project's package of the same name lacks the marker.
PLUGIN_PACKAGES = ("algorithms", "pretokenizers")
_MARKER = "__tokenizer_toolkit__"
_DISTRIBUTION = "tokenizer-toolkit"


def check_installation() -> None:
    """Raise :class:`ToolkitError` when ``algorithms`` or ``pretokenizers`` is not this toolkit's package.

    An unrelated distribution that installs a top-level package of the same name overwrites or shadows
    ours: ``from algorithms import BPE`` then fails and no algorithm is registered. The packages are
    located without being imported and their ``__init__`` is searched for the marker (a fraction of a
    millisecond, at ``import toolkit``). A package that cannot be found is left to the import that needs it.

    >>> check_installation()  # this installation is sound
    """
    for name in PLUGIN_PACKAGES:
        origin = _foreign_origin(name)
        if origin is not None:
            raise ToolkitError(_foreign_message(name, origin))


def _foreign_origin(name: str) -> str | None:
    """Where the package ``name`` comes from when it is not ours; ``None`` when it is (or is not found)."""
    module = sys.modules.get(name)
    if module is not None and getattr(module, _MARKER, None) is True:
        return None
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    if spec.origin is None:  # a namespace package: folders named `name` without __init__.py, ours absent
        return "the folder(s) " + ", ".join(spec.submodule_search_locations or [name])
    try:
        with open(spec.origin, "rb") as fh:
            source = fh.read()
    except OSError:
        return None  # not a plain file (a zip archive...): discovery checks the imported module's marker
    return None if _MARKER.encode() in source else spec.origin


def _foreign_message(name: str, origin: str) -> str:
    """The error for a foreign ``name`` package found at ``origin``: what it is and how to fix it."""
    owners = _distributions_owning(name, origin)
    if owners:
        found = f"{origin}, installed by the distribution {', '.join(owners)}"
        fix = f"pip uninstall {' '.join(owners)}"
    else:
        found = f"{origin}, which no installed distribution claims"
        where = os.path.dirname(origin) if os.path.basename(origin).startswith("__init__.") else origin
        fix = f"remove or rename {where} (or take its parent folder off sys.path / PYTHONPATH)"
    return (
        f"the {name!r} package that Python imports is not tokenizer-toolkit's: it is {found}. It hides "
        f"tokenizer-toolkit's own {name!r} package, so its components cannot be found. "
        f"Fix: {fix}, then pip install --force-reinstall {_DISTRIBUTION}"
    )


def _distributions_owning(name: str, origin: str) -> list[str]:
    """The installed distributions other than ours that provide ``name`` (those owning ``origin`` first)."""
    try:
        candidates = sorted({d for d in packages_distributions().get(name, []) if _canonical(d) != _DISTRIBUTION})
    except Exception:  # broken metadata of some other distribution must not hide the real message
        return []
    owning = []
    for candidate in candidates:
        try:
            files = distribution(candidate).files or []
        except PackageNotFoundError:
            continue
        if any(os.path.realpath(f.locate()) == os.path.realpath(origin) for f in files):
            owning.append(candidate)
    return owning or candidates


def _canonical(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")
