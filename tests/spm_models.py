"""SentencePiece models trained for the tests (used by test_sentencepiece_files.py and test_precompiled.py).

Models are trained by the real ``sentencepiece`` on the first lines of each shared corpus, into a
temporary folder, once per session and per (language, model type, byte fallback).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import CORPORA, require

#: Shared corpus files by language.
LANGS = {
    "en": "english/tinyshakespeare_input.txt",
    "fr": "multilingual/french_entre_nous_pg44157-0.txt",
    "th": "multilingual/thai_wisesight_sentiment_neg.txt",
    "zh": "multilingual/chinese_xiyouji_pg23962-0.txt",
}
TRAIN_LINES = 2000


def corpus_lines(lang: str) -> list[str]:
    path = CORPORA / LANGS[lang]
    if not path.exists():
        pytest.skip(f"shared corpus file {LANGS[lang]} is absent ({CORPORA})")
    return path.read_text(encoding="utf-8-sig").splitlines()


class ModelFactory:
    """Trains (once) and returns the path of the model for ``(lang, model_type, byte_fallback)``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.made: dict[tuple[str, ...], Path] = {}

    def __call__(self, lang: str, model_type: str, byte_fallback: bool, **extra: object) -> Path:
        key = (lang, model_type, str(byte_fallback), *map(str, sorted(extra.items())))
        if key not in self.made:
            spm = require("sentencepiece")
            prefix = self.folder / "_".join(key).replace("/", "_").replace(" ", "")
            lines = [line for line in corpus_lines(lang)[:TRAIN_LINES] if line.strip()]
            spm.SentencePieceTrainer.train(
                sentence_iterator=iter(lines), model_prefix=str(prefix), model_type=model_type,
                vocab_size=4000 if lang == "zh" else 800, byte_fallback=byte_fallback, hard_vocab_limit=False,
                minloglevel=2, num_threads=1, **extra,
            )
            self.made[key] = Path(f"{prefix}.model")  # not with_suffix: an extra value may hold a dot
        return self.made[key]
