"""The encode_ids fast path (space-chunk memo over the pinned scanner) equals its obvious reference.

``scan_ids`` keeps the ids of each ``" " + word`` chunk and scans only the rest with the pattern; the
rule that makes this exact is checked here on adversarial text (every kind of whitespace next to
words, digits, apostrophes, marks and letters outside the BMP), for every named pattern, against
``scan_ids_reference`` (scan the whole text, encode each piece) and against the plain pattern split.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from algorithms import ByteLevelBPE
from pretokenizers import (
    CL100K_PATTERN,
    GPT2_PATTERN,
    HF_GPT2_PATTERN,
    LLAMA3_PATTERN,
    O200K_PATTERN,
    ByteLevel,
    Sequence,
    Split,
)
from pretokenizers.pinned import compile_pinned
from toolkit import Tokenizer
from toolkit.fast_paths import _WHITESPACE, scan_ids, scan_ids_reference
from toolkit.normalizers import Regex

ALPHABET = list(" \n\r\t\x0b\x0c\x1c\x85\xa0\u2028\u3000'sStTdmlvre1234567890aZéÀ\u0301\u00b2,.!?/-_\U0001d400\U0003d000ſ")
TEXT = st.text(alphabet=st.sampled_from(ALPHABET), max_size=60) | st.lists(
    st.sampled_from([" ", "  ", "\n", " \n ", "word", "'s", "12345", "x!", "\t", "Ab", "\r\n"]), max_size=20
).map("".join)


# Merges across every boundary the rule relies on (space-word, newline-space, digits, apostrophes): a
# wrong cut changes the ids.
_PAIRS = [("Ġ", "Ġ"), ("Ċ", "Ġ"), ("Ġ", "Ċ"), ("1", "2"), ("12", "3"), ("'", "s"), ("Ġ", "a"), ("a", "Ġ"), ("Ġ", "w"),
          ("!", "Ġ"), ("ĉ", "Ġ"), ("Ġ", "'"), ("Ġ", "1"), ("x", "!"), ("Ċ", "Ċ"), ("Ġ", "x"), ("d", "Ġ")]


def model() -> ByteLevelBPE:
    vocab = {c: i for i, c in enumerate(ByteLevel.alphabet())}
    for a, b in _PAIRS:
        vocab[a + b] = len(vocab)
    return ByteLevelBPE(vocab=vocab, merges=_PAIRS)


def pipeline(pattern: str | None, *, prefix: bool = False) -> Tokenizer:
    if pattern is None:
        return Tokenizer(model(), pre_tokenizer=ByteLevel(add_prefix_space=prefix))
    return Tokenizer(model(), pre_tokenizer=Sequence([Split(Regex(pattern)), ByteLevel(add_prefix_space=False, use_regex=False)]))


PIPELINES = {
    "gpt2 ByteLevel": pipeline(None),
    "gpt2 ByteLevel prefix": pipeline(None, prefix=True),
    **{name: pipeline(p) for name, p in [("gpt2", GPT2_PATTERN), ("hf-gpt2", HF_GPT2_PATTERN), ("cl100k", CL100K_PATTERN),
                                         ("o200k", O200K_PATTERN), ("llama3", LLAMA3_PATTERN)]},
}


@pytest.mark.parametrize("name", PIPELINES)
@given(text=TEXT)
def test_chunked_scan_equals_reference(name, text):
    tok = PIPELINES[name]
    caches = tok._current_caches()
    assert caches.scanner is not None
    expected = scan_ids_reference(caches, text)
    assert scan_ids(caches, text) == expected
    assert scan_ids(caches, text) == expected  # warm memo
    assert tok.encode_ids(text, add_special_tokens=False) == tok.encode(text, add_special_tokens=False).ids


@pytest.mark.parametrize("pattern", [GPT2_PATTERN, CL100K_PATTERN, O200K_PATTERN, LLAMA3_PATTERN])
@given(text=TEXT)
def test_space_chunk_rule(pattern, text):
    """The rule itself: a space whose previous character is not whitespace starts a piece."""
    scan = compile_pinned(pattern).findall
    starts = {0}
    for p in scan(text):
        starts.add(max(starts) + len(p))
    cuts = {i for i, c in enumerate(text) if c == " " and i and not _WHITESPACE.match(text[i - 1])}
    assert cuts <= starts


def test_no_scanner_for_other_pipelines():
    assert Split(Regex(r"\w+")).scanner() is None
    assert Split(Regex(CL100K_PATTERN), behavior="merged_with_next").scanner() is None
    assert Sequence([Split(Regex(CL100K_PATTERN)), ByteLevel(use_regex=True)]).scanner() is None
    assert ByteLevel(use_regex=False).scanner() is None


def test_encode_ids_has_no_size_limit_and_is_linear():
    from toolkit import limits

    tok = PIPELINES["cl100k"]
    unit = "The quick brown fox, 12345 times!\n"
    big = unit * (limits.MAX_INPUT_CHARS // len(unit) + 10)
    ids = tok.encode_ids(big)
    assert len(ids) == len(tok.encode_ids(unit)) * (len(big) // len(unit))  # counted, not timed


UNGUARDED = """
from algorithms import BPE
from toolkit import Tokenizer
tok = Tokenizer(BPE(vocab={"a": 0, "b": 1, "ab": 2}, merges=[("a", "b")]))
out = tok.encode_batch(["ab" * 5000] * 120, num_workers=2)
print(len(out), out[0].ids[:2])
"""


def test_encode_batch_in_a_script_without_main_guard_does_not_hang(tmp_path):
    import os
    import subprocess
    import sys

    script = tmp_path / "unguarded.py"
    script.write_text(UNGUARDED, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[0] == "120 [2, 2]"  # printed once: no worker re-ran the script


def test_spawn_safety_checks():
    from toolkit.batch import MIN_PARALLEL_CHARS, spawn_is_safe

    assert spawn_is_safe()  # pytest runs as ``python -m pytest``: no script for a worker to re-run
    assert MIN_PARALLEL_CHARS > 0


@pytest.mark.parametrize(("source", "spec_name", "guarded"), [
    ("import os\nx = 1\n", None, True),
    ("import os\nprint('x')\n", None, False),
    ("import os\nprint('x')\n", "mymodule", False),  # python -m mymodule: spawn re-runs it as __mp_main__
    ("import os\nprint('x')\n", "pkg.__main__", True),  # a package's __main__ is not re-run
    ("class Run:\n    print('runs at import')\n", None, False),  # a class body runs at import
    ("class Run:\n    def go(self):\n        print('x')\n", None, True),
    ("if __name__ == '__main__':\n    print('x')\n", "mymodule", True),
])
def test_which_main_modules_a_spawned_worker_would_run_again(tmp_path, monkeypatch, source, spec_name, guarded):
    import importlib.machinery
    import sys
    import types

    from toolkit.batch import _main_is_guarded

    path = tmp_path / "main_module.py"
    path.write_text(source, encoding="utf-8")
    main = types.ModuleType("__main__")
    main.__file__ = str(path)
    main.__spec__ = None if spec_name is None else importlib.machinery.ModuleSpec(spec_name, None)
    monkeypatch.setitem(sys.modules, "__main__", main)
    assert _main_is_guarded() is guarded


def test_ends_of_short_texts_are_kept_apart_from_the_words():
    """Lines share their ends: the first word (scanned without a space in front) and the final run after
    the last word are kept in ``caches.scanned`` under the exact text scanned, never in the word memo."""
    tok = pipeline(CL100K_PATTERN)
    caches = tok._current_caches()
    line = "The end\n"
    first = scan_ids(caches, line)
    assert first == scan_ids_reference(caches, line)
    assert set(caches.scanned) == {"The", " end\n"}
    assert set(caches.chunks) == set()  # neither end is a word " " + w
    assert all(type(ids) is tuple for ids in caches.scanned.values())
    caches.scanned["The"] = (1,)  # a planted entry shows that the second call looks the end up
    assert scan_ids(caches, line)[:1] == [1]
    assert scan_ids(caches, "The quick end\n")[:1] == [1]
    del caches.scanned["The"]
    assert scan_ids(caches, "The") == scan_ids_reference(caches, "The")  # the same text scanned alone
    assert scan_ids(caches, "  x\n") == scan_ids_reference(caches, "  x\n")


def test_long_runs_between_words_are_scanned_every_time():
    from toolkit.fast_paths import MAX_SCANNED

    tok = pipeline(GPT2_PATTERN)
    caches = tok._current_caches()
    long_run = "a" + "\n" * MAX_SCANNED + " b"
    short_run = "a" + "\n" * (MAX_SCANNED - 3) + " b"
    for text in (long_run, short_run):
        assert scan_ids(caches, text) == scan_ids_reference(caches, text)
    assert len(short_run) == MAX_SCANNED and set(caches.scanned) == {short_run}  # a whitespace run with the word after it


def test_a_long_text_pauses_the_collector_and_restores_its_state():
    import gc

    from toolkit.tokenizer import _PAUSE_GC_FROM

    tok = PIPELINES["gpt2"]
    text = "qqzzy " * (_PAUSE_GC_FROM // 6 + 1)  # a word no other test puts in the shared memo
    seen = []
    caches = tok._current_caches()
    encode = caches.scan_encode

    def spy(chunk):
        seen.append(gc.isenabled())
        return encode(chunk)

    caches.scan_encode = spy
    try:
        assert tok.encode_ids(text) == scan_ids_reference(caches, text)
        assert seen and not any(seen) and gc.isenabled()  # paused while encoding, enabled again after
        gc.disable()
        tok.encode_ids(text + "x")
        assert not gc.isenabled()  # a caller's disabled collector stays disabled
    finally:
        gc.enable()
        caches.scan_encode = encode
    assert all(type(ids) is tuple for ids in caches.chunks.values())  # untracked by the collector


@settings(max_examples=300)
@given(
    text=st.lists(st.sampled_from(["a", "b", "ab", "c", "[SEP]"]), max_size=12).map(" ".join),
    processor=st.sampled_from(["none", "bert", "template"]),
    truncation=st.none() | st.tuples(st.integers(0, 8), st.sampled_from([0, 0, 1, 2]),
                                     st.sampled_from(["longest_first", "only_first", "only_second"]), st.sampled_from(["right", "left"])),
    padding=st.none() | st.tuples(st.none() | st.integers(0, 10), st.none() | st.integers(1, 4), st.sampled_from(["right", "left"])),
    add_special_tokens=st.booleans(),
    later=st.booleans(),
)
@example(text="a b ab a b", processor="none", truncation=(5, 2, "longest_first", "right"), padding=None,
         add_special_tokens=True, later=True)  # room 5 - 3 = 2, stride 2: the stride error
@example(text="a b ab a b", processor="bert", truncation=(4, 0, "longest_first", "left"), padding=(None, 4, "left"),
         add_special_tokens=True, later=False)
def test_encode_ids_with_truncation_and_padding_equals_encode(text, processor, truncation, padding, add_special_tokens, later) -> None:
    """With truncation or padding on, ``encode_ids`` cuts and pads the ids alone (no Encoding, no size
    limit); the ids, and any error, must be those of ``encode(text).ids``. ``later``: a post-processor
    set after ``enable_truncation`` leaves less room than was checked then (a stride can reach it)."""
    from hypothesis import assume

    from algorithms import WordLevel
    from pretokenizers import WhitespaceSplit
    from toolkit.errors import ConfigError, InputError
    from toolkit.processors import BertProcessing, TemplateProcessing

    vocab = {"[UNK]": 0, "[CLS]": 1, "[SEP]": 2, "[PAD]": 3, "a": 4, "b": 5, "ab": 6}
    post = {"none": None, "bert": BertProcessing(("[SEP]", 2), ("[CLS]", 1)),
            "template": TemplateProcessing("[CLS] $A [SEP] [SEP]", "$A $B:1", [("[CLS]", 1), ("[SEP]", 2)])}[processor]
    tok = Tokenizer(WordLevel(vocab, unk_token="[UNK]"), pre_tokenizer=WhitespaceSplit(), post_processor=post)
    tok.add_special_tokens(["[SEP]"])
    try:
        if truncation is not None:
            max_length, stride, strategy, direction = truncation
            tok.enable_truncation(max_length, stride=stride, strategy=strategy, direction=direction)
        if padding is not None:
            length, multiple, direction = padding
            tok.enable_padding(direction=direction, pad_id=3, length=length, pad_to_multiple_of=multiple)
    except ConfigError:
        assume(False)
    if later:
        tok.post_processor = TemplateProcessing("[CLS] [CLS] [CLS] $A", "$A $B:1", [("[CLS]", 1)])
    try:
        expected = tok.encode(text, add_special_tokens=add_special_tokens).ids
    except InputError as exc:
        with pytest.raises(type(exc), match=f"^{re.escape(str(exc))}$"):
            tok.encode_ids(text, add_special_tokens=add_special_tokens)
        return
    assert tok.encode_ids(text, add_special_tokens=add_special_tokens) == expected
