"""Smoke tests for ``examples/benchmarks/``: every script runs in ``--quick`` mode and prints a table.

Each script runs in a subprocess on a tiny slice (of ``../shared/corpora`` when present, otherwise of
``pydoc_data.topics``, which ships with Python), with its own cache directory. The peer libraries the
scripts compare against are required; a missing one skips. Where ``--quick`` alone costs most, the default
run passes smaller sizes through the scripts' own options and ``-m slow`` runs ``--quick`` alone.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import CORPORA, require

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "examples" / "benchmarks"

require("tokenizers")
require("tiktoken")


def run(args: list[str], tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "TOOLKIT_BENCH_CACHE": str(tmp_path / "cache"), **env}
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=full_env, capture_output=True, text=True, timeout=120
    )


def check(proc: subprocess.CompletedProcess[str]) -> None:
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "|---|" in proc.stdout, proc.stdout[-2000:]
    assert "Command: `" in proc.stdout


# Extra arguments for the default run, through the scripts' own options, where ``--quick`` alone is the
# cost: bench_train_cli trains vocabularies of 500 instead of 8,000 (same three trainings, same table);
# bench_wordpiece trains 500 instead of 2,000 and times the reference trainer on 5 merges instead of 20;
# bench_encoding encodes with the GPT-2 vocabulary only: its section on our own trained model is what
# test_quick_without_shared_corpora runs. Each script also runs with ``--quick`` alone in -m slow.
SMALLER = {
    "bench_encoding.py": ["--models", "gpt2"],
    "bench_train_cli.py": ["--vocab-size", "500"],
    "bench_wordpiece.py": ["--vocab-size", "500", "--ref-merges", "5"],
}
SCRIPTS = ["bench_bpe_training.py", "bench_encoding.py", "bench_wordpiece.py", "bench_counting.py", "bench_train_cli.py"]


@pytest.mark.parametrize(
    ("script", "extra"),
    [(s, SMALLER.get(s, [])) for s in SCRIPTS]
    + [pytest.param(s, [], marks=pytest.mark.slow) for s in SCRIPTS if s in SMALLER],
    ids=lambda v: ("smaller" if v else "quick") if isinstance(v, list) else v,
)
def test_script_quick(script: str, extra: list[str], tmp_path: Path) -> None:
    if script == "bench_bpe_training.py":
        require("sentencepiece")
    if "gpt2" in extra and not (CORPORA / "vocab" / "gpt2" / "vocab.bpe").exists():
        extra = []  # without the GPT-2 files that section is skipped: run the one on our own model
    proc = run([str(BENCH / script), "--quick", *extra], tmp_path)
    check(proc)
    if script == "bench_encoding.py":
        assert "### GPT-2 vocabulary" in proc.stdout
        assert ("Our trained byte-level BPE" in proc.stdout) == ("gpt2" not in extra)


def test_quick_without_shared_corpora(tmp_path: Path) -> None:
    """With ``../shared`` absent the scripts fall back to ``pydoc_data.topics`` and skip what needs it."""
    proc = run([str(BENCH / "bench_encoding.py"), "--quick"], tmp_path, TOOLKIT_SHARED=str(tmp_path / "absent"))
    check(proc)
    assert "Skipped" in proc.stdout  # the GPT-2 section needs the shared vocabulary


def test_run_all_quick(tmp_path: Path) -> None:
    proc = run([str(BENCH / "run_all.py"), "--quick", "--only", "counting", "--output", str(tmp_path / "r.md")], tmp_path)
    check(proc)
    assert "|---|" in (tmp_path / "r.md").read_text(encoding="utf-8")
