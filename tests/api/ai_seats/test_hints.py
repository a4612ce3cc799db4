"""Hints for people, end to end: real gunicorn, Redis and a Celery worker serving ``ai.hint``.

Every response is checked against openapi.yaml (ContractSession).
"""

from __future__ import annotations

import json
import random
import uuid

import pytest
import requests

from services.api.ai_seats.dispatch import AiDispatcher
from services.api.ai_seats.driver import AiDriver
from services.api.games.commands import Collaborators

from ..contract import ContractSession
from ..helpers import auth, create_game

pytestmark = pytest.mark.integration
LIMITED = {"RATE_LIMIT_ENABLED": "1", "RATE_LIMIT_PER_ADDRESS": "1000/minute", "RATE_LIMIT_PER_TOKEN": ""}


@pytest.fixture
def session(api_server, ai_worker) -> ContractSession:
    return ContractSession(api_server)


def human_game(session: ContractSession, seed: int, **options: object) -> tuple[str, list[str]]:
    body: dict = {"rules": {"preset": "partnership"}, "seats": [{"type": "human"}] * 4, "seed": seed}
    if options:
        body["options"] = options
    response = session.post("/v1/games", json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    return created["game_id"], [seat["token"] for seat in created["seats"]]


def turn_of(session: ContractSession, game_id: str) -> int:
    return session.get(f"/v1/games/{game_id}").json()["turn"]


def assert_problem(response: requests.Response, status: int, code: str) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["Content-Type"].startswith("application/problem+json")
    problem = response.json()
    assert problem["code"] == code and problem["status"] == status
    return problem


def move_of(hint: dict) -> tuple[str, dict]:
    move = hint["move"]
    return ("bids", {"bid": move["bid"]}) if "bid" in move else ("plays", {"card": move["card"]})


def test_a_hint_on_your_turn_is_a_legal_move_from_your_own_view(session):
    game_id, tokens = human_game(session, seed=41)
    rng = random.Random(41)
    for moves in range(7):  # the four bids, then the first trick's cards
        seat = turn_of(session, game_id)
        mine = session.get(f"/v1/games/{game_id}", headers=auth(tokens[seat])).json()
        response = session.get(f"/v1/games/{game_id}/hint", headers=auth(tokens[seat]))
        assert response.status_code == 200, response.text
        hint = response.json()
        assert (hint["game_id"], hint["seat"], hint["version"]) == (game_id, seat, mine["version"])
        kind, body = move_of(hint)
        assert kind == ("bids" if mine["phase"] == "bidding" else "plays")
        assert next(iter(body.values())) in mine["legal"]
        for candidate in hint["candidates"]:
            assert (candidate["bid"] if "bid" in candidate else candidate["card"]) in mine["legal"]
        after = session.get(f"/v1/games/{game_id}", headers=auth(tokens[seat])).json()
        assert after["version"] == mine["version"], "a hint is never applied as a move"
        if moves % 2:  # half the time take the hint (it must be accepted), else another legal move
            body = {"bid": rng.choice(mine["legal"])} if kind == "bids" else {"card": rng.choice(mine["legal"])}
        moved = session.post(f"/v1/games/{game_id}/{kind}", json=body, headers=auth(tokens[seat]))
        assert moved.status_code == 200, moved.text
    assert session.get(f"/v1/games/{game_id}").json()["phase"] == "playing"


def test_asking_again_at_the_same_version_gives_the_same_hint(session):
    game_id, tokens = human_game(session, seed=42)
    token = tokens[turn_of(session, game_id)]
    first = session.get(f"/v1/games/{game_id}/hint", headers=auth(token))
    second = session.get(f"/v1/games/{game_id}/hint", headers=auth(token))
    assert first.status_code == second.status_code == 200
    assert first.json() == second.json()


def test_off_your_turn_a_hint_is_409(session):
    game_id, tokens = human_game(session, seed=43)
    other = (turn_of(session, game_id) + 1) % 4
    problem = assert_problem(
        session.get(f"/v1/games/{game_id}/hint", headers=auth(tokens[other])), 409, "not_your_turn"
    )
    assert problem["reason"] == "not_your_turn"

    created = create_game(session, seats=[{"type": "human"}] + [{"type": "open"}] * 3)  # waiting for players
    waiting = session.get(f"/v1/games/{created['game_id']}/hint", headers=auth(created["seats"][0]["token"]))
    assert assert_problem(waiting, 409, "not_your_turn")["reason"] == "wrong_phase"


def test_a_hint_needs_a_token_of_a_seat_in_this_game(session):
    game_id, tokens = human_game(session, seed=44)
    other_game, other_tokens = human_game(session, seed=45)
    seat = turn_of(session, game_id)
    assert turn_of(session, other_game) == seat  # the other game's token is of the seat to move there too
    url = f"/v1/games/{game_id}/hint"
    missing = assert_problem(session.get(url), 401, "unauthorized")
    assert "WWW-Authenticate" in session.get(url).headers and missing["detail"]
    assert_problem(session.get(url, headers=auth(other_tokens[seat])), 401, "unauthorized")
    assert_problem(session.get(url, headers=auth("not-a-token")), 401, "unauthorized")
    assert_problem(session.get(url, headers={"Authorization": f"Basic {tokens[seat]}"}), 401, "unauthorized")
    assert_problem(session.get("/v1/games/no-such-game/hint", headers=auth(tokens[seat])), 404, "not_found")


def test_a_game_created_without_hints_refuses_them_with_403(session):
    game_id, tokens = human_game(session, seed=46, hints=False)
    view = session.get(f"/v1/games/{game_id}").json()
    assert view["options"] == {"ai_takeover": "standard", "hints": False, "clock": "normal", "public": False}
    response = session.get(f"/v1/games/{game_id}/hint", headers=auth(tokens[view["turn"]]))
    assert_problem(response, 403, "hints_disabled")
    with_hints, _ = human_game(session, seed=47)
    assert session.get(f"/v1/games/{with_hints}").json()["options"]["hints"] is True  # the default


def test_no_worker_on_the_hint_queue_is_503_with_retry_after(gunicorn_factory, redis_db1):
    queue = f"ai.hint-test-{uuid.uuid4().hex[:8]}"  # a queue no worker serves
    session = ContractSession(gunicorn_factory({"HINT_QUEUE": queue, "HINT_TIMEOUT_SECONDS": "1"}))
    try:
        game_id, tokens = human_game(session, seed=48)
        response = session.get(f"/v1/games/{game_id}/hint", headers=auth(tokens[turn_of(session, game_id)]))
        assert_problem(response, 503, "hint_unavailable")
        assert response.headers["Retry-After"] == "1"
        (message,) = [json.loads(raw) for raw in redis_db1.lrange(queue, 0, -1)]
        headers = message["headers"]
        assert headers["task"] == "ai.hint" and headers["expires"], "a task nobody took in time is dropped"
    finally:
        redis_db1.delete(queue)


def test_hints_have_their_own_rate_limit_per_token(gunicorn_factory, redis_db1):
    session = ContractSession(gunicorn_factory({**LIMITED, "HINT_RATE_LIMIT": "2/minute"}))
    game_id, tokens = human_game(session, seed=49)
    mover = turn_of(session, game_id)
    waiting, other = tokens[(mover + 1) % 4], tokens[(mover + 2) % 4]
    url = f"/v1/games/{game_id}/hint"
    for _ in range(2):  # off turn: refused, yet counted
        assert_problem(session.get(url, headers=auth(waiting)), 409, "not_your_turn")
    limited = session.get(url, headers=auth(waiting))
    assert_problem(limited, 429, "rate_limited")
    assert limited.headers["Retry-After"].isdigit() and int(limited.headers["Retry-After"]) >= 1
    assert session.get(f"/v1/games/{game_id}", headers=auth(waiting)).status_code == 200, "only hints are limited"
    assert_problem(session.get(url, headers=auth(other)), 409, "not_your_turn")  # another token's own budget


def test_the_ai_listener_never_applies_a_hint_and_deletes_an_abandoned_one(redis_db1):
    """A hint's answer is published on its task's result channel like a decision; the
    listener (subscribed to it once the hint is abandoned) applies only tasks its process
    sent as decisions, and drops (deleting the stored result) a hint whose requester
    stopped waiting."""

    class NoStore:
        def __getattr__(self, name: str):
            raise AssertionError(f"the store was used: {name}")

    dispatcher = AiDispatcher(None, NoStore(), 10.0)  # type: ignore[arg-type]
    driver = AiDriver(Collaborators(NoStore()), dispatcher, redis_db1, max_attempts=5, sweep_interval=1.0)  # type: ignore[arg-type]
    result = {"game_id": "g", "version": 3, "seat": 1, "level": "hard", "move": {"bid": 3}, "candidates": []}
    for task_id, abandoned in (("hint-read", False), ("hint-late", True)):
        redis_db1.set(f"celery-task-meta-{task_id}", "{}")
        if abandoned:
            dispatcher.abandon_result(task_id)
        driver._on_message(json.dumps({"task_id": task_id, "status": "SUCCESS", "result": result}).encode())
    assert redis_db1.exists("celery-task-meta-hint-read"), "its requester reads and deletes it"
    assert not redis_db1.exists("celery-task-meta-hint-late")
    redis_db1.delete("celery-task-meta-hint-read")
