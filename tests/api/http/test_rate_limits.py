"""Rate limits, CORS, security headers and the body size limit, over HTTP against real gunicorn.

Rate limits live in Redis (database 1), so they must hold across every API
process: the shared-budget test runs two separate gunicorn servers on the
same Redis.  Every response is checked against openapi.yaml.
"""

from __future__ import annotations

import secrets

import pytest
import requests

from testkit.http_clients import from_address
from testkit.processes import free_port
from tests.conftest import API_TEST_DB, redis_url

from ..contract import ContractSession
from ..helpers import auth, create_game

pytestmark = pytest.mark.integration  # real Redis / gunicorn / Celery processes

LIMITED = {"RATE_LIMIT_ENABLED": "1"}
ORIGIN = "https://app.example"


@pytest.fixture(autouse=True)
def fresh_rate_limits(redis_db1):
    """Forget earlier counters: a fixed window outlives the test that filled it."""
    for key in redis_db1.scan_iter("*spades-rl*"):
        redis_db1.delete(key)


def assert_rate_limited(response: requests.Response) -> None:
    assert response.status_code == 429, response.text
    assert response.headers["Content-Type"].startswith("application/problem+json")
    problem = response.json()
    assert problem["code"] == "rate_limited" and problem["status"] == 429
    retry_after = response.headers["Retry-After"]
    assert retry_after.isdigit() and 1 <= int(retry_after) <= 60, retry_after


def test_address_budget_is_shared_by_two_servers_on_one_redis(gunicorn_factory):
    env = {**LIMITED, "RATE_LIMIT_PER_ADDRESS": "5/minute", "RATE_LIMIT_PER_TOKEN": ""}
    first = ContractSession(gunicorn_factory(env))
    second = ContractSession(gunicorn_factory(env))
    served = [session.get("/v1/rules") for session in (first, second, first, second, first)]
    assert [r.status_code for r in served] == [200] * 5
    assert_rate_limited(second.get("/v1/rules"))
    assert_rate_limited(first.get("/v1/rules"))
    # one budget per address for every route, not one per route
    assert_rate_limited(first.get("/v1/games/no-such-game"))
    assert first.checked + second.checked == 8


def test_token_budget_is_per_token_and_a_refused_move_changes_nothing(gunicorn_factory):
    env = {**LIMITED, "RATE_LIMIT_PER_ADDRESS": "1000/minute", "RATE_LIMIT_PER_TOKEN": "3/minute"}
    session = ContractSession(gunicorn_factory(env))
    created = create_game(session, seats=[{"type": "human"}] * 4)
    game_id = created["game_id"]
    before = session.get(f"/v1/games/{game_id}").json()  # tokenless requests spend no token budget
    mover, other = before["turn"], (before["turn"] + 1) % 4
    mover_token, other_token = created["seats"][mover]["token"], created["seats"][other]["token"]

    for _ in range(3):
        assert session.get(f"/v1/games/{game_id}", headers=auth(mover_token)).status_code == 200
    refused = session.post(f"/v1/games/{game_id}/bids", json={"bid": 1}, headers=auth(mover_token))
    assert_rate_limited(refused)
    assert_rate_limited(session.get(f"/v1/games/{game_id}/events", headers=auth(mover_token)))

    after = session.get(f"/v1/games/{game_id}").json()
    assert after["version"] == before["version"] and after["bids"] == before["bids"]
    events = session.get(f"/v1/games/{game_id}/events").json()["events"]
    assert [e["type"] for e in events if e["type"] == "bid"] == [], "the refused bid left no event"

    assert session.get(f"/v1/games/{game_id}", headers=auth(other_token)).status_code == 200
    assert session.get("/v1/rules").status_code == 200


