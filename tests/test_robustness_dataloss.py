"""No data loss: saving is atomic (a process killed mid-write leaves the previous file intact), training
writes its output only once complete, and a corpus file that disappears, shrinks, changes or turns
unreadable while it is being read is a clear :class:`CorpusError` — never silently partial counts.
"""

from __future__ import annotations

import gzip
import os
import random
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from test_robustness_support import corpus_lines, pipelines
from toolkit import Tokenizer
from toolkit.errors import CorpusError, SerializationError
from toolkit.interfaces import Normalizer

TESTS = Path(__file__).resolve().parent

# A child process that starts saving a *different* tokenizer over the file, writes half of it into
# the temporary file, tells the parent, and waits to be killed.
_KILLED_MID_WRITE = r"""
import os, sys, time
sys.path.insert(0, sys.argv[3])
from test_robustness_support import pipelines
import toolkit.serialization as serialization

real_fdopen = os.fdopen

class HalfWriter:
    def __init__(self, fh):
        self.fh = fh
    def __enter__(self):
        return self
    def __exit__(self, *exc):
        return self.fh.__exit__(*exc)
    def write(self, text):
        self.fh.write(text[: len(text) // 2])
        self.fh.flush()
        os.fsync(self.fh.fileno())
        open(sys.argv[2], "w").write("half written")
        time.sleep(120)
        self.fh.write(text[len(text) // 2:])
    def __getattr__(self, name):
        return getattr(self.fh, name)

serialization.os.fdopen = lambda fd, *a, **k: HalfWriter(real_fdopen(fd, *a, **k))
pipelines()["chat"].save(sys.argv[1])
"""


