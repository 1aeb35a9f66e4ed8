"""The layering of the three packages, checked on the source: no import cycles, no import against the layers.

Layers (``layer_of``):

- the core: ``toolkit`` and its modules, except the tooling packages below;
- the tooling: ``toolkit.interop``, ``toolkit.training``, ``toolkit.analysis``, ``toolkit.cli`` (and below);
- the plugins: ``algorithms`` and ``pretokenizers``.

Rules (``layering_violations``): the core imports only the core (it reaches the tooling by name through
``toolkit.registry.TOOLS`` and the plugins through the registry's discovery); each plugin package imports only
the core and itself; the tooling imports anything. ``toolkit/__main__.py`` is exempt: it is the entry point
``python -m toolkit`` runs, not a module anything imports. Every import counts: module level, inside functions,
under ``if TYPE_CHECKING:``; relative imports are resolved.

The checker is a few small functions (``build_graph``, ``find_cycles``, ``layering_violations``); the first
tests run them on synthetic code to show that a cycle and a forbidden edge are reported, the last ones on the
real packages.
"""

from __future__ import annotations

import ast
import importlib
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("toolkit", "algorithms", "pretokenizers")
TOOLING = ("toolkit.interop", "toolkit.training", "toolkit.analysis", "toolkit.cli")
# `python -m toolkit` executes toolkit/__main__.py as a script: nothing imports it, so it may import the CLI.
ENTRY_POINTS = ("toolkit.__main__",)
#: Which layers each layer may import.
ALLOWED: dict[str, frozenset[str]] = {
    "core": frozenset({"core"}),
    "algorithms": frozenset({"core", "algorithms"}),
    "pretokenizers": frozenset({"core", "pretokenizers"}),
    "tooling": frozenset({"core", "tooling", "algorithms", "pretokenizers", "entry point"}),
    "entry point": frozenset({"core", "tooling", "algorithms", "pretokenizers", "entry point"}),
}


@dataclass(frozen=True)
class Import:
    """One import statement's edge: ``source`` imports ``target`` (both module names of ours)."""

    source: str
    target: str
    path: str
    line: int
    where: str  # "module level", "in a function", "under TYPE_CHECKING"
    exists: bool = True  # False: names a module of ours that has no file

    def __str__(self) -> str:
        return f"{self.path}:{self.line} ({self.where}): {self.source} imports {self.target}"


# ------------------------------------------------------------------------------------ graph builder
def collect_modules(root: Path, packages: Iterable[str] = PACKAGES) -> dict[str, Path]:
    """Every module of ``packages`` under ``root``: dotted name -> file (``pkg/__init__.py`` is ``pkg``)."""
    modules: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(node: ast.AST, where: str = "module level") -> Iterator[tuple[ast.Import | ast.ImportFrom, str]]:
    """Every import node in ``node`` with where it sits (inside a function wins over TYPE_CHECKING)."""
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        yield node, where
        return
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        where = "in a function"
    elif isinstance(node, ast.If) and _is_type_checking(node.test) and where == "module level":
        for child in node.body:
            yield from _import_nodes(child, "under TYPE_CHECKING")
        for child in node.orelse:
            yield from _import_nodes(child, where)
        return
    for child in ast.iter_child_nodes(node):
        yield from _import_nodes(child, where)


