"""Benchmark 3 (issue 4): WordPiece training, encoding and the reference algorithm's scaling.

Three sections (``--sections training,encoding,reference``):

**training** — vocabulary 32,000 on ``gutenberg_part01.txt`` + ``gutenberg_part02.txt`` (18 MB), BERT
pre-processing (``BertNormalizer(lowercase=True)`` + ``BertPreTokenizer``), specials
``[PAD] [UNK] [CLS] [SEP] [MASK]``. One child process counts the words once
(``count_corpus(num_workers=2)``) and then trains, on *the same counts*, alternately:
our ``WordPieceTrainer`` (its default criterion, ``"likelihood"``), our ``BPETrainer`` with default options
(the literal "our BPE trainer on the same counts" of the target), and ``BPETrainer`` with
``continuing_subword_prefix="##"`` (the same initial splits as WordPiece: what HF's WordPieceTrainer
runs internally). Another child runs HF ``tokenizers``' ``WordPieceTrainer`` (a BPE proxy that
counts with every core) on the same files with the same normalizer and pre-tokenizer.
Target: our WordPiece training ≤ 1.5× our BPE trainer on the same counts.

**encoding** — the BERT uncased vocabulary (``vocab.txt``): ``Tokenizer.from_bert_vocab(lowercase=True)``
vs HF ``BertWordPieceTokenizer(lowercase=True)``, on the same lines of ``gutenberg_part01.txt`` (each
line keeps its ``\\n``), ``[CLS]``/``[SEP]`` added by both. Ours: ``encode_ids`` per line (ids only,
cold and warm per-word cache) and ``encode_batch`` (full ``Encoding`` objects with offsets, like HF's;
in this process, and with ``num_workers`` = the number of cores).
HF: ``encode_batch(lines)`` then ``.ids`` of each, with ``RAYON_NUM_THREADS=1`` and with its default
pool; its time without reading ``.ids`` is shown too. Ids are checked identical.
Target: ≥ 2× HF ``encode_batch`` in one process.

**reference** — the course's algorithm (``algorithms.reference.wordpiece.reference_wordpiece_trainer``:
rescore every pair each step, exact fractions) against ours with ``tie_break="first_occurrence"`` (the
course's rule) on small samples, merges checked equal; then an extrapolation to the 18 MB / 32,000
run from a complete reference run whose merges-per-distinct-word ratio matches the full run's.

    .venv/bin/python examples/benchmarks/bench_wordpiece.py            # full run (~6 minutes)
    .venv/bin/python examples/benchmarks/bench_wordpiece.py --quick    # smoke test, seconds
"""

from __future__ import annotations

import argparse
import gc
import inspect
import os
import sys
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _common as C  # noqa: E402


def bert_parts() -> tuple[Any, Any]:
    from pretokenizers import BertPreTokenizer
    from toolkit.normalizers import BertNormalizer

    return BertNormalizer(lowercase=True), BertPreTokenizer()


# ------------------------------------------------------------------------------------ training
def child_train_ours(p: dict[str, Any]) -> dict[str, Any]:
    from algorithms import BPETrainer, WordPieceTrainer
    from toolkit.training.corpus import count_corpus

    norm, pre = bert_parts()
    t0 = time.perf_counter()
    counted = count_corpus(p["files"], normalizer=norm, pre_tokenizer=pre, num_workers=p["workers"])
    count_s = time.perf_counter() - t0
    counts, vocab, specials = counted.counts, p["vocab_size"], C.BERT_SPECIALS
    trainers = {
        "wordpiece": lambda: WordPieceTrainer(vocab_size=vocab, special_tokens=specials),
        "bpe": lambda: BPETrainer(vocab_size=vocab, special_tokens=specials),
        "bpe_prefix": lambda: BPETrainer(vocab_size=vocab, special_tokens=specials, continuing_subword_prefix="##"),
    }
    times: dict[str, list[float]] = {k: [] for k in trainers}
    sizes: dict[str, int] = {}
    for _ in range(p["reps"]):
        for name, make in trainers.items():  # interleaved, so drift in machine load hits all three
            gc.collect()
            t = time.perf_counter()
            model = make().train(counts)
            times[name].append(time.perf_counter() - t)
            sizes[name] = model.vocab_size
            del model
    out: dict[str, Any] = {"count_s": count_s, "times": times, "vocab": sizes, "distinct_words": len(counts),
                           "symbols": sum(len(w) for w in counts)}
    if p.get("first_occurrence"):
        gc.collect()
        t = time.perf_counter()
        run = WordPieceTrainer(vocab_size=vocab, special_tokens=specials, tie_break="first_occurrence").train_merges(counts)
        out["first_occurrence_s"] = time.perf_counter() - t
        out["n_base"], out["n_merges"] = run.n_base, len(run.merges)
    return out


