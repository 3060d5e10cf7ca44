"""The layers of the code base, read with `ast` (issue: a house for the next engines).

- the reference (`spec_impl`) never imports the suite (`conformance`): the suite judges engines
  against the reference, never the other way round;
- no import cycle between modules of either package. Imports inside functions count too: a
  deferred import hides a cycle, it does not break it.

A module `a.b` imports `x.y` for `import x.y`, and `x.y.z` or `x.y` for `from x.y import z`
(the submodule when `z` is one, else the module that defines it). The parent packages that
Python runs on the way are not counted: a package's `__init__` is a module like the others.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("spec_impl", "conformance")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO_ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    """Every module of the packages: dotted name -> file."""
    return {_module_name(p): p for pkg in PACKAGES for p in sorted((REPO_ROOT / pkg).rglob("*.py"))}


def _imported_names(tree: ast.AST, module: str, is_package: bool) -> Iterator[tuple[str, list[str]]]:
    """(module named, names taken from it) for every import statement, relative ones resolved."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, []
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".")
                anchor = anchor[: len(anchor) - node.level + (1 if is_package else 0)]
                base = ".".join(anchor + ([base] if base else []))
            yield base, [a.name for a in node.names]


def import_graph() -> dict[str, set[str]]:
    """module -> the modules of the packages it imports."""
    known = modules()
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        edges: set[str] = set()
        for target, names in _imported_names(tree, name, path.name == "__init__.py"):
            submodules = [f"{target}.{n}" for n in names if f"{target}.{n}" in known]
            if submodules:
                edges.update(submodules)
            if target in known and len(submodules) < len(names) or (not names and target in known):
                edges.add(target)
        edges.discard(name)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def test_the_reference_never_imports_the_suite():
    graph = import_graph()
    back_edges = sorted(
        f"{m} -> {t}"
        for m, targets in graph.items()
        if m.split(".")[0] == "spec_impl"
        for t in targets
        if t.split(".")[0] == "conformance"
    )
    assert back_edges == [], "spec_impl imports conformance:\n" + "\n".join(back_edges)


def test_no_import_cycle_between_modules():
    found = cycles(import_graph())
    message = "\n".join(" <-> ".join(c) for c in found)
    assert found == [], f"{len(found)} import cycle(s):\n{message}"


def test_cycles_are_found_with_their_modules():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"f"}, "f": {"e"}}
    assert cycles(graph) == [["a", "b", "c"], ["e", "f"]]


def test_relative_and_deferred_imports_count():
    tree = ast.parse("def f():\n    from .tables import x\n    from . import golden\n")
    named = list(_imported_names(tree, "spec_impl.vectors.rule_index", is_package=False))
    assert named == [("spec_impl.vectors.tables", ["x"]), ("spec_impl.vectors", ["golden"])]
