"""``GET /v1/leaderboards/{board}``: the top of a board and kind, and the caller's own place by its
Player-Token (no rank while its rating is provisional, and no place on the board); a bad board, kind, limit or
token is refused."""

from __future__ import annotations

import hashlib

from services.api.ratings.apply import apply_record
from services.api.ratings.standing import standing
from services.api.records.schema import players

from ..ratings.conftest import NOW, add_players, finished, seasoned
from ..records.spec import validator
from .ratings_app import ratings_client

TOKEN = "spt_" + "x" * 43


def test_the_top_and_the_callers_own_place(tmp_path):
    client, engine = ratings_client(tmp_path)
    add_players(engine, "p_a", "p_b", "p_new")
    seasoned(engine, "p_a", "partnership", "person", 50, mu=28.0)
    seasoned(engine, "p_b", "partnership", "person", 60, mu=26.0)
    seasoned(engine, "computer-hard", "partnership", "computer", 900, mu=40.0, sigma=1.1)
    with engine.begin() as connection:
        digest = hashlib.sha256(TOKEN.encode()).hexdigest()
        connection.execute(players.update().where(players.c.id == "p_b").values(token_hash=digest))
    apply_record(engine, finished("g1", ["p_a", "ai:hard", "ai:hard", "ai:hard"], seed=7), NOW, NOW, False)
    apply_record(engine, finished("g2", ["p_b", "ai:hard", "ai:hard", "ai:hard"], seed=8), NOW, NOW, False)
    apply_record(engine, finished("g3", ["p_new", "ai:hard", "ai:hard", "ai:hard"], seed=9), NOW, NOW, False)
    body = client.get("/v1/leaderboards/partnership").get_json()
    validator("Leaderboard").validate(body)
    assert body["board"] == "partnership" and body["kind"] == "person" and "me" not in body
    assert sorted(entry["player"]["id"] for entry in body["top"]) == ["p_a", "p_b"]
    assert [entry["rank"] for entry in body["top"]] == [1, 2]
    mine = client.get("/v1/leaderboards/partnership?limit=1", headers={"Player-Token": TOKEN}).get_json()
    validator("Leaderboard").validate(mine)
    assert len(mine["top"]) == 1
    place = next(entry for entry in body["top"] if entry["player"]["id"] == "p_b")
    assert mine["me"] == {"rank": place["rank"], "rating": place["rating"], "provisional": False}
    computers = client.get("/v1/leaderboards/partnership?kind=computer").get_json()
    assert [entry["player"] for entry in computers["top"]] == [
        {"id": "computer-hard", "name": "hard", "kind": "computer"}
    ]


def test_a_provisional_callers_place_has_no_rank(tmp_path):
    client, engine = ratings_client(tmp_path)
    add_players(engine, "p_new")
    with engine.begin() as connection:
        digest = hashlib.sha256(TOKEN.encode()).hexdigest()
        connection.execute(players.update().where(players.c.id == "p_new").values(token_hash=digest))
    apply_record(engine, finished("g1", ["p_new", "ai:hard", "ai:hard", "ai:hard"], seed=7), NOW, NOW, False)
    body = client.get("/v1/leaderboards/partnership", headers={"Player-Token": TOKEN}).get_json()
    validator("Leaderboard").validate(body)
    with engine.connect() as connection:
        shown = standing(connection, "p_new")["ratings"]["partnership"]
    assert body["top"] == [] and body["me"] == {"rating": shown["rating"], "provisional": True}
    assert shown["provisional"] is True and "rank" not in shown


def test_bad_boards_kinds_limits_and_tokens_are_refused(tmp_path):
    client, _ = ratings_client(tmp_path)
    assert client.get("/v1/leaderboards/spades").status_code == 404
    assert client.get("/v1/leaderboards/individual?kind=robot").get_json()["code"] == "invalid_request"
    assert client.get("/v1/leaderboards/individual?limit=101").status_code == 400
    refused = client.get("/v1/leaderboards/individual", headers={"Player-Token": "spt_nobody"})
    assert refused.status_code == 401 and refused.get_json()["code"] == "player_token_invalid"
    assert client.get("/v1/leaderboards/individual").get_json() == {"board": "individual", "kind": "person", "top": []}