def child_train_hf(p: dict[str, Any]) -> dict[str, Any]:
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers

    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    trainer = trainers.WordPieceTrainer(vocab_size=p["vocab_size"], special_tokens=C.BERT_SPECIALS, show_progress=False)
    t0 = time.perf_counter()
    tok.train(p["files"], trainer)
    return {"seconds": time.perf_counter() - t0, "vocab": tok.get_vocab_size()}


def section_training(files: list[str], vocab: int, reps: int, workers: int) -> None:
    mb = C.total_mb(files)
    print(f"\n### WordPiece training, vocab {vocab}\n")
    print(f"Corpus: {', '.join(os.path.basename(f) for f in files)} ({mb:.1f} MB), BertNormalizer(lowercase) + "
          f"BertPreTokenizer; trainers on the same counts, interleaved, {reps} repetition(s), median (min–max).\n")
    r = C.run_child(__file__, "train_ours", {"files": files, "vocab_size": vocab, "workers": workers, "reps": reps,
                                              "first_occurrence": True})
    h = C.run_child(__file__, "train_hf", {"files": files, "vocab_size": vocab})
    if "error" in r:
        print(f"ours failed: {r['error']}")
        return
    t = {k: C.med(v) for k, v in r["times"].items()}
    hf_t = h.get("seconds")
    rows = [
        ["ours `WordPieceTrainer` (exact WordPiece score)", C.fmt_s(r["count_s"]), C.spread(r["times"]["wordpiece"]),
         C.fmt_s(r["count_s"] + t["wordpiece"]), "1.00×", r["vocab"]["wordpiece"]],
        ["ours `BPETrainer` (default options)", C.fmt_s(r["count_s"]), C.spread(r["times"]["bpe"]),
         C.fmt_s(r["count_s"] + t["bpe"]), C.fmt_ratio(t["wordpiece"] / t["bpe"]), r["vocab"]["bpe"]],
        ["ours `BPETrainer(continuing_subword_prefix=\"##\")`", C.fmt_s(r["count_s"]), C.spread(r["times"]["bpe_prefix"]),
         C.fmt_s(r["count_s"] + t["bpe_prefix"]), C.fmt_ratio(t["wordpiece"] / t["bpe_prefix"]), r["vocab"]["bpe_prefix"]],
        ["HF `WordPieceTrainer` (BPE proxy, Rust, all cores)", "(inside)", "(inside)",
         C.fmt_s(hf_t) if hf_t else h.get("error", "–"), "–", h.get("vocab", "–")],
    ]
    print(C.md_table(["trainer", "count s (2 procs)", "train s", "count + train s", "WordPiece train / this train",
                      "vocab"], rows))
    print()
    ratio_bpe, ratio_prefix = t["wordpiece"] / t["bpe"], t["wordpiece"] / t["bpe_prefix"]
    print(f"- Target ≤ 1.5× our BPE trainer on the same counts: {ratio_bpe:.2f}× vs default `BPETrainer` "
          f"({'met' if ratio_bpe <= 1.5 else 'MISSED'}); {ratio_prefix:.2f}× vs `BPETrainer` with the `##` prefix "
          f"({'within' if ratio_prefix <= 1.5 else 'above'} 1.5×).")
    if hf_t:
        total = r["count_s"] + t["wordpiece"]
        print(f"- End to end (counting + training) ours {total:.1f} s vs HF {hf_t:.1f} s = {total / hf_t:.2f}× HF; "
              f"HF's WordPieceTrainer is BPE with a `##` prefix, not the WordPiece score.")
    print(f"- Peak RSS of our child (counts + the three trainings): {C.fmt_mb(C.peak_kb(r))} MB (PSS of the process tree, sampled); "
          f"HF: {C.fmt_mb(C.peak_kb(h)) if 'error' not in h else '–'} MB.")
    print(f"- {r['distinct_words']:,} distinct words, {r['symbols']:,} characters in them.")
    SCALING_INPUT.update(r)


