"""Corpus reading and counting: sources, formats, streaming, errors, parallel and Dask counting.

The central property: counts (including the order in which words first appear, which
``tie_break="first_occurrence"`` depends on) are identical whatever the number of workers or the
backend.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import forks_with_threads, record_start_methods, require, shared_path
from pretokenizers import ByteLevel, Whitespace
from toolkit import ConfigError, CorpusError, Tokenizer
from toolkit.training import corpus as corpus_mod
from toolkit.training import dask_backend, reading, tasks
from toolkit.training.corpus import (
    Corpus,
    count_corpus,
    count_texts,
    count_words,
    fingerprint_files,
    iter_file_lines,
    iter_texts,
    resolve_sources,
)

WS = Whitespace()


def _write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, str):
        text = text.encode("utf-8")
    path.write_bytes(text)
    return path


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make tiny files worth splitting, so parallel code paths run on test-sized data."""
    monkeypatch.setattr(tasks, "_MIN_CHUNK", 64)
    monkeypatch.setattr(reading, "_BLOCK", 50)
    monkeypatch.setattr(reading, "_BATCH_BYTES", 40)
    monkeypatch.setattr(corpus_mod, "_PARALLEL_THRESHOLD", 0)


# ---------------------------------------------------------------------------------------- sources
def test_texts_and_the_legacy_names_still_work(tmp_path: Path) -> None:
    assert count_words(["a b a", "b!"], pre_tokenizer=WS) == Counter({"a": 2, "b": 2, "!": 1})
    assert count_texts(["x y", "y"], pre_tokenizer=WS) == Counter({"y": 2, "x": 1})
    f = _write(tmp_path / "c.txt", "one two\nthree\n")
    assert list(iter_texts(str(f))) == ["one two\n", "three\n"]
    assert list(iter_file_lines(f)) == ["one two\n", "three\n"]
    assert list(iter_texts(["plain", "texts"])) == ["plain", "texts"]


def test_files_directories_and_globs_in_corpus_order(tmp_path: Path) -> None:
    _write(tmp_path / "d" / "b.txt", "b\n")
    _write(tmp_path / "d" / "a.txt", "a\n")
    _write(tmp_path / "d" / "sub" / "c.txt", "c\n")
    _write(tmp_path / "d" / ".hidden", "hidden\n")
    _write(tmp_path / "g1.txt", "g1\n")
    _write(tmp_path / "g2.txt", "g2\n")
    first = _write(tmp_path / "first.txt", "first\n")
    sources = [first, tmp_path / "d", str(tmp_path / "g*.txt"), first]  # first named twice: read once
    files = resolve_sources(sources)
    assert [Path(f.path).name for f in files] == ["first.txt", "a.txt", "b.txt", "c.txt", "g1.txt", "g2.txt"]
    assert list(Corpus(sources=sources).iter_texts()) == ["first\n", "a\n", "b\n", "c\n", "g1\n", "g2\n"]


@pytest.mark.parametrize("source", ["missing.txt", "nothing-*.txt", "emptydir"])
def test_sources_that_name_nothing_are_errors(tmp_path: Path, source: str) -> None:
    (tmp_path / "emptydir").mkdir()
    with pytest.raises(CorpusError, match=r"does not exist|matched no files|contains no files"):
        resolve_sources([tmp_path / source if source != "nothing-*.txt" else str(tmp_path / source)])


def test_document_per_line_or_per_file(tmp_path: Path) -> None:
    f = _write(tmp_path / "c.txt", "a b\n\nc")
    assert list(Corpus(sources=[f]).iter_texts()) == ["a b\n", "\n", "c"]
    assert list(Corpus(sources=[f], document="file").iter_texts()) == ["a b\n\nc"]
    # Only "\n" ends a line: \r, form feed and U+2028 stay inside it.
    g = _write(tmp_path / "d.txt", "x\ry\x0cz\u2028w\n")
    assert list(Corpus(sources=[g]).iter_texts()) == ["x\ry\x0cz\u2028w\n"]


