"""The env vars deploy/ sets are the ones the code reads: a renamed setting would silently fall back to a default."""

from __future__ import annotations

import re
from typing import Any

import pytest

from services.api.config import DEFAULTS as API_SETTINGS
from services.api.config import flag

from .deploy_files import API_PORT, DEPLOY_DIR, OPS_PORT, REPO_ROOT, named

GUNICORN_CONF = (REPO_ROOT / "gunicorn.conf.py").read_text(encoding="utf-8")
API_READS = ("REDIS_URL", "GAME_TTL_SECONDS", "ALLOW_SEEDED_GAMES")


def dockerfile_env() -> dict[str, str]:
    text = (DEPLOY_DIR / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    pairs: dict[str, str] = {}
    for line in text.splitlines():
        if line.startswith("ENV "):
            pairs.update(re.findall(r"(\w+)=(\S+)", line))
    return pairs


def deployed_envs(compose: dict[str, Any], k8s_documents: list[dict[str, Any]]) -> dict[str, dict[str, str]]:
    config_map = named(k8s_documents, "ConfigMap", "spades-config")["data"]
    secret = named(k8s_documents, "Secret", "spades-secrets")["stringData"]
    return {
        "Dockerfile": dockerfile_env(),
        "compose api": {key: str(value) for key, value in compose["services"]["api"]["environment"].items()},
        "k8s api": {**config_map, **secret},
    }


def test_gunicorn_settings_use_names_gunicorn_conf_reads(
    compose: dict[str, Any], k8s_documents: list[dict[str, Any]]
) -> None:
    for where, env in deployed_envs(compose, k8s_documents).items():
        for key in env:
            if key.startswith("API_"):
                assert f'"{key}"' in GUNICORN_CONF, f"{where} sets {key}, which gunicorn.conf.py does not read"


@pytest.mark.parametrize("where", ["Dockerfile", "compose api", "k8s api"])
def test_api_listens_on_all_interfaces_of_its_port(
    compose: dict[str, Any], k8s_documents: list[dict[str, Any]], where: str
) -> None:
    # gunicorn.conf.py defaults to 127.0.0.1, which a container's port mapping or a Service cannot reach.
    assert deployed_envs(compose, k8s_documents)[where]["API_BIND"] == f"0.0.0.0:{API_PORT}"


@pytest.mark.parametrize("where", ["compose api", "k8s api"])
def test_api_settings_use_names_the_api_reads(
    compose: dict[str, Any], k8s_documents: list[dict[str, Any]], where: str
) -> None:
    env = deployed_envs(compose, k8s_documents)[where]
    for key in API_READS:
        assert key in API_SETTINGS, f"services/api/config.py no longer reads {key}"
        assert key in env, f"{where} does not set {key}"


@pytest.mark.parametrize("where", ["compose api", "k8s api"])
def test_deployments_refuse_seeded_games(compose: dict[str, Any], k8s_documents: list[dict[str, Any]], where: str):
    # A seed's creator can compute every deal: where strangers play, no game may be seeded.
    assert not flag(deployed_envs(compose, k8s_documents)[where]["ALLOW_SEEDED_GAMES"])


@pytest.mark.parametrize("where", ["Dockerfile", "compose api", "k8s api"])
def test_readiness_and_metrics_are_served_on_the_internal_listener_only(
    compose: dict[str, Any], k8s_documents: list[dict[str, Any]], where: str
) -> None:
    # /readyz lists the queue and worker layout: probes and Prometheus use a port of their own
    env = deployed_envs(compose, k8s_documents)[where]
    for key in ("INTERNAL_BIND", "PUBLIC_OPS_ENDPOINTS"):
        assert key in API_SETTINGS, f"services/api/config.py no longer reads {key}"
    assert env["INTERNAL_BIND"] == f"0.0.0.0:{OPS_PORT}"
    assert not flag(env["PUBLIC_OPS_ENDPOINTS"])
