"""Shared test fixtures: where the shared corpora live, and hypothesis profiles.

Tests that need ``../shared/corpora`` use the ``shared`` fixture (or ``require_shared``), which skips
cleanly when the data is absent. Peer libraries (``tokenizers``, ``tiktoken``) are imported with
``pytest.importorskip`` so a missing extra skips instead of failing.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("TOOLKIT_SHARED", ROOT.parent / "shared")).resolve()
CORPORA = SHARED / "corpora"

# tests/fixtures holds data and the script that wrote it (make_fixtures.py): nothing to collect there,
# not even doctests (--doctest-modules would import the script).
collect_ignore = ["fixtures"]

settings.register_profile("ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("slow", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=50, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def shared_path(relative: str) -> Path:
    """Path of a file under ``../shared/corpora``; skips the test when it is missing."""
    path = CORPORA / relative
    if not path.exists():
        pytest.skip(f"shared corpus file {relative} is absent ({CORPORA})")
    return path


@pytest.fixture
def corpora() -> Path:
    """The ``../shared/corpora`` folder; skips when absent."""
    if not CORPORA.is_dir():
        pytest.skip(f"shared corpora folder is absent ({CORPORA})")
    return CORPORA


#: A small multilingual training text (60 lines) for the config and CLI tests.
SMALL_CORPUS = (
    "The quick brown fox jumps over the lazy dog.\n"
    "Phileas Fogg parie vingt mille livres: 12345 snake_case naïve café!\n"
    "Tokenizers split text into subword units; tokenization isn't magic.\n"
) * 20


@pytest.fixture
def corpus_file(tmp_path: Path) -> Path:
    """:data:`SMALL_CORPUS` written to a UTF-8 file."""
    path = tmp_path / "corpus.txt"
    path.write_text(SMALL_CORPUS, encoding="utf-8")
    return path
