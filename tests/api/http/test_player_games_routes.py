"""``GET /v1/players/{id}/games``: a player's games newest first, pages that never skip or repeat, rated games
with their display ratings before and after and whether the one after was provisional; every game its final
scores and, while its record is kept, who sat where by name; an unknown player is a 404."""

from __future__ import annotations

from services.api.ratings.apply import apply_record
from services.api.records.repository import RecordRepository
from services.api.records.schema import players
from services.ratings.provisional import PROVISIONAL_GAMES

from ..ratings.conftest import NOW, add_players, finished, seasoned
from ..records.spec import validator
from .ratings_app import ratings_client


def test_a_players_games_newest_first_in_pages(tmp_path):
    client, engine = ratings_client(tmp_path)
    add_players(engine, "p_a", "p_b")
    for n in range(5):
        apply_record(engine, finished(f"g{n}", ["p_a", "ai:hard", "ai:easy", "ai:hard"], seed=n), NOW + n, NOW, False)
    apply_record(engine, finished("g9", ["p_a", "ai:hard", "p_b", "ai:hard"]), NOW + 9, NOW, False)  # unrated
    seen, cursor = [], None
    while True:
        page = client.get("/v1/players/p_a/games", query_string={"limit": 2, **({"cursor": cursor} if cursor else {})})
        body = page.get_json()
        validator("PlayerGamesPage").validate(body)
        seen += body["games"]
        cursor = body["next"]
        if cursor is None:
            break
    assert [game["game_id"] for game in seen] == ["g9", "g4", "g3", "g2", "g1", "g0"]
    assert not seen[0]["rated"] and "change" not in seen[0] and "provisional" not in seen[0]
    assert all(game["provisional"] for game in seen[1:])  # five games: every rating after one provisional
    for older, newer in zip(seen[2:], seen[1:-1], strict=True):
        assert older["rating_after"] == newer["rating_before"]  # each rated game starts where the last one ended
    assert all(game["change"] == game["rating_after"] - game["rating_before"] for game in seen[1:])
    assert seen[-1]["rating_before"] == 1500 and seen[-1]["board"] == "partnership" and seen[-1]["seat"] == 0


def test_the_game_that_ends_a_players_provisional_rating_shows_it(tmp_path):
    client, engine = ratings_client(tmp_path)
    add_players(engine, "p_a")
    seasoned(engine, "p_a", "partnership", "person", PROVISIONAL_GAMES - 2)
    for n in range(2):
        apply_record(engine, finished(f"g{n}", ["p_a", "ai:hard", "ai:easy", "ai:hard"], seed=n), NOW + n, NOW, False)
    body = client.get("/v1/players/p_a/games").get_json()
    validator("PlayerGamesPage").validate(body)
    assert [(game["game_id"], game["provisional"]) for game in body["games"]] == [("g1", False), ("g0", True)]


def test_an_unknown_player_and_a_bad_cursor_are_refused(tmp_path):
    client, _ = ratings_client(tmp_path)
    missing = client.get("/v1/players/p_nobody/games")
    assert missing.status_code == 404 and missing.get_json()["code"] == "player_not_found"
    assert client.get("/v1/players/p_nobody/games?cursor=%%%").status_code == 400


def test_each_game_shows_its_final_scores_and_who_sat_where_while_its_record_is_kept(tmp_path):
    client, engine = ratings_client(tmp_path)
    add_players(engine, "p_a", "p_b")
    records = RecordRepository(engine)
    gone = finished("g1", ["p_a", "ai:hard", "ai:easy", "ai:hard"], seed=4)  # its record purged after
    with_b = finished("g2", ["p_a", "p_b", "ai:easy", "human"])  # a person without a player on East
    kept = finished("g3", ["p_a", "ai:hard", "ai:easy", "ai:hard"], seed=3)
    for n, document in enumerate((gone, with_b, kept)):
        records.save(document, NOW, NOW + n)
        apply_record(engine, document, NOW + n, NOW, False)
    assert records.purge(NOW + 1) == 1  # the oldest record, past its retention
    body = client.get("/v1/players/p_a/games").get_json()
    validator("PlayerGamesPage").validate(body)
    games = {game["game_id"]: game for game in body["games"]}
    for document in (gone, with_b, kept):
        assert games[document["game_id"]]["scores"] == document["result"]["scores"]
    assert "players" not in games["g1"]  # its record is gone: its replay too
    assert games["g2"]["players"] == [
        {"seat": 0, "id": "p_a", "name": "p_a", "kind": "person"},
        {"seat": 1, "id": "p_b", "name": "p_b", "kind": "person"},
        {"seat": 2, "id": "computer-easy", "name": "easy", "kind": "computer"},  # a level by its level
        None,
    ]
    assert [p["name"] for p in games["g3"]["players"]] == ["p_a", "hard", "easy", "hard"]
    assert [p["kind"] for p in games["g3"]["players"]] == ["person", "computer", "computer", "computer"]
    with engine.begin() as connection:  # a rename shows
        connection.execute(players.update().where(players.c.id == "p_b").values(name="Bea"))
    assert client.get("/v1/players/p_a/games").get_json()["games"][1]["players"][1]["name"] == "Bea"
