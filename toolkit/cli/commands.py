"""The commands of the command line: ``train``, ``encode``, ``decode``, ``inspect``, ``convert``.

This module owns what each command does with its parsed arguments and what it prints. Each
``cmd_<name>(args)`` returns the exit code; errors are raised (:mod:`toolkit.cli.main` turns them
into one line on stderr and an exit code). Tokenizer files are read and written through
:mod:`toolkit.interop.files`. ``compare`` lives in :mod:`toolkit.cli.compare`.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import sys
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolkit import limits
from toolkit.cli.progress import progress_bar
from toolkit.errors import ConfigError, InputError, ToolkitError, VocabSizeWarning
from toolkit.interop._io import missing_folders, remove_empty_folders
from toolkit.interop.files import (
    detect_format, load_tokenizer, output_format, read_files, reader_options, same_file, save_tokenizer, written_files,
)
from toolkit.arguments import check_indent
from toolkit.serialization import write_problem

if TYPE_CHECKING:
    from toolkit.tokenizer import Tokenizer

__all__ = ["PROG", "UsageError", "integer", "cmd_train", "cmd_encode", "cmd_decode", "cmd_inspect", "cmd_convert"]

PROG = "tokenizer-toolkit"


class UsageError(Exception):
    """A command-line usage problem: one line, ``<prog>: error: <message>``, exit code 2 (``prog``: the
    program and command, e.g. ``tokenizer-toolkit convert``)."""

    def __init__(self, prog: str, message: str) -> None:
        super().__init__(f"{prog}: error: {message}")


def integer(minimum: int, maximum: int | None = None) -> Any:
    """An argparse ``type``: an integer in ``minimum..maximum``; the message never repeats a huge value.

    >>> integer(0, 64)("2")
    2
    """
    bounds = f"{minimum}..{maximum}" if maximum is not None else f">= {minimum}"

    def parse(text: str) -> int:
        digits = text.strip().lstrip("+-")
        if len(digits) > 30 or not (digits.isascii() and digits.isdigit()):
            raise argparse.ArgumentTypeError(f"expected an integer {bounds}, got {text[:30]!r}{'…' if len(text) > 30 else ''}")
        value = int(text)
        if value < minimum or (maximum is not None and value > maximum):
            raise argparse.ArgumentTypeError(f"expected an integer {bounds}, got {value}")
        return value

    parse.__name__ = "integer"
    return parse


# ---------------------------------------------------------------------------------------- train
def cmd_train(args: argparse.Namespace) -> int:
    """``train CONFIG``: train from a config file, write the tokenizer, print a one-line summary."""
    from toolkit.training.config import TrainingConfig, output_problem, train_from_config

    overrides = list(args.set)
    if args.num_workers is not None:
        overrides.append(f"num_workers={args.num_workers}")
    config = TrainingConfig.from_file(args.config, overrides=overrides)
    output = args.output if args.output is not None else config.output
    if output is None:
        raise ConfigError(f"{args.config}: output: no output path; set output = \"...\" in the config or pass --output PATH")
    problem = output_problem(output)
    if problem is not None:  # before any text is read
        raise ConfigError(problem.replace("output:", "--output:", 1) if args.output is not None else f"{args.config}: {problem}")
    bar = progress_bar(quiet=args.quiet, force=args.progress)  # a disabled bar still replaces show_progress
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", VocabSizeWarning)  # reported below, as one line
            result = train_from_config(config, output=output, progress=bar)
    finally:
        bar.close()
    for message in result.warnings:
        warn(message)
    if not args.quiet:
        print(result.summary())
    return 0


def warn(message: str) -> None:
    """One line on stderr: ``tokenizer-toolkit: warning: <message>`` (also with ``--quiet``)."""
    if sys.stderr is not None:
        sys.stderr.write(f"{PROG}: warning: {' '.join(message.split())}\n")
        sys.stderr.flush()


# ---------------------------------------------------------------------------------------- input
def _load(args: argparse.Namespace) -> Tokenizer:
    return load_tokenizer(args.tokenizer, format=args.from_format, unused="error", pattern=args.pattern,
                          lowercase=args.lowercase)


def _read_input(args: argparse.Namespace, positional: Any) -> str:
    """The text of the positional argument(s), of ``--file``, or of standard input."""
    if positional is not None and args.file is not None:
        raise UsageError(f"{PROG} {args.command}", "give the input as an argument or with --file, not both")
    if positional is not None:
        text = positional if isinstance(positional, str) else " ".join(positional)
        undecodable = _ARGV_UNDECODABLE.search(text)
        if undecodable is not None:  # bytes the locale could not decode arrive as U+DC80..U+DCFF
            raise InputError(
                f"the {_WHAT[args.command]} argument is not valid UTF-8 (byte 0x{ord(undecodable.group()) - 0xDC00:02X} at "
                f"character {undecodable.start()}); give the {_WHAT[args.command]} with --file instead"
            )
        return text
    if args.file is not None and args.file != "-":
        try:
            with open(args.file, "rb") as fh:
                data = limits.read_bounded(fh, source=f"--file: {args.file}", error=InputError)
        except FileNotFoundError:
            raise InputError(f"--file: {args.file}: no such file") from None
        except OSError as exc:
            raise InputError(f"--file: {args.file}: {exc.strerror}") from None
        source = args.file
    else:
        stdin = sys.stdin
        if stdin is None or getattr(stdin, "closed", False):
            raise InputError(f"standard input is closed; give the {_WHAT[args.command]} as an argument or with --file")
        if _is_terminal(stdin) and sys.stderr is not None:  # a silent wait looks like a hang
            sys.stderr.write(
                f"{PROG} {args.command}: reading the {_WHAT[args.command]} from the terminal; end it with Ctrl-D "
                f"(Ctrl-Z then Enter on Windows), or give it as an argument or with --file\n"
            )
            sys.stderr.flush()
        try:
            fh = getattr(stdin, "buffer", None)
            if fh is not None and _is_terminal(stdin) and hasattr(fh, "read1"):
                fh = _OneReadPerCall(fh)  # one Ctrl-D ends the text (a buffered read would wait for a second)
            data = limits.read_bounded(fh, source="<stdin>", error=InputError) if fh is not None else stdin.read().encode("utf-8")
        except OSError as exc:
            raise InputError(f"cannot read standard input: {exc.strerror or exc}; give the {_WHAT[args.command]} "
                             "as an argument or with --file") from None
        source = "<stdin>"
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{source}: not valid UTF-8 (invalid byte at offset {exc.start})") from None


_WHAT = {"encode": "text", "decode": "ids"}
_ARGV_UNDECODABLE = re.compile("[\udc80-\udcff]")


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


class _OneReadPerCall:
    """A terminal's binary stdin whose ``read(n)`` makes one system call (``read1``): Ctrl-D is one EOF."""

    def __init__(self, fh: Any) -> None:
        self.fh = fh

    def read(self, n: int) -> bytes:
        return bytes(self.fh.read1(n))


