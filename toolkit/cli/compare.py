"""The ``tokenizer-toolkit compare`` command: compare tokenizers on texts, write report.md and plots.

This module owns the command's arguments, its config file (:class:`CompareConfig`), and its output.
:mod:`toolkit.cli.main` adds it to the command line, and owns the error policy (one line on stderr;
exit 2 for usage and configuration errors, 1 for runtime errors).

::

    tokenizer-toolkit compare compare.toml
    tokenizer-toolkit compare -t out/bpe.json -t wp=out/wordpiece.json --texts held_out.txt -o out/compare
    tokenizer-toolkit compare -c examples/configs/bpe.toml -c examples/configs/wordpiece.toml \\
        --lang en=english.txt --lang fr=french.txt --sweep 500,1000,2000
    tokenizer-toolkit compare -t gpt4o=tokenizer.json -t ours=out/bpe.json --parallel-sample

It prints the tables and writes ``report.md``, ``report.json`` and PNG plots (``token_lengths.png``,
``fertility_by_language.png``, ``sweep_bytes_per_token.png``...) to the output folder. A config file
(TOML, YAML or JSON) says the same as the options::

    output_dir = "out/compare"
    max_bytes = 2_000_000                 # text read per language (default 2 MB)
    texts = ["out/corpus/pydoc_topics_heldout.txt"]   # or a table: [texts] en = [...] fr = "..."

    [tokenizers]
    BPE = "out/bpe.json"                              # a tokenizer file, any format `encode` reads
    WordPiece = { config = "examples/configs/wordpiece.toml", set = ["trainer.vocab_size=1000"] }
    GPT-2 = { file = "vocab/gpt2/encoder.json", from = "vocab-merges" }

    [sweep]                                           # retrain the config tokenizers at each size
    vocab_sizes = [500, 1000, 2000]

>>> args = build_parser().parse_args(["-t", "a.json", "--texts", "t.txt"])
>>> args.tokenizer, args.texts, args.output_dir
(['a.json'], ['t.txt'], None)
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from toolkit.cli.commands import integer, warn
from toolkit.errors import ConfigError, VocabSizeWarning
from toolkit.interop.files import TOKENIZER_FORMATS
from toolkit.options import refuse_bool, validation_messages
from toolkit.serialization import write_problem

if TYPE_CHECKING:
    from toolkit.analysis.report import ComparisonReport
    from toolkit.analysis.sweep import SweepResult
    from toolkit.tokenizer import Tokenizer

__all__ = ["CompareConfig", "add_arguments", "build_parser", "run", "DEFAULT_OUTPUT_DIR", "DEFAULT_MAX_BYTES"]

DEFAULT_OUTPUT_DIR = "out/compare"
DEFAULT_MAX_BYTES = 2_000_000


# ---------------------------------------------------------------------------------------- config
class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class TokenizerSpec(_Strict):
    """One tokenizer of a comparison: a tokenizer ``file`` or a training ``config`` (exactly one)."""

    file: str | None = Field(None, description="Tokenizer file: ours, HF tokenizer.json, vocab.txt, vocab.json, .tiktoken.")
    config: str | None = Field(None, description="Training config; the tokenizer is trained in memory (not written).")
    from_format: str = Field("auto", alias="from", description="Format of `file` (as `--from` of the CLI).")
    pattern: str | None = Field(None, description=".tiktoken files: split pattern name or regex.")
    set: list[str] = Field(default_factory=list, description="Overrides of the training config (`trainer.vocab_size=1000`).")

    @model_validator(mode="after")
    def _one_source(self) -> TokenizerSpec:
        if (self.file is None) == (self.config is None):
            raise ValueError("give exactly one of file or config")
        if self.set and self.config is None:
            raise ValueError("set applies to a training config only")
        return self


class SweepSpec(_Strict):
    """Retrain every config tokenizer at each vocabulary size (compression-vs-size curves)."""

    vocab_sizes: list[int] = Field(min_length=1, description="Vocabulary sizes to train at.")
    corpus: list[str] | None = Field(None, description="Training files for every pipeline (default: each config's corpus).")
    metrics: list[str] = Field(default_factory=lambda: ["bytes_per_token", "renyi_efficiency"],
                               description="One plot per metric.")

    @field_validator("vocab_sizes", mode="before")
    @classmethod
    def _no_bools(cls, value: Any) -> Any:
        if isinstance(value, list):
            for item in value:
                refuse_bool(item)
        return value

    @model_validator(mode="after")
    def _check(self) -> SweepSpec:
        from toolkit.analysis.metrics import METRICS

        bad = [v for v in self.vocab_sizes if v < 1]
        if bad:
            raise ValueError(f"vocab_sizes must be positive, got {bad}")
        unknown = [m for m in self.metrics if m not in METRICS]
        if unknown:
            raise ValueError(f"unknown metric(s) {', '.join(unknown)}; choose from {', '.join(METRICS)}")
        unmeasured = [m for m in self.metrics if m in _NOT_IN_SWEEPS]
        if unmeasured:
            raise ValueError(f"{', '.join(unmeasured)} is not measured in a sweep (no timing pass, no reference "
                             "language); choose another metric")
        return self


#: Metrics a sweep never measures (its points have no timing pass and no reference language).
_NOT_IN_SWEEPS = ("throughput", "parity")


class CompareConfig(_Strict):
    """The ``compare`` config file (every field also has a command-line option)."""

    output_dir: str = Field(DEFAULT_OUTPUT_DIR, description="Folder for report.md, report.json and the PNG plots.")
    max_bytes: int = Field(DEFAULT_MAX_BYTES, ge=1, description="UTF-8 bytes of text read per language, at most.")
    texts: list[str] | dict[str, list[str]] = Field(
        default_factory=list, description="Evaluation text files (one document per line), or {language: files}."
    )
    tokenizers: dict[str, TokenizerSpec] = Field(default_factory=dict, description="Display name → tokenizer.")
    corpus: list[str] | None = Field(None, description="Training files for every config tokenizer (default: each config's own).")
    vocab_size: int | None = Field(None, ge=1, description="Vocabulary size of every config tokenizer (default: each config's own).")
    sweep: SweepSpec | None = Field(None, description="Optional vocabulary-size sweep of the config tokenizers.")
    plots: bool = Field(True, description="Write PNG plots (needs matplotlib).")
    timing_repeats: int = Field(1, ge=1, description="Encode-throughput passes (the best counts).")
    renyi_alpha: float = Field(2.5, gt=0, description="Order α of the Rényi efficiency (1 is Shannon's).")
    reference: str | None = Field(None, description="Reference language of parity (texts must be parallel).")
    parallel_sample: bool | list[str] = Field(
        False, description="Use the shipped parallel sample as texts (reference: en); a list: only these languages."
    )
    unreachable: bool = Field(True, description="Check every token for reachability (one encode per token).")

    @field_validator("max_bytes", "vocab_size", "timing_repeats", "renyi_alpha", mode="before")
    @classmethod
    def _numbers_not_bools(cls, value: Any) -> Any:
        return refuse_bool(value)

    @model_validator(mode="after")
    def _texts_or_sample(self) -> CompareConfig:
        if self.parallel_sample and self.texts:
            raise ValueError("give either texts or parallel_sample = true, not both")
        if self.reference is not None and not (isinstance(self.texts, dict) or self.parallel_sample):
            raise ValueError("reference needs texts per language ([texts] en = ..., or parallel_sample = true)")
        return self

    @model_validator(mode="before")
    @classmethod
    def _shorthands(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        data = dict(data)
        texts = data.get("texts")
        if isinstance(texts, str):
            data["texts"] = [texts]
        elif isinstance(texts, dict):
            data["texts"] = {k: [v] if isinstance(v, str) else v for k, v in texts.items()}
        toks = data.get("tokenizers")
        if isinstance(toks, dict):
            data["tokenizers"] = {k: {"file": v} if isinstance(v, str) else v for k, v in toks.items()}
        if isinstance(data.get("corpus"), str):
            data["corpus"] = [data["corpus"]]
        sweep = data.get("sweep")
        if isinstance(sweep, dict) and isinstance(sweep.get("corpus"), str):
            data["sweep"] = {**sweep, "corpus": [sweep["corpus"]]}
        return data

    @classmethod
    def from_dict(cls, data: Any, *, source: str = "compare config") -> CompareConfig:
        """Validate ``data``; every problem is a :class:`ConfigError` naming the field."""
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            problems = [f"{'.'.join(map(str, loc)) or '(top level)'}: {msg}"
                        for loc, msg in validation_messages(exc, cls, word="field", see="docs/compare.md")]
            raise ConfigError(f"{source}: " + "; ".join(problems)) from None

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> CompareConfig:
        """Read a TOML, YAML or JSON config file."""
        from toolkit.training.config import read_config_file

        return cls.from_dict(read_config_file(path), source=str(path))


# ---------------------------------------------------------------------------------------- parser
def _name_and_path(value: str) -> tuple[str | None, str]:
    """``NAME=PATH`` or ``PATH`` (a path that exists is never split at ``=``)."""
    name, sep, path = value.partition("=")
    if sep and name and path and not os.path.exists(value):
        return name, path
    return None, value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``compare`` options to ``parser``."""
    parser.add_argument("config", nargs="?", help="compare config (TOML, YAML or JSON; see docs/compare.md)")
    parser.add_argument("-t", "--tokenizer", action="append", default=[], metavar="[NAME=]FILE",
                        help="tokenizer file (ours, HF tokenizer.json, vocab.txt, vocab.json, .tiktoken); repeatable")
    parser.add_argument("--from", dest="from_format", choices=TOKENIZER_FORMATS, default=None, metavar="FMT",
                        help="format of every -t file (default: from its name and content; "
                        "a config's tokenizers take from = FMT each)")
    parser.add_argument("--pattern", help="-t .tiktoken files: split pattern (GPT2_PATTERN, CL100K_PATTERN, "
                        "O200K_PATTERN, CHAT_PATTERN, a short name such as cl100k, or a regex)")
    parser.add_argument("-c", "--train", action="append", default=[], metavar="[NAME=]CONFIG",
                        help="training config: train it in memory and compare the result; repeatable")
    parser.add_argument("--texts", action="append", default=[], metavar="PATH",
                        help="evaluation text files, folders or globs (one document per line); repeatable")
    parser.add_argument("--lang", action="append", default=[], metavar="LANG=PATH",
                        help="evaluation texts of one language (metrics per language); repeatable")
    parser.add_argument("--corpus", action="append", default=[], metavar="PATH",
                        help="training files for every -c config (instead of each config's corpus); repeatable")
    parser.add_argument("--vocab-size", type=integer(1), metavar="N",
                        help="train every -c config at this vocabulary size (equal sizes side by side)")
    parser.add_argument("--max-bytes", type=integer(1), metavar="N",
                        help=f"read at most N bytes of text per language (default {DEFAULT_MAX_BYTES:,})")
    parser.add_argument("--sweep", metavar="SIZES", help="comma-separated vocabulary sizes: retrain each -c config at each size")
    parser.add_argument("-o", "--output-dir", metavar="DIR",
                        help=f"where report.md, report.json and plots go (default {DEFAULT_OUTPUT_DIR})")
    parser.add_argument("--no-plots", action="store_true", help="do not write PNG plots")
    parser.add_argument("--json", action="store_true", help="print the report as JSON instead of tables")
    parser.add_argument("--reference", metavar="LANG",
                        help="reference language of parity: the --lang texts must be parallel (line i translates i)")
    parser.add_argument("--parallel-sample", action="store_true",
                        help="evaluate on the parallel sample shipped with the toolkit (6 languages; reference en)")
    parser.add_argument("--renyi-alpha", type=float, metavar="A", help="order of the Rényi efficiency (default 2.5)")
    parser.add_argument("--no-unreachable", action="store_true", help="skip the unreachable-token check")


