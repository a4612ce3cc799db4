"""The players' routes in process (the memory store, SQLite in the test's directory; no Redis): what a refused
name looks like, a server that keeps no players, a records database that is down, and a player token sent
where a seat is taken that names nobody.  The whole story on real processes: tests/api/test_players.py."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from services.api.app import create_app
from services.api.games.record import GameRecord
from services.api.games.seat_players import AS_BOUND
from services.api.store.memory_store import MemoryStore
from testkit.processes import free_port

PEOPLE = [{"type": "human", "player": True}, {"type": "human"}, {"type": "human"}, {"type": "human"}]


def client(tmp_path, **config: Any) -> FlaskClient:
    settings = {
        "STORE": MemoryStore(GameRecord.from_stored),
        "AI_ENABLED": False,
        "RATE_LIMIT_ENABLED": False,
        "LOG_LEVEL": "WARNING",
        "DATA_DIR": str(tmp_path),
        "RECORDS_WRITER_ENABLED": False,
        "LOBBY_SWEEPER_ENABLED": False,
    }
    return create_app({**settings, **config}).test_client()


def test_the_commands_look_seats_players_up_in_the_players_and_without_records_take_them_as_bound(tmp_path):
    app = client(tmp_path).application
    assert app.extensions["spades.commands"].players is app.extensions["spades.players"]
    assert app.extensions["spades.matchmaker"].ctx.players is app.extensions["spades.players"]
    assert client(tmp_path, RECORDS_ENABLED=False).application.extensions["spades.commands"].players is AS_BOUND


def test_a_refused_name_is_a_400_naming_the_field_and_why(tmp_path):
    api = client(tmp_path)
    for body, field in (
        ({"name": "A"}, "name"),
        ({"name": "Ada\u202e"}, "name"),
        ({"name": 7}, "name"),
        ({}, "name"),
        ({"name": "Ada", "kind": "computer"}, "kind"),
        ({"name": "Ada", "email": "a@example.com"}, "email"),
    ):
        refused = api.post("/v1/players", json=body)
        assert refused.status_code == 400 and refused.json["code"] == "invalid_request", body
        assert [error["field"] for error in refused.json["errors"]] == [field], refused.json
    assert api.post("/v1/players", json={"name": "Plain"}).json["player"]["name"] == "Plain"
    assert api.post("/v1/players", json={"name": "PLAIN"}).status_code == 409


def test_a_player_id_of_no_shape_of_ours_is_not_found_without_a_lookup(tmp_path):
    api = client(tmp_path)
    for player_id in ("nobody", "p_" + "x" * 22, "computer-nosuch", "x" * 300):
        assert api.get(f"/v1/players/{player_id}").json["code"] == "player_not_found"


def test_without_records_there_are_no_players_and_a_player_token_binds_nothing(tmp_path):
    api = client(tmp_path, RECORDS_ENABLED=False)
    assert api.post("/v1/players", json={"name": "Ada"}).status_code == 404
    assert api.get("/v1/players/me", headers={"Player-Token": "spt_x"}).status_code == 404
    sent = api.post("/v1/games", json={"seats": PEOPLE}, headers={"Player-Token": "spt_x"})
    assert sent.status_code == 401 and sent.json["code"] == "player_token_invalid"
    assert api.post("/v1/games", json={"seats": [{"type": "human"}] * 4}).status_code == 201  # no token: as before


def test_two_seats_of_one_player_and_a_player_seat_that_is_not_a_persons_are_refused(tmp_path):
    api = client(tmp_path)
    token = api.post("/v1/players", json={"name": "Twice"}).json["token"]
    as_player = {"Player-Token": token}
    two = [{"type": "human", "player": True}] * 2 + [{"type": "human"}] * 2
    refused = api.post("/v1/games", json={"seats": two}, headers=as_player)
    assert refused.status_code == 400 and refused.json["errors"][0]["field"] == "seats.1.player"
    open_one = [{"type": "open", "player": True}] + [{"type": "human"}] * 3
    assert api.post("/v1/games", json={"seats": open_one}, headers=as_player).status_code == 400
    created = api.post("/v1/games", json={"seats": PEOPLE}, headers=as_player)
    assert created.status_code == 201 and created.json["state"]["seats"][0]["player"]["name"] == "Twice"


def test_a_records_database_that_is_down_is_a_503_for_players_and_for_a_seat_taken_with_a_token(tmp_path):
    api = client(tmp_path, RECORDS_DATABASE_URL=f"postgresql://nobody@127.0.0.1:{free_port()}/none")
    down = api.post("/v1/players", json={"name": "Ada"})
    assert down.status_code == 503 and down.json["code"] == "records_unavailable" and down.headers["Retry-After"]
    assert api.get("/v1/players/p_" + "x" * 22).status_code == 503
    sent = api.post("/v1/games", json={"seats": PEOPLE}, headers={"Player-Token": "spt_" + "x" * 43})
    assert sent.status_code == 503
