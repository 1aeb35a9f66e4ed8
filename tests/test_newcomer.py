"""Issue 16, the newcomer's path: progress you can see, unreachable sizes reported, a CLI that never
leaves a mess (unit writes, content detection, did-you-mean, terminal stdin, echo's newline), and the
notebook extra. CLI tests drive the installed console script in a subprocess."""

from __future__ import annotations

import io
import json
import os
import pty
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from conftest import ROOT

from algorithms import (
    BPE,
    BPETrainer,
    ByteLevelBPE,
    ByteLevelBPETrainer,
    WordPiece,
    WordPieceTrainer,
)
from pretokenizers import ByteLevel, Metaspace, Whitespace
from toolkit import Tokenizer, VocabSizeWarning, decoders, progress
from toolkit.errors import ConfigError, SerializationError, did_you_mean
from toolkit.interop.files import detect_format, save_tokenizer

SCRIPT = Path(sys.executable).parent / "tokenizer-toolkit"
TEXT = [f"line {i}: the quick brown fox jumps over the lazy dog, naïve café {i * 7}\n" for i in range(200)]


def cli(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([str(SCRIPT), *args], cwd=cwd, env=env, input=stdin, capture_output=True, text=True, timeout=120, check=False)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _byte_level() -> Tokenizer:
    return Tokenizer(ByteLevelBPE(), pre_tokenizer=ByteLevel(add_prefix_space=False), decoder=decoders.ByteLevel())


# ---------------------------------------------------------------------------------------- progress
@pytest.mark.parametrize("make", [
    lambda **o: (Tokenizer(BPE(), pre_tokenizer=Whitespace()), BPETrainer(vocab_size=120, **o)),
    lambda **o: (_byte_level(), ByteLevelBPETrainer(vocab_size=300, **o)),
    lambda **o: (Tokenizer(WordPiece(), pre_tokenizer=Whitespace()), WordPieceTrainer(vocab_size=80, **o)),
    lambda **o: (Tokenizer(WordPiece(), pre_tokenizer=Whitespace()), WordPieceTrainer(vocab_size=80, criterion="frequency", **o)),
], ids=["bpe", "byte-level", "wordpiece", "wordpiece-frequency"])
def test_training_draws_counting_and_merging_on_a_terminal_by_default(make, monkeypatch: pytest.MonkeyPatch) -> None:
    err = _Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    tok, trainer = make()
    assert trainer.show_progress is True
    tok.train(TEXT, trainer)
    drawn = err.getvalue()
    assert "counting" in drawn and "merges" in drawn and "100%" in drawn
    assert drawn.endswith("\n")  # the bar's line is ended: the next output starts on its own line

    quiet = _Terminal()
    monkeypatch.setattr(sys, "stderr", quiet)
    tok, trainer = make(show_progress=False)
    tok.train(TEXT, trainer)
    assert quiet.getvalue() == ""
    trainer.show_progress = True  # a live option, like every other
    tok.train(TEXT, trainer)
    assert "merges" in quiet.getvalue()


def test_no_bar_when_stderr_is_not_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    Tokenizer(BPE(), pre_tokenizer=Whitespace()).train(TEXT, BPETrainer(vocab_size=100))
    assert err.getvalue() == ""


def test_a_progress_callback_hears_counting_and_merging_and_nothing_is_drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    err = _Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    heard: list[tuple[str, int, int]] = []
    trainer = BPETrainer(vocab_size=100, progress=lambda *event: heard.append(event))
    Tokenizer(BPE(), pre_tokenizer=Whitespace()).train(TEXT, trainer)
    stages = [stage for stage, _, _ in heard]
    assert stages[0] == "counting" and stages[-1] == "merges"
    assert err.getvalue() == ""


def test_notebooks_get_an_html_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("IPython")
    import IPython.display

    shown: list[str] = []

    class Handle:
        def update(self, obj: object) -> None:
            shown.append(obj.data)  # type: ignore[attr-defined]

    def display(obj: object, display_id: bool = False) -> Handle:
        shown.append(obj.data)  # type: ignore[attr-defined]
        return Handle()

    monkeypatch.setattr(IPython.display, "display", display)
    monkeypatch.setattr(progress, "in_notebook", lambda: True)
    monkeypatch.setattr(sys, "stderr", io.StringIO())  # not a terminal: the notebook bar still shows
    assert isinstance(progress.default_display(), progress.NotebookProgress)
    Tokenizer(BPE(), pre_tokenizer=Whitespace()).train(TEXT, BPETrainer(vocab_size=100))
    assert any("<progress" in html and "counting" in html for html in shown)
    assert any("merges" in html and 'value="1.0000"' in html for html in shown)


def test_in_notebook_is_false_outside_a_kernel() -> None:
    assert progress.in_notebook() is False


# ---------------------------------------------------------------------------------------- unreachable sizes
def test_the_tours_vocab_size_300_that_yields_267_is_reported() -> None:
    tok = _byte_level()
    with pytest.warns(VocabSizeWarning, match=r"vocab_size=300 cannot be reached: training stopped at 267 tokens"):
        tok.train(["some text", "more text"], ByteLevelBPETrainer(vocab_size=300, special_tokens=["<|endoftext|>"]))
    assert tok.vocab_size == 267


def test_a_reachable_size_is_silent_and_min_frequency_is_named() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Tokenizer(BPE(), pre_tokenizer=Whitespace()).train(TEXT, BPETrainer(vocab_size=60))
    with pytest.warns(VocabSizeWarning, match="at least 500 times.*lower min_frequency"):
        Tokenizer(BPE(), pre_tokenizer=Whitespace()).train(TEXT, BPETrainer(vocab_size=5000, min_frequency=500))


def test_config_training_reports_the_shortfall_in_its_result_and_the_cli(tmp_path: Path) -> None:
    from toolkit.training.config import TrainingConfig, train_from_config

    config = {"algorithm": "bpe", "corpus": {"texts": ["low lower lowest"] * 5}, "pre_tokenizer": "Whitespace",
              "trainer": {"vocab_size": 100}}
    with pytest.warns(VocabSizeWarning):
        result = train_from_config(TrainingConfig.from_dict(config))
    assert result.requested_vocab_size == 100 and len(result.warnings) == 1
    assert f"vocab {result.tokenizer.vocab_size:,} (of 100 requested" in result.summary()
    (tmp_path / "c.json").write_text(json.dumps({**config, "output": "t.json"}))
    run = cli("train", "c.json", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert re.search(r"^tokenizer-toolkit: warning: BPETrainer: vocab_size=100 cannot be reached", run.stderr, re.MULTILINE)
    assert "Warning" not in run.stderr  # one line of ours, not Python's warning print-out
    assert "(of 100 requested" in run.stdout


# ---------------------------------------------------------------------------------------- the CLI
@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("cli")
    Tokenizer(BPE(unk_token="[UNK]"), pre_tokenizer=Metaspace(), decoder=decoders.Metaspace()).train(
        ["a b\nc d"] * 20 + TEXT, BPETrainer(vocab_size=150, special_tokens=["[UNK]"], show_progress=False)
    ).save(folder / "metaspace.json")  # merges.txt cannot hold its "▁" + "\n" merge
    tok = _byte_level().train(TEXT, ByteLevelBPETrainer(vocab_size=300))
    tok.save(folder / "tok.json")
    (folder / "corpus.txt").write_text("".join(TEXT), encoding="utf-8")
    return folder


def test_a_failed_vocab_merges_conversion_writes_nothing(files: Path) -> None:
    run = cli("convert", "metaspace.json", "new_folder", "--to", "vocab-merges", cwd=files)
    assert run.returncode == 1 and "cannot write merges.txt" in run.stderr
    assert not (files / "new_folder").exists()
    old = files / "old_folder"
    old.mkdir()
    (old / "vocab.json").write_text("{}")
    run = cli("convert", "metaspace.json", "old_folder", "--to", "vocab-merges", cwd=files)
    assert run.returncode == 1
    assert sorted(p.name for p in old.iterdir()) == ["vocab.json"] and (old / "vocab.json").read_text() == "{}"
    run = cli("convert", "tok.json", "old_folder", "--to", "vocab-merges", cwd=files)
    assert run.returncode == 0, run.stderr
    assert sorted(p.name for p in old.iterdir()) == ["merges.txt", "vocab.json"]


def test_save_tokenizer_restores_what_was_there_when_a_move_fails(files: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tok = Tokenizer.load(files / "tok.json")
    folder = files / "unit"
    folder.mkdir()
    (folder / "vocab.json").write_text("old vocab")
    (folder / "merges.txt").write_text("old merges")
    real = os.replace
    calls = []

    def flaky(src: object, dst: object) -> None:
        calls.append(dst)
        if Path(dst) == folder / "merges.txt" and not str(src).endswith(".old"):  # the move into place, not back
            raise OSError(28, "No space left on device")
        real(src, dst)

    monkeypatch.setattr(os, "replace", flaky)
    with pytest.raises(OSError):
        save_tokenizer(tok, folder, format="vocab-merges")
    monkeypatch.setattr(os, "replace", real)
    assert (folder / "vocab.json").read_text() == "old vocab" and (folder / "merges.txt").read_text() == "old merges"
    assert sorted(p.name for p in folder.iterdir()) == ["merges.txt", "vocab.json"]


def test_a_text_file_given_as_the_tokenizer_is_named_for_what_it_is(files: Path) -> None:
    run = cli("encode", "corpus.txt", "hello", cwd=files)
    assert run.returncode == 1
    assert "corpus.txt: this does not look like a tokenizer file (line 1 is 'line 0: the quick" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


def test_formats_are_told_by_content(files: Path, tmp_path: Path) -> None:
    tok = Tokenizer.load(files / "tok.json")
    save_tokenizer(tok, tmp_path / "pair", format="vocab-merges")
    save_tokenizer(tok, tmp_path / "ranks.txt", format="tiktoken")
    wp = Tokenizer(WordPiece(), pre_tokenizer=Whitespace()).train(TEXT, WordPieceTrainer(vocab_size=90, show_progress=False))
    save_tokenizer(wp, tmp_path / "vocab.lst", format="vocab-txt")
    save_tokenizer(tok, tmp_path / "hf.json", format="hf")
    assert detect_format(tmp_path / "pair" / "merges.txt") == "vocab-merges"  # .txt, but two tokens a line
    assert detect_format(tmp_path / "pair" / "vocab.json") == "vocab-merges"
    assert detect_format(tmp_path / "ranks.txt") == "tiktoken"
    with pytest.raises(ConfigError, match="cannot tell"):  # one word a line, a name that says nothing
        detect_format(tmp_path / "vocab.lst")
    (tmp_path / "vocab.lst").rename(tmp_path / "vocab.txt")
    assert detect_format(tmp_path / "vocab.txt") == "vocab-txt"
    (tmp_path / "pair" / "vocab.json").rename(tmp_path / "pair" / "vocab")
    assert detect_format(tmp_path / "pair" / "vocab") == "vocab-merges"  # a JSON object, whatever its name
    assert detect_format(tmp_path / "hf.json") == "hf"
    assert detect_format(files / "tok.json") == "toolkit"
    for name, content, why in [
        ("list.json", "[1, 2, 3]", "a JSON file that is neither a tokenizer file nor a vocab.json"),
        ("empty.txt", "\n\n", "it is empty"),
        ("binary.bin", b"\xff\xfe\x00\x01" * 10, "it is not UTF-8 text"),
    ]:
        path = tmp_path / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
        with pytest.raises(SerializationError, match=f"this does not look like a tokenizer file \\({why}"):
            detect_format(path)
    with pytest.raises(ConfigError, match="cannot tell the tokenizer format"):
        detect_format(tmp_path / "missing.bin")


@pytest.mark.parametrize("args, config, hint", [
    (["encdoe", "tok.json", "x"], None, "did you mean 'encode'?"),
    (["encode", "tok.json", "--from", "hff", "x"], None, "did you mean 'hf'?"),
    (["convert", "tok.json", "out", "--to", "vocab-merge"], None, "did you mean 'vocab-merges'?"),
    (["train", "c.json"], {"algorithm": "bpee"}, "unknown algorithm 'bpee' (did you mean 'bpe'?)"),
    (["train", "c.json"], {"algorithm": "bpe", "normalizer": "NFCK"}, "unknown normalizer type 'NFCK' (did you mean 'NFC'?)"),
    (["train", "c.json"], {"algorithm": "bpe", "trainer": {"vocab_sise": 5}}, "vocab_sise: unknown option (did you mean 'vocab_size'?)"),
    (["train", "c.json"], {"algorithm": "bpe", "normaliser": "NFC"}, "normaliser: unknown field (did you mean 'normalizer'?)"),
    (["train", "c.json"], {"preset": "gpt2"}, "unknown preset 'gpt2' (did you mean 'gpt2_style'?)"),
], ids=["command", "from", "to", "algorithm", "component", "option", "config-key", "preset"])
def test_misspelled_names_get_did_you_mean(args: list[str], config: dict | None, hint: str, files: Path, tmp_path: Path) -> None:
    cwd = files
    if config is not None:
        cwd = tmp_path
        (tmp_path / "c.json").write_text(json.dumps({"corpus": {"texts": ["a b"]}, "output": "t.json", **config}))
    run = cli(*args, cwd=cwd)
    assert run.returncode == 2
    assert hint in run.stderr and len(run.stderr.strip().splitlines()) == 1


def test_did_you_mean_stays_quiet_without_a_close_name() -> None:
    assert did_you_mean("zzzz", ["bpe", "wordpiece"]) == ""
    assert did_you_mean("bpe", ["bpe"]) == ""


def test_echos_newline_is_dropped_unless_asked_to_keep_it(files: Path) -> None:
    plain = cli("encode", "tok.json", "--format", "tokens", cwd=files, stdin="the fox\n")
    kept = cli("encode", "tok.json", "--format", "tokens", "--keep-newline", cwd=files, stdin="the fox\n")
    argument = cli("encode", "tok.json", "--format", "tokens", "the fox\n", cwd=files)
    assert plain.returncode == kept.returncode == argument.returncode == 0
    assert "Ċ" not in plain.stdout and plain.stdout == cli("encode", "tok.json", "--format", "tokens", "the fox", cwd=files).stdout
    assert kept.stdout.split()[-1] == "Ċ" and argument.stdout.split()[-1] == "Ċ"  # exactly as given
    two = cli("encode", "tok.json", "--format", "tokens", cwd=files, stdin="the fox\n\n")
    assert two.stdout.split()[-1] == "Ċ"  # only one newline is dropped


def test_encode_says_when_it_waits_for_a_terminal(files: Path) -> None:
    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen([str(SCRIPT), "encode", "tok.json"], cwd=files, env=env, stdin=slave,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    os.close(slave)
    try:
        os.write(master, b"the fox\n\x04")  # a line, then Ctrl-D
        out, err = proc.communicate(timeout=60)
    finally:
        os.close(master)
    assert proc.returncode == 0, err
    assert "reading the text from the terminal; end it with Ctrl-D" in err
    assert out.strip() == cli("encode", "tok.json", "the fox", cwd=files).stdout.strip()
    piped = cli("encode", "tok.json", cwd=files, stdin="the fox")
    assert "terminal" not in piped.stderr


# ---------------------------------------------------------------------------------------- notebooks
def test_make_notebooks_installs_the_notebook_extra_and_opens_the_notebooks() -> None:
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert any(req.startswith("jupyterlab") for req in extras["notebook"])
    dry = subprocess.run(["make", "-n", "notebooks"], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
                         env={**os.environ, "MAKEFLAGS": ""})
    assert dry.returncode == 0, dry.stderr
    assert "'.[notebook]'" in dry.stdout or ".venv/.installed-notebook" not in dry.stdout
    assert "jupyter lab examples/notebooks" in dry.stdout
    makefile = (ROOT / "Makefile").read_text()
    assert "pip install -q -e '.[notebook]'" in makefile


def test_make_test_spreads_the_tests_over_the_cores_with_the_test_extra() -> None:
    # The default set takes about twice as long in one process (docs/testing.md): make test, make
    # test-slow and .ci/run pass pytest-xdist's -n, which the test extra installs.
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert any(req.startswith("pytest-xdist") for req in extras["test"])
    for target in ("test", "test-slow"):
        dry = subprocess.run(["make", "-n", target], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
                             env={**os.environ, "MAKEFLAGS": ""})
        assert dry.returncode == 0, dry.stderr
        assert "-m pytest -q -n logical --maxprocesses=4" in dry.stdout
    assert (ROOT / ".ci" / "run").read_text().count("-m pytest -q -n logical --maxprocesses=4") == 2


def test_the_install_metadata_uses_an_spdx_license_string() -> None:
    # `pip install -e .` warns about a `project.license` table and "License ::" classifiers
    # (setuptools >= 77 deprecates both); an SPDX expression string installs without warnings.
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert isinstance(project["license"], str)
    assert not [c for c in project.get("classifiers", []) if c.startswith("License ::")]


def test_the_metric_table_fits_a_page() -> None:
    # Exported notebooks cut tables at about 900 px: headers wrap (spaces, "/"), cells stay on one line,
    # so the table is as wide as the sum of its widest cells and longest header words.
    from toolkit.analysis import compare

    texts = TEXT[:20]
    tokenizers = {
        "BPE": Tokenizer(BPE(unk_token="[UNK]"), pre_tokenizer=Metaspace()).train(
            texts, BPETrainer(vocab_size=100, special_tokens=["[UNK]"], show_progress=False)),
        "byte-level BPE": _byte_level().train(texts, ByteLevelBPETrainer(vocab_size=300, show_progress=False)),
        "WordPiece": Tokenizer(WordPiece(), pre_tokenizer=Whitespace()).train(
            texts, WordPieceTrainer(vocab_size=60, show_progress=False)),
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", VocabSizeWarning)
        page = compare(tokenizers, texts, training_seconds={name: 12.5 for name in tokenizers}).to_html()
    assert "overflow-x:auto" in page and "white-space:normal" in page
    tables = re.findall(r'<table class="tkc">(.*?)</table>', page, re.DOTALL)
    assert len(tables) >= 2
    for table in tables:
        # a cell is as wide as its text, or as its longest word where it wraps (headers, lists of examples)
        rows = [[(re.sub(r"<wbr>", "\u200b", text), 'wrap' in attrs or tag == "th")
                 for tag, attrs, text in re.findall(r"<(t[hd])([^>]*)>(.*?)</t[hd]>", row, re.DOTALL)]
                for row in re.findall(r"<tr>(.*?)</tr>", table, re.DOTALL)]
        header = [text for text, _ in rows[0]]
        widths = [max(max(len(w) for w in re.split(r"[ \u200b]", text)) if wraps else len(text)
                      for text, wraps in (r[i] for r in rows))
                  for i in range(len(header))]
        pixels = sum(widths) * 7.5 + len(widths) * 9  # 13px font: ~7.5 px a character; 4 px padding each side
        assert pixels < 900, (pixels, header, widths)


def test_the_demos_lossy_note_tells_the_true_cause() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("demo", ROOT / "examples" / "demo.py")
    demo = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(demo)  # type: ignore[union-attr]
    from toolkit import normalizers

    tok = Tokenizer(BPE(unk_token="[UNK]"), normalizer=normalizers.NFKC(), pre_tokenizer=Metaspace(),
                    decoder=decoders.Metaspace())
    lines = ["plain text\n", "   indented code\n", "an ellipsis … here\n", "more text\n"]
    tok.train(lines * 5, BPETrainer(vocab_size=60, special_tokens=["[UNK]"], show_progress=False))
    note = demo.lossy_causes(tok, lines)
    assert note.startswith("2 of 4 held-out lines do not round-trip")
    assert "1 start with a space, which the Metaspace decoder drops" in note
    assert "1 are rewritten by the NFKC normalizer (… becomes ...)" in note


def test_a_sweeps_trainings_draw_no_bars_of_their_own(monkeypatch: pytest.MonkeyPatch) -> None:
    from toolkit.analysis import sweep

    err = _Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    pipelines = {"bpe": (Tokenizer(BPE(), pre_tokenizer=Whitespace()), BPETrainer(vocab_size=100))}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", VocabSizeWarning)
        sweep(pipelines, TEXT, vocab_sizes=[80, 100], texts=TEXT[:5])
    assert "merges" not in err.getvalue()
