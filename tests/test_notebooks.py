"""The notebooks in examples/notebooks run from top to bottom, with and without ../shared/corpora.

They are stored without outputs and executed here with nbclient on a Jupyter kernel, so they can
never rot. ``TOOLKIT_NOTEBOOK_QUICK=1`` makes them read less text (same cells, same lessons), and
``TOOLKIT_SHARED`` pointing nowhere exercises the fallback to text shipped with Python.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from conftest import CORPORA, ROOT, require

NOTEBOOKS = ROOT / "examples" / "notebooks"
NAMES = ["compare_algorithms.ipynb", "build_a_pipeline.ipynb", "llm_tokenizers.ipynb"]
TIME_LIMIT = 300.0  # seconds per cell: a hang fails, a slow shared machine does not
# llm_tokenizers.ipynb with ../shared loads the 128k-262k token LLM tokenizers: more time per cell.
LLM_TIME_LIMIT = 900.0


def test_the_notebooks_exist_and_are_stored_without_outputs() -> None:
    nbformat = require("nbformat")
    assert sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")) == sorted(NAMES)
    for name in NAMES:
        nb = nbformat.read(NOTEBOOKS / name, as_version=4)
        nbformat.validate(nb)
        code = [c for c in nb.cells if c.cell_type == "code"]
        assert code, name
        assert all(c.outputs == [] and c.execution_count is None for c in code), f"{name} has stored outputs"
        assert sum(c.cell_type == "markdown" for c in nb.cells) >= len(code) // 2, f"{name}: explain the code"


def _kernel(folder: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A kernel spec running this interpreter, so a user-level "python3" kernel can never be picked."""
    spec = folder / "kernels" / "tokenizer-toolkit-test"
    spec.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    (spec / "kernel.json").write_text(json.dumps({"argv": argv, "display_name": "test", "language": "python"}))
    monkeypatch.setenv("JUPYTER_PATH", str(folder))
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(folder / "runtime"))
    return spec.name


# Every notebook runs on its fallback data in the default set, and on the shared corpora in -m slow
# (the same cells on larger files: the costliest tests of the default set before). The comparison
# notebook trains four algorithms eleven times even on its fallback data (about 22 s): it runs in
# -m slow both ways.
_SLOW_EVEN_ON_FALLBACK = ("compare_algorithms.ipynb",)
CASES = [pytest.param(name, data, marks=[pytest.mark.slow] * (data == "shared" or name in _SLOW_EVEN_ON_FALLBACK))
         for name in NAMES for data in ("shared", "fallback")]