def build_parser() -> argparse.ArgumentParser:
    """A standalone parser of the ``compare`` options (the CLI adds the same to its subcommand)."""
    parser = argparse.ArgumentParser(prog="tokenizer-toolkit compare")
    add_arguments(parser)
    return parser


def _effective_config(args: argparse.Namespace) -> CompareConfig:
    """The config file (if any) with the command-line options applied over it."""
    config = CompareConfig.from_file(args.config) if args.config else CompareConfig.from_dict({})
    data = config.model_dump(by_alias=True)
    source = "command line"
    file_options = {k: v for k, v in (("from", getattr(args, "from_format", None)),
                                      ("pattern", getattr(args, "pattern", None))) if v is not None}
    if file_options and not args.tokenizer:
        raise ConfigError(f"compare: --{next(iter(file_options))} applies to -t files; give -t FILE "
                          "(in a config, each tokenizer takes from = FMT / pattern = P)")
    for value in args.tokenizer:
        name, path = _name_and_path(value)
        data["tokenizers"][name or Path(path).stem] = {"file": path, **file_options}
    for value in args.train:
        name, path = _name_and_path(value)
        data["tokenizers"][name or Path(path).stem] = {"config": path}
    if len(data["tokenizers"]) < len(config.tokenizers) + len(args.tokenizer) + len(args.train):
        raise ConfigError("compare: two tokenizers have the same name; name them: -t NAME=FILE, -c NAME=CONFIG")
    if args.texts and args.lang:
        raise ConfigError("compare: use either --texts or --lang, not both")
    if args.texts:
        data["texts"] = list(args.texts)
    if args.lang:
        langs: dict[str, list[str]] = {}
        for value in args.lang:
            lang, sep, path = value.partition("=")
            if not sep or not lang or not path:
                raise ConfigError(f"compare: --lang expects LANG=PATH, got {value!r}")
            langs.setdefault(lang, []).append(path)
        data["texts"] = langs
    if args.max_bytes is not None:
        data["max_bytes"] = args.max_bytes
    if getattr(args, "corpus", None):
        data["corpus"] = list(args.corpus)
    if getattr(args, "vocab_size", None) is not None:
        data["vocab_size"] = args.vocab_size
    if args.sweep:
        try:
            sizes = [int(v) for v in args.sweep.replace(" ", "").split(",")]  # an empty item is an error too
        except ValueError:
            raise ConfigError(f"compare: --sweep expects comma-separated integers, got {args.sweep!r}") from None
        data["sweep"] = {**(data.get("sweep") or {}), "vocab_sizes": sizes}
    if args.output_dir is not None:  # "" too: refused, not the default folder
        data["output_dir"] = args.output_dir
    if args.no_plots:
        data["plots"] = False
    for key in ("reference", "renyi_alpha"):
        if getattr(args, key, None) is not None:
            data[key] = getattr(args, key)
    if getattr(args, "parallel_sample", False):
        data["parallel_sample"] = True
    if getattr(args, "no_unreachable", False):
        data["unreachable"] = False
    # The file validated alone above: what fails now comes from the command line (or how it combines
    # with the file).
    return CompareConfig.from_dict(data, source=f"{source} (over {args.config})" if args.config else source)


