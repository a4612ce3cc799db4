"""The test release ("new"): a copy of the current tree with the four things a release adds that an old process
must meet, applied as an overlay (:data:`ADDED` files from ``testkit/release/next/`` and :data:`EDITS`, each an
exact text of the tree replaced once: an edit whose text the tree no longer has fails the build and names it).

1. **a stored field**: ``meta.stamp`` on every commit (``next/stamps.py``, called from the pipeline's commit);
2. **an event type**: ``stamped`` in the log of every move it commits (listed in ``event_types.TYPES``);
3. **a Celery task argument**: ``deadline_ms`` on every ``ai.decide`` its API sends (when the turn's deadline
   falls), which its worker reads, defaults when absent (an old API's task) and echoes with ``late_ms``;
4. **a records migration with a backfill**: ``game_records.rounds`` (each record's finished rounds) added
   nullable and backfilled (``next/release_expand.py``, applied at start), written by its records writer, made
   NOT NULL by the contract step (``next/release_contract.py``, ``contract = True``: ``--contract`` only).

The copy lives at a fixed path (``var/release/next`` under the checkout, ignored by git) and is synced, not
made afresh: a file whose content is unchanged keeps its modification time, so Python's bytecode and numba's
kernel cache (keyed by each source file's path and modification time) stay warm from one run to the next;
:func:`seed_kernel_cache` copies the current tree's compiled kernels there (the kernel files are identical), so
even its first worker does not compile them for minutes.
"""

from __future__ import annotations

import filecmp
import hashlib
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from services.ai_worker.kernel_cache import kernel_cache_dir

from ..processes import ROOT

NEXT = Path(__file__).with_name("next")
TREE_PARTS = ("services", "gunicorn.conf.py", "openapi.yaml")  # what an API server and a worker run from
DEFAULT_TARGET = ROOT / "var" / "release" / "next"
MIGRATIONS = Path("services/api/records/migrations/versions")


@dataclass(frozen=True)
class Edit:
    """``old`` in ``path`` (exactly once) becomes ``new``."""

    path: str
    old: str
    new: str


ADDED = {
    "services/api/games/stamps.py": "stamps.py",
    str(MIGRATIONS / "release_expand.py"): "release_expand.py",
    str(MIGRATIONS / "release_contract.py"): "release_contract.py",
}

EDITS = (
    # 1 and 2: the pipeline stamps every commit, and says a move's stamp in the log
    Edit(
        "services/api/games/pipeline.py",
        "from services.api.games.record import GameRecord\n",
        "from services.api.games import stamps\nfrom services.api.games.record import GameRecord\n",
    ),
    Edit(
        "services/api/games/pipeline.py",
        "    events += change.entries(nxt)\n",
        "    events += change.entries(nxt)\n    events += stamps.stamped(nxt, before, change.by)\n",
    ),
    Edit(
        "services/api/games/event_types.py",
        "BY_NAME = {kind.name: kind for kind in TYPES}\n",
        'TYPES = (*TYPES, EventType("stamped"))\nBY_NAME = {kind.name: kind for kind in TYPES}\n',
    ),
    # 3: the API sends the turn's deadline; the worker reads it, defaults it, echoes it
    Edit(
        "services/api/ai_seats/dispatch.py",
        '                "seed": decision_seed(record.state.seed, record.version, attempts),\n',
        '                "seed": decision_seed(record.state.seed, record.version, attempts),\n'
        '                "deadline_ms": round((now + self.deadline) * 1000),\n',
    ),
    Edit(
        "services/ai_worker/tasks.py",
        "    request_id: str | None = None\n",
        "    request_id: str | None = None\n    deadline_ms: int | None = None  # the test release's argument\n",
    ),
    Edit(
        "services/ai_worker/tasks.py",
        'lambda: {"level": level, "move": decide(asked.view, level, asked.seed)})',
        'lambda: {"level": level, "move": decide(asked.view, level, asked.seed), **_deadline(asked)})\n\n\n'
        "def _deadline(asked: Request) -> dict[str, Any]:\n"
        '    """The test release: the deadline it was sent (None: an old API sent none) and how late it is."""\n'
        "    late = None if asked.deadline_ms is None else max(0, round(time.time() * 1000) - asked.deadline_ms)\n"
        '    return {"deadline_ms": asked.deadline_ms, "late_ms": late}',
    ),
    # 4: the records' new column, written with every record
    Edit(
        "services/api/records/schema.py",
        '    Column("hidden", Boolean, nullable=False, server_default=false()),',
        '    Column("rounds", Integer, nullable=True),  # the test release: the record\'s finished rounds\n'
        '    Column("hidden", Boolean, nullable=False, server_default=false()),',
    ),
    Edit(
        "services/api/records/repository.py",
        '            "hidden": document["outcome"] != FINISHED,\n',
        '            "hidden": document["outcome"] != FINISHED,\n            "rounds": len(document["rounds"]),\n',
    ),
)


class OverlayError(RuntimeError):
    """An edit no longer applies to the tree (its text changed): the overlay must follow it."""


