"""The package layering of docs/architecture.md, checked on the import statements.

Between packages: the engine imports nothing of ours, computers (the levels' catalogue) only the engine, ai_worker
the engine and computers, the web client and the rating model nothing, and the API never the worker (it sends tasks by name).
Inside the API, each room imports only the rooms below it.  Outside the engine, the engine is imported through its
package, ``services/engine/__init__.py`` (CONTRIBUTING: its public surface)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SERVICES = Path(__file__).resolve().parents[1] / "services"
MAY_IMPORT = {
    "engine": set(),
    "computers": {"engine"},
    "ai_worker": {"engine", "computers"},
    "web": set(),
    "ratings": set(),
    "api": {"engine", "computers", "web", "ratings"},
}
# services/api's rooms: the modules on its top floor (app.py, wsgi.py, __init__.py: the composition root)
# may import every room; the shared modules config, problems and metrics import none.
API_SHARED = {"config", "problems", "metrics"}
API_MAY_IMPORT = {
    "store": API_SHARED,
    "games": API_SHARED | {"store"},
    "live": API_SHARED | {"store", "games"},
    "ai_seats": API_SHARED | {"store", "games", "live"},
    "records": API_SHARED | {"store", "games"},
    "lobby": API_SHARED | {"store", "games", "live"},
    "events": API_SHARED | {"store", "games"},
    "players": API_SHARED | {"store", "games", "records"},
    "ratings": API_SHARED | {"store", "records", "players"},
    "http": API_SHARED | {"store", "games", "live", "ai_seats", "records", "lobby", "events", "ratings", "players"},
}
API_ROOT = SERVICES / "api"


def imported_modules(path: Path) -> set[str]:
    """The absolute ``services.…`` modules a module imports (``from services.x import y`` counts as
    ``services.x.y``, since ``y`` may be a module)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("services.")}
        elif (
            isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and node.module.startswith("services.")
        ):
            found |= {f"{node.module}.{a.name}" for a in node.names}
    return found


def imported_packages(path: Path) -> set[str]:
    """Our other packages a module imports."""
    return {name.split(".")[1] for name in imported_modules(path)}


def api_part(module: str) -> str | None:
    """The room or shared module of the API an import names (``services.api.games.x`` → ``games``)."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["services", "api"] else None


@pytest.mark.parametrize("package", sorted(MAY_IMPORT))
def test_each_package_imports_only_what_the_map_allows(package: str):
    wrong = {
        str(path.relative_to(SERVICES)): imported_packages(path) - MAY_IMPORT[package] - {package}
        for path in (SERVICES / package).rglob("*.py")
    }
    assert {path: names for path, names in wrong.items() if names} == {}


def test_every_package_and_api_room_is_in_the_map():
    packages = {p.name for p in SERVICES.iterdir() if (p / "__init__.py").exists()}
    assert packages == set(MAY_IMPORT)
    rooms = {p.name for p in API_ROOT.iterdir() if (p / "__init__.py").exists()}
    assert rooms == set(API_MAY_IMPORT)
    top = {p.stem for p in API_ROOT.glob("*.py")}
    assert top == API_SHARED | {"__init__", "app", "wsgi"}


@pytest.mark.parametrize("room", sorted(API_MAY_IMPORT))
def test_each_api_room_imports_only_the_rooms_below_it(room: str):
    wrong = {}
    for path in (API_ROOT / room).rglob("*.py"):
        parts = {api_part(m) for m in imported_modules(path)} - {None, room}
        if parts - API_MAY_IMPORT[room]:
            wrong[str(path.relative_to(SERVICES))] = parts - API_MAY_IMPORT[room]
    assert wrong == {}


def test_the_shared_api_modules_import_no_room():
    wrong = {
        name: {api_part(m) for m in imported_modules(API_ROOT / f"{name}.py")} - {None} for name in sorted(API_SHARED)
    }
    assert {name: parts for name, parts in wrong.items() if parts} == {}


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
