"""A game view's body (services.api.http.view_bodies) through the app on the in-memory store: ``GET`` adds each seat's
``connected`` and the last quick ``messages`` at read time, and the per-version cache never holds them."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from flask import Flask

from services.api.app import create_app
from services.api.games.record import GameRecord
from services.api.games.rendering import ViewCache
from services.api.store.memory_store import MemoryStore
from services.api.store.table_life import MessageLimits


@pytest.fixture
def app(tmp_path) -> Flask:
    settings: dict[str, Any] = {
        "STORE": MemoryStore(GameRecord.from_stored),
        "AI_ENABLED": False,
        "RATE_LIMIT_ENABLED": False,
        "LOG_LEVEL": "WARNING",
        "RECORDS_ENABLED": False,
        "DATA_DIR": str(tmp_path),
    }
    return create_app(settings)


def test_presence_and_messages_are_read_at_each_get_and_never_cached(app):
    client, store = app.test_client(), app.extensions["spades.store"]
    created = client.post("/v1/games", json={"seats": [{"type": "human"}] * 2 + [{"type": "ai"}] * 2}).get_json()
    game_id, token = created["game_id"], created["seats"][1]["token"]
    first = client.get(f"/v1/games/{game_id}", headers={"Authorization": f"Bearer {token}"})
    assert [s["connected"] for s in first.get_json()["seats"]] == [False] * 4 and first.get_json()["messages"] == []
    store.hold_presence(game_id, 1, 0, 2**53)
    store.post_message(game_id, 0, b'{"seat":0,"code":"hello","at_ms":5}', 5, MessageLimits())
    again = client.get(f"/v1/games/{game_id}", headers={"Authorization": f"Bearer {token}"}).get_json()
    assert again["version"] == first.get_json()["version"], "the same version, its view from the cache"
    assert [s["connected"] for s in again["seats"]] == [False, True, False, False]
    assert again["messages"] == [{"seat": 0, "code": "hello", "at_ms": 5}]
    per_read = ("seats", "messages", "server_time_ms")  # read (or stamped) at each GET
    assert {key: value for key, value in again.items() if key not in per_read} == {
        key: value for key, value in first.get_json().items() if key not in per_read
    }
    cache: ViewCache = app.extensions["spades.commands"].cache
    head, tail = cache.get(("json", game_id, again["version"], 1))
    cached = orjson.dumps(cache.get((game_id, again["version"], 1))) + head + tail
    assert b"connected" not in cached and b"hello" not in cached and b'"messages"' not in cached


def test_a_moves_answer_has_the_seats_without_read_time_fields(app):
    client = app.test_client()
    created = client.post("/v1/games", json={"seats": [{"type": "human"}] * 4}).get_json()
    game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    moved = client.post(f"/v1/games/{game_id}/bids", json={"bid": 3}, headers={"Authorization": f"Bearer {tokens[1]}"})
    assert moved.status_code == 200 and "messages" not in moved.get_json()
    assert all("connected" not in seat for seat in moved.get_json()["seats"])
