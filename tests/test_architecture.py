"""The import graph is the architecture (DESIGN.md, "The shape of the code"): it has no cycles, and it
runs one way, dsl -> interpreter -> the tools in rulesc/. Every import counts, a function's own too:
an import put off to run time is still a dependency, and a cycle through one is still a cycle."""

from __future__ import annotations

import pytest

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {"dsl": "rulesc.dsl", "interpreter": "rulesc.interpreter", "rulesc": "rulesc"}
LAYER = {"rulesc.dsl": 0, "rulesc.interpreter": 1, "rulesc": 2}


def _modules() -> dict:
    """Module name -> its file, for every module of the three folders, named as installed."""
    modules = {}
    for folder, package in FOLDERS.items():
        for path in (ROOT / folder).rglob("*.py"):
            parts = [p for p in path.relative_to(ROOT / folder).with_suffix("").parts if p != "__init__"]
            modules[".".join([package, *parts])] = path
    return modules


def _imports(name: str, path: Path, modules: dict) -> set:
    """The modules of ours that `name` imports anywhere in it (the module an imported name lives in)."""
    base = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            module = ".".join(base[:len(base) - node.level + 1] + ([node.module] if node.module else [])) \
                if node.level else node.module or ""
            candidates = [module] + [f"{module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            candidates = [alias.name for alias in node.names]
        else:
            continue
        for candidate in candidates:
            while candidate and candidate not in modules:
                candidate = candidate.rpartition(".")[0]
            if candidate and candidate != name:
                found.add(candidate)
    return found


def _graph() -> dict:
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def _layer(module: str) -> int:
    return max(level for package, level in LAYER.items() if module == package or module.startswith(package + "."))


def _cycles(graph: dict) -> list:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index, low, on_stack, stack, found, counter = {}, {}, set(), [], [], 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for target in edges:
                if target not in index:
                    index[target] = low[target] = counter
                    counter += 1
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
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
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


@pytest.mark.slow
def test_no_module_imports_itself_back():
    graph = _graph()
    assert len(graph) > 50, "the modules were not found"
    assert _cycles(graph) == []


@pytest.mark.slow
def test_imports_run_one_way_from_the_language_to_the_tools():
    wrong = sorted(f"{module} imports {target}" for module, targets in _graph().items() for target in targets
                   if _layer(target) > _layer(module))
    assert wrong == []
