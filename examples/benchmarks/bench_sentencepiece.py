"""SentencePiece ``.model`` files: load time and encoding throughput, ours beside ``sentencepiece`` and HF.

Usage: ``python examples/benchmarks/bench_sentencepiece.py MODEL [MODEL...] [--mb 2]``. Each model
(e.g. trained by ``sentencepiece`` at 32k on a Gutenberg part) is loaded (first load in the process:
parsing, the character map's trie walk, the model tables) and used to encode the first ``--mb`` MB of
``gutenberg_part03.txt`` line by line; ids are checked equal. CPU time (``time.process_time``), best of
``--reps``. Example code: nothing here is imported by the toolkit.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from _common import ENGLISH, machine_line

from toolkit.interop.sentencepiece import from_sentencepiece
from toolkit.normalizers import precompiled


def _best(fn, reps: int) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(reps):
        t = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t)
    return best, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("models", nargs="+")
    parser.add_argument("--mb", type=float, default=2.0)
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    import sentencepiece as spm
    import tokenizers

    text = (ENGLISH / "gutenberg_part03.txt").read_text(encoding="utf-8")[: int(args.mb * 1_000_000)]
    lines = [line for line in text.splitlines() if line.strip()]
    mb = sum(len(line.encode()) for line in lines) / 1e6
    print(machine_line())
    print(f"text: {len(lines):,} lines, {mb:.2f} MB of gutenberg_part03.txt\n")
    print("| model | pieces | load ours (first / again) | load spm | encode ours cold / warm MB/s | spm per line | spm batch | HF batch (from our tokenizer.json) |")
    print("|---|---|---|---|---|---|---|---|")
    for model in args.models:
        precompiled._MAPS.clear()
        t = time.process_time()
        tok = from_sentencepiece(model)
        first = time.process_time() - t
        again, _ = _best(lambda: from_sentencepiece(model), args.reps)
        spm_load, sp = _best(lambda: spm.SentencePieceProcessor(model_file=model), args.reps)
        t = time.process_time()
        ours = [tok.encode_ids(line) for line in lines]
        cold = time.process_time() - t
        warm, _ = _best(lambda: [tok.encode_ids(line) for line in lines], args.reps)
        per_line, theirs = _best(lambda: [sp.encode(line) for line in lines], args.reps)
        batch, _ = _best(lambda: sp.encode(lines), args.reps)
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "tokenizer.json"
            tok.to_hf_json(path)
            hf = tokenizers.Tokenizer.from_file(str(path))
        hf_batch, _ = _best(lambda: hf.encode_batch(lines, add_special_tokens=False), args.reps)
        assert ours == theirs, "ids differ from sentencepiece"
        print(f"| {Path(model).name} | {tok.model.vocab_size:,} | {first:.2f} s / {again:.2f} s | {spm_load:.3f} s | "
              f"{mb / cold:.2f} / {mb / warm:.2f} | {mb / per_line:.1f} | {mb / batch:.1f} | {mb / hf_batch:.1f} |")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