def _from_stdin(args: argparse.Namespace, positional: Any) -> bool:
    return positional is None and (args.file is None or args.file == "-")


def _drop_final_newline(text: str) -> str:
    """``echo``'s newline: one trailing ``\n`` (or ``\r\n``) removed.

    >>> _drop_final_newline("Hello\\n\\n"), _drop_final_newline("Hi\\r\\n")
    ('Hello\\n', 'Hi')
    """
    if text.endswith("\r\n"):
        return text[:-2]
    return text[:-1] if text.endswith("\n") else text


def _lines(text: str) -> list[str]:
    """The lines of ``text`` without their ends (``\\n`` or ``\\r\\n``); no empty last line after a final end.

    >>> _lines("a\\r\\nb\\n\\nc\\n")
    ['a', 'b', '', 'c']
    """
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def _allowed_special(value: str | None) -> Any:
    if value is None:
        return ()
    if value == "all":
        return "all"
    return [t for t in value.split(",") if t]


def _show_token(token: str) -> str:
    # Tokens are shown space-separated, so whitespace inside a token is made visible.
    return token.replace(" ", "␣").replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r")


# ---------------------------------------------------------------------------------------- encode / decode
def cmd_encode(args: argparse.Namespace) -> int:
    """``encode TOKENIZER [TEXT]``: one output line per input (ids, tokens or JSON with offsets)."""
    tok = _load(args)
    text = _read_input(args, args.text)
    if _from_stdin(args, args.text) and not args.keep_newline and not args.lines:
        text = _drop_final_newline(text)  # `echo "Hi" | ... encode` means "Hi", not "Hi\n" (Ċ)
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


