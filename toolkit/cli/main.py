"""The command line: ``tokenizer-toolkit <command>`` and ``python -m toolkit <command>``.

This module owns the argument parser of every command and the error policy; the commands are in
:mod:`toolkit.cli.commands` (``compare`` in :mod:`toolkit.cli.compare`), the progress bars in
:mod:`toolkit.cli.progress`.

- ``train CONFIG [--set KEY=VALUE ...] [--output PATH] [--num-workers N]`` trains from a config file
  (:mod:`toolkit.training.config`) and prints a one-line summary;
- ``encode TOKENIZER [TEXT] [--file PATH] [--lines] [--format ids|tokens|json] [--allowed-special ...]``;
- ``decode TOKENIZER [IDS ...] [--file PATH] [--lines] [--skip-special-tokens]``;
- ``inspect TOKENIZER [--top N] [--json]``: vocabulary size, special tokens, pipeline, first and longest tokens;
- ``convert INPUT OUTPUT [--from FMT] [--to FMT]``: between our JSON, Hugging Face ``tokenizer.json``,
  BERT ``vocab.txt``, GPT-2 ``vocab.json`` + ``merges.txt``, ``.tiktoken`` and SentencePiece ``.model`` files;
- ``compare``: tokenizers side by side (docs/compare.md).

Global options (before or after the command): ``--quiet`` (no progress, no summary), ``--progress``
(progress bars even when stderr is not a terminal), ``--debug`` (tracebacks). A command's options
and arguments may come in any order (``encode tok.json --format tokens "Hello"``).

Errors are one line on stderr. Exit codes: 0 success, 2 usage or configuration error (bad option,
bad config, unknown component, training request that cannot be met), 1 runtime error (unreadable
corpus or tokenizer file, invalid input, a closed standard input or output, a full disk), 130 interrupted.

>>> main(["encode", "--help"])  # doctest: +SKIP
"""

from __future__ import annotations

import argparse
import errno
import os
import re
import sys
import traceback
from collections.abc import Sequence
from typing import Any, NoReturn

from toolkit.cli import commands, compare
from toolkit.cli.commands import PROG, UsageError, integer
from toolkit.cli.progress import ProgressBar
from toolkit.errors import ConfigError, RegistryError, ToolkitError, TrainingError, did_you_mean
from toolkit.interop.files import TOKENIZER_FORMATS
from toolkit.arguments import MAX_INDENT

__all__ = ["main", "build_parser", "ProgressBar"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # argparse prints usage + message over lines; we want one
        raise UsageError(self.prog, f"{_suggest(message)} (see {self.prog} --help)")


def _suggest(message: str) -> str:
    """argparse's "invalid choice: 'hff' (choose from ...)" with the closest choice named."""
    m = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
    if m is None:
        return message
    hint = did_you_mean(m.group(1), re.findall(r"'([^']*)'", m.group(2)))
    return message[: m.end(1) + 1] + hint + message[m.end(1) + 1:]


class _CommandParser(_Parser):
    """A command's parser: options and arguments in any order (``encode tok.json --format tokens "Hi"``).

    Plain argparse matches all positionals of a command at the first run of them, so a text after an
    option was "unrecognized"; :meth:`parse_known_intermixed_args` parses the options first, then the
    positionals. It calls :meth:`parse_known_args` itself, hence the guard.
    """

    _intermixing = False

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> tuple[argparse.Namespace, list[str]]:
        if self._intermixing:
            return super().parse_known_args(args, namespace)
        self._intermixing = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._intermixing = False


# ---------------------------------------------------------------------------------------- parser
def _global_options(parser: argparse.ArgumentParser, *, suppress: bool) -> None:
    default = argparse.SUPPRESS if suppress else False
    parser.add_argument("-q", "--quiet", action="store_true", default=default, help="no progress bars, no summary")
    parser.add_argument("--progress", action="store_true", default=default,
                        help="draw progress bars even when stderr is not a terminal")
    parser.add_argument("--debug", action="store_true", default=default, help="show the traceback of errors")


_PATTERN_HELP = ("split pattern (GPT2_PATTERN, CL100K_PATTERN, O200K_PATTERN, CHAT_PATTERN, a short name such as "
                 "cl100k, or a regex)")


def _tokenizer_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("tokenizer", help="tokenizer file: ours, HF tokenizer.json, vocab.txt, vocab.json, .tiktoken, .model")
    p.add_argument("--from", dest="from_format", choices=TOKENIZER_FORMATS, default="auto",
                   help="format of the tokenizer file (default: from its name and content)")
    p.add_argument("--pattern", help=f".tiktoken files: {_PATTERN_HELP}")
    _case_options(p, "vocab.txt files")


def _case_options(p: argparse.ArgumentParser, what: str) -> None:
    case = p.add_mutually_exclusive_group()
    case.add_argument("--lowercase", dest="lowercase", action="store_true", default=None, help=f"{what}: uncased BERT (the default)")
    case.add_argument("--cased", dest="lowercase", action="store_false", help=f"{what}: cased BERT")


def _add_train(p: argparse.ArgumentParser) -> None:
    p.add_argument("config", help="config file; see docs/cli.md for the schema")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="override a config field, e.g. --set trainer.vocab_size=500 (TOML literal values); repeatable")
    p.add_argument("-o", "--output", help="tokenizer file to write (default: the config's output)")
    p.add_argument("-j", "--num-workers", type=integer(1), metavar="N", help="counting processes (default: config, else every core)")
    p.set_defaults(run=commands.cmd_train)


