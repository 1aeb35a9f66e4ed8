"""Shared helpers of the robustness tests (``tests/test_robustness_*.py``); holds no tests itself.

* :func:`pipelines` — one small trained tokenizer per algorithm and pipeline shape, built once per
  process from text that ships with Python (``pydoc_data.topics``), so no shared corpus is needed.
* :func:`fuzzed` — counts the inputs each hypothesis test really ran (every call of its body:
  generated examples, explicit examples, replays and shrink steps). At exit the counts of the run
  are written to ``$TOOLKIT_FUZZ_COUNTS`` (default: ``<tmp>/tokenizer-toolkit-fuzz-counts.json``),
  which is where the numbers in ``docs/robustness.md`` come from.
"""

from __future__ import annotations

import atexit
import json
import os
import tempfile
import time
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import settings

from toolkit import Tokenizer

#: Special-token strings used across the robustness tests (plus the BERT ones).
SPECIALS = ("<|endoftext|>", "<|im_start|>", "<|im_end|>", "[CLS]", "[SEP]", "[MASK]", "[PAD]", "[UNK]")

#: Characters that stress alignment, byte handling and normalizers.
TRICKY = (
    "", " ", "  ", "\t", "\n", "\r\n", "\x00", "\x01", "\x1f", "\x7f", "\u00a0", "\u200b", "\u200d", "\u2028",
    "\ufeff", "\ufffd", "é", "e\u0301", "a\u0301\u0302\u0303", "ß", "ﬁ", "İ", "Ω", "中文", "日本語", "한국어",
    "ไทย", "مرحبا", "שלום", "नमस्ते", "🙂", "👩‍👩‍👧", "🇫🇷", "\U0010ffff", "_", "__init__", "123456", "٣",
    "²", "½", "'s", "n't", "...", "--", "##", "Ġ", "▁", "<", ">", "|", "[", "]",
)

_COUNTS: Counter[str] = Counter()
_STARTED = time.time()


def fuzzed(name: str) -> None:
    """Record one input tried by the hypothesis test ``name`` (``"name (loaded)"``: a subset of them)."""
    _COUNTS[name] += 1


def counts_path() -> Path:
    default = Path(tempfile.gettempdir()) / "tokenizer-toolkit-fuzz-counts.json"
    return Path(os.environ.get("TOOLKIT_FUZZ_COUNTS", default))


@atexit.register
def _write_counts() -> None:
    if not _COUNTS:
        return
    profile = os.environ.get("HYPOTHESIS_PROFILE", "ci")
    record = {
        "profile": profile,
        "max_examples": settings().max_examples,
        "seconds": round(time.time() - _STARTED, 1),
        "total": sum(n for name, n in _COUNTS.items() if " (" not in name),  # "(loaded)" entries are subsets
        "counts": dict(sorted(_COUNTS.items())),
    }
    try:
        counts_path().write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    except OSError:
        pass


def corpus_lines() -> list[str]:
    """About 9 000 lines of English technical prose shipped with Python."""
    import pydoc_data.topics as topics

    text = "\n".join(topics.topics[k] for k in sorted(topics.topics)[:120])
    return [line for line in text.splitlines() if line.strip()]


@cache
def pipelines() -> dict[str, Tokenizer]:
    """Small trained tokenizers, one per algorithm / pipeline shape (built once per process)."""
    from algorithms import BPE, BPETrainer, WordPiece, WordPieceTrainer
    from pretokenizers import CL100K_PATTERN, Metaspace, Whitespace, WhitespaceSplit
    from toolkit import decoders
    from toolkit.training import presets
    from toolkit.interop.pipelines import tiktoken_tokenizer
    from toolkit.interop.tiktoken_files import ranks_of

    lines = corpus_lines()
    extra = ["hello world 🙂 ça va? 日本語 中文 한국어", "<|endoftext|> [CLS] <|im_end|>"] * 5
    lines = lines + extra
    out: dict[str, Tokenizer] = {}
    tok, trainer = presets.gpt2_style(vocab_size=420, special_tokens=["<|endoftext|>"])
    out["gpt2"] = tok.train(lines, trainer)
    tok, trainer = presets.chat(vocab_size=420)
    out["chat"] = tok.train(lines, trainer)
    out["tiktoken"] = tiktoken_tokenizer(
        ranks_of(out["gpt2"].model), pattern=CL100K_PATTERN, special_tokens={"<|endoftext|>": 1000, "<|fim|>": 1001}
    )
    out["bpe"] = Tokenizer(BPE(unk_token="[UNK]"), pre_tokenizer=Whitespace()).train(
        lines, BPETrainer(vocab_size=300, special_tokens=["[UNK]", "<|endoftext|>", "[CLS]", "[SEP]"])
    )
    out["bpe_metaspace"] = Tokenizer(
        BPE(unk_token="<unk>", continuing_subword_prefix=None), pre_tokenizer=Metaspace(), decoder=decoders.Metaspace()
    ).train(lines, BPETrainer(vocab_size=300, special_tokens=["<unk>", "<s>", "</s>"]))
    tok, trainer = presets.bert(vocab_size=300)
    out["bert"] = tok.train(lines, trainer)
    out["wordpiece"] = Tokenizer(WordPiece(), pre_tokenizer=WhitespaceSplit(), decoder=decoders.WordPiece()).train(
        lines, WordPieceTrainer(vocab_size=300, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "<|endoftext|>"])
    )
    return out


#: Pipelines whose ``decode(encode(x)) == x`` for every string (byte-level: nothing is unknown).
LOSSLESS = ("gpt2", "chat", "tiktoken")
#: Every pipeline of :func:`pipelines`.
ALL = ("gpt2", "chat", "tiktoken", "bpe", "bpe_metaspace", "bert", "wordpiece")


def special_ids(tok: Tokenizer) -> set[int]:
    return set(tok.special_tokens.values())


def unk_id(tok: Tokenizer) -> int | None:
    unk = getattr(tok.model, "unk_token", None)
    return tok.token_to_id(unk) if unk else None


def describe(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."
