"""deploy/k8s-cluster: the overlay putting games on a Redis Cluster is schema-valid and sets settings the API reads."""

from __future__ import annotations

from typing import Any

import kubernetes_validate
import pytest

from services.api.config import DEFAULTS, cluster_nodes, load_config

from .deploy_files import DEPLOY_DIR, K8S_DIR, load_yaml_documents, named

OVERLAY = DEPLOY_DIR / "k8s-cluster"
KUBERNETES_VERSIONS = ("1.29.0", "1.37.0")


@pytest.fixture(scope="module")
def overlay() -> dict[str, Any]:
    (doc,) = load_yaml_documents(OVERLAY / "kustomization.yaml")
    return doc


def test_the_overlay_builds_on_the_base_and_names_files_that_exist(overlay: dict[str, Any]) -> None:
    assert "../k8s" in overlay["resources"]
    assert (OVERLAY / "../k8s").resolve() == K8S_DIR.resolve()
    for name in [r for r in overlay["resources"] if r != "../k8s"] + [p["path"] for p in overlay["patches"]]:
        assert (OVERLAY / name).is_file(), name


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
def test_the_cluster_manifests_validate_strictly(overlay: dict[str, Any], version: str) -> None:
    for name in [r for r in overlay["resources"] if r != "../k8s"] + [p["path"] for p in overlay["patches"]]:
        for doc in load_yaml_documents(OVERLAY / name):
            kubernetes_validate.validate(doc, version, strict=True)


def test_nine_nodes_two_replicas_a_master_with_their_data_on_volumes() -> None:
    """3 masters with two replicas each: a master lost for good leaves its promoted replica one to confirm moves."""
    docs = load_yaml_documents(OVERLAY / "redis-cluster.yaml")
    nodes = named(docs, "StatefulSet", "redis-cluster")
    assert nodes["spec"]["replicas"] == 9
    (container,) = nodes["spec"]["template"]["spec"]["containers"]
    assert "--cluster-enabled" in container["args"] and "--appendonly" in container["args"]
    assert nodes["spec"]["volumeClaimTemplates"], "a restarted master must come back with its data"


def test_the_config_patch_puts_the_api_in_cluster_mode_with_wait() -> None:
    (patch,) = load_yaml_documents(OVERLAY / "cluster-config.yaml")
    data = patch["data"]
    assert set(data) <= set(DEFAULTS), "every key is a setting services/api/config.py reads"
    settings = load_config(environ=data)
    assert len(cluster_nodes(settings)) >= 3
    assert settings["REDIS_WAIT_REPLICAS"] == 1
    assert settings["REDIS_WAIT_TIMEOUT_MS"] < settings["REDIS_SOCKET_TIMEOUT"] * 1000
