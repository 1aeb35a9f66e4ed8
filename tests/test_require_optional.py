"""The CI switch for optional packages: ``TOOLKIT_REQUIRE_OPTIONAL=1`` turns "package missing" skips into
failures (``require`` and bare ``pytest.importorskip`` alike) and leaves every other skip alone.

Each case runs pytest in a subprocess on a small test file in which a package is made missing
(``sys.modules[name] = None`` makes its import fail), with tests/conftest.py loaded as a plugin.
"""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path


from conftest import REQUIRE_OPTIONAL_ENV, ROOT

FAKE = "sys.modules['sentencepiece'] = None  # installed or not, importing it now fails\n"

CASES = {
    "in_test": FAKE + "def test_x():\n    require('sentencepiece')\n",
    "module_level": FAKE + "spm = require('sentencepiece')\n\ndef test_x():\n    pass\n",
    "importorskip": FAKE + "def test_x():\n    pytest.importorskip('sentencepiece')\n",
    "present": "def test_x():\n    assert require('json').loads('1') == 1\n",
    "shared_absent": "def test_x():\n    shared_path('nothing/here.txt')\n",
}


def _run(tmp_path: Path, required: bool) -> tuple[int, dict[str, tuple[str, str]], str]:
    """Run every case in one pytest process: (exit code, {case: (outcome, message)}, output)."""
    folder = tmp_path / ("required" if required else "local")
    folder.mkdir()
    for case, body in CASES.items():
        (folder / f"test_{case}.py").write_text(
            "import sys\n\nimport pytest\n\nfrom conftest import require, shared_path\n\n" + body, encoding="utf-8"
        )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), str(ROOT)]),
           "TOOLKIT_SHARED": str(tmp_path / "absent")}
    env.pop(REQUIRE_OPTIONAL_ENV, None)
    if required:
        env[REQUIRE_OPTIONAL_ENV] = "1"
    junit = folder / "junit.xml"
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "conftest", "-p", "no:cacheprovider", "-o", "addopts=", "-q",
         "--continue-on-collection-errors", "--rootdir", str(folder), f"--junitxml={junit}", str(folder)],
        cwd=folder, env=env, capture_output=True, text=True, timeout=300,
    )
    results = {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        name = (case.get("classname") or case.get("name", "")).split(".")[-1].removeprefix("test_")
        outcome, message = "passed", ""
        for child in case:
            if child.tag in ("skipped", "failure", "error"):
                outcome, message = child.tag, (child.get("message") or "") + (child.text or "")
        results[name] = (outcome, message)
    return proc.returncode, results, proc.stdout + proc.stderr


def test_a_missing_optional_package_skips_locally(tmp_path: Path) -> None:
    code, results, out = _run(tmp_path, required=False)
    assert code == 0, out
    for case in ("in_test", "module_level", "importorskip", "shared_absent"):
        assert results[case][0] == "skipped", (case, results)
    assert "sentencepiece" in results["in_test"][1] and "sentencepiece" in results["importorskip"][1]
    assert results["present"][0] == "passed", results


def test_a_missing_optional_package_fails_in_ci(tmp_path: Path) -> None:
    code, results, out = _run(tmp_path, required=True)
    assert code == 1, out
    for case in ("in_test", "module_level", "importorskip"):
        outcome, message = results[case]
        assert outcome in ("failure", "error"), (case, results)
        assert "sentencepiece" in message and REQUIRE_OPTIONAL_ENV in message, (case, message)
        assert "pip install -e '.[test]'" in message, (case, message)
    assert results["present"][0] == "passed", results
    # Shared data absent is not a missing package: it stays a skip (CI has ../shared beside the clone).
    assert results["shared_absent"][0] == "skipped" and "shared corpus file" in results["shared_absent"][1]
