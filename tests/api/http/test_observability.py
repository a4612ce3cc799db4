"""Metrics, request ids and JSON access logs, over HTTP against real gunicorn processes.

Each test reads counters from a gunicorn of its own, so every expected value is
exactly what the test did.  AI tests run on a Redis server of their own.  It
once had to be a server, not a database: every API process subscribed to every
``celery-task-meta-*`` publication, and pub/sub ignores database numbers.  Now
each process subscribes only to its own tasks' results, so another process
can't hear this test's decisions; the private server still keeps the turn
timers, queues and worker apart, so no other API process's deadline sweep can
apply (and count) one of them.
"""

from __future__ import annotations

import base64
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
import requests
from prometheus_client import multiprocess
from prometheus_client.parser import text_string_to_metric_families

from services.api.http.observability import sized_metric_files
from services.computers import WORKER_QUEUES, level_queues
from services.engine import make_rules, new_game, view
from testkit.processes import free_port, gunicorn, running, start_redis, start_worker, stop
from tests.conftest import API_TEST_DB, redis_url

from ..contract import ContractSession
from ..helpers import auth, create_game, wait_until

pytestmark = pytest.mark.integration  # real Redis / gunicorn / Celery processes

NO_LIMITS = {"RATE_LIMIT_ENABLED": "0", "COMPUTER_GAME_PACE_SECONDS": "0"}  # computer-only games at full speed
AI_QUEUES = WORKER_QUEUES
CARD = re.compile(r"^[2-9TJQKA][CDHS]$")
SHORT = {"preset": "partnership", "win_score": 1, "lose_score": -1}  # over after the first round


@pytest.fixture
def private_redis_url(tmp_path) -> Iterator[str]:
    """A Redis server of this test's own on a free port (see the module docstring)."""
    port = free_port()
    data = tmp_path / "redis"
    data.mkdir()
    server = start_redis(port, str(data), appendonly=False)
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        stop(server)