# ---------------------------------------------------------------------------------------- inputs
def read_texts(paths: Sequence[str], *, max_bytes: int) -> list[str]:
    """Lines (documents) of the files, in order, each with its line break, up to ``max_bytes`` UTF-8 bytes
    in all: the line that reaches the limit is cut there (at a character boundary). A byte-order mark
    starting a line (a file's) is no text and is dropped."""
    from toolkit.training.corpus import Corpus

    out: list[str] = []
    room = max_bytes
    for text in Corpus(sources=list(paths)).iter_texts():
        if room <= 0:
            break
        text = text.removeprefix("\ufeff")
        data = text.encode("utf-8", "surrogatepass")
        if len(data) > room:
            text = data[:room].decode("utf-8", "ignore")  # a character cut in two is left out
        if text:
            out.append(text)
        room -= len(data)
    return out


def _overrides(config: CompareConfig, spec: TokenizerSpec) -> list[Any]:
    """The compare config's ``corpus`` and ``vocab_size`` as overrides of a training config, then its ``set``."""
    shared: list[Any] = []
    if config.corpus:
        shared.append(("corpus", {"files": list(config.corpus)}))
    if config.vocab_size is not None:
        shared.append(("trainer.vocab_size", config.vocab_size))
    return [*shared, *spec.set]


