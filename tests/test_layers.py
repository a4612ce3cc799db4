"""The package layering of docs/architecture.md: engine imports nothing of ours,
players only the engine, ai_worker the engine and players, and the API never
the worker (it sends tasks by name); and the engine only through its package,
``services/engine/__init__.py`` (CONTRIBUTING: its public surface)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SERVICES = Path(__file__).resolve().parents[1] / "services"
MAY_IMPORT = {
    "engine": set(),
    "players": {"engine"},
    "ai_worker": {"engine", "players"},
    "api": {"engine", "players"},
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


ENGINE = SERVICES / "engine"
ENGINE_MODULES = {p.stem for p in ENGINE.iterdir() if p.suffix == ".py" or (p / "__init__.py").exists()} - {"__init__"}


def engine_internals(source: str) -> set[str]:
    """The engine modules ``source`` imports past the package: ``services.engine.<module>`` by
    name, or a module as a name of ``services.engine``."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("services.engine.")}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.startswith("services.engine."):
                found.add(node.module)
            elif node.module == "services.engine":
                found |= {f"services.engine.{a.name}" for a in node.names if a.name in ENGINE_MODULES}
    return found


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("from services.engine import view, Bid", set()),
        ("import services.engine", set()),
        ("from services.engine.cards import codes", {"services.engine.cards"}),
        ("import services.engine.state as state", {"services.engine.state"}),
        ("from services.engine import views, turn", {"services.engine.views"}),
        ("def f():\n    from services.engine.rules import Rules", {"services.engine.rules"}),
    ],
)
def test_engine_internals_finds_every_way_past_the_package(source: str, found: set[str]):
    assert engine_internals(source) == found


def test_the_other_packages_import_the_engine_only_through_its_package():
    wrong = {
        str(path.relative_to(SERVICES)): engine_internals(path.read_text(encoding="utf-8"))
        for path in SERVICES.rglob("*.py")
        if not path.is_relative_to(ENGINE)
    }
    assert {path: names for path, names in wrong.items() if names} == {}
