"""Config-file training: the :class:`TrainingConfig` schema and :func:`train_from_config`.

This module owns the training configuration: what a config file may say, how every field is
validated (all errors at once, each with its dotted path), presets and ``algorithm`` shorthands, and
the training run itself (count the corpus, train, measure, embed the effective config and the corpus
fingerprint in the tokenizer's ``metadata``, write the file atomically). Reading files and applying
``--set key=value`` overrides is :mod:`toolkit.training.config_files`; the result of a run is
:class:`~toolkit.training.results.TrainingResult`.

Components are never listed here: each pipeline section (``normalizer``, ``pre_tokenizer``, ``model``,
``trainer``, ``post_processor``, ``decoder``) is ``{"type": ..., **options}`` built through the
registry (:func:`toolkit.interfaces.build`), so plugins work in configs like built-ins.

A minimal config (TOML)::

    algorithm = "byte_level_bpe"          # picks model ByteLevelBPE + trainer ByteLevelBPETrainer
    output = "out/tokenizer.json"

    [corpus]
    files = ["data/*.txt"]

    [pre_tokenizer]
    type = "ByteLevel"

    [trainer]
    vocab_size = 1000
    special_tokens = ["<|endoftext|>"]

>>> cfg = TrainingConfig.from_dict({"algorithm": "bpe", "corpus": {"texts": ["a b"]}, "trainer": {"vocab_size": 10}})
>>> cfg.model["type"], cfg.trainer["type"]
('BPE', 'BPETrainer')

See ``docs/cli.md`` for every field.
"""

from __future__ import annotations

import copy
import json
import os
import re
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, field_validator

from toolkit.errors import ConfigError, CorpusError, RegistryError, ToolkitError, TrainingError, did_you_mean
from toolkit.limits import lone_surrogate_in, surrogate_problem
from toolkit.options import refuse_bool, validation_messages
from toolkit.serialization import names_a_folder, write_problem
from toolkit.training.config_files import (
    PIPELINE_SECTIONS,
    _override_items,
    apply_overrides,
    check_config_depth,
    read_config_file,
)
from toolkit.training.results import TrainingResult, _check_post_processor, _tokens_on_counts
from toolkit.progress import training_progress

if TYPE_CHECKING:
    from toolkit.training.corpus import Corpus, CorpusCounts
    from toolkit.interfaces import Trainer
    from toolkit.tokenizer import Tokenizer

__all__ = [
    "CorpusConfig",
    "TrainingConfig",
    "TrainingResult",
    "load_config",
    "read_config_file",
    "apply_overrides",
    "train_from_config",
    "output_problem",
    "PIPELINE_SECTIONS",
]

#: Where the trained tokenizer's metadata keeps the record of how it was made.
METADATA_KEY = "training"


# A tiny text run through the pipeline and the trainer before the real corpus is read, so that
# mistakes only training would reveal (a trainer that does not fit the model, a byte-level trainer
# without a ByteLevel pre-tokenizer) are reported with the config errors, in seconds, not after
# counting a large corpus. It is kept minimal so that no data-dependent limit (alphabet size) trips.
_PROBE_TEXT = "a b"
_PROBE_FREQUENCY = 1_000_000_000


# ---------------------------------------------------------------------------------------- schema
class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CorpusConfig(_Strict):
    """The ``[corpus]`` section: where the training text is and how to read it."""

    files: list[str] = Field(
        default_factory=list,
        description="Files, directories (every non-hidden file below, sorted) or glob patterns "
        "(`data/**/*.txt`), in corpus order. Relative paths are relative to the current directory.",
    )
    texts: list[str] | None = Field(
        None, description="Inline documents instead of files (small experiments and tests)."
    )
    format: Literal["auto", "text", "jsonl"] = Field(
        "auto", description="`auto`: `.jsonl`/`.ndjson` (optionally `.gz`) are JSON lines, other files text."
    )
    document: Literal["line", "file"] = Field(
        "line", description="Text files hold one document per line (newline kept) or one per file."
    )
    field: str = Field("text", min_length=1, description="JSON lines: the field holding the text (dotted for nested).")
    errors: Literal["strict", "replace"] = Field(
        "strict", description="Invalid UTF-8: `strict` stops with the file and byte offset; `replace` uses U+FFFD."
    )

    @field_validator("files", mode="before")
    @classmethod
    def _one_file(cls, value: Any) -> Any:
        return [value] if isinstance(value, str) else value


