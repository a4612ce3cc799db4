"""Fixtures loading the deploy files once per session."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from .deploy_files import DEPLOY_DIR, K8S_DIR, load_yaml_documents


@pytest.fixture(scope="session")
def compose() -> dict[str, Any]:
    with (DEPLOY_DIR / "docker-compose.yml").open(encoding="utf-8") as handle:
        return yaml.safe_load(handle)


@pytest.fixture(scope="session")
def kustomization() -> dict[str, Any]:
    (doc,) = load_yaml_documents(K8S_DIR / "kustomization.yaml")
    return doc


@pytest.fixture(scope="session")
def k8s_documents(kustomization: dict[str, Any]) -> list[dict[str, Any]]:
    """Every object `kubectl apply -k deploy/k8s` creates, plus the example Secret operators create by hand."""
    docs: list[dict[str, Any]] = []
    for resource in [*kustomization["resources"], "secret.example.yaml"]:
        docs.extend(load_yaml_documents(K8S_DIR / resource))
    return docs
