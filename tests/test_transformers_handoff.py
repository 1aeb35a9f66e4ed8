"""``save_pretrained`` → ``transformers.AutoTokenizer.from_pretrained`` (issue 13): same ids, roles set,
padding and truncation work, for a BERT-style, a GPT-2-style and a chat-style tokenizer trained here.
No model weights, no network; the training text is the shared corpus (skips without it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import require, shared_path, slow_params

from toolkit.errors import ConfigError, SerializationError
from toolkit.training.presets import PRESETS

transformers = require("transformers")

EXPECTED_ROLES = {
    "bert": {"pad_token": "[PAD]", "unk_token": "[UNK]", "cls_token": "[CLS]", "sep_token": "[SEP]", "mask_token": "[MASK]"},
    "gpt2_style": {"bos_token": "<|endoftext|>", "eos_token": "<|endoftext|>", "pad_token": "<|endoftext|>"},
    "chat": {"eos_token": "<|im_end|>", "pad_token": "<|im_end|>"},
}


@pytest.fixture(scope="module")
def lines() -> list[str]:
    text = shared_path("english/tinyshakespeare_input.txt").read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.strip()]


def _trained(name: str, lines: list[str]) -> Any:
    tok, trainer = PRESETS[name](vocab_size=800)
    return tok.train(lines[:4000], trainer)


@pytest.mark.parametrize("name", sorted(EXPECTED_ROLES))
def test_auto_tokenizer_gives_the_same_ids_and_pads(name: str, lines: list[str], tmp_path: Path) -> None:
    tok = _trained(name, lines)
    written = tok.save_pretrained(tmp_path / "tok")
    assert sorted(Path(p).name for p in written) == ["special_tokens_map.json", "tokenizer.json", "tokenizer_config.json"]
    hf = transformers.AutoTokenizer.from_pretrained(str(tmp_path / "tok"))
    for role, token in EXPECTED_ROLES[name].items():
        assert getattr(hf, role) == token, role
    sample = lines[5000:5200]
    assert [hf(line)["input_ids"] for line in sample] == [tok.encode(line).ids for line in sample]
    batch = hf(sample[:8], padding=True, truncation=True, max_length=12)
    ours = tok.encode_batch(sample[:8])
    pad_id = hf.pad_token_id
    for ids, mask, enc in zip(batch["input_ids"], batch["attention_mask"], ours):
        n = sum(mask)
        assert len(ids) == max(len(i) for i in batch["input_ids"]) <= 12
        assert all(i == pad_id for i in ids[n:]) and all(m == 0 for m in mask[n:])
        if len(enc) <= 12:
            assert ids[:n] == enc.ids


def test_our_truncation_and_padding_become_transformers_defaults(lines: list[str], tmp_path: Path) -> None:
    tok = _trained("bert", lines)
    tok.enable_truncation(16, direction="left")
    tok.enable_padding(direction="left")
    tok.save_pretrained(tmp_path)
    hf = transformers.AutoTokenizer.from_pretrained(str(tmp_path))
    assert (hf.model_max_length, hf.padding_side, hf.truncation_side) == (16, "left", "left")


def test_explicit_roles_override_the_inferred_ones(lines: list[str], tmp_path: Path) -> None:
    tok = _trained("chat", lines)
    tok.save_pretrained(tmp_path, bos_token="<|im_start|>", pad_token=None)
    hf = transformers.AutoTokenizer.from_pretrained(str(tmp_path))
    assert (hf.bos_token, hf.eos_token, hf.pad_token) == ("<|im_start|>", "<|im_end|>", None)
    with pytest.raises(ConfigError, match="not in the vocabulary"):
        tok.save_pretrained(tmp_path, pad_token="<pad>")
    (tmp_path / "file").write_text("x")
    with pytest.raises(SerializationError, match="not a directory"):
        tok.save_pretrained(tmp_path / "file")


def test_cli_convert_to_transformers_is_all_or_nothing(lines: list[str], tmp_path: Path) -> None:
    tok = _trained("gpt2_style", lines)
    tok.save(tmp_path / "tok.json")
    run = [sys.executable, "-m", "toolkit", "convert", str(tmp_path / "tok.json")]
    done = subprocess.run([*run, str(tmp_path / "out"), "--to", "transformers"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    hf = transformers.AutoTokenizer.from_pretrained(str(tmp_path / "out"))
    assert hf("Hello there")["input_ids"] == tok.encode("Hello there").ids
    (tmp_path / "blocker").write_text("x")
    failed = subprocess.run([*run, str(tmp_path / "blocker"), "--to", "transformers"], capture_output=True, text=True, check=False)
    assert failed.returncode != 0 and failed.stderr.count("\n") == 1 and "blocker is a file, not a folder" in failed.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["blocker", "out", "tok.json"]  # no half-written directory


def test_pairs_return_token_type_ids_only_where_the_model_takes_them(lines: list[str], tmp_path: Path) -> None:
    """transformers 5 returns only ``model_input_names``: BERT's pairs need ``token_type_ids``, GPT-style
    models refuse them."""
    for name, expected in (("bert", True), ("gpt2_style", False)):
        tok = _trained(name, lines)
        tok.save_pretrained(tmp_path / name)
        hf = transformers.AutoTokenizer.from_pretrained(str(tmp_path / name))
        out = hf("a b", "c d")
        assert ("token_type_ids" in out) is expected, name
        if expected:
            assert out["token_type_ids"] == tok.encode("a b", "c d").type_ids


# By default one byte-level file of each kind and Llama 2's sentencepiece-style one (under 1 s);
# Qwen3, Gemma 3 and GPT-4o (the largest files: 17 s of the default run) in the slow set.
LLM_NAMES = slow_params(["llama2", "llama3", "deepseek_v3", "qwen3", "gemma3", "gpt4o"],
                        slow=("qwen3", "gemma3", "gpt4o"))
LLM_TEXTS = ["Hello world, how are you?", "café 東京 1234567", "  leading spaces\nnew line", ""]


@pytest.mark.parity
@pytest.mark.parametrize("name", LLM_NAMES)
def test_a_model_saved_again_with_its_template_behaves_as_the_original(name: str, tmp_path: Path) -> None:
    """``template=`` carries the model's tokenizer_config.json over: roles (a null one stays null), chat
    template, padding side, model_max_length, class; transformers then gives what the original gives."""
    from toolkit import Tokenizer

    folder = shared_path(f"vocab/llm/{name}")
    tok = Tokenizer.from_file(folder / "tokenizer.json")
    tok.save_pretrained(tmp_path / "out", template=folder)
    original = transformers.AutoTokenizer.from_pretrained(str(folder))
    ours = transformers.AutoTokenizer.from_pretrained(str(tmp_path / "out"))
    for attribute in ("bos_token", "eos_token", "pad_token", "unk_token", "padding_side", "model_max_length",
                      "all_special_tokens", "model_input_names", "chat_template"):
        assert getattr(ours, attribute) == getattr(original, attribute), attribute
    # a special token inside the text: Llama 2's class keeps the word after it whole only with the
    # carried legacy: true; decoding around it depends on spaces_between_special_tokens
    texts = [*LLM_TEXTS, f"hello{original.eos_token}world", f"a {original.bos_token} b{original.eos_token}"]
    assert [ours(t)["input_ids"] for t in texts] == [original(t)["input_ids"] for t in texts]
    assert [ours(t, t)["input_ids"] for t in texts] == [original(t, t)["input_ids"] for t in texts]
    for t in texts:
        ids = original(t)["input_ids"]
        for skip in (False, True):
            assert ours.decode(ids, skip_special_tokens=skip) == original.decode(ids, skip_special_tokens=skip)


def test_special_tokens_added_since_the_template_are_listed(tmp_path: Path) -> None:
    from toolkit import Tokenizer

    folder = shared_path("vocab/llm/llama2")
    tok = Tokenizer.from_file(folder / "tokenizer.json")
    tok.add_special_tokens(["<|new|>"])
    tok.save_pretrained(tmp_path, template=folder)
    hf = transformers.AutoTokenizer.from_pretrained(str(tmp_path))
    assert "<|new|>" in hf.all_special_tokens
    ids = hf("a<|new|>b")["input_ids"]
    assert tok.token_to_id("<|new|>") in ids
    assert "new" not in hf.decode(ids, skip_special_tokens=True)


def test_our_padding_token_becomes_pad_token_when_it_is_special(lines: list[str], tmp_path: Path) -> None:
    chat = _trained("chat", lines)
    chat.enable_padding(pad_id=chat.token_to_id("<|im_start|>"), pad_token="<|im_start|>")
    chat.save_pretrained(tmp_path / "chat")
    hf = transformers.AutoTokenizer.from_pretrained(str(tmp_path / "chat"))
    assert hf.pad_token == "<|im_start|>"
    assert hf(["a b c", "a"], padding=True)["input_ids"] == [e.ids for e in chat.encode_batch(["a b c", "a"])]
    bert = _trained("bert", lines)
    bert.enable_padding(pad_id=bert.token_to_id("[MASK]"), pad_token="[MASK]")
    bert.save_pretrained(tmp_path / "bert", pad_token="[PAD]")  # a role keyword still wins
    assert transformers.AutoTokenizer.from_pretrained(str(tmp_path / "bert")).pad_token == "[PAD]"
    # an ordinary token (HF's default pad_id 0 is "!" in a byte-level vocabulary) would become special
    # in transformers: the inferred role stays
    gpt = _trained("gpt2_style", lines)
    gpt.enable_padding()
    gpt.save_pretrained(tmp_path / "gpt")
    assert transformers.AutoTokenizer.from_pretrained(str(tmp_path / "gpt")).pad_token == "<|endoftext|>"


def test_a_transformers_folder_loads_without_the_padding_of_its_last_call(lines: list[str], tmp_path: Path) -> None:
    import json

    from toolkit import Tokenizer
    from toolkit.interop.transformers import load_pretrained

    _trained("bert", lines).save_pretrained(tmp_path / "ours")
    hf = transformers.AutoTokenizer.from_pretrained(str(tmp_path / "ours"))
    hf(["hi", "a longer line of text"], truncation=True, padding="max_length", max_length=16)
    hf.save_pretrained(str(tmp_path / "theirs"))
    document = json.loads((tmp_path / "theirs" / "tokenizer.json").read_text(encoding="utf-8"))
    assert document["padding"] is not None and document["truncation"] is not None  # the last call's state
    reloaded = transformers.AutoTokenizer.from_pretrained(str(tmp_path / "theirs"))
    long = " ".join(lines[100:110])
    for tok in (load_pretrained(tmp_path / "theirs"), Tokenizer.load_any(tmp_path / "theirs")):
        assert tok.padding is None and tok.truncation is None
        assert [tok.encode(t).ids for t in ("hi", long)] == [reloaded(t)["input_ids"] for t in ("hi", long)]


def test_without_a_template_roles_come_from_names_and_the_leading_special(lines: list[str], tmp_path: Path) -> None:
    from toolkit import Tokenizer
    from toolkit.processors import TemplateProcessing

    tok = Tokenizer.from_file(shared_path("vocab/llm/deepseek_v3/tokenizer.json"))
    tok.save_pretrained(tmp_path / "deepseek")
    hf = transformers.AutoTokenizer.from_pretrained(str(tmp_path / "deepseek"))
    bos, eos = "<\uff5cbegin\u2581of\u2581sentence\uff5c>", "<\uff5cend\u2581of\u2581sentence\uff5c>"
    assert (hf.bos_token, hf.eos_token, hf.pad_token) == (bos, eos, eos)
    assert hf(["a", "b c"], padding=True)["input_ids"][0][-1] == tok.token_to_id(eos)
    chat = _trained("chat", lines)
    start = ("<|im_start|>", chat.token_to_id("<|im_start|>"))
    chat.post_processor = TemplateProcessing(single="<|im_start|> $A", pair="<|im_start|> $A $B", special_tokens=[start])
    chat.save_pretrained(tmp_path / "chat")
    assert transformers.AutoTokenizer.from_pretrained(str(tmp_path / "chat")).bos_token == "<|im_start|>"


def test_template_errors_and_stale_files(lines: list[str], tmp_path: Path) -> None:
    tok = _trained("chat", lines)
    (tmp_path / "t.json").write_text('{"eos_token": "</s>"}')
    with pytest.raises(ConfigError, match=r"template's eos_token '</s>' is not in this tokenizer's vocabulary; pass eos_token="):
        tok.save_pretrained(tmp_path / "out", template=tmp_path / "t.json")
    tok.save_pretrained(tmp_path / "out", template=tmp_path / "t.json", eos_token="<|im_end|>")
    (tmp_path / "bad.json").write_text("[1]")
    with pytest.raises(SerializationError, match="holds a JSON object"):
        tok.save_pretrained(tmp_path / "out", template=tmp_path / "bad.json")
    with pytest.raises(SerializationError, match="no such tokenizer_config.json"):
        tok.save_pretrained(tmp_path / "out", template=tmp_path / "missing")
    (tmp_path / "deep.json").write_text("[" * 100_000)
    with pytest.raises(SerializationError, match="nested too deeply"):
        tok.save_pretrained(tmp_path / "out", template=tmp_path / "deep.json")
    (tmp_path / "cut.json").write_text('{"eos_token": ')
    with pytest.raises(SerializationError, match="not valid JSON"):
        tok.save_pretrained(tmp_path / "out", template=tmp_path / "cut.json")
    # a chat template left by an earlier save would override ours: it goes in the same step
    (tmp_path / "out" / "chat_template.jinja").write_text("STALE {{ messages[0]['content'] }}")
    (tmp_path / "out" / "notes.txt").write_text("mine")
    tok.save_pretrained(tmp_path / "out")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "notes.txt", "special_tokens_map.json", "tokenizer.json", "tokenizer_config.json"]


def test_a_failure_after_the_stale_files_went_restores_everything(lines: list[str], tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    tok = _trained("gpt2_style", lines)
    out = tmp_path / "out"
    tok.save_pretrained(out)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    (out / "chat_template.jinja").write_text("old template")
    (out / "added_tokens.json").write_text("{}")
    before |= {"chat_template.jinja": b"old template", "added_tokens.json": b"{}"}
    real = os.replace

    def flaky(src: object, dst: object) -> None:
        if Path(src).name == "added_tokens.json":  # the second removal fails
            raise OSError(5, "Input/output error")
        real(src, dst)

    monkeypatch.setattr(os, "replace", flaky)
    tok.enable_padding(direction="left")
    with pytest.raises(SerializationError, match="cannot write"):
        tok.save_pretrained(out)
    monkeypatch.setattr(os, "replace", real)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_cli_convert_carries_the_config_beside_the_input(lines: list[str], tmp_path: Path) -> None:
    import json

    folder = tmp_path / "model"
    folder.mkdir()
    _trained("chat", lines).to_hf_json(folder / "tokenizer.json")
    (folder / "tokenizer_config.json").write_text(json.dumps(
        {"eos_token": "<|im_end|>", "pad_token": "<|im_start|>", "unk_token": None, "padding_side": "left"}))
    run = [sys.executable, "-m", "toolkit", "convert", str(folder / "tokenizer.json")]
    done = subprocess.run([*run, str(tmp_path / "out"), "--to", "transformers"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    hf = transformers.AutoTokenizer.from_pretrained(str(tmp_path / "out"))
    assert (hf.eos_token, hf.pad_token, hf.unk_token, hf.padding_side) == ("<|im_end|>", "<|im_start|>", None, "left")
    wrong = subprocess.run([*run, str(tmp_path / "x.json"), "--template", str(folder)], capture_output=True, text=True,
                           check=False)
    assert wrong.returncode != 0 and "--template applies to --to transformers only" in wrong.stderr
    assert not (tmp_path / "x.json").exists()


def test_the_chat_preset_gets_chatml_and_lists_every_special_token(lines: list[str], tmp_path: Path) -> None:
    tok = _trained("chat", lines)
    tok.save_pretrained(tmp_path)
    hf = transformers.AutoTokenizer.from_pretrained(str(tmp_path))
    assert sorted(hf.all_special_tokens) == ["<|im_end|>", "<|im_start|>"]
    messages = [{"role": "user", "content": "hi there"}, {"role": "assistant", "content": "ok"}]
    text = hf.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
    assert text == "<|im_start|>user\nhi there<|im_end|>\n<|im_start|>assistant\nok<|im_end|>\n<|im_start|>assistant\n"
    # transformers cuts special-token strings out of text; ours does when allowed
    assert hf(text, add_special_tokens=False)["input_ids"] == tok.encode(text, allowed_special="all").ids


@pytest.mark.parametrize("name", ["gpt2_style", "bert"])
def test_tokenizer_object_takes_to_hf_and_names_it_when_given_ours(name: str, lines: list[str]) -> None:
    tok = _trained(name, lines)
    with pytest.raises(ConfigError, match=r"tok\.to_hf\(\)"):
        transformers.PreTrainedTokenizerFast(tokenizer_object=tok)  # our Tokenizer is not HF's class
    hf_component = require("tokenizers").processors.TemplateProcessing(single="$A")
    with pytest.raises(ConfigError, match=r"Hugging Face tokenizers component.*tok\.to_hf\(\)"):
        tok.post_processor = hf_component  # what transformers assigns when it gets that far
    fast = transformers.PreTrainedTokenizerFast(tokenizer_object=tok.to_hf())
    sample = lines[5000:5100]
    assert [fast(line)["input_ids"] for line in sample] == [tok.encode(line).ids for line in sample]
    assert [fast.decode(tok.encode(line).ids, skip_special_tokens=True) for line in sample] == [
        tok.decode(tok.encode(line).ids) for line in sample]