def test_jsonl_with_a_field_nested_fields_and_gzip(tmp_path: Path) -> None:
    rows = [{"text": "hello world", "meta": {"body": "deep"}}, {"text": "héllo"}, {"text": None}]
    lines = "\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n\n"
    f = _write(tmp_path / "c.jsonl", lines)
    assert list(Corpus(sources=[f]).iter_texts()) == ["hello world", "héllo"]
    gz = tmp_path / "c.jsonl.gz"
    gz.write_bytes(gzip.compress(lines.encode()))
    assert list(Corpus(sources=[gz]).iter_texts()) == ["hello world", "héllo"]
    nested = _write(tmp_path / "n.jsonl", json.dumps(rows[0]) + "\n")
    assert list(Corpus(sources=[nested], field="meta.body").iter_texts()) == ["deep"]
    # Formats are detected by extension, or forced.
    as_text = _write(tmp_path / "rows.data", json.dumps(rows[1]) + "\n")
    assert list(Corpus(sources=[as_text], format="jsonl").iter_texts()) == ["héllo"]


def test_jsonl_errors_name_file_and_offset(tmp_path: Path) -> None:
    f = _write(tmp_path / "c.jsonl", '{"text": "ok"}\n{"body": "x"}\n')
    with pytest.raises(CorpusError, match=r"c\.jsonl.*byte offset 15 has no field 'text'"):
        list(Corpus(sources=[f]).iter_texts())
    g = _write(tmp_path / "d.jsonl", '{"text": "ok"}\n{not json\n')
    with pytest.raises(CorpusError, match=r"d\.jsonl: invalid JSON on the line at byte offset 15"):
        list(Corpus(sources=[g]).iter_texts())
    h = _write(tmp_path / "e.jsonl", '{"text": 5}\n')
    with pytest.raises(CorpusError, match="is a int, expected a string"):
        list(Corpus(sources=[h]).iter_texts())


def test_gzip_text_is_detected_by_content(tmp_path: Path) -> None:
    gz = tmp_path / "c.txt.gz"
    gz.write_bytes(gzip.compress("a b\nc\n".encode()))
    assert list(Corpus(sources=[gz]).iter_texts()) == ["a b\n", "c\n"]
    no_suffix = tmp_path / "packed"
    no_suffix.write_bytes(gzip.compress(b"x\n"))
    assert list(Corpus(sources=[no_suffix]).iter_texts()) == ["x\n"]
    broken = tmp_path / "broken.txt.gz"
    broken.write_bytes(gzip.compress(b"a long enough line of text\n" * 50)[:-12])
    with pytest.raises(CorpusError, match=r"broken\.txt\.gz is not a valid gzip file or is truncated"):
        list(Corpus(sources=[broken]).iter_texts())


# ---------------------------------------------------------------------------------------- UTF-8
def test_invalid_utf8_names_file_and_byte_offset(tmp_path: Path) -> None:
    f = _write(tmp_path / "bad.txt", b"fine line\nsecond \xff line\n")
    with pytest.raises(CorpusError, match=r"bad\.txt is not valid UTF-8: invalid byte 0xff at byte offset 17"):
        count_words([f], pre_tokenizer=WS)
    counts = count_words(Corpus(sources=[f], errors="replace"), pre_tokenizer=WS)
    assert counts["\ufffd"] == 1 and counts["line"] == 2


def test_invalid_utf8_offset_is_absolute_in_parallel_chunks(tmp_path: Path, small_chunks: None) -> None:
    body = b"".join(b"line %03d with some words\n" % i for i in range(200))
    at = len(body) - 40
    data = body[:at] + b"\xc3(" + body[at + 2 :]
    f = _write(tmp_path / "bad.txt", data)
    for workers in (1, 2):
        with pytest.raises(CorpusError, match=f"at byte offset {at};"):
            count_words([f], pre_tokenizer=WS, num_workers=workers)


