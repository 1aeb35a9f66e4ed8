"""Benchmark 2 (issues 3 and 5): byte-level BPE encoding throughput, ours vs tiktoken vs HF ``tokenizers``.

Two vocabularies, each on ``gutenberg_part01.txt`` (8.9 MB):

* **GPT-2**: ours is ``Tokenizer.from_gpt2(encoder.json, vocab.bpe)``; tiktoken is a
  ``tiktoken.Encoding`` built from the *same local files* (``data_gym_to_mergeable_bpe_ranks`` + the
  GPT-2 pattern); HF is ``models.BPE.from_file(encoder.json, vocab.bpe)`` + ``ByteLevel`` pre-tokenizer.
* **ours-32k**: the byte-level model trained by ``bench_bpe_training.py`` (trained here first if it is
  missing); tiktoken gets its ranks (``model.ranks``) + the GPT-2 pattern; HF loads our
  ``to_hf_json`` export.

Text is fed two ways, because each library has a preferred one:

* ``whole``: the whole file as one string, one call (tiktoken's fastest way; ours too, except that the
  toolkit refuses texts above ``toolkit.limits.MAX_INPUT_CHARS`` = 4,194,304 characters, so ours gets
  the file in 3 calls of at most that size, cut at line starts; the ids are identical, see
  ``_common.input_chunks``);
* ``lines``: one call per line (each line keeps its ``\\n``), or one ``encode_batch(lines)`` call for HF,
  whose batch API is its fast path. Ids differ slightly between the two ways (a whitespace run that
  spans a line end is one piece in ``whole`` mode), so ids are checked within each way.

Every contender runs in its own child process. HF runs twice: with ``RAYON_NUM_THREADS=1`` (one core,
the "one process" comparison of the targets) and with its default thread pool (both cores). Our
``encode_ids`` is timed *cold* (empty per-piece cache, the first pass) and *warm* (the second pass over
the same text: every piece is a cache hit unless the cache had to be cleared); our ``encode_batch``
(full ``Encoding`` objects with tokens and offsets, like HF's) is timed too, in this process and with
``num_workers`` = the number of cores (spawned worker processes). tiktoken has no cache;
for HF the median of the repetitions is shown (its internal cache warms on the first).

All contenders' ids are compared (sha256 of the id sequence) and the script exits with status 1 if the
GPT-2 ids differ. Targets (issue 3): ``encode_ids`` ≥ 0.6× tiktoken and ≥ 3× HF in one process.

    .venv/bin/python examples/benchmarks/bench_encoding.py            # full run (~5 minutes)
    .venv/bin/python examples/benchmarks/bench_encoding.py --quick    # smoke test, seconds
"""

from __future__ import annotations

import argparse
import inspect
import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _common as C  # noqa: E402


# ------------------------------------------------------------------------------------ helpers
def flat(list_of_lists: list[list[int]]) -> list[int]:
    return [i for ids in list_of_lists for i in ids]


# ------------------------------------------------------------------------------------ contenders
def load_ours(model: dict[str, Any]) -> Any:
    from toolkit import Tokenizer

    if model["kind"] == "gpt2":
        return Tokenizer.from_gpt2(model["encoder"], model["vocab_bpe"])
    return Tokenizer.load(model["path"])


def child_ours(p: dict[str, Any]) -> dict[str, Any]:
    tok = load_ours(p["model"])
    text, lines = C.read_lines(p["file"])
    encode_ids = tok.encode_ids

    def clear() -> None:
        C.clear_caches(tok)

    reps = p["reps"]
    out: dict[str, Any] = {}

    parts = C.input_chunks(text)  # one call per part of at most toolkit.limits.MAX_INPUT_CHARS characters

    def whole() -> list[int]:
        out: list[int] = []
        for part in parts:
            out += encode_ids(part)
        return out

    def per_line() -> list[list[int]]:
        return [encode_ids(line) for line in lines]

    def cold(fn: Any) -> tuple[list[float], Any]:
        times, res = [], None
        for _ in range(reps):
            clear()
            t, res = C.timed(fn, 1)
            times += t
        return times, res

    times, ids = cold(whole)
    out["whole_cold"] = {"times": times, "digest": C.ids_digest(ids), "n_ids": len(ids), "calls": len(parts)}
    times, ids = C.timed(whole, reps)  # the cache is warm after the cold passes
    out["whole_warm"] = {"times": times, "digest": C.ids_digest(ids), "n_ids": len(ids),
                         "cache_entries": C.cache_entries(tok), "cache_capacity": tok.model.cache_capacity}
    times, res = cold(per_line)
    out["lines_cold"] = {"times": times, "digest": C.ids_digest(flat(res))}
    times, res = C.timed(per_line, reps)
    out["lines_warm"] = {"times": times, "digest": C.ids_digest(flat(res))}
    # Full Encodings (tokens and offsets too), HF's output; in this process, then in worker processes.
    times, res = C.timed(lambda: [e.ids for e in tok.encode_batch(lines)], reps)
    out["batch"] = {"times": times, "digest": C.ids_digest(flat(res))}
    if "num_workers" in inspect.signature(tok.encode_batch).parameters:
        workers = os.cpu_count() or 1
        times, res = C.timed(lambda: [e.ids for e in tok.encode_batch(lines, num_workers=workers)], reps)
        out["batch_workers"] = {"times": times, "digest": C.ids_digest(flat(res)), "workers": workers}
    return out


