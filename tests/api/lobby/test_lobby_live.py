"""The lobby over HTTP on real servers: two gunicorns (one worker each: two API processes) on one Redis.

Quick match across both processes seats every person once and every seat once; a group whose forming process
is killed (SIGKILL, right after its script formed the group, before the game exists) is seated by the servers'
sweepers with the ids it was formed with; public tables are listed and unlisted by claims and leaves on either
server, and the lobby stream carries each change.  Every response is checked against openapi.yaml.
"""

from __future__ import annotations

import secrets
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import requests

from services.api.lobby.match_requests import bucket_of_id
from services.api.store.matches import match_channel
from spades_client import SpadesClient
from testkit.processes import ROOT
from tests.conftest import API_TEST_DB, redis_url, run_gunicorn

from ..contract import ContractSession, check_response
from ..helpers import auth, wait_until
from ..sse import messages

pytestmark = pytest.mark.integration
ENV = {
    "MATCH_FORM_LEASE_SECONDS": "2",
    "MATCH_SWEEP_INTERVAL_SECONDS": "0.1",
    "LOBBY_CHECK_SECONDS": "5",
    "STREAM_HEARTBEAT_SECONDS": "1",  # the test closes its stream: the reader returns at the next heartbeat
}


@pytest.fixture(scope="module")
def two_servers(redis_db1) -> Iterator[tuple[str, str]]:
    with run_gunicorn(ENV, workers=1) as a, run_gunicorn(ENV, workers=1) as b:
        yield a, b


def follow(base: str, asked: dict[str, Any]) -> dict[str, Any]:
    """Long-poll the request until it is no longer waiting (as a person's client does)."""
    session = ContractSession(base)
    for _ in range(20):
        response = session.get(f"/v1/matches/{asked['match_id']}?wait=30", headers=auth(asked["secret"]))
        assert response.status_code == 200, response.text
        if response.json()["status"] != "waiting":
            return response.json()
    raise AssertionError("still waiting after 20 long polls")


def person(bases: tuple[str, str], n: int) -> dict[str, Any]:
    """Ask on one server, follow on the other."""
    body = {"clock": ("normal", "fast")[n % 3 == 0], "max_wait_seconds": 5, "fill_level": "basic"}
    response = ContractSession(bases[n % 2]).post("/v1/matches", json=body)
    assert response.status_code == 202, response.text
    assert response.headers["Location"] == f"/v1/matches/{response.json()['match_id']}"
    return follow(bases[(n + 1) % 2], response.json())


def test_quick_match_across_two_processes_seats_each_person_once_and_each_seat_once(two_servers):
    with ThreadPoolExecutor(30) as pool:
        seated = list(pool.map(lambda n: person(two_servers, n), range(30)))
    assert {m["status"] for m in seated} == {"seated"}, "no request lost"
    places = [(m["game_id"], m["seat"]) for m in seated]
    assert len(set(places)) == 30, "no seat given twice"
    people_per_game: dict[str, int] = {}
    for match in seated:
        view = requests.get(f"{two_servers[0]}/v1/games/{match['game_id']}", headers=auth(match["token"]), timeout=10)
        check_response(view)
        assert view.json()["you"] == match["seat"], "the token holds the seat it was given"
        people_per_game[match["game_id"]] = people_per_game.get(match["game_id"], 0) + 1
    for game_id, people in people_per_game.items():
        seats = requests.get(f"{two_servers[1]}/v1/games/{game_id}", timeout=10).json()["seats"]
        assert sum(s["type"] == "human" for s in seats) == people, "no person's seat without its request"