def test_invalid_utf8_in_gzip_reports_the_uncompressed_offset(tmp_path: Path) -> None:
    gz = tmp_path / "bad.txt.gz"
    gz.write_bytes(gzip.compress(b"ok\n\x80\n"))
    with pytest.raises(CorpusError, match="at byte offset 3"):
        list(Corpus(sources=[gz]).iter_texts())


# ---------------------------------------------------------------------------------------- changes
def test_a_file_that_disappears_is_an_error(tmp_path: Path) -> None:
    a = _write(tmp_path / "a.txt", "a\n")
    b = _write(tmp_path / "b.txt", "b\n")
    c = Corpus(sources=[a, b])
    assert len(c.files) == 2  # listed
    b.unlink()
    with pytest.raises(CorpusError, match=r"b\.txt disappeared"):
        count_corpus(c, pre_tokenizer=WS, num_workers=1)


def test_a_file_that_changes_after_listing_is_an_error(tmp_path: Path, small_chunks: None) -> None:
    a = _write(tmp_path / "a.txt", "word and words\n" * 100)
    c = Corpus(sources=[a])
    assert c.files
    a.write_text("short\n")
    for workers in (1, 2):
        with pytest.raises(CorpusError, match="changed while the corpus was being read"):
            count_corpus(c, pre_tokenizer=WS, num_workers=workers)


def test_a_truncated_file_mid_read_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    a = _write(tmp_path / "a.txt", "x y\n" * 100)
    c = Corpus(sources=[a])
    listed = c.files[0]
    # The file shrinks between the check at open and the end of reading: simulate with a listing
    # that claims more bytes than there are (the size check at open is bypassed).
    monkeypatch.setattr(reading, "_open_checked", lambda f: open(f.path, "rb"))
    c._files = [corpus_mod.CorpusFile(listed.path, listed.size + 10, listed.mtime_ns, "text", False)]
    with pytest.raises(CorpusError, match="truncated while being read"):
        count_corpus(c, pre_tokenizer=WS, num_workers=1)


def test_non_string_items_are_errors() -> None:
    with pytest.raises(CorpusError, match="corpus item 1 is a int"):
        count_words(["a", 5], pre_tokenizer=WS)  # type: ignore[list-item]


def test_options_are_validated() -> None:
    with pytest.raises(ConfigError, match="num_workers"):
        count_words(["a"], num_workers=0)
    with pytest.raises(ConfigError, match="document"):
        Corpus(sources=["x"], document="page")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="backend"):
        count_words(["a"], backend="spark")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------- parallel
def _assert_identical(a: Counter[str], b: Counter[str]) -> None:
    assert a == b
    assert list(a) == list(b)  # first-occurrence order too


def test_parallel_counting_equals_serial_on_files(tmp_path: Path, small_chunks: None) -> None:
    files = [
        _write(tmp_path / "a.txt", "".join(f"w{i % 37} shared x{i}\n" for i in range(300))),
        _write(tmp_path / "b.txt", "tail line without newline"),
        _write(tmp_path / "c.jsonl", "".join(json.dumps({"text": f"j{i} shared"}) + "\n" for i in range(100))),
    ]
    gz = tmp_path / "d.txt.gz"
    gz.write_bytes(gzip.compress("".join(f"g{i} shared\n" for i in range(100)).encode()))
    files.append(gz)
    serial = count_corpus(files, pre_tokenizer=WS, num_workers=1)
    parallel = count_corpus(files, pre_tokenizer=WS, num_workers=2)
    assert parallel.workers == 2
    _assert_identical(serial.counts, parallel.counts)
    assert (serial.documents, serial.bytes) == (parallel.documents, parallel.bytes) == (501, serial.bytes)
    # One document per file: files are the units of work.
    per_file = [count_corpus(Corpus(sources=files, document="file"), pre_tokenizer=WS, num_workers=n) for n in (1, 2)]
    _assert_identical(per_file[0].counts, per_file[1].counts)
    assert per_file[0].documents == 1 + 1 + 100 + 1  # the JSON lines file still has one document per line


