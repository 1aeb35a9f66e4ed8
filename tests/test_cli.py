"""The command line: train / encode / decode / inspect / convert, exit codes and one-line errors.

Most tests call :func:`toolkit.cli.main` in-process (fast); a few run the real console script
(``tokenizer-toolkit`` next to the interpreter) and ``python -m toolkit`` in a subprocess.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from toolkit import Tokenizer
from toolkit.cli import ProgressBar, main

from conftest import SMALL_CORPUS

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = ROOT / "examples" / "configs"
SCRIPT = Path(sys.executable).parent / "tokenizer-toolkit"

def run(argv: list[str], capsys: pytest.CaptureFixture[str], *, stdin: str | None = None,
        monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[int, str, str]:
    if stdin is not None:
        assert monkeypatch is not None
        import io

        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8"))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("tokenizer-toolkit")
    return lines[0]


@pytest.fixture
def bl_tokenizer(tmp_path: Path, corpus_file: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A byte-level BPE tokenizer trained from the example config (in-process)."""
    out = tmp_path / "bl.json"
    code, _, err = run(
        ["train", str(CONFIGS / "byte_level_bpe.toml"), "--set", f'corpus.files=["{corpus_file}"]',
         "--set", "trainer.vocab_size=300", "--output", str(out), "-q"],
        capsys,
    )
    assert code == 0, err
    return out


