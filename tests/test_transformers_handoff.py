"""``save_pretrained`` → ``transformers.AutoTokenizer.from_pretrained`` (issue 13): same ids, roles set,
padding and truncation work, for a BERT-style, a GPT-2-style and a chat-style tokenizer trained here.
No model weights, no network; the training text is the shared corpus (skips without it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import require, shared_path

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
    assert failed.returncode != 0 and failed.stderr.count("\n") == 1 and "not a directory" in failed.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["blocker", "out", "tok.json"]  # no half-written directory