def test_parallel_counting_equals_serial_on_texts(small_chunks: None) -> None:
    texts = [f"t{i % 50} common é{i % 7}" for i in range(500)]
    serial = count_corpus(texts, pre_tokenizer=WS, num_workers=1)
    parallel = count_corpus(iter(texts), pre_tokenizer=WS, num_workers=2)  # a generator, consumed once
    assert parallel.workers == 2
    _assert_identical(serial.counts, parallel.counts)


# forkserver: Python 3.14's default start method on Linux (never picked by the toolkit, but it must work).
@pytest.mark.parametrize("start", ["spawn", "forkserver"])
def test_spawned_workers_count_the_same(tmp_path: Path, small_chunks: None, monkeypatch: pytest.MonkeyPatch,
                                        start: str) -> None:
    from toolkit.normalizers import Lowercase

    f = _write(tmp_path / "a.txt", "".join(f"Word{i % 13} OTHER\n" for i in range(200)))
    serial = count_words([f], normalizer=Lowercase(), pre_tokenizer=WS, num_workers=1)
    monkeypatch.setattr(corpus_mod, "_MP_START_METHOD", start)
    _assert_identical(serial, count_words([f], normalizer=Lowercase(), pre_tokenizer=WS, num_workers=2))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers fork on Linux only")
@forks_with_threads
def test_counting_workers_start_as_encode_batch_workers(tmp_path: Path, small_chunks: None,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Never Python's default start method (fork even with threads up to 3.13, forkserver from 3.14):
    forked from a process with one thread, spawned from one with threads, and counted in this process
    where a spawned worker would re-run an unguarded script."""
    from toolkit import batch

    seen = record_start_methods(monkeypatch)
    f = _write(tmp_path / "a.txt", "to be or not\n" * 200)
    with monkeypatch.context() as m:
        m.setattr(batch, "_threads", lambda: 1)
        assert count_corpus([f], pre_tokenizer=WS, num_workers=2).workers == 2
    with monkeypatch.context() as m:
        m.setattr(batch, "_threads", lambda: 2)
        assert count_corpus([f], pre_tokenizer=WS, num_workers=2).workers == 2
        m.setattr(batch, "_main_is_guarded", lambda: False)
        result = count_corpus([f], pre_tokenizer=WS, num_workers=2)
        assert result.workers == 1 and result.counts["to"] == 200
    assert seen == ["fork", "spawn"]


def test_a_component_written_in_a_notebook_is_counted_in_this_process(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A spawned worker cannot import a class written in a notebook cell (``__main__`` without a file):
    with threads (Jupyter has them) counting then stays in this process rather than starting workers
    whose start-up fails again and again."""
    import types

    from toolkit import batch
    from toolkit.normalizers import Lowercase

    class NotebookLowercase(Lowercase):
        pass

    NotebookLowercase.__module__ = "__main__"  # a local class: nothing to undo
    NotebookLowercase.__qualname__ = "NotebookLowercase"
    main = types.ModuleType("__main__")
    main.NotebookLowercase = NotebookLowercase  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "__main__", main)
    monkeypatch.setattr(batch, "_threads", lambda: 2)
    assert corpus_mod._start_method(Lowercase(), WS) == "spawn"
    assert corpus_mod._start_method(NotebookLowercase(), WS) is None
    script = tmp_path / "script.py"  # a guarded script as __main__: the worker imports it, class and all
    script.write_text("import os\n", encoding="utf-8")
    main.__file__ = str(script)
    assert corpus_mod._start_method(NotebookLowercase(), WS) == "spawn"


