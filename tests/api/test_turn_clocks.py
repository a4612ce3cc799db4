"""Turn clocks on the real stack: gunicorn, Celery and a Redis of the module's own (so no other test's API
process sweeps its games).  The clocks are the catalogue's ``fast`` scaled by ``CLOCK_SCALE`` (a test setting),
so a deadline comes within a few seconds.

* A deadline passes while every API process is stopped (all killed at once, as soon as the game is made): the
  processes started afterwards give the outage back, and make the timeout move once the clock given back runs out,
  exactly once.
* A person whose whole time ran out while every API process was stopped moves as the service comes back: the move
  is taken, charged only the person's own time; no timeout, the seat not away.
* The same through the store's outage (Redis stopped: every request a ``503``, as while a master fails over).
* 20 races of a person's move sent around its deadline against the timeout move: each turn gets exactly one move.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import redis
import requests

from testkit.processes import free_port, gunicorn, running, start_gunicorn, start_redis, start_worker, stop

from .contract import ContractSession
from .helpers import auth, wait_until
from .sse import messages

pytestmark = pytest.mark.integration

SCALE = 0.05  # fast: 0.5 s a move, 1.5 s of reserve
MOVES = ("bid", "card_played", "blind", "cards_passed", "hand_shown")
PEOPLE = {"seats": [{"type": "human"}] * 4, "options": {"clock": "fast", "ai_takeover": "basic"}}
# A gap in the service's heartbeat longer than 2 s is an outage (no sweep of a loaded test machine's is that late);
# a turn that ran through one has at least 2 s left after it.
OUTAGES = {"CLOCK_OUTAGE_SECONDS": "2", "CLOCK_OUTAGE_GRACE_SECONDS": "2"}
DOWN_SCALE = 0.2  # fast: 2 s a move, 6 s of reserve; the API is killed (``down_after``) well before that


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, subprocess.Popen]]:
    """A Redis of the module's own: its URL and its process."""
    port = free_port()
    process = start_redis(port, str(tmp_path_factory.mktemp("redis")), appendonly=False)
    try:
        yield f"redis://127.0.0.1:{port}/0", process
    finally:
        stop(process)


@pytest.fixture(scope="module")
def stack(server: tuple[str, subprocess.Popen]) -> Iterator[str]:
    """The module's Redis and a worker for the takeover level's queue; yields the Redis URL."""
    url = server[0]
    worker = start_worker(url, queues=("ai.basic",), concurrency=1)
    with running(worker):
        yield url


def api_env(scale: float) -> dict[str, str]:
    return {"CLOCK_SCALE": str(scale), "RATE_LIMIT_ENABLED": "0", "RECORDS_ENABLED": "0", **OUTAGES}


def api(url: str, scale: float = SCALE) -> Any:
    """The API's processes, stopped at once when the block ends (SIGQUIT: the outage begins there, not after a
    graceful stop during which they still sweep)."""
    return gunicorn(url, stop_signal=signal.SIGQUIT, workers=2, env=api_env(scale))


@contextmanager
def down_after(url: str, scale: float) -> Iterator[str]:
    """The API's processes, every one killed in the same instant when the block ends (SIGKILL to their process
    group, as when the machine fails), so the outage begins as the test says.  Even SIGQUIT's quick stop takes
    seconds on a loaded machine, during which the workers still sweep and make the timeout move themselves."""
    process, base = start_gunicorn(url, workers=2, env=api_env(scale), new_session=True)
    try:
        yield base
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def log_of(session: ContractSession, game_id: str) -> list[dict[str, Any]]:
    page = session.get(f"/v1/games/{game_id}/events", params={"after": 0})
    assert page.status_code == 200
    return page.json()["events"]


def test_a_deadline_passing_while_every_api_process_is_down_is_given_back_then_kept_once(stack: str):
    store = redis.Redis.from_url(stack)
    with down_after(stack, DOWN_SCALE) as base:
        created = ContractSession(base).post("/v1/games", json=PEOPLE).json()
    game_id, state = created["game_id"], created["state"]
    seat, deadline = state["clock"]["seat"], state["clock"]["deadline_ms"]
    assert seat == state["turn"] and deadline - state["server_time_ms"] <= 8_000
    wait_until(lambda: time.time() * 1000 > deadline + 1_000, "the deadline passes while no API process runs")
    logged = [json.loads(fields[b"e"])["type"] for _, fields in store.xrange(f"game:{{{game_id}}}:events")]
    assert int(store.hget(f"game:{{{game_id}}}", "v")) == 1, f"nobody made the move meanwhile: {logged}"
    with api(stack, scale=DOWN_SCALE) as base:
        session = ContractSession(base)
        wait_until(lambda: "turn_timed_out" in kinds(session, game_id), "the timeout move is made")
        events = log_of(session, game_id)
        credits = [e for e in events if e["type"] == "clock_credited"]  # one, unless a stalled machine made more
        streamed = turn_clocks_streamed(base, game_id, len(credits) + 2)
    assert credits and {e["data"]["seat"] for e in credits} == {seat}, "the outage given back first"
    assert max(e["data"]["back_ms"] for e in credits) > deadline, "it covered the deadline"
    given = deadline + sum(e["data"]["given_ms"] for e in credits)
    assert [c["seat"] for c in streamed] == [seat] * (len(credits) + 1) + [(seat + 1) % 4], "then the next seat's"
    assert streamed[-2]["deadline_ms"] == given, "each credit's turn_clock says the later deadline"
    assert all(c["server_time_ms"] >= deadline for c in streamed), "stamped as delivered, after the restart"
    timed_out = [e for e in events if e["type"] == "turn_timed_out"]
    assert timed_out[0]["data"]["seat"] == seat and timed_out[0]["version"] == credits[-1]["version"] + 1
    assert timed_out[0]["data"]["deadline_ms"] == given and timed_out[0]["data"]["level"] == "basic"
    assert timed_out[0]["data"]["at_ms"] >= given, "not before the clock given back ran out"
    moves = [(e["version"], e["data"]["seat"]) for e in events if e["type"] in MOVES]
    assert moves[0] == (timed_out[0]["version"], seat), "the timeout's move"
    assert len(moves) == len({v for v, _ in moves}), "one move per version"
    assert [e["data"]["seat"] for e in timed_out].count(seat) == 1, "the turn timed out once"