class TrainingConfig(_Strict):
    """A whole training run: pipeline, trainer, corpus, output, counting backend.

    Pipeline sections are component dicts ``{"type": ..., **options}`` (a bare string is a type
    with default options). ``algorithm`` fills ``model.type`` and ``trainer.type``; ``preset`` starts
    from a ready-made pipeline of :mod:`toolkit.training.presets` whose options the sections then override.
    Build with :meth:`from_dict` / :meth:`from_file`, which validate the components too.
    """

    algorithm: str | None = Field(
        None, description="Shorthand for model.type / trainer.type: `bpe`, `byte_level_bpe`, `wordpiece`, "
        "`unigram`, `word_level`, "
        "or any registered model type (case, `_` and `-` ignored); the trainer is `<Model>Trainer`."
    )
    preset: str | None = Field(
        None, description="Start from a preset of toolkit.training.presets.PRESETS (`chat`, `gpt2_style`, `bert`, "
        "`bert_pipeline`, `t5_unigram`); sections override it."
    )
    corpus: CorpusConfig = Field(description="The training text.")
    output: str | None = Field(None, description="Where to write the tokenizer JSON (overridden by --output).")
    num_workers: int | None = Field(
        None, ge=1, description="Counting processes (local backend) or local Dask workers; default: every core."
    )
    backend: Literal["local", "dask"] = Field("local", description="Counting backend: `local` processes or `dask`.")
    scheduler: str | None = Field(
        None, description="Dask scheduler address (`tcp://host:8786`); without it a local cluster is started."
    )
    normalizer: dict[str, Any] | None = Field(None, description="Normalizer component, e.g. `{type = \"NFKC\"}`.")
    pre_tokenizer: dict[str, Any] | None = Field(None, description="Pre-tokenizer component.")
    model: dict[str, Any] = Field(default_factory=dict, description="Model component (encoding options such as unk_token).")
    trainer: dict[str, Any] = Field(default_factory=dict, description="Trainer component (vocab_size, special_tokens, ...).")
    post_processor: dict[str, Any] | None = Field(None, description="Post-processor component.")
    decoder: dict[str, Any] | None = Field(None, description="Decoder component.")
    metadata: dict[str, Any] = Field(default_factory=dict, description="Free-form entries copied into the tokenizer's metadata.")
    #: The config file this was read from (``from_file``), which training must not overwrite; not part
    #: of the config's value (``==`` compares the fields).
    _source: str | None = PrivateAttr(None)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TrainingConfig):
            return NotImplemented
        return self.model_dump() == other.model_dump()

    @field_validator(*PIPELINE_SECTIONS, mode="before")
    @classmethod
    def _bare_type(cls, value: Any) -> Any:
        return _section_value(value)

    @field_validator("num_workers", mode="before")
    @classmethod
    def _not_a_bool(cls, value: Any) -> Any:
        return refuse_bool(value, "a number of processes")

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_dict(cls, data: Any, *, overrides: Sequence[str] | Mapping[str, Any] = (), source: str = "config") -> TrainingConfig:
        """Validate ``data`` fully (schema, components, corpus files); raise one :class:`ConfigError`
        listing every problem as ``path: message``.

        >>> TrainingConfig.from_dict({"algorithm": "nope", "corpus": {"files": []}})
        Traceback (most recent call last):
        ...
        toolkit.errors.ConfigError: config: algorithm: unknown algorithm 'nope'; ...
        """
        if not isinstance(data, Mapping):
            raise ConfigError(f"{source}: the config must be a table/object, got {type(data).__name__}")
        check_config_depth(data, source=source)  # before anything recurses into it
        data = copy.deepcopy(dict(data))
        items = _override_items(overrides)
        # `preset` first: the other overrides apply to the config as merged with its preset, so
        # `--set pre_tokenizer.pretokenizers.0.pattern.Regex=...` can reach into a preset's component.
        apply_overrides(data, [(k, v) for k, v in items if k == "preset"])
        data = _expand(data)
        problems: list[str] = []
        model_keys = _written_model_options(data, items)  # before the preset adds its own
        data = _apply_preset(data, problems)
        apply_overrides(data, [(k, v) for k, v in items if k != "preset"])
        check_config_depth(data, source=source)  # a --set path or value may nest it deeper
        data = _expand(data)
        problems.extend(_surrogate_problems(data))
        _resolve_algorithm(data, problems)
        try:
            config = cls.model_validate(data)
        except ValidationError as exc:
            problems.extend(_format_errors(exc, cls))
            raise ConfigError(_summary(source, problems)) from None
        problems.extend(config._check(model_keys))
        if problems:
            raise ConfigError(_summary(source, problems))
        config._source = source if source != "config" else None
        return config

    @classmethod
    def from_file(cls, path: str | os.PathLike[str], *, overrides: Sequence[str] = ()) -> TrainingConfig:
        """Read a TOML, YAML or JSON config, apply ``--set`` style ``overrides``, validate."""
        return cls.from_dict(read_config_file(path), overrides=overrides, source=os.fspath(path))

    # ------------------------------------------------------------------ checks
    def _check(self, model_keys: frozenset[str] = frozenset()) -> list[str]:
        """Every problem beyond the schema: components, corpus, output, the probe run (which checks
        that the trainer keeps the ``model`` options of ``model_keys``, those the config wrote)."""
        problems: list[str] = []
        built: dict[str, Any] = {}
        for section, kind in PIPELINE_SECTIONS.items():
            spec = getattr(self, section)
            if spec is None or (section in ("model", "trainer") and "type" not in spec):
                continue  # a missing model/trainer type was reported with the algorithm
            try:
                built[section] = _build(kind, spec, section)
            except ToolkitError as exc:
                problems.append(_one_line(str(exc)))
        if not self.corpus.files and self.corpus.texts is None:
            problems.append("corpus.files: required: name at least one file, directory or glob pattern")
        if self.corpus.files and self.corpus.texts is not None:
            problems.append("corpus: give files or texts, not both")
        from toolkit.training.corpus import resolve_sources

        for i, source in enumerate(self.corpus.files):
            try:
                resolve_sources([source], format=self.corpus.format)
            except CorpusError as exc:
                problems.append(f"corpus.files[{i}]: {exc}")
        # Whether its folder is writable is checked when writing: --output may name another path.
        if self.output is not None and (problem := output_problem(self.output, reachable=False)) is not None:
            problems.append(problem)
        try:  # the metadata goes into the tokenizer's JSON file: known before any text is read
            json.dumps(self.metadata, allow_nan=False)
        except (TypeError, ValueError) as exc:
            problems.append(f"metadata: {exc}; write such values as strings (a date as \"2020-01-01\")")
        if self.backend == "dask" and not _dask_available():
            problems.append('backend: "dask" needs Dask distributed: pip install "tokenizer-toolkit[dask]"')
        if self.scheduler is not None and self.backend != "dask":
            problems.append('scheduler: only used with backend = "dask"')
        elif self.scheduler is not None:
            from toolkit.training.dask_backend import scheduler_problem

            if (problem := scheduler_problem(self.scheduler)) is not None:
                problems.append(problem)
        if not problems:
            problems.extend(_probe(built, model_keys))
        return problems

    # ------------------------------------------------------------------ use
    def build(self) -> tuple[Tokenizer, Trainer]:
        """Fresh, untrained pipeline and trainer from this config."""
        from toolkit.tokenizer import Tokenizer

        parts = {s: _build(k, getattr(self, s), s) for s, k in PIPELINE_SECTIONS.items() if getattr(self, s) is not None}
        trainer = parts.pop("trainer")
        return Tokenizer(**parts), trainer

    def corpus_spec(self) -> Corpus:
        """The :class:`~toolkit.training.corpus.Corpus` this config reads."""
        from toolkit.training.corpus import Corpus

        c = self.corpus
        if c.texts is not None:
            return Corpus(texts=list(c.texts), format=c.format, document=c.document, field=c.field, errors=c.errors)
        return Corpus(sources=list(c.files), format=c.format, document=c.document, field=c.field, errors=c.errors)

    def effective(self) -> dict[str, Any]:
        """The config as trained: defaults filled in, each component with all its options.

        The model section stays as written (it only carries encoding options; the trained
        vocabulary is in the file anyway); inline ``texts`` are replaced by their count.
        """
        out = self.model_dump(mode="json")
        for section, kind in PIPELINE_SECTIONS.items():
            spec = getattr(self, section)
            if spec is not None and section != "model":
                out[section] = _build(kind, spec, section).to_dict()
        if out["corpus"].get("texts") is not None:
            out["corpus"]["texts"] = f"<{len(self.corpus.texts or [])} inline texts>"
        return out


