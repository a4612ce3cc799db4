"""Who may import testkit and benchmarks: tests and benchmark commands share testkit; only the tests of a
benchmark command (tests/benchmarks) import that command; the service imports neither, since the image
holds ``services`` alone."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def top_level_imports(path: Path) -> set[str]:
    """The top-level package of every absolute import in a module."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def importers(directory: str, package: str, exempt: str | None = None) -> list[str]:
    return sorted(
        str(path.relative_to(ROOT))
        for path in (ROOT / directory).rglob("*.py")
        if not (exempt and path.is_relative_to(ROOT / exempt)) and package in top_level_imports(path)
    )


def test_only_the_tests_of_benchmark_commands_import_benchmarks():
    assert importers("tests", "benchmarks", exempt="tests/benchmarks") == []


def test_testkit_imports_no_benchmark_and_no_test():
    assert importers("testkit", "benchmarks") == []
    assert importers("testkit", "tests") == []


def test_the_service_imports_neither_testkit_nor_benchmarks():
    assert importers("services", "testkit") == []
    assert importers("services", "benchmarks") == []


def test_the_checks_see_the_imports_they_forbid():
    assert "testkit" in top_level_imports(ROOT / "tests" / "conftest.py")
    assert "benchmarks" in top_level_imports(ROOT / "tests" / "benchmarks" / "test_api.py")
