"""Loading an LLM ``tokenizer.json``: ours (``Tokenizer.from_hf_json``) beside HF (``Tokenizer.from_file``).

Each load runs in a fresh process (imports excluded from the time); prints wall time and the
process's peak RSS (imports included). Usage: ``bench_llm_load.py PATH [--reps N]``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys

CODE = {
    "tokenizer-toolkit `Tokenizer.from_hf_json`": "from toolkit import Tokenizer as T; load = T.from_hf_json",
    "HF tokenizers `Tokenizer.from_file`": "from tokenizers import Tokenizer as T; load = T.from_file",
}
RUN = (
    "import resource, time; {setup}; t = time.perf_counter(); load({path!r}); "
    "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", help="a Hugging Face tokenizer.json")
    parser.add_argument("--reps", type=int, default=3, help="fresh processes per library (best time kept)")
    args = parser.parse_args()
    print(f"| library | load time (best of {args.reps}) | peak RSS |")
    print("|---|---|---|")
    for name, setup in CODE.items():
        runs = []
        for _ in range(args.reps):
            out = subprocess.run([sys.executable, "-c", RUN.format(setup=setup, path=args.path)],
                                 capture_output=True, text=True, check=True)
            runs.append(tuple(map(float, out.stdout.split())))
        seconds = min(r[0] for r in runs)
        mb = max(r[1] for r in runs)
        print(f"| {name} | {seconds:.2f} s | {mb:.0f} MB |")


if __name__ == "__main__":
    main()
