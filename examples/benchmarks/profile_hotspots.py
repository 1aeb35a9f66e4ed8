"""cProfile evidence for ``docs/benchmarks.md``: where our time goes on the benchmarked paths.

Sections (``--sections``, all by default), each profiled in this process after a warm-up where noted:

* ``gpt2_warm`` / ``gpt2_cold``: ``Tokenizer.from_gpt2(...).encode_ids(whole file)``, with a warm
  cache (second pass) and with emptied caches;
* ``bert_ids`` / ``bert_batch``: ``Tokenizer.from_bert_vocab(...)``: ``encode_ids`` per line (warm) and
  ``encode_batch(lines)`` (full Encodings with offsets);
* ``wordpiece_train`` / ``bpe_train``: ``WordPieceTrainer`` and ``BPETrainer`` (vocab 32,000) on the same
  BERT-pipeline counts of the training corpus;
* ``counting``: ``count_corpus(num_workers=1)`` with the GPT-2 ``ByteLevel`` pre-tokenizer on the
  encoding text; ``counting_2workers``: ``num_workers=2`` on all six Gutenberg parts, profiling the
  calling process (waiting for and merging the workers' counts);
* ``gpt2_lines``: ``encode_ids`` once per line (warm); ``bert_batch_workers``: ``encode_batch`` with
  ``num_workers`` = cores, profiling the calling process.

cProfile adds overhead to every Python-level call, so absolute times are inflated; the shares show
where the time goes. Each table lists the top functions by own time (``tottime``).

    .venv/bin/python examples/benchmarks/profile_hotspots.py                 # ~2 minutes
    .venv/bin/python examples/benchmarks/profile_hotspots.py --quick
    .venv/bin/python examples/benchmarks/profile_hotspots.py --sections gpt2_warm,gpt2_cold
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import time
from typing import Any, Callable

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _common as C  # noqa: E402


def read_text(path: str) -> str:
    with open(path, encoding="utf-8", newline="") as fh:
        return fh.read()


def lines_of(text: str) -> list[str]:
    lines = text.split("\n")
    last = lines.pop()
    return [line + "\n" for line in lines] + ([last] if last else [])


def short(func: tuple[str, int, str]) -> str:
    path, line, name = func
    if path == "~":
        return name
    try:
        path = os.path.relpath(path, C.ROOT)
    except ValueError:
        pass
    if path.startswith(".."):
        path = os.path.basename(path)
    return f"{path}:{line}({name})"


def profile(title: str, fn: Callable[[], Any], top: int) -> None:
    t0 = time.perf_counter()
    fn()  # unprofiled, for the plain wall time
    plain = time.perf_counter() - t0
    pr = cProfile.Profile()
    pr.enable()
    fn()
    pr.disable()
    st = pstats.Stats(pr)
    total = st.total_tt  # type: ignore[attr-defined]
    rows = []
    for func, (cc, nc, tt, ct, _) in sorted(st.stats.items(), key=lambda kv: -kv[1][2])[:top]:  # type: ignore[attr-defined]
        rows.append([short(func), f"{nc:,}", f"{tt:.3f}", f"{100 * tt / total:.0f}%", f"{ct:.3f}"])
    print(f"\n### {title}\n")
    print(f"Wall time without the profiler: {plain:.3f} s; with it: {total:.3f} s.\n")
    print(C.md_table(["function", "calls", "own s", "own %", "cumulative s"], rows))


def _profile_gpt2(sections: list[str], text: str, lines: list[str], top: int) -> None:
    from toolkit import Tokenizer

    tok = Tokenizer.from_gpt2(str(C.GPT2_DIR / "encoder.json"), str(C.GPT2_DIR / "vocab.bpe"))
    parts = C.input_chunks(text)  # at most toolkit.limits.MAX_INPUT_CHARS characters per call

    def whole() -> None:
        for part in parts:
            tok.encode_ids(part)

    if "gpt2_warm" in sections:
        whole()
        profile("GPT-2 `encode_ids(whole file)`, warm cache", whole, top)
    if "gpt2_cold" in sections:
        def cold() -> None:
            C.clear_caches(tok)
            whole()

        profile("GPT-2 `encode_ids(whole file)`, cold cache", cold, top)
    if "gpt2_lines" in sections:
        for line in lines:
            tok.encode_ids(line)
        profile("GPT-2 `encode_ids` per line, warm cache", lambda: [tok.encode_ids(x) for x in lines], top)


def _profile_bert(sections: list[str], lines: list[str], top: int) -> None:
    from toolkit import Tokenizer

    bert = Tokenizer.from_bert_vocab(str(C.BERT_UNCASED), lowercase=True)
    if "bert_ids" in sections:
        for line in lines:
            bert.encode_ids(line)
        profile("BERT `encode_ids` per line, warm cache", lambda: [bert.encode_ids(x) for x in lines], top)
    if "bert_batch" in sections:
        profile("BERT `encode_batch(lines)`", lambda: bert.encode_batch(lines), top)
    if "bert_batch_workers" in sections:
        workers = os.cpu_count() or 1
        profile(f"BERT `encode_batch(lines, num_workers={workers})` (the calling process only)",
                lambda: bert.encode_batch(lines, num_workers=workers), top)


def _profile_training(sections: list[str], files: list[str], vocab: int, top: int) -> None:
    from algorithms import BPETrainer, WordPieceTrainer
    from pretokenizers import BertPreTokenizer
    from toolkit.normalizers import BertNormalizer
    from toolkit.training.corpus import count_corpus

    counts = count_corpus(files, normalizer=BertNormalizer(lowercase=True), pre_tokenizer=BertPreTokenizer(),
                          num_workers=2).counts
    if "wordpiece_train" in sections:
        profile(f"`WordPieceTrainer(vocab_size={vocab})` on the BERT counts",
                lambda: WordPieceTrainer(vocab_size=vocab, special_tokens=C.BERT_SPECIALS).train(counts), top)
    if "bpe_train" in sections:
        profile(f"`BPETrainer(vocab_size={vocab})` on the same counts",
                lambda: BPETrainer(vocab_size=vocab, special_tokens=C.BERT_SPECIALS).train(counts), top)


def _profile_counting(sections: list[str], file: str, files: list[str], quick: bool, top: int) -> None:
    from pretokenizers import ByteLevel
    from toolkit.training.corpus import count_corpus

    if "counting" in sections:
        profile(f"`count_corpus([{os.path.basename(file)}], pre_tokenizer=ByteLevel(), num_workers=1)`",
                lambda: count_corpus([file], pre_tokenizer=ByteLevel(add_prefix_space=False), num_workers=1), top)
    if "counting_2workers" in sections:
        two = files + [f for f in C.gutenberg(3, 4, 5, 6) if os.path.exists(f)] if not quick else files
        profile(f"`count_corpus({len(two)} files, pre_tokenizer=ByteLevel(), num_workers=2)` (the calling process only)",
                lambda: count_corpus(two, pre_tokenizer=ByteLevel(add_prefix_space=False), num_workers=2), top)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sections", default="gpt2_warm,gpt2_cold,gpt2_lines,bert_ids,bert_batch,bert_batch_workers,"
                                          "wordpiece_train,bpe_train,counting,counting_2workers")
    ap.add_argument("--file", default=None, help="text for the encoding profiles (default gutenberg_part01.txt)")
    ap.add_argument("--files", nargs="+", default=None, help="training corpus (default Gutenberg parts 1 and 2)")
    ap.add_argument("--vocab-size", type=int, default=32000)
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    sections = [s.strip() for s in args.sections.split(",")]
    if args.quick:
        file = args.file or C.quick_files(1, 200_000)[0]
        files, vocab = args.files or C.quick_files(2, 150_000), min(args.vocab_size, 2000)
    else:
        file = args.file or C.gutenberg(1)[0]
        files, vocab = args.files or C.gutenberg(1, 2), args.vocab_size
    C.header("Profiles (cProfile)")
    text = read_text(file)
    lines = lines_of(text)
    print(f"Encoding text: `{os.path.basename(file)}` ({len(text.encode()) / 1e6:.2f} MB); training corpus: "
          f"{', '.join(os.path.basename(f) for f in files)}; vocab {vocab}.")
    if {"gpt2_warm", "gpt2_cold", "gpt2_lines"} & set(sections) and (C.GPT2_DIR / "vocab.bpe").exists():
        _profile_gpt2(sections, text, lines, args.top)
    if {"bert_ids", "bert_batch", "bert_batch_workers"} & set(sections) and C.BERT_UNCASED.exists():
        _profile_bert(sections, lines, args.top)
    if {"wordpiece_train", "bpe_train"} & set(sections):
        _profile_training(sections, files, vocab, args.top)
    _profile_counting(sections, file, files, args.quick, args.top)
    C.footer()
    return 0


if __name__ == "__main__":
    sys.exit(main())
