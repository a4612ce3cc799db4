"""A rated game end to end, on gunicorn with Redis and each records database, every response checked against
openapi.yaml: a person made with ``POST /v1/players`` sits with its token (``player: true``) against three
computers (played by the API itself: no worker answers, so each computer turn falls back to basic's move at once),
plays to the end; then the record read shows the person's and the level's rating before and after, the
leaderboard lists the person with its own place, its games list the game with the same change, and its profile
counts it."""

from __future__ import annotations

import pytest

from ..contract import ContractSession
from ..helpers import wait_until

pytestmark = pytest.mark.integration
RULES = {"preset": "partnership", "win_score": 1}  # over after a round or two


@pytest.fixture(params=["sqlite", "postgresql"])
def session(request, gunicorn_factory, private_redis_url, tmp_path) -> ContractSession:
    if request.param == "sqlite":
        database = {"DATA_DIR": str(tmp_path)}
    else:
        database = {"RECORDS_DATABASE_URL": request.getfixturevalue("postgres_records_url")}
    env = {
        "AI_MAX_ATTEMPTS": "1",  # no worker: the API plays basic's move for a computer after one deadline
        "AI_DECISION_DEADLINE_SECONDS": "0.2",
        "AI_SWEEP_INTERVAL_SECONDS": "0.1",
        "RECORDS_DRAIN_INTERVAL_SECONDS": "0.2",
        "RATED_MIN_WIN_SCORE": "1",  # a rated game of a round or two: the test's speed
        **database,
    }
    return ContractSession(gunicorn_factory(env, redis=private_redis_url))


def play_to_the_end(session: ContractSession, game_id: str, token: str) -> None:
    """The person's seat plays its first legal move whenever it is its turn, until the game is over."""
    auth = {"Authorization": f"Bearer {token}"}
    latest: dict = {"last_seq": 0}

    def my_turn_or_over() -> bool:
        session.get(f"/v1/games/{game_id}/events", params={"after": latest["last_seq"], "wait": 2}, headers=auth)
        latest.update(session.get(f"/v1/games/{game_id}", headers=auth).json())
        return latest["phase"] == "game_over" or latest["turn"] == latest["you"]

    while True:
        wait_until(my_turn_or_over, "the seat's turn never came")
        if latest["phase"] == "game_over":
            return
        legal = latest["legal"][0]
        path, body = ("bids", {"bid": legal}) if latest["phase"] == "bidding" else ("plays", {"card": legal})
        moved = session.post(f"/v1/games/{game_id}/{path}", json=body, headers=auth)
        assert moved.status_code == 200, moved.text


def test_a_person_against_the_computers_sees_their_rating_move_everywhere(session: ContractSession):
    made = session.post("/v1/players", json={"name": "Ada"}).json()
    ada, player_token = made["player"]["id"], made["token"]
    seats = [{"type": "human", "player": True}] + [{"type": "ai", "level": "basic"}] * 3
    created = session.post(
        "/v1/games",
        json={"rules": RULES, "seats": seats, "options": {"hints": False}},  # rated: no engine help
        headers={"Player-Token": player_token},
    ).json()
    game_id = created["game_id"]
    play_to_the_end(session, game_id, created["seats"][0]["token"])

    def applied() -> dict | None:
        record = session.get(f"/v1/games/{game_id}/record").json()
        return record if "ratings" in record else None

    wait_until(applied, "the game was not applied to its players")
    record = applied()
    assert record["rated"] is True
    assert record["players"][0] == {"seat": 0, "id": ada, "name": "Ada", "kind": "person"}
    assert record["players"][1] == {"seat": 1, "id": "computer-basic", "name": "basic", "kind": "computer"}
    mine = record["ratings"][0]
    assert (mine["seat"], mine["player_id"], mine["before"]) == (0, ada, 1500)
    assert mine["change"] == mine["after"] - mine["before"] != 0
    assert [entry["player_id"] for entry in record["ratings"]] == [ada] + ["computer-basic"] * 3
    board = session.get("/v1/leaderboards/partnership", headers={"Player-Token": player_token}).json()
    assert board["top"][0]["player"]["id"] == ada and board["me"] == {"rank": 1, "rating": mine["after"]}
    levels = session.get("/v1/leaderboards/partnership", params={"kind": "computer"}).json()
    assert [entry["player"]["id"] for entry in levels["top"]] == ["computer-basic"]
    games = session.get(f"/v1/players/{ada}/games").json()
    assert [(g["game_id"], g["rating_before"], g["rating_after"], g["change"]) for g in games["games"]] == [
        (game_id, mine["before"], mine["after"], mine["change"])
    ]
    profile = session.get(f"/v1/players/{ada}").json()
    assert profile["ratings"]["partnership"]["rating"] == mine["after"]
    assert profile["ratings"]["partnership"]["rank"] == 1 and profile["stats"]["games"] == 1
    assert profile["stats"]["wins"] == int(record["seats"][0]["won"])