SCALING_INPUT: dict[str, Any] = {}


# ------------------------------------------------------------------------------------ encoding


def child_enc_ours(p: dict[str, Any]) -> dict[str, Any]:
    from toolkit import Tokenizer

    tok = Tokenizer.from_bert_vocab(p["vocab"], lowercase=True)
    _, lines = C.read_lines(p["file"])
    encode_ids = tok.encode_ids
    out: dict[str, Any] = {}
    cold = []
    for _ in range(p["reps"]):
        C.clear_caches(tok)
        t, res = C.timed(lambda: [encode_ids(line) for line in lines], 1)
        cold += t
    out["ids_cold"] = {"times": cold, "digest": C.ids_digest(i for ids in res for i in ids)}
    t, res = C.timed(lambda: [encode_ids(line) for line in lines], p["reps"])
    out["ids_warm"] = {"times": t, "digest": C.ids_digest(i for ids in res for i in ids)}
    t, res = C.timed(lambda: tok.encode_batch(lines), p["reps"])
    out["encode_batch"] = {"times": t, "digest": C.ids_digest(i for e in res for i in e.ids)}
    if "num_workers" in inspect.signature(tok.encode_batch).parameters:
        workers = os.cpu_count() or 1
        t, res = C.timed(lambda: tok.encode_batch(lines, num_workers=workers), p["reps"])
        out["encode_batch_workers"] = {"times": t, "digest": C.ids_digest(i for e in res for i in e.ids),
                                       "workers": workers}
    return out


def child_enc_hf(p: dict[str, Any]) -> dict[str, Any]:
    from tokenizers import BertWordPieceTokenizer

    tok = BertWordPieceTokenizer(p["vocab"], lowercase=True)
    _, lines = C.read_lines(p["file"])
    out: dict[str, Any] = {}
    t, res = C.timed(lambda: [e.ids for e in tok.encode_batch(lines)], p["reps"])
    out["batch_ids"] = {"times": t, "digest": C.ids_digest(i for ids in res for i in ids)}
    t, res = C.timed(lambda: tok.encode_batch(lines), p["reps"])
    out["batch_only"] = {"times": t, "digest": C.ids_digest(i for e in res for i in e.ids)}
    return out


def section_encoding(vocab: str, file: str, reps: int) -> bool:
    mb = os.path.getsize(file) / 1e6
    print("\n### WordPiece encoding, BERT uncased vocabulary\n")
    print(f"Text: the lines of `{os.path.basename(file)}` ({mb:.2f} MB); `[CLS]`/`[SEP]` added; "
          f"{reps} repetition(s), median (min–max).\n")
    o = C.run_child(__file__, "enc_ours", {"vocab": vocab, "file": file, "reps": reps})
    h1 = C.run_child(__file__, "enc_hf", {"vocab": vocab, "file": file, "reps": reps}, env={"RAYON_NUM_THREADS": "1"})
    env_default = {"RAYON_NUM_THREADS": None}  # HF's default pool: one thread per core
    hn = C.run_child(__file__, "enc_hf", {"vocab": vocab, "file": file, "reps": reps}, env=env_default)
    for res, name in ((o, "ours"), (h1, "hf 1 thread"), (hn, "hf default")):
        if "error" in res:
            print(f"- {name} failed: {res['error']}")
    if any("error" in x for x in (o, h1, hn)):
        return False
    ncpu = os.cpu_count() or 1
    runs = [
        ("ours `encode_ids` per line, cold cache", "1", o["ids_cold"]),
        ("ours `encode_ids` per line, warm cache", "1", o["ids_warm"]),
        ("ours `encode_batch(lines)` (Encodings with offsets)", "1", o["encode_batch"]),
    ]
    if "encode_batch_workers" in o:
        w = o["encode_batch_workers"]["workers"]
        runs.append((f"ours `encode_batch(lines, num_workers={w})`", f"{w} processes", o["encode_batch_workers"]))
    runs += [
        ("HF `encode_batch(lines)` + `.ids`", "1 (RAYON_NUM_THREADS=1)", h1["batch_ids"]),
        ("HF `encode_batch(lines)` (Encodings, `.ids` not read)", "1 (RAYON_NUM_THREADS=1)", h1["batch_only"]),
        ("HF `encode_batch(lines)` + `.ids`", f"{ncpu} (default pool)", hn["batch_ids"]),
        ("HF `encode_batch(lines)` (Encodings, `.ids` not read)", f"{ncpu} (default pool)", hn["batch_only"]),
    ]
    hf1 = mb / C.med(h1["batch_ids"]["times"])
    rows = [[label, threads, C.spread(res["times"]), f"{mb / C.med(res['times']):.2f}",
             C.fmt_ratio(mb / C.med(res["times"]) / hf1), res["digest"][:8]] for label, threads, res in runs]
    print(C.md_table(["contender", "threads", "seconds", "MB/s", "vs HF encode_batch + ids, 1 thread", "ids sha"], rows))
    same = len({res["digest"] for _, _, res in runs}) == 1
    warm = mb / C.med(o["ids_warm"]["times"])
    hfn = mb / C.med(hn["batch_ids"]["times"])
    full = mb / C.med(o["encode_batch"]["times"])
    print()
    print(f"- Identical ids: {'yes' if same else 'NO'}")
    print(f"- Target ≥ 2× HF `encode_batch` in one process: ours `encode_ids` warm {warm / hf1:.2f}× "
          f"({'met' if warm / hf1 >= 2 else 'MISSED'}); vs HF on {ncpu} threads {warm / hfn:.2f}×; "
          f"ours `encode_batch` (offsets too, HF's output) {full / hf1:.2f}×.")
    return same