def _dask_available() -> bool:
    import importlib.util

    # find_spec, not import: importing distributed takes a second, and the run imports it anyway.
    return all(importlib.util.find_spec(name) is not None for name in ("dask", "distributed"))


def _build(kind: str, spec: Mapping[str, Any], where: str) -> Any:
    """Build one component; rewrite class-named error prefixes (``BPETrainer.vocab_size``) as config paths."""
    from toolkit.interfaces import build
    from toolkit.registry import lookup

    try:
        if kind == "pre_tokenizer":
            _check_split_patterns(spec, where)
        return build(kind, dict(spec), where=where)
    except RegistryError as exc:
        raise ConfigError(str(exc)) from None
    except ToolkitError as exc:
        message = str(exc)
        try:
            names = {lookup(kind, spec.get("type")).__name__, str(spec.get("type"))}
        except ToolkitError:
            names = set()
        for name in sorted(names, key=len, reverse=True):
            if message.startswith(name + ".") or message.startswith(name + ":"):
                message = where + message[len(name):]
                break
        else:
            if not message.startswith(where):
                message = f"{where}: {message}"
        raise type(exc)(message) from None


def _check_split_patterns(spec: Any, where: str, depth: int = 0) -> None:
    """A ``Split`` pattern in a config says what it is: ``{Regex = "..."}`` or ``{String = "..."}``.

    A bare string is refused: in Python it is literal text (as in Hugging Face), while configs of
    earlier versions meant a regex, so either reading would surprise someone.
    """
    if not isinstance(spec, Mapping) or depth > 100:  # deeper nesting: build() refuses it
        return
    if spec.get("type") == "Split" and isinstance(spec.get("pattern"), str):
        shown = _toml_string(spec["pattern"])
        raise ConfigError(
            f"{where}.pattern: write {{Regex = {shown}}} for a regular expression or "
            f"{{String = {shown}}} for literal text (in JSON/YAML: {{\"Regex\": ...}} or {{\"String\": ...}})"
        )
    children = spec.get("pretokenizers") if spec.get("type") == "Sequence" else None
    for i, child in enumerate(children if isinstance(children, list) else []):
        _check_split_patterns(child, f"{where}.pretokenizers[{i}]", depth + 1)


