"""Config files and ``--set`` overrides: reading TOML, YAML and JSON, and applying ``key.path=value``.

This module owns the file side of the training configuration: parsing a file by its extension
(syntax errors name the file and the position), and the dotted-path overrides of the command line
(``--set trainer.vocab_size=500``), whose values are TOML literals. What the config may say, and its
validation, is :mod:`toolkit.training.config`.

>>> apply_overrides({"trainer": {"vocab_size": 1000}}, ["trainer.vocab_size=500"])
{'trainer': {'vocab_size': 500}}
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from toolkit.errors import ConfigError, SerializationError
from toolkit.limits import check_nesting_depth, read_bounded

__all__ = ["PIPELINE_SECTIONS", "read_config_file", "apply_overrides"]

#: Config sections that hold one pipeline component each, and the registry kind of each.
PIPELINE_SECTIONS = {
    "normalizer": "normalizer",
    "pre_tokenizer": "pre_tokenizer",
    "model": "model",
    "trainer": "trainer",
    "post_processor": "post_processor",
    "decoder": "decoder",
}


_TOO_DEEP = "nested too deeply or holds a number far too large (over 4,300 digits) to be a config"


def read_config_file(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Parse a config file by extension: ``.toml``, ``.yaml``/``.yml`` (needs PyYAML) or ``.json``.

    Syntax errors are :class:`ConfigError` with the file and position.
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in (".toml", ".yaml", ".yml", ".json"):
        raise ConfigError(f"{p}: unsupported config file type {suffix or '(none)'!r}; use .toml, .yaml, .yml or .json")
    try:
        with p.open("rb") as fh:  # bounded: a config named /dev/zero or a FIFO must not fill the memory
            data_bytes = read_bounded(fh, source=str(p), error=ConfigError)
        text = data_bytes.decode("utf-8-sig")  # a BOM (Windows editors) is dropped, as by the tokenizer file readers
    except FileNotFoundError:
        raise ConfigError(f"{p}: no such config file") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{p}: not UTF-8 text (invalid byte at offset {exc.start})") from None
    except OSError as exc:
        raise ConfigError(f"{p}: cannot read the config file: {exc.strerror}") from None
    if suffix == ".toml":
        try:
            data: Any = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{p}: invalid TOML: {exc}") from None
        except (RecursionError, ValueError):
            raise ConfigError(f"{p}: {_TOO_DEEP}") from None
    elif suffix == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"{p}: invalid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
        except (RecursionError, ValueError):
            raise ConfigError(f"{p}: {_TOO_DEEP}") from None
    else:
        try:
            import yaml
        except ImportError:
            raise ConfigError(
                f"{p}: reading YAML configs needs PyYAML: pip install \"tokenizer-toolkit[yaml]\" (or use TOML/JSON)"
            ) from None
        try:
            loader = _yaml_loader(yaml)(text)  # what yaml.safe_load does, with YAML 1.2's floats
            try:
                data = loader.get_single_data()
            finally:
                loader.dispose()
        except yaml.YAMLError as exc:
            raise ConfigError(f"{p}: invalid YAML: {' '.join(str(exc).split())}") from None
        except (RecursionError, ValueError):
            raise ConfigError(f"{p}: {_TOO_DEEP}") from None
        if data is None:
            data = {}
        if _expands_beyond(data, len(text) + _ALIAS_ALLOWANCE):
            raise ConfigError(
                f"{p}: the YAML expands to more than {len(text) + _ALIAS_ALLOWANCE:,} values through its aliases "
                "(*name repeating &name); write the values out, or use fewer nested aliases"
            )
    if not isinstance(data, dict):
        raise ConfigError(f"{p}: the config must be a table/mapping at the top level, got {type(data).__name__}")
    check_config_depth(data, source=str(p))
    return data


# YAML 1.2's floats: PyYAML follows YAML 1.1, where `1e-3` and `1.0e5` (no dot, or no sign in the
# exponent) are strings, so such a value meant another thing than in the same TOML or JSON config.
_YAML_FLOAT = re.compile(r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?
    |[-+]?[0-9][0-9_]*[eE][-+]?[0-9]+
    |\.[0-9_]+(?:[eE][-+]?[0-9]+)?
    |[-+]?\.(?:inf|Inf|INF)
    |\.(?:nan|NaN|NAN))$""", re.X)