def child_tiktoken(p: dict[str, Any]) -> dict[str, Any]:
    import tiktoken
    from tiktoken.load import data_gym_to_mergeable_bpe_ranks

    from pretokenizers import GPT2_PATTERN

    model = p["model"]
    if model["kind"] == "gpt2":
        ranks = data_gym_to_mergeable_bpe_ranks(vocab_bpe_file=model["vocab_bpe"], encoder_json_file=model["encoder"])
        specials = {"<|endoftext|>": 50256}
    else:
        ranks = load_ours(model).model.ranks
        ranks = ranks() if callable(ranks) else ranks
        specials = {}
    enc = tiktoken.Encoding("bench", pat_str=GPT2_PATTERN, mergeable_ranks=ranks, special_tokens=specials)
    text, lines = C.read_lines(p["file"])
    encode = enc.encode_ordinary
    out: dict[str, Any] = {}
    times, ids = C.timed(lambda: encode(text), p["reps"])
    out["whole"] = {"times": times, "digest": C.ids_digest(ids), "n_ids": len(ids)}
    times, res = C.timed(lambda: [encode(line) for line in lines], p["reps"])
    out["lines"] = {"times": times, "digest": C.ids_digest(flat(res))}
    return out


def child_hf(p: dict[str, Any]) -> dict[str, Any]:
    from tokenizers import Tokenizer, models, pre_tokenizers

    model = p["model"]
    if model["kind"] == "gpt2":
        tok = Tokenizer(models.BPE.from_file(model["encoder"], model["vocab_bpe"]))
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    else:
        path = os.path.join(str(C.CACHE_DIR), "hf_export_" + os.path.basename(model["path"]))
        load_ours(model).to_hf_json(path)
        tok = Tokenizer.from_file(path)
    text, lines = C.read_lines(p["file"])
    out: dict[str, Any] = {}
    reps = p["reps"]
    if "whole" in p["modes"]:
        times, ids = C.timed(lambda: tok.encode(text, add_special_tokens=False).ids, reps)
        out["whole"] = {"times": times, "digest": C.ids_digest(ids), "n_ids": len(ids)}
    if "batch" in p["modes"]:
        times, res = C.timed(lambda: [e.ids for e in tok.encode_batch(lines, add_special_tokens=False)], reps)
        out["batch"] = {"times": times, "digest": C.ids_digest(flat(res))}
    if "loop" in p["modes"]:
        times, res = C.timed(lambda: [tok.encode(line, add_special_tokens=False).ids for line in lines], reps)
        out["loop"] = {"times": times, "digest": C.ids_digest(flat(res))}
    return out


CONTENDERS = {"ours": child_ours, "tiktoken": child_tiktoken, "hf": child_hf}


# ------------------------------------------------------------------------------------ parent
def ensure_own_model(path: str, files: list[str], vocab_size: int) -> None:
    """Train our byte-level model with bench_bpe_training's child if ``path`` does not exist yet."""
    if os.path.exists(path):
        return
    print(f"[bench] {path} is missing: training it first (vocab {vocab_size} on {len(files)} file(s))",
          file=sys.stderr, flush=True)
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench_bpe_training.py")
    r = C.run_child(script, "ours", {"files": files, "vocab_size": vocab_size, "workers": 2, "save": path})
    if "error" in r:
        raise SystemExit(f"training our model failed: {r['error']}")


Run = tuple[str, str, str, dict[str, Any]]  # (label, input, threads, result)


