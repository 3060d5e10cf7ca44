"""House rules of the code base: no Python file over 800 lines, no function over 80 lines.

The case tables of `spec_impl/vectors/families/` are exempt from the function limit (a family's
`specs()` lists its cases one by one), not from the file limit. A function's length runs from its
first decorator or `def` line to its last line, nested functions included.
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("spec_impl", "conformance", "tests", "benchmarks")
MAX_FILE_LINES = 800
MAX_FUNCTION_LINES = 80
CASE_TABLES = REPO_ROOT / "spec_impl" / "vectors" / "families"


def python_files() -> list[Path]:
    return sorted(p for folder in FOLDERS for p in (REPO_ROOT / folder).rglob("*.py") if ".venv" not in p.parts)


def long_functions(path: Path, root: Path = REPO_ROOT, limit: int = MAX_FUNCTION_LINES) -> list[str]:
    """`path:line name (n lines)` for each function of the file longer than `limit` lines."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            length = node.end_lineno - first + 1
            if length > limit:
                out.append(f"{path.relative_to(root)}:{node.lineno} {node.name} ({length} lines)")
    return out


def test_no_file_over_800_lines():
    long = [
        f"{p.relative_to(REPO_ROOT)} ({n} lines)"
        for p in python_files()
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_FILE_LINES
    ]
    assert long == [], "files over 800 lines:\n" + "\n".join(long)


def test_no_function_over_80_lines_outside_case_tables():
    long = [f for p in python_files() if CASE_TABLES not in p.parents for f in long_functions(p)]
    assert long == [], "functions over 80 lines:\n" + "\n".join(long)


def test_function_length_counts_decorators_and_nested_functions(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(79))
    path = tmp_path / "m.py"
    path.write_text(f"@decorator\ndef f():\n    def g():\n        pass\n{body}\n")
    assert [line.split(" ", 1)[1] for line in long_functions(path, tmp_path)] == ["f (83 lines)"]
