"""Everyday calls on today's LLM tokenizer files beside HF ``tokenizers``, identical results asserted.

Not the hot ``encode_ids`` loop (``bench_llm_encode.py``) but the calls around it: ``encode_ids`` with
``allowed_special="all"``, ``encode`` (ids and offsets) per line, ``decode`` of the whole text's ids,
adding 500 special tokens one call at a time, and ``get_vocab_size()`` after that. Each ``tokenizer.json`` under ``vocab/llm/`` is loaded
by both libraries; the text is the first ``--mb`` MB of ``gutenberg_part01.txt``, line by line (HF:
``encode_batch`` on one thread). Ours and HF alternate, ``--reps`` times, each time freshly loaded (our
caches start empty, as HF's); the table gives the least CPU seconds of each (``RAYON_NUM_THREADS=1``).

    python examples/benchmarks/bench_ordinary_paths.py [--mb 0.5] [--reps 3] [--names llama3,gemma3]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time
from typing import Any

os.environ.setdefault("RAYON_NUM_THREADS", "1")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _common as C

NAMES = ["llama3", "qwen3", "deepseek_v3", "gpt4o", "gemma3"]
ADDED = [f"<|tool_{i}|>" for i in range(500)]


def _cpu(fn: Any) -> tuple[float, Any]:
    gc.collect()
    start = time.process_time()
    result = fn()
    return time.process_time() - start, result


def _best(ours: Any, hf: Any, reps: int, fresh: Any) -> tuple[float, float, Any, Any]:
    """Least CPU seconds of ``ours(tokenizer)`` and ``hf(tokenizer)``, alternating, each on a tokenizer
    that ``fresh()`` loads untimed; the last results."""
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(reps):
        tok = fresh[0]()
        t, got = _cpu(lambda: ours(tok))
        times[0].append(t)
        tok = fresh[1]()
        t, ref = _cpu(lambda: hf(tok))
        times[1].append(t)
    return min(times[0]), min(times[1]), got, ref


def run(name: str, lines: list[str], reps: int) -> dict[str, tuple[float, float]]:
    from tokenizers import Tokenizer as HF

    from toolkit import Tokenizer

    path = C.CORPORA / "vocab" / "llm" / name / "tokenizer.json"
    fresh = (lambda: Tokenizer.from_hf_json(path)), (lambda: HF.from_file(str(path)))
    row: dict[str, tuple[float, float]] = {}
    a, b, got, ref = _best(lambda tok: [tok.encode_ids(line, allowed_special="all") for line in lines],
                           lambda tok: [e.ids for e in tok.encode_batch(lines)], reps, fresh)
    assert got == ref, f"{name}: ids differ (allowed_special='all')"
    row["encode_ids(allowed_special='all')"] = (a, b)
    a, b, got, ref = _best(lambda tok: [(e.ids, e.offsets) for e in (tok.encode(line) for line in lines)],
                           lambda tok: [(e.ids, e.offsets) for e in tok.encode_batch(lines)], reps, fresh)
    assert got == ref, f"{name}: ids or offsets differ (encode)"
    row["encode (ids and offsets)"] = (a, b)
    ids = fresh[1]().encode("\n".join(lines), add_special_tokens=False).ids
    a, b, got, ref = _best(lambda tok: tok.decode(ids), lambda tok: tok.decode(ids), reps, fresh)
    assert got == ref, f"{name}: decoded text differs"
    row[f"decode ({len(ids):,} ids)"] = (a, b)

    def add(tok: Any) -> Any:
        for token in ADDED:
            tok.add_special_tokens([token])
        return tok

    a, b, ours_added, hf_added = _best(add, add, reps, fresh)
    assert [ours_added.token_to_id(t) for t in ADDED] == [hf_added.token_to_id(t) for t in ADDED]
    row["add_special_tokens x500, one per call"] = (a, b)
    added = (lambda: ours_added), (lambda: hf_added)
    a, b, got, ref = _best(lambda tok: [tok.get_vocab_size() for _ in range(200)],
                           lambda tok: [tok.get_vocab_size() for _ in range(200)], reps, added)
    assert got == ref, f"{name}: get_vocab_size differs"
    row["get_vocab_size() x200"] = (a, b)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=0.5)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--names", default=",".join(NAMES))
    args = parser.parse_args()
    text = (C.CORPORA / "english/gutenberg_part01.txt").read_text(encoding="utf-8")[: int(args.mb * 1_000_000)]
    lines = [line for line in text.split("\n") if line.strip()]
    rows, results = [], {}
    for name in args.names.split(","):
        results[name] = run(name, lines, args.reps)
        for call, (ours, hf) in results[name].items():
            rows.append([name, call, f"{ours:.3f}", f"{hf:.3f}", f"{ours / hf:.2f}×" if hf else "-"])
            print(rows[-1], file=sys.stderr, flush=True)
    print(C.md_table(["tokenizer", "call", "ours s", "HF s", "ours / HF"], rows))
    print(json.dumps(results))


if __name__ == "__main__":
    main()