def _add_encode(p: argparse.ArgumentParser) -> None:
    _tokenizer_argument(p)
    p.add_argument("text", nargs="?", help="text to encode (default: --file, else standard input)")
    p.add_argument("-f", "--file", help="read the text from this file ('-' for standard input)")
    p.add_argument("--lines", action="store_true", help="encode each input line separately, one output line each")
    p.add_argument("--format", choices=("ids", "tokens", "json"), default="ids",
                   help="ids (space-separated), tokens (space-separated; spaces shown as ␣) or json (ids, tokens, offsets)")
    p.add_argument("--pair", help="second sequence, encoded as a pair with the text (e.g. [CLS] A [SEP] B [SEP])")
    p.add_argument("--allowed-special", metavar="all|TOK[,TOK]",
                   help="special tokens recognised in the text (default: none, they are ordinary text)")
    p.add_argument("--no-special-tokens", action="store_true", help="do not let the post-processor add [CLS]/[SEP]...")
    p.add_argument("--keep-newline", action="store_true",
                   help="encode the final newline of standard input too (by default one is dropped: echo adds it)")
    p.set_defaults(run=commands.cmd_encode)


def _add_decode(p: argparse.ArgumentParser) -> None:
    _tokenizer_argument(p)
    p.add_argument("ids", nargs="*", help="ids (space/comma separated or a JSON list; default: --file, else standard input)")
    p.add_argument("-f", "--file", help="read the ids from this file ('-' for standard input)")
    p.add_argument("--lines", action="store_true", help="decode each input line separately")
    p.add_argument("--skip-special-tokens", action="store_true", help="leave special tokens out of the text")
    p.set_defaults(run=commands.cmd_decode)


def _add_inspect(p: argparse.ArgumentParser) -> None:
    _tokenizer_argument(p)
    p.add_argument("--top", type=integer(0), default=20, metavar="N", help="how many first/last/longest tokens to show")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=commands.cmd_inspect)


def _add_convert(p: argparse.ArgumentParser) -> None:
    p.add_argument("input", help="tokenizer file (or folder holding vocab.json + merges.txt)")
    p.add_argument("output", help="file to write (.json, .txt, .tiktoken, .model) or folder for vocab.json + merges.txt")
    p.add_argument("--from", dest="from_format", choices=TOKENIZER_FORMATS, default="auto", help="input format")
    p.add_argument("--to", dest="to_format", choices=TOKENIZER_FORMATS, default="auto",
                   help="output format (default: from the name; our .json to .json means Hugging Face)")
    p.add_argument("--merges", help="merges.txt / vocab.bpe matching a vocab.json / encoder.json input")
    p.add_argument("--pattern", help=f".tiktoken input: {_PATTERN_HELP}")
    _case_options(p, "vocab.txt input")
    p.add_argument("--indent", type=integer(0, MAX_INDENT), default=None, help="indent JSON output")
    p.add_argument("--template", metavar="DIR", help="--to transformers: the model directory (or tokenizer_config.json) "
                   "whose roles and settings to carry over (default: the input's, when it has one)")
    p.set_defaults(run=commands.cmd_convert)


def _add_compare(p: argparse.ArgumentParser) -> None:
    compare.add_arguments(p)  # the analysis package is imported only when the command runs
    p.set_defaults(run=compare.run)


