"""The ``Host`` a request names: never reflected in a redirect, and with ``TRUSTED_HOSTS`` set refused (400)
unless trusted, but on the probes' and the scrapers' paths (services/api/http/inbound.py, wsgi_edge.py)."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from services.api.app import create_app
from services.api.games.record import GameRecord
from services.api.http.inbound import trusted_hosts
from services.api.http.wsgi_edge import as_path
from services.api.store.memory_store import MemoryStore

REDIRECTS = [("/play//x", "/play/x"), ("/docs", "/docs/"), ("/v1//rules", "/v1/rules"), ("/", "/play")]


def client(**config) -> FlaskClient:
    settings = {
        "STORE": MemoryStore(GameRecord.from_stored),
        "AI_ENABLED": False,
        "RATE_LIMIT_ENABLED": False,
        "RECORDS_ENABLED": False,
    }
    return create_app({**settings, "LOG_LEVEL": "WARNING", **config}).test_client()


@pytest.mark.parametrize(("path", "location"), REDIRECTS)
def test_a_redirect_names_no_host(path: str, location: str):
    response = client().get(path, headers={"Host": "evil.example"})
    assert response.status_code in (302, 308)
    assert response.headers["Location"] == location


def test_a_location_becomes_a_path_on_this_server():
    assert as_path("http://evil.example/play/x?a=1") == "/play/x?a=1"
    assert as_path("https://evil.example//evil.example/x") == "/evil.example/x"  # never "//host"
    assert as_path("/v1/games/abc") == "/v1/games/abc"


def test_trusted_hosts_setting():
    assert trusted_hosts("") is None and trusted_hosts(" , ") is None
    assert trusted_hosts("api.example.com, .spades.test") == ["api.example.com", ".spades.test"]


def test_an_untrusted_host_is_a_400_problem_when_trusted_hosts_is_set():
    http = client(TRUSTED_HOSTS="api.example.com,.spades.test")
    for host in ("evil.example", "10.0.0.7:8000", "api.example.com.evil.example"):
        for path in ("/v1/rules", "/play//x", "/nothing"):
            response = http.get(path, headers={"Host": host})
            assert response.status_code == 400, (host, path)
            assert response.mimetype == "application/problem+json"
            assert response.get_json()["errors"] == [{"field": "Host", "message": "not a host this server answers for"}]
    for host in ("api.example.com", "api.example.com:8443", "eu.spades.test"):
        assert http.get("/v1/rules", headers={"Host": host}).status_code == 200, host
        assert http.get("/play//x", headers={"Host": host}).headers["Location"] == "/play/x"


def test_probes_and_scrapers_address_a_pod_by_its_ip():
    http = client(TRUSTED_HOSTS="api.example.com")
    for path in ("/healthz", "/metrics"):
        assert http.get(path, headers={"Host": "10.0.0.7:8000"}).status_code == 200, path


def test_any_host_is_served_without_trusted_hosts():
    assert client().get("/v1/rules", headers={"Host": "whatever.example:8000"}).status_code == 200