# ------------------------------------------------------------------------------------ reference scaling
def sample_counts(path: str, nbytes: int) -> Any:
    from toolkit.training.corpus import count_texts

    with open(path, "rb") as fh:
        data = fh.read(nbytes)
    text = data[: data.rfind(b"\n") + 1].decode("utf-8", "ignore")
    norm, pre = bert_parts()
    return count_texts(text.splitlines(True), normalizer=norm, pre_tokenizer=pre)


def section_reference(path: str, sizes: list[int], n_merges: int, matched_bytes: int, full: dict[str, Any]) -> None:
    from algorithms import WordPieceTrainer
    from algorithms.reference.wordpiece import reference_wordpiece_trainer

    print("\n### The course's reference WordPiece trainer vs ours (`tie_break=\"first_occurrence\"`)\n")
    print(f"Samples: the first N bytes of `{os.path.basename(path)}`, BERT pre-processing; one run each "
          f"(the reference is deterministic and slow).\n")
    rows = []
    per_unit = []
    for nbytes in sizes:
        counts = sample_counts(path, nbytes)
        symbols = sum(len(w) for w in counts)
        base = WordPieceTrainer(vocab_size=1, tie_break="first_occurrence").train_merges(counts).n_base
        t = time.perf_counter()
        ref = reference_wordpiece_trainer(counts, vocab_size=base + n_merges, tie_break="first_occurrence")
        ref_s = time.perf_counter() - t
        t = time.perf_counter()
        ours = WordPieceTrainer(vocab_size=base + n_merges, tie_break="first_occurrence").train_merges(counts)
        ours_s = time.perf_counter() - t
        per_unit.append(ref_s / (symbols * len(ref.merges)))
        rows.append([f"{nbytes / 1e3:.0f} KB", f"{len(counts):,}", f"{symbols:,}", len(ref.merges), C.fmt_s(ref_s),
                     C.fmt_s(ours_s), f"{ref_s / ours_s:.0f}×", f"{1e3 * ref_s / len(ref.merges):.1f}",
                     "yes" if ref.merges == ours.merges else "NO"])
    # A complete run whose merges / distinct words ratio matches the full run: splits shrink as merges
    # accumulate, and this captures how much, for the shape of the full problem.
    counts = sample_counts(path, matched_bytes)
    symbols = sum(len(w) for w in counts)
    base = WordPieceTrainer(vocab_size=1, tie_break="first_occurrence").train_merges(counts).n_base
    ratio = full["n_merges"] / full["distinct_words"] if full else 0.8
    target_merges = max(1, int(ratio * len(counts)))
    t = time.perf_counter()
    ref = reference_wordpiece_trainer(counts, vocab_size=base + target_merges, tie_break="first_occurrence")
    ref_s = time.perf_counter() - t
    t = time.perf_counter()
    ours = WordPieceTrainer(vocab_size=base + target_merges, tie_break="first_occurrence").train_merges(counts)
    ours_s = time.perf_counter() - t
    rows.append([f"{matched_bytes / 1e3:.0f} KB (complete, matched ratio)", f"{len(counts):,}", f"{symbols:,}",
                 len(ref.merges), C.fmt_s(ref_s), C.fmt_s(ours_s), f"{ref_s / ours_s:.0f}×",
                 f"{1e3 * ref_s / max(1, len(ref.merges)):.1f}", "yes" if ref.merges == ours.merges else "NO"])
    print(C.md_table(["sample", "distinct words", "characters", "merges", "reference s", "ours s", "speed-up",
                      "reference ms/merge", "same merges"], rows))
    c_start = C.med(per_unit)
    c_eff = ref_s / (symbols * max(1, len(ref.merges)))
    print()
    print(f"- Reference cost per (character × merge): {c_start * 1e9:.0f} ns at the start of a run (median over the "
          f"samples above); {c_eff * 1e9:.0f} ns averaged over the complete run whose merges / distinct words ratio "
          f"({ratio:.2f}) matches the full run's.")
    if full:
        lo, hi = sorted((c_start * full["symbols"] * full["n_merges"], c_eff * full["symbols"] * full["n_merges"]))
        ours_full = full.get("first_occurrence_s")
        print(f"- Extrapolated to the full run ({full['distinct_words']:,} distinct words, {full['symbols']:,} "
              f"characters, {full['n_merges']:,} merges): {human(lo)} – {human(hi)} for the reference, vs "
              f"{ours_full:.1f} s for ours with the same tie-break ({lo / ours_full:,.0f}–{hi / ours_full:,.0f}× "
              f"faster). The reference does one pass over every word and every pair per merge, so its time is "
              f"linear in characters × merges; the extrapolation assumes exactly that and nothing else.")