def test_probes_and_scrapes_on_the_internal_port_are_never_limited_but_public_ones_are(gunicorn_factory):
    internal = free_port()
    env = {**LIMITED, "RATE_LIMIT_PER_ADDRESS": "2/minute", "INTERNAL_BIND": f"127.0.0.1:{internal}"}
    session = ContractSession(gunicorn_factory(env))
    session.get("/v1/rules")
    session.get("/v1/rules")
    assert_rate_limited(session.get("/v1/rules"))
    # served on the public port (PUBLIC_OPS_ENDPOINTS on), readiness and metrics spend the address's budget
    assert_rate_limited(session.get("/readyz"))
    assert_rate_limited(session.get("/metrics"))
    probes = ContractSession(f"http://127.0.0.1:{internal}")
    for _ in range(5):
        assert session.get("/healthz").status_code == 200  # liveness: never limited on either port
        assert probes.get("/healthz").status_code == 200
        assert probes.get("/readyz").status_code in (200, 503)  # ready or not, never 429
    assert probes.get("/metrics").status_code == 200
    assert session.get("/openapi.yaml").status_code == 200  # the contract and docs are never limited


def test_security_headers_on_game_responses(api_server):
    session = ContractSession(api_server)
    created = session.post("/v1/games", json={"rules": {"preset": "partnership"}, "seats": [{"type": "human"}] * 4})
    game = session.get(f"/v1/games/{created.json()['game_id']}")
    missing = session.get("/v1/games/no-such-game")
    for response in (created, game, missing):
        headers = response.headers
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["X-Frame-Options"] == "DENY"
        assert "default-src 'none'" in headers["Content-Security-Policy"]
        assert "no-store" in headers["Cache-Control"]
    assert (created.status_code, game.status_code, missing.status_code) == (201, 200, 404)


def preflight(base: str, origin: str) -> requests.Response:
    headers = {
        "Origin": origin,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, idempotency-key, if-match, content-type, player-token",
    }
    return requests.options(f"{base}/v1/games/some-game/bids", headers=headers, timeout=10)