#: Command name → (help, function adding its arguments), in the order of ``--help``.
_COMMANDS = {
    "train": ("train a tokenizer from a config file (TOML, YAML or JSON)", _add_train),
    "encode": ("encode text to ids, tokens or JSON with offsets", _add_encode),
    "decode": ("decode ids back to text", _add_decode),
    "inspect": ("show vocabulary size, special tokens, pipeline and sample tokens", _add_inspect),
    "convert": ("convert between tokenizer file formats", _add_convert),
    "compare": ("compare tokenizers side by side: metrics table, report.md and PNG plots", _add_compare),
}


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every command (also used to render ``docs/cli.md``)."""
    from toolkit import __version__

    parser = _Parser(
        prog=PROG,
        description="Train, use and convert tokenizers (BPE, byte-level BPE, WordPiece, Unigram, WordLevel).",
        epilog="Exit codes: 0 ok, 1 runtime error, 2 usage or configuration error. See docs/cli.md.",
    )
    _global_options(parser, suppress=False)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_CommandParser)
    sub.required = True
    for name, (help, add_arguments) in _COMMANDS.items():
        p = sub.add_parser(name, help=help, description=help)
        _global_options(p, suppress=True)
        add_arguments(p)
    return parser


# ---------------------------------------------------------------------------------------- main
_USAGE_ERRORS = (ConfigError, RegistryError, TrainingError)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code (the console script exits with it)."""
    stdout = sys.stdout
    # A closed standard output (`>&-`) is None: printing to it must fail, not vanish with exit code 0.
    sys.stdout = _Output(stdout if stdout is not None else _ClosedOutput())  # type: ignore[assignment]
    try:
        return _run(list(sys.argv[1:] if argv is None else argv))
    finally:
        sys.stdout = stdout


def _run(argv: list[str]) -> int:
    debug = "--debug" in argv
    try:
        parser = build_parser()
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # --help, --version
            sys.stdout.flush()
            failed = getattr(sys.stdout, "failed", None)
            if failed is not None:  # argparse ignores a failed write of the help; a full disk is still an error
                raise failed from None
            return int(exc.code or 0) if not isinstance(exc.code, str) else 2
        debug = bool(getattr(args, "debug", False))
        code = int(args.run(args) or 0)
        sys.stdout.flush()  # a full disk is an error now, not a message at exit
        return code
    except KeyboardInterrupt:
        _error("interrupted", debug)
        return 130
    except UsageError as exc:
        _error(str(exc), debug, prefix="")
        return 2
    except _USAGE_ERRORS as exc:
        _error(str(exc), debug)
        return 2
    except ToolkitError as exc:
        _error(str(exc), debug)
        return 1
    except BrokenPipeError:  # `tokenizer-toolkit encode ... | head`
        _discard_stdout()
        return 1
    except OSError as exc:
        _discard_stdout()
        name = f"{exc.filename}: " if exc.filename else ""
        _error(f"{name}{exc.strerror or exc}", debug)
        return 1
    except Exception as exc:  # a bug: still one line, unless --debug
        _error(f"internal error: {type(exc).__name__}: {exc} (run with --debug for the traceback)", debug)
        return 1


def _discard_stdout() -> None:
    """Flush standard output; if that fails, send what is left to /dev/null, so that the flush at exit
    prints no second error."""
    try:
        sys.stdout.flush()
        return
    except (OSError, ValueError):
        pass
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


class _Output:
    """Standard output during a command: a failed write names standard output in the error."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.failed: OSError | None = None  # the first failed write, for callers that swallow it (argparse)

    def write(self, text: str) -> int:
        try:
            return int(self.inner.write(text))
        except OSError as exc:
            raise self._failure(exc) from None

    def flush(self) -> None:
        try:
            self.inner.flush()
        except OSError as exc:
            raise self._failure(exc) from None

    def _failure(self, exc: OSError) -> OSError:
        failed = exc if isinstance(exc, BrokenPipeError) else OSError(exc.errno, f"cannot write standard output: {exc.strerror or exc}")
        self.failed = self.failed or failed
        return failed

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


class _ClosedOutput:
    """Stands for a standard output that was closed when the program started: writing to it raises."""

    closed = True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "it is closed; redirect it to a file or to /dev/null")

    def flush(self) -> None:
        pass

    def fileno(self) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


def _error(message: str, debug: bool, *, prefix: str = f"{PROG}: error: ") -> None:
    if sys.stderr is None:  # nowhere to say it: the exit code tells
        return
    if debug:
        traceback.print_exc(file=sys.stderr)
    line = " ".join(str(message).split())
    sys.stderr.write(f"{prefix}{line}\n")
    sys.stderr.flush()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
