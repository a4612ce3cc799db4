"""A record read shows who sat where (names as they are now) and, once its game is applied, whether it was
rated and each seat's rating before and after."""

from __future__ import annotations

from services.api.ratings.apply import apply_record
from services.api.records.repository import RecordRepository
from services.api.records.schema import players

from ..ratings.conftest import NOW, add_players, finished
from ..records.spec import validator
from .ratings_app import ratings_client


def test_a_record_shows_its_players_names_now_and_the_rating_changes(tmp_path):
    client, engine = ratings_client(tmp_path)
    add_players(engine, "p_a")
    document = finished("g1", ["p_a", "ai:hard", "human", "ai:easy"])
    document["seats"][2]["player_id"] = None
    RecordRepository(engine).save(document, NOW, NOW + 1)
    before = client.get("/v1/games/g1/record").get_json()
    validator("GameRecordDocument").validate(before)
    assert before["players"] == [
        {"seat": 0, "id": "p_a", "name": "p_a", "kind": "person"},
        {"seat": 1, "id": "computer-hard", "name": "hard", "kind": "computer"},
        None,
        {"seat": 3, "id": "computer-easy", "name": "easy", "kind": "computer"},
    ]
    assert before["rated"] is False and "ratings" not in before  # a person unbound: not rated
    solo = finished("g2", ["p_a", "ai:hard", "ai:hard", "ai:hard"])
    RecordRepository(engine).save(solo, NOW, NOW + 2)
    apply_record(engine, solo, NOW + 2, NOW, False)
    with engine.begin() as connection:
        connection.execute(players.update().where(players.c.id == "p_a").values(name="Ada"))
    shown = client.get("/v1/games/g2/record").get_json()
    validator("GameRecordDocument").validate(shown)
    assert shown["rated"] is True and shown["players"][0]["name"] == "Ada"
    assert [entry["seat"] for entry in shown["ratings"]] == [0, 1, 2, 3]
    mine = shown["ratings"][0]
    assert mine["player_id"] == "p_a" and mine["before"] == 1500 and mine["change"] == mine["after"] - 1500
    assert mine["provisional"] is True  # a first game
    assert shown["ratings"][1] == {**shown["ratings"][2], "seat": 1}  # one level on three seats: one rating