@pytest.mark.parametrize("start", [pytest.param("fork", marks=forks_with_threads), "spawn"])
def test_a_document_longer_than_the_limit_is_a_corpus_error(tmp_path: Path, small_chunks: None,
                                                           monkeypatch: pytest.MonkeyPatch, start: str) -> None:
    """Counting holds a document at once: a file without line ends would take memory without bound.
    The limit reaches the workers, spawned ones too."""
    from toolkit import limits

    monkeypatch.setattr(corpus_mod, "_MP_START_METHOD", start)
    monkeypatch.setattr(limits, "MAX_DOCUMENT_BYTES", 400)
    f = _write(tmp_path / "a.txt", "short line\n" * 20 + "word " * 100 + "\nend\n")
    for options in ({"num_workers": 1}, {"num_workers": 2}, {"num_workers": 1, "document": "file"}):
        with pytest.raises(CorpusError, match=r"a.txt: (a line|the file .*) from byte \d+ is longer than 400 bytes "
                                              r"\(toolkit.limits.MAX_DOCUMENT_BYTES\).* split the text into lines"):
            count_words([f], pre_tokenizer=WS, **options)
    monkeypatch.setattr(limits, "MAX_DOCUMENT_BYTES", 600)  # the long line fits; the whole file does not
    assert count_words([f], pre_tokenizer=WS, num_workers=2)["word"] == 100
    with pytest.raises(CorpusError, match='the file \\(document="file" makes each file one document\\)'):
        count_words([f], pre_tokenizer=WS, num_workers=1, document="file")


def test_small_corpora_stay_in_process_by_default(tmp_path: Path) -> None:
    f = _write(tmp_path / "a.txt", "a b\n")
    assert count_corpus([f], pre_tokenizer=WS).workers == 1
    assert count_corpus(["a b"], pre_tokenizer=WS).workers == 1


def test_progress_reports_bytes_until_done(tmp_path: Path, small_chunks: None) -> None:
    f = _write(tmp_path / "a.txt", "some words here\n" * 50)
    for workers in (1, 2):
        calls: list[tuple[str, int, int]] = []
        count_corpus([f], pre_tokenizer=WS, num_workers=workers, progress=lambda *a: calls.append(a))
        assert calls[0] == ("counting", 0, 800)
        assert calls[-1] == ("counting", 800, 800)
        assert all(stage == "counting" and done <= total for stage, done, total in calls)


def test_parallel_counting_equals_serial_on_gutenberg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = shared_path("english/gutenberg_part01.txt")
    data = source.read_bytes()[: 3_000_000]
    data = data[: data.rfind(b"\n") + 1]
    f = _write(tmp_path / "slice.txt", data)
    monkeypatch.setattr(tasks, "_MIN_CHUNK", 256_000)  # about 6 ranges for 2 workers
    pre = ByteLevel()
    serial = count_corpus([f], pre_tokenizer=pre, num_workers=1)
    parallel = count_corpus([f], pre_tokenizer=pre, num_workers=2)
    assert parallel.workers == 2 and len(serial.counts) > 10_000
    _assert_identical(serial.counts, parallel.counts)
    assert serial.bytes == parallel.bytes == len(data)


@pytest.mark.slow
def test_parallel_counting_equals_serial_on_all_of_gutenberg(corpora: Path) -> None:
    files = sorted((corpora / "english").glob("gutenberg_part*.txt"))
    pre = ByteLevel()
    serial = count_corpus(files, pre_tokenizer=pre, num_workers=1)
    parallel = count_corpus(files, pre_tokenizer=pre, num_workers=2)
    _assert_identical(serial.counts, parallel.counts)