def _parse_ids(text: str, where: str) -> list[int]:
    """Ids separated by spaces or commas, or a JSON list."""
    text = text.strip()
    if text.startswith("["):
        if text[1:].lstrip().startswith("["):
            raise InputError(f"{where}: expected a flat JSON list of integer ids, got a nested list")
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"{where}: not a JSON list of ids: {exc.msg}") from None
        except (ValueError, RecursionError):  # a number of over 4,300 digits; a list nested inside an object
            raise InputError(f"{where}: not a JSON list of ids (too deep, or a number far too large)") from None
        if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise InputError(f"{where}: expected a JSON list of integers")
        return value
    ids = []
    text = text.removesuffix(",").rstrip()  # "1, 2, 3," as copied from a list
    for item in _ID_SEPARATOR.split(text) if text else ():
        if _ID.fullmatch(item) is None:  # int() would also take "١٢", "1_0" and " 7 "
            shown = f"{item[:40]!r}" if item else "an empty item between commas"
            raise InputError(f"{where}: {shown} is not an integer id; give ids as ASCII digits separated by spaces or commas")
        if len(item.lstrip("+-")) > 20:  # int() refuses over 4,300 digits
            raise InputError(
                f"{where}: id {item[:12]}… ({len(item.lstrip('+-')):,} digits) is not in any vocabulary "
                f"(ids are at most {limits.MAX_TOKEN_ID})"
            )
        ids.append(int(item))
    return ids


_ID = re.compile(r"[+-]?[0-9]+")
_ID_SEPARATOR = re.compile(r"\s*,\s*|\s+")


def cmd_decode(args: argparse.Namespace) -> int:
    """``decode TOKENIZER [IDS ...]``: the text of the ids (one line per input line with ``--lines``)."""
    tok = _load(args)
    raw = _read_input(args, args.ids or None)
    chunks = _lines(raw) if args.lines else [raw]
    for i, chunk in enumerate(chunks):
        ids = _parse_ids(chunk, f"line {i + 1}" if args.lines else "ids")
        sys.stdout.write(tok.decode(ids, skip_special_tokens=args.skip_special_tokens) + "\n")
    return 0


# ---------------------------------------------------------------------------------------- inspect
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


def _inspect_info(tok: Tokenizer, file: str, top: int) -> dict[str, Any]:
    """What ``inspect`` shows, as the JSON it prints with ``--json``."""
    by_id = sorted(tok.get_vocab().items(), key=lambda kv: kv[1])
    specials = dict(tok.special_tokens)
    ordinary = [(t, i) for t, i in by_id if t not in specials]
    longest = sorted(ordinary, key=lambda kv: (-len(kv[0]), kv[1]))[:top]
    pipeline = {
        name: _summarize(getattr(tok, name).to_dict()) if getattr(tok, name) is not None else None
        for name in ("normalizer", "pre_tokenizer", "model", "post_processor", "decoder")
    }
    merges = getattr(tok.model, "merges", None)
    info: dict[str, Any] = {
        "file": file,
        "model": type(tok.model).__name__,
        "vocab_size": tok.vocab_size,
        "merges": len(merges) if merges is not None else None,
        "special_tokens": specials,
        "pipeline": pipeline,
        "first_merges": [[a, b] for a, b in merges[:top]] if merges else [],
        "first_tokens": [t for t, _ in ordinary[:top]],
        "last_tokens": [t for t, _ in ordinary[-top:]] if top else [],
        "longest_tokens": [t for t, _ in longest],
    }
    training = tok.metadata.get("training") if isinstance(tok.metadata, dict) else None
    if isinstance(training, dict):
        # metadata is free-form (a hand-edited file may hold anything there): take only what has the
        # shape a training writes
        corpus, stats = training.get("corpus"), training.get("stats")
        corpus = corpus if isinstance(corpus, dict) else {}
        files = corpus.get("files")
        info["training"] = {
            "corpus_sha256": corpus.get("sha256") if isinstance(corpus.get("sha256"), str) else None,
            "corpus_files": len(files) if isinstance(files, list) else 0,
            **(stats if isinstance(stats, dict) else {}),
        }
    return info