def _wait_for(path: Path, proc: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        if proc.poll() is not None:
            raise AssertionError(f"child exited early: {proc.communicate()}")
        if time.monotonic() > deadline:
            raise AssertionError("child never reached the write")
        time.sleep(0.02)


def test_killed_mid_save_leaves_the_previous_file_intact(tmp_path: Path) -> None:
    target = tmp_path / "tok.json"
    previous = pipelines()["bpe"]
    previous.save(target)
    before = target.read_bytes()
    signal_file = tmp_path / "half"
    proc = subprocess.Popen([sys.executable, "-c", _KILLED_MID_WRITE, str(target), str(signal_file), str(TESTS)])
    try:
        _wait_for(signal_file, proc)
        temps = list(tmp_path.glob(".tok.json.*.tmp"))
        assert len(temps) == 1 and 0 < temps[0].stat().st_size  # the new version is half on disk...
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL
    assert target.read_bytes() == before  # ...and the file itself was never touched
    assert Tokenizer.load(target).encode_ids("hello world") == previous.encode_ids("hello world")


_SAVE_LOOP = r"""
import sys
sys.path.insert(0, sys.argv[2])
from test_robustness_support import pipelines
a, b = pipelines()["bpe"], pipelines()["bert"]
print("ready", flush=True)
i = 0
while True:
    (a if i % 2 else b).save(sys.argv[1])
    i += 1
"""


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_killed_at_a_random_moment_of_repeated_saves(tmp_path: Path, seed: int) -> None:
    target = tmp_path / "tok.json"
    pipelines()["bpe"].save(target)
    valid = {pipelines()["bpe"].to_json(indent=2), pipelines()["bert"].to_json(indent=2)}  # save is pretty, as HF
    proc = subprocess.Popen([sys.executable, "-c", _SAVE_LOOP, str(target), str(TESTS)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        time.sleep(random.Random(seed).uniform(0.05, 0.6))
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert target.read_text(encoding="utf-8") in valid  # one complete version or the other, never a mix
    Tokenizer.load(target)


def test_failed_write_leaves_no_temporary_file_and_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import toolkit.serialization as serialization

    target = tmp_path / "tok.json"
    pipelines()["bpe"].save(target)
    before = target.read_bytes()

    def disk_full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(serialization.os, "fsync", disk_full)
    with pytest.raises(SerializationError, match="No space left"):
        pipelines()["chat"].save(target)
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["tok.json"]
    with pytest.raises(SerializationError, match="does not exist"):
        pipelines()["chat"].save(tmp_path / "missing" / "tok.json")


def test_saving_keeps_the_file_permissions(tmp_path: Path) -> None:
    """The temporary file used to be created private (0600) and replaced the tokenizer with that mode."""
    target = tmp_path / "tok.json"
    mask = os.umask(0o022)
    try:
        pipelines()["bpe"].save(target)
        assert stat.S_IMODE(target.stat().st_mode) == 0o644
        target.chmod(0o640)
        pipelines()["bpe"].save(target)
        assert stat.S_IMODE(target.stat().st_mode) == 0o640
    finally:
        os.umask(mask)


def _as_a_user_without_root(monkeypatch: pytest.MonkeyPatch) -> None:
    """``os.access`` as for a user who is not root (the tests may run as root, who may write anything):
    a file with no write bit is not writable."""
    real = os.access

    def access(path, mode, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        if mode & os.W_OK and os.path.isfile(path) and not os.stat(path).st_mode & 0o222:
            return False
        return real(path, mode, *args, **kwargs)

    monkeypatch.setattr(os, "access", access)


def test_saving_refuses_a_read_only_file_and_keeps_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A save replaces the file by a rename, which the folder allows even when the file is read-only:
    it used to replace a file made read-only to protect it (a plain open() would have failed)."""
    _as_a_user_without_root(monkeypatch)
    target = tmp_path / "tok.json"
    pipelines()["bpe"].save(target)
    before = target.read_bytes()
    target.chmod(0o444)
    with pytest.raises(SerializationError, match=f"cannot write {target}: the file is read-only .*chmod u\\+w"):
        pipelines()["chat"].save(target)
    assert target.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["tok.json"]
    target.chmod(0o644)
    pipelines()["chat"].save(target)  # writable again: saved
    assert target.read_bytes() != before


def test_saving_two_files_refuses_a_read_only_one_and_keeps_both(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from toolkit.interop import save_vocab_merges

    _as_a_user_without_root(monkeypatch)
    save_vocab_merges(pipelines()["bpe"], tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    (tmp_path / "merges.txt").chmod(0o444)
    with pytest.raises(SerializationError, match="merges.txt: the file is read-only"):
        save_vocab_merges(pipelines()["chat"], tmp_path)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_two_files_of_one_save_that_are_one_file_are_refused_and_kept(tmp_path: Path) -> None:
    from toolkit.interop.gpt2 import save_vocab_merges

    (tmp_path / "keep.txt").write_text("precious", encoding="utf-8")
    (tmp_path / "vocab.json").symlink_to("keep.txt")
    (tmp_path / "merges.txt").symlink_to("keep.txt")  # one file under both names: one would overwrite the other
    with pytest.raises(SerializationError, match="are one file .*through a symbolic link"):
        save_vocab_merges(pipelines()["chat"], tmp_path)
    assert (tmp_path / "keep.txt").read_text(encoding="utf-8") == "precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.txt", "merges.txt", "vocab.json"]


def test_a_saved_file_linked_to_a_file_the_save_removes_is_refused(tmp_path: Path) -> None:
    (tmp_path / "chat_template.jinja").write_text("template", encoding="utf-8")  # a stale file save_pretrained removes
    (tmp_path / "tokenizer.json").symlink_to("chat_template.jinja")
    with pytest.raises(SerializationError, match="tokenizer.json and .*chat_template.jinja are one file"):
        pipelines()["chat"].save_pretrained(tmp_path)
    assert (tmp_path / "chat_template.jinja").read_text(encoding="utf-8") == "template"


def test_a_loop_of_links_is_refused_before_the_work(tmp_path: Path) -> None:
    from toolkit.serialization import write_problem

    (tmp_path / "tok.json").symlink_to("tok.json")
    assert write_problem(tmp_path / "tok.json") == "it is a loop of symbolic links; remove it or give another path"
    with pytest.raises(SerializationError, match="loop of symbolic links"):
        pipelines()["chat"].save(tmp_path / "tok.json")
    assert (tmp_path / "tok.json").is_symlink()


def test_cli_train_refuses_a_read_only_output_before_training(
    tmp_path: Path, corpus_file: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from toolkit.cli import main

    _as_a_user_without_root(monkeypatch)
    out = tmp_path / "tok.json"
    out.write_text("{}", encoding="utf-8")
    out.chmod(0o444)
    config = TESTS.parent / "examples" / "configs" / "bpe.toml"
    code = main(["train", str(config), "--set", f'corpus.files=["{corpus_file}"]', "-o", str(out)])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1, err
    assert f"output: {out}: the file is read-only (Permission denied); make it writable (chmod u+w) or save elsewhere" in err
    assert out.read_text(encoding="utf-8") == "{}"


# ---------------------------------------------------------------------------------------- corpus trouble mid-training
class _SideEffect(Normalizer):
    """A normalizer that runs ``action`` once, after it has seen ``after`` texts (i.e. mid-counting)."""

    def __init__(self, action, after: int = 10) -> None:  # noqa: ANN001
        self.action, self.after, self.seen = action, after, 0

    def normalize(self, ns):  # noqa: ANN001, ANN201
        return ns

    def normalize_str(self, text: str) -> str:
        self.seen += 1
        if self.seen == self.after:
            self.action()
        return text


def _write_corpus(path: Path, megabytes: float = 0.2) -> None:
    lines = corpus_lines()
    out, size = [], 0
    while size < megabytes * 1e6:
        line = random.Random(size).choice(lines)
        out.append(line)
        size += len(line) + 1
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


def _train(normalizer: Normalizer, files: list[Path]) -> None:
    from algorithms import BPETrainer
    from pretokenizers import Whitespace

    tok = Tokenizer(pipelines()["bpe"].model.__class__(unk_token="[UNK]"), normalizer=normalizer, pre_tokenizer=Whitespace())
    tok.train([str(f) for f in files], BPETrainer(vocab_size=200, special_tokens=["[UNK]"]))


def test_corpus_file_that_disappears_mid_training(tmp_path: Path) -> None:
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    _write_corpus(a)
    _write_corpus(b)
    with pytest.raises(CorpusError, match=r"b.txt disappeared"):
        _train(_SideEffect(b.unlink), [a, b])


def test_corpus_file_truncated_mid_read(tmp_path: Path) -> None:
    a = tmp_path / "a.txt"
    _write_corpus(a, megabytes=2.5)  # read in 1 MB blocks: the cut happens between two blocks
    with pytest.raises(CorpusError, match=r"a.txt ended at byte \d+, before its listed size .*truncated"):
        _train(_SideEffect(lambda: os.truncate(a, 1000)), [a])


def test_corpus_file_replaced_or_unreadable_mid_training(tmp_path: Path) -> None:
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    _write_corpus(a)
    _write_corpus(b)
    with pytest.raises(CorpusError, match="b.txt changed while the corpus was being read"):
        _train(_SideEffect(lambda: b.write_text("other text\n")), [a, b])

    def to_folder() -> None:
        b.unlink()
        b.mkdir()

    _write_corpus(a)
    with pytest.raises(CorpusError, match=r"b.txt"):
        _train(_SideEffect(to_folder), [a, b])


def test_invalid_utf8_in_a_corpus_names_the_byte(tmp_path: Path) -> None:
    a = tmp_path / "a.txt"
    _write_corpus(a)
    with open(a, "ab") as fh:
        fh.write(b"good line\nbad \xff byte\n")
    with pytest.raises(CorpusError, match=r"a.txt.*byte"):
        _train(_SideEffect(lambda: None), [a])


def _config(corpus: list[Path], output: Path):  # noqa: ANN202
    from toolkit.training.config import TrainingConfig

    return TrainingConfig.from_dict({
        "algorithm": "bpe", "corpus": {"files": [str(p) for p in corpus]}, "pre_tokenizer": "Whitespace",
        "trainer": {"vocab_size": 150}, "output": str(output), "num_workers": 1,
    })


def test_training_writes_its_output_only_when_complete(tmp_path: Path) -> None:
    from toolkit.training.config import train_from_config

    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    _write_corpus(a)
    _write_corpus(b)
    out = tmp_path / "out" / "tok.json"
    out.parent.mkdir()
    out.write_text("previous", encoding="utf-8")
    calls = 0

    def vanish(stage: str, done: int, total: int) -> None:
        nonlocal calls
        calls += 1
        if stage == "counting" and done and b.exists():
            b.unlink()

    with pytest.raises(CorpusError, match="b.txt"):
        train_from_config(_config([a, b], out), progress=vanish)
    assert calls and out.read_text(encoding="utf-8") == "previous"
    assert [p.name for p in out.parent.iterdir()] == ["tok.json"]

    _write_corpus(b)

    def interrupt(stage: str, done: int, total: int) -> None:
        if stage != "counting" and done:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        train_from_config(_config([a, b], out), progress=interrupt)
    assert out.read_text(encoding="utf-8") == "previous"
    result = train_from_config(_config([a, b], out))
    assert result.output == out and Tokenizer.load(out).vocab_size == 150


def test_cli_train_on_a_corrupt_corpus_writes_nothing(tmp_path: Path) -> None:
    script = Path(sys.executable).with_name("tokenizer-toolkit")
    if not script.exists():
        pytest.skip("console script not installed")
    good = tmp_path / "good.txt"
    _write_corpus(good)
    broken = tmp_path / "broken.txt.gz"
    data = gzip.compress(good.read_bytes())
    broken.write_bytes(data[: len(data) // 2])  # a truncated download: fails part-way through reading
    config = tmp_path / "train.toml"
    out = tmp_path / "tok.json"
    config.write_text(
        f'algorithm = "bpe"\noutput = "{out}"\nnum_workers = 1\npre_tokenizer = "Whitespace"\n'
        f'[corpus]\nfiles = ["{good}", "{broken}"]\n[trainer]\nvocab_size = 150\n',
        encoding="utf-8",
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run([str(script), "train", str(config), "-q"], capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 1, proc.stderr
    assert "broken.txt.gz" in proc.stderr and "gzip" in proc.stderr
    assert not out.exists() and not list(tmp_path.glob(".tok.json*"))