def _collect_runs(model: dict[str, Any], file: str, reps: int) -> tuple[dict[str, Any], dict[str, Any], list[Run]]:
    """Run every contender in a child process: (ours, tiktoken, the rows of the table)."""
    runs: list[Run] = []
    r = C.run_child(__file__, "ours", {"model": model, "file": file, "reps": reps})
    r_tk = C.run_child(__file__, "tiktoken", {"model": model, "file": file, "reps": reps})
    r_hf1 = C.run_child(__file__, "hf", {"model": model, "file": file, "reps": reps,
                                         "modes": ["whole", "batch", "loop"]}, env={"RAYON_NUM_THREADS": "1"})
    env_default = {"RAYON_NUM_THREADS": None}  # HF's default pool: one thread per core
    r_hfn = C.run_child(__file__, "hf", {"model": model, "file": file, "reps": reps, "modes": ["batch"]},
                        env=env_default)
    for res, name in ((r, "ours"), (r_tk, "tiktoken"), (r_hf1, "hf 1 thread"), (r_hfn, "hf default threads")):
        if "error" in res:
            print(f"[bench] {name} failed: {res['error']}", file=sys.stderr)
    if "error" not in r:
        runs += [
            ("ours `encode_ids`, cold cache", "whole", "1", r["whole_cold"]),
            ("ours `encode_ids`, warm cache", "whole", "1", r["whole_warm"]),
            ("ours `encode_ids` per line, cold cache", "lines", "1", r["lines_cold"]),
            ("ours `encode_ids` per line, warm cache", "lines", "1", r["lines_warm"]),
            ("ours `encode_batch(lines)` (Encodings with offsets)", "lines", "1", r["batch"]),
        ]
        if "batch_workers" in r:
            runs.append((f"ours `encode_batch(lines, num_workers={r['batch_workers']['workers']})`", "lines",
                         f"{r['batch_workers']['workers']} processes", r["batch_workers"]))
    if "error" not in r_tk:
        runs += [("tiktoken `encode_ordinary`", "whole", "1", r_tk["whole"]),
                 ("tiktoken `encode_ordinary` per line", "lines", "1", r_tk["lines"])]
    if "error" not in r_hf1:
        runs += [("HF `encode`", "whole", "1", r_hf1["whole"]),
                 ("HF `encode_batch(lines)`", "lines", "1 (RAYON_NUM_THREADS=1)", r_hf1["batch"]),
                 ("HF `encode` per line", "lines", "1", r_hf1["loop"])]
    if "error" not in r_hfn:
        runs.append(("HF `encode_batch(lines)`", "lines", f"{os.cpu_count() or 1} (default pool)", r_hfn["batch"]))
    return r, r_tk, runs


def _print_targets(r: dict[str, Any], r_tk: dict[str, Any], mbps: Any, tk_whole: float | None,
                   tk_lines: float | None, hf_one: float | None, hf_batch1: float | None) -> None:
    if "error" not in r and "error" not in r_tk:
        warm, cold = mbps(r["whole_warm"]), mbps(r["whole_cold"])
        print(f"- Target ≥ 0.6× tiktoken (whole file): warm {warm / tk_whole:.2f}× "
              f"({'met' if warm / tk_whole >= 0.6 else 'MISSED'}), cold {cold / tk_whole:.2f}×; per line: warm "
              f"{mbps(r['lines_warm']) / tk_lines:.2f}×.")
    if "error" not in r and hf_one:
        best = max(mbps(r["whole_warm"]), mbps(r["lines_warm"]))
        coldest = min(mbps(r["whole_cold"]), mbps(r["lines_cold"]))
        print(f"- Target ≥ 3× HF in one process (HF's fastest 1-thread mode, {hf_one:.2f} MB/s): ours warm "
              f"{best / hf_one:.2f}× ({'met' if best / hf_one >= 3 else 'MISSED'}), ours cold {coldest / hf_one:.2f}×.")
        if hf_batch1:
            print(f"- Same output as HF (`encode_batch`, Encodings with offsets), one process: ours "
                  f"{mbps(r['batch']) / hf_batch1:.2f}× HF `encode_batch` with RAYON_NUM_THREADS=1.")
        ww = r["whole_warm"]
        print(f"- Our encoding caches after the run: {ww['cache_entries']:,} entries (capacity {ww['cache_capacity']:,} per cache). "
              f"Ours 'whole' = {r['whole_cold']['calls']} `encode_ids` call(s) (toolkit.limits.MAX_INPUT_CHARS).")


