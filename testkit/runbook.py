"""The operations runbook's commands, read from docs/operations.md and run as written (``benchmarks.restore``,
``benchmarks.reshard``).

A block the drill runs is a fenced ``sh`` block right after an HTML comment naming it,
``<!-- drill: back-up -->``: invisible where the page is read, and the one copy of the commands, so the
runbook cannot drift from what the drill ran.  A block runs in ``bash -euo pipefail`` (any failing command
fails the step), with the variables the runbook names set in its environment, as the ``postgres`` user when
the caller is root (the throwaway servers' files are that user's, and their clients write beside them).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from .postgres import as_server_user

SERVER_USER = "postgres"  # who runs the blocks when the caller is root

ROOT = Path(__file__).resolve().parents[1]
RUNBOOK = ROOT / "docs" / "operations.md"
NAMED_BLOCK = re.compile(r"<!-- drill: ([a-z-]+) -->\n```sh\n(.*?)^```", re.S | re.M)
ANY_BLOCK = re.compile(r"^```sh\n", re.M)


def blocks(path: Path = RUNBOOK) -> dict[str, str]:
    """Every named shell block of the runbook, by name (a name given twice is an error)."""
    text = path.read_text()
    found: dict[str, str] = {}
    for name, body in NAMED_BLOCK.findall(text):
        if name in found:
            raise ValueError(f"{path.name}: two blocks named {name}")
        found[name] = body
    return found


def unnamed_blocks(path: Path = RUNBOOK) -> int:
    """How many shell blocks of the runbook have no name (none should: the drill runs every one)."""
    text = path.read_text()
    return len(ANY_BLOCK.findall(text)) - len(NAMED_BLOCK.findall(text))


@dataclass(frozen=True)
class Step:
    names: tuple[str, ...]
    seconds: float
    stdout: str


def run(
    names: Sequence[str],
    env: Mapping[str, str],
    cwd: Path,
    then: str = "",
    path: Path = RUNBOOK,
    server_user: bool = True,
) -> Step:
    """The named blocks, in order, then ``then`` (a line of the drill's own that uses what they define: a
    function), as one bash script in ``cwd`` with ``env`` added to this process's environment; how long it took
    and what it printed.  Raises on a failing command, with its output.  ``server_user=False`` runs it as the
    caller (blocks that start the service's own processes, which need no PostgreSQL files)."""
    found = blocks(path)
    script = "\n".join([*(found[name] for name in names), then])
    bash = ["bash", "-euo", "pipefail", "-c", script]
    command = as_server_user(bash) if server_user else bash
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env={**os.environ, **env}, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"runbook {', '.join(names)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return Step(tuple(names), seconds, done.stdout)


@contextmanager
def work_dir(prefix: str, *subdirs: str) -> Iterator[Path]:
    """A directory the blocks work in (files they write, like ``check.txt``), with ``subdirs``: the ``postgres``
    user's when the caller is root; removed at the end."""
    path = Path(tempfile.mkdtemp(prefix=prefix))
    path.chmod(0o755)
    for name in subdirs:
        (path / name).mkdir()
    if os.geteuid() == 0:
        for each in (path, *(path / name for name in subdirs)):
            shutil.chown(each, SERVER_USER, SERVER_USER)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
