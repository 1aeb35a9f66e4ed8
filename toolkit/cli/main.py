"""The command line: ``tokenizer-toolkit <command>`` and ``python -m toolkit <command>``.

This module owns argument parsing, reading tokenizers in any supported format, the output of each
command, progress bars, and the error policy:

- ``train CONFIG [--set KEY=VALUE ...] [--output PATH] [--num-workers N]`` trains from a config file
  (:mod:`toolkit.training.config`) and prints a one-line summary;
- ``encode TOKENIZER [TEXT] [--file PATH] [--lines] [--format ids|tokens|json] [--allowed-special ...]``;
- ``decode TOKENIZER [IDS ...] [--file PATH] [--lines] [--skip-special-tokens]``;
- ``inspect TOKENIZER [--top N] [--json]``: vocabulary size, special tokens, pipeline, first and longest tokens;
- ``convert INPUT OUTPUT [--from FMT] [--to FMT]``: between our JSON, Hugging Face ``tokenizer.json``,
  BERT ``vocab.txt``, GPT-2 ``vocab.json`` + ``merges.txt`` and ``.tiktoken`` files.

Global options (before or after the command): ``--quiet`` (no progress, no summary), ``--progress``
(progress bars even when stderr is not a terminal), ``--debug`` (tracebacks).

Errors are one line on stderr. Exit codes: 0 success, 2 usage or configuration error (bad option,
bad config, unknown component, training request that cannot be met), 1 runtime error (unreadable
corpus or tokenizer file, invalid input), 130 interrupted.

>>> main(["encode", "--help"])  # doctest: +SKIP
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NoReturn

from toolkit.errors import (
    ConfigError,
    InputError,
    RegistryError,
    SerializationError,
    ToolkitError,
    TrainingError,
)

if TYPE_CHECKING:
    from toolkit.tokenizer import Tokenizer

__all__ = ["main", "build_parser", "ProgressBar", "load_tokenizer", "TOKENIZER_FORMATS"]

PROG = "tokenizer-toolkit"

#: Formats ``--from`` / ``--to`` accept.
TOKENIZER_FORMATS = ("auto", "toolkit", "hf", "vocab-txt", "vocab-merges", "tiktoken")

class _UsageError(Exception):
    """A command-line usage problem: one line, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # argparse prints usage + message over lines; we want one
        raise _UsageError(f"{self.prog}: error: {message} (see {self.prog} --help)")