KILLED_FORMER = """
import os, signal, sys
from services.api.config import load_config
from services.api.games.commands import Collaborators
from services.api.lobby import matchmaker as module
from services.api.lobby.matchmaker import Matchmaker
from services.api.store.redis_store import make_store
from services.api.games.record import GameRecord

SECRET = "a-secret-only-the-killed-process-and-the-test-know-0123456789"
module.new_token = lambda: SECRET

def killed(ctx, bucket, group, times, hold_seconds, *more):
    print(group.members[-1].match_id, SECRET, group.game_id, flush=True)
    os.kill(os.getpid(), signal.SIGKILL)  # the group is formed and leased to this process: its game is not made

store = make_store(load_config({"REDIS_URL": sys.argv[1]}), GameRecord.from_stored)
module.seat_group = killed
body = {"rules": {"preset": "individual"}, "clock": "relaxed", "max_wait_seconds": 60, "fill_level": "easy"}
Matchmaker(Collaborators(store)).submit(body, "192.0.2.44", None)
"""


def test_a_group_whose_forming_process_is_killed_is_seated_by_the_servers(two_servers):
    a, b = two_servers
    body = {"rules": {"preset": "individual"}, "clock": "relaxed", "max_wait_seconds": 60, "fill_level": "easy"}
    asked = [ContractSession((a, b)[n % 2]).post("/v1/matches", json=body).json() for n in range(3)]
    former = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(KILLED_FORMER), redis_url(API_TEST_DB)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert former.returncode == -9, former.stderr
    match_id, secret, game_id = former.stdout.split()
    asked.append({"match_id": match_id, "secret": secret})
    results = [follow((a, b)[n % 2], m) for n, m in enumerate(asked)]
    assert {m["status"] for m in results} == {"seated"}
    assert {m["game_id"] for m in results} == {game_id}, "created with the id the group was formed with"
    assert sorted(m["seat"] for m in results) == [0, 1, 2, 3]
    view = ContractSession(a).get(f"/v1/games/{game_id}", headers=auth(results[3]["token"])).json()
    assert view["you"] == results[3]["seat"] and view["rules"]["scoring"] == "individual"


def test_a_waiting_request_can_be_cancelled_from_either_server(two_servers):
    a, b = two_servers
    asked = ContractSession(a).post("/v1/matches", json={"clock": "correspondence", "max_wait_seconds": 120}).json()
    cancelled = ContractSession(b).delete(f"/v1/matches/{asked['match_id']}", headers=auth(asked["secret"]))
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    wrong = ContractSession(a).get(f"/v1/matches/{asked['match_id']}", headers=auth("another-secret"))
    assert wrong.status_code == 401 and wrong.json()["code"] == "unauthorized"


def test_a_waiting_request_says_who_is_found_and_its_long_poll_answers_when_that_changes(two_servers, redis_db1):
    """Three people ask in a bucket of this run's own (rules nobody else asks for); the first one's long poll, on
    the other server, is watching its bucket when the second asks, and answers with two found."""
    a, b = two_servers
    rules = {"preset": "partnership", "win_score": 200 + 10 * secrets.randbelow(70)}
    body = {"rules": rules, "clock": "relaxed", "max_wait_seconds": 120, "fill_level": "pro"}
    first = ContractSession(a).post("/v1/matches", json=body).json()
    channel = match_channel(bucket_of_id(first["match_id"]))
    with ThreadPoolExecutor(1) as pool:
        path = f"/v1/matches/{first['match_id']}?wait=30&found=1"
        poll = pool.submit(ContractSession(b).get, path, headers=auth(first["secret"]))
        wait_until(lambda: redis_db1.execute_command("PUBSUB", "SHARDNUMSUB", channel)[1] == 1, "no poll watches")
        second = ContractSession(a).post("/v1/matches", json={**body, "fill_level": "easy"}).json()
        answer = poll.result(timeout=60)
    assert answer.status_code == 200, answer.text
    shown = answer.json()
    assert (shown["status"], shown["found"], shown["seats"], shown["fill_level"]) == ("waiting", 2, 4, "pro")
    client = SpadesClient(b)
    third = client.create_match(rules, "relaxed", 120, "basic")
    match = client.get_match(third.match_id, third.secret, wait=30, found=1)  # another count: answered at once
    assert (match.status, match.found, match.seats, match.fill_level) == ("waiting", 3, 4, "pro")
    for asked in (first, second, {"match_id": third.match_id, "secret": third.secret}):
        gone = ContractSession(a).delete(f"/v1/matches/{asked['match_id']}", headers=auth(asked["secret"])).json()
        assert (gone["status"], gone["found"], gone["fill_level"]) == ("cancelled", None, None)