def human(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


# ------------------------------------------------------------------------------------ main
CONTENDERS = {"train_ours": child_train_ours, "train_hf": child_train_hf, "enc_ours": child_enc_ours,
              "enc_hf": child_enc_hf}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", nargs="+", default=None, help="training corpus (default Gutenberg parts 1 and 2)")
    ap.add_argument("--vocab-size", type=int, default=32000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--encode-file", default=None, help="text whose lines are encoded (default gutenberg_part01.txt)")
    ap.add_argument("--encode-max-bytes", type=int, default=None)
    ap.add_argument("--bert-vocab", default=str(C.BERT_UNCASED))
    ap.add_argument("--sections", default="training,encoding,reference")
    ap.add_argument("--ref-merges", type=int, default=100, help="merges per reference sample")
    C.common_args(ap, reps=3)
    args = ap.parse_args(argv)
    sections = [s.strip() for s in args.sections.split(",")]
    if args.quick:
        files = args.files or C.quick_files(2, 150_000)
        vocab, reps = min(args.vocab_size, 2000), 1
        enc_file = args.encode_file or C.quick_files(1, 200_000)[0]
        ref_path, ref_sizes, ref_merges, matched = files[0], [10_000, 20_000], min(args.ref_merges, 20), 5_000
    else:
        files = args.files or C.gutenberg(1, 2)
        vocab, reps = args.vocab_size, args.reps
        enc_file = C.slice_file(args.encode_file or C.gutenberg(1)[0], args.encode_max_bytes)
        ref_path, ref_sizes, ref_merges, matched = files[0], [50_000, 100_000, 200_000], args.ref_merges, 50_000
    C.apply_quiet_args(args)
    C.header("WordPiece (issue 4)")
    ok = True
    if "training" in sections:
        section_training(files, vocab, reps, args.workers)
    if "encoding" in sections:
        if os.path.exists(args.bert_vocab):
            ok &= section_encoding(args.bert_vocab, enc_file, reps)
        else:
            print(f"\n### WordPiece encoding\n\nSkipped: {args.bert_vocab} not found.")
    if "reference" in sections:
        section_reference(ref_path, ref_sizes, ref_merges, matched, SCALING_INPUT)
    C.footer()
    return 0 if ok else 1


if __name__ == "__main__":
    if not C.child_main(CONTENDERS):
        sys.exit(main())
