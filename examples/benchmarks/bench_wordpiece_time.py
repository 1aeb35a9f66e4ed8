"""WordPiece training time against our BPE trainer on the same counts (issue 15: default ≤ 1.5× BPE).

Counts the first ``--chars`` characters of ``gutenberg_part01.txt`` once (``BertNormalizer(lowercase=True)``
+ ``BertPreTokenizer``), then at each vocabulary size trains, alternately ``--reps`` times (so drift in
machine load hits all of them): ``BPETrainer`` (default options), ``WordPieceTrainer`` with each
criterion. Times are CPU seconds of this process (steadier than wall time on a shared machine);
reported: median (min–max) and the median of the per-repetition ratios to BPE.

    .venv/bin/python examples/benchmarks/bench_wordpiece_time.py
    .venv/bin/python examples/benchmarks/bench_wordpiece_time.py --chars 3000000 --sizes 8000,16000,32000 --reps 3
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _common as C  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chars", type=int, default=3_000_000)
    ap.add_argument("--sizes", default="8000,16000,32000")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--criteria", default="likelihood,score,frequency")
    args = ap.parse_args()

    from algorithms import BPETrainer, WordPieceTrainer
    from pretokenizers import BertPreTokenizer
    from toolkit.normalizers import BertNormalizer
    from toolkit.training.corpus import count_corpus

    if C.have_shared():
        text = (C.CORPORA / "english" / "gutenberg_part01.txt").read_text(encoding="utf-8")[: args.chars]
    else:
        text = C.fallback_text()
    counts = count_corpus(text.splitlines(keepends=True), normalizer=BertNormalizer(lowercase=True),
                          pre_tokenizer=BertPreTokenizer(), num_workers=1).counts
    criteria = args.criteria.split(",")
    C.header("WordPiece training time vs BPE on the same counts")
    print(f"{len(text):,} characters, {len(counts):,} distinct words; CPU seconds, {args.reps} repetitions\n")
    rows = []
    for size in (int(s) for s in args.sizes.split(",")):
        makers = {"bpe": lambda size=size: BPETrainer(vocab_size=size, special_tokens=C.BERT_SPECIALS)}
        for crit in criteria:
            makers[crit] = lambda crit=crit, size=size: WordPieceTrainer(
                vocab_size=size, special_tokens=C.BERT_SPECIALS, criterion=crit
            )
        times: dict[str, list[float]] = {k: [] for k in makers}
        for _ in range(args.reps):
            for name, make in makers.items():
                gc.collect()
                t = time.process_time()
                make().train(counts)
                times[name].append(time.process_time() - t)
        row = [f"{size:,}"]
        for name in makers:
            ts = times[name]
            cell = f"{statistics.median(ts):.2f} ({min(ts):.2f}–{max(ts):.2f})"
            if name != "bpe":
                ratio = statistics.median(a / b for a, b in zip(ts, times["bpe"]))
                cell += f", {ratio:.2f}×"
            row.append(cell)
        rows.append(row)
        print(row, file=sys.stderr, flush=True)
    headers = ["vocab", "BPE s", *[f"{c} s, / BPE" for c in criteria]]
    print(C.md_table(headers, rows))
    C.footer()


if __name__ == "__main__":
    main()
