"""Which listener a request came in on and what each serves, in process: unit tests (no Redis is reached).

The real gunicorn with both listeners is ``test_listeners_live.py``."""

from __future__ import annotations

import pytest

from services.api.app import create_app
from services.api.config import ConfigError, check_config, internal_port, load_config
from services.api.http.listeners import Listeners
from tests.conftest import NO_STORE_CONFIG

PUBLIC, INTERNAL = "8000", "9100"
OFFLINE = dict(NO_STORE_CONFIG)
DEPLOYED = {**OFFLINE, "RECORDS_ENABLED": False, "INTERNAL_BIND": f"0.0.0.0:{INTERNAL}", "PUBLIC_OPS_ENDPOINTS": False}


def on(port: str, **environ: str) -> dict[str, str]:
    """A WSGI environ as gunicorn makes it for a request accepted on ``port`` (SERVER_PORT: the socket's)."""
    return {"SERVER_NAME": "0.0.0.0", "SERVER_PORT": port, **environ}


@pytest.fixture(scope="module")
def deployed():
    return create_app(dict(DEPLOYED)).test_client()


def test_the_listener_is_the_accepting_sockets_port_never_the_host_header():
    listeners = Listeners(INTERNAL, public_ops=False)
    assert listeners.internal(on(INTERNAL))
    assert not listeners.internal(on(PUBLIC))
    assert not listeners.internal(on(PUBLIC, HTTP_HOST=f"evil.example:{INTERNAL}"))
    # ProxyFix told to rewrite the port from a forwarded header keeps the socket's in its "orig"
    rewritten = on(INTERNAL, **{"werkzeug.proxy_fix.orig": on(PUBLIC)})
    assert not listeners.internal(rewritten)
    assert not Listeners(None, public_ops=True).internal(on(INTERNAL))


def test_each_listener_serves_its_endpoints():
    deployed, laptop = Listeners(INTERNAL, public_ops=False), Listeners(None, public_ops=True)
    for endpoint in ("health.healthz", "health.readyz", "metrics"):
        assert deployed.serves(endpoint, on(INTERNAL))
        assert laptop.serves(endpoint, on(PUBLIC))
        assert not deployed.limited(endpoint, on(INTERNAL))
    for endpoint in ("v1.create_game", "web.play", "openapi_yaml", None):
        assert not deployed.serves(endpoint, on(INTERNAL))
        assert deployed.serves(endpoint, on(PUBLIC))
    assert deployed.serves("health.healthz", on(PUBLIC))
    assert not deployed.serves("health.readyz", on(PUBLIC)) and not deployed.serves("metrics", on(PUBLIC))
    # served publicly, readiness and metrics spend the address's budget; liveness never does
    assert laptop.limited("health.readyz", on(PUBLIC)) and laptop.limited("metrics", on(PUBLIC))
    assert not laptop.limited("health.healthz", on(PUBLIC)) and not laptop.limited("v1.create_game", on(PUBLIC))


def test_the_public_port_answers_404_for_readiness_and_metrics_when_they_are_off(deployed):
    for path in ("/readyz", "/metrics"):
        response = deployed.get(path, environ_overrides=on(PUBLIC))
        assert response.status_code == 404, path
        assert response.mimetype == "application/problem+json" and response.json["code"] == "not_found"
        assert response.headers["X-Request-ID"]
    assert deployed.get("/healthz", environ_overrides=on(PUBLIC)).json == {"status": "ok"}
    assert deployed.get("/v1/rules", environ_overrides=on(PUBLIC)).status_code == 200
    # a Host header naming the internal port changes nothing
    forged = deployed.get("/metrics", environ_overrides=on(PUBLIC), headers={"Host": f"localhost:{INTERNAL}"})
    assert forged.status_code == 404


def test_the_internal_port_serves_only_the_ops_endpoints(deployed):
    assert deployed.get("/healthz", environ_overrides=on(INTERNAL)).json == {"status": "ok"}
    metrics = deployed.get("/metrics", environ_overrides=on(INTERNAL))
    assert metrics.status_code == 200 and b"spades_ai_queue_depth" in metrics.data
    for path in ("/v1/rules", "/v1/levels", "/v1/games/nope", "/play", "/openapi.yaml", "/docs/", "/nowhere"):
        response = deployed.get(path, environ_overrides=on(INTERNAL))
        assert response.status_code == 404, path
        assert response.json["code"] == "not_found"
    refused = deployed.post("/v1/games", json={}, environ_overrides=on(INTERNAL))
    assert refused.status_code == 404


def test_one_listener_serves_everything_by_default():
    config = load_config(environ={})
    assert internal_port(config) is None and config["PUBLIC_OPS_ENDPOINTS"] is True
    laptop = create_app({**OFFLINE, "RECORDS_ENABLED": False}).test_client()
    assert laptop.get("/metrics", environ_overrides=on(INTERNAL)).status_code == 200
    assert laptop.get("/v1/rules", environ_overrides=on(INTERNAL)).status_code == 200


@pytest.mark.parametrize("bind", ["9100", "0.0.0.0", "unix:/run/spades.sock", "0.0.0.0:metrics", "fd://3"])
def test_an_internal_bind_without_a_tcp_port_is_refused(bind):
    with pytest.raises(ConfigError, match="INTERNAL_BIND"):
        check_config(load_config({"INTERNAL_BIND": bind}, environ={}))


def test_the_internal_port_is_read_as_gunicorn_reports_it():
    assert internal_port(load_config(environ={"INTERNAL_BIND": "127.0.0.1:9100"})) == "9100"
    assert internal_port(load_config(environ={"INTERNAL_BIND": "[::1]:09100"})) == "9100"
    assert load_config(environ={"PUBLIC_OPS_ENDPOINTS": "0"})["PUBLIC_OPS_ENDPOINTS"] is False
