"""Concurrency: threads sharing one tokenizer get exactly the serial results (the caches are safe), and
``encode_batch(num_workers=N)`` in worker processes returns identical encodings, in order.

The threaded tests shrink the per-piece caches to a handful of entries so that threads clear and refill
them under each other constantly, and switch threads every microsecond to maximise interleaving.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import pickle
import random
import sys
import threading
import time
import zlib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import toolkit.limits as limits
from conftest import forks_with_threads, record_start_methods, slow_params
from test_robustness_support import ALL, SPECIALS, TRICKY, corpus_lines, pipelines
from algorithms import Unigram
from toolkit import Tokenizer
from toolkit.encoding import Encoding, pack_encodings, unpack_encodings
from toolkit.errors import ConfigError, InputError
from toolkit.interfaces import Normalizer
from toolkit.registry import register


def _texts(n: int, seed: int = 0) -> list[str]:
    rng = random.Random(seed)
    lines = corpus_lines()
    out = []
    for _ in range(n):
        parts = [rng.choice(lines)[: rng.randrange(1, 120)] for _ in range(rng.randrange(1, 3))]
        parts.insert(rng.randrange(len(parts) + 1), rng.choice(TRICKY + SPECIALS))
        out.append(" ".join(parts))
    return out


@pytest.fixture
def fast_switching() -> Iterator[None]:
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(old)


def _fresh(name: str) -> Tokenizer:
    return Tokenizer.from_json(pipelines()[name].to_json())


@pytest.mark.parametrize("name", slow_params(ALL, default=("gpt2", "bpe_metaspace", "bert")))
def test_threads_sharing_one_tokenizer_get_serial_results(name: str, fast_switching: None) -> None:
    texts = _texts(300, seed=zlib.crc32(name.encode()))  # stable across processes, unlike hash(str)
    reference = _fresh(name)
    expected_enc = [reference.encode(t) for t in texts]
    expected_ids = [reference.encode_ids(t) for t in texts]
    expected_all = [reference.encode_ids(t, allowed_special="all") for t in texts]
    expected_dec = [reference.decode(ids) for ids in expected_ids]

    shared = _fresh(name)
    shared.model.cache_capacity = 8  # the caches are cleared over and over while threads use them
    errors: list[BaseException] = []
    barrier = threading.Barrier(8)

    def worker(k: int) -> None:
        try:
            barrier.wait()
            order = list(range(len(texts)))
            random.Random(k).shuffle(order)
            for i in order:
                assert shared.encode_ids(texts[i]) == expected_ids[i]
                assert shared.encode(texts[i]) == expected_enc[i]
                assert shared.encode_ids(texts[i], allowed_special="all") == expected_all[i]
                assert shared.decode(expected_ids[i]) == expected_dec[i]
                if i % 50 == 0:
                    stream = shared.stream_decoder()
                    assert "".join(stream.feed(t) for t in expected_ids[i]) + stream.flush() == expected_dec[i]
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]


def test_threads_with_different_allowed_special_sets(fast_switching: None) -> None:
    """The compiled special-token patterns are cached per allowed set; concurrent first uses are safe."""
    tok = _fresh("chat")
    text = "<|im_start|>user hi<|im_end|> <|im_start|>"
    choices = [(), ("<|im_start|>",), ("<|im_end|>",), "all", ("<|im_end|>", "<|im_start|>")]
    expected = {str(c): pipelines()["chat"].encode_ids(text, allowed_special=c) for c in choices}
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda c: (str(c), tok.encode_ids(text, allowed_special=c)), choices * 200))
    for key, ids in results:
        assert ids == expected[key]


def _other_model(name: str) -> Tokenizer:
    """A second model for the same pipeline shape, with different ids for the same pieces."""
    from toolkit.training import presets

    lines = corpus_lines()[::2]
    if name == "bert":
        tok, trainer = presets.bert(vocab_size=250)
    else:
        tok, trainer = presets.gpt2_style(vocab_size=350, special_tokens=["<|endoftext|>"])
    return tok.train(lines, trainer)


@pytest.mark.parametrize("name", ["gpt2", "bert"])
def test_swapping_the_model_while_threads_encode_leaves_no_wrong_cache(name: str, fast_switching: None) -> None:
    """Threads encode while the main thread swaps ``tok.model`` back and forth (and bumps the option
    generation, which renews the caches); afterwards every text encodes as a fresh tokenizer would.

    Why this would have failed before :class:`~toolkit.fast_paths.PipelineCaches`: the pipeline kept
    its raw-piece cache in a separate attribute that the ``model`` setter replaced. A thread read
    ``self.model`` (the old model), the main thread then swapped the model and installed an empty
    cache, and the thread stored the old model's ids for its pieces in that *new* cache: every later
    encode of those pieces returned the old model's ids until ``clear_cache()`` (the review measured
    741 of 3,000 texts wrong). The same holds for a cache renewed after an option change from the
    model it was read with (``_current_caches`` without the lock could put the old model back after
    a swap). The threads keep encoding after the last swap, so a stale write has a cache to land in.
    """
    from pretokenizers import ByteLevel

    texts = _texts(400, seed=7)
    first, second = _fresh(name), _other_model(name)
    models = [first.model, second.model]
    assert first.encode_ids(texts[0]) != second.encode_ids(texts[0])  # the swap changes ids
    shared = _fresh(name)
    stop = threading.Event()
    errors: list[BaseException] = []

    def worker(k: int) -> None:
        rng = random.Random(k)
        try:
            while not stop.is_set():
                text = rng.choice(texts)
                shared.encode_ids(text)
                shared.encode(text)
                shared.encode_ids(text, allowed_special="all")
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    bump = ByteLevel()
    expected = [first.encode_ids(t) for t in texts]
    wrong: list[str] = []
    for round_ in range(25):  # each round: a burst of swaps, the last one to the first model, then a check
        for i in range(12):
            shared.model = models[i % 2]
            if i % 4 == round_ % 4:
                bump.add_prefix_space = not bump.add_prefix_space  # a new option generation: caches renewed
            time.sleep(0.0005)
        shared.model = models[0]
        time.sleep(0.005)  # encodes in flight after the last swap finish (and may write a stale entry)
        wrong = [t for t, ids in zip(texts, expected) if shared.encode_ids(t) != ids]
        if wrong:
            break
    stop.set()
    for t in threads:
        t.join()
    assert not errors, errors[0]
    assert shared.model is models[0]
    assert wrong == [], f"round {round_}: {len(wrong)} of {len(texts)} texts encode differently after the swaps"
    assert [shared.encode(t) for t in texts] == [first.encode(t) for t in texts]
    assert all(
        shared.encode_ids(t, allowed_special="all") == first.encode_ids(t, allowed_special="all") for t in texts
    )


def test_caches_renewed_after_an_option_change_keep_a_model_swapped_meanwhile(monkeypatch: pytest.MonkeyPatch) -> None:
    """The interleaving the threaded test above rarely hits, made deterministic: an encode sees that an
    option changed and renews the caches while another thread swaps the model at that moment. Renewing
    from the caches it had read put the *old* model back for good (ids of a model ``tok.model`` no longer
    is); the caches must be renewed from the components as they are, under the lock the setter takes."""
    import toolkit.options as options
    from pretokenizers import ByteLevel

    tok, other = _fresh("gpt2"), _other_model("gpt2")
    text = _texts(1, seed=3)[0]
    tok.encode_ids(text)
    ByteLevel().add_prefix_space = True  # any option assignment starts a new generation
    real, swapped = options.generation, []

    def generation_with_a_swap() -> int:
        if not swapped:  # another thread replaces the model right now
            swapped.append(True)
            tok.model = other.model
        return real()

    monkeypatch.setattr(options, "generation", generation_with_a_swap)
    tok.encode_ids(text)
    monkeypatch.setattr(options, "generation", real)
    assert swapped and tok.model is other.model
    assert tok.encode_ids(text) == other.encode_ids(text) != _fresh("gpt2").encode_ids(text)
    assert tok.encode(text) == other.encode(text)


def test_a_model_option_change_never_fills_the_new_cache_from_the_old_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deterministic form of a race: another thread encodes a piece while an option change is rebuilding
    the model's tables. The per-piece cache is made anew only after the tables (``_new_caches`` runs
    after ``_configure``), so that encode fills the cache being dropped, never the new one; the new
    cache made first kept the old unknown id for ``"zzz"`` for good."""
    import algorithms.word_level as word_level
    from algorithms import WordLevel

    model = WordLevel({"<unk>": 0, "<u2>": 1, "a": 2}, unk_token="<unk>")
    real, during = word_level.check_special_tokens, []

    def check_with_an_encode_meanwhile(*args: object, **kwargs: object) -> object:
        during.append(model.encode_piece("zzz"))  # another thread, while _configure runs
        return real(*args, **kwargs)

    monkeypatch.setattr(word_level, "check_special_tokens", check_with_an_encode_meanwhile)
    model.unk_token = "<u2>"
    monkeypatch.setattr(word_level, "check_special_tokens", real)
    assert during == [(0,)]  # the old tables, as the other thread may see them
    assert model.encode_piece("zzz") == (1,) and Tokenizer(model).encode_ids("zzz") == [1]


