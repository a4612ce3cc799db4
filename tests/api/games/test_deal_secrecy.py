"""Deal secrecy through the API: a game whose seed the server picks is stored with a 256-bit secret
that no response, event, record or log line ever shows, and a game stored before secrets existed
(tests/engine/data/server_seeded_game.json, as the store held it) plays on and deals as it always did.
The app runs on the in-memory store, which keeps what Redis keeps: each game's stored texts."""

from __future__ import annotations

import io
import json
import logging
from pathlib import Path
from typing import Any

import orjson
import pytest
from flask.testing import FlaskClient

from services.api.app import create_app
from services.api.games.record import GameRecord
from services.api.http.observability import JsonFormatter
from services.api.records.content import build
from services.api.store.memory_store import MemoryStore

from ..contract import ContractSession
from ..helpers import auth, create_game

STORED = json.loads((Path(__file__).parents[2] / "engine" / "data" / "server_seeded_game.json").read_text())


def app_on(store: MemoryStore, **config: Any) -> FlaskClient:
    settings = {"STORE": store, "AI_ENABLED": False, "RATE_LIMIT_ENABLED": False, "LOG_LEVEL": "DEBUG"}
    return create_app({**settings, **config}).test_client()


def move(http: FlaskClient, game_id: str, tokens: list[str]) -> dict[str, Any]:
    """A move of the seat whose turn it is (a bid of 3, the first legal card); its response view."""
    seat = http.get(f"/v1/games/{game_id}").get_json()["turn"]
    legal = http.get(f"/v1/games/{game_id}", headers=auth(tokens[seat])).get_json()["legal"]
    kind, body = (
        ("bids", {"bid": 3 if 3 in legal else legal[0]}) if isinstance(legal[0], int) else ("plays", {"card": legal[0]})
    )
    response = http.post(f"/v1/games/{game_id}/{kind}", json=body, headers=auth(tokens[seat]))
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_a_game_whose_seed_the_server_picks_is_stored_with_a_256_bit_secret():
    store = MemoryStore(GameRecord.from_stored)
    created = app_on(store).post("/v1/games", json={"seats": [{"type": "human"}] * 4}).get_json()
    _, _, state, _ = store.backend.games[created["game_id"]]  # the game hash's state, as Redis keeps it
    document = json.loads(state)
    assert isinstance(document["seed"], str) and len(bytes.fromhex(document["seed"])) * 8 >= 128
    assert document["schema"] == 2


@pytest.mark.integration  # real gunicorn and Redis: the game hash as RedisStore writes it
def test_on_redis_a_server_picked_seed_is_a_256_bit_secret_and_a_chosen_one_stays_an_integer(api_server, redis_db1):
    session = ContractSession(api_server)  # a test server: match mode on (testkit.processes.start_gunicorn)
    for seed in (None, 41):
        game_id = create_game(session, seats=[{"type": "human"}] * 4, seed=seed)["game_id"]
        document = json.loads(redis_db1.hget(f"game:{{{game_id}}}", "state"))
        if seed is None:
            assert document["schema"] == 2 and len(bytes.fromhex(document["seed"])) * 8 == 256
        else:
            assert (document["schema"], document["seed"]) == (1, seed)


def test_the_secret_never_leaves_the_server():
    store, log = MemoryStore(GameRecord.from_stored), io.StringIO()
    http = app_on(store)
    handler = logging.StreamHandler(log)
    handler.setFormatter(JsonFormatter())
    logging.getLogger("services").addHandler(handler)
    try:
        created = http.post("/v1/games", json={"seats": [{"type": "human"}] * 4})
        game_id = created.get_json()["game_id"]
        tokens = [s["token"] for s in created.get_json()["seats"]]
        answers = [created.data] + [orjson.dumps(move(http, game_id, tokens)) for _ in range(56)]  # a round and a bid
        for token in [None, *tokens]:
            headers = auth(token) if token else {}
            answers.append(http.get(f"/v1/games/{game_id}", headers=headers).data)
            answers.append(http.get(f"/v1/games/{game_id}/events?after=0", headers=headers).data)
        answers.append(http.post("/v1/games", json={"seed": 7}).data)  # the refusal names no secret either
        answers.append(orjson.dumps(build(store.load(game_id))))  # the record the game will leave
    finally:
        logging.getLogger("services").removeHandler(handler)
    secret = str(json.loads(store.backend.games[game_id][2])["seed"])
    assert len(answers) == 69 and log.getvalue()
    for text in [*answers, log.getvalue().encode()]:
        assert secret.encode() not in text and secret[:16].encode() not in text


def test_a_game_stored_before_secrets_plays_on_and_deals_as_it_did():
    store = MemoryStore(GameRecord.from_stored)
    game_id, tokens = STORED["game_id"], STORED["tokens"]
    store.backend.games[game_id] = (STORED["v"], STORED["meta"], STORED["state"], STORED["rounds"])
    http = app_on(store)
    views = [http.get(f"/v1/games/{game_id}", headers=auth(token)).get_json() for token in tokens]
    assert [view["round"] for view in views] == [2] * 4
    dealt = [set(hand.split()) for hand in STORED["deals"]["2"]]
    assert all(set(view["hand"]) <= dealt[seat] for seat, view in enumerate(views))
    assert views[0]["history"][0]["hands"] == [hand.split() for hand in STORED["deals"]["1"]]
    while (view := move(http, game_id, tokens))["round"] == 2:
        pass
    assert view["history"][1]["hands"] == [hand.split() for hand in STORED["deals"]["2"]]
    hands = [http.get(f"/v1/games/{game_id}", headers=auth(token)).get_json()["hand"] for token in tokens]
    assert hands == [hand.split() for hand in STORED["deals"]["3"]]
    assert json.loads(store.backend.games[game_id][2])["seed"] == json.loads(STORED["state"])["seed"]