def tree_files(root: Path = ROOT) -> list[str]:
    """The files of the current tree the service runs from: tracked or new (not ignored), as they are on disk."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z", "--", *TREE_PARTS],
        cwd=root, capture_output=True, check=True,
    ).stdout.decode()  # fmt: skip
    return sorted(name for name in listed.split("\0") if name and (root / name).is_file())


def patched(text: str, edits: list[Edit]) -> str:
    for edit in edits:
        count = text.count(edit.old)
        if count != 1:
            raise OverlayError(f"{edit.path}: the text to replace is there {count} times, not once: {edit.old!r}")
        text = text.replace(edit.old, edit.new)
    return text


def _write(path: Path, text: str) -> None:
    """``text`` into ``path`` unless it holds it already (its modification time kept then)."""
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def migration_head(root: Path) -> str:
    """The tree's newest migration (the one no other revises)."""
    revises: dict[str, str | None] = {}
    for path in (root / MIGRATIONS).glob("*.py"):
        text = path.read_text(encoding="utf-8")
        revision = re.search(r'^revision = "([^"]+)"', text, re.M)
        down = re.search(r'^down_revision = (?:"([^"]+)"|None)', text, re.M)
        if revision and down:
            revises[revision.group(1)] = down.group(1)
    heads = set(revises) - {down for down in revises.values() if down}
    if len(heads) != 1:
        raise OverlayError(f"the tree's migrations have {len(heads)} heads: {sorted(heads)}")
    return heads.pop()


def build(target: Path = DEFAULT_TARGET, root: Path = ROOT, seed_kernels: bool = True) -> Path:
    """The test release's tree at ``target``, synced with ``root``'s (see the module docstring); ``seed_kernels``:
    with ``root``'s compiled kernels."""
    files = tree_files(root)
    head = migration_head(root)
    by_path: dict[str, list[Edit]] = {}
    for edit in EDITS:
        by_path.setdefault(edit.path, []).append(edit)
    wanted = set(files) | set(ADDED)
    for name in files:
        source, copy = root / name, target / name
        if name in by_path:
            _write(copy, patched(source.read_text(encoding="utf-8"), by_path[name]))
        elif not (copy.is_file() and filecmp.cmp(source, copy, shallow=False)):
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy)
        elif copy.stat().st_mtime_ns != source.stat().st_mtime_ns:  # the same file, touched: numba's stamp follows
            shutil.copystat(source, copy)
    missing = set(by_path) - set(files)
    if missing:
        raise OverlayError(f"edited files the tree no longer has: {sorted(missing)}")
    for name, source_name in ADDED.items():
        text = (NEXT / source_name).read_text(encoding="utf-8")
        _write(target / name, text.replace('down_revision = "0000"', f'down_revision = "{head}"'))
    for stale in [p for p in target.rglob("*") if p.is_file() and "__pycache__" not in p.parts]:
        if str(stale.relative_to(target)) not in wanted:
            stale.unlink()
    if seed_kernels:
        seed_kernel_cache(root, target)
    return target


def _kernel_cache(package: Path) -> Path:
    """Where numba keeps ``package``'s kernels: services.ai_worker.kernel_cache's directory for its sources
    (beside the package's bytecode, or under ``NUMBA_CACHE_DIR``)."""
    base = os.environ.get("NUMBA_CACHE_DIR") or package / "__pycache__" / "numba"
    return kernel_cache_dir(base, package)


def _numba_subdir(source_dir: Path) -> str:
    """numba's directory for the kernels of files in ``source_dir``: its name and a hash of its full path."""
    return f"{source_dir.name}_{hashlib.sha1(str(source_dir).encode()).hexdigest()}"


def seed_kernel_cache(root: Path, target: Path) -> int:
    """Copy ``root``'s compiled kernels into the cache ``target``'s worker reads, each for the same file at its
    new path (numba checks a kernel against its file's modification time and size, which the copy keeps); the
    files copied.  Only a kernel file identical in both trees is copied; a cache missing altogether costs only a
    compile."""
    old_package, new_package = root / "services" / "ai_worker", target / "services" / "ai_worker"
    old_cache, new_cache = _kernel_cache(old_package), _kernel_cache(new_package)
    copied = 0
    for directory in [old_package, *[p for p in old_package.rglob("*") if p.is_dir() and p.name != "__pycache__"]]:
        source = old_cache / _numba_subdir(directory)
        if not source.is_dir():
            continue
        twin = new_package / directory.relative_to(old_package)
        destination = new_cache / _numba_subdir(twin)
        for cached in source.iterdir():
            module = directory / (cached.name.split(".", 1)[0] + ".py")
            twin_module = twin / module.name
            if not (module.is_file() and twin_module.is_file() and filecmp.cmp(module, twin_module, shallow=False)):
                continue
            if not (destination / cached.name).exists():
                destination.mkdir(parents=True, exist_ok=True)
                shutil.copy2(cached, destination / cached.name)
                copied += 1
    return copied


def warm_kernels(root: Path) -> None:
    """Compile (or load from the cache) every kernel of the checkout at ``root`` once, as a worker's start does, so
    its workers start in seconds."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    warm = [sys.executable, "-c", "from services.ai_worker.warmup import warm_up; warm_up()"]
    subprocess.run(warm, cwd=root, env=env, check=True, capture_output=True, timeout=900)