def the_persons_move(session: ContractSession, game_id: str, token: str) -> requests.Response:
    """The seat's first legal bid, as its person sends it (the service may have moved on since they saw it)."""
    mine = session.get(f"/v1/games/{game_id}", headers=auth(token)).json()
    return session.post(f"/v1/games/{game_id}/bids", json={"bid": mine["legal"][0]}, headers=auth(token))


def not_charged_for_the_outage(session: ContractSession, game_id: str, seat: int, deadline: int) -> None:
    """The seat's move was taken as its own, its time not spent by the outage: no timeout, not away, reserve left."""
    events = log_of(session, game_id)
    assert not [e for e in events if e["type"] == "turn_timed_out"], "the person's turn never timed out"
    moved = [e for e in events if e["type"] in MOVES]
    assert moved[0]["data"]["seat"] == seat, "the first move is the person's own"
    after = session.get(f"/v1/games/{game_id}").json()["clock"]
    assert not after["away"][seat], "the seat is not away"
    assert after["reserve_ms"][seat] > 0, "the outage (longer than all of it) did not spend the reserve"
    credits = [e for e in events if e["type"] == "clock_credited"]
    credited = [e["data"] for e in credits if e["data"]["seat"] == seat]
    assert credited, events
    assert max(c["back_ms"] for c in credited) > deadline, "the outage covered it"
    # a loaded machine's beat may end the outage just after the person's move: the next seat is then credited
    # the overlap with its own turn (a millisecond or so), never a turn before the person's move
    others = [e for e in credits if e["data"]["seat"] != seat]
    assert all(e["version"] > moved[0]["version"] for e in others), events


def test_a_person_whose_time_ran_out_while_every_api_process_was_down_moves_as_it_comes_back(stack: str):
    with down_after(stack, DOWN_SCALE) as base:
        created = ContractSession(base).post("/v1/games", json=PEOPLE).json()
    game_id, tokens, state = created["game_id"], [s["token"] for s in created["seats"]], created["state"]
    seat, deadline = state["clock"]["seat"], state["clock"]["deadline_ms"]
    # every API process stopped for longer than the person's whole time (8 s): the deadline passes meanwhile
    wait_until(lambda: time.time() * 1000 > deadline + 2_000, "the deadline passes while no API process runs")
    store = redis.Redis.from_url(stack)
    assert int(store.get("service:{beat}")) < deadline, "every API process was down before the deadline"
    assert int(store.hget(f"game:{{{game_id}}}", "v")) == 1, "nobody moved meanwhile"
    with api(stack, scale=DOWN_SCALE) as base:
        session = ContractSession(base)
        moved = the_persons_move(session, game_id, tokens[seat])  # sent as the service comes back
        assert moved.status_code == 200, moved.text
        not_charged_for_the_outage(session, game_id, seat, deadline)


def test_a_person_whose_time_ran_out_while_the_store_was_down_moves_as_it_comes_back(server, stack: str):
    """Redis stopped (SIGSTOP): every request that needs it answers ``503``, as while a master fails over; no API
    process can beat meanwhile, so the gap is an outage like a stopped API's."""
    redis_process = server[1]
    with api(stack, scale=0.1) as base:
        session = ContractSession(base)
        created = session.post("/v1/games", json=PEOPLE).json()
        game_id, tokens, state = created["game_id"], [s["token"] for s in created["seats"]], created["state"]
        seat, deadline = state["clock"]["seat"], state["clock"]["deadline_ms"]
        os.kill(redis_process.pid, signal.SIGSTOP)
        try:
            wait_until(lambda: session.get(f"/v1/games/{game_id}").status_code == 503, "the store refuses")
            wait_until(lambda: time.time() * 1000 > deadline + 2_000, "the deadline passes while it refuses")
        finally:
            os.kill(redis_process.pid, signal.SIGCONT)
        moved = the_persons_move(session, game_id, tokens[seat])
        assert moved.status_code == 200, moved.text
        not_charged_for_the_outage(session, game_id, seat, deadline)


def kinds(session: ContractSession, game_id: str) -> list[str]:
    return [e["type"] for e in log_of(session, game_id)]


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