def _print_inspect(info: dict[str, Any]) -> None:
    shown = lambda tokens: " ".join(_show_token(t) for t in tokens)  # noqa: E731
    merges = f", {info['merges']:,} merges" if info["merges"] is not None else ""
    print(f"file:           {info['file']}")
    print(f"model:          {info['model']}   vocab size {info['vocab_size']:,}{merges}")
    print(f"special tokens: {', '.join(f'{t}={i}' for t, i in info['special_tokens'].items()) or 'none'}")
    for name, value in info["pipeline"].items():
        print(f"{name + ':':<16}{json.dumps(value, ensure_ascii=False) if value is not None else '-'}")
    if info["first_merges"]:
        print(f"first merges:   {', '.join(f'{_show_token(a)} {_show_token(b)}' for a, b in info['first_merges'])}")
    print(f"first tokens:   {shown(info['first_tokens'])}")
    print(f"last tokens:    {shown(info['last_tokens'])}")
    print(f"longest tokens: {shown(info['longest_tokens'])}")
    if "training" in info:
        t = info["training"]
        size = t.get("bytes", 0)
        size = f"{size:,}" if isinstance(size, int) and not isinstance(size, bool) else repr(size)[:40]
        print(
            f"trained on:     {t['corpus_files']} file(s), sha256 {str(t['corpus_sha256'])[:16]}…, "
            f"{size} bytes, {str(t.get('bytes_per_token', 0))[:40]} bytes/token"
        )


def cmd_inspect(args: argparse.Namespace) -> int:
    """``inspect TOKENIZER``: vocabulary size, special tokens, pipeline, first and longest tokens."""
    info = _inspect_info(_load(args), str(args.tokenizer), args.top)
    if args.json:
        print(json.dumps(info, ensure_ascii=False, indent=2))
    else:
        _print_inspect(info)
    return 0


# ---------------------------------------------------------------------------------------- convert
def cmd_convert(args: argparse.Namespace) -> int:
    """``convert INPUT OUTPUT``: read a tokenizer in one format, write it in another."""
    if args.output in ("", "-"):  # "" is the current folder to Path, "-" would become a folder named "-"
        raise UsageError(f"{PROG} convert", f"the output {'path is empty' if not args.output else '- (standard output) cannot take a tokenizer'}; "
                         "give a file path, or a folder for vocab.json + merges.txt or --to transformers")
    source = Path(args.input)
    src_fmt = detect_format(source) if args.from_format == "auto" else args.from_format
    check_indent(args.indent)
    output = Path(args.output)
    dst_fmt = output_format(output, src_fmt) if args.to_format == "auto" else args.to_format
    _refuse_an_output_it_cannot_write(args.output, dst_fmt, chosen=args.to_format != "auto")  # before reading
    tok = load_tokenizer(source, format=src_fmt, unused="error", merges=args.merges, pattern=args.pattern,
                         lowercase=args.lowercase)
    _refuse_overwriting_the_input(source, src_fmt, output, dst_fmt, args.merges)
    made = missing_folders(output.parent) if dst_fmt != "vocab-merges" else []
    try:
        if made:
            output.parent.mkdir(parents=True, exist_ok=True)
        # vocab.txt and vocab.json + merges.txt hold only the vocabulary: refused (before anything is
        # written) when the file would be read back as another tokenizer
        options = reader_options(tok, dst_fmt)
        written = save_tokenizer(tok, output, format=dst_fmt, indent=args.indent,
                                 template=_template(args, source, dst_fmt))
    except BaseException as exc:
        remove_empty_folders(made)  # a failed convert leaves no folders behind either
        if isinstance(exc, ToolkitError) and exc.args and isinstance(exc.args[0], str):
            message = _WRITER_NAME.sub(f"--to {dst_fmt}: ", exc.args[0], count=1)
            exc.args = (_WRITER_ADVICE.sub(lambda m: f"use --to {_WRITER_FORMAT[m.group(1)]}", message), *exc.args[1:])
        raise
    if not args.quiet:
        print(f"converted {source} ({src_fmt}) -> {' + '.join(map(str, written))} ({dst_fmt}): {tok.vocab_size:,} tokens")
    if options.get("lowercase") is False:  # vocab.txt cannot say it is cased: tell the user while we know
        print(f"{PROG}: note: {output} is a cased vocabulary; load it with --cased (Python: lowercase=False)",
              file=sys.stderr)
    if dst_fmt == "tiktoken":  # the file cannot say which pattern it needs: tell the user while we know
        from toolkit.interop.tiktoken_files import pattern_name

        print(f"{PROG}: note: {output} does not record its split pattern; load it with --pattern "
              f"{shlex.quote(pattern_name(tok))} (Python: pattern=...)", file=sys.stderr)
    return 0