def _toml_string(value: str) -> str:
    """``value`` as TOML writes it: a literal string ('...', backslashes as they are) when it can be one.

    >>> print(_toml_string(r"\\s+"), _toml_string("it's"))
    '\\s+' "it's"
    """
    # Whitespace other than single spaces is escaped: an error message is made one line by collapsing
    # runs of whitespace.
    loose = {i for m in re.finditer(r"\s{2,}|[^\S ]", value) for i in range(m.start(), m.end())}
    if "'" not in value and value.isprintable() and not loose:
        return f"'{value}'"
    # A TOML basic string, every character that is not printable (or loose whitespace) escaped.
    out = []
    for i, c in enumerate(value):
        if c in '"\\':
            out.append("\\" + c)
        elif i in loose or not c.isprintable():
            out.append(f"\\u{ord(c):04x}" if ord(c) < 0x10000 else f"\\U{ord(c):08x}")
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def _probe(built: Mapping[str, Any], model_keys: frozenset[str] = frozenset()) -> list[str]:
    """Train on a two-word text; report configuration errors it reveals (see ``_PROBE_TEXT``): a
    ``model`` option of ``model_keys`` the trainer does not keep, an ``unk_token`` the vocabulary lacks."""
    from toolkit.training.corpus import count_texts

    trainer = built.get("trainer")
    model = built.get("model")
    if trainer is None or model is None:
        return []
    # the message may quote the probe's words, which the user's corpus need not hold
    found = f" (found by a trial run on the text {_PROBE_TEXT!r}, before the corpus is read)"
    try:
        counted = count_texts([_PROBE_TEXT], normalizer=built.get("normalizer"), pre_tokenizer=built.get("pre_tokenizer"))
        # As if the words were frequent: a min_frequency is a limit of the real corpus, not of the probe's.
        counts = {word: n * _PROBE_FREQUENCY for word, n in counted.items()}
        trained = trainer.train(counts, model=model)
        if type(trained) is not type(model):  # a plugin trainer that does not check its template
            return [
                f"trainer: {trainer.type_name} trains {trained.type_name} models, but model.type is "
                f"{model.type_name}; make them match (or set only algorithm)"
            ]
    except TrainingError as exc:
        text = str(exc)
        # Limits that depend on the data (the alphabet of a real corpus) are not config errors.
        if "vocab_size" in text and "alphabet" in text:
            return []
        return [f"trainer: {_one_line(text)}{found}"]
    except ToolkitError as exc:
        return [f"trainer: {_one_line(str(exc))}{found}"]
    return _options_not_kept(model, trained, trainer, model_keys) + _unk_not_in_vocab(trained, trainer)


