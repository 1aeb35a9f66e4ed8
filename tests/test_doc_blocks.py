"""Every fenced block of README.md and docs/*.md runs as written (the conventions: DOCS_RULE below).

- ```python blocks of one file run in order, in one namespace, in a fresh temporary working directory;
- ```console / ```sh / ```bash / ```shell blocks: each line starting with ``$ `` is a command, run with
  bash in that same directory (``tokenizer-toolkit``, ``python`` and ``make`` on the PATH; a line
  ending in ``\\`` continues on the next); it must exit 0. Other lines are expected output, not compared;
- ```toml / ```json / ```yaml blocks must parse;
- ```text blocks, and any block right after ``<!-- skip: reason -->``, do not run;
- any other info string (or none) is an error: say what the block is.

The working directory holds a link ``examples`` to the repository's ``examples/`` folder, so a
command reads ``examples/configs/bpe.toml`` as it would from a checkout; ``TOOLKIT_REPO`` names the
repository root. The blocks never read ``../shared``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import ROOT

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PYTHON = {"python", "py", "python3"}
SHELL = {"console", "sh", "bash", "shell"}
DATA = {"toml", "json", "yaml"}
QUIET = {"text"}
SKIP = re.compile(r"^<!--\s*skip:\s*(\S.*?)\s*-->$")
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)[^`]*$")
COMMAND_TIMEOUT = 300


@dataclass
class Block:
    file: Path
    line: int  # 1-based line of the opening fence
    info: str
    text: str
    skip: str | None  # the reason given in <!-- skip: reason -->

    @property
    def where(self) -> str:
        name = self.file.relative_to(ROOT) if self.file.is_relative_to(ROOT) else self.file.name
        return f"{name}:{self.line}"


def blocks(path: Path) -> list[Block]:
    """The fenced blocks of a Markdown file, in order (indented fences, as in lists, included)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out: list[Block] = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = m.group(1), m.group(2), m.group(3).lower()
        before = lines[i - 1].strip() if i else ""
        skip = SKIP.match(before)
        body: list[str] = []
        j = i + 1
        while j < len(lines) and not lines[j].strip().startswith(fence):
            line = lines[j]
            body.append(line[len(indent):] if line.startswith(indent) else line.lstrip())
            j += 1
        if j == len(lines):
            raise AssertionError(f"{path}:{i + 1}: the fence opened here is never closed")
        out.append(Block(path, i + 1, info, "\n".join(body) + "\n", skip.group(1) if skip else None))
        i = j + 1
    return out


def commands(text: str) -> list[str]:
    """The ``$ `` lines of a shell block, continuation lines joined."""
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line.startswith("$ "):
            continue
        cmd = line[2:]
        while cmd.rstrip().endswith("\\") and i < len(lines):
            cmd = cmd.rstrip()[:-1] + " " + lines[i].strip()
            i += 1
        out.append(cmd)
    return out


def _environment(cwd: Path) -> dict[str, str]:
    env = dict(os.environ)
    scripts = str(Path(sys.executable).parent)  # the venv holding the console script and this python
    env["PATH"] = scripts + os.pathsep + env.get("PATH", "")
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["TOOLKIT_REPO"] = str(ROOT)
    env["HOME"] = str(cwd / ".home")  # no user configuration (matplotlib, jupyter) leaks in or out
    env["MPLBACKEND"] = "Agg"
    env.pop("TOOLKIT_SHARED", None)
    return env


def _run_shell(block: Block, cwd: Path, env: dict[str, str]) -> None:
    todo = commands(block.text)
    assert todo, (
        f"{block.where}: a {block.info} block without a `$ ` line runs nothing: prefix the commands with `$ `, "
        "or label the block text (or <!-- skip: reason --> before it)"
    )
    for cmd in todo:
        proc = subprocess.run(
            ["bash", "-c", "set -o pipefail\n" + cmd], cwd=cwd, env=env, capture_output=True, text=True,
            timeout=COMMAND_TIMEOUT, check=False,
        )
        assert proc.returncode == 0, (
            f"{block.where}: `{cmd}` exited with {proc.returncode}\nstdout: {proc.stdout[-2000:]}\n"
            f"stderr: {proc.stderr[-2000:]}"
        )


def _check_data(block: Block) -> None:
    try:
        if block.info == "toml":
            tomllib.loads(block.text)
        elif block.info == "json":
            json.loads(block.text)
        else:
            yaml = pytest.importorskip("yaml")
            yaml.safe_load(block.text)
    except Exception as exc:  # noqa: BLE001 - any parse error fails the block, named
        raise AssertionError(f"{block.where}: the {block.info} block does not parse: {exc}") from None


@pytest.fixture(autouse=True)
def _registry_restored() -> Iterator[None]:
    """A doc block may register a component ("Shout" in architecture.md): forget it afterwards, so the
    rest of the suite (the option contract walks every registered component) never sees it."""
    import algorithms  # noqa: F401 - the built-ins register on import: before the snapshot, so they stay
    import pretokenizers  # noqa: F401
    import toolkit.decoders  # noqa: F401
    import toolkit.normalizers  # noqa: F401
    import toolkit.processors  # noqa: F401
    from toolkit import registry

    saved = {kind: dict(table) for kind, table in registry._registry.items()}
    yield
    for kind, table in registry._registry.items():
        table.clear()
        table.update(saved.get(kind, {}))