def _load(config: CompareConfig, spec: TokenizerSpec, progress: Any) -> tuple[Tokenizer, float | None]:
    if spec.file is not None:
        from toolkit.interop.files import load_tokenizer

        return load_tokenizer(spec.file, format=spec.from_format, pattern=spec.pattern), None
    from toolkit.training.config import load_config, train_from_config

    cfg = load_config(spec.config, overrides=_overrides(config, spec))  # type: ignore[arg-type]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", VocabSizeWarning)  # reported below, as one line (as `train` does)
        result = train_from_config(cfg, progress=progress, write=False)
    for message in result.warnings:
        warn(message)
    return result.tokenizer, result.training_seconds


def _evaluation_texts(config: CompareConfig) -> tuple[Any, dict[str, list[str]], str | None]:
    """The texts to measure (a list, or ``{language: texts}``), where they came from, and the reference."""
    if config.parallel_sample:
        from toolkit.analysis.parallel import parallel_sample

        sample = parallel_sample(None if config.parallel_sample is True else config.parallel_sample)
        reference = config.reference or ("en" if "en" in sample else None)  # English when the sample has it
        return sample, {lang: ["the parallel sample"] for lang in sample}, reference
    sources: dict[str, list[str]] = config.texts if isinstance(config.texts, dict) else {"": config.texts}
    texts: Any = {lang: read_texts(paths, max_bytes=config.max_bytes) for lang, paths in sources.items()}
    if not isinstance(config.texts, dict):
        texts = texts[""]
    return texts, sources, config.reference