#: The trainer option that decides a model option of another name.
_DECIDED_BY = {"unk_id": "unk_token"}


def _options_not_kept(model: Any, trained: Any, trainer: Any, model_keys: frozenset[str]) -> list[str]:
    """The ``model`` options the config wrote that the trained model does not have: the trainer decides
    them (``WordPieceTrainer`` its ``continuing_subword_prefix``, as in Hugging Face), so they would be
    silently ignored. ``Tokenizer.train`` behaves the same; a config says so before the corpus is read."""
    given, kept = model.params(), trained.params()
    trainer_options = set(trainer.params())
    problems = []
    for key in sorted(model_keys & given.keys() & kept.keys()):
        if given[key] == kept[key]:
            continue
        if key in ("vocab", "merges"):  # what training learns: the trial run's own would only confuse
            problems.append(f"model.{key}: training learns the {key} and replaces these; remove it from the model "
                            "section (to encode with a given vocabulary, load that tokenizer instead of training one)")
            continue
        option = _DECIDED_BY.get(key, key)
        # the value only where it reads the same there (a model's special_tokens is a table, a trainer's a list)
        setting = f"trainer.{option}"
        if option == key and isinstance(given[key], str):
            setting += f" = {given[key]!r:.60}"
        fix = (f"set {setting} instead (the trainer's option decides)" if option in trainer_options
               else "remove it from the model section")
        problems.append(f"model.{key}: {given[key]!r:.60} is not kept: {trainer.type_name} trains a model whose "
                        f"{key} is {kept[key]!r:.60}; {fix}")
    return problems


def _unk_not_in_vocab(trained: Any, trainer: Any) -> list[str]:
    """A model whose ``unk_token`` is no token (``WordLevel``'s default ``<unk>`` when the trainer's
    special tokens lack it) fails on the first word outside its vocabulary: measuring the trained
    tokenizer on the corpus would fail after the whole training."""
    unk = getattr(trained, "unk_token", None)
    if not isinstance(unk, str) or unk in trained.get_vocab():
        return []
    return [f"model.unk_token: {unk!r:.60} is not in the vocabulary {trainer.type_name} trains, so a word outside "
            f"the vocabulary cannot be encoded; add {unk!r:.60} to trainer.special_tokens (or set model.unk_token "
            "to one of them)"]


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _summary(source: str, problems: list[str]) -> str:
    unique = list(dict.fromkeys(problems))
    return f"{source}: " + "; ".join(unique)


def _algorithm_names(models: Mapping[str, str]) -> list[str]:
    """How algorithms are spelled in configs: ``bpe``, ``byte_level_bpe``, ``word_piece``... and the type names."""
    snake = [re.sub(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name).lower() for name in models.values()]
    return [*models.values(), *snake, *(name.lower() for name in models.values())]  # the last spelling wins


def _format_errors(exc: ValidationError, model: type[BaseModel] | None = None) -> list[str]:
    out = []
    for loc, msg in validation_messages(exc, model, word="field", see="docs/cli.md for the schema"):
        path = ""
        for part in loc:
            path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
        out.append(f"{path or 'config'}: {msg}")
    return out


def _section_value(value: Any) -> Any:
    """A bare string is a component type with default options; ``"none"``/``"null"`` removes the section
    (TOML has no null, so ``--set normalizer=none`` is how a command line drops a preset's component)."""
    if isinstance(value, str):
        return None if value.lower() in ("none", "null") else {"type": value}
    return value


def _expand(data: dict[str, Any]) -> dict[str, Any]:
    """Accept bare strings for components before the preset/algorithm logic looks at the sections."""
    for section in PIPELINE_SECTIONS:
        if section in data:
            data[section] = _section_value(data[section])
    return data


def _norm_name(name: str) -> str:
    return re.sub(r"[\s_\-]", "", name).lower()