def test_a_token_added_while_another_thread_finds_nothing_to_cut_takes_effect(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deterministic form of a race: one thread finds no added token to cut at, another adds one
    before the first stores "nothing to cut". Storing it in the patterns cache that adding tokens
    replaced (not cleared) keeps it out of the new one; stored in a cleared cache, it hid the token."""
    from toolkit.vocabulary import VocabularyMixin

    tok = _fresh("bpe")
    real, added = VocabularyMixin._cutter, []

    def cutter_then_an_added_token(self, model):  # noqa: ANN001, ANN202
        found = real(self, model)
        if not added:  # another thread adds a token right now
            added.append(tok.add_tokens(["<t>"]))
        return found

    monkeypatch.setattr(VocabularyMixin, "_cutter", cutter_then_an_added_token)
    before = tok.encode_ids("a<t>b")
    monkeypatch.setattr(VocabularyMixin, "_cutter", real)
    new_id = tok.token_to_id("<t>")
    assert added == [1] and new_id not in before
    assert tok.encode_ids("<t>") == [new_id] and tok.encode("<t>").ids == [new_id]


# ---------------------------------------------------------------------------------------- worker processes
@pytest.fixture
def workers_always(monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers start for these small batches, whatever the probe finds (else one process encodes)."""
    monkeypatch.setattr("toolkit.batch.MIN_PARALLEL_CHARS", 0)
    monkeypatch.setattr("toolkit.batch.WARM_NEW_PER_1000", 0.0)


# Every start method, whatever this process would pick: under pytest-xdist a test process has execnet's
# thread, so encode_batch would spawn; a single-threaded script on Linux forks. forkserver (Python 3.14's
# default on Linux) is never picked, but a tokenizer's workers must work with it too.
_ON_LINUX = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers fork on Linux only")


@pytest.mark.parametrize("method", [
    pytest.param("fork", marks=[_ON_LINUX, forks_with_threads]),
    "spawn",
    pytest.param("forkserver", marks=pytest.mark.skipif(sys.platform == "win32", reason="no forkserver on Windows")),
])
@pytest.mark.parametrize("name", ["chat", "bert", *(pytest.param(n, marks=pytest.mark.slow)
                                                    for n in ("gpt2", "tiktoken", "bpe", "bpe_metaspace", "wordpiece"))])
def test_encode_batch_with_worker_processes_is_identical(
    name: str, method: str, workers_always: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolkit import batch

    monkeypatch.setattr(batch, "start_method", lambda: method)
    tok = pipelines()[name]
    texts: list = _texts(400, seed=7)
    texts[5:5] = [(a, b) for a, b in zip(texts[:20], texts[20:40])]  # pairs, mixed in
    texts.append("")
    serial = tok.encode_batch(texts)
    parallel = tok.encode_batch(texts, num_workers=2)
    assert parallel == serial  # ids, tokens, offsets, type ids, masks, word ids; in input order
    assert [e.ids for e in tok.encode_batch(iter(texts), num_workers=3, allowed_special="all")] == [
        e.ids for e in tok.encode_batch(texts, allowed_special="all")
    ]


@pytest.mark.parametrize("name", sorted(ALL))
def test_packed_encodings_round_trip_through_pickle(name: str) -> None:
    # Workers send their Encodings back as flat columns (pack_encodings); unpacked, they must be equal
    # in every field: pairs (type id 1), special tokens (word id None), empty encodings.
    tok = pipelines()[name]
    texts: list = _texts(120, seed=3) + ["", *TRICKY]
    texts[2:2] = [(a, b) for a, b in zip(texts[:10], texts[10:20])] + [("", "")]
    encodings = tok.encode_batch(texts)
    back = unpack_encodings(pickle.loads(pickle.dumps(pack_encodings(encodings))))
    assert back == encodings
    assert all(type(e) is Encoding and type(e.offsets[0]) is tuple for e in back if len(e))
    assert back[0].ids is not encodings[0].ids and back[0].ids is not back[1].ids  # fresh, unshared lists


@given(st.lists(st.lists(st.tuples(st.integers(0, 2**40), st.integers(0, 10**6), st.integers(0, 3),
                                   st.sampled_from([0, 1]), st.none() | st.integers(0, 10**5)), max_size=6),
                max_size=8))
def test_packing_any_encodings_is_lossless(rows: list) -> None:
    encodings = [
        Encoding([r[0] for r in row], [f"t{r[0]}" for r in row], [(r[1], r[1] + r[2]) for r in row],
                 [r[3] for r in row], [r[3] for r in row], [1] * len(row), [r[4] for r in row])
        for row in rows
    ]
    assert unpack_encodings(pickle.loads(pickle.dumps(pack_encodings(encodings)))) == encodings


def test_encode_batch_worker_errors_are_the_serial_ones(workers_always: None) -> None:
    tok = pipelines()["bert"]
    texts = _texts(60) + ["bad \udc80 one"] + _texts(30) + ["\ud800 second"]
    with pytest.raises(InputError) as serial:
        tok.encode_batch(texts)
    with pytest.raises(InputError) as parallel:
        tok.encode_batch(texts, num_workers=2)
    assert str(parallel.value) == str(serial.value)
    assert "U+DC80" in str(parallel.value)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers fork on Linux only")
@forks_with_threads
@pytest.mark.parametrize("part_chars", [1, 40, 10**6])
def test_worker_parts_arrive_in_order_and_a_worker_error_waits_its_turn(
    part_chars: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker sends its share in parts, which this process takes between parts of its own: the
    encodings are the serial ones in order; a worker's error that arrives while this process still
    encodes its share is raised only if this process's share holds none (the serial loop's first)."""
    from toolkit import batch

    monkeypatch.setattr(batch, "MIN_PARALLEL_CHARS", 0)
    monkeypatch.setattr(batch, "_threads", lambda: 1)  # fork: the patches reach the worker
    monkeypatch.setattr(batch, "_probe_end", lambda ends: 0)
    monkeypatch.setattr(batch, "_shares", lambda sizes, processes, own: [0, 40, len(sizes)])
    monkeypatch.setattr(batch, "PART_CHARS", part_chars)
    tok = pipelines()["bert"]
    texts = _texts(120, seed=5)
    parent, real = os.getpid(), batch._encode_here

    def slow_before_own_error(tokenizer, items, *args):  # noqa: ANN001, ANN202
        if os.getpid() == parent and texts[38] in items:
            time.sleep(0.5)  # the worker's error (its second item) is in the pipe before this process polls
        return real(tokenizer, items, *args)

    monkeypatch.setattr(batch, "_encode_here", slow_before_own_error)
    assert tok.encode_batch(texts, num_workers=2) == tok.encode_batch(texts)
    for bad in ([(39, "own \udc81 share"), (41, "worker \udc82 share")], [(41, "worker \udc82 share")],
                [(41, "worker \udc82 share"), (110, "later \udc83")]):
        broken = list(texts)
        for i, text in bad:
            broken[i] = text
        with pytest.raises(InputError) as serial:
            tok.encode_batch(broken)
        with pytest.raises(InputError) as parallel:
            tok.encode_batch(broken, num_workers=2)
        assert str(parallel.value) == str(serial.value)
        assert f"U+{ord(bad[0][1][bad[0][1].index(' ') + 1]):04X}" in str(parallel.value)
    assert multiprocessing.active_children() == []


@pytest.mark.parametrize("bad", [0, -1, True, 1.5, "2"])
def test_num_workers_must_be_a_positive_integer(bad: object) -> None:
    tok = pipelines()["bpe"]
    with pytest.raises(ConfigError, match="num_workers"):
        tok.encode_batch(["a"], num_workers=bad)  # type: ignore[arg-type]


def test_num_workers_small_batches_and_allowed_special_validation() -> None:
    tok = pipelines()["chat"]
    assert tok.encode_batch([], num_workers=4) == []
    assert tok.encode_batch(["one text"], num_workers=4) == [tok.encode("one text")]  # no pool for one item
    assert tok.encode_batch(["a", "b"], num_workers=1) == [tok.encode("a"), tok.encode("b")]
    with pytest.raises(ConfigError, match="not special tokens"):
        tok.encode_batch(["a", "b"], num_workers=2, allowed_special=["<nope>"])  # checked before any process starts


@register("RobustnessShout")
class Shout(Normalizer):
    """A plugin normalizer defined in a test module: workers must import it to rebuild the tokenizer."""

    def normalize(self, ns):  # noqa: ANN001, ANN201
        return ns.map_chars(str.upper)


def test_encode_batch_workers_rebuild_plugin_components_and_get_the_limits(
    monkeypatch: pytest.MonkeyPatch, workers_always: None
) -> None:
    base = pipelines()["bpe"]
    tok = Tokenizer(base.model, normalizer=Shout(), pre_tokenizer=base.pre_tokenizer)
    texts = ["hello there", "the cat sat", "x" * 50]
    assert tok.encode_batch(texts, num_workers=2) == tok.encode_batch(texts)
    # The caller's limits travel to the workers: a lowered input limit is enforced there.
    monkeypatch.setattr(limits, "MAX_INPUT_CHARS", 20)
    with pytest.raises(InputError, match="MAX_INPUT_CHARS"):
        tok.encode_batch(texts, num_workers=2)


def _notebook_main(monkeypatch: pytest.MonkeyPatch, cls: type) -> Any:
    """Make ``cls`` a class of ``__main__``, and ``__main__`` a module without a file, as in a notebook or
    an interactive session: a new process (spawn, forkserver) cannot import it."""
    import types

    main = types.ModuleType("__main__")
    setattr(main, cls.__qualname__, cls)
    monkeypatch.setattr(cls, "__module__", "__main__")
    monkeypatch.setitem(sys.modules, "__main__", main)
    return main


def test_a_component_written_in_a_notebook_keeps_encode_batch_in_this_process(
    monkeypatch: pytest.MonkeyPatch, workers_always: None
) -> None:
    """Jupyter has threads, so workers would be spawned; a spawned worker cannot load a tokenizer whose
    component class was written in a notebook cell (it died: "ended without a result"). This process
    encodes alone instead; with a script as ``__main__`` (imported by the worker) workers start."""
    from toolkit import batch

    base = pipelines()["bpe"]
    tok = Tokenizer(base.model, normalizer=Shout(), pre_tokenizer=base.pre_tokenizer)
    texts = ["hello there", "the cat sat", "x" * 50] * 10
    serial = tok.encode_batch(texts)
    main = _notebook_main(monkeypatch, Shout)
    monkeypatch.setattr(batch, "start_method", lambda: "spawn")
    started = record_start_methods(monkeypatch)
    assert not batch.loads_in_new_process(tok)
    assert tok.encode_batch(texts, num_workers=2) == serial
    assert started == []
    main.__file__ = "notebook_as_a_script.py"
    assert batch.loads_in_new_process(tok)
    assert not batch.loads_in_new_process(tok, lambda: 0)  # and nothing that does not pickle


def _batch_in_daemon(doc: str) -> list[list[int]]:
    tok = Tokenizer.from_json(doc)
    return [e.ids for e in tok.encode_batch(["a b", "c d", "e"], num_workers=2)]


@pytest.mark.slow
def test_encode_batch_inside_a_daemonic_worker_falls_back_to_serial() -> None:
    tok = pipelines()["bpe"]
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        got = pool.apply(_batch_in_daemon, (tok.to_json(),))
    assert got == [tok.encode_ids(t) for t in ("a b", "c d", "e")]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers fork on Linux only")
@forks_with_threads
def test_workers_fork_in_a_process_with_one_thread_and_spawn_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forked workers inherit the tokenizer and its caches; with a second thread (which could hold a
    lock the child would inherit) they are spawned. Both give the serial encodings."""
    from toolkit import batch

    seen = record_start_methods(monkeypatch)
    monkeypatch.setattr("toolkit.batch.MIN_PARALLEL_CHARS", 0)  # small batches stay in one process otherwise
    tok = pipelines()["bpe"]
    texts = ["a b", "c", "d e f"]
    serial = [tok.encode(t) for t in texts]
    monkeypatch.setattr(batch, "_threads", lambda: 1)
    assert batch.start_method() == "fork"
    assert tok.encode_batch(texts, num_workers=2) == serial
    monkeypatch.undo()
    spawned = record_start_methods(monkeypatch)  # a new spy on the restored get_context
    monkeypatch.setattr("toolkit.batch.MIN_PARALLEL_CHARS", 0)
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert batch._threads() >= 2 and batch.start_method() == "spawn"
        assert tok.encode_batch(texts, num_workers=2) == serial
    finally:
        stop.set()
        other.join()
    assert seen + spawned == ["fork", "spawn"]


class _Unpicklable(Exception):
    def __reduce__(self):  # noqa: ANN204
        raise TypeError("cannot pickle this one")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers fork on Linux only")
@forks_with_threads
def test_worker_failures_are_clear_errors_and_leave_no_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker that dies sends nothing: the caller gets an error naming its exit code; an error that
    does not pickle still arrives, as its repr; either way no worker process is left behind."""
    from toolkit import batch

    monkeypatch.setattr(batch, "MIN_PARALLEL_CHARS", 0)
    monkeypatch.setattr(batch, "_threads", lambda: 1)  # fork, so the patches below reach the worker
    tok = pipelines()["bpe"]
    texts = ["a b", "c", "d e f", "g h"]
    with monkeypatch.context() as m:
        m.setattr(batch, "_worker", lambda *args: os._exit(3))
        with pytest.raises(RuntimeError, match="ended without a result \\(exit code 3\\)"):
            tok.encode_batch(texts, num_workers=2)
    assert multiprocessing.active_children() == []
    real = Tokenizer._encode_item

    def fails_on_last(self, item, *args):  # noqa: ANN001, ANN202
        if item == texts[-1]:
            raise _Unpicklable("unusual failure")
        return real(self, item, *args)

    monkeypatch.setattr(Tokenizer, "_encode_item", fails_on_last)
    with pytest.raises(RuntimeError, match="worker failed: _Unpicklable\\('unusual failure'\\)"):
        tok.encode_batch(texts, num_workers=2)
    assert multiprocessing.active_children() == []


def test_encode_batch_probes_the_caches_and_stays_in_one_process_when_they_are_warm(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Workers pay off only for pieces not yet cached: the probe (the first items) finds a fresh
    tokenizer cold and starts workers, the same tokenizer after one pass warm and starts none."""
    from toolkit import batch

    monkeypatch.setattr(batch, "MIN_PARALLEL_CHARS", 0)
    shares: list[int] = []
    real = batch._encode_shares

    def spy(tokenizer, items, *args):  # noqa: ANN001, ANN202
        shares.append(len(items))
        return real(tokenizer, items, *args)

    monkeypatch.setattr(batch, "_encode_shares", spy)
    tok = _fresh("bpe")
    texts = _texts(300, seed=11)
    k = batch._probe_end(list(itertools.accumulate(map(len, texts))))
    assert 0 < k <= 30
    cold = tok.encode_batch(texts, num_workers=2)
    assert shares == [len(texts) - k]  # the probe stays here, the rest is shared out
    warm = tok.encode_batch(texts, num_workers=2)
    assert shares == [len(texts) - k]  # no second call: warm caches, one process
    assert cold == warm == [tok.encode(t) for t in texts]
    # Caches of capacity 0 hold nothing: every piece is work, so workers start every time.
    shares.clear()
    uncached = _fresh("bpe")
    uncached.model.cache_capacity = 0
    uncached.encode_batch(texts, num_workers=2)
    uncached.encode_batch(texts, num_workers=2)
    assert shares == [len(texts) - k, len(texts) - k]


@pytest.mark.parametrize("seed", [5, None])
def test_a_model_that_samples_draws_in_one_process(monkeypatch: pytest.MonkeyPatch, seed: int | None) -> None:
    """Seeded sampling gives the serial encodings with num_workers too; a forked worker would repeat the
    draws of this process (the same generator state), and shares would draw in another order."""
    from toolkit import batch

    monkeypatch.setattr(batch, "MIN_PARALLEL_CHARS", 0)
    monkeypatch.setattr(batch, "_encode_shares", lambda *args: pytest.fail("workers started for a sampling model"))
    vocab = [(c, -1.0) for c in "ab "] + [("ab", -1.5), ("<unk>", -9.0)]

    def sampling() -> Tokenizer:
        return Tokenizer(Unigram(vocab, unk_id=4, alpha=0.5, seed=seed))

    lines = ["ab ba abab " * 5] * 300
    parallel = sampling().encode_batch(lines, num_workers=2)
    if seed is not None:
        assert parallel == sampling().encode_batch(lines)
    assert len({tuple(e.ids) for e in parallel}) > 1  # it does sample


def test_workers_take_every_input_one_process_takes(workers_always: None) -> None:
    """Sizing the shares runs before any encoding: an input it cannot measure (``None`` of a pair) is
    measured as no text and encoded as in one process; a bad input gets the one-process error."""
    tok = pipelines()["bert"]
    items: list = [("a b", None), "c", ("d", "e"), "i j"] * 10
    assert tok.encode_batch(items[:20], num_workers=2) == tok.encode_batch(items[:20])
    for bad in (None, b"x", 5):
        with pytest.raises(InputError) as serial:
            tok.encode_batch(["a", bad, "b"] * 10)
        with pytest.raises(InputError) as parallel:
            tok.encode_batch(["a", bad, "b"] * 10, num_workers=2)
        assert str(parallel.value) == str(serial.value)


def test_the_probe_is_a_small_part_of_the_items_or_none() -> None:
    from toolkit.batch import _probe_end

    assert _probe_end(list(range(1, 101))) == 2  # 100 equal items: the first 2% of the characters
    assert _probe_end([]) == 0
    assert _probe_end(list(range(1, 10))) == 0  # 9 items: one would be more than a tenth of them
    assert _probe_end([50, *range(51, 150)]) == 0  # the first item alone is a third of the text
    assert _probe_end([1, 2, 400, 401, *range(402, 600)]) == 0  # reaching 2% takes 400 of 599 chars


def test_shares_are_contiguous_and_balanced_by_characters() -> None:
    from toolkit.batch import _shares

    sizes = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5]
    for processes in (2, 3, 4):
        for own in (0.5, 1.0, 1.1):
            cuts = _shares(sizes, processes, own)
            assert cuts[0] == 0 and cuts[-1] == len(sizes) and cuts == sorted(cuts) and len(cuts) == processes + 1
            unit = sum(sizes) / (own + processes - 1)
            first = sum(sizes[: cuts[1]])
            assert first >= own * unit and first - sizes[cuts[1] - 1] < own * unit  # the first item that reaches it
    assert _shares([], 3, 1.0) == [0, 0, 0, 0]
    assert _shares([100, 1], 3, 1.0) == [0, 1, 1, 2]  # one long text: an empty share starts no worker
