"""deploy/k8s-brokers: the AI path on two broker nodes, each with its workers and KEDA triggers."""

from __future__ import annotations

import importlib.util
from typing import Any

import kubernetes_validate
import pytest

from .deploy_files import ALL_QUEUES, DEPLOY_DIR, K8S_DIR, REPO_ROOT, load_yaml_documents, of_kind, worker_queues
from .test_k8s import assert_valid, schema_validator

OVERLAY = DEPLOY_DIR / "k8s-brokers"
KUBERNETES_VERSIONS = ("1.29.0", "1.37.0")


def renderer() -> Any:
    spec = importlib.util.spec_from_file_location("render_broker_node", REPO_ROOT / "scripts/render_broker_node.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def node_files() -> dict[int, list[dict[str, Any]]]:
    (overlay,) = load_yaml_documents(OVERLAY / "kustomization.yaml")
    assert overlay["resources"][0] == "../k8s-cluster"
    files = overlay["resources"][1:]
    assert files, "at least one more broker node"
    return {int(name.removesuffix(".yaml").rsplit("-", 1)[1]): load_yaml_documents(OVERLAY / name) for name in files}


def test_each_node_file_is_the_renderers_output():
    render = renderer().render
    for path in sorted(OVERLAY.glob("broker-node-*.yaml")):
        node = int(path.stem.rsplit("-", 1)[1])
        assert path.read_text() == render(node), f"{path.name}: run scripts/render_broker_node.py {node}"


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
def test_the_node_manifests_validate_strictly(node_files, version):
    for docs in node_files.values():
        for doc in docs:
            if doc["kind"] == "ScaledObject":
                assert_valid(schema_validator("keda-scaledobject.json"), doc)
            else:
                kubernetes_validate.validate(doc, version, strict=True)


def test_every_queue_has_one_scaled_worker_per_node_reading_that_nodes_redis(node_files):
    base = [doc for path in K8S_DIR.glob("worker-ai-*.yaml") for doc in load_yaml_documents(path)]
    for node, docs in {0: base, **node_files}.items():
        address = "redis" if node == 0 else f"redis-broker-{node}"
        triggers = [t for scaled in of_kind(docs, "ScaledObject") for t in scaled["spec"]["triggers"]]
        assert sorted(t["metadata"]["listName"] for t in triggers) == sorted(ALL_QUEUES), node
        assert {t["metadata"]["address"] for t in triggers} == {f"{address}.spades.svc.cluster.local:6379"}
        consumed = [
            q
            for d in of_kind(docs, "Deployment")
            for q in worker_queues(d["spec"]["template"]["spec"]["containers"][0]["command"])
        ]
        assert sorted(consumed) == sorted(ALL_QUEUES), node
        targets = {scaled["spec"]["scaleTargetRef"]["name"] for scaled in of_kind(docs, "ScaledObject")}
        assert targets == {d["metadata"]["name"] for d in of_kind(docs, "Deployment")}


def test_a_nodes_workers_use_that_nodes_url_for_broker_and_results(node_files):
    for node, docs in node_files.items():
        for deployment in of_kind(docs, "Deployment"):
            (container,) = deployment["spec"]["template"]["spec"]["containers"]
            keys = {env["name"]: env["valueFrom"]["secretKeyRef"]["key"] for env in container["env"]}
            assert keys == {
                "CELERY_BROKER_URL": f"AI_BROKER_URL_{node}",
                "CELERY_RESULT_BACKEND": f"AI_BROKER_URL_{node}",
            }
        (redis,) = of_kind(docs, "StatefulSet")
        assert redis["metadata"]["name"] == f"redis-broker-{node}"
