"""Issue 19: ``encode_ids`` against tiktoken and HF ``tokenizers``, side by side in one run, identical ids asserted.

GPT-2 (``encoder.json`` + ``vocab.bpe``) and cl100k (``cl100k_base.tiktoken``) on the first 6 MB of
``gutenberg_part01.txt``: the whole text in one call (ours cold: a new tokenizer, empty caches; warm:
the second call) and line by line (cold and warm the same way). tiktoken and HF (``RAYON_NUM_THREADS=1``, ``encode_batch`` of the
lines / one ``encode`` of the text) are built from the same files. One process, one core each; CPU
seconds of this process (steadier than wall time on a shared machine), the best of ``--reps`` runs
(ours cold: a new tokenizer each run).

    python examples/benchmarks/bench_exact_speed.py [--mb 6] [--reps 3]
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("RAYON_NUM_THREADS", "1")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _common as C


def _timed(fn: Any) -> tuple[float, Any]:
    gc.collect()
    start = time.process_time()
    result = fn()
    return time.process_time() - start, result


def _timed_lines(fn: Any) -> tuple[float, str]:
    """``_timed`` for a list of per-line id lists, kept only as a digest: 122,000 live lists from an
    earlier pass would make the collector's full passes slower for whichever contender runs later."""
    seconds, result = _timed(fn)
    return seconds, hashlib.sha256(repr(result).encode()).hexdigest()


def contenders(kind: str, vocab: Path) -> tuple[Any, Any, Any]:
    import tiktoken
    from tiktoken.load import data_gym_to_mergeable_bpe_ranks, load_tiktoken_bpe
    from tokenizers import Tokenizer as HF

    from pretokenizers import CL100K_PATTERN, GPT2_PATTERN
    from toolkit import Tokenizer

    if kind == "gpt2":
        enc, bpe = vocab / "gpt2/encoder.json", vocab / "gpt2/vocab.bpe"
        ranks = data_gym_to_mergeable_bpe_ranks(str(bpe), str(enc))
        ours = lambda: Tokenizer.from_gpt2(enc, bpe)
        pattern = GPT2_PATTERN
    else:
        path = vocab / "tiktoken/cl100k_base.tiktoken"
        ranks = load_tiktoken_bpe(str(path))
        ours = lambda: Tokenizer.from_tiktoken(path)
        pattern = CL100K_PATTERN
    tk = tiktoken.Encoding(kind, pat_str=pattern, mergeable_ranks=ranks, special_tokens={})
    from toolkit.interop.hf_json import to_hf_dict

    hf = HF.from_str(json.dumps(to_hf_dict(ours())))  # our export, loaded by HF
    return ours, tk, hf


def run(kind: str, text: str, vocab: Path, reps: int) -> dict[str, float]:
    """The best of ``reps`` runs of each measurement, alternating between the contenders."""
    ours_factory, tk, hf = contenders(kind, vocab)
    rows = [_run_once(kind, text, ours_factory, tk, hf if i == 0 else None) for i in range(reps)]
    return {key: min(r[key] for r in rows if key in r) for key in rows[0]}


def _run_once(kind: str, text: str, ours_factory: Any, tk: Any, hf: Any) -> dict[str, float]:
    lines = text.splitlines(keepends=True)
    row: dict[str, float] = {}
    row["tiktoken whole"], ref = _timed(lambda: tk.encode_ordinary(text))
    ours = ours_factory()
    row["ours whole cold"], cold = _timed(lambda: ours.encode_ids(text))
    row["ours whole warm"], warm = _timed(lambda: ours.encode_ids(text))
    assert cold == warm == ref, f"{kind}: ids differ from tiktoken (whole text)"
    row["tiktoken lines"], ref_lines = _timed_lines(lambda: [tk.encode_ordinary(line) for line in lines])
    ours = ours_factory()
    row["ours lines cold"], cold_lines = _timed_lines(lambda: [ours.encode_ids(line) for line in lines])
    row["ours lines warm"], warm_lines = _timed_lines(lambda: [ours.encode_ids(line) for line in lines])
    assert cold_lines == warm_lines == ref_lines, f"{kind}: ids differ from tiktoken (lines)"
    if hf is not None:
        row["HF whole"], hf_ids = _timed(lambda: hf.encode(text, add_special_tokens=False).ids)
        assert hf_ids == ref, f"{kind}: HF ids differ"
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=6.0)
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    corpora = C.CORPORA
    text = (corpora / "english/gutenberg_part01.txt").read_text(encoding="utf-8")[: int(args.mb * 1_000_000)]
    results = {kind: run(kind, text, corpora / "vocab", args.reps) for kind in ("gpt2", "cl100k")}
    for kind, row in results.items():
        print(f"{kind}: " + ", ".join(f"{k} {v:.2f} s" for k, v in row.items()))
        print(f"{kind}: vs tiktoken: warm {row['tiktoken whole'] / row['ours whole warm']:.2f}x, "
              f"cold {row['tiktoken whole'] / row['ours whole cold']:.2f}x, "
              f"lines cold {row['tiktoken lines'] / row['ours lines cold']:.2f}x, "
              f"lines warm {row['tiktoken lines'] / row['ours lines warm']:.2f}x")
    print(json.dumps(results))


if __name__ == "__main__":
    main()
