"""Issue 19: ``encode_batch(num_workers=N)`` against one process, identical results asserted.

The GPT-2 tokenizer (``encoder.json`` + ``vocab.bpe``) on the lines of the first ``--mb`` MB of
``gutenberg_part01.txt``: ``encode_batch(lines)`` in this process and ``encode_batch(lines,
num_workers=N)``, each on a freshly loaded tokenizer: with cold caches, with caches warmed by one
encoding of the same lines first (forked workers inherit them; the probe then keeps one process), and
with caches warmed by the next ``--mb`` MB of the same file (other text of the same kind), full
``Encoding`` objects with offsets. ``num_workers=N (forced)`` starts workers whatever the probe finds.
Wall-clock seconds (the workers' CPU time is not this process's), the best of ``--reps`` runs,
alternating; run it on otherwise idle cores.

    python examples/benchmarks/bench_batch_workers.py [--mb 6] [--workers 2] [--reps 3]
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _common as C


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=6.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()

    from toolkit import Tokenizer

    size = int(args.mb * 1_000_000)
    full = (C.ENGLISH / "gutenberg_part01.txt").read_text(encoding="utf-8")
    text = full[:size]
    lines = text.splitlines(keepends=True)
    other = full[size : 2 * size].splitlines(keepends=True)

    def load() -> Tokenizer:
        return Tokenizer.from_gpt2(C.GPT2_DIR / "encoder.json", C.GPT2_DIR / "vocab.bpe")

    print(f"{len(lines):,} lines, {len(text) / 1e6:.1f} MB, GPT-2, full Encodings; wall seconds, best of {args.reps}")
    from toolkit import batch

    many_name = f"num_workers={args.workers}"
    forced_name = f"{many_name} (forced)"
    probe_threshold = batch.WARM_NEW_PER_1000
    for state in ("cold", "warm", "warmed by other text"):
        runs = (("one process", None, probe_threshold), (many_name, args.workers, probe_threshold),
                (forced_name, args.workers, 0.0))
        times: dict[str, list[float]] = {name: [] for name, _, _ in runs}
        results = {}
        for _ in range(args.reps):
            for name, workers, threshold in runs:
                tok = load()
                if state == "warm":  # the caches hold every piece: forked workers inherit them
                    tok.encode_batch(lines)
                elif state == "warmed by other text":
                    tok.encode_batch(other)
                batch.WARM_NEW_PER_1000 = threshold
                gc.collect()
                start = time.perf_counter()
                out = tok.encode_batch(lines, num_workers=workers)
                times[name].append(time.perf_counter() - start)
                batch.WARM_NEW_PER_1000 = probe_threshold
                results[name] = [(e.ids, e.offsets) for e in out]
                del out, tok  # freed outside the timed part
        assert results["one process"] == results[many_name] == results[forced_name], "workers differ from one process"
        best = {name: min(ts) for name, ts in times.items()}
        print(f" {state} caches:")
        for name, t in best.items():
            print(f"  {name}: {t:.2f} s ({', '.join(f'{x:.2f}' for x in times[name])})"
                  f"  {best['one process'] / t:.2f}x one process")


if __name__ == "__main__":
    main()
