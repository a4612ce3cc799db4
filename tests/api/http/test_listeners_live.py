"""A real gunicorn with both listeners (``API_BIND`` and ``INTERNAL_BIND``), as deploy/ runs it: readiness and
metrics on the internal port only, the API on the public port only. Every response the contract covers is
checked against openapi.yaml."""

from __future__ import annotations

import pytest
import requests

from testkit.processes import free_port

from ..contract import ContractSession

pytestmark = pytest.mark.integration  # real Redis / gunicorn processes


@pytest.mark.parametrize("worker_class", ["gevent", "gthread"])
def test_probes_and_scrapes_have_a_port_of_their_own(gunicorn_factory, worker_class):
    internal = free_port()
    env = {"API_WORKER_CLASS": worker_class, "INTERNAL_BIND": f"127.0.0.1:{internal}", "PUBLIC_OPS_ENDPOINTS": "0"}
    public = ContractSession(gunicorn_factory(env, workers=1))
    ops = ContractSession(f"http://127.0.0.1:{internal}")

    metrics = ops.get("/metrics")
    assert metrics.status_code == 200 and "spades_ai_queue_depth" in metrics.text
    readiness = ops.get("/readyz")
    assert readiness.status_code in (200, 503) and "workers" in readiness.json()["checks"]
    assert ops.get("/healthz").json() == {"status": "ok"}
    for path in ("/v1/rules", "/v1/games/no-such-game", "/play", "/openapi.yaml"):  # not this port's contract
        response = requests.get(ops.base_url + path, timeout=10)
        assert response.status_code == 404 and response.json()["code"] == "not_found", path

    for path in ("/readyz", "/metrics"):
        response = public.get(path)
        assert response.status_code == 404 and response.json()["code"] == "not_found", path
    # the listener is the socket's port: a Host header naming the internal one changes nothing
    assert public.get("/metrics", headers={"Host": f"127.0.0.1:{internal}"}).status_code == 404
    assert public.get("/healthz").json() == {"status": "ok"}
    assert public.get("/v1/rules").status_code == 200