def test_cors_allows_only_the_configured_origin(gunicorn_factory):
    base = gunicorn_factory({"CORS_ORIGINS": ORIGIN})
    allowed = preflight(base, ORIGIN)
    assert allowed.status_code == 200
    assert allowed.headers["Access-Control-Allow-Origin"] == ORIGIN
    granted = {h.strip().lower() for h in allowed.headers["Access-Control-Allow-Headers"].split(",")}
    assert {"authorization", "idempotency-key", "if-match", "content-type", "player-token"} <= granted
    assert "POST" in allowed.headers["Access-Control-Allow-Methods"]

    session = ContractSession(base)
    created = create_game(session, seats=[{"type": "human"}] * 4)
    read = session.get(f"/v1/games/{created['game_id']}", headers={"Origin": ORIGIN})
    assert read.headers["Access-Control-Allow-Origin"] == ORIGIN
    exposed = {h.strip().lower() for h in read.headers["Access-Control-Expose-Headers"].split(",")}
    assert {"etag", "retry-after", "x-request-id"} <= exposed

    stranger = preflight(base, "https://evil.example")
    assert not [h for h in stranger.headers if h.lower().startswith("access-control-")]
    foreign_read = session.get(f"/v1/games/{created['game_id']}", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in foreign_read.headers


def test_no_cors_headers_without_configured_origins(api_server):
    response = preflight(api_server, ORIGIN)
    assert not [h for h in response.headers if h.lower().startswith("access-control-")]
    read = ContractSession(api_server).get("/v1/rules", headers={"Origin": ORIGIN})
    assert read.status_code == 200
    assert "Access-Control-Allow-Origin" not in read.headers


def test_oversized_body_is_refused_with_413(api_server):
    session = ContractSession(api_server)
    padding = "x" * (17 * 1024)  # the default limit is 16 KiB
    body = {"rules": {"preset": "partnership"}, "seats": [{"type": "human"}] * 4, "padding": padding}
    response = session.post("/v1/games", json=body)
    assert response.status_code == 413
    assert response.headers["Content-Type"].startswith("application/problem+json")
    assert response.json()["code"] == "payload_too_large"
    game = create_game(session, seats=[{"type": "human"}] * 4)
    token = game["seats"][0]["token"]
    too_big_move = session.post(
        f"/v1/games/{game['game_id']}/bids", data=b'{"bid": 1, "x": "' + b"y" * 20000 + b'"}', headers=auth(token)
    )
    assert too_big_move.status_code == 413
    assert too_big_move.json()["code"] == "payload_too_large"


def test_retry_after_only_where_the_service_means_it(gunicorn_factory):
    """The limiter's counters stay reachable while the game store is down: its 503 keeps "retry in 1 s"."""
    limits = redis_url(API_TEST_DB)
    env = {**LIMITED, "RATE_LIMIT_PER_ADDRESS": "100/minute", "RATE_LIMIT_STORAGE_URL": limits}
    healthy = ContractSession(gunicorn_factory(env))
    served = healthy.get("/v1/rules")
    assert served.status_code == 200
    assert served.headers["X-RateLimit-Limit"] == "100", "the limit is in force"
    assert "Retry-After" not in served.headers, "nothing to retry on a success"

    store_down = ContractSession(gunicorn_factory(env, redis=f"redis://127.0.0.1:{free_port()}/0"))
    unavailable = store_down.get("/v1/games/some-game")
    assert unavailable.status_code == 503 and unavailable.json()["code"] == "unavailable"
    assert unavailable.headers["X-RateLimit-Limit"] == "100", "the limit is in force"
    assert unavailable.headers["Retry-After"] == "1"


def test_record_exports_have_a_limit_of_their_own_per_address(gunicorn_factory):
    env = {**LIMITED, "RATE_LIMIT_PER_ADDRESS": "1000/minute", "EXPORT_RATE_LIMIT": "2/minute"}
    base = gunicorn_factory(env)
    first = from_address(ContractSession(base), "127.0.0.2")
    plain = from_address(requests.Session(), "127.0.0.2")  # an export may be empty: no body to check
    export = {"since": "2099-01-01T00:00:00Z", "format": "ndjson"}
    assert plain.get(f"{base}/v1/records", params=export, timeout=10).status_code == 200
    as_accepted = {"Accept": "application/x-ndjson"}  # the export asked for by Accept counts the same
    assert plain.get(f"{base}/v1/records", params={"since": export["since"]}, headers=as_accepted).status_code == 200
    refused = plain.get(f"{base}/v1/records", params=export, timeout=10)
    assert refused.status_code == 429 and refused.json()["code"] == "export_rate_limited", refused.text
    assert refused.headers["Content-Type"].startswith("application/problem+json")
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert first.get("/v1/records", headers=as_accepted).json()["code"] == "export_rate_limited"  # spec-checked
    assert first.get("/v1/records", params={"limit": 5}).status_code == 200, "pages are not exports"
    other = from_address(requests.Session(), "127.0.0.3")
    assert other.get(f"{base}/v1/records", params=export, timeout=10).status_code == 200, "each address its own"


def test_players_made_have_a_limit_of_their_own_per_address(gunicorn_factory):
    env = {**LIMITED, "RATE_LIMIT_PER_ADDRESS": "1000/minute", "PLAYER_CREATE_RATE_LIMIT": "2/minute"}
    base = gunicorn_factory(env)
    first = from_address(ContractSession(base), "127.0.0.4")
    names = [f"Limited {secrets.token_hex(4)}" for _ in range(4)]
    assert [first.post("/v1/players", json={"name": name}).status_code for name in names[:2]] == [201, 201]
    refused = first.post("/v1/players", json={"name": names[2]})
    assert refused.status_code == 429 and refused.json()["code"] == "player_create_rate_limited", refused.text
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert first.get("/v1/rules").status_code == 200, "only making players is held back"
    other = from_address(ContractSession(base), "127.0.0.5")
    assert other.post("/v1/players", json={"name": names[3]}).status_code == 201, "each address its own"