def _run_sweep(config: CompareConfig, texts: Any, progress: Any) -> SweepResult | None:
    from toolkit.analysis.sweep import SweepResult, sweep
    from toolkit.training.config import load_config

    if config.sweep is None:
        return None
    groups: dict[str, tuple[Any, dict[str, Any]]] = {}
    for name, spec in config.tokenizers.items():
        if spec.config is None:
            continue
        cfg = load_config(spec.config, overrides=_overrides(config, spec))
        corpus = list(config.sweep.corpus) if config.sweep.corpus else cfg.corpus_spec()
        key = json.dumps(config.sweep.corpus) if config.sweep.corpus else cfg.corpus.model_dump_json()
        groups.setdefault(key, (corpus, {}))[1][name] = cfg.build()
    if not groups:
        raise ConfigError("compare: a sweep retrains training configs; give tokenizers as configs (-c CONFIG or config = ...)")
    points, counting = [], {}
    for corpus, pipelines in groups.values():
        part = sweep(pipelines, corpus, vocab_sizes=config.sweep.vocab_sizes, texts=texts, num_workers=None,
                     progress=progress, renyi_alpha=config.renyi_alpha, check_unreachable=config.unreachable)
        points += part.points
        counting.update(part.counting_seconds)
    order = list(config.tokenizers)
    points.sort(key=lambda p: (order.index(p.name), p.requested_vocab_size))
    return SweepResult(points, counting)


def _markdown(config: CompareConfig, report: ComparisonReport, result: SweepResult | None, plots: list[Path],
              sources: Mapping[str, Sequence[str]]) -> str:
    from toolkit.analysis.tables import markdown_cell, markdown_text

    lines = ["# Tokenizer comparison", ""]
    lines.append("| tokenizer | source |")
    lines.append("|---|---|")
    for name, spec in config.tokenizers.items():
        if spec.file:
            where = f"`{spec.file}`"
        else:
            changes = [f"corpus {', '.join(config.corpus)}"] if config.corpus else []
            if config.vocab_size is not None:
                changes.append(f"trainer.vocab_size={config.vocab_size}")
            changes += spec.set
            where = f"trained from `{spec.config}`" + (f" with {', '.join(changes)}" if changes else "")
        lines.append(f"| {markdown_text(name)} | {markdown_cell(where)} |")  # where: code spans kept
    lines.append("")
    if config.parallel_sample:
        lines.append(f"- Texts: the parallel sample of tokenizer-toolkit ({', '.join(sources)}; 20 aligned sentences each)")
    for lang, paths in sources.items() if not config.parallel_sample else ():
        label = f"{lang}: " if lang else "Texts: "
        lines.append(f"- {label}{', '.join(f'`{p}`' for p in paths)} (at most {config.max_bytes:,} bytes)")
    if report.reference is not None:
        lines.append(f"- Parity reference: {report.reference}")
    lines.append("")
    out = "\n".join(lines) + "\n" + report.to_markdown(title=None)
    if result is not None:
        out += "\n" + result.to_markdown()
    if plots:
        out += "\n## Plots\n\n" + "\n\n".join(f"![{p.stem.replace('_', ' ')}]({p.name})" for p in plots) + "\n"
    out += "\nMetric definitions: docs/compare.md of tokenizer-toolkit.\n"
    return out


