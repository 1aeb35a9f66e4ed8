"""Smoke tests for ``examples/benchmarks/``: every script runs in ``--quick`` mode and prints a table.

Each script runs in a subprocess on a tiny slice (of ``../shared/corpora`` when present, otherwise of
``pydoc_data.topics``, which ships with Python), with its own cache directory. The peer libraries the
scripts compare against are required; a missing one skips. About 15 seconds in total on a quiet machine.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import require

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


@pytest.mark.parametrize(
    "script", ["bench_bpe_training.py", "bench_encoding.py", "bench_wordpiece.py", "bench_counting.py", "bench_train_cli.py"]
)
def test_script_quick(script: str, tmp_path: Path) -> None:
    if script == "bench_bpe_training.py":
        require("sentencepiece")
    check(run([str(BENCH / script), "--quick"], tmp_path))


def test_quick_without_shared_corpora(tmp_path: Path) -> None:
    """With ``../shared`` absent the scripts fall back to ``pydoc_data.topics`` and skip what needs it."""
    proc = run([str(BENCH / "bench_encoding.py"), "--quick"], tmp_path, TOOLKIT_SHARED=str(tmp_path / "absent"))
    check(proc)
    assert "Skipped" in proc.stdout  # the GPT-2 section needs the shared vocabulary


def test_run_all_quick(tmp_path: Path) -> None:
    proc = run([str(BENCH / "run_all.py"), "--quick", "--only", "counting", "--output", str(tmp_path / "r.md")], tmp_path)
    check(proc)
    assert "|---|" in (tmp_path / "r.md").read_text(encoding="utf-8")