def scrape(base: str) -> dict[tuple[str, frozenset], float]:
    """``/metrics`` parsed with prometheus-client's own parser: {(sample name, labels): value}."""
    response = ContractSession(base).get("/metrics")
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/plain")
    samples = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            samples[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return samples


def value(samples: dict, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def served_per_process(metrics_dir: Path, route: str) -> dict[str, float]:
    """GET ``route`` requests counted in each worker's own multiprocess file (a booting worker's
    may still be empty: no count yet)."""
    counts = {}
    for path in sized_metric_files(str(metrics_dir), "counter_*.db"):
        for metric in multiprocess.MultiProcessCollector.merge([path], accumulate=True):
            for sample in metric.samples:
                if sample.name == "spades_http_requests_total" and sample.labels.get("route") == route:
                    counts[path] = counts.get(path, 0.0) + sample.value
    return counts


def test_request_counts_sum_over_both_worker_processes(tmp_path):
    metrics_dir = tmp_path / "metrics"
    env = {**NO_LIMITS, "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir)}
    with gunicorn(redis_url(API_TEST_DB), workers=2, env=env) as base:
        made = 0
        while made < 400:  # a fresh connection each time, so the kernel hands them to either worker
            assert requests.get(base + "/v1/rules", timeout=10).status_code == 200
            made += 1
            if made >= 20 and len(served_per_process(metrics_dir, "/v1/rules")) == 2:
                break
        per_process = served_per_process(metrics_dir, "/v1/rules")
        assert len(per_process) == 2 and all(n > 0 for n in per_process.values()), per_process
        samples = scrape(base)
        route = {"method": "GET", "route": "/v1/rules"}
        assert value(samples, "spades_http_requests_total", status="200", **route) == made
        assert value(samples, "spades_http_request_duration_seconds_count", **route) == made
        assert value(samples, "spades_http_request_duration_seconds_bucket", le="+Inf", **route) == made


def test_moves_and_games_are_counted(gunicorn_factory):
    base = gunicorn_factory()
    session = ContractSession(base)
    game = create_game(session, seats=[{"type": "human"}] * 4)
    create_game(session, seats=[{"type": "human"}] * 4)
    game_id, tokens = game["game_id"], [s["token"] for s in game["seats"]]
    mover = session.get(f"/v1/games/{game_id}").json()["turn"]
    bystander = (mover + 2) % 4

    accepted = session.post(f"/v1/games/{game_id}/bids", json={"bid": 3}, headers=auth(tokens[mover]))
    assert accepted.status_code == 200
    out_of_turn = session.post(f"/v1/games/{game_id}/bids", json={"bid": 2}, headers=auth(tokens[bystander]))
    assert out_of_turn.status_code == 409
    next_seat = (mover + 1) % 4
    hand = session.get(f"/v1/games/{game_id}", headers=auth(tokens[next_seat])).json()["hand"]
    card_in_bidding = session.post(
        f"/v1/games/{game_id}/plays", json={"card": hand[0]}, headers=auth(tokens[next_seat])
    )
    assert card_in_bidding.status_code == 422

    samples = scrape(base)
    assert value(samples, "spades_moves_total", kind="bid", outcome="accepted") == 1
    assert value(samples, "spades_moves_total", kind="bid", outcome=out_of_turn.json()["reason"]) == 1
    assert value(samples, "spades_moves_total", kind="play", outcome=card_in_bidding.json()["reason"]) == 1
    assert card_in_bidding.json()["reason"] == "wrong_phase"
    assert value(samples, "spades_games_created_total") == 2
    assert value(samples, "spades_games_finished_total") == 0
    move_route = {"method": "POST", "route": "/v1/games/<game_id>/bids"}
    assert value(samples, "spades_http_requests_total", status="409", **move_route) == 1
    for queue in AI_QUEUES:
        assert (("spades_ai_queue_depth", frozenset({"node": "0", "queue": queue}.items()))) in samples


def test_store_errors_are_counted(gunicorn_factory):
    session = ContractSession(gunicorn_factory(redis=f"redis://127.0.0.1:{free_port()}/0"))  # nothing listens
    for _ in range(3):
        response = session.get("/v1/games/some-game")
        assert response.status_code == 503 and response.json()["code"] == "unavailable"
    samples = scrape(session.base_url)
    store_errors = {
        dict(labels)["error"]: n for (name, labels), n in samples.items() if name == "spades_store_errors_total"
    }
    # "broker" counts failed queue-depth reads at scrape time; the rest are the three requests
    assert sum(n for error, n in store_errors.items() if error != "broker") == 3, store_errors


def test_ai_turn_message_carries_the_request_id_and_only_its_own_hand(private_redis_url):
    """No worker runs on this Redis, so the task message waits in its queue's list to be read."""
    env = {**NO_LIMITS, "AI_ENABLED": "0"}  # no deadline re-sends: exactly one message
    seed = 4242
    with gunicorn(private_redis_url, env=env) as base:
        session = ContractSession(base)
        seats = [{"type": "ai", "level": "standard"}] * 4
        created = session.post(
            "/v1/games", json={"rules": {"preset": "partnership"}, "seats": seats, "seed": seed},
            headers={"X-Request-ID": "create-ai-game-1"},
        )  # fmt: skip
        assert created.status_code == 201
        assert created.headers["X-Request-ID"] == "create-ai-game-1"
        samples = scrape(base)
        broker = redis.Redis.from_url(private_redis_url)
        try:  # four computers: the turn went to the level's bulk queue
            assert broker.llen("ai.bulk.standard") == 1
            message = json.loads(broker.lindex("ai.bulk.standard", 0))
        finally:
            broker.close()
    assert value(samples, "spades_ai_queue_depth", node="0", queue="ai.bulk.standard") == 1
    assert value(samples, "spades_ai_queue_depth", node="0", queue="ai.standard") == 0
    assert value(samples, "spades_ai_queue_depth", node="0", queue="ai.easy") == 0
    assert value(samples, "spades_ai_queue_depth", node="0", queue="ai.pro") == 0

    assert message["headers"]["task"] == "ai.decide"
    _args, kwargs, _embed = json.loads(base64.b64decode(message["body"]))
    assert kwargs["request_id"] == "create-ai-game-1"
    assert kwargs["game_id"] == created.json()["game_id"] and kwargs["level"] == "standard"
    seat = kwargs["seat"]
    assert kwargs["view"]["you"] == seat
    state = new_game(make_rules("partnership"), seed=seed)
    own_hand = view(state, seat)["hand"]
    assert sorted(kwargs["view"]["hand"]) == sorted(own_hand) and len(own_hand) == 13
    cards_in_message = {s for s in strings_in(kwargs) if CARD.match(s)}
    assert cards_in_message <= set(own_hand), "the task sees no card of another hand"


def strings_in(obj) -> Iterator[str]:
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for key, item in obj.items():
            yield key
            yield from strings_in(item)
    elif isinstance(obj, list):
        for item in obj:
            yield from strings_in(item)


def test_ai_game_counts_decisions_by_level_and_the_finished_game(private_redis_url):
    with gunicorn(private_redis_url, env=NO_LIMITS) as base:
        worker = start_worker(private_redis_url, queues=level_queues("easy"))
        with running(worker):
            session = ContractSession(base)
            seats = [{"type": "ai", "level": "easy"}] * 4
            game = session.post("/v1/games", json={"rules": SHORT, "seats": seats}).json()
            events = follow_until_game_over(session, game["game_id"])
            ai_moves = [e for e in events if e["type"] in ("bid", "card_played")]
            cards = sum(e["type"] == "card_played" for e in events)
            # game_over is readable once the last decision is committed; the process that applied it
            # counts the move, the finished game and the decision only after that commit
            wait_until(lambda: all_counted(scrape(base), len(ai_moves), cards), "the last AI move was never counted")
            samples = scrape(base)
    assert len(ai_moves) >= 56  # at least one full round: 4 bids and 52 cards
    assert value(samples, "spades_ai_decision_seconds_count", level="easy") == len(ai_moves)
    assert value(samples, "spades_ai_decision_seconds_bucket", level="easy", le="+Inf") == len(ai_moves)
    assert value(samples, "spades_ai_decision_seconds_sum", level="easy") > 0
    assert value(samples, "spades_ai_decision_seconds_count", level="pro") == 0
    # a computer-only game: every turn went to the bulk queue, and its wait is counted in that class
    assert value(samples, "spades_ai_queue_wait_seconds_count", **{"class": "bulk"}) == len(ai_moves)
    assert value(samples, "spades_ai_queue_wait_seconds_count", **{"class": "interactive"}) == 0
    assert value(samples, "spades_games_created_total") == 1
    assert value(samples, "spades_games_finished_total") == 1
    assert value(samples, "spades_moves_total", kind="play", outcome="accepted") == cards
    for queue in AI_QUEUES:
        assert value(samples, "spades_ai_queue_depth", node="0", queue=queue) == 0


def all_counted(samples: dict, decisions: int, cards: int) -> bool:
    """Whether the metrics have caught up with a finished all-easy game of ``decisions`` AI moves."""
    return (
        value(samples, "spades_ai_decision_seconds_count", level="easy") >= decisions
        and value(samples, "spades_moves_total", kind="play", outcome="accepted") >= cards
        and value(samples, "spades_games_finished_total") >= 1
    )


def follow_until_game_over(session: ContractSession, game_id: str, timeout: float = 120.0) -> list[dict]:
    events, after, deadline = [], 0, time.monotonic() + timeout
    while time.monotonic() < deadline:
        page = session.get(f"/v1/games/{game_id}/events", params={"after": after, "wait": 10})
        assert page.status_code == 200
        for event in page.json()["events"]:
            events.append(event)
            after = event["seq"]
            if event["type"] == "game_over":
                return events
    raise AssertionError(f"no game_over within {timeout} s; last events: {events[-3:]}")


def request_lines(log_path: Path) -> list[dict]:
    """The access log's lines, but for the launcher's ``/healthz`` probes."""
    lines = []
    for line in log_path.read_text().splitlines():
        if line.startswith("{"):
            record = json.loads(line)
            if record.get("logger") == "services.api.access" and record["route"] != "/healthz":
                lines.append(record)
    return lines


def test_one_json_access_line_per_request_without_tokens_or_hands(tmp_path):
    log_path = tmp_path / "api.log"
    env = {**NO_LIMITS, "LOG_LEVEL": "INFO"}
    with gunicorn(redis_url(API_TEST_DB), env=env, log_path=log_path) as base:
        session = ContractSession(base)

        def call(method: str, path: str, request_id: str, **kwargs) -> requests.Response:
            response = session.request(
                method, path, headers={"X-Request-ID": request_id, **kwargs.pop("headers", {})}, **kwargs
            )
            assert response.headers["X-Request-ID"] == request_id, "a well-formed request id is echoed"
            return response

        created = call(
            "POST",
            "/v1/games",
            "rid-create",
            json={"rules": {"preset": "partnership"}, "seats": [{"type": "human"}] * 4},
        )
        game_id = created.json()["game_id"]
        tokens = [s["token"] for s in created.json()["seats"]]
        views = [
            call("GET", f"/v1/games/{game_id}", f"rid-view-{seat}", headers=auth(tokens[seat])).json()
            for seat in range(4)
        ]
        mover = views[0]["turn"]
        bid = call("POST", f"/v1/games/{game_id}/bids", "rid-bid", json={"bid": 2}, headers=auth(tokens[mover]))
        refused = call("POST", f"/v1/games/{game_id}/bids", "rid-refused", json={"bid": 2}, headers=auth(tokens[mover]))
        call("GET", f"/v1/games/{game_id}/events", "rid-events")
        call("GET", "/v1/games/no-such-game", "rid-missing")
        bad = session.get("/v1/rules", headers={"X-Request-ID": "not a valid id!"})
        generated = bad.headers["X-Request-ID"]
        assert re.fullmatch(r"[0-9a-f]{32}", generated), generated

        expected = {
            "rid-create": ("POST", "/v1/games", 201, None, None),
            **{f"rid-view-{s}": ("GET", "/v1/games/<game_id>", 200, game_id, s) for s in range(4)},
            "rid-bid": ("POST", "/v1/games/<game_id>/bids", 200, game_id, mover),
            "rid-refused": ("POST", "/v1/games/<game_id>/bids", 409, game_id, mover),
            "rid-events": ("GET", "/v1/games/<game_id>/events", 200, game_id, None),
            "rid-missing": ("GET", "/v1/games/<game_id>", 404, "no-such-game", None),
            generated: ("GET", "/v1/rules", 200, None, None),
        }
        lines = request_lines(log_path)
        deadline = time.monotonic() + 10  # lines are written before each response is sent: this absorbs buffering
        while not {line["request_id"] for line in lines} >= set(expected) and time.monotonic() < deadline:
            time.sleep(0.05)
            lines = request_lines(log_path)
    assert bid.status_code == 200 and refused.status_code == 409
    by_id: dict[str, list[dict]] = {}
    for line in lines:
        by_id.setdefault(line["request_id"], []).append(line)
    assert set(by_id) == set(expected), sorted(by_id)
    for request_id, (method, route, status, line_game, seat) in expected.items():
        [line] = by_id[request_id]  # exactly one line per request
        assert (line["method"], line["route"], line["status"]) == (method, route, status), line
        assert (line["game_id"], line["seat"]) == (line_game, seat), line
        assert isinstance(line["duration_ms"], int | float) and line["duration_ms"] >= 0
    assert "not a valid id!" not in log_path.read_text()

    text = log_path.read_text()
    for token in tokens:
        assert token not in text, "a seat token leaked into the log"
    dealt = {card for v in views for card in v["hand"]}
    assert len(dealt) == 52
    for card in dealt:
        assert f'"{card}"' not in text, f"card {card} of a hand leaked into the log"