def bench_model(title: str, model: dict[str, Any], file: str, reps: int, *, strict: bool) -> bool:
    mb = os.path.getsize(file) / 1e6
    r, r_tk, runs = _collect_runs(model, file, reps)

    def mbps(res: dict[str, Any]) -> float:
        return mb / C.med(res["times"])

    tk_whole = mbps(r_tk["whole"]) if "error" not in r_tk else None
    tk_lines = mbps(r_tk["lines"]) if "error" not in r_tk else None
    hf_one = max((mbps(res) for label, _, threads, res in runs if label.startswith("HF") and threads.startswith("1")),
                 default=None)
    hf_batch1 = next((mbps(res) for label, _, threads, res in runs
                      if label.startswith("HF `encode_batch") and threads.startswith("1")), None)
    # Id agreement within each input mode.
    digests: dict[str, set[str]] = {}
    for _, mode, _, res in runs:
        digests.setdefault(mode, set()).add(res["digest"])
    agree = {mode: len(d) == 1 for mode, d in digests.items()}

    rows = []
    for label, mode, threads, res in runs:
        speed = mbps(res)
        tk = tk_whole if mode == "whole" else tk_lines
        rows.append([label, mode, threads, C.spread(res["times"]), f"{speed:.2f}",
                     C.fmt_ratio(speed / tk) if tk else "–", C.fmt_ratio(speed / hf_one) if hf_one else "–",
                     res["digest"][:8]])
    print(f"\n### {title}\n")
    print(f"Text: `{os.path.basename(file)}` ({mb:.2f} MB UTF-8); {reps} repetition(s), median (min–max).\n")
    print(C.md_table(["contender", "input", "threads", "seconds", "MB/s", "vs tiktoken (same input)",
                      "vs HF best 1-thread", "ids sha"], rows))
    print()
    print("- Identical ids: " + "; ".join(f"{m}: {'yes' if ok else 'NO'}" for m, ok in agree.items()))
    _print_targets(r, r_tk, mbps, tk_whole, tk_lines, hf_one, hf_batch1)
    return all(agree.values()) or not strict


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--file", default=None, help="text to encode (default gutenberg_part01.txt)")
    ap.add_argument("--max-bytes", type=int, default=None, help="encode only the first N bytes of --file")
    ap.add_argument("--gpt2-dir", default=str(C.GPT2_DIR), help="folder with encoder.json and vocab.bpe")
    ap.add_argument("--own-model", default=None,
                    help="our trained byte-level tokenizer JSON (default: the one bench_bpe_training.py saves)")
    ap.add_argument("--own-vocab-size", type=int, default=32000)
    ap.add_argument("--models", default="gpt2,own", help="comma-separated subset of gpt2,own")
    C.common_args(ap, reps=3)
    args = ap.parse_args(argv)

    if args.quick:
        file = args.file or C.quick_files(1, 200_000)[0]
        train_files, own_vocab, reps = C.quick_files(2, 150_000), min(args.own_vocab_size, 1000), 1
        own_default = str(C.CACHE_DIR / f"byte_level_bpe_{own_vocab}_quick.json")
    else:
        file = C.slice_file(args.file or C.gutenberg(1)[0], args.max_bytes)
        train_files, own_vocab, reps = C.gutenberg(1, 2), args.own_vocab_size, args.reps
        own_default = str(C.CACHE_DIR / f"byte_level_bpe_{own_vocab}.json")
    own_path = args.own_model or own_default
    models = [m.strip() for m in args.models.split(",")]
    C.apply_quiet_args(args)
    C.header("Byte-level BPE encoding throughput (issues 3 and 5)")
    ok = True
    encoder, vocab_bpe = os.path.join(args.gpt2_dir, "encoder.json"), os.path.join(args.gpt2_dir, "vocab.bpe")
    if "gpt2" in models:
        if os.path.exists(encoder) and os.path.exists(vocab_bpe):
            ok &= bench_model("GPT-2 vocabulary (50,257 tokens)",
                              {"kind": "gpt2", "encoder": encoder, "vocab_bpe": vocab_bpe}, file, reps, strict=True)
        else:
            print(f"\n### GPT-2 vocabulary\n\nSkipped: {encoder} / {vocab_bpe} not found.")
    if "own" in models:
        ensure_own_model(own_path, train_files, own_vocab)
        bench_model(f"Our trained byte-level BPE ({os.path.basename(own_path)})",
                    {"kind": "file", "path": own_path}, file, reps, strict=False)
    C.footer()
    return 0 if ok else 1


if __name__ == "__main__":
    if not C.child_main(CONTENDERS):
        sys.exit(main())