def run_file(path: Path, cwd: Path, monkeypatch: pytest.MonkeyPatch, *, shell: bool = True) -> int:
    """Run every block of ``path`` in ``cwd`` (``shell=False``: all but the shell blocks); the number run."""
    env = _environment(cwd)
    (cwd / ".home").mkdir()
    (cwd / "examples").symlink_to(ROOT / "examples", target_is_directory=True)
    monkeypatch.chdir(cwd)
    for name in ("TOOLKIT_REPO", "HOME", "MPLBACKEND"):
        monkeypatch.setenv(name, env[name])
    monkeypatch.delenv("TOOLKIT_SHARED", raising=False)
    namespace: dict[str, object] = {"__name__": "__doc_block__"}
    ran = 0
    for block in blocks(path):
        if block.skip is not None or block.info in QUIET:
            continue
        assert "../shared" not in block.text, f"{block.where}: docs never refer to ../shared"
        if block.info in PYTHON:
            code = compile(block.text, block.where, "exec")
            exec(code, namespace)  # noqa: S102 - the documented example, run as written
        elif block.info in SHELL:
            if not shell:
                continue
            _run_shell(block, cwd, env)
        elif block.info in DATA:
            _check_data(block)
        else:
            raise AssertionError(
                f"{block.where}: fenced block with info string {block.info!r}: label it python, console, "
                f"toml, json, yaml or text, or put <!-- skip: reason --> on the line before it"
            )
        ran += 1
    return ran


#: Files whose commands train and compare several tokenizers (over 20 s each): their shell blocks run in
#: the slow set (``make test-slow``, CI); the default set runs the rest of their blocks.
SLOW = {"docs/cli.md", "docs/compare.md"}


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize(
    "path", [pytest.param(p, marks=pytest.mark.slow) if _name(p) in SLOW else p for p in DOCS], ids=[_name(p) for p in DOCS]
)
def test_doc_blocks_run(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run_file(path, tmp_path, monkeypatch)


@pytest.mark.parametrize("path", [p for p in DOCS if _name(p) in SLOW], ids=sorted(SLOW))
def test_doc_blocks_of_slow_files_run_without_their_commands(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run_file(path, tmp_path, monkeypatch, shell=False)
    for block in blocks(path):  # the commands are still checked for form: each block has its `$ ` lines
        if block.info in SHELL and block.skip is None:
            assert commands(block.text), f"{block.where}: a shell block without a `$ ` line runs nothing"


# ---------------------------------------------------------------------------------------- the runner itself
def test_the_runner_sees_every_kind_of_block(tmp_path: Path) -> None:
    doc = tmp_path / "x.md"
    doc.write_text(
        "text\n```python\na = 1\n```\n\n  ```console\n  $ echo hi \\\n    there\n  hi there\n  ```\n"
        "<!-- skip: needs a GPU -->\n```python\nraise SystemExit\n```\n```\nplain\n```\n",
        encoding="utf-8",
    )
    found = [(b.info, b.skip, b.line) for b in blocks(doc)]
    assert found == [("python", None, 2), ("console", None, 6), ("python", "needs a GPU", 12), ("", None, 15)]
    assert commands(blocks(doc)[1].text) == ["echo hi  there"]


def test_the_runner_fails_a_failing_block(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    doc = tmp_path / "x.md"
    work = tmp_path / "work"
    work.mkdir()
    doc.write_text("```python\nx = 1\n```\n```python\nassert x == 2\n```\n", encoding="utf-8")
    with pytest.raises(AssertionError):
        run_file(doc, work, monkeypatch)
    for text, message in [
        ("```console\n$ false\n```\n", "exited with 1"),
        ("```toml\na = [\n```\n", "does not parse"),
        ("```\nsomething\n```\n", "label it"),
        ("```sh\nls\n```\n", "runs nothing"),
        ("```python\nopen('../shared/x')\n```\n", "../shared"),
    ]:
        doc.write_text(text, encoding="utf-8")
        fresh = tmp_path / f"w{len(list(tmp_path.iterdir()))}"
        fresh.mkdir()
        with pytest.raises(AssertionError, match=re.escape(message)):
            run_file(doc, fresh, monkeypatch)


def test_every_doc_has_runnable_blocks_covered() -> None:
    # README and every docs file are collected; nothing under docs/ is forgotten.
    assert {p.name for p in DOCS} >= {"README.md", "cli.md", "compare.md", "algorithms.md", "interop.md"}


def test_the_compare_config_of_the_docs_is_the_shipped_one() -> None:
    shipped = (ROOT / "examples" / "compare.toml").read_text(encoding="utf-8").splitlines()
    while shipped and shipped[0].startswith("#"):  # the header says how to run it
        shipped.pop(0)
    shown = [b for b in blocks(ROOT / "docs" / "compare.md") if b.info == "toml" and "[tokenizers]" in b.text]
    assert [b.text for b in shown] == ["\n".join(shipped) + "\n"]


def test_a_component_a_doc_block_registers_is_forgotten_afterwards() -> None:
    from toolkit.registry import registered

    assert "Shout" not in {name for _, name, _ in registered("normalizer")}