def _resolve_algorithm(data: dict[str, Any], problems: list[str]) -> None:
    """Fill ``model.type`` and ``trainer.type`` from ``algorithm`` (and the trainer from the model)."""
    from toolkit.registry import lookup, registered

    model = data.get("model")
    if model is None:
        model = data["model"] = {}
    trainer = data.get("trainer")
    if trainer is None:
        trainer = data["trainer"] = {}
    if not isinstance(model, dict) or not isinstance(trainer, dict):
        return  # the schema reports the wrong type
    algorithm = data.get("algorithm")
    if algorithm is not None:
        if not isinstance(algorithm, str):
            return
        models = {_norm_name(name): name for _, name, _ in registered("model")}
        model_type = models.get(_norm_name(algorithm))
        if model_type is None:
            problems.append(
                f"algorithm: unknown algorithm {algorithm!r}{did_you_mean(algorithm, _algorithm_names(models))}; "
                f"known: {', '.join(sorted(models.values()))} "
                "(case, '_' and '-' are ignored)"
            )
            data["algorithm"] = None
            return
        given = model.get("type")
        if given is not None and given != model_type:
            problems.append(f"algorithm: {algorithm!r} selects model type {model_type!r} but model.type is {given!r}; remove one")
            return
        model["type"] = model_type
    if "type" not in model:
        problems.append(
            "model.type: required field is missing "
            "(or set algorithm = \"bpe\" | \"byte_level_bpe\" | \"wordpiece\" | \"unigram\" | \"word_level\")"
        )
        return
    if "type" not in trainer:
        candidate = f"{model['type']}Trainer"
        try:
            lookup("model", model["type"])
        except (RegistryError, TypeError):
            return  # an unknown model type is reported by itself; a trainer named after it would only confuse
        try:
            lookup("trainer", candidate)
        except RegistryError:
            problems.append(f"trainer.type: required field is missing (no trainer is registered as {candidate!r})")
            return
        trainer["type"] = candidate


def _preset_sections(name: Any, problems: list[str]) -> dict[str, Any] | None:
    """The pipeline sections of the preset ``name`` (:data:`toolkit.training.presets.PRESETS`).

    A preset that builds only a tokenizer (``bert_pipeline``) leaves the trainer to the config (its
    ``trainer`` section, or the trainer of the model type).
    """
    from toolkit.interfaces import Trainer
    from toolkit.tokenizer import Tokenizer
    from toolkit.training.presets import PRESETS

    if not isinstance(name, str) or name not in PRESETS:
        problems.append(f"preset: unknown preset {name!r}{did_you_mean(name, PRESETS)}; known: {', '.join(sorted(PRESETS)) or 'none'}")
        return None
    built = PRESETS[name]()
    tokenizer, trainer = built if isinstance(built, tuple) and len(built) == 2 else (built, None)
    if not isinstance(tokenizer, Tokenizer) or not (trainer is None or isinstance(trainer, Trainer)):
        problems.append(f"preset: {name!r} built {type(built).__name__}; a preset builds a Tokenizer or a (Tokenizer, Trainer) pair")
        return None
    base = tokenizer.to_dict()
    sections: dict[str, Any] = {s: base.get(s) for s in PIPELINE_SECTIONS if s != "trainer"}
    sections["trainer"] = trainer.to_dict() if trainer is not None else None
    # The untrained model of a preset is only its type and encoding options: drop empty tables.
    sections["model"] = {k: v for k, v in (sections["model"] or {}).items() if v not in ({}, [], None)}
    return sections


def _written_model_options(data: Mapping[str, Any], items: Sequence[tuple[str, Any]]) -> frozenset[str]:
    """The ``model`` options the config itself (its file or a ``--set``) gives, not its preset."""
    model = data.get("model")
    keys = set(model) if isinstance(model, Mapping) else set()
    for key, value in items:
        parts = key.split(".")
        if parts[0] == "model" and len(parts) > 1:
            keys.add(parts[1])
        elif key == "model" and isinstance(value, Mapping):
            keys.update(value)
    return frozenset(k for k in keys if isinstance(k, str) and k != "type")


def _apply_preset(data: dict[str, Any], problems: list[str]) -> dict[str, Any]:
    """Start from the preset's pipeline; each config section overrides the preset's."""
    name = data.get("preset")
    if name is None:
        return data
    sections = _preset_sections(name, problems)
    if sections is None:
        data["preset"] = None
        return data
    for section, value in sections.items():
        mine = data.get(section)
        if value is None or section not in data:
            if section not in data:
                data[section] = value
            continue
        if isinstance(mine, dict) and isinstance(value, dict) and mine.get("type", value.get("type")) == value.get("type"):
            data[section] = {**value, **mine}
    return data