@pytest.mark.parametrize("name,data", CASES)
def test_notebook_runs(name: str, data: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    nbformat = require("nbformat")
    nbclient = require("nbclient")
    require("ipykernel")
    require("matplotlib")
    if data == "shared" and not CORPORA.is_dir():
        pytest.skip(f"shared corpora folder is absent ({CORPORA})")
    monkeypatch.setenv("TOOLKIT_NOTEBOOK_QUICK", "1")
    if data == "fallback":
        monkeypatch.setenv("TOOLKIT_SHARED", str(ROOT / "no-such-folder"))
    else:
        monkeypatch.setenv("TOOLKIT_SHARED", str(CORPORA.parent))
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    limit = LLM_TIME_LIMIT if (name, data) == ("llm_tokenizers.ipynb", "shared") else TIME_LIMIT
    client = nbclient.NotebookClient(
        nb, timeout=limit, kernel_name=_kernel(tmp_path, monkeypatch), resources={"metadata": {"path": str(NOTEBOOKS)}}
    )
    client.execute()  # TIME_LIMIT per cell guards against a hang; no wall-clock assertion (a loaded machine)
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    shown = [o["data"] for o in outputs if "data" in o]
    expected_source = "absent, using text shipped with Python" if data == "fallback" else str(CORPORA)
    if name == "compare_algorithms.ipynb":
        assert expected_source in text
        # fertility, bytes/token, token lengths, sweep; bytes/token of the four-language tokenizers
        assert sum("image/png" in d for d in shown) == 5
        assert any('class="tkv"' in d.get("text/html", "") for d in shown)  # the token view
        reports = [d["text/html"] for d in shown if 'class="tkc-report"' in d.get("text/html", "")]
        assert len(reports) == 3  # English-trained, the sweep, then trained on the four languages
        for algorithm in ("BPE", "byte-level BPE", "WordPiece", "Unigram"):
            assert all(algorithm in report for report in reports), algorithm
        assert "Bytes/token by language" in reports[2] and "Fertility by language" in reports[2]
        for lang in ("en", "fr", "th", "zh"):
            assert f"training {lang}: " in text and f"  {lang}: BPE " in text, lang
        assert text.count("single characters)") == 4  # the four multilingual vocabularies
        assert "×3" in text  # byte-level BPE spends 3 tokens on each Chinese character
    elif name == "llm_tokenizers.ipynb":
        _check_llm_notebook(text, shown, data)
    else:
        assert "reloaded: same ids, same JSON" in text
        assert ("GPT-2: 50,257 tokens" in text) == (data == "shared")
        assert any('class="tkv"' in d.get("text/html", "") for d in shown)


def _check_llm_notebook(text: str, shown: list, data: str) -> None:
    assert "Children learn languages faster than adults." in text  # the parallel sample
    assert sum("image/png" in d for d in shown) == 3  # parity, Rényi efficiency by language, efficiency sweep
    report = next(d["text/html"] for d in shown if 'class="tkc-report"' in d.get("text/html", ""))
    assert "Parity by language" in report and "Rényi eff." in report and "Never-used tokens" in report
    assert "checked" in text and "unreachable" in text
    if data == "fallback":
        assert "absent, using text shipped with Python" in text and "ours (16k)" in text
        return
    # The LLM tokenizers that load today are in the comparison; the others are named with the reason.
    for name in ("GPT-4o", "Llama 3", "Qwen3", "Gemma 3"):
        loaded = f"{name}: " in text and "tokens (" in text.split(f"{name}: ", 1)[1].split("\n", 1)[0]
        assert loaded == (name in report), name
        if not loaded:
            assert f"{name}: not loaded: " in text, name
    assert "GPT-4o" in report and "Llama 3" in report  # these two load today


def test_notebooks_write_nothing_into_the_repository() -> None:
    # They write into a temporary folder only; a stray file would show up here.
    assert sorted(p.name for p in NOTEBOOKS.iterdir() if not p.name.startswith(".")) == sorted(NAMES)
    assert not list(Path(NOTEBOOKS).glob("*.json"))


def _markdown(name: str) -> list[str]:
    nb = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]


def _code(name: str) -> list[str]:
    nb = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]


@pytest.mark.parametrize("name", NAMES)
def test_the_files_the_notebooks_name_exist(name: str) -> None:
    # "Try it yourself" and the explanations name files a reader can open: shipped ones exist, and the
    # out/corpus/ ones are what `python examples/demo.py --write-corpus` writes.
    import importlib.util

    spec = importlib.util.spec_from_file_location("demo", ROOT / "examples" / "demo.py")
    demo = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(demo)  # type: ignore[union-attr]
    written = {str(demo.CORPUS), str(demo.HELD_OUT)}
    text = "\n".join(_markdown(name))
    outputs = tuple(f"{folder}/" for folder in re.findall(r" -o (\S+)", text))  # what a command shown writes
    for path in re.findall(r"(?<![\w/])((?:examples|out)/[\w./-]*\.\w+)", text):
        ok = (ROOT / path).exists() or path in written or path.startswith(outputs)
        assert ok, f"{name} names {path}, which does not exist"
    assert "held_out.txt" not in text


def test_without_shared_corpora_the_languages_are_real_sentences() -> None:
    code = "\n".join(_code("compare_algorithms.ipynb"))
    assert "* 20" not in code and 'examples" / "data"' in code
    for lang in ("fr", "zh", "th"):
        lines = (ROOT / "examples" / "data" / f"{lang}.txt").read_text(encoding="utf-8").splitlines()
        assert len(lines) >= 15 and len(set(lines)) == len(lines), lang


@pytest.mark.parametrize("name", NAMES)
def test_where_unks_are_skipped_in_decoding_the_text_says_so(name: str) -> None:
    nb = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))
    cells = nb["cells"]
    for i, cell in enumerate(cells):
        if cell["cell_type"] == "code" and "skip_special_tokens=True" in "".join(cell["source"]):
            after = next("".join(c["source"]) for c in cells[i + 1:] if c["cell_type"] == "markdown")
            assert "[UNK]" in after and "skip_special_tokens" in after, f"{name}: cell {i} skips [UNK] silently"
