"""A rated game end to end, on gunicorn with Redis and each records database, every response checked against
openapi.yaml: a person made with ``POST /v1/players`` sits with its token (``player: true``) against three
computers (played by the API itself: no worker answers, so each computer turn falls back to basic's move at once),
plays to the end; then the record read shows the person's and the level's rating before and after, its games list
the game with the same change, and its profile counts it.  One game leaves the person's rating provisional: the
record, the games list and the profile say so, the profile with no rank, and the leaderboard lists the seasoned
player already on it (made in the database beside the server) but not the person, whose own place says it is
provisional; the level, seasoned too, stays on its board."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import Engine

from services.api.records.database import make_engine

from ..contract import ContractSession
from ..helpers import wait_until
from .conftest import seasoned

pytestmark = pytest.mark.integration
RULES = {"preset": "partnership", "win_score": 1}  # over after a round or two


@pytest.fixture(params=["sqlite", "postgresql"])
def served(request, gunicorn_factory, private_redis_url, tmp_path) -> Iterator[tuple[ContractSession, Engine]]:
    """A server on a records database of each kind, and an engine on that database for the test's own rows."""
    if request.param == "sqlite":
        database, url = {"DATA_DIR": str(tmp_path)}, f"sqlite:///{tmp_path}/records.sqlite3"
    else:
        url = request.getfixturevalue("postgres_records_url")
        database, url = {"RECORDS_DATABASE_URL": url}, url.replace("postgresql://", "postgresql+psycopg://")
    env = {
        "AI_MAX_ATTEMPTS": "1",  # no worker: the API plays basic's move for a computer after one deadline
        "AI_DECISION_DEADLINE_SECONDS": "0.2",
        "AI_SWEEP_INTERVAL_SECONDS": "0.1",
        "RECORDS_DRAIN_INTERVAL_SECONDS": "0.2",
        "RATED_MIN_WIN_SCORE": "1",  # a rated game of a round or two: the test's speed
        **database,
    }
    session = ContractSession(gunicorn_factory(env, redis=private_redis_url))  # the database migrated at its start
    engine = make_engine(url)
    yield session, engine
    engine.dispose()


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


def test_a_person_against_the_computers_sees_their_provisional_rating_move_everywhere(served):
    session, engine = served
    rival = session.post("/v1/players", json={"name": "Grace"}).json()["player"]["id"]
    seasoned(engine, rival, "partnership", "person", 120, mu=30.0, sigma=1.9)  # on the board
    seasoned(engine, "computer-basic", "partnership", "computer", 600, mu=15.0, sigma=1.1)
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
    assert mine["change"] == mine["after"] - mine["before"] != 0 and mine["provisional"] is True
    assert [entry["player_id"] for entry in record["ratings"]] == [ada] + ["computer-basic"] * 3
    assert [entry["provisional"] for entry in record["ratings"][1:]] == [False] * 3
    board = session.get("/v1/leaderboards/partnership", headers={"Player-Token": player_token}).json()
    listed = [entry["player"]["id"] for entry in board["top"]]
    assert rival in listed and ada not in listed
    assert board["me"] == {"rating": mine["after"], "provisional": True}
    levels = session.get("/v1/leaderboards/partnership", params={"kind": "computer"}).json()
    assert [entry["player"]["id"] for entry in levels["top"]] == ["computer-basic"]
    games = session.get(f"/v1/players/{ada}/games").json()
    assert [
        (g["game_id"], g["rating_before"], g["rating_after"], g["change"], g["provisional"]) for g in games["games"]
    ] == [(game_id, mine["before"], mine["after"], mine["change"], True)]
    profile = session.get(f"/v1/players/{ada}").json()
    rating = profile["ratings"]["partnership"]
    assert rating["rating"] == mine["after"] and rating["provisional"] is True and "rank" not in rating
    assert profile["stats"]["games"] == 1
    grace = session.get(f"/v1/players/{rival}").json()["ratings"]["partnership"]
    assert grace["provisional"] is False and grace["rank"] == 1 + listed.index(rival)
    assert profile["stats"]["wins"] == int(record["seats"][0]["won"])
