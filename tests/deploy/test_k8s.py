"""deploy/k8s: schema-valid (kubernetes-validate offline + vendored KEDA schemas) and consistent with the app."""

from __future__ import annotations

import copy
import json
from typing import Any
from urllib.parse import urlsplit

import jsonschema
import kubernetes_validate
import pytest

from services.ai_worker.celery_app import WORKER_OPTIONS
from services.computers import HINT_LEVEL, queue_of

from .deploy_files import (
    AI_QUEUES,
    ALL_QUEUES,
    API_COMMAND,
    API_PORT,
    K8S_DIR,
    LEVEL_QUEUES,
    LIVENESS_PATH,
    OPS_PORT,
    READINESS_PATH,
    SCHEMAS_DIR,
    load_yaml_documents,
    named,
    of_kind,
    option_value,
    quantity,
    worker_queue,
    worker_queues,
)

# Oldest and newest Kubernetes minor the manifests must suit (1.29: sidecar-era clusters still common).
KUBERNETES_VERSIONS = ("1.29.0", "1.37.0")
KEDA_KINDS = {"ScaledObject", "TriggerAuthentication"}
WORKLOAD_KINDS = {"Deployment", "StatefulSet"}


def strict(schema: Any) -> Any:
    """Copy of a CRD schema that rejects unknown fields: the API server prunes them silently, hiding typos."""
    if isinstance(schema, dict):
        tightened = {key: strict(value) for key, value in schema.items()}
        if "properties" in tightened and "additionalProperties" not in tightened:
            tightened["additionalProperties"] = False
        return tightened
    if isinstance(schema, list):
        return [strict(item) for item in schema]
    return schema


def schema_validator(filename: str) -> jsonschema.Draft7Validator:
    schema = json.loads((SCHEMAS_DIR / filename).read_text(encoding="utf-8"))
    jsonschema.Draft7Validator.check_schema(schema)
    return jsonschema.Draft7Validator(strict(schema))


def assert_valid(validator: jsonschema.Draft7Validator, doc: dict[str, Any]) -> None:
    errors = sorted(validator.iter_errors(doc), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors)


def pod_templates(docs: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    return [
        (f"{doc['kind']}/{doc['metadata']['name']}", doc["spec"]["template"]["spec"])
        for doc in docs
        if doc["kind"] in WORKLOAD_KINDS
    ]


def scaled_object_for(docs: list[dict[str, Any]], queue: str) -> dict[str, Any]:
    matches = [
        scaled
        for scaled in of_kind(docs, "ScaledObject")
        if any(trigger["metadata"].get("listName") == queue for trigger in scaled["spec"]["triggers"])
    ]
    assert len(matches) == 1, f"expected one ScaledObject on list {queue}, found {len(matches)}"
    return matches[0]


def container_port(container: dict[str, Any], port: int | str) -> int:
    if isinstance(port, int):
        return port
    (number,) = [entry["containerPort"] for entry in container["ports"] if entry.get("name") == port]
    return number


def api_container(docs: list[dict[str, Any]]) -> dict[str, Any]:
    (container,) = named(docs, "Deployment", "api")["spec"]["template"]["spec"]["containers"]
    return container


def test_kustomization_lists_every_manifest(kustomization: dict[str, Any]) -> None:
    on_disk = {path.name for path in K8S_DIR.glob("*.yaml")} - {"kustomization.yaml", "secret.example.yaml"}
    assert set(kustomization["resources"]) == on_disk
    assert "secret.example.yaml" not in kustomization["resources"], "real secrets are created out of band"


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
def test_builtin_kinds_validate_strictly(k8s_documents: list[dict[str, Any]], version: str) -> None:
    builtin = [doc for doc in k8s_documents if doc["kind"] not in KEDA_KINDS]
    assert len(builtin) >= 10
    for doc in builtin:
        kubernetes_validate.validate(doc, version, strict=True)


def test_kubernetes_validate_really_validates(k8s_documents: list[dict[str, Any]]) -> None:
    """Guards the check above: a misspelt probe field must be rejected."""
    broken = copy.deepcopy(named(k8s_documents, "Deployment", "api"))
    broken["spec"]["template"]["spec"]["containers"][0]["readinessProbe"]["httpGet"]["paht"] = READINESS_PATH
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, KUBERNETES_VERSIONS[-1], strict=True)


def test_scaled_objects_match_keda_crd_schema(k8s_documents: list[dict[str, Any]]) -> None:
    validator = schema_validator("keda-scaledobject.json")
    trigger_validator = schema_validator("redis-trigger-metadata.json")
    scaled_objects = of_kind(k8s_documents, "ScaledObject")
    assert scaled_objects
    for scaled in scaled_objects:
        assert_valid(validator, scaled)
        for trigger in scaled["spec"]["triggers"]:
            assert trigger["type"] == "redis"
            assert_valid(trigger_validator, trigger["metadata"])