# ---------------------------------------------------------------------------------------- dask
def test_dask_local_cluster_counts_like_the_local_backend(tmp_path: Path) -> None:
    require("dask.distributed")
    files = [
        _write(tmp_path / "a.txt", "".join(f"w{i % 37} shared\n" for i in range(300))),
        _write(tmp_path / "b.jsonl", "".join(json.dumps({"text": f"j{i} é"}) + "\n" for i in range(50))),
    ]
    local = count_corpus(files, pre_tokenizer=WS, num_workers=1)
    calls: list[tuple[str, int, int]] = []
    dask = count_corpus(files, pre_tokenizer=WS, num_workers=2, backend="dask", progress=lambda *a: calls.append(a))
    _assert_identical(local.counts, dask.counts)
    assert dask.workers == 2 and (dask.documents, dask.bytes) == (local.documents, local.bytes)
    assert calls[-1][1] == calls[-1][2] > 0


def test_dask_without_a_reachable_scheduler_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    require("dask.distributed")
    monkeypatch.setattr(dask_backend, "_DASK_CONNECT_TIMEOUT", "1s")
    f = _write(tmp_path / "a.txt", "a\n")
    with pytest.raises(CorpusError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:1"):
        count_corpus([f], backend="dask", scheduler="tcp://127.0.0.1:1")


# ---------------------------------------------------------------------------------------- misc
def test_fingerprint_is_the_sha256_of_each_file_and_of_the_list(tmp_path: Path) -> None:
    a = _write(tmp_path / "a.txt", "alpha\n")
    b = _write(tmp_path / "b.txt", "beta\n")
    fp = fingerprint_files([a, b])
    assert fp["files"][0] == {"path": str(a), "bytes": 6, "sha256": hashlib.sha256(b"alpha\n").hexdigest()}
    assert fingerprint_files([b, a])["sha256"] != fp["sha256"]  # order matters
    b.write_text("beta!\n")
    assert fingerprint_files([a, b])["sha256"] != fp["sha256"]


def test_tokenizer_train_reads_gzip_and_jsonl_files(tmp_path: Path) -> None:
    from algorithms import BPE, BPETrainer

    gz = tmp_path / "c.txt.gz"
    gz.write_bytes(gzip.compress(b"low lower lowest\n" * 5))
    jl = _write(tmp_path / "d.jsonl", json.dumps({"text": "newer newest"}) + "\n")
    tok = Tokenizer(BPE(unk_token="[UNK]"), pre_tokenizer=WS)
    tok.train([gz, jl], BPETrainer(vocab_size=25, special_tokens=["[UNK]"]))
    assert tok.encode("lowest").tokens == ["lowest"]
    assert tok.token_to_id("n") is not None


def test_memory_does_not_grow_with_repeated_text(tmp_path: Path) -> None:
    # Streaming: counting a file never holds it whole; the counts hold only distinct words.
    f = _write(tmp_path / "big.txt", "the same few words again\n" * 100_000)
    result = count_corpus([f], pre_tokenizer=WS, num_workers=1)
    assert len(result.counts) == 5 and result.documents == 100_000
    assert os.path.getsize(f) == result.bytes


# ---------------------------------------------------------------------------------------- the counting loop
class _SwitchingSpell(Whitespace):
    """A pre-tokenizer whose respelling changes from one text to the next (upper, then lower case)."""

    def split_raw(self, text: str):  # type: ignore[no-untyped-def]
        self.calls = getattr(self, "calls", 0) + 1
        return self.split_text(text), (str.upper if self.calls % 2 else str.lower)

    def split_text(self, text: str) -> list[str]:
        return text.split()


@pytest.mark.parametrize("pre", [ByteLevel(add_prefix_space=False), ByteLevel(add_prefix_space=True), WS, None],
                         ids=["bytelevel", "bytelevel-prefix", "whitespace", "none"])
@given(texts=st.lists(st.text(alphabet=st.sampled_from(list(" \n\t'sabcAé1.,\u2581\U0001d400")), max_size=30), max_size=12))
def test_counting_loop_equals_its_reference(pre: object, texts: list[str]) -> None:
    """Counting raw pieces and respelling each distinct one gives the counts of split_text, in the
    same first-occurrence order, and the same documents and bytes."""
    from toolkit.normalizers import Lowercase

    for normalizer in (None, Lowercase()):
        fast: Counter[str] = Counter()
        slow: Counter[str] = Counter()
        assert tasks._count_into(fast, texts, normalizer, pre) == tasks._count_into_reference(slow, texts, normalizer, pre)
        assert list(fast.items()) == list(slow.items())


def test_counting_loop_follows_a_respelling_that_changes() -> None:
    texts = ["a b", "a c", "b"]
    fast: Counter[str] = Counter()
    tasks._count_into(fast, texts, None, _SwitchingSpell())
    assert list(fast.items()) == [("A", 1), ("B", 2), ("a", 1), ("c", 1)]  # each text under its own respelling


def test_a_file_that_is_mostly_nul_bytes_is_refused(tmp_path: Path) -> None:
    """Zeros and UTF-16 text are valid UTF-8 (NUL bytes): counting them trained a model of NUL tokens."""
    (tmp_path / "zeros.bin").write_bytes(b"\x00" * 5000)
    (tmp_path / "utf16.txt").write_bytes("hello world\n".encode("utf-16-le") * 100)
    (tmp_path / "fine.txt").write_text("a\x00b and a longer line of text\n" * 100, encoding="utf-8")  # a few NULs
    for name in ("zeros.bin", "utf16.txt"):
        with pytest.raises(CorpusError, match=rf"{name}: \d+% of the [\d,]+ bytes from byte offset 0 are NUL .*UTF-8"):
            count_words([str(tmp_path / name)])
    assert count_words([str(tmp_path / "fine.txt")])


def test_a_list_where_some_strings_name_files_and_some_do_not_is_refused(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("hello world\n", encoding="utf-8")
    typo = str(tmp_path / "b.tx")
    with pytest.raises(CorpusError, match=r"some items name existing files and '.*b\.tx' does not"):
        count_words([str(tmp_path / "a.txt"), typo])
    assert count_words(["hello world", "bye"])  # texts
    assert count_words([str(tmp_path / "a.txt")])  # paths


@pytest.mark.parametrize("pattern", ["**/*.txt", "**", "d1/**/*.txt", "**/d2/*", "d1/*/*.txt", "*.txt", "**/.h*/*.txt",
                                     "d1/**", "**/x?.txt", "[d]1/**/*.txt"])
def test_recursive_globs_match_as_glob_does_without_following_links(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                     pattern: str) -> None:
    import glob

    for rel in ("top.txt", "d1/x1.txt", "d1/d2/x2.txt", "d1/d2/d3/x3.md", "d1/.hid/x4.txt", ".h/x5.txt", "d1/.x6.txt"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x")
    monkeypatch.chdir(tmp_path)
    expected = sorted(Path(m) for m in glob.glob(pattern, recursive=True))
    assert sorted(p for p in reading._glob(pattern) if p.is_file()) == [p for p in expected if p.is_file()]
    absolute = sorted(p for p in reading._glob(f"{tmp_path}/{pattern}") if p.is_file())
    assert absolute == [tmp_path / p for p in expected if p.is_file()]
    # links back up the tree (two of them: glob's paths would grow without end) are not followed
    if "**" not in pattern:
        return  # one level per component: a link named by the pattern is followed, as by glob
    os.symlink("..", tmp_path / "d1" / "up")
    os.symlink(str(tmp_path), tmp_path / "d1" / "d2" / "root")
    assert sorted(p for p in reading._glob(pattern) if p.is_file()) == [p for p in expected if p.is_file()]


def test_a_missing_corpus_path_in_a_list_is_named(tmp_path: Path) -> None:
    from algorithms import BPE, BPETrainer

    tok = Tokenizer(BPE(), pre_tokenizer=Whitespace())
    with pytest.raises(CorpusError, match="data/train.txt does not exist"):
        tok.train(["data/train.txt"], BPETrainer(vocab_size=50, show_progress=False))
