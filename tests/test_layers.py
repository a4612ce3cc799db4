"""The package layering of docs/architecture.md: engine imports nothing of ours,
players only the engine, ai_worker the engine and players, and the API never
the worker (it sends tasks by name)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SERVICES = Path(__file__).resolve().parents[1] / "services"
MAY_IMPORT = {
    "engine": set(),
    "players": {"engine"},
    "ai_worker": {"engine", "players"},
    "web": set(),
    "api": {"engine", "players", "web"},
}


def imported_packages(path: Path) -> set[str]:
    """Our other packages a module imports (absolute ``services.<package>`` imports)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        found |= {name.split(".")[1] for name in names if name.startswith("services.") and "." in name}
    return found


@pytest.mark.parametrize("package", sorted(MAY_IMPORT))
def test_each_package_imports_only_what_the_map_allows(package: str):
    wrong = {
        str(path.relative_to(SERVICES)): imported_packages(path) - MAY_IMPORT[package] - {package}
        for path in (SERVICES / package).rglob("*.py")
    }
    assert {path: names for path, names in wrong.items() if names} == {}
