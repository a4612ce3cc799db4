"""docs/architecture.md, the map a newcomer reads first, names nothing that does not exist: every module it cites
(`` `games/pipeline.py` ``) is a file of the repository (or of the library it names: kombu's, Celery's), and every
function or class it cites in a module of the service (`` `games/rematch.release_due` ``,
`` `clocks.after_change` ``) is defined there."""

from __future__ import annotations

import re
from pathlib import Path

import celery
import kombu

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
SOURCES = [
    path
    for folder in ("services", "benchmarks", "testkit", "clients", "tests")
    for path in (ROOT / folder).rglob("*.py")
]
SERVICE = [path for path in SOURCES if path.is_relative_to(ROOT / "services")]
LIBRARIES = [Path(kombu.__file__).parent, Path(celery.__file__).parent]  # their files, cited as such
CITED = re.findall(r"`([^`\s]+)`", DOC.read_text())


def modules(name: str, sources: list[Path] = SOURCES) -> list[Path]:
    """The source files whose path ends with ``name`` + ``.py`` (``games/rematch``, ``clocks``)."""
    return [path for path in sources if path.as_posix().endswith(f"/{name}.py")]


def in_library(name: str) -> bool:
    return any((library / name).is_file() for library in LIBRARIES)


def test_every_module_it_cites_exists():
    files = [name for name in CITED if re.fullmatch(r"[\w/]+\.py", name)]
    missing = [name for name in files if not modules(name[:-3]) and not in_library(name)]
    assert not missing, f"docs/architecture.md cites modules that do not exist: {sorted(set(missing))}"


def test_every_function_or_class_it_cites_in_a_module_is_defined_there():
    missing = []
    for name in CITED:
        found = re.fullmatch(r"([\w/]+)\.(\w+)", name)
        if not found or found.group(2) == "py" or not modules(found.group(1), SERVICE):
            continue  # not a member of a module of the service (a task's name, a setting, a Redis key)
        module, member = found.groups()
        defined = rf"^\s*(def|class|async def) {member}\b|^\s*{member}\s*[:=]"
        if not any(re.search(defined, path.read_text(), re.M) for path in modules(module, SERVICE)):
            missing.append(name)
    assert not missing, f"docs/architecture.md cites names no module defines: {sorted(set(missing))}"


def test_the_long_modules_are_the_files_over_300_lines_with_their_lengths():
    """The "Long modules" paragraph names every module of ``services/`` and ``clients/`` over 300 lines, with its
    length: a module that grows past it, or shrinks under, is listed or dropped with its reason."""
    paragraph = DOC.read_text().split("## Long modules", 1)[1].split("\n## ", 1)[0]
    cited = {name: int(lines) for name, lines in re.findall(r"`([\w/]+\.py)` \((\d+):", paragraph)}
    long = {}
    for path in [*SERVICE, *(ROOT / "clients").rglob("*.py")]:
        count = len(path.read_text().splitlines())
        if count > 300 and "node_modules" not in path.parts:
            long[path] = count
    named = {}
    for name, lines in cited.items():
        found = modules(name[:-3], list(long)) or modules(name[:-3])
        assert len(found) == 1, f"{name} names {len(found)} modules"
        named[found[0]] = lines
    assert named == long
