"""The worker's warm-up compiles every kernel entry point a decision reaches, so no task pays JIT.

Checked in a new process (``python -m tests.ai_worker.test_warmup``): in the test session other tests
have compiled the kernels already.
"""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

from numba.core.registry import CPUDispatcher

import services.ai_worker

ROOT = Path(__file__).resolve().parents[2]


def compiled_signatures() -> dict[str, int]:
    """Each numba function of the AI worker's modules and how many signatures it has compiled."""
    counts = {}
    for info in pkgutil.walk_packages(services.ai_worker.__path__, "services.ai_worker."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if isinstance(value, CPUDispatcher) and value.__module__ == info.name:
                counts[f"{info.name}.{name}"] = len(value.signatures)
    return counts


def warm_then_decide() -> dict[str, dict[str, int]]:
    """The signatures compiled after the warm-up, and after every level's decision at endgame cards
    (five tricks left, where expert searches exactly) and mid-round cards."""
    from services.ai_worker import decide, warm_up
    from services.computers import LEVEL_NAMES

    from .helpers import endgame_views

    warm_up()
    before = compiled_signatures()
    views = endgame_views(3, 5, seed=1) + endgame_views(2, 9, seed=2)
    for i, seat_view in enumerate(views):
        for level in LEVEL_NAMES:
            decide(seat_view, level, i)
    return {"warm": before, "after": compiled_signatures()}


def test_decisions_after_the_warm_up_compile_nothing_more() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [sys.executable, "-m", "tests.ai_worker.test_warmup"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    counts = json.loads(run.stdout)
    assert counts["warm"]["services.ai_worker.levels.expert.endgame_values"] > 0
    assert counts["after"] == counts["warm"]


if __name__ == "__main__":
    print(json.dumps(warm_then_decide()))
