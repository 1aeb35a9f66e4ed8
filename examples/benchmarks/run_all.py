"""Run every benchmark in ``examples/benchmarks/`` in sequence and print (optionally save) the report.

``make bench`` runs this. Order matters: ``bench_bpe_training.py`` saves the byte-level model that
``bench_encoding.py`` then measures (it trains one itself when run alone).

    .venv/bin/python examples/benchmarks/run_all.py                       # everything, ~10 minutes on a quiet machine
    .venv/bin/python examples/benchmarks/run_all.py --quick               # smoke test, ~15 seconds
    .venv/bin/python examples/benchmarks/run_all.py --max-load 1.5 --max-other-cpu 0.3 --output /tmp/bench.md
    .venv/bin/python examples/benchmarks/run_all.py --only encoding,wordpiece

Each script runs in its own process, with its own default options (see each script's ``--help``);
``--quick``, ``--max-load``, ``--max-other-cpu`` and ``--wait-timeout`` are passed through. On a shared
machine use both: each script waits until the 1-minute load average is below ``--max-load`` before it
starts, and before every measured child process until other processes use fewer than
``--max-other-cpu`` cores; each script reports the other processes' CPU use during its runs.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _common as C  # noqa: E402

SCRIPTS = {
    "training": "bench_bpe_training.py",
    "encoding": "bench_encoding.py",
    "wordpiece": "bench_wordpiece.py",
    "counting": "bench_counting.py",
    "train_cli": "bench_train_cli.py",
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="run every script in --quick mode (smoke test)")
    ap.add_argument("--only", default=",".join(SCRIPTS), help=f"comma-separated subset of {','.join(SCRIPTS)}")
    ap.add_argument("--max-load", type=float, default=None, help="passed to each script (wait for a quiet machine)")
    ap.add_argument("--max-other-cpu", type=float, default=None,
                    help="passed to each script: before every child run, wait until other processes use fewer cores")
    ap.add_argument("--wait-timeout", type=float, default=3600.0)
    ap.add_argument("--output", default=None, help="also write the combined Markdown report to this file")
    args = ap.parse_args(argv)

    here = os.path.dirname(os.path.abspath(__file__))
    report = [f"# Benchmark run\n\nCommand: `{C.command_line()}`  \nMachine: {C.machine_line()}  \n"
              f"Started: {time.strftime('%Y-%m-%d %H:%M:%S')}, load average {C.loadavg()[0]:.2f}\n"]
    print(report[0], flush=True)
    status = 0
    for key in [k.strip() for k in args.only.split(",") if k.strip()]:
        if key not in SCRIPTS:
            ap.error(f"unknown benchmark {key!r}; choose from {', '.join(SCRIPTS)}")
        cmd = [sys.executable, os.path.join(here, SCRIPTS[key])]
        if args.quick:
            cmd.append("--quick")
        if args.max_load:
            cmd += ["--max-load", str(args.max_load)]
        if args.max_other_cpu is not None:
            cmd += ["--max-other-cpu", str(args.max_other_cpu)]
        if args.max_load or args.max_other_cpu is not None:
            cmd += ["--wait-timeout", str(args.wait_timeout)]
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)
        print(proc.stdout, flush=True)
        report.append(proc.stdout)
        if proc.returncode != 0:
            status = 1
            note = f"\n**{SCRIPTS[key]} exited with status {proc.returncode}.**\n"
            print(note, flush=True)
            report.append(note)
        print(f"[bench] {SCRIPTS[key]} took {time.perf_counter() - t0:.0f}s", file=sys.stderr, flush=True)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write("\n".join(report))
        print(f"[bench] report written to {args.output}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
