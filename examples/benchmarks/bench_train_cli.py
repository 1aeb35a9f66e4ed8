"""Issue 6 benchmark: the full ``tokenizer-toolkit train`` command per algorithm beside HF ``tokenizers``.

Each contender runs in its own process (our CLI as a subprocess, HF in a fresh Python), so wall time
and peak memory (the largest RSS of any process in its tree, ``ru_maxrss`` of waited children) are
measured the same way. Our side uses the example configs with the corpus and vocabulary overridden by
``--set``; HF uses the same normalizer, pre-tokenizer, vocabulary size, minimum frequency and special
tokens. Prints a Markdown table.

    .venv/bin/python examples/benchmarks/bench_train_cli.py                  # 56 MB Gutenberg, vocab 8000
    .venv/bin/python examples/benchmarks/bench_train_cli.py --quick          # a small slice, seconds

Like the other scripts it accepts ``--max-load`` / ``--max-other-cpu`` (wait for a quiet machine before
each measured command) and reports the CPU other processes used while the commands ran.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _common as C  # noqa: E402

ROOT = C.ROOT
CLI = Path(sys.executable).with_name("tokenizer-toolkit")

# HF pipelines equivalent to examples/configs/{bpe,byte_level_bpe,wordpiece}.toml.
HF_SCRIPT = r"""
import sys, json
from tokenizers import Tokenizer, models, trainers, pre_tokenizers, normalizers
algo, vocab, files = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
if algo == "bpe":
    tok = Tokenizer(models.BPE(unk_token="[UNK]"))
    tok.normalizer = normalizers.NFKC()
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="\u2581", prepend_scheme="always")
    trainer = trainers.BpeTrainer(vocab_size=vocab, min_frequency=2, special_tokens=["[UNK]", "<s>", "</s>"],
                                  limit_alphabet=300, show_progress=False)
elif algo == "byte_level_bpe":
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = trainers.BpeTrainer(vocab_size=vocab, min_frequency=2, special_tokens=["<|endoftext|>"],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
else:
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    trainer = trainers.WordPieceTrainer(vocab_size=vocab, min_frequency=2,
                                        special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"], show_progress=False)
tok.train(files, trainer)
print(tok.get_vocab_size())
"""


def measure(cmd: list[str]) -> tuple[float, float]:
    """(wall seconds, peak RSS in MB of the process tree) of one command, run in a fresh wrapper.

    The peak is ``ru_maxrss`` of the waited children: the largest single process of the tree.
    """
    wrapper = (
        "import resource, subprocess, sys, time\n"
        "t = time.perf_counter(); r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
        "dt = time.perf_counter() - t\n"
        "if r.returncode: sys.exit(r.returncode)\n"
        "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "print(dt, u.ru_maxrss, u.ru_utime + u.ru_stime)\n"
    )
    C.wait_for_quiet_cpu()
    busy0 = C._cpu_busy_seconds()
    out = subprocess.run([sys.executable, "-c", wrapper, *cmd], capture_output=True, text=True, check=True)
    busy1 = C._cpu_busy_seconds()
    seconds, kb, cpu = out.stdout.split()
    if busy0 is not None and busy1 is not None:
        C.OTHER_LOAD.append(max(0.0, (busy1 - busy0 - float(cpu)) / float(seconds)))
    return float(seconds), int(kb) / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vocab-size", type=int, default=8000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--files", nargs="+", default=None, help="corpus files (default: the 6 Gutenberg parts)")
    C.common_args(ap, reps=1)
    args = ap.parse_args()
    if args.quick:
        files, reps = [Path(f) for f in (args.files or C.quick_files(1, 1_000_000))], 1
    else:
        files, reps = [Path(f) for f in (args.files or C.gutenberg(1, 2, 3, 4, 5, 6))], args.reps
    missing = [str(f) for f in files if not f.exists()]
    if missing:
        sys.exit(f"corpus files not found: {', '.join(missing)}")
    C.apply_quiet_args(args)
    C.header("Full `train` command per algorithm (issue 6)")
    tmp = Path(tempfile.mkdtemp(prefix="bench-train-cli-"))
    size_mb = sum(f.stat().st_size for f in files) / 1e6
    print(f"Corpus: {len(files)} file(s), {size_mb:.1f} MB; vocab_size {args.vocab_size}; "
          f"ours with -j {args.workers}, HF with its default thread pool; {reps} run(s) each, median.\n")
    print("| algorithm | ours wall s | ours peak MB | HF wall s | HF peak MB | time vs HF |")
    print("|---|---|---|---|---|---|", flush=True)
    for algo in ("byte_level_bpe", "bpe", "wordpiece"):
        out = tmp / f"{algo}.json"
        ours_cmd = [
            str(CLI), "train", str(ROOT / "examples" / "configs" / f"{algo}.toml"), "-q", "-j", str(args.workers),
            "--set", f"corpus.files={json.dumps([str(f) for f in files])}",
            "--set", f"trainer.vocab_size={args.vocab_size}", "-o", str(out),
        ]
        hf_cmd = [sys.executable, "-c", HF_SCRIPT, algo, str(args.vocab_size), json.dumps([str(f) for f in files])]
        ours_runs = [measure(ours_cmd) for _ in range(reps)]
        hf_runs = [measure(hf_cmd) for _ in range(reps)]
        ours = (statistics.median(r[0] for r in ours_runs), statistics.median(r[1] for r in ours_runs))
        hf = (statistics.median(r[0] for r in hf_runs), statistics.median(r[1] for r in hf_runs))
        print(f"| {algo} | {ours[0]:.1f} | {ours[1]:.0f} | {hf[0]:.1f} | {hf[1]:.0f} | {ours[0] / hf[0]:.2f}× |", flush=True)
    C.footer()


if __name__ == "__main__":
    main()
