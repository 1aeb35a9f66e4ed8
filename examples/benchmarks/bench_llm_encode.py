"""Issue 19: ``encode_ids`` with today's LLM tokenizer files beside HF ``tokenizers``, identical ids asserted.

Each ``tokenizer.json`` under ``vocab/llm/`` of the shared corpora is loaded by both libraries
(``Tokenizer.from_hf_json``, ``tokenizers.Tokenizer.from_file``); on the first ``--mb`` MB of
``gutenberg_part01.txt``: the whole text in one call (ours cold: a freshly loaded tokenizer; warm: the
second call), and line by line (HF: ``encode_batch`` of the lines on one thread, ours: one
``encode_ids`` per line). No special tokens added (``add_special_tokens=False``). CPU seconds of this
process (``RAYON_NUM_THREADS=1``), so other work on the machine moves them less than wall time.

    python examples/benchmarks/bench_llm_encode.py [--mb 2] [--names llama3,qwen3]
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

NAMES = ["llama2", "llama3", "qwen3", "deepseek_v3", "gpt4o", "gemma3"]


def _cpu(fn: Any) -> tuple[float, Any]:
    gc.collect()
    start = time.process_time()
    result = fn()
    return time.process_time() - start, result


def run(name: str, text: str) -> dict[str, float]:
    from tokenizers import Tokenizer as HF

    from toolkit import Tokenizer

    path = C.CORPORA / "vocab" / "llm" / name / "tokenizer.json"
    hf = HF.from_file(str(path))
    ours = Tokenizer.from_hf_json(path)
    lines = text.splitlines(keepends=True)
    row: dict[str, float] = {}
    row["HF whole"], ref = _cpu(lambda: hf.encode(text, add_special_tokens=False).ids)
    row["ours cold"], cold = _cpu(lambda: ours.encode_ids(text, add_special_tokens=False))
    row["ours warm"], warm = _cpu(lambda: ours.encode_ids(text, add_special_tokens=False))
    assert cold == warm == ref, f"{name}: ids differ from HF (whole text)"
    row["HF lines"], ref_lines = _cpu(lambda: [e.ids for e in hf.encode_batch(lines, add_special_tokens=False)])
    row["ours lines"], ours_lines = _cpu(lambda: [ours.encode_ids(line, add_special_tokens=False) for line in lines])
    assert ours_lines == ref_lines, f"{name}: ids differ from HF (lines)"
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=2.0)
    parser.add_argument("--names", default=",".join(NAMES))
    args = parser.parse_args()
    text = (C.CORPORA / "english/gutenberg_part01.txt").read_text(encoding="utf-8")[: int(args.mb * 1_000_000)]
    rows = []
    results = {}
    for name in args.names.split(","):
        r = results[name] = run(name, text)
        rows.append([name, *(f"{r[k]:.2f}" for k in ("HF whole", "ours cold", "ours warm", "HF lines", "ours lines")),
                     f"{r['HF whole'] / r['ours warm']:.2f}× / {r['HF whole'] / r['ours cold']:.2f}× / "
                     f"{r['HF lines'] / r['ours lines']:.2f}×"])
        print(rows[-1], file=sys.stderr, flush=True)
    headers = ["tokenizer", "HF whole s", "ours cold s", "ours warm s", "HF lines s", "ours lines s",
               "warm / cold / lines vs HF"]
    print(C.md_table(headers, rows))
    print(json.dumps(results))


if __name__ == "__main__":
    main()
