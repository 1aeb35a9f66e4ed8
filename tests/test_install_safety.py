"""Another project's ``algorithms`` or ``pretokenizers`` package is reported, not silently used.

PyPI has unrelated distributions that install a top-level ``algorithms`` package; installed after the
toolkit it overwrites or shadows ours, and then ``from algorithms import BPE`` fails and no algorithm is
registered. ``toolkit.registry.check_installation`` (run at ``import toolkit`` and before discovery) names
the foreign package, its file, the distribution that installed it and the fix.

Each scenario runs in a subprocess whose ``sys.path`` starts with a fake package made in ``tmp_path`` (the
subprocess runs in ``tmp_path`` too, so the checkout is not first on the path by accident).
"""

from __future__ import annotations

import importlib.machinery
import os
import subprocess
import sys
from pathlib import Path

import pytest

import toolkit.registry as registry
from toolkit.errors import ToolkitError

ROOT = Path(__file__).resolve().parent.parent
FIX = "pip install --force-reinstall tokenizer-toolkit"


def _fake_package(folder: Path, name: str, text: str = "VERSION = '0.1'\n") -> Path:
    init = folder / name / "__init__.py"
    init.parent.mkdir(parents=True)
    init.write_text(text, encoding="utf-8")
    return init


def _fake_distribution(folder: Path, dist: str, package: str) -> Path:
    """An installed distribution ``dist`` (a ``.dist-info`` folder) that owns ``package``."""
    init = _fake_package(folder, package)
    info = folder / f"{dist.replace('-', '_')}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n", encoding="utf-8")
    (info / "top_level.txt").write_text(f"{package}\n", encoding="utf-8")
    (info / "RECORD").write_text(f"{package}/__init__.py,,\n{info.name}/METADATA,,\n", encoding="utf-8")
    return init


def _run(code: str, first_on_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(first_on_path), str(ROOT)])}
    return subprocess.run(
        [sys.executable, *(args or ("-c", code))], cwd=first_on_path, env=env, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize("name", registry.PLUGIN_PACKAGES)
def test_import_toolkit_names_a_foreign_package_and_the_fix(tmp_path: Path, name: str) -> None:
    init = _fake_package(tmp_path, name)
    result = _run("import toolkit", tmp_path)
    assert result.returncode == 1
    message = result.stderr.strip().splitlines()[-1]
    assert message.startswith("toolkit.errors.ToolkitError: ")
    assert f"the {name!r} package that Python imports is not tokenizer-toolkit's" in message
    assert str(init) in message and "which no installed distribution claims" in message
    assert f"remove or rename {init.parent}" in message and FIX in message


def test_the_distribution_that_installed_it_is_named(tmp_path: Path) -> None:
    init = _fake_distribution(tmp_path, "fake-algorithms", "algorithms")
    result = _run("import toolkit", tmp_path)
    assert result.returncode == 1
    message = result.stderr.strip().splitlines()[-1]
    assert f"it is {init}, installed by the distribution fake-algorithms" in message
    assert f"Fix: pip uninstall fake-algorithms, then {FIX}" in message


def test_the_command_line_stops_with_the_message(tmp_path: Path) -> None:
    _fake_package(tmp_path, "algorithms")
    result = _run("", tmp_path, "-m", "toolkit", "--help")
    assert result.returncode == 1
    assert "not tokenizer-toolkit's" in result.stderr and FIX in result.stderr


def test_discovery_checks_a_package_put_on_the_path_later(tmp_path: Path) -> None:
    _fake_package(tmp_path / "late", "pretokenizers")
    code = (
        "import sys, toolkit\n"
        f"sys.path.insert(0, {str(tmp_path / 'late')!r})\n"
        "from toolkit.registry import lookup\n"
        "try:\n    lookup('model', 'BPE')\n"
        "except toolkit.ToolkitError as exc:\n    print(exc)\n"
    )
    result = _run(code, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "the 'pretokenizers' package that Python imports is not tokenizer-toolkit's" in result.stdout


def test_discovery_checks_the_imported_module_itself(tmp_path: Path) -> None:
    # Its source mentions the marker (so the cheap check passes) but the module does not set it.
    _fake_package(tmp_path, "algorithms", "__tokenizer_toolkit__ = False\n")
    code = (
        "import toolkit\nfrom toolkit.registry import lookup\n"
        "try:\n    lookup('model', 'BPE')\n"
        "except toolkit.ToolkitError as exc:\n    print(exc)\n"
    )
    result = _run(code, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "the 'algorithms' package that Python imports is not tokenizer-toolkit's" in result.stdout


def test_a_plain_folder_of_the_same_name_is_harmless(tmp_path: Path) -> None:
    (tmp_path / "algorithms").mkdir()  # no __init__.py: our regular package still wins
    result = _run("import toolkit\nfrom algorithms import BPE\nprint(BPE.__module__)", tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "algorithms.bpe"


def test_a_namespace_package_instead_of_ours_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = importlib.machinery.ModuleSpec("algorithms", None, is_package=True)
    spec.submodule_search_locations = ["/somewhere/algorithms"]
    monkeypatch.delitem(sys.modules, "algorithms", raising=False)
    monkeypatch.setattr(registry.importlib.util, "find_spec", lambda name: spec if name == "algorithms" else None)
    with pytest.raises(ToolkitError, match=r"it is the folder\(s\) /somewhere/algorithms, which no installed"):
        registry.check_installation()


def test_this_installation_passes() -> None:
    registry.check_installation()
    assert all(registry._foreign_origin(name) is None for name in registry.PLUGIN_PACKAGES)
