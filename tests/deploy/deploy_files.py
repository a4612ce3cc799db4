"""Paths, expected values and loaders shared by the static deploy checks (no Docker engine or cluster needed)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from services.computers import LEVEL_NAMES, QUEUES, WORKER_QUEUES, level_queues

REPO_ROOT = Path(__file__).resolve().parents[2]
DEPLOY_DIR = REPO_ROOT / "deploy"
K8S_DIR = DEPLOY_DIR / "k8s"
SCHEMAS_DIR = Path(__file__).resolve().parent / "schemas"

# One Celery queue per AI level (services.ai_worker routing); each needs a worker in compose and a ScaledObject in k8s.
AI_QUEUES = QUEUES
# Each level's worker also serves the level's bulk queue (computer-only games), listed after the interactive one.
ALL_QUEUES = WORKER_QUEUES
LEVEL_QUEUES = {level: level_queues(level) for level in LEVEL_NAMES}
API_PORT = 8000
OPS_PORT = 9100  # the internal listener (INTERNAL_BIND): /healthz, /readyz, /metrics for probes and scrapes
API_COMMAND = ["gunicorn", "-c", "gunicorn.conf.py", "services.api.wsgi:app"]
CELERY_APP = "services.ai_worker.celery_app"
LIVENESS_PATH = "/healthz"
READINESS_PATH = "/readyz"


def load_yaml_documents(path: Path) -> list[dict[str, Any]]:
    """All non-empty YAML documents of a file (k8s files may hold several)."""
    with path.open(encoding="utf-8") as handle:
        return [doc for doc in yaml.safe_load_all(handle) if doc]


def of_kind(docs: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [doc for doc in docs if doc["kind"] == kind]


def named(docs: list[dict[str, Any]], kind: str, name: str) -> dict[str, Any]:
    matches = [doc for doc in of_kind(docs, kind) if doc["metadata"]["name"] == name]
    assert len(matches) == 1, f"expected exactly one {kind}/{name}, found {len(matches)}"
    return matches[0]


def option_value(command: list[str], *flags: str) -> str | None:
    """Value of a CLI option given as `--flag value` or `--flag=value` (celery/gunicorn style)."""
    for index, arg in enumerate(command):
        for flag in flags:
            if arg == flag and index + 1 < len(command):
                return command[index + 1]
            if arg.startswith(flag + "="):
                return arg.split("=", 1)[1]
    return None


def worker_queues(command: list[str]) -> tuple[str, ...]:
    """The queues a `celery -A services.ai_worker.celery_app worker -Q <a>,<b>` command consumes, in its
    order (the order the worker polls them in), else ()."""
    if "worker" not in command or option_value(command, "-A", "--app") != CELERY_APP:
        return ()
    return tuple((option_value(command, "-Q", "--queues") or "").split(","))


def worker_queue(command: list[str]) -> str | None:
    """The interactive queue of a level's worker command (the first it polls), else None."""
    queues = worker_queues(command)
    return queues[0] if queues else None


_QUANTITY = re.compile(r"^([0-9.]+)(m|Ki|Mi|Gi|Ti|k|M|G|T)?$")
_FACTORS = {
    None: 1,
    "m": 1e-3,
    "k": 1e3,
    "M": 1e6,
    "G": 1e9,
    "T": 1e12,
    "Ki": 2**10,
    "Mi": 2**20,
    "Gi": 2**30,
    "Ti": 2**40,
}


def quantity(value: str | int | float) -> float:
    """A Kubernetes resource quantity ("500m", "2", "256Mi") as a plain number."""
    match = _QUANTITY.match(str(value))
    assert match, f"not a resource quantity: {value!r}"
    return float(match.group(1)) * _FACTORS[match.group(2)]