def _surrogate_problems(data: dict[str, Any]) -> list[str]:
    """A lone surrogate in a component or the metadata (a ``"\\ud800"`` escape in a JSON config, a
    ``--set`` value) would only fail when the tokenizer is saved, after training. Paths may hold one:
    a file name that is not UTF-8 reads so."""
    problems = []
    for section in (*PIPELINE_SECTIONS, "metadata"):
        found = lone_surrogate_in({section: data.get(section)})  # the path starts with the section
        if found is not None:
            path, value = found
            problems.append(f"{path}: {surrogate_problem(value)}; remove it or write the character itself")
    return problems


def load_config(path: str | os.PathLike[str], *, overrides: Sequence[str] = ()) -> TrainingConfig:
    """:meth:`TrainingConfig.from_file`."""
    return TrainingConfig.from_file(path, overrides=overrides)


# ---------------------------------------------------------------------------------------- training
def train_from_config(
    config: TrainingConfig,
    *,
    output: str | os.PathLike[str] | None = None,
    progress: Callable[[str, int, int], None] | None = None,
    write: bool = True,
) -> TrainingResult:
    """Count the corpus, train, record how the tokenizer was made, and write it (atomically, at the end).

    ``output`` overrides ``config.output``; with neither (or ``write=False``) nothing is written.
    ``progress(stage, done, total)`` hears ``"counting"`` (bytes) and the trainer's stages.

    >>> cfg = TrainingConfig.from_dict({"algorithm": "bpe", "corpus": {"texts": ["low lower lowest"] * 5},
    ...                                 "pre_tokenizer": "Whitespace", "trainer": {"vocab_size": 13}})
    >>> train_from_config(cfg).tokenizer.encode("lowest").tokens
    ['lowest']
    """
    t0 = time.perf_counter()
    tokenizer, trainer = config.build()
    if progress is not None and hasattr(trainer, "progress"):
        trainer.progress = progress  # trainers accept progress=callable(stage, done, total); not serialized
    corpus = config.corpus_spec()
    target = output if output is not None else config.output
    if write and target is not None:
        _check_target(target, corpus, config._source)
    fingerprint = corpus.fingerprint()
    with training_progress(trainer) as shown:  # the caller's progress, else the trainer's show_progress bar
        counted = _count(corpus, config, tokenizer, shown)
        if fingerprint is not None and corpus.fingerprint() != fingerprint:
            # Hashed again after counting: a file edited during the run would otherwise be recorded wrong.
            raise CorpusError("a corpus file changed while it was being read; train again on a stable corpus")
        if not any(n for word, n in counted.counts.items() if word):  # what checked_word_counts keeps
            raise TrainingError(f"cannot train on an empty corpus: {_what_was_read(corpus, counted)}")
        t1 = time.perf_counter()
        tokenizer.model = trainer.train(counted.counts, model=tokenizer.model)
        t2 = time.perf_counter()
    shortfall = trainer.check_reached(tokenizer.model)
    _check_post_processor(tokenizer)
    tokens = _tokens_on_counts(tokenizer.model, counted.counts)
    tokenizer.model.clear_cache()
    if hasattr(trainer, "progress"):
        trainer.progress = None
    result = TrainingResult(
        tokenizer=tokenizer,
        output=None,
        seconds=time.perf_counter() - t0,
        counting_seconds=counted.seconds,
        training_seconds=t2 - t1,
        documents=counted.documents,
        corpus_bytes=counted.bytes,
        distinct_words=len(counted.counts),
        tokens=tokens,
        workers=counted.workers,
        requested_vocab_size=getattr(trainer, "vocab_size", None),
        warnings=[shortfall] if shortfall else [],
    )
    tokenizer.metadata = {**config.metadata, METADATA_KEY: _record(config, fingerprint, result)}
    if write and target is not None:
        path = Path(target)
        path.parent.mkdir(parents=True, exist_ok=True)
        tokenizer.save(path)
        result.output = path
    return result


def _printable(value: Any) -> Any:
    """``value`` with every string made writable to a JSON file (:func:`_printable_path`)."""
    from toolkit.training.reading import _printable_path

    if isinstance(value, str):
        return _printable_path(value)
    if isinstance(value, dict):
        return {_printable(k): _printable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_printable(v) for v in value]
    return value