def test_keda_schema_really_validates(k8s_documents: list[dict[str, Any]]) -> None:
    """Guards the check above: a field KEDA does not know (HPA spelling) must be rejected."""
    broken = copy.deepcopy(of_kind(k8s_documents, "ScaledObject")[0])
    broken["spec"]["minReplicas"] = 1
    assert list(schema_validator("keda-scaledobject.json").iter_errors(broken))


def test_trigger_authentications_match_schema(k8s_documents: list[dict[str, Any]]) -> None:
    validator = schema_validator("keda-triggerauthentication.json")
    for auth in of_kind(k8s_documents, "TriggerAuthentication"):
        assert_valid(validator, auth)
        for ref in auth["spec"].get("secretTargetRef", []):
            assert ref["key"] in named(k8s_documents, "Secret", ref["name"])["stringData"]


@pytest.mark.parametrize("queue", ALL_QUEUES)
def test_each_queue_has_a_worker_scaled_on_its_list(k8s_documents: list[dict[str, Any]], queue: str) -> None:
    scaled = scaled_object_for(k8s_documents, queue)
    target = named(k8s_documents, "Deployment", scaled["spec"]["scaleTargetRef"]["name"])
    (container,) = target["spec"]["template"]["spec"]["containers"]
    assert queue in worker_queues(container["command"])
    # a level's worker polls its interactive queue before its bulk one (people first)
    assert worker_queues(container["command"]) in LEVEL_QUEUES.values()
    # Prefetch 1: tasks a worker holds are not in the list, so the list length is exactly the waiting work.
    assert option_value(container["command"], "--prefetch-multiplier") == "1"
    # No gossip, mingle or worker heartbeats: per-worker chatter on the broker Redis that nothing reads.
    assert set(WORKER_OPTIONS) <= set(container["command"])
    # /readyz needs a live worker per AI queue, so KEDA must never scale a queue to zero.
    assert 1 <= scaled["spec"]["minReplicaCount"] <= scaled["spec"]["maxReplicaCount"]


def test_no_worker_consumes_an_unknown_queue(k8s_documents: list[dict[str, Any]]) -> None:
    commands = [
        container.get("command", []) for _, pod in pod_templates(k8s_documents) for container in pod["containers"]
    ]
    assert sorted(queue for command in commands for queue in worker_queues(command)) == sorted(ALL_QUEUES)
    assert sorted(queue for queue in map(worker_queue, commands) if queue) == sorted(AI_QUEUES)


def test_bulk_turns_add_replicas_only_at_a_longer_backlog(k8s_documents: list[dict[str, Any]]) -> None:
    """Each level's ScaledObject scales on both of its lists; the bulk one (computer-only games, which wait
    for the interactive list to empty) tolerates a longer backlog per replica."""
    for interactive, bulk in LEVEL_QUEUES.values():
        scaled = scaled_object_for(k8s_documents, interactive)
        assert scaled == scaled_object_for(k8s_documents, bulk), "one ScaledObject per level's worker"
        lengths = {t["metadata"]["listName"]: int(t["metadata"]["listLength"]) for t in scaled["spec"]["triggers"]}
        assert set(lengths) == {interactive, bulk}
        assert lengths[bulk] > lengths[interactive]


def test_keda_reads_the_redis_the_app_uses(k8s_documents: list[dict[str, Any]], kustomization: dict[str, Any]) -> None:
    redis_url = urlsplit(named(k8s_documents, "Secret", "spades-secrets")["stringData"]["REDIS_URL"])
    service = named(k8s_documents, "Service", "redis")
    expected_host = f"{service['metadata']['name']}.{kustomization['namespace']}.svc.cluster.local"
    assert redis_url.hostname == expected_host
    for scaled in of_kind(k8s_documents, "ScaledObject"):
        for trigger in scaled["spec"]["triggers"]:
            host, port = trigger["metadata"]["address"].rsplit(":", 1)
            assert (host, int(port)) == (expected_host, redis_url.port)
            assert port == str(service["spec"]["ports"][0]["port"])
            assert trigger["metadata"]["databaseIndex"] == redis_url.path.lstrip("/")
            named(k8s_documents, "TriggerAuthentication", trigger["authenticationRef"]["name"])


def test_api_probes_use_health_endpoints_on_the_internal_listener(k8s_documents: list[dict[str, Any]]) -> None:
    container = api_container(k8s_documents)
    assert container["livenessProbe"]["httpGet"]["path"] == LIVENESS_PATH
    assert container["readinessProbe"]["httpGet"]["path"] == READINESS_PATH
    for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
        if probe in container:
            assert container_port(container, container[probe]["httpGet"]["port"]) == OPS_PORT


def test_the_api_answers_only_for_its_public_host(k8s_documents: list[dict[str, Any]]) -> None:
    assert named(k8s_documents, "ConfigMap", "spades-config")["data"]["TRUSTED_HOSTS"]