# ---------------------------------------------------------------------------------------- run
def run(args: argparse.Namespace) -> int:
    """Run ``compare``: load or train the tokenizers, measure, print, write the files; the exit code."""
    from toolkit.analysis.report import compare
    from toolkit.cli.progress import progress_bar
    from toolkit.interop._io import write_as_unit
    from toolkit.serialization import atomic_write_text

    config = _effective_config(args)
    if not config.tokenizers:
        raise ConfigError("compare: no tokenizers; give -t FILE / -c CONFIG, or a [tokenizers] table in the config")
    if not config.texts and not config.parallel_sample:
        raise ConfigError("compare: no evaluation texts; give --texts FILE, --lang LANG=FILE, --parallel-sample, "
                          "or texts in the config")
    quiet = bool(getattr(args, "quiet", False))
    texts, sources, reference = _evaluation_texts(config)
    plots = config.plots and _can_plot()
    problem = _output_problem(config, plots=plots, languages=isinstance(texts, dict), reference=reference is not None)
    if problem is not None:  # before anything is loaded, trained or measured
        raise ConfigError(problem)
    bar = progress_bar(quiet=quiet, force=bool(getattr(args, "progress", False)))
    tokenizers: dict[str, Tokenizer] = {}
    seconds: dict[str, float] = {}
    try:
        for name, spec in config.tokenizers.items():
            tok, trained = _load(config, spec, bar)
            tokenizers[name] = tok
            if trained is not None:
                seconds[name] = trained
        report = compare(tokenizers, texts, training_seconds=seconds, timing_repeats=config.timing_repeats,
                         renyi_alpha=config.renyi_alpha, reference=reference, check_unreachable=config.unreachable)
        result = _run_sweep(config, texts, bar)
    finally:
        bar.close()
    out = Path(config.output_dir)
    settings = config.model_dump(by_alias=True)
    if math.isinf(settings.get("renyi_alpha", 0)):
        settings["renyi_alpha"] = "inf"  # JSON has no infinity (as in the report)
    data = {"config": settings, "report": report.to_dict(),
            "sweep": result.to_dict() if result is not None else None}

    def write(staging: Path) -> list[Path]:
        names = []
        if plots:
            from toolkit.analysis.plots import save_plots

            names = save_plots(report, staging, sweep=result, sweep_metrics=config.sweep.metrics if config.sweep else ())
        atomic_write_text(staging / "report.json", json.dumps(data, ensure_ascii=False, indent=2) + "\n")
        atomic_write_text(staging / "report.md", _markdown(config, report, result, names, sources))
        return [staging / "report.md", staging / "report.json", *names]

    written = write_as_unit(out, write)  # all files or none, the reports of a previous run kept on failure
    if args.json:
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    else:
        sys.stdout.write(report.to_text() + "\n")
        if result is not None:
            sys.stdout.write("\n" + result.to_text() + "\n")
    if not quiet and not args.json:
        sys.stdout.write(f"\nwrote {', '.join(p.name for p in written)} to {out}\n")
    return 0


def _can_plot() -> bool:
    """Whether matplotlib is there; if not, a warning says how to get the plots."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        sys.stderr.write('tokenizer-toolkit: warning: plots skipped: matplotlib is not installed '
                         '(pip install "tokenizer-toolkit[compare]")\n')
        return False
    return True


def _output_problem(config: CompareConfig, *, plots: bool, languages: bool, reference: bool) -> str | None:
    """Why the files of this run could not be written into ``config.output_dir`` (a file, a device, a
    folder named report.md...), checked before anything is measured; ``None`` if nothing is in the way."""
    from toolkit.analysis.plots import plot_names

    where = f"compare: output_dir (-o DIR) {config.output_dir}"
    if not config.output_dir:
        return f"compare: output_dir (-o DIR): the path is empty; give a folder such as {DEFAULT_OUTPUT_DIR}"
    names = ["report.json", "report.md"]
    if plots:
        names += plot_names(languages=languages, reference=reference,
                            sweep_metrics=config.sweep.metrics if config.sweep else ())
    for name in names:
        problem = write_problem(Path(config.output_dir) / name)
        if problem is not None:
            return f"{where}: cannot write {name} there: {problem}"
    return None
