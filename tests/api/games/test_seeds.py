"""Fair seeds over HTTP: every view says whether its game was seeded, and a
server with ALLOW_SEEDED_GAMES off refuses seeded games.  The app runs on the
in-memory store (no Redis, no processes)."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from services.api.app import create_app
from services.api.games.record import GameRecord
from services.api.store.memory_store import MemoryStore

from ..helpers import auth


def client(**config: Any) -> FlaskClient:
    settings = {
        "STORE": MemoryStore(GameRecord.from_stored),
        "AI_ENABLED": False,
        "RATE_LIMIT_ENABLED": False,
        "LOG_LEVEL": "WARNING",
    }
    return create_app({**settings, **config}).test_client()


def test_every_view_of_a_seeded_game_says_so_and_others_say_not():
    http = client(ALLOW_SEEDED_GAMES=True)
    for seed, seeded in ((7, True), (None, False)):
        body: dict[str, Any] = {"seats": [{"type": "human"}] * 3 + [{"type": "open"}]}
        if seed is not None:
            body["seed"] = seed
        created = http.post("/v1/games", json=body).get_json()
        game_id, token = created["game_id"], created["seats"][1]["token"]
        assert created["state"]["seeded"] is seeded
        claimed = http.post(f"/v1/games/{game_id}/seats/3/claim").get_json()
        assert claimed["state"]["seeded"] is seeded
        assert http.get(f"/v1/games/{game_id}").get_json()["seeded"] is seeded
        moved = http.post(f"/v1/games/{game_id}/bids", json={"bid": 3}, headers=auth(token))
        assert moved.status_code == 200 and moved.get_json()["seeded"] is seeded
        left = http.post(f"/v1/games/{game_id}/seats/1/leave", headers=auth(token))
        assert left.status_code == 200 and left.get_json()["seeded"] is seeded


def test_a_server_refuses_seeds_unless_told_to_with_a_problem_and_still_creates_unseeded_games():
    http = client()  # ALLOW_SEEDED_GAMES at its default
    refused = http.post("/v1/games", json={"seed": 7})
    assert refused.status_code == 403 and refused.mimetype == "application/problem+json"
    problem = refused.get_json()
    assert problem["code"] == "seeded_games_disabled" and problem["type"].endswith(":seeded_games_disabled")
    assert "seed" in problem["detail"]
    created = http.post("/v1/games", json={})
    assert created.status_code == 201 and created.get_json()["state"]["seeded"] is False


def test_the_setting_reads_like_every_on_off_variable():
    from services.api.config import load_config

    assert load_config(environ={})["ALLOW_SEEDED_GAMES"] is False
    assert load_config(environ={"ALLOW_SEEDED_GAMES": "1"})["ALLOW_SEEDED_GAMES"] is True
    assert load_config(environ={"ALLOW_SEEDED_GAMES": "off"})["ALLOW_SEEDED_GAMES"] is False