@pytest.fixture
def wp_tokenizer(tmp_path: Path, corpus_file: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    out = tmp_path / "bert.json"
    code, _, err = run(
        ["train", str(CONFIGS / "bert_style.toml"), "--set", f'corpus.files=["{corpus_file}"]',
         "--set", "trainer.vocab_size=150", "-o", str(out), "--quiet"],
        capsys,
    )
    assert code == 0, err
    return out


# ---------------------------------------------------------------------------------------- subprocess
def test_console_script_trains_encodes_and_decodes(tmp_path: Path, corpus_file: Path) -> None:
    if not SCRIPT.exists():
        pytest.skip(f"console script not installed at {SCRIPT}")
    out = tmp_path / "out" / "bpe.json"  # the folder does not exist yet
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run(
        [str(SCRIPT), "train", str(CONFIGS / "bpe.toml"), "--set", f'corpus.files=["{corpus_file}"]',
         "--set", "trainer.vocab_size=120", "--output", str(out)],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""  # not a terminal: no progress bars
    summary = proc.stdout.strip().splitlines()
    assert len(summary) == 1 and summary[0].startswith("trained BPE in ")
    assert "vocab 120" in summary[0] and "bytes/token" in summary[0] and str(out) in summary[0]
    tok = Tokenizer.load(out)
    assert tok.vocab_size == 120

    enc = subprocess.run([str(SCRIPT), "encode", str(out)], input="the lazy fox", capture_output=True, text=True, timeout=60)
    assert enc.returncode == 0, enc.stderr
    ids = enc.stdout.split()
    dec = subprocess.run([str(SCRIPT), "decode", str(out), *ids], capture_output=True, text=True, timeout=60)
    assert dec.returncode == 0 and dec.stdout == "the lazy fox\n"

    bad = subprocess.run([str(SCRIPT), "train", str(tmp_path / "nope.toml")], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and bad.stdout == ""
    assert one_line_error(bad.stderr) == f"tokenizer-toolkit: error: {tmp_path / 'nope.toml'}: no such config file"


def test_python_dash_m_toolkit(bl_tokenizer: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "toolkit", "encode", str(bl_tokenizer), "hello world", "--format", "tokens"],
        capture_output=True, text=True, timeout=60, cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().replace(" ", "").replace("Ġ", " ") == "hello world"


# ---------------------------------------------------------------------------------------- train
def test_train_prints_a_summary_and_overrides_apply(tmp_path: Path, corpus_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "wp.json"
    code, stdout, stderr = run(
        ["train", str(CONFIGS / "wordpiece.toml"), "--set", f'corpus.files=["{corpus_file}"]',
         "--set", "trainer.vocab_size=99", "--set", "trainer.min_frequency=1", "--output", str(out), "-j", "1"],
        capsys,
    )
    assert code == 0, stderr
    assert "trained WordPiece" in stdout and "vocab 99," in stdout and "on 1 worker" in stdout
    meta = Tokenizer.load(out).metadata["training"]
    assert meta["config"]["trainer"]["vocab_size"] == 99 and meta["config"]["num_workers"] == 1
    assert meta["corpus"]["files"][0]["path"] == str(corpus_file)


def test_progress_bars_go_to_stderr_when_asked(tmp_path: Path, corpus_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, stdout, stderr = run(
        ["train", str(CONFIGS / "byte_level_bpe.toml"), "--set", f'corpus.files=["{corpus_file}"]',
         "--set", "trainer.vocab_size=300", "-o", str(tmp_path / "t.json"), "--progress"],
        capsys,
    )
    assert code == 0
    assert "counting" in stderr and "100%" in stderr and "\r" in stderr
    assert "\r" not in stdout and "%" not in stdout and "trained ByteLevelBPE" in stdout


def test_quiet_prints_nothing(tmp_path: Path, corpus_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, stdout, stderr = run(
        ["--quiet", "train", str(CONFIGS / "byte_level_bpe.toml"), "--set", f'corpus.files=["{corpus_file}"]',
         "--set", "trainer.vocab_size=300", "-o", str(tmp_path / "t.json"), "--progress"],
        capsys,
    )
    assert (code, stdout, stderr) == (0, "", "")


def test_progress_bar_rendering() -> None:
    import io

    stream = io.StringIO()
    bar = ProgressBar(stream, enabled=True)
    bar("counting", 0, 2_000_000)
    bar("counting", 2_000_000, 2_000_000)
    bar("merges", 10, 10)
    bar.close()
    text = stream.getvalue()
    assert "counting   [" in text and "2.0 MB/2.0 MB" in text and "merges" in text and text.endswith("\n")
    silent = io.StringIO()
    ProgressBar(silent)("counting", 1, 2)  # a StringIO is not a terminal: nothing drawn
    assert silent.getvalue() == ""


@pytest.mark.parametrize(
    "overrides,expected",
    [
        (["algorithm=sentencepiece"], "algorithm: unknown algorithm 'sentencepiece'"),
        (["trainer.vocab_size=100"], "trainer.vocab_size: 100 is too small"),
        (['corpus.files=["does/not/exist.txt"]'], "corpus.files[0]: corpus file does/not/exist.txt does not exist"),
        (['pre_tokenizer={type = "Split", pattern = "(", behavior = "isolated"}'], "pre_tokenizer"),
        (["trainer.vocab_sise=500"], "trainer.vocab_sise: unknown option"),
        (["decoder=Nope"], "decoder.type: unknown decoder type 'Nope'"),
    ],
    ids=["unknown-algorithm", "vocab-too-small", "missing-corpus", "invalid-regex", "typo", "unknown-type"],
)
def test_bad_configs_exit_2_with_one_line(
    overrides: list[str], expected: str, tmp_path: Path, corpus_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["train", str(CONFIGS / "byte_level_bpe.toml"), "--set", f'corpus.files=["{corpus_file}"]', "-o", str(tmp_path / "t.json")]
    for item in overrides:
        argv += ["--set", item]
    code, stdout, stderr = run(argv, capsys)
    assert code == 2 and stdout == ""
    line = one_line_error(stderr)
    assert line.startswith(f"tokenizer-toolkit: error: {CONFIGS / 'byte_level_bpe.toml'}: ")
    assert expected in line
    if "invalid-regex" in expected or expected == "pre_tokenizer":
        assert "(" in line
    assert not (tmp_path / "t.json").exists()


def test_runtime_errors_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"good line\nbad \xff byte\n")
    code, _, stderr = run(
        ["train", str(CONFIGS / "bpe.toml"), "--set", f'corpus.files=["{bad}"]', "-o", str(tmp_path / "t.json")], capsys
    )
    assert code == 1
    assert one_line_error(stderr) == (
        f"tokenizer-toolkit: error: corpus file {bad} is not valid UTF-8: invalid byte 0xff at byte offset 14; "
        'convert it to UTF-8, or read it with errors = "replace"'
    )
    code, _, stderr = run(
        ["train", str(CONFIGS / "bpe.toml"), "--set", f'corpus.files=["{bad}"]', "--set", "corpus.errors=replace",
         "--set", "trainer.vocab_size=40", "-o", str(tmp_path / "t.json")], capsys
    )
    assert code == 0, stderr
    code, _, stderr = run(["encode", str(tmp_path / "missing.json"), "x"], capsys)
    assert code == 1 and "missing.json: no such tokenizer file" in one_line_error(stderr)


def test_usage_errors_exit_2_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["frobnicate"], ["train"], ["encode"], ["train", "x.toml", "--num-workers", "two"], []):
        code, stdout, stderr = run(argv, capsys)
        assert code == 2 and stdout == "", argv
        assert "error:" in one_line_error(stderr)
    code, stdout, _ = run(["--help"], capsys)
    assert code == 0 and "train" in stdout and "convert" in stdout


def test_debug_shows_the_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, stderr = run(["--debug", "train", str(tmp_path / "nope.toml")], capsys)
    assert code == 2 and "Traceback (most recent call last)" in stderr
    assert stderr.strip().splitlines()[-1].startswith("tokenizer-toolkit: error:")


def test_jsonl_and_gzip_corpora_train_from_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    jl = tmp_path / "c.jsonl.gz"
    jl.write_bytes(gzip.compress("".join(json.dumps({"content": line}) + "\n" for line in SMALL_CORPUS.splitlines()).encode()))
    code, stdout, stderr = run(
        ["train", str(CONFIGS / "gpt2_style.toml"), "--set", f'corpus.files=["{jl}"]', "--set", "corpus.field=content",
         "--set", "trainer.vocab_size=300", "-o", str(tmp_path / "g.json")],
        capsys,
    )
    assert code == 0, stderr
    assert "60 documents" in stdout


# ---------------------------------------------------------------------------------------- encode/decode
def test_encode_formats(bl_tokenizer: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tok = Tokenizer.load(bl_tokenizer)
    text = "The lazy dog, naïve!"
    code, out, _ = run(["encode", str(bl_tokenizer), text], capsys)
    assert code == 0 and [int(x) for x in out.split()] == tok.encode_ids(text)
    code, out, _ = run(["encode", str(bl_tokenizer), text, "--format", "tokens"], capsys)
    assert out.split() == tok.encode(text).tokens
    code, out, _ = run(["encode", str(bl_tokenizer), text, "--format", "json"], capsys)
    record = json.loads(out)
    enc = tok.encode(text)
    assert record == {"ids": enc.ids, "tokens": enc.tokens, "offsets": [list(o) for o in enc.offsets]}
    assert text[record["offsets"][-2][0]:record["offsets"][-1][1]].endswith("!")


def test_encode_reads_files_stdin_and_lines(
    bl_tokenizer: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    tok = Tokenizer.load(bl_tokenizer)
    f = tmp_path / "in.txt"
    f.write_text("first line\nsecond line\n", encoding="utf-8")
    code, out, _ = run(["encode", str(bl_tokenizer), "--file", str(f), "--lines"], capsys)
    assert [list(map(int, line.split())) for line in out.splitlines()] == [tok.encode_ids("first line"), tok.encode_ids("second line")]
    code, out, _ = run(["encode", str(bl_tokenizer), "--file", str(f)], capsys)
    assert list(map(int, out.split())) == tok.encode_ids("first line\nsecond line\n")
    code, out, _ = run(["encode", str(bl_tokenizer)], capsys, stdin="from stdin", monkeypatch=monkeypatch)
    assert list(map(int, out.split())) == tok.encode_ids("from stdin")
    code, _, err = run(["encode", str(bl_tokenizer), "x", "--file", str(f)], capsys)
    assert code == 2 and "not both" in one_line_error(err)


def test_allowed_special(bl_tokenizer: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tok = Tokenizer.load(bl_tokenizer)
    eot = tok.token_to_id("<|endoftext|>")
    _, out, _ = run(["encode", str(bl_tokenizer), "a<|endoftext|>"], capsys)
    assert eot not in map(int, out.split())  # ordinary text by default
    for value in ("all", "<|endoftext|>"):
        _, out, _ = run(["encode", str(bl_tokenizer), "a<|endoftext|>", "--allowed-special", value], capsys)
        assert list(map(int, out.split()))[-1] == eot
    code, _, err = run(["encode", str(bl_tokenizer), "a", "--allowed-special", "<nope>"], capsys)
    assert code == 2 and "not special tokens of this tokenizer" in one_line_error(err)


def test_decode_accepts_lists_and_skips_specials(
    wp_tokenizer: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    tok = Tokenizer.load(wp_tokenizer)
    ids = tok.encode_ids("the lazy dog")
    assert ids[0] == tok.token_to_id("[CLS]")  # BertProcessing from bert_style.toml
    _, out, _ = run(["decode", str(wp_tokenizer), *map(str, ids), "--skip-special-tokens"], capsys)
    assert out == "the lazy dog\n"
    _, out, _ = run(["decode", str(wp_tokenizer), json.dumps(ids)], capsys)
    assert out.startswith("[CLS]")
    _, out, _ = run(["decode", str(wp_tokenizer), "--lines"], capsys, stdin=f"{ids[1]},{ids[2]}\n{ids[3]}\n", monkeypatch=monkeypatch)
    assert out.splitlines() == [tok.decode(ids[1:3]), tok.decode(ids[3:4])]
    code, _, err = run(["decode", str(wp_tokenizer), "1", "x"], capsys)
    assert code == 1 and "'x' is not an integer id" in one_line_error(err)
    code, _, err = run(["decode", str(wp_tokenizer), "99999"], capsys)
    assert code == 1 and "cannot decode id 99999" in one_line_error(err)


# ---------------------------------------------------------------------------------------- inspect
def test_inspect(bl_tokenizer: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["inspect", str(bl_tokenizer), "--top", "5"], capsys)
    assert code == 0
    assert "ByteLevelBPE" in out and "vocab size 300" in out and "<|endoftext|>=299" in out
    assert "first merges:" in out and "longest tokens:" in out and "trained on:     1 file(s), sha256" in out
    code, out, _ = run(["inspect", str(bl_tokenizer), "--json"], capsys)
    info = json.loads(out)
    assert info["vocab_size"] == 300 and info["special_tokens"] == {"<|endoftext|>": 299}
    assert info["pipeline"]["model"]["vocab"] == "<300 entries>"
    assert len(info["training"]["corpus_sha256"]) == 64


@pytest.mark.parametrize("training", [
    {"stats": {"bytes": "x"}}, {"corpus": 5}, {"stats": [1]}, {"corpus": {"files": 7, "sha256": 3}},
])
def test_inspect_reads_hand_edited_training_metadata(bl_tokenizer: Path, training: dict, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """metadata is free-form: a shape other than a training's crashed inspect (ValueError, AttributeError)."""
    doc = json.loads(bl_tokenizer.read_text(encoding="utf-8"))
    doc["metadata"]["training"] = training
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(doc), encoding="utf-8")
    for extra in ([], ["--json"]):
        code, out, err = run(["inspect", str(edited), *extra], capsys)
        assert code == 0 and err == "" and "ByteLevelBPE" in out


def test_a_config_is_read_with_a_bound_and_a_nesting_limit(tmp_path: Path, corpus_file: Path,
                                                          monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """A config named /dev/zero filled the memory; a deeply nested one crashed in copy.deepcopy
    (RecursionError); a deep --set path in json.dumps. Each is now a one-line usage error."""
    from toolkit import limits

    zero = tmp_path / "zero.toml"
    zero.symlink_to("/dev/zero")
    monkeypatch.setattr(limits, "MAX_FILE_BYTES", 1 << 20)  # the bound, not its size, is under test
    code, _, err = run(["train", str(zero)], capsys)
    assert code == 2 and "more than 1,048,576 bytes" in one_line_error(err)
    monkeypatch.undo()
    base = f'algorithm = "bpe"\ncorpus.files = ["{corpus_file}"]\n'
    deep_toml = tmp_path / "deep.toml"
    deep_toml.write_text(base + "metadata." + "a." * 3000 + "a = 1\n", encoding="utf-8")
    deep_json = tmp_path / "deep.json"
    deep_json.write_text(json.dumps({"algorithm": "bpe", "corpus": {"files": [str(corpus_file)]}})[:-1]
                         + ', "metadata": {"x": ' + "[" * 600 + "]" * 600 + "}}", encoding="utf-8")
    flat = tmp_path / "flat.toml"
    flat.write_text(base, encoding="utf-8")
    out = tmp_path / "t.json"
    for argv in (["train", str(deep_toml)], ["train", str(deep_json)],
                 ["train", str(flat), "--set", "metadata." + "a." * 5000 + "a=1"],
                 ["train", str(flat), "--set", "metadata." + "a." * 100 + "a=1"]):
        code, _, err = run([*argv, "-o", str(out)], capsys)
        assert code == 2 and "nested more than 64 levels deep" in one_line_error(err), argv
        assert not out.exists()


# ---------------------------------------------------------------------------------------- convert
def test_convert_round_trips_through_every_format(
    bl_tokenizer: Path, wp_tokenizer: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "The lazy dog, naïve café 12345!"
    bl = Tokenizer.load(bl_tokenizer)
    hf = tmp_path / "tokenizer.json"
    assert run(["convert", str(bl_tokenizer), str(hf)], capsys)[0] == 0
    assert json.loads(hf.read_text())["model"]["type"] == "BPE"  # Hugging Face layout
    folder = tmp_path / "gpt2"
    assert run(["convert", str(bl_tokenizer), str(folder)], capsys)[0] == 0
    assert (folder / "vocab.json").exists() and (folder / "merges.txt").exists()
    tik = tmp_path / "bl.tiktoken"
    assert run(["convert", str(bl_tokenizer), str(tik)], capsys)[0] == 0
    for source, extra in ((hf, []), (folder, []), (folder / "vocab.json", []), (tik, ["--pattern", "GPT2_PATTERN"])):
        back = tmp_path / "back.json"
        code, out, err = run(["convert", str(source), str(back), *extra], capsys)
        assert code == 0, err
        assert "-> " in out and "(toolkit)" in out
        assert Tokenizer.load(back).encode_ids(text) == bl.encode_ids(text), source

    wp = Tokenizer.load(wp_tokenizer)
    vocab = tmp_path / "vocab.txt"
    assert run(["convert", str(wp_tokenizer), str(vocab)], capsys)[0] == 0
    back = tmp_path / "wp_back.json"
    assert run(["convert", str(vocab), str(back)], capsys)[0] == 0
    assert Tokenizer.load(back).encode_ids(text) == wp.encode_ids(text)
    # encode reads foreign formats directly too
    _, out, _ = run(["encode", str(hf), text], capsys)
    assert list(map(int, out.split())) == bl.encode_ids(text)


def test_hf_tokenizers_loads_the_export(bl_tokenizer: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tokenizers = pytest.importorskip("tokenizers")
    hf = tmp_path / "tokenizer.json"
    assert run(["convert", str(bl_tokenizer), str(hf), "--to", "hf"], capsys)[0] == 0
    text = "The lazy dog, naïve café 12345!"
    assert tokenizers.Tokenizer.from_file(str(hf)).encode(text).ids == Tokenizer.load(bl_tokenizer).encode_ids(text)


def test_convert_errors(bl_tokenizer: Path, wp_tokenizer: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["convert", str(bl_tokenizer), str(tmp_path / "out.bin")], capsys)
    assert code == 2 and "cannot tell the output format" in one_line_error(err)
    code, _, err = run(["convert", str(wp_tokenizer), str(tmp_path / "x.tiktoken")], capsys)
    assert code == 1 and "byte-level BPE" in one_line_error(err)
    lonely = tmp_path / "alone" / "vocab.json"
    lonely.parent.mkdir()
    lonely.write_text("{}")
    code, _, err = run(["convert", str(lonely), str(tmp_path / "y.json")], capsys)
    assert code == 1 and "--merges" in one_line_error(err)


# ---------------------------------------------------------------------------------------- reliability (issue 18)
def script(*args: str, stdin: Any = None, input: str | None = None, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    """Run the real console script (the worktree's code: PYTHONPATH is kept)."""
    if not SCRIPT.exists():
        pytest.skip(f"console script not installed at {SCRIPT}")
    return subprocess.run([str(SCRIPT), *args], stdin=stdin, input=input, capture_output=True, text=True,
                          timeout=120, **kwargs)


def test_options_and_arguments_in_any_order(bl_tokenizer: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Item 17: a text after an option was "unrecognized arguments"."""
    proc = script("encode", str(bl_tokenizer), "--format", "tokens", "Hello world")
    assert proc.returncode == 0, proc.stderr
    expected = run(["encode", str(bl_tokenizer), "Hello world", "--format", "tokens"], capsys)[1]
    assert proc.stdout == expected and expected.strip()
    ids = run(["encode", str(bl_tokenizer), "Hello world"], capsys)[1].split()
    for argv in (["decode", "--skip-special-tokens", str(bl_tokenizer), ids[0], "-q", *ids[1:]],
                 ["decode", str(bl_tokenizer), ids[0], "--skip-special-tokens", *ids[1:]],
                 ["-q", "decode", str(bl_tokenizer), *ids]):
        code, out, err = run(argv, capsys)
        assert (code, out) == (0, "Hello world\n"), (argv, err)
    code, out, err = run(["inspect", "--json", str(bl_tokenizer), "--top", "2"], capsys)
    assert code == 0 and json.loads(out)["vocab_size"] == 300
    code, out, err = run(["encode", "--format", "json", str(bl_tokenizer), "--pair", "b", "a"], capsys)
    assert code == 0 and json.loads(out)["ids"] == Tokenizer.load(bl_tokenizer).encode("a", "b").ids
    from toolkit.cli import build_parser

    parser = build_parser()
    args = parser.parse_args(["train", "--set", "a=1", "cfg.toml", "-j", "2", "--set", "b=2", "-q"])
    assert (args.config, args.set, args.num_workers, args.quiet) == ("cfg.toml", ["a=1", "b=2"], 2, True)
    args = parser.parse_args(["convert", "--to", "hf", "in.json", "--indent", "2", "out.json", "--cased"])
    assert (args.input, args.output, args.to_format, args.indent, args.lowercase) == ("in.json", "out.json", "hf", 2, False)
    args = parser.parse_args(["compare", "-t", "a.json", "cfg.toml", "--json", "-t", "b.json"])
    assert (args.config, args.tokenizer, args.json) == ("cfg.toml", ["a.json", "b.json"], True)


def test_closed_stdout_and_stdin_are_errors(bl_tokenizer: Path, tmp_path: Path) -> None:
    """Item 18: with stdout closed, ``inspect`` exited 0 with its output lost; closed stdin: internal error."""
    if not SCRIPT.exists():
        pytest.skip(f"console script not installed at {SCRIPT}")
    for argv in (["inspect", str(bl_tokenizer)], ["encode", str(bl_tokenizer), "hi"], ["decode", str(bl_tokenizer), "1"]):
        proc = subprocess.run([str(SCRIPT), *argv], stderr=subprocess.PIPE, text=True, timeout=120,
                              preexec_fn=lambda: os.close(1))
        assert proc.returncode == 1, argv
        assert one_line_error(proc.stderr) == (
            "tokenizer-toolkit: error: cannot write standard output: it is closed; redirect it to a file or to /dev/null"
        )
    # a command that prints nothing does not care
    proc = subprocess.run([str(SCRIPT), "-q", "convert", str(bl_tokenizer), str(tmp_path / "hf.json")],
                          stderr=subprocess.PIPE, text=True, timeout=120, preexec_fn=lambda: os.close(1))
    assert proc.returncode == 0 and (tmp_path / "hf.json").exists(), proc.stderr
    for command, what in (("encode", "text"), ("decode", "ids")):
        proc = subprocess.run([str(SCRIPT), command, str(bl_tokenizer)], capture_output=True, text=True, timeout=120,
                              preexec_fn=lambda: os.close(0))
        assert proc.returncode == 1
        assert one_line_error(proc.stderr) == (
            f"tokenizer-toolkit: error: standard input is closed; give the {what} as an argument or with --file"
        )


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_disk_on_stdout_is_one_line(bl_tokenizer: Path) -> None:
    if not SCRIPT.exists():
        pytest.skip(f"console script not installed at {SCRIPT}")
    for argv in (["inspect", str(bl_tokenizer)], ["--help"], ["--version"], ["encode", "--help"]):  # argparse
        with open("/dev/full", "w") as full:  # ignores a failed write of the help: exit code 0 before
            proc = subprocess.run([str(SCRIPT), *argv], stdout=full, stderr=subprocess.PIPE, text=True, timeout=120)
        assert proc.returncode == 1, argv
        assert one_line_error(proc.stderr) == "tokenizer-toolkit: error: cannot write standard output: No space left on device"


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ("[" * 100_000, "ids: expected a flat JSON list of integer ids, got a nested list"),
        ("[1, " + "[" * 100_000, "ids: not a JSON list of ids (too deep, or a number far too large)"),
        ("[" + "9" * 5000 + "]", "ids: not a JSON list of ids (too deep, or a number far too large)"),
        ("9" * 5000, "ids: id 999999999999… (5,000 digits) is not in any vocabulary (ids are at most 2147483647)"),
        ("1 " + "x" * 5000, "ids: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' is not an integer id; give ids as ASCII digits separated by spaces or commas"),
        (str(10**15), f"cannot decode id {10**15}: not in the vocabulary (ids are 0..299)"),
        ("9" * 21, "ids: id 999999999999… (21 digits) is not in any vocabulary (ids are at most 2147483647)"),
    ],
)
def test_decode_hostile_ids_are_one_line(
    bl_tokenizer: Path, stdin: str, message: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 18: "internal error" for deep JSON and 5,000-digit ids."""
    code, out, err = run(["decode", str(bl_tokenizer)], capsys, stdin=stdin, monkeypatch=monkeypatch)
    assert code == 1 and out == ""
    assert one_line_error(err) == f"tokenizer-toolkit: error: {message}"


def test_huge_numbers_and_deep_configs_are_one_line(
    bl_tokenizer: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Item 18 and its class: every integer option, config files and ``--set`` values."""
    huge = "9" * 5000
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000)
    deep_toml = tmp_path / "deep.toml"
    deep_toml.write_text("a = " + "[" * 100_000)
    big = tmp_path / "big.json"
    big.write_text('{"trainer": {"vocab_size": ' + huge + "}}")
    cases = [
        (["convert", str(bl_tokenizer), str(tmp_path / "o.json"), "--indent", "100000"],
         "argument --indent: expected an integer 0..64, got 100000"),
        (["convert", str(bl_tokenizer), str(tmp_path / "o.json"), "--indent", huge], "argument --indent: expected an integer 0..64"),
        (["inspect", str(bl_tokenizer), "--top", huge], "argument --top: expected an integer >= 0"),
        (["inspect", str(bl_tokenizer), "--top", "-1"], "argument --top: expected an integer >= 0, got -1"),
        (["train", str(CONFIGS / "bpe.toml"), "-j", huge], "argument -j/--num-workers: expected an integer >= 1"),
        (["compare", "-t", str(bl_tokenizer), "--max-bytes", huge], "argument --max-bytes: expected an integer >= 1"),
        (["train", str(CONFIGS / "bpe.toml"), "--set", f"trainer.vocab_size={huge}"], "nested too deeply or holds a number"),
        (["train", str(CONFIGS / "bpe.toml"), "--set", "trainer.vocab_size=" + "[" * 100_000], "nested too deeply"),
        (["train", str(deep)], f"{deep}: nested too deeply"),
        (["train", str(deep_toml)], f"{deep_toml}: nested too deeply"),
        (["train", str(big)], f"{big}: nested too deeply or holds a number far too large"),
        (["compare", str(deep)], f"{deep}: nested too deeply"),
    ]
    for argv, message in cases:
        code, out, err = run(argv, capsys)
        assert code == 2 and out == "", (argv[:3], err[:300])
        line = one_line_error(err)
        assert message in line and "internal error" not in line and len(line) < 400, (argv[:3], line[:300])
    assert not (tmp_path / "o.json").exists()


def test_convert_refuses_to_overwrite_its_input_with_another_format(
    bl_tokenizer: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Item 19: ``convert same.json same.json`` replaced our file (metadata and all) with HF JSON."""
    same = tmp_path / "same.json"
    same.write_bytes(bl_tokenizer.read_bytes())
    (tmp_path / "link.json").symlink_to(same)
    (tmp_path / "sub").mkdir()
    original = same.read_bytes()
    for output in (same, tmp_path / "link.json", tmp_path / "sub" / ".." / "same.json", Path(os.path.relpath(same))):
        for argv in (["convert", str(same), str(output)], ["convert", str(tmp_path / "link.json"), str(output), "--to", "hf"]):
            code, out, err = run(argv, capsys)
            assert code == 2 and out == ""
            line = one_line_error(err)
            assert "is the input file" in line and "give another output path (or --to toolkit to rewrite it in place)" in line
    assert same.read_bytes() == original
    proc = script("convert", str(same), str(same))
    assert proc.returncode == 2 and "is the input file" in one_line_error(proc.stderr)
    # the same format: a rewrite in place, allowed
    code, _, err = run(["convert", str(same), str(same), "--to", "toolkit", "--indent", "2"], capsys)
    assert code == 0, err
    assert Tokenizer.load(same).to_dict() == Tokenizer.load(bl_tokenizer).to_dict()
    # vocab.json + merges.txt: the folder output holds the input files
    folder = tmp_path / "vm"
    assert run(["convert", str(same), str(folder), "--to", "vocab-merges"], capsys)[0] == 0
    code, _, err = run(["convert", str(folder / "vocab.json"), str(folder / "merges.txt"), "--to", "hf"], capsys)
    assert code == 2 and "is the input file" in one_line_error(err)
    assert run(["convert", str(folder / "vocab.json"), str(folder)], capsys)[0] == 0  # same format, in place


# ---------------------------------------------------------------------------------------- edges found by review
@pytest.mark.parametrize("output, says", [
    ("", "--output: the path is empty"),
    ("tok.model", "--output: tok.model: training writes the tokenizer as JSON, which a .model name would pass off"),
    ("tok.tiktoken", "name it tok.json, then convert it (tokenizer-toolkit convert tok.json tok.tiktoken)"),
    ("vocab.TXT", "as a vocab-txt file"),
    ("-", "--output: - (standard output) cannot take a tokenizer; give a file path"),
    ("tok.json/", "--output: tok.json/ ends with a slash or a dot, which names a directory; give a file path such as "
                  "tok.json/tokenizer.json"),
    ("tok.json/.", "--output: tok.json/. ends with a slash or a dot, which names a directory"),
    ("/dev/null", "--output: /dev/null: it is a device or special file, not a regular file"),
])
def test_train_refuses_an_output_it_cannot_write_or_that_would_not_load(
    output: str, says: str, tmp_path: Path, corpus_file: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(["train", str(CONFIGS / "bpe.toml"), "--set", f'corpus.files=["{corpus_file}"]',
                          "-o", output], capsys)
    assert code == 2 and out == "" and says in one_line_error(err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["corpus.txt"]  # checked before counting: nothing written


def test_train_refuses_an_output_below_a_file_and_an_empty_config_output(
    tmp_path: Path, corpus_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(["train", str(CONFIGS / "bpe.toml"), "--set", f'corpus.files=["{corpus_file}"]',
                        "-o", str(corpus_file / "tok.json")], capsys)
    assert code == 2 and f"{corpus_file} is a file, not a folder" in one_line_error(err)
    code, _, err = run(["train", str(CONFIGS / "bpe.toml"), "--set", f'corpus.files=["{corpus_file}"]',
                        "--set", 'output=""'], capsys)
    assert code == 2 and "output: the path is empty" in one_line_error(err)


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root ignores permissions")
def test_train_refuses_an_unwritable_folder_before_counting(
    tmp_path: Path, corpus_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        code, _, err = run(["train", str(CONFIGS / "bpe.toml"), "--set", f'corpus.files=["{corpus_file}"]',
                            "-o", str(locked / "new" / "tok.json")], capsys)
    finally:
        locked.chmod(0o700)
    assert code == 2 and f"the folder {locked} is not writable" in one_line_error(err)


def test_a_normalized_document_over_the_limit_names_the_file_and_the_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import toolkit.limits

    monkeypatch.setattr(toolkit.limits, "MAX_INPUT_CHARS", 1000)
    corpus = tmp_path / "one.txt"
    corpus.write_text("ﬁne words\n" * 150, encoding="utf-8")  # NFKC: ﬁ -> fi, 1,650 characters
    code, _, err = run(["train", str(CONFIGS / "bpe.toml"), "--set", f'corpus.files=["{corpus}"]', "-j", "1",
                        "--set", 'corpus.document="file"', "-o", str(tmp_path / "t.json")], capsys)
    line = one_line_error(err)
    assert code == 1 and f"corpus file {corpus}: a document cannot be normalized" in line
    assert 'use document = "line", or raise the limit' in line and not (tmp_path / "t.json").exists()


def test_encode_lines_drop_the_carriage_return_of_crlf_files(
    tmp_path: Path, bl_tokenizer: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    crlf, lf = tmp_path / "crlf.txt", tmp_path / "lf.txt"
    crlf.write_bytes(b"Hello world\r\nsecond line\r\n")
    lf.write_bytes(b"Hello world\nsecond line\n")
    results = [run(["encode", str(bl_tokenizer), "--file", str(f), "--lines", "--format", "tokens"], capsys)
               for f in (crlf, lf)]
    assert results[0] == results[1] and results[0][0] == 0 and "\\r" not in results[0][1]
    assert len(results[0][1].splitlines()) == 2


def test_an_argument_that_is_not_utf8_is_named_as_such(bl_tokenizer: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = b"ab\xff".decode("utf-8", "surrogateescape")  # what Python makes of such a byte in argv
    code, _, err = run(["encode", str(bl_tokenizer), text], capsys)
    assert code == 1 and "the text argument is not valid UTF-8 (byte 0xFF at character 2)" in one_line_error(err)


@pytest.mark.parametrize("ids", ["١٢", "1_0", "1,,2", ",1", "0x10"])
def test_decode_takes_ascii_ids_only(ids: str, bl_tokenizer: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["decode", str(bl_tokenizer), ids], capsys)
    assert code == 1 and "is not an integer id; give ids as ASCII digits" in one_line_error(err)


def test_decode_takes_a_trailing_comma(bl_tokenizer: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["decode", str(bl_tokenizer), "72, 105,"], capsys) == run(["decode", str(bl_tokenizer), "72 105"], capsys)


@pytest.mark.parametrize("output", ["-", ""])
def test_convert_refuses_standard_output_and_an_empty_path(
    output: str, tmp_path: Path, bl_tokenizer: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    before = sorted(tmp_path.iterdir())
    code, _, err = run(["convert", str(bl_tokenizer), output], capsys)
    assert code == 2 and one_line_error(err).startswith("tokenizer-toolkit convert: error: the output ")
    assert sorted(tmp_path.iterdir()) == before


@pytest.mark.parametrize("output, says", [
    ("/dev/null", "the output /dev/null/vocab.json: /dev/null is a device or special file, not a folder; give another "
                  "path (a name without an extension is a folder for vocab.json + merges.txt; name a file .json to "
                  "write one file)"),
    ("{file}/x.json", "the output {file}/x.json: {file} is a file, not a folder; give another path"),
    ("{file}", "the output {file}/vocab.json: {file} is a file, not a folder"),
    ("x.json/", "the output x.json/: the path ends with a slash or a dot, which names a folder; give a file path"),
    ("x.json/.", "the output x.json/.: the path ends with a slash or a dot, which names a folder; give a file path"),
    ("{folder}/tokenizer.json", "the output {folder}/tokenizer.json: it is a folder, not a regular file"),
])
def test_convert_refuses_an_output_it_cannot_write_before_reading_the_input(
    output: str, says: str, tmp_path: Path, bl_tokenizer: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import toolkit.cli.commands

    work = tmp_path / "work"
    (work / "dir" / "tokenizer.json").mkdir(parents=True)
    (work / "afile").write_text("keep", encoding="utf-8")
    monkeypatch.chdir(work)
    names = {"file": "afile", "folder": "dir"}
    monkeypatch.setattr(toolkit.cli.commands, "load_tokenizer", None)  # reading the input would fail the test
    code, out, err = run(["convert", str(bl_tokenizer), output.format(**names)], capsys)
    assert code == 2 and out == "", err
    assert one_line_error(err).startswith("tokenizer-toolkit convert: error: " + says.format(**names))
    assert sorted(p.name for p in work.iterdir()) == ["afile", "dir"] and (work / "afile").read_text() == "keep"
    assert [p.name for p in (work / "dir").iterdir()] == ["tokenizer.json"]


@pytest.mark.parametrize("argv, says", [
    (["encode", "{tok}", "--pattern", "GPT2_PATTERN", "hi"], "the option pattern applies to tiktoken files only"),
    (["inspect", "{tok}", "--pattern", "CL100K_PATTERN"], "the option pattern applies to tiktoken files only"),
    (["decode", "{tok}", "--pattern", "CL100K_PATTERN", "1"], "the option pattern applies to tiktoken files only"),
    (["convert", "{tok}", "{out}", "--lowercase"], "the option lowercase applies to vocab-txt files only"),
    (["convert", "{tok}", "{out}", "--merges", "m.txt"], "the option merges applies to vocab-merges files only"),
])
def test_an_option_that_does_not_apply_to_the_file_is_an_error_not_ignored(
    argv: list[str], says: str, tmp_path: Path, bl_tokenizer: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.json"
    code, printed, err = run([a.format(tok=bl_tokenizer, out=out) for a in argv], capsys)
    assert code == 2 and printed == "" and not out.exists()
    assert one_line_error(err) == f"tokenizer-toolkit: error: {bl_tokenizer} is a toolkit file: {says}; leave it out"


def test_usage_errors_of_commands_say_error(bl_tokenizer: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["encode", str(bl_tokenizer), "text", "--file", str(bl_tokenizer)], capsys)
    assert code == 2 and one_line_error(err).startswith("tokenizer-toolkit encode: error: give the input")
    code, _, err = run(["convert", str(bl_tokenizer), str(tmp_path / "x.json"), "--template", "t"], capsys)
    assert code == 2 and one_line_error(err).startswith("tokenizer-toolkit convert: error: --template")


def test_convert_errors_name_the_to_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from algorithms import WordPiece

    wordpiece = tmp_path / "wp.json"
    Tokenizer(WordPiece({"[UNK]": 0, "a": 1}, unk_token="[UNK]")).save(wordpiece)
    code, _, err = run(["convert", str(wordpiece), str(tmp_path / "x.tiktoken")], capsys)
    assert code == 1 and one_line_error(err).startswith("tokenizer-toolkit: error: --to tiktoken: ")


def test_a_transformers_folder_is_told_by_its_tokenizer_json(
    tmp_path: Path, bl_tokenizer: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "model"
    assert run(["convert", str(bl_tokenizer), str(folder), "--to", "transformers", "-q"], capsys)[0] == 0
    code, out, _ = run(["encode", str(bl_tokenizer), "Hello world"], capsys)
    assert run(["encode", str(folder), "Hello world"], capsys) == (code, out, "")
    code, out, err = run(["convert", str(folder), str(tmp_path / "back.json")], capsys)
    assert code == 0 and "(transformers)" in out, err
    # converting into the folder again writes it as a transformers folder, not vocab.json + merges.txt
    assert run(["convert", str(bl_tokenizer), str(folder), "-q"], capsys)[0] == 0
    assert not (folder / "vocab.json").exists()


def test_a_tiktoken_file_with_a_bad_line_is_reported_by_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.tiktoken"
    bad.write_text("IQ== 0\nIg== 1\nnot base64 2\n", encoding="utf-8")
    code, _, err = run(["inspect", str(bad), "--pattern", "GPT2_PATTERN"], capsys)
    line = one_line_error(err)
    assert code == 1 and line.endswith("bad.tiktoken:3: expected '<base64 token> <rank>', got 'not base64 2'"), line


def test_a_config_output_that_cannot_be_written_is_no_problem_when_output_overrides_it(
    tmp_path: Path, corpus_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "train.toml"
    config.write_text((CONFIGS / "bpe.toml").read_text(encoding="utf-8").replace(
        'output = "out/bpe.json"', f'output = "{corpus_file}/under/a/file.json"'), encoding="utf-8")
    code, _, err = run(["train", str(config), "--set", f'corpus.files=["{corpus_file}"]',
                        "--set", "trainer.vocab_size=120", "-o", str(tmp_path / "mine.json"), "-q"], capsys)
    assert code == 0 and (tmp_path / "mine.json").is_file(), err
    code, _, err = run(["train", str(config), "--set", f'corpus.files=["{corpus_file}"]'], capsys)
    assert code == 2 and f"{config}: output: {corpus_file}/under/a/file.json: {corpus_file} is a file" in one_line_error(err)