# The writers' errors name the Python function (save_tiktoken: ...); on the command line it is --to FMT.
_WRITER_NAME = re.compile(r"^(?:save_[a-z_]+|to_hf_json|to_hf_dict): ")
# Their advice names the Python writer of the format that fits ("use save_vocab_merges for BPE"): --to FMT here.
_WRITER_FORMAT = {"save_vocab_merges": "vocab-merges", "save_bert_vocab": "vocab-txt", "to_hf_json": "hf"}
_WRITER_ADVICE = re.compile(r"\buse (save_vocab_merges|save_bert_vocab|to_hf_json)\b")


def _template(args: argparse.Namespace, source: Path, dst_fmt: str) -> Path | None:
    """``--template``, or the ``tokenizer_config.json`` beside (or in) the input when converting a model's
    tokenizer to a transformers directory: its roles and settings then carry over."""
    if args.template is not None:
        if dst_fmt != "transformers":
            raise UsageError(f"{PROG} convert", "--template applies to --to transformers only")
        return Path(args.template)
    if dst_fmt != "transformers":
        return None
    beside = (source if source.is_dir() else source.parent) / "tokenizer_config.json"
    return beside if beside.is_file() else None


def _refuse_an_output_it_cannot_write(output: str, dst_fmt: str, *, chosen: bool) -> None:
    """A usage error naming why a file ``convert`` would write to ``output`` in ``dst_fmt`` would be refused
    (:func:`toolkit.serialization.write_problem`): a device, a folder where a file goes, a file where a
    folder goes (``vocab-merges`` and ``transformers`` write folders; ``chosen``: by ``--to``, else by
    the name)."""
    files = written_files(output, dst_fmt)
    into_folder = files != [Path(output)]
    for path in files if into_folder else [output]:  # the string as given: a final slash names a folder
        problem = write_problem(path)
        if problem is None:
            continue
        if into_folder and problem.endswith("not a folder; give another path"):
            names = " + ".join(p.name for p in files)
            problem += (f" (--to {dst_fmt} writes {names} into a folder)" if chosen else
                        f" (a name without an extension is a folder for {names}; name a file .json to write one file)")
        raise UsageError(f"{PROG} convert", f"the output {path}: {problem}")


def _refuse_overwriting_the_input(source: Path, src_fmt: str, output: Path, dst_fmt: str, merges: Any) -> None:
    """``convert a.json a.json`` would replace the input with another format (our metadata lost): refuse,
    unless the format stays the same (rewriting a file in place, e.g. with another ``--indent``)."""
    if src_fmt == dst_fmt:
        return
    for written in written_files(output, dst_fmt):
        for read in read_files(source, src_fmt, merges):
            if same_file(written, read):
                raise UsageError(
                    f"{PROG} convert", f"the output {written} is the input file {read} ({src_fmt}); writing it as "
                    f"{dst_fmt} would replace it: give another output path (or --to {src_fmt} to rewrite it in place)"
                )