def output_problem(output: str | os.PathLike[str], *, reachable: bool = True) -> str | None:
    """What is wrong with ``output`` as the tokenizer file a training writes, or ``None``: an empty path,
    ``-`` (standard output, which takes no tokenizer file), a path ending in a slash or naming a directory,
    a NUL character, a name of another file format (our JSON under it would be read as that format and
    refused); with ``reachable``, also whatever would make the save refuse it
    (:func:`toolkit.serialization.write_problem`: a device, a path under a file, a folder nobody may write
    in, a read-only file)."""
    text = os.fspath(output)
    if not text:
        return "output: the path is empty; give a file path such as out/tokenizer.json"
    if text == "-":
        return "output: - (standard output) cannot take a tokenizer; give a file path such as out/tokenizer.json"
    if "\0" in text:
        return "output: the path holds a NUL character, which no file name can; give another path"
    from toolkit.interop.files import format_from_name

    path = Path(text)
    fmt = format_from_name(path)
    if fmt is not None:
        return (f"output: {text}: training writes the tokenizer as JSON, which a {path.suffix or path.name} name would pass off "
                f"as a {fmt} file; name it {path.with_suffix('.json').name}, then convert it "
                f"(tokenizer-toolkit convert {path.with_suffix('.json')} {text})")
    try:
        if path.is_dir() or names_a_folder(text):
            what = "is a directory" if path.is_dir() else "ends with a slash or a dot, which names a directory"
            return f"output: {text} {what}; give a file path such as {path / 'tokenizer.json'}"
    except OSError:
        pass  # a folder on the way that we may not look into: write_problem says so
    if not reachable:
        return None
    problem = write_problem(path)
    return f"output: {text}: {problem}" if problem is not None else None


def _check_target(target: str | os.PathLike[str], corpus: Corpus, config_file: str | None) -> None:
    """Refuse an output path that no file can have (:func:`output_problem`), or that names an input: the
    corpus or the config would be replaced by the tokenizer (checked before any text is read)."""
    from toolkit.interop.files import same_file

    problem = output_problem(target)
    if "\0" not in os.fspath(target):  # an input named as output is the worse mistake: said first
        inputs = [("a corpus file", Path(f.path)) for f in corpus.files] if corpus.sources else []
        if config_file is not None:
            inputs.append(("the config file", Path(config_file)))
        for kind, path in inputs:
            if path.exists() and same_file(Path(target), path):
                raise ConfigError(
                    f"output: {target} is {kind} of this training ({path}); writing the tokenizer there would "
                    "replace it: give another output path"
                )
    if problem is not None:
        raise ConfigError(problem)


def _what_was_read(corpus: Corpus, counted: CorpusCounts) -> str:
    """Where an empty count came from, for the error: the files read (the first three) and what they held."""
    files = [str(f.path) for f in corpus.files]
    where = ", ".join(files[:3]) + (f" and {len(files) - 3} more" if len(files) > 3 else "")
    source = f"the corpus files ({where})" if files else "the corpus texts"
    held = (f"{counted.documents:,} document(s), {counted.bytes:,} bytes" if counted.bytes
            else f"{counted.documents:,} document(s) and no text")
    fix = ("the normalizer and pre-tokenizer leave nothing of it; check that they do not drop everything"
           if counted.bytes else "check the corpus paths, or give files that hold text")
    return f"{source} held {held}: {fix}"


def _count(corpus: Corpus, config: TrainingConfig, tokenizer: Tokenizer,
           progress: Callable[[str, int, int], None] | None) -> CorpusCounts:
    """Word counts of ``corpus``, cut by the tokenizer's normalizer and pre-tokenizer."""
    from toolkit.training.corpus import count_corpus

    return count_corpus(
        corpus,
        normalizer=tokenizer.normalizer,
        pre_tokenizer=tokenizer.pre_tokenizer,
        num_workers=config.num_workers,
        progress=progress,
        backend=config.backend,
        scheduler=config.scheduler,
    )


def _record(config: TrainingConfig, fingerprint: dict[str, Any] | None, result: TrainingResult) -> dict[str, Any]:
    """How the tokenizer was made: toolkit version, effective config, corpus fingerprint, statistics."""
    from toolkit import __version__

    return {
        "toolkit_version": __version__,
        "config": _printable(config.effective()),  # paths from the command line may not be UTF-8
        "corpus": fingerprint if fingerprint is not None else {"sha256": None, "files": []},
        "stats": {
            "documents": result.documents,
            "bytes": result.corpus_bytes,
            "distinct_words": result.distinct_words,
            "tokens": result.tokens,
            "bytes_per_token": round(result.bytes_per_token, 4),
        },
    }