def _yaml_loader(yaml: Any) -> Any:
    """PyYAML's ``SafeLoader`` reading floats as YAML 1.2 (and TOML and JSON) do: ``1e-3`` is a number.

    >>> [bool(_YAML_FLOAT.match(text)) for text in ("1e-3", "1.0e5", "2.5", "1_000", "1.2.3")]
    [True, True, True, False, False]
    """
    class Loader(yaml.SafeLoader):
        pass

    # The resolvers of each first character are tried in order: these come before the YAML 1.1 float's.
    Loader.yaml_implicit_resolvers = {
        first: ([("tag:yaml.org,2002:float", _YAML_FLOAT)] if first in "+-.0123456789" else []) + list(resolvers)
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    return Loader


#: Values a YAML config may hold beyond one per character of its text: aliases (``*name``) repeat a
#: value without repeating its text, and nested ones multiply (a few hundred bytes can stand for
#: billions of values, which validating and saving would then copy).
_ALIAS_ALLOWANCE = 100_000


def _expands_beyond(data: Any, budget: int) -> bool:
    """Whether ``data``, each shared value counted at every place it appears, holds more than
    ``budget`` values (keys, items and scalars); stops counting at the budget.

    >>> inner = ["x"] * 10
    >>> _expands_beyond({"a": [inner] * 10}, 100), _expands_beyond({"a": [inner] * 10}, 1000)
    (True, False)
    """
    stack = [data]
    seen = 0
    while stack:
        value = stack.pop()
        seen += 1
        if seen > budget:
            return True
        if isinstance(value, dict):
            stack.extend(value)
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return False


def check_config_depth(data: Any, *, source: str) -> None:
    """A :class:`ConfigError` when ``data`` nests more than :data:`toolkit.limits.MAX_NESTING_DEPTH`
    levels (the limit of the tokenizer file the training writes; deeper would crash copying)."""
    try:
        check_nesting_depth(data, source=source)
    except SerializationError as exc:
        raise ConfigError(str(exc)) from None


def _parse_value(text: str) -> Any:
    """A ``--set`` value: a TOML literal (``500``, ``true``, ``["a", "b"]``, ``"x"``) or else the raw string."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text
    except (RecursionError, ValueError):
        raise ConfigError(f"--set value {text[:40]!r}…: {_TOO_DEEP}") from None


def _override_items(overrides: Sequence[str] | Sequence[tuple[str, Any]] | Mapping[str, Any]) -> list[tuple[str, Any]]:
    if isinstance(overrides, Mapping):
        return list(overrides.items())
    items = []
    for item in overrides:
        if isinstance(item, tuple):
            items.append(item)
            continue
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--set {item!r}: expected KEY=VALUE, e.g. --set trainer.vocab_size=500")
        items.append((key.strip(), _parse_value(value.strip())))
    return items


def apply_overrides(
    data: dict[str, Any], overrides: Sequence[str] | Sequence[tuple[str, Any]] | Mapping[str, Any]
) -> dict[str, Any]:
    """Apply ``key.path=value`` overrides in place (and return ``data``).

    Keys are dotted paths; numeric parts index lists (``pre_tokenizer.pretokenizers.0.pattern``).
    Values are TOML literals, or plain strings when they do not parse as one. ``(key, value)``
    pairs or a mapping give values as they are.

    >>> apply_overrides({"trainer": {"vocab_size": 1000}}, ["trainer.vocab_size=500", "output=out/t.json"])
    {'trainer': {'vocab_size': 500}, 'output': 'out/t.json'}
    """
    for key, value in _override_items(overrides):
        parts = key.split(".")
        node: Any = data
        for i, part in enumerate(parts[:-1]):
            where = ".".join(parts[: i + 1])
            if isinstance(node, list):
                node = _list_item(node, part, where, key)
                continue
            child = node.get(part)
            if child is None:
                child = node[part] = {}
            elif isinstance(child, str) and part in PIPELINE_SECTIONS:
                child = node[part] = {"type": child}
            elif not isinstance(child, (dict, list)):
                raise ConfigError(f"--set {key}: {where} is a {type(child).__name__}, not a table")
            node = child
        last = parts[-1]
        if isinstance(node, list):
            index = _index(node, last, key)
            node[index] = value
        else:
            node[last] = value
    return data


def _index(node: list[Any], part: str, key: str) -> int:
    if not part.isdigit() or int(part) >= len(node):
        raise ConfigError(f"--set {key}: {part!r} is not an index of a list of {len(node)} items")
    return int(part)


def _list_item(node: list[Any], part: str, where: str, key: str) -> Any:
    child = node[_index(node, part, key)]
    if not isinstance(child, (dict, list)):
        raise ConfigError(f"--set {key}: {where} is a {type(child).__name__}, not a table")
    return child
