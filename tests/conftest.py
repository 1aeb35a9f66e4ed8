"""Shared test fixtures: where the shared corpora live, and hypothesis profiles.

Tests that need ``../shared/corpora`` use the ``corpora`` fixture or :func:`shared_path`, which skip
cleanly when the data is absent. Optional packages (peer libraries such as ``tokenizers``, ``tiktoken``,
``sentencepiece``; plotting, YAML, Dask, notebooks) are imported with :func:`require`: a missing one skips
the test, unless ``TOOLKIT_REQUIRE_OPTIONAL=1`` (set by ``.ci/run``) turns the skip into a failure, so CI
never passes by accident with a test extra missing.

Test files import these helpers as ``from conftest import ...`` (pytest puts ``tests/`` on ``sys.path``,
with plain ``pytest`` and with ``python -m pytest`` alike).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Collection, Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

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


#: Set to 1 in CI (``.ci/run``): a test whose optional package is missing fails instead of skipping.
REQUIRE_OPTIONAL_ENV = "TOOLKIT_REQUIRE_OPTIONAL"


def optional_required() -> bool:
    """True when missing optional packages are failures (``TOOLKIT_REQUIRE_OPTIONAL`` set, not ``0``)."""
    return os.environ.get(REQUIRE_OPTIONAL_ENV, "").strip() not in ("", "0")


def require(module: str) -> ModuleType:
    """Import the optional package ``module`` a test needs (in place of ``pytest.importorskip``).

    Missing, the test (or the whole file, when called at module level) is skipped; with
    ``TOOLKIT_REQUIRE_OPTIONAL=1`` it fails instead, naming the package and the fix.
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        if optional_required():
            pytest.fail(
                f"optional package {module!r} is missing ({exc}) and {REQUIRE_OPTIONAL_ENV} is set: "
                "install the test extra (pip install -e '.[test]')",
                pytrace=False,
            )
        pytest.skip(f"optional package {module!r} is not installed ({exc})", allow_module_level=True)


def error_of(call: Callable[[], object]) -> tuple[str, str]:
    """The class name and text of the toolkit error that ``call()`` raises, for tests of an error's wording:
    ``assert error_of(lambda: WordLevel({})) == ("ConfigError", "...")``."""
    from toolkit.errors import ToolkitError

    with pytest.raises(ToolkitError) as info:
        call()
    return type(info.value).__name__, str(info.value)


def raises_exactly(kind: type[Exception], message: str, fn: Callable[..., object], *args: object, **kwargs: object) -> None:
    """Assert that ``fn(*args, **kwargs)`` raises ``kind`` with exactly the text ``message``."""
    with pytest.raises(kind) as info:
        fn(*args, **kwargs)
    assert str(info.value) == message


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> object:
    """Under ``TOOLKIT_REQUIRE_OPTIONAL``, a bare ``pytest.importorskip`` that skips fails too."""
    outcome = yield
    _fail_importorskip(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> object:
    outcome = yield
    _fail_importorskip(outcome.get_result())


def _fail_importorskip(report: pytest.TestReport | pytest.CollectReport) -> None:
    if not (report.skipped and optional_required()):
        return
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    if "could not import" in reason:  # the message of pytest.importorskip
        report.outcome = "failed"
        report.longrepr = (
            f"{reason} and {REQUIRE_OPTIONAL_ENV} is set: install the test extra (pip install -e '.[test]')"
        )


#: For tests that fork worker processes on purpose (``"fork"`` forced, or ``batch._threads`` patched to 1)
#: in a test process of pytest-xdist, which has execnet's thread: Python 3.12+ warns that such a child may
#: deadlock. The library itself forks only a process with one thread (``toolkit.batch.start_method``).
forks_with_threads = pytest.mark.filterwarnings(
    r"ignore:This process \(pid=\d+\) is multi-threaded, use of fork\(\) may lead to deadlocks:DeprecationWarning"
)


def record_start_methods(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Spy on ``multiprocessing.get_context`` for one test: the list of the start methods asked for, in order."""
    import multiprocessing

    seen: list[str] = []
    real = multiprocessing.get_context

    def spy(method: str | None = None) -> Any:
        seen.append(str(method))
        return real(method)

    monkeypatch.setattr(multiprocessing, "get_context", spy)
    return seen


def slow_params(values: Iterable[Any], *, default: Collection[Any] | None = None,
                slow: Collection[Any] | None = None) -> list[Any]:
    """``values`` as ``parametrize`` values, those not in ``default`` (or those in ``slow``) marked
    ``slow``: the default run takes a sample, ``-m slow`` the rest (``slow_params(NAMES, slow={"gemma3"})``).
    """
    assert (default is None) != (slow is None), "give default= or slow="
    is_slow = (lambda v: v not in default) if default is not None else (lambda v: v in slow)  # type: ignore[operator]
    return [pytest.param(v, marks=pytest.mark.slow) if is_slow(v) else v for v in values]


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
