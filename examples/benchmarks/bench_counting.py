"""Benchmark 4 (issue 6): corpus word-counting throughput with 1 and 2 worker processes, and peak memory.

Counts the whole Gutenberg corpus (the six ``gutenberg_partNN.txt`` files, 56 MB) with the toolkit's
corpus API, :func:`toolkit.training.corpus.count_corpus` (streamed, one document per line; with ``num_workers``
> 1 the files are cut into byte ranges at line ends and counted by a pool of processes, the partial
counts merged in corpus order). Two pipelines:

* ``bytelevel``: the GPT-2 ``ByteLevel`` pre-tokenizer (what byte-level BPE training counts);
* ``bert``: ``BertNormalizer(lowercase=True)`` + ``BertPreTokenizer`` (what WordPiece training counts).

Each (pipeline, workers) run is a fresh child process; peak memory is the summed PSS (and RSS) of the
child and its workers sampled every 20 ms (``tree``; PSS counts pages a forked worker shares with its
parent once) and the main process's ``getrusage`` peak (``main``: it holds the merged counts);
``peak MB`` is the larger of RSS main and PSS tree. The counts of every run are checked identical (content and first-occurrence
order) to the 1-worker run.

    .venv/bin/python examples/benchmarks/bench_counting.py            # full run (~6 minutes)
    .venv/bin/python examples/benchmarks/bench_counting.py --quick    # smoke test, seconds
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _common as C  # noqa: E402


def pipeline(name: str) -> tuple[Any, Any]:
    if name == "bytelevel":
        from pretokenizers import ByteLevel

        return None, ByteLevel(add_prefix_space=False)
    if name == "bert":
        from pretokenizers import BertPreTokenizer
        from toolkit.normalizers import BertNormalizer

        return BertNormalizer(lowercase=True), BertPreTokenizer()
    raise SystemExit(f"unknown pipeline {name!r} (bytelevel, bert)")


def child_count(p: dict[str, Any]) -> dict[str, Any]:
    from toolkit.training.corpus import count_corpus

    normalizer, pre_tokenizer = pipeline(p["pipeline"])
    t0 = time.perf_counter()
    result = count_corpus(p["files"], normalizer=normalizer, pre_tokenizer=pre_tokenizer, num_workers=p["workers"])
    seconds = time.perf_counter() - t0
    digest = hashlib.sha256()
    for word, n in result.counts.items():
        digest.update(f"{word}\0{n}\0".encode("utf-8", "surrogatepass"))
    return {"seconds": seconds, "workers": result.workers, "distinct": len(result.counts), "words": result.words,
            "documents": result.documents, "bytes": result.bytes, "digest": digest.hexdigest()[:16]}


CONTENDERS = {"count": child_count}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", nargs="+", default=None, help="corpus files (default: the 6 Gutenberg parts)")
    ap.add_argument("--workers", default="1,2", help="comma-separated worker counts (default 1,2)")
    ap.add_argument("--pipelines", default="bytelevel,bert", help="comma-separated subset of bytelevel,bert")
    C.common_args(ap, reps=3)
    args = ap.parse_args(argv)
    if args.quick:
        files, reps = args.files or C.quick_files(2, 150_000), 1
    else:
        files, reps = args.files or C.gutenberg(1, 2, 3, 4, 5, 6), args.reps
    workers = [int(w) for w in args.workers.split(",")]
    pipelines = [p.strip() for p in args.pipelines.split(",")]
    C.apply_quiet_args(args)
    C.header("Corpus counting (issue 6)")
    mb = C.total_mb(files)
    print(f"Corpus: {len(files)} file(s), {mb:.1f} MB; `count_corpus(files, num_workers=N)`; "
          f"{reps} repetition(s), median (min–max).\n")
    rows, ok = [], True
    for name in pipelines:
        base_rate, base_digest = None, None
        for w in workers:
            runs = []
            for rep in range(reps):
                r = C.run_child(__file__, "count", {"files": files, "workers": w, "pipeline": name})
                print(f"[bench] {name} workers={w} rep {rep + 1}: "
                      + (r["error"] if "error" in r else f"{r['seconds']:.2f}s, other processes "
                         f"{r.get('other_cores', float('nan')):.2f} cores"), file=sys.stderr, flush=True)
                runs.append(r)
            good = [r for r in runs if "error" not in r]
            if not good:
                rows.append([name, w, "error: " + runs[0]["error"]] + ["–"] * 8)
                ok = False
                continue
            secs = [r["seconds"] for r in good]
            rate = mb / C.med(secs)
            base_rate = base_rate or rate
            base_digest = base_digest or good[0]["digest"]
            same = all(r["digest"] == base_digest for r in good)
            ok &= same
            rows.append([name, f"{w} (used {good[0]['workers']})", C.spread(secs), f"{rate:.2f}",
                         C.fmt_ratio(rate / base_rate), C.fmt_mb(C.med([C.peak_kb(r) for r in good])), C.fmt_mb(C.med([r["tree_pss_peak_kb"] for r in good])),
                         C.fmt_mb(C.med([r["tree_peak_kb"] for r in good])),
                         C.fmt_mb(C.med([r["self_peak_kb"] for r in good])), f"{good[0]['distinct']:,}",
                         "yes" if same else "NO"])
    print(C.md_table(["pipeline", "workers", "seconds", "MB/s", "speed-up", "peak MB", "peak PSS tree MB", "peak RSS tree MB", "peak RSS main MB",
                      "distinct words", "counts = 1-worker counts"], rows))
    C.footer()
    return 0 if ok else 1


if __name__ == "__main__":
    if not C.child_main(CONTENDERS):
        sys.exit(main())