# ---------------------------------------------------------------------------------------- progress
class ProgressBar:
    """A ``progress(stage, done, total)`` callback that draws one updating line on a stream.

    Drawn only when ``enabled`` (by default: the stream is a terminal). Redraws at most ten times a
    second; a new stage ends the previous line. ``"counting"`` values are bytes.

    >>> import io
    >>> bar = ProgressBar(io.StringIO(), enabled=True)
    >>> bar("merges", 5, 10); bar.close()
    """

    def __init__(self, stream: IO[str] | None = None, *, enabled: bool | None = None, width: int = 30) -> None:
        self.stream = stream if stream is not None else sys.stderr
        if enabled is None:
            enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.enabled = enabled
        self.width = width
        self._stage: str | None = None
        self._started = 0.0
        self._last = 0.0
        self._drawn = False

    def __call__(self, stage: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if stage != self._stage:
            self._finish()
            self._stage, self._started, self._last = stage, now, 0.0
        final = total > 0 and done >= total
        if not final and now - self._last < 0.1:
            return
        self._last = now
        self.stream.write("\r" + self._line(stage, done, total, now - self._started) + "\x1b[K")
        self.stream.flush()
        self._drawn = True

    def _line(self, stage: str, done: int, total: int, elapsed: float) -> str:
        as_bytes = stage == "counting"
        fmt = _mb if as_bytes else (lambda n: f"{n:,}")
        rate = done / elapsed if elapsed > 0 else 0.0
        speed = f"{rate / 1e6:.1f} MB/s" if as_bytes else f"{rate:,.0f}/s"
        if total > 0:
            frac = min(1.0, done / total)
            filled = int(frac * self.width)
            bar = "#" * filled + "." * (self.width - filled)
            eta = (total - done) / rate if rate > 0 and done < total else 0.0
            return f"{stage:<10} [{bar}] {frac:4.0%} {fmt(done)}/{fmt(total)} {speed} ETA {eta:.0f}s"
        return f"{stage:<10} {fmt(done)} {speed} {elapsed:.0f}s"

    def _finish(self) -> None:
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
            self._drawn = False

    def close(self) -> None:
        """End the current line (call before printing anything else to the stream)."""
        if self.enabled:
            self._finish()


def _mb(n: int) -> str:
    return f"{n / 1e6:.1f} MB"


# ---------------------------------------------------------------------------------------- reading tokenizers
def _detect_json(path: Path) -> str:
    try:
        with open(path, encoding="utf-8") as fh:
            head = fh.read(65536)
    except OSError as exc:
        raise SerializationError(f"{path}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise SerializationError(f"{path}: not UTF-8 text") from None
    compact = head.replace(" ", "").replace("\n", "")
    if '"format":"tokenizer-toolkit"' in compact:
        return "toolkit"
    if '"added_tokens"' in compact or ('"model":{' in compact and '"version":"' in compact):
        return "hf"
    return "vocab-merges"


def detect_format(path: str | os.PathLike[str]) -> str:
    """Guess a tokenizer file's format from its name and first bytes.

    ``.tiktoken`` → ``tiktoken``; ``.txt`` → ``vocab-txt``; a folder or ``.bpe`` → ``vocab-merges``;
    ``.json`` → ``toolkit`` (our format), ``hf`` (``tokenizer.json``) or ``vocab-merges`` (``vocab.json``).
    """
    p = Path(path)
    name = p.name.lower()
    if p.is_dir() or name.endswith(".bpe"):
        return "vocab-merges"
    if name.endswith(".tiktoken"):
        return "tiktoken"
    if name.endswith(".txt"):
        return "vocab-txt"
    if name.endswith(".json"):
        if not p.exists():
            raise SerializationError(f"{p}: no such tokenizer file")
        return _detect_json(p)
    raise ConfigError(f"{p}: cannot tell the tokenizer format from the name; pass --from {{{','.join(TOKENIZER_FORMATS[1:])}}}")


def _vocab_merges_pair(path: Path, merges: str | None) -> tuple[Path, Path]:
    """(vocab.json, merges.txt) from a folder, either file of the pair, or an explicit --merges."""
    if path.is_dir():
        candidates = [(path / "vocab.json", path / "merges.txt"), (path / "encoder.json", path / "vocab.bpe")]
        for v, m in candidates:
            if v.exists() and m.exists():
                return v, m
        raise SerializationError(f"{path}: expected vocab.json + merges.txt (or encoder.json + vocab.bpe) in the folder")
    if merges is not None:
        return path, Path(merges)
    siblings = {
        "vocab.json": "merges.txt", "encoder.json": "vocab.bpe", "merges.txt": "vocab.json", "vocab.bpe": "encoder.json",
    }
    name = path.name
    for a, b in siblings.items():
        if name.endswith(a):
            other = path.with_name(name[: -len(a)] + b)
            if other.exists():
                return (path, other) if a.endswith("json") else (other, path)
    raise SerializationError(f"{path}: cannot find the matching merges file; pass --merges PATH")


def _pattern(value: str | None) -> str | None:
    if value is None:
        return None
    import pretokenizers

    named = getattr(pretokenizers, value, None) or getattr(pretokenizers, value.upper() + "_PATTERN", None)
    return named if isinstance(named, str) else value


def load_tokenizer(
    path: str | os.PathLike[str],
    *,
    format: str = "auto",
    merges: str | None = None,
    pattern: str | None = None,
    lowercase: bool | None = None,
) -> Tokenizer:
    """Read a tokenizer in any supported format (see :data:`TOKENIZER_FORMATS`).

    >>> load_tokenizer("no-such.json")
    Traceback (most recent call last):
    ...
    toolkit.errors.SerializationError: no-such.json: no such tokenizer file
    """
    from toolkit.tokenizer import Tokenizer

    p = Path(path)
    fmt = detect_format(p) if format == "auto" else format
    if fmt != "vocab-merges" and not p.exists():
        raise SerializationError(f"{p}: no such tokenizer file")
    if fmt == "toolkit":
        return Tokenizer.load(p)
    from toolkit import interop

    if fmt == "hf":
        return interop.load_hf_json(p)
    if fmt == "vocab-txt":
        return interop.from_bert_vocab(p) if lowercase is None else interop.from_bert_vocab(p, lowercase=lowercase)
    if fmt == "vocab-merges":
        vocab, merge_file = _vocab_merges_pair(p, merges)
        return interop.from_gpt2(vocab, merge_file)
    if fmt == "tiktoken":
        return interop.from_tiktoken(p, pattern=_pattern(pattern))
    raise ConfigError(f"--from: unknown format {fmt!r}; choose one of {', '.join(TOKENIZER_FORMATS)}")


def _save_as(tok: Tokenizer, output: Path, fmt: str, *, indent: int | None) -> str:
    from toolkit import interop

    if fmt == "toolkit":
        tok.save(output, indent=indent)
        return str(output)
    if fmt == "hf":
        interop.save_hf_json(tok, output, indent=indent)
        return str(output)
    if fmt == "vocab-txt":
        interop.save_bert_vocab(tok, output)
        return str(output)
    if fmt == "tiktoken":
        interop.save_tiktoken(tok, output)
        return str(output)
    if fmt == "vocab-merges":
        output.mkdir(parents=True, exist_ok=True)
        paths = interop.save_vocab_merges(tok, output)
        return " + ".join(str(x) for x in paths)
    raise ConfigError(f"--to: unknown format {fmt!r}; choose one of {', '.join(TOKENIZER_FORMATS)}")


def _output_format(output: Path, source_format: str) -> str:
    name = output.name.lower()
    if name.endswith(".tiktoken"):
        return "tiktoken"
    if name.endswith(".txt"):
        return "vocab-txt"
    if name.endswith(".json"):
        # Converting our file to .json means "export to Hugging Face"; anything else comes into ours.
        return "hf" if source_format == "toolkit" else "toolkit"
    if output.is_dir() or not output.suffix:
        return "vocab-merges"
    raise ConfigError(f"{output}: cannot tell the output format from the name; pass --to {{{','.join(TOKENIZER_FORMATS[1:])}}}")


# ---------------------------------------------------------------------------------------- commands
def _cmd_train(args: argparse.Namespace) -> int:
    from toolkit.training.config import TrainingConfig, train_from_config

    overrides = list(args.set)
    if args.num_workers is not None:
        overrides.append(f"num_workers={args.num_workers}")
    config = TrainingConfig.from_file(args.config, overrides=overrides)
    output = args.output if args.output is not None else config.output
    if output is None:
        raise ConfigError(f"{args.config}: output: no output path; set output = \"...\" in the config or pass --output PATH")
    if Path(output).is_dir():
        raise ConfigError(f"--output: {output} is a directory; give a file path")
    bar = _progress(args)
    try:
        result = train_from_config(config, output=output, progress=bar if bar.enabled else None)
    finally:
        bar.close()
    if not args.quiet:
        print(result.summary())
    return 0


def _read_input(args: argparse.Namespace, positional: Any) -> str:
    if positional is not None and args.file is not None:
        raise _UsageError(f"{PROG} {args.command}: give the input as an argument or with --file, not both")
    if positional is not None:
        return positional if isinstance(positional, str) else " ".join(positional)
    if args.file is not None and args.file != "-":
        try:
            data = Path(args.file).read_bytes()
        except FileNotFoundError:
            raise InputError(f"--file: {args.file}: no such file") from None
        except OSError as exc:
            raise InputError(f"--file: {args.file}: {exc.strerror}") from None
        source = args.file
    else:
        data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode("utf-8")
        source = "<stdin>"
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{source}: not valid UTF-8 (invalid byte at offset {exc.start})") from None


def _allowed_special(value: str | None) -> Any:
    if value is None:
        return ()
    if value == "all":
        return "all"
    return [t for t in value.split(",") if t]


def _show_token(token: str) -> str:
    # Tokens are shown space-separated, so whitespace inside a token is made visible.
    return token.replace(" ", "␣").replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r")


def _cmd_encode(args: argparse.Namespace) -> int:
    tok = _load(args)
    text = _read_input(args, args.text)
    allowed = _allowed_special(args.allowed_special)
    texts = _lines(text) if args.lines else [text]
    out = sys.stdout
    for item in texts:
        if args.format == "ids" and args.pair is None:
            ids = tok.encode_ids(item, allowed_special=allowed, add_special_tokens=not args.no_special_tokens)
            out.write(" ".join(map(str, ids)) + "\n")
            continue
        enc = tok.encode(item, args.pair, allowed_special=allowed, add_special_tokens=not args.no_special_tokens)
        if args.format == "ids":
            out.write(" ".join(map(str, enc.ids)) + "\n")
        elif args.format == "tokens":
            out.write(" ".join(_show_token(t) for t in enc.tokens) + "\n")
        else:
            record = {"ids": enc.ids, "tokens": enc.tokens, "offsets": [list(o) for o in enc.offsets]}
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    return 0


def _lines(text: str) -> list[str]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _parse_ids(text: str, where: str) -> list[int]:
    text = text.strip()
    if text.startswith("["):
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"{where}: not a JSON list of ids: {exc.msg}") from None
        if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise InputError(f"{where}: expected a JSON list of integers")
        return value
    ids = []
    for part in text.replace(",", " ").split():
        try:
            ids.append(int(part))
        except ValueError:
            raise InputError(f"{where}: {part!r} is not an integer id") from None
    return ids


def _cmd_decode(args: argparse.Namespace) -> int:
    tok = _load(args)
    raw = _read_input(args, args.ids or None)
    chunks = _lines(raw) if args.lines else [raw]
    for i, chunk in enumerate(chunks):
        ids = _parse_ids(chunk, f"line {i + 1}" if args.lines else "ids")
        sys.stdout.write(tok.decode(ids, skip_special_tokens=args.skip_special_tokens) + "\n")
    return 0


def _summarize(value: Any, limit: int = 16) -> Any:
    """A component dict with its large tables replaced by their size."""
    if isinstance(value, dict):
        if len(value) > limit:
            return f"<{len(value):,} entries>"
        return {k: _summarize(v, limit) for k, v in value.items()}
    if isinstance(value, list):
        if len(value) > limit:
            return f"<{len(value):,} items>"
        return [_summarize(v, limit) for v in value]
    return value


def _cmd_inspect(args: argparse.Namespace) -> int:
    tok = _load(args)
    vocab = tok.get_vocab()
    by_id = sorted(vocab.items(), key=lambda kv: kv[1])
    specials = dict(tok.special_tokens)
    ordinary = [(t, i) for t, i in by_id if t not in specials]
    longest = sorted(ordinary, key=lambda kv: (-len(kv[0]), kv[1]))[: args.top]
    pipeline = {
        name: _summarize(getattr(tok, name).to_dict()) if getattr(tok, name) is not None else None
        for name in ("normalizer", "pre_tokenizer", "model", "post_processor", "decoder")
    }
    merges = getattr(tok.model, "merges", None)
    training = tok.metadata.get("training") if isinstance(tok.metadata, dict) else None
    info: dict[str, Any] = {
        "file": str(args.tokenizer),
        "model": type(tok.model).__name__,
        "vocab_size": tok.vocab_size,
        "merges": len(merges) if merges is not None else None,
        "special_tokens": specials,
        "pipeline": pipeline,
        "first_merges": [[a, b] for a, b in merges[: args.top]] if merges else [],
        "first_tokens": [t for t, _ in ordinary[: args.top]],
        "last_tokens": [t for t, _ in ordinary[-args.top:]] if args.top else [],
        "longest_tokens": [t for t, _ in longest],
    }
    if isinstance(training, dict):
        info["training"] = {
            "corpus_sha256": (training.get("corpus") or {}).get("sha256"),
            "corpus_files": len((training.get("corpus") or {}).get("files") or []),
            **(training.get("stats") or {}),
        }
    if args.json:
        print(json.dumps(info, ensure_ascii=False, indent=2))
        return 0
    shown = lambda tokens: " ".join(_show_token(t) for t in tokens)  # noqa: E731
    print(f"file:           {info['file']}")
    print(f"model:          {info['model']}   vocab size {tok.vocab_size:,}" + (f", {len(merges):,} merges" if merges is not None else ""))
    print(f"special tokens: {', '.join(f'{t}={i}' for t, i in specials.items()) or 'none'}")
    for name, value in pipeline.items():
        print(f"{name + ':':<16}{json.dumps(value, ensure_ascii=False) if value is not None else '-'}")
    if info["first_merges"]:
        print(f"first merges:   {', '.join(f'{_show_token(a)} {_show_token(b)}' for a, b in info['first_merges'])}")
    print(f"first tokens:   {shown(info['first_tokens'])}")
    print(f"last tokens:    {shown(info['last_tokens'])}")
    print(f"longest tokens: {shown(info['longest_tokens'])}")
    if "training" in info:
        t = info["training"]
        print(
            f"trained on:     {t.get('corpus_files', 0)} file(s), sha256 {str(t.get('corpus_sha256'))[:16]}…, "
            f"{t.get('bytes', 0):,} bytes, {t.get('bytes_per_token', 0)} bytes/token"
        )
    return 0


def _cmd_convert(args: argparse.Namespace) -> int:
    source = Path(args.input)
    src_fmt = detect_format(source) if args.from_format == "auto" else args.from_format
    tok = load_tokenizer(source, format=src_fmt, merges=args.merges, pattern=args.pattern, lowercase=args.lowercase)
    output = Path(args.output)
    dst_fmt = _output_format(output, src_fmt) if args.to_format == "auto" else args.to_format
    if dst_fmt != "vocab-merges" and output.parent and not output.parent.exists():
        output.parent.mkdir(parents=True, exist_ok=True)
    written = _save_as(tok, output, dst_fmt, indent=args.indent)
    if not args.quiet:
        print(f"converted {source} ({src_fmt}) -> {written} ({dst_fmt}): {tok.vocab_size:,} tokens")
    return 0


def _load(args: argparse.Namespace) -> Tokenizer:
    return load_tokenizer(args.tokenizer, format=args.from_format, pattern=args.pattern)


def _progress(args: argparse.Namespace) -> ProgressBar:
    enabled = None
    if args.quiet:
        enabled = False
    elif args.progress:
        enabled = True
    return ProgressBar(sys.stderr, enabled=enabled)


# ---------------------------------------------------------------------------------------- parser
def _global_options(parser: argparse.ArgumentParser, *, suppress: bool) -> None:
    default = argparse.SUPPRESS if suppress else False
    parser.add_argument("-q", "--quiet", action="store_true", default=default, help="no progress bars, no summary")
    parser.add_argument("--progress", action="store_true", default=default,
                        help="draw progress bars even when stderr is not a terminal")
    parser.add_argument("--debug", action="store_true", default=default, help="show the traceback of errors")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every command (also used to render ``docs/cli.md``)."""
    parser = _Parser(
        prog=PROG,
        description="Train, use and convert tokenizers (BPE, byte-level BPE, WordPiece).",
        epilog="Exit codes: 0 ok, 1 runtime error, 2 usage or configuration error. See docs/cli.md.",
    )
    _global_options(parser, suppress=False)
    from toolkit import __version__

    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    def command(name: str, help: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help, description=help)
        _global_options(p, suppress=True)
        return p

    p = command("train", "train a tokenizer from a config file (TOML, YAML or JSON)")
    p.add_argument("config", help="config file; see docs/cli.md for the schema")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="override a config field, e.g. --set trainer.vocab_size=500 (TOML literal values); repeatable")
    p.add_argument("-o", "--output", help="tokenizer file to write (default: the config's output)")
    p.add_argument("-j", "--num-workers", type=int, metavar="N", help="counting processes (default: config, else every core)")
    p.set_defaults(run=_cmd_train)

    def tokenizer_arg(p: argparse.ArgumentParser) -> None:
        p.add_argument("tokenizer", help="tokenizer file: ours, HF tokenizer.json, vocab.txt, vocab.json, .tiktoken")
        p.add_argument("--from", dest="from_format", choices=TOKENIZER_FORMATS, default="auto",
                       help="format of the tokenizer file (default: from its name and content)")
        p.add_argument("--pattern", help=".tiktoken files: split pattern (GPT2_PATTERN, CL100K_PATTERN, O200K_PATTERN or a regex)")

    p = command("encode", "encode text to ids, tokens or JSON with offsets")
    tokenizer_arg(p)
    p.add_argument("text", nargs="?", help="text to encode (default: --file, else standard input)")
    p.add_argument("-f", "--file", help="read the text from this file ('-' for standard input)")
    p.add_argument("--lines", action="store_true", help="encode each input line separately, one output line each")
    p.add_argument("--format", choices=("ids", "tokens", "json"), default="ids",
                   help="ids (space-separated), tokens (space-separated; spaces shown as ␣) or json (ids, tokens, offsets)")
    p.add_argument("--pair", help="second sequence, encoded as a pair with the text (e.g. [CLS] A [SEP] B [SEP])")
    p.add_argument("--allowed-special", metavar="all|TOK[,TOK]",
                   help="special tokens recognised in the text (default: none, they are ordinary text)")
    p.add_argument("--no-special-tokens", action="store_true", help="do not let the post-processor add [CLS]/[SEP]...")
    p.set_defaults(run=_cmd_encode)

    p = command("decode", "decode ids back to text")
    tokenizer_arg(p)
    p.add_argument("ids", nargs="*", help="ids (space/comma separated or a JSON list; default: --file, else standard input)")
    p.add_argument("-f", "--file", help="read the ids from this file ('-' for standard input)")
    p.add_argument("--lines", action="store_true", help="decode each input line separately")
    p.add_argument("--skip-special-tokens", action="store_true", help="leave special tokens out of the text")
    p.set_defaults(run=_cmd_decode)

    p = command("inspect", "show vocabulary size, special tokens, pipeline and sample tokens")
    tokenizer_arg(p)
    p.add_argument("--top", type=int, default=20, metavar="N", help="how many first/last/longest tokens to show")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=_cmd_inspect)

    p = command("convert", "convert between tokenizer file formats")
    p.add_argument("input", help="tokenizer file (or folder holding vocab.json + merges.txt)")
    p.add_argument("output", help="file to write (.json, .txt, .tiktoken) or folder for vocab.json + merges.txt")
    p.add_argument("--from", dest="from_format", choices=TOKENIZER_FORMATS, default="auto", help="input format")
    p.add_argument("--to", dest="to_format", choices=TOKENIZER_FORMATS, default="auto",
                   help="output format (default: from the name; our .json to .json means Hugging Face)")
    p.add_argument("--merges", help="merges.txt / vocab.bpe matching a vocab.json / encoder.json input")
    p.add_argument("--pattern", help=".tiktoken input: split pattern (GPT2_PATTERN, CL100K_PATTERN, O200K_PATTERN or a regex)")
    case = p.add_mutually_exclusive_group()
    case.add_argument("--lowercase", dest="lowercase", action="store_true", default=None, help="vocab.txt input: uncased BERT")
    case.add_argument("--cased", dest="lowercase", action="store_false", help="vocab.txt input: cased BERT")
    p.add_argument("--indent", type=int, default=None, help="indent JSON output")
    p.set_defaults(run=_cmd_convert)

    from toolkit.cli import compare  # built in; it imports the analysis package only when run

    p = command("compare", "compare tokenizers side by side: metrics table, report.md and PNG plots")
    compare.add_arguments(p)
    p.set_defaults(run=compare.run)
    return parser


# ---------------------------------------------------------------------------------------- main
_USAGE_ERRORS = (ConfigError, RegistryError, TrainingError)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code (the console script exits with it)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        debug = bool(getattr(args, "debug", False))
        return int(args.run(args) or 0)
    except SystemExit as exc:  # --help, --version
        return int(exc.code or 0) if not isinstance(exc.code, str) else 2
    except KeyboardInterrupt:
        _error("interrupted", debug)
        return 130
    except _UsageError as exc:
        _error(str(exc), debug, prefix="")
        return 2
    except _USAGE_ERRORS as exc:
        _error(str(exc), debug)
        return 2
    except ToolkitError as exc:
        _error(str(exc), debug)
        return 1
    except BrokenPipeError:  # `tokenizer-toolkit encode ... | head`
        try:
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115  (silence the flush at exit)
        except OSError:
            pass
        return 1
    except OSError as exc:
        name = f"{exc.filename}: " if exc.filename else ""
        _error(f"{name}{exc.strerror or exc}", debug)
        return 1
    except Exception as exc:  # a bug: still one line, unless --debug
        _error(f"internal error: {type(exc).__name__}: {exc} (run with --debug for the traceback)", debug)
        return 1


def _error(message: str, debug: bool, *, prefix: str = f"{PROG}: error: ") -> None:
    if debug:
        traceback.print_exc(file=sys.stderr)
    line = " ".join(str(message).split())
    sys.stderr.write(f"{prefix}{line}\n")
    sys.stderr.flush()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