def test_public_tables_are_listed_and_unlisted_by_claims_and_leaves_and_streamed(two_servers):
    a, b = two_servers
    start = ContractSession(b).get("/v1/tables").json()["last_seq"]
    stream = requests.get(f"{b}/v1/tables/stream", params={"after": start}, stream=True, timeout=60)
    assert stream.status_code == 200 and stream.headers["Content-Type"].startswith("text/event-stream")
    frames: list[dict[str, Any]] = []
    reader = threading.Thread(target=_read_changes, args=(stream, frames), daemon=True)
    reader.start()
    seats = [{"type": "human"}, {"type": "open"}, {"type": "open"}, {"type": "ai", "level": "basic"}]
    created = ContractSession(a).post("/v1/games", json={"seats": seats, "options": {"public": True}}).json()
    game_id = created["game_id"]

    def listed() -> dict[str, Any] | None:
        page = ContractSession(b).get("/v1/tables", params={"limit": 100}).json()
        return next((t for t in page["tables"] if t["game_id"] == game_id), None)

    assert listed()["free_seats"] == [1, 2]
    claimed = ContractSession(b).post(f"/v1/games/{game_id}/seats/1/claim").json()
    assert listed()["free_seats"] == [2]
    ContractSession(a).post(f"/v1/games/{game_id}/seats/2/claim")
    assert listed() is None
    ContractSession(b).post(f"/v1/games/{game_id}/seats/1/leave", headers=auth(claimed["token"]))
    assert listed()["levels"] == [None, "standard", None, "basic"]
    wanted = ["table_opened", "table_changed", "table_closed", "table_opened"]
    wait_until(lambda: [f["type"] for f in frames if f["game_id"] == game_id] == wanted, f"stream: {frames}", 30)
    ours = [f for f in frames if f["game_id"] == game_id]
    assert [f["table"]["free_seats"] if f["table"] else None for f in ours] == [[1, 2], [2], None, [1]]
    assert [f["seq"] for f in ours] == sorted(f["seq"] for f in ours)
    stream.close()


def _read_changes(stream: requests.Response, frames: list[dict[str, Any]]) -> None:
    try:
        for message in messages(stream):
            if message.event:
                assert message.id == str(message.json()["seq"]) and message.event == message.json()["type"]
                frames.append(message.json())
    except (requests.RequestException, AttributeError):
        return  # closed by the test


def test_the_bot_client_quick_matches_four_bots_and_lists_public_tables(two_servers):
    clients = [SpadesClient(two_servers[n % 2]) for n in range(4)]
    request = {"rules": {"preset": "suicide_partners"}, "clock": "fast", "max_wait_seconds": 60}
    with ThreadPoolExecutor(4) as pool:
        matches = list(pool.map(lambda client: client.quick_match(**request), clients))
    assert {m.status for m in matches} == {"seated"} and len({m.game_id for m in matches}) == 1
    seat = clients[0].as_seat(matches[0].token)
    view = seat.get_game(matches[0].game_id)
    assert view.you == matches[0].seat and view.options.clock == "fast" and not view.options.public
    seats = [{"type": "human"}, {"type": "open"}, {"type": "ai"}, {"type": "ai"}]
    created = clients[1].create_game(seats=seats, options={"public": True})
    listed = clients[2].list_tables(free_seats=1, limit=100)
    assert created.game_id in {t.game_id for t in listed.tables}
    changes = clients[3].stream_tables(after=listed.last_seq - 1)
    assert next(iter(changes)).seq == listed.last_seq
