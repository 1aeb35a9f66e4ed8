"""Special-token injection: text that contains ``<|endoftext|>``, ``[CLS]``... never yields a special id
unless the caller allowed it — for every algorithm, through ``encode``, ``encode_ids``, pairs,
``encode_batch`` (in this process and in worker processes) and the command line.

Also the model-level holes this suite found and that are now closed:

* WordPiece matched special tokens as ordinary vocabulary entries, so ``"[CLS]"`` typed with a
  whitespace (or no) pre-tokenizer became the real ``[CLS]`` id;
* a BPE / byte-level BPE file whose merges *produce* a special token (trainers never learn such a
  merge; a foreign or hostile file can contain one) turned typed text into that special id — and the
  byte-level ``encode`` crashed with a ``KeyError``;
* a normalizer (``Lowercase``) could turn ``<S>`` into the special ``<s>``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, shared_path
from test_robustness_support import SPECIALS, pipelines, special_ids, unk_id
from toolkit import Tokenizer
from toolkit.bytelevel import BYTE_TO_CHAR

SCRIPT = Path(sys.executable).with_name("tokenizer-toolkit")

#: Each special string in the contexts where an injection could slip through.
def hostile_texts(specials: list[str]) -> list[str]:
    out = []
    for s in specials:
        out += [
            s, s + s, f" {s} ", f"x{s}y", f"{s}\n{s}", f"Hello {s} world", f"{s[:-1]}{s}{s[1:]}",
            s.upper(), s.lower(), f"\t{s}", f"<<{s}>>", f"«{s}»", f"{s}🙂", f"{s}é",
        ]
    out.append(" ".join(specials))
    out.append("".join(specials))
    return out


def assert_no_special(tok: Tokenizer, text: str, *, forbidden: set[int]) -> None:
    enc = tok.encode(text)
    body = {i for i, m in zip(enc.ids, enc.special_tokens_mask) if not m}
    assert not body & forbidden, (text, enc.tokens)
    assert not set(tok.encode(text, add_special_tokens=False).ids) & forbidden, text
    ids = tok.encode_ids(text, add_special_tokens=False)
    assert not set(ids) & forbidden, (text, ids)
    pair = tok.encode(text, text)
    assert not {i for i, m in zip(pair.ids, pair.special_tokens_mask) if not m} & forbidden, text


@pytest.mark.parametrize("name", ["gpt2", "chat", "tiktoken", "bpe", "bpe_metaspace", "bert", "wordpiece"])
def test_typed_special_tokens_are_text_for_every_pipeline(name: str) -> None:
    tok = pipelines()[name]
    specials = list(tok.special_tokens) + list(SPECIALS)
    forbidden = special_ids(tok) - {unk_id(tok)}
    texts = hostile_texts(specials)
    for text in texts:
        assert_no_special(tok, text, forbidden=forbidden)
    # encode_batch, serial: same encodings as encode, no special ids.
    batch = tok.encode_batch(texts + [(t, t) for t in texts[:5]], add_special_tokens=False)
    for enc in batch:
        assert not set(enc.ids) & forbidden
    # Allowed: each typed special token becomes its id, and nothing else does.
    for s in tok.special_tokens:
        enc = tok.encode(f"a {s} b{s}", allowed_special=[s], add_special_tokens=False)
        assert enc.ids.count(tok.special_tokens[s]) == 2, (s, enc.tokens)
        assert tok.encode_ids(f"a {s} b{s}", allowed_special="all", add_special_tokens=False).count(tok.special_tokens[s]) == 2


@pytest.mark.parametrize("name", ["chat", *(pytest.param(n, marks=pytest.mark.slow) for n in ("bert", "tiktoken"))])
def test_encode_batch_in_worker_processes_keeps_specials_as_text(name: str) -> None:
    tok = pipelines()[name]
    forbidden = special_ids(tok) - {unk_id(tok)}
    texts = hostile_texts(list(tok.special_tokens))
    serial = tok.encode_batch(texts)
    parallel = tok.encode_batch(texts, num_workers=2)
    assert parallel == serial
    for enc in parallel:
        assert not {i for i, m in zip(enc.ids, enc.special_tokens_mask) if not m} & forbidden
    allowed = tok.encode_batch(texts, num_workers=2, allowed_special="all")
    assert allowed == tok.encode_batch(texts, allowed_special="all")
    assert any(set(e.ids) & forbidden for e in allowed)  # the check above can fail


# ---------------------------------------------------------------------------------------- model-level holes
def test_wordpiece_never_matches_a_special_token_inside_text() -> None:
    from algorithms import WordPiece
    from pretokenizers import WhitespaceSplit

    vocab = {"[UNK]": 0, "[CLS]": 1, "[SEP]": 2, "<|endoftext|>": 3, "a": 4, "##b": 5, "[": 6, "##C": 7,
             "##L": 8, "##S": 9, "##]": 10, "<": 11, "##|": 12}
    model = WordPiece(vocab, special_tokens=["[UNK]", "[CLS]", "[SEP]", "<|endoftext|>"])
    for pre in (None, WhitespaceSplit()):
        tok = Tokenizer(model, pre_tokenizer=pre)
        assert tok.encode_ids("[CLS]") == [6, 7, 8, 9, 10]
        assert tok.encode("[CLS]").ids == [6, 7, 8, 9, 10]
        assert tok.encode_ids("<|endoftext|>") == [0]  # unknown word → [UNK], never the special id
        assert tok.encode_ids("[CLS]", allowed_special="all") == [1]
        assert tok.encode_ids("ab [SEP]", allowed_special=["[SEP]"]) == [4, 5, 2] if pre else True
    # The vocabulary and files are unchanged: the specials still decode and round-trip.
    assert tok.decode([1, 4], skip_special_tokens=False) == "[CLS] a"
    again = Tokenizer.from_json(tok.to_json())
    assert again.encode_ids("[CLS]") == [6, 7, 8, 9, 10]


def _byte_vocab() -> dict[str, int]:
    return {c: i for i, c in enumerate(BYTE_TO_CHAR)}


def test_byte_level_merges_that_spell_a_special_token_never_apply() -> None:
    from algorithms import ByteLevelBPE
    from pretokenizers import ByteLevel

    vocab = _byte_vocab() | {"<s": 256, "<s>": 257, "s>": 258}
    from toolkit.decoders import ByteLevel as ByteLevelDecoder

    model = ByteLevelBPE(vocab, [("<", "s"), ("<s", ">"), ("s", ">")], special_tokens=["<s>"])
    tok = Tokenizer(model, pre_tokenizer=ByteLevel(add_prefix_space=False, use_regex=False), decoder=ByteLevelDecoder())
    for text in ("<s>", "a<s>b", "<s><s>"):
        ids = tok.encode_ids(text)
        assert 257 not in ids, ids
        assert tok.encode(text).ids == ids  # used to raise KeyError: 257
        assert tok.decode(ids) == text
    assert tok.encode_ids("<s>") == [256, ord(">")]
    assert tok.encode_ids("<s>", allowed_special="all") == [257]


def test_rank_mode_special_inside_the_ranks_is_never_produced() -> None:
    from algorithms import ByteLevelBPE
    from pretokenizers import ByteLevel

    ranks = {bytes([b]): b for b in range(256)} | {b"<s": 256, b"<s>": 257}
    model = ByteLevelBPE.from_ranks(ranks, special_tokens={"<s>": 257})
    tok = Tokenizer(model, pre_tokenizer=ByteLevel(add_prefix_space=False, use_regex=False))
    assert tok.encode_ids("<s>") == [256, ord(">")]
    assert tok.encode("x<s>").ids == [ord("x"), 256, ord(">")]
    assert tok.encode_ids("<s>", allowed_special="all") == [257]


def test_char_bpe_file_with_a_merge_producing_a_special_token() -> None:
    doc = {
        "format": "tokenizer-toolkit", "version": 1,
        "model": {"type": "BPE", "vocab": {"<": 0, "s": 1, ">": 2, "<s": 3, "<s>": 4, "[UNK]": 5},
                  "merges": [["<", "s"], ["<s", ">"]], "unk_token": "[UNK]", "special_tokens": ["<s>", "[UNK]"]},
        "normalizer": {"type": "Lowercase"},
    }
    tok = Tokenizer.from_json(json.dumps(doc))
    for text in ("<s>", "<S>", "<s><S>"):
        assert 4 not in tok.encode_ids(text), text
        assert 4 not in tok.encode(text).ids, text
    assert tok.encode_ids("<s>") == [3, 2]
    assert tok.encode_ids("<s>", allowed_special="all") == [4]
    # The normalizer runs after the special-token split: "<S>" is never the special token.
    assert tok.encode_ids("<S>", allowed_special="all") == [3, 2]


def test_hf_tokenizer_json_whose_merges_reach_a_special_token(tmp_path: Path) -> None:
    vocab = _byte_vocab() | {"<s": 256, "<s>": 257}
    hf = {
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [{"id": 257, "content": "<s>", "single_word": False, "lstrip": False, "rstrip": False,
                          "normalized": False, "special": True}],
        "normalizer": None,
        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False},
        "post_processor": None, "decoder": {"type": "ByteLevel"},
        "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
                  "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False, "vocab": vocab,
                  "merges": ["< s", "<s >"]},
    }
    path = tmp_path / "tokenizer.json"
    path.write_text(json.dumps(hf), encoding="utf-8")
    tok = Tokenizer.from_hf_json(path)
    assert tok.encode_ids("<s>") == [256, ord(">")]
    assert tok.encode_ids("<s>", allowed_special="all") == [257]


def test_gpt2_and_cl100k_files_keep_endoftext_as_text() -> None:
    gpt2 = Tokenizer.from_gpt2(shared_path("vocab/gpt2/encoder.json"), shared_path("vocab/gpt2/vocab.bpe"))
    for text in hostile_texts(["<|endoftext|>"]):
        assert 50256 not in gpt2.encode_ids(text), text
    assert gpt2.encode_ids("<|endoftext|>", allowed_special="all") == [50256]
    cl100k = Tokenizer.from_tiktoken(shared_path("vocab/tiktoken/cl100k_base.tiktoken"))
    forbidden = set(cl100k.special_tokens.values())
    for text in hostile_texts(list(cl100k.special_tokens)):
        assert not set(cl100k.encode_ids(text)) & forbidden, text


def test_bert_vocab_file_typed_cls_and_sep(tmp_path: Path) -> None:
    tok = pipelines()["bert"]
    path = tmp_path / "vocab.txt"
    tok.save_bert_vocab(path)
    bert = Tokenizer.from_bert_vocab(path)
    cls_id, sep_id = bert.token_to_id("[CLS]"), bert.token_to_id("[SEP]")
    for text in hostile_texts(["[CLS]", "[SEP]", "[MASK]"]):
        ids = bert.encode_ids(text)
        assert ids[0] == cls_id and ids[-1] == sep_id
        assert cls_id not in ids[1:-1] and sep_id not in ids[1:-1], text


# ---------------------------------------------------------------------------------------- the CLI
def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    if not SCRIPT.exists():
        pytest.skip(f"console script not installed at {SCRIPT}")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(
        [str(SCRIPT), *args], input=stdin, capture_output=True, text=True, timeout=120, cwd=ROOT, env=env,
    )


def test_cli_encode_keeps_special_tokens_as_text(tmp_path: Path) -> None:
    chat = pipelines()["chat"]
    path = tmp_path / "chat.json"
    chat.save(path)
    start, end = chat.special_tokens["<|im_start|>"], chat.special_tokens["<|im_end|>"]
    text = "<|im_start|>user hi<|im_end|> <|im_end|>"
    lines = text + "\n" + "<|im_end|>\n"

    plain = _cli("encode", str(path), text)
    assert plain.returncode == 0, plain.stderr
    ids = [int(i) for i in plain.stdout.split()]
    assert ids == chat.encode_ids(text) and not {start, end} & set(ids)

    for args, stdin in ((["--file", "-", "--lines"], lines), (["--format", "json"], text), (["--format", "tokens"], text)):
        proc = _cli("encode", str(path), *args, stdin=stdin)
        assert proc.returncode == 0, proc.stderr
        out = proc.stdout
        if "--lines" in args:
            assert not {start, end} & {int(i) for i in out.split()}
        elif "json" in args:
            assert not {start, end} & set(json.loads(out)["ids"])
        else:
            assert "<|im_end|>" not in out.split()

    allowed = _cli("encode", str(path), text, "--allowed-special", "all")
    assert allowed.returncode == 0, allowed.stderr
    assert [int(i) for i in allowed.stdout.split()] == chat.encode_ids(text, allowed_special="all")
    assert [int(i) for i in allowed.stdout.split()].count(end) == 2
    only_start = _cli("encode", str(path), text, "--allowed-special", "<|im_start|>")
    assert [int(i) for i in only_start.stdout.split()].count(start) == 1
    assert end not in [int(i) for i in only_start.stdout.split()]


def test_cli_encode_bert_vocab_typed_sep(tmp_path: Path) -> None:
    path = tmp_path / "vocab.txt"
    pipelines()["bert"].save_bert_vocab(path)
    proc = _cli("encode", str(path), "hello [SEP] [CLS] world")
    assert proc.returncode == 0, proc.stderr
    ids = [int(i) for i in proc.stdout.split()]
    bert = Tokenizer.from_bert_vocab(path)
    assert ids == bert.encode_ids("hello [SEP] [CLS] world")
    sep, cls = bert.token_to_id("[SEP]"), bert.token_to_id("[CLS]")
    assert ids[0] == cls and ids[-1] == sep and sep not in ids[1:-1] and cls not in ids[1:-1]
