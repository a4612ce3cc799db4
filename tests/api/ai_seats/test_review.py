"""Round reviews end to end: real gunicorn, Redis and a Celery worker answering ``ai.hint``.

Every response is checked against openapi.yaml (ContractSession).
"""

from __future__ import annotations

import random

import pytest

from services.computers import HINT_LEVEL

from ..contract import ContractSession
from ..helpers import auth
from .test_hints import LIMITED, assert_problem, human_game

pytestmark = pytest.mark.integration
REVIEWED = 2


@pytest.fixture
def session(api_server, ai_worker) -> ContractSession:
    return ContractSession(api_server)


def play_first_round(session: ContractSession, game_id: str, tokens: list[str], seed: int) -> list[list]:
    """Random legal moves to the end of round 1: the reviewed seat's legal moves at each of its turns."""
    rng = random.Random(seed)
    legal_seen: list[list] = []
    while True:
        public = session.get(f"/v1/games/{game_id}").json()
        if public["round"] > 1:
            return legal_seen
        seat = public["turn"]
        mine = session.get(f"/v1/games/{game_id}", headers=auth(tokens[seat])).json()
        if seat == REVIEWED:
            legal_seen.append(mine["legal"])
        kind, field = ("bids", "bid") if mine["phase"] == "bidding" else ("plays", "card")
        moved = session.post(
            f"/v1/games/{game_id}/{kind}", json={field: rng.choice(mine["legal"])}, headers=auth(tokens[seat])
        )
        assert moved.status_code == 200, moved.text


def test_a_finished_round_is_reviewed_move_by_move_by_the_hint_level(session):
    game_id, tokens = human_game(session, seed=61)
    url = f"/v1/games/{game_id}/rounds/1/review"
    assert_problem(session.get(url, headers=auth(tokens[REVIEWED])), 409, "round_not_finished")
    legal_seen = play_first_round(session, game_id, tokens, seed=61)

    response = session.get(url, headers=auth(tokens[REVIEWED]))
    assert response.status_code == 200, response.text
    review = response.json()
    view = session.get(f"/v1/games/{game_id}", headers=auth(tokens[REVIEWED])).json()
    assert (review["game_id"], review["round"], review["seat"], review["level"]) == (game_id, 1, REVIEWED, HINT_LEVEL)
    assert review["record"] == view["history"][0], "the hand record every view's history already shows"
    assert sorted(len(hand) for hand in review["record"]["hands"]) == [13] * 4
    assert [c["card"] for t in review["tricks"] for c in t["cards"]] == review["record"]["plays"]
    decisions = review["decisions"]
    assert len(decisions) == len(legal_seen) == 14
    assert decisions[0]["made"] == {"bid": review["record"]["bids"][REVIEWED]}
    mine = [c["card"] for t in review["tricks"] for c in t["cards"] if c["seat"] == REVIEWED]
    assert [d["made"] for d in decisions[1:]] == [{"card": card} for card in mine]
    assert [d.get("trick") for d in decisions] == [None, *range(1, 14)]
    for decision, legal in zip(decisions, legal_seen, strict=True):
        assert next(iter(decision["best"].values())) in legal, "the hint level's move was legal then"
        assert all(next(iter(c.values())) in legal for c in decision["candidates"])
        if len(legal) > 1:
            assert any("value" in c for c in decision["candidates"]), "how much each move was worth"

    again = session.get(url, headers=auth(tokens[REVIEWED]))
    assert again.json() == review, "the same review every time"
    other = session.get(url, headers=auth(tokens[(REVIEWED + 1) % 4])).json()
    assert other["seat"] == (REVIEWED + 1) % 4 and other["record"] == review["record"], "each seat its own moves"

    assert_problem(
        session.get(f"/v1/games/{game_id}/rounds/2/review", headers=auth(tokens[0])), 409, "round_not_finished"
    )
    assert_problem(session.get(f"/v1/games/{game_id}/rounds/3/review", headers=auth(tokens[0])), 404, "not_found")
    assert_problem(session.get(f"/v1/games/{game_id}/rounds/0/review", headers=auth(tokens[0])), 404, "not_found")


def test_a_review_needs_a_token_of_a_seat_in_this_game(session):
    game_id, _ = human_game(session, seed=62)
    _, other_tokens = human_game(session, seed=63)
    url = f"/v1/games/{game_id}/rounds/1/review"
    assert_problem(session.get(url), 401, "unauthorized")
    assert_problem(session.get(url, headers=auth(other_tokens[0])), 401, "unauthorized")
    assert_problem(
        session.get("/v1/games/no-such-game/rounds/1/review", headers=auth(other_tokens[0])), 404, "not_found"
    )


def test_reviews_and_hints_share_one_rate_limit_per_token(gunicorn_factory, redis_db1):
    session = ContractSession(gunicorn_factory({**LIMITED, "HINT_RATE_LIMIT": "2/minute"}))
    game_id, tokens = human_game(session, seed=64)
    waiting = tokens[(session.get(f"/v1/games/{game_id}").json()["turn"] + 1) % 4]
    assert_problem(session.get(f"/v1/games/{game_id}/hint", headers=auth(waiting)), 409, "not_your_turn")
    review = f"/v1/games/{game_id}/rounds/1/review"
    assert_problem(session.get(review, headers=auth(waiting)), 409, "round_not_finished")  # refused, yet counted
    limited = session.get(review, headers=auth(waiting))
    assert_problem(limited, 429, "rate_limited")
    assert int(limited.headers["Retry-After"]) >= 1
    assert_problem(session.get(f"/v1/games/{game_id}/hint", headers=auth(waiting)), 429, "rate_limited")