def _absolute(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module a ``from ... import`` names (relative levels resolved against ``module``)."""
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]  # the package that holds the module
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _resolve(name: str, modules: Mapping[str, Path]) -> tuple[str, bool]:
    """The module of ours that ``name`` imports: itself, else its longest existing prefix (not found: False)."""
    if name in modules:
        return name, True
    parts = name.split(".")
    for n in range(len(parts) - 1, 0, -1):
        if ".".join(parts[:n]) in modules:
            return ".".join(parts[:n]), False
    return name, False


def imports_of(module: str, modules: Mapping[str, Path], root: Path) -> list[Import]:
    """The imports of ``module`` that reach a module of ours (other imports are left out)."""
    path = modules[module]
    rel = path.relative_to(root).as_posix()
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    ours = {m.split(".")[0] for m in modules}
    found: list[Import] = []
    for node, where in _import_nodes(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            base = _absolute(module, path.name == "__init__.py", node)
            # `from pkg import sub` imports the module pkg.sub when there is one, else a name of pkg.
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
        for name in names:
            if name.split(".")[0] not in ours:
                continue
            target, exists = _resolve(name, modules)
            # `from pkg import attr` (attr not a module) is fine when pkg exists; `import pkg.missing` is not.
            exists = exists or (isinstance(node, ast.ImportFrom) and target == name.rpartition(".")[0])
            if target != module:
                found.append(Import(module, target if exists else name, rel, node.lineno, where, exists))
    return found


def build_graph(root: Path, packages: Iterable[str] = PACKAGES) -> dict[str, list[Import]]:
    """Module -> its imports of our modules, for every module of ``packages`` under ``root``."""
    modules = collect_modules(root, packages)
    return {m: imports_of(m, modules, root) for m in modules}


def edges(graph: Mapping[str, Iterable[Import]]) -> dict[str, set[str]]:
    """The plain adjacency (module -> imported modules) of a graph of :class:`Import`."""
    return {m: {i.target for i in imports} for m, imports in graph.items()}


# ------------------------------------------------------------------------------------- cycle finder
def _components(adjacency: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """Strongly connected components (Tarjan, iterative so deep graphs do not hit the recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    result: list[list[str]] = []
    for start in sorted(adjacency):
        if start in index:
            continue
        work = [(start, iter(sorted(adjacency.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(adjacency.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                result.append(sorted(component))
    return result


def _shortest_cycle(start: str, members: set[str], adjacency: Mapping[str, Iterable[str]]) -> list[str]:
    """A shortest path start -> ... -> start inside one component (breadth first)."""
    parent: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for child in sorted(adjacency.get(node, ())):
            if child == start:
                path = [node]
                while path[-1] != start:
                    path.append(parent[path[-1]])
                return [*reversed(path), start]
            if child in members and child not in parent:
                parent[child] = node
                queue.append(child)
    raise AssertionError(f"{start} is on no cycle")  # pragma: no cover - components guarantee one


def find_cycles(adjacency: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """One cycle path (``[a, b, ..., a]``) per group of modules that import each other, [] when acyclic."""
    cycles = []
    for component in _components(adjacency):
        first = component[0]
        if len(component) > 1 or first in adjacency.get(first, ()):
            cycles.append(_shortest_cycle(first, set(component), adjacency))
    return cycles


# ------------------------------------------------------------------------------------- rule checker
def layer_of(module: str) -> str:
    """``"core"``, ``"tooling"``, ``"algorithms"``, ``"pretokenizers"`` or ``"entry point"``."""
    if module in ENTRY_POINTS:
        return "entry point"
    if any(module == t or module.startswith(t + ".") for t in TOOLING):
        return "tooling"
    top = module.split(".")[0]
    return "core" if top == "toolkit" else top


def layering_violations(imports: Iterable[Import]) -> list[str]:
    """Every import that goes against :data:`ALLOWED`, or names a module of ours that does not exist."""
    problems = []
    for imp in imports:
        if not imp.exists:
            problems.append(f"{imp}: no such module")
            continue
        source, target = layer_of(imp.source), layer_of(imp.target)
        if target not in ALLOWED[source]:
            problems.append(f"{imp}: the {source} must not import the {target}")
    return problems


def tools_violations(tools: Mapping[str, str]) -> list[str]:
    """Every ``TOOLS`` entry whose ``"module:function"`` is missing or does not live in the tooling."""
    problems = []
    for name, target in sorted(tools.items()):
        module, _, attr = target.partition(":")
        if layer_of(module) != "tooling":
            problems.append(f"TOOLS[{name!r}] = {target!r}: {module} is not in the tooling")
            continue
        try:
            found = getattr(importlib.import_module(module), attr, None)
        except ImportError as exc:
            problems.append(f"TOOLS[{name!r}] = {target!r}: {exc}")
            continue
        if not callable(found):
            problems.append(f"TOOLS[{name!r}] = {target!r}: {module} has no function {attr!r}")
    return problems


def _report_cycles(cycles: list[list[str]]) -> str:
    return "import cycles:\n" + "\n".join("  " + " -> ".join(c) for c in cycles)


# -------------------------------------------------------------------------- the checker on made-up code
def _write(root: Path, files: Mapping[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_builder_collects_every_kind_of_import(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "toolkit/__init__.py": "from toolkit.a import f\n",
            "toolkit/a.py": "import os\nfrom . import b\n",
            "toolkit/b.py": "def g():\n    from .sub import c\n",
            "toolkit/sub/__init__.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..a import f\n",
            "toolkit/sub/c.py": "from toolkit.sub import thing\nimport toolkit.missing\n",
            "algorithms/__init__.py": "from .x import *\n",
            "algorithms/x.py": "import toolkit.a as a\n",
        },
    )
    graph = build_graph(tmp_path)
    assert edges(graph) == {
        "toolkit": {"toolkit.a"},
        "toolkit.a": {"toolkit.b"},
        "toolkit.b": {"toolkit.sub.c"},
        "toolkit.sub": {"toolkit.a"},
        "toolkit.sub.c": {"toolkit.sub", "toolkit.missing"},
        "algorithms": {"algorithms.x"},
        "algorithms.x": {"toolkit.a"},
    }
    where = {(i.source, i.target): i.where for imports in graph.values() for i in imports}
    assert where[("toolkit.b", "toolkit.sub.c")] == "in a function"
    assert where[("toolkit.sub", "toolkit.a")] == "under TYPE_CHECKING"
    assert where[("toolkit.a", "toolkit.b")] == "module level"
    missing = [i for i in graph["toolkit.sub.c"] if not i.exists]
    assert [str(i) for i in missing] == ["toolkit/sub/c.py:2 (module level): toolkit.sub.c imports toolkit.missing"]


def test_cycle_finder_reports_the_cycle_path() -> None:
    acyclic = {"a": {"b", "c"}, "b": {"c"}, "c": set()}
    assert find_cycles(acyclic) == []
    cyclic = {**acyclic, "c": {"d"}, "d": {"b"}, "e": {"e"}}
    assert find_cycles(cyclic) == [["b", "c", "d", "b"], ["e", "e"]]


def test_a_cycle_introduced_in_code_fails(tmp_path: Path) -> None:
    files = {
        "toolkit/__init__.py": "",
        "toolkit/errors.py": "",
        "toolkit/tokenizer.py": "from toolkit.errors import ToolkitError\n",
    }
    _write(tmp_path, files)
    assert find_cycles(edges(build_graph(tmp_path))) == []
    # A lazy import inside a function still closes the cycle.
    _write(tmp_path, {"toolkit/errors.py": "def f():\n    from .tokenizer import Tokenizer\n"})
    cycles = find_cycles(edges(build_graph(tmp_path)))
    assert cycles == [["toolkit.errors", "toolkit.tokenizer", "toolkit.errors"]]
    assert "toolkit.errors -> toolkit.tokenizer -> toolkit.errors" in _report_cycles(cycles)


def test_forbidden_edges_are_reported(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "toolkit/__init__.py": "",
            "toolkit/__main__.py": "from toolkit.cli import main\n",  # the exempt entry point
            "toolkit/tokenizer.py": "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from toolkit.interop import hf_json\n",
            "toolkit/limits.py": "def f():\n    from pretokenizers.split import X\n",
            "toolkit/interop/__init__.py": "",
            "toolkit/interop/hf_json.py": "import algorithms\nimport pretokenizers\nfrom toolkit import tokenizer\n",
            "toolkit/cli/__init__.py": "from toolkit.cli.main import main\n",
            "toolkit/cli/main.py": "",
            "algorithms/__init__.py": "from toolkit.training import corpus\nfrom pretokenizers import Split\n",
            "pretokenizers/__init__.py": "from .split import X\n",
            "pretokenizers/split.py": "from toolkit.tokenizer import Tokenizer\n",
            "toolkit/training/__init__.py": "",
            "toolkit/training/corpus.py": "",
        },
    )
    problems = layering_violations(i for imports in build_graph(tmp_path).values() for i in imports)
    assert sorted(problems) == [
        "algorithms/__init__.py:1 (module level): algorithms imports toolkit.training.corpus: "
        "the algorithms must not import the tooling",
        "algorithms/__init__.py:2 (module level): algorithms imports pretokenizers: "
        "the algorithms must not import the pretokenizers",
        "toolkit/limits.py:2 (in a function): toolkit.limits imports pretokenizers.split: "
        "the core must not import the pretokenizers",
        "toolkit/tokenizer.py:3 (under TYPE_CHECKING): toolkit.tokenizer imports toolkit.interop.hf_json: "
        "the core must not import the tooling",
    ]


def test_tools_must_name_existing_tooling_functions() -> None:
    assert tools_violations({"ok": "toolkit.training.corpus:count_words"}) == []
    assert tools_violations({"core": "toolkit.limits:check_input_size", "gone": "toolkit.cli.main:nothing"}) == [
        "TOOLS['core'] = 'toolkit.limits:check_input_size': toolkit.limits is not in the tooling",
        "TOOLS['gone'] = 'toolkit.cli.main:nothing': toolkit.cli.main has no function 'nothing'",
    ]


# ---------------------------------------------------------------------------------- the real packages


@pytest.fixture(scope="module")
def graph() -> dict[str, list[Import]]:
    return build_graph(ROOT)


def test_the_packages_have_no_import_cycle(graph: dict[str, list[Import]]) -> None:
    cycles = find_cycles(edges(graph))
    assert not cycles, _report_cycles(cycles)


def test_the_packages_respect_the_layers(graph: dict[str, list[Import]]) -> None:
    assert {layer_of(m) for m in graph} == set(ALLOWED), "every layer has modules (the table is not stale)"
    problems = layering_violations(i for imports in graph.values() for i in imports)
    assert not problems, "layering violations:\n" + "\n".join(problems)


def test_tools_table_names_tooling_functions() -> None:
    from toolkit.registry import TOOLS

    problems = tools_violations(TOOLS)
    assert not problems, "\n".join(problems)
