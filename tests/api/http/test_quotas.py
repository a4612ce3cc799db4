"""The quotas on game creation over HTTP: real gunicorn on a Redis of each test's own, and, where a game
must end, a real worker.  Every response is checked against openapi.yaml.

Each client is its own loopback address (``from_address``: 127.0.0.2, 127.0.0.3, ...), as distinct
clients are on the internet; the command logic behind them is unit-tested in
tests/api/games/test_quotas.py.
"""

from __future__ import annotations

import pytest
import redis
import requests

from services.computers import level_queues
from testkit.http_clients import from_address
from testkit.processes import running, start_worker

from ..contract import ContractSession
from ..helpers import auth, wait_until

pytestmark = pytest.mark.integration  # real Redis / gunicorn / Celery processes

HUMANS = [{"type": "human"}] * 4
COMPUTERS = [{"type": "ai", "level": "basic"}] * 4
SHORT = {"preset": "partnership", "win_score": 100, "lose_score": -100}
QUOTAS = {"RATE_LIMIT_ENABLED": "1", "RATE_LIMIT_PER_ADDRESS": "100000/minute", "CREATE_RATE_LIMIT": "100000/minute"}


def client(base: str, address: str) -> ContractSession:
    return from_address(ContractSession(base), address)  # type: ignore[return-value]


def create(session: requests.Session, seats: list[dict] = HUMANS, **headers: str) -> requests.Response:
    return session.post("/v1/games", json={"rules": SHORT, "seats": seats}, headers=headers)


def assert_refused(response: requests.Response, code: str, retry_after: range) -> None:
    assert response.status_code == 429, response.text
    assert response.headers["Content-Type"].startswith("application/problem+json")
    assert response.json()["code"] == code and response.json()["status"] == 429
    seconds = response.headers["Retry-After"]
    assert seconds.isdigit() and int(seconds) in retry_after, seconds


def refusals(base: str) -> dict[str, float]:
    text = requests.get(f"{base}/metrics", timeout=10).text
    found: dict[str, float] = {}
    for line in text.splitlines():
        if line.startswith("spades_quota_refusals_total{"):
            code = line.split('code="', 1)[1].split('"', 1)[0]
            found[code] = found.get(code, 0.0) + float(line.rsplit(" ", 1)[1])
    return found


def test_games_created_per_address_are_limited_apart_from_requests_and_the_window_resets(
    private_redis_url, gunicorn_factory
):
    base = gunicorn_factory({**QUOTAS, "CREATE_RATE_LIMIT": "2 per 3 seconds"}, redis=private_redis_url)
    first, second = client(base, "127.0.0.2"), client(base, "127.0.0.3")
    assert [create(first).status_code for _ in range(2)] == [201, 201]
    refused = create(first)
    assert_refused(refused, "create_rate_limited", range(1, 4))
    assert first.get("/v1/rules").status_code == 200, "other requests of the address are not refused"
    assert create(second).status_code == 201, "another address has its own budget"
    wait_until(lambda: create(first).status_code == 201, "the create window never reset", bound=30)
    assert refusals(base).get("create_rate_limited", 0) >= 1


def test_a_forged_forwarded_for_is_ignored_without_trusted_proxies(private_redis_url, gunicorn_factory):
    base = gunicorn_factory({**QUOTAS, "CREATE_RATE_LIMIT": "2/minute"}, redis=private_redis_url)
    forger = client(base, "127.0.0.2")
    assert create(forger, **{"X-Forwarded-For": "203.0.113.1"}).status_code == 201
    assert create(forger, **{"X-Forwarded-For": "203.0.113.2"}).status_code == 201
    assert_refused(create(forger, **{"X-Forwarded-For": "203.0.113.3"}), "create_rate_limited", range(1, 61))
    assert create(client(base, "127.0.0.3")).status_code == 201


def test_behind_one_trusted_proxy_the_forwarded_address_is_the_client(private_redis_url, gunicorn_factory):
    env = {**QUOTAS, "CREATE_RATE_LIMIT": "1/minute", "PROXY_FIX_HOPS": "1"}
    proxy = client(gunicorn_factory(env, redis=private_redis_url), "127.0.0.2")  # one proxy, many clients
    assert create(proxy, **{"X-Forwarded-For": "203.0.113.1"}).status_code == 201
    assert create(proxy, **{"X-Forwarded-For": "203.0.113.2"}).status_code == 201
    # the proxy appends the peer it saw: a client's own forged entry on the left is not the one trusted
    spoofed = create(proxy, **{"X-Forwarded-For": "198.51.100.9, 203.0.113.1"})
    assert_refused(spoofed, "create_rate_limited", range(1, 61))


def test_games_in_play_and_computer_only_games_per_creator_are_freed_when_a_game_ends(
    private_redis_url, gunicorn_factory
):
    env = {**QUOTAS, "MAX_GAMES_IN_PLAY": "2", "MAX_COMPUTER_GAMES": "1"}
    base = gunicorn_factory(env, redis=private_redis_url)
    alice = client(base, "127.0.0.2")
    computers = create(alice, COMPUTERS)  # no worker serves this Redis yet: it waits for its first move
    assert computers.status_code == 201
    assert_refused(create(alice, COMPUTERS), "too_many_computer_games", range(60, 61))
    assert create(alice).status_code == 201  # a game with people: 2 in play
    assert_refused(create(alice), "too_many_games", range(60, 61))
    assert create(client(base, "127.0.0.3"), COMPUTERS).status_code == 201, "each address its own quotas"

    worker = start_worker(private_redis_url, queues=level_queues("basic"))
    with running(worker):
        game_id = computers.json()["game_id"]
        # reading the game keeps it watched (and shows it playing to its end)
        wait_until(lambda: alice.get(f"/v1/games/{game_id}").json()["phase"] == "game_over", "never ended", 240)
        # its end released both holds: one more of each fits again
        assert create(alice, COMPUTERS).status_code == 201
    assert refusals(base).keys() >= {"too_many_games", "too_many_computer_games"}


def test_a_seat_token_counts_as_a_creator_across_addresses(private_redis_url, gunicorn_factory):
    base = gunicorn_factory({**QUOTAS, "MAX_GAMES_IN_PLAY": "1"}, redis=private_redis_url)
    home, phone = client(base, "127.0.0.2"), client(base, "127.0.0.3")
    token = create(home).json()["seats"][0]["token"]  # a person's seat in their first game
    created = create(phone, **auth(token))
    assert created.status_code == 201, "the token holds nothing yet; the phone's address holds nothing"
    assert_refused(create(client(base, "127.0.0.4"), **auth(token)), "too_many_games", range(60, 61))
    assert create(client(base, "127.0.0.4")).status_code == 201, "without the token that address has room"
    stored = redis.Redis.from_url(private_redis_url).hget(f"game:{{{created.json()['game_id']}}}", "meta")
    assert token.encode() not in stored and b"127.0.0" not in stored, "creators are kept hashed"


def test_a_game_abandoned_unfinished_frees_its_place_when_it_expires(private_redis_url, gunicorn_factory):
    env = {**QUOTAS, "MAX_GAMES_IN_PLAY": "1", "GAME_TTL_SECONDS": "2"}
    alice = client(gunicorn_factory(env, redis=private_redis_url), "127.0.0.2")
    assert create(alice).status_code == 201
    assert_refused(create(alice), "too_many_games", range(60, 61))
    wait_until(lambda: create(alice).status_code == 201, "the hold outlived its game", bound=30)