def test_api_runs_gunicorn_behind_service_and_hpa(k8s_documents: list[dict[str, Any]]) -> None:
    deployment = named(k8s_documents, "Deployment", "api")
    container = api_container(k8s_documents)
    assert container["command"] == API_COMMAND
    service = named(k8s_documents, "Service", "api")
    assert service["spec"]["selector"].items() <= deployment["spec"]["template"]["metadata"]["labels"].items()
    (port,) = service["spec"]["ports"]  # the public port only: the internal listener is for probes and scrapes
    assert container_port(container, port["targetPort"]) == API_PORT
    (hpa,) = of_kind(k8s_documents, "HorizontalPodAutoscaler")
    assert hpa["spec"]["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment", "name": "api"}
    annotations = deployment["spec"]["template"]["metadata"]["annotations"]
    assert annotations["prometheus.io/path"] == "/metrics"
    assert int(annotations["prometheus.io/port"]) == OPS_PORT
    assert OPS_PORT in {container_port(container, entry["name"]) for entry in container["ports"]}


def test_no_service_exposes_the_internal_listener(k8s_documents: list[dict[str, Any]]) -> None:
    container = api_container(k8s_documents)
    deployment = named(k8s_documents, "Deployment", "api")
    pod_labels = deployment["spec"]["template"]["metadata"]["labels"]
    for service in of_kind(k8s_documents, "Service"):
        if service["spec"].get("selector", {}).items() <= pod_labels.items():
            for port in service["spec"]["ports"]:
                assert container_port(container, port.get("targetPort", port["port"])) != OPS_PORT


def test_every_pod_runs_as_non_root(k8s_documents: list[dict[str, Any]]) -> None:
    for name, pod in pod_templates(k8s_documents):
        pod_context = pod.get("securityContext", {})
        for container in pod["containers"]:
            context = {**pod_context, **container.get("securityContext", {})}
            assert context.get("runAsNonRoot") is True, name
            assert context.get("runAsUser", 0) != 0, name
            assert context.get("allowPrivilegeEscalation") is False, name
            assert context.get("readOnlyRootFilesystem") is True, name


def test_every_container_has_requests_within_limits(k8s_documents: list[dict[str, Any]]) -> None:
    for name, pod in pod_templates(k8s_documents):
        for container in pod["containers"]:
            resources = container["resources"]
            for resource in ("cpu", "memory"):
                request = quantity(resources["requests"][resource])
                limit = quantity(resources["limits"][resource])
                assert 0 < request <= limit, f"{name} {resource}"


def test_config_and_secrets_come_from_their_objects(k8s_documents: list[dict[str, Any]]) -> None:
    app_containers = [
        container
        for doc in of_kind(k8s_documents, "Deployment")
        for container in doc["spec"]["template"]["spec"]["containers"]
    ]
    for container in app_containers:
        sources = container["envFrom"]
        config_maps = [source["configMapRef"]["name"] for source in sources if "configMapRef" in source]
        secrets = [source["secretRef"]["name"] for source in sources if "secretRef" in source]
        assert config_maps and secrets
        for name in config_maps:
            named(k8s_documents, "ConfigMap", name)
        for name in secrets:
            assert "REDIS_URL" in named(k8s_documents, "Secret", name)["stringData"]
    for config_map in of_kind(k8s_documents, "ConfigMap"):
        for key, value in config_map["data"].items():
            assert "PASSWORD" not in key and "@" not in value, f"secret material in ConfigMap: {key}"


def test_app_workloads_share_one_image(k8s_documents: list[dict[str, Any]], kustomization: dict[str, Any]) -> None:
    images = {
        container["image"].split(":")[0]
        for doc in of_kind(k8s_documents, "Deployment")
        for container in doc["spec"]["template"]["spec"]["containers"]
    }
    assert images == {image["name"] for image in kustomization["images"]}


def test_example_secret_is_the_only_secret_file() -> None:
    """Secrets live only in the example (placeholders); nothing applied by kustomize carries a Secret."""
    for path in K8S_DIR.glob("*.yaml"):
        kinds = {doc.get("kind") for doc in load_yaml_documents(path)}
        assert ("Secret" in kinds) == (path.name == "secret.example.yaml"), path.name


def test_the_hint_level_gets_a_core_per_pool_process(k8s_documents: list[dict[str, Any]]) -> None:
    """hard (the hint level) searches whole rounds: one pool process per requested core, so a search never
    waits for CPU behind another one in its pod (deploy/README.md, "Sizing hard")."""
    scaled = scaled_object_for(k8s_documents, queue_of(HINT_LEVEL))
    target = named(k8s_documents, "Deployment", scaled["spec"]["scaleTargetRef"]["name"])
    (container,) = target["spec"]["template"]["spec"]["containers"]
    processes = int(option_value(container["command"], "--concurrency", "-c") or 0)
    assert processes >= 1
    assert quantity(container["resources"]["requests"]["cpu"]) >= processes
