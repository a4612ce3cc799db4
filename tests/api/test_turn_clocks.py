"""Turn clocks on the real stack: gunicorn, Celery and a Redis of the module's own (so no other test's API
process sweeps its games).  The clocks are the catalogue's ``fast`` scaled by ``CLOCK_SCALE`` (a test setting),
so a deadline comes within a few seconds.

* A deadline passes while every API process is stopped: the processes started afterwards make the timeout move,
  exactly once.
* 20 races of a person's move sent around its deadline against the timeout move: each turn gets exactly one move.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis
import requests

from testkit.processes import free_port, gunicorn, running, start_redis, start_worker, stop

from .contract import ContractSession
from .helpers import auth, wait_until
from .sse import messages

pytestmark = pytest.mark.integration

SCALE = 0.05  # fast: 0.5 s a move, 1.5 s of reserve
MOVES = ("bid", "card_played", "blind", "cards_passed", "hand_shown")
PEOPLE = {"seats": [{"type": "human"}] * 4, "options": {"clock": "fast", "ai_takeover": "basic"}}


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Redis of the module's own and a worker for the takeover level's queue; yields the Redis URL."""
    port = free_port()
    server = start_redis(port, str(tmp_path_factory.mktemp("redis")), appendonly=False)
    url = f"redis://127.0.0.1:{port}/0"
    try:
        worker = start_worker(url, queues=("ai.basic",), concurrency=1)
        with running(worker):
            yield url
    finally:
        stop(server)


def api(url: str) -> Any:
    env = {"CLOCK_SCALE": str(SCALE), "RATE_LIMIT_ENABLED": "0", "RECORDS_ENABLED": "0"}
    return gunicorn(url, workers=2, env=env)


def log_of(session: ContractSession, game_id: str) -> list[dict[str, Any]]:
    page = session.get(f"/v1/games/{game_id}/events", params={"after": 0})
    assert page.status_code == 200
    return page.json()["events"]


def test_a_deadline_passing_while_every_api_process_is_down_is_kept_once_they_are_back(stack: str):
    store = redis.Redis.from_url(stack)
    with api(stack) as base:
        created = ContractSession(base).post("/v1/games", json=PEOPLE).json()
    game_id, state = created["game_id"], created["state"]
    seat, deadline = state["clock"]["seat"], state["clock"]["deadline_ms"]
    assert seat == state["turn"] and deadline - state["server_time_ms"] <= 2_000
    wait_until(lambda: time.time() * 1000 > deadline + 1_000, "the deadline passes while no API process runs")
    assert int(store.hget(f"game:{{{game_id}}}", "v")) == 1, "nobody made the move meanwhile"
    with api(stack) as base:
        session = ContractSession(base)
        wait_until(lambda: session.get(f"/v1/games/{game_id}").json()["version"] >= 2, "the timeout move is made")
        events = log_of(session, game_id)
        streamed = turn_clocks_streamed(base, game_id, 2)
    assert [c["seat"] for c in streamed] == [seat, (seat + 1) % 4], "the next seat's clock starts with the timeout"
    assert all(c["server_time_ms"] >= deadline for c in streamed), "stamped as delivered, after the restart"
    timed_out = [e for e in events if e["type"] == "turn_timed_out"]
    assert timed_out[0]["data"]["seat"] == seat and timed_out[0]["version"] == 2
    assert timed_out[0]["data"]["deadline_ms"] == deadline and timed_out[0]["data"]["level"] == "basic"
    moves = [(e["version"], e["data"]["seat"]) for e in events if e["type"] in MOVES]
    assert moves[0] == (2, seat) and len(moves) == len({v for v, _ in moves}), "one move per version"
    assert [e["data"]["seat"] for e in timed_out].count(seat) == 1, "the turn timed out once"


def turn_clocks_streamed(base: str, game_id: str, count: int) -> list[dict[str, Any]]:
    """The data of the first ``count`` ``turn_clock`` messages of the game's stream (from its first event)."""
    found: list[dict[str, Any]] = []
    with requests.get(f"{base}/v1/games/{game_id}/stream", params={"after": 0}, stream=True, timeout=30) as response:
        for message in messages(response):
            if message.event == "turn_clock":
                found.append(message.json()["data"])
                if len(found) == count:
                    break
    return found


def race(session: ContractSession, game_id: str, tokens: list[str], offset_ms: int) -> tuple[int, int, int]:
    """One race: the seat to move sends its move ``offset_ms`` after its deadline (by the server's clock),
    pinned to the version it saw; the version raced for, the seat, and the status of its move."""
    view = session.get(f"/v1/games/{game_id}").json()
    seat = view["turn"]
    if view["clock"]["away"][seat]:  # two timeouts in a row: back first, so its clock runs again
        back = session.post(f"/v1/games/{game_id}/seats/{seat}/back", headers=auth(tokens[seat]))
        assert back.status_code == 200
    mine = session.get(f"/v1/games/{game_id}", headers=auth(tokens[seat])).json()
    clock, version = mine["clock"], mine["version"]
    if mine["turn"] != seat or clock["seat"] != seat:
        return version, seat, 0  # the computer got there while it came back: no race this time
    legal = mine["legal"][0]
    kind, body = ("bids", {"bid": legal}) if mine["phase"] == "bidding" else ("plays", {"card": legal})
    # the server's clock, never this one's: wait until its deadline plus the offset, by the server's time
    time.sleep(max(0.0, (clock["deadline_ms"] + offset_ms - mine["server_time_ms"]) / 1000))
    headers = {**auth(tokens[seat]), "If-Match": f'"{version}"'}
    response = session.post(f"/v1/games/{game_id}/{kind}", json=body, headers=headers)
    assert response.status_code in (200, 412), response.text
    wait_until(lambda: session.get(f"/v1/games/{game_id}").json()["version"] > version, "the turn is played")
    return version, seat, response.status_code


def test_a_persons_last_moment_move_and_the_timeout_apply_exactly_one_move_each_race(stack: str):
    with api(stack) as base:
        session = ContractSession(base)
        created = session.post("/v1/games", json=PEOPLE).json()
        game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
        races = [race(session, game_id, tokens, offset_ms=-60 + 15 * i) for i in range(20)]
        events = log_of(session, game_id)
    assert sum(status != 0 for _, _, status in races) >= 15, "most turns were raced"
    for version, seat, status in races:
        if not status:
            continue
        at = [e for e in events if e["version"] == version + 1]
        moved = [e["data"]["seat"] for e in at if e["type"] in MOVES]
        timed_out = [e for e in at if e["type"] == "turn_timed_out"]
        assert moved == [seat], f"exactly one move for the turn at version {version}: {at}"
        if status == 200:
            assert not timed_out, "the person's move got in first: no timeout"
        elif status == 412:
            assert [e["data"]["seat"] for e in timed_out] == [seat], "the timeout got in first"
    moves = [e["version"] for e in events if e["type"] in MOVES]
    assert len(moves) == len(set(moves)), "never two moves in one version"
