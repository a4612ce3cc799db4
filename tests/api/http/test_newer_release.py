"""What a newer release wrote, served and changed by this one (a rolling upgrade's old processes, a rollback's):
on the in-memory store, a game whose stored meta, options and seats carry what this release does not know and
whose log holds an event type it does not list.  Its view, ``/events`` and its stream read as usual, a move commits,
and the newer release's keys are still there after it.  The whole stack under a load: ``benchmarks.release``."""

from __future__ import annotations

from typing import Any

import orjson
from flask.testing import FlaskClient

from services.api.app import create_app
from services.api.games.event_types import BY_NAME
from services.api.games.record import GameRecord
from services.api.store.memory_store import MemoryStore

from ..helpers import auth

PEOPLE = {"seats": [{"type": "human"}] * 4, "options": {"clock": "normal"}}
NEWER_EVENT = "stamped"  # a type a newer release adds to the log
STAMP = {"release": "next", "version": 2}


def newer_commit(store: MemoryStore, game_id: str) -> None:
    """A commit of the newer release: its key in meta, an option and a seat item of its own, its event type."""
    record = store.load(game_id)
    assert record is not None
    meta = orjson.loads(record.meta_json())
    meta["stamp"] = STAMP
    meta["options"]["variant"] = "mirror"
    meta["seats"] = [[*seat, *[False, None, None, None][len(seat) - 3 :], "newer"] for seat in meta["seats"]]
    nxt = GameRecord.from_stored(game_id, record.version + 1, orjson.dumps(meta), record.state_json, record.rounds_json)
    nxt.seq = record.seq + 1
    entry = {"seq": nxt.seq, "type": NEWER_EVENT, "version": nxt.version, "data": {"seat": 0, "release": "next"}}
    assert store.commit(nxt, record, [entry])


def test_this_release_serves_and_moves_a_game_a_newer_one_wrote():
    assert NEWER_EVENT not in BY_NAME, "the newer release's event type must be one this release does not list"
    store = MemoryStore(GameRecord.from_stored)
    settings: dict[str, Any] = {"STORE": store, "AI_ENABLED": False, "RATE_LIMIT_ENABLED": False}
    http: FlaskClient = create_app({**settings, "LOG_LEVEL": "WARNING"}).test_client()
    created = http.post("/v1/games", json=PEOPLE).get_json()
    game_id, tokens = created["game_id"], {s["seat"]: s["token"] for s in created["seats"]}
    newer_commit(store, game_id)

    view = http.get(f"/v1/games/{game_id}", headers=auth(tokens[0])).get_json()
    assert view["version"] == 2 and view["options"]["variant"] == "mirror"
    events = http.get(f"/v1/games/{game_id}/events?after=0", headers=auth(tokens[0])).get_json()["events"]
    assert [e["type"] for e in events][-1] == NEWER_EVENT
    stream = http.get(f"/v1/games/{game_id}/stream", headers={**auth(tokens[0]), "Last-Event-ID": "0"}, buffered=False)
    frames = b""
    for frame in stream.response:  # the kept log first: it ends with the newer release's event
        frames += frame
        if f"id: {events[-1]['seq']}\n".encode() in frames:
            break
    stream.close()
    assert f"event: {NEWER_EVENT}\n".encode() in frames

    seat = view["turn"]
    moved = http.post(f"/v1/games/{game_id}/bids", json={"bid": 3}, headers={**auth(tokens[seat]), "If-Match": '"2"'})
    assert moved.status_code == 200 and moved.get_json()["version"] == 3
    after = store.load(game_id)
    assert after is not None and after.version == 3
    stored = orjson.loads(after.meta_json())
    assert stored["stamp"] == STAMP and stored["options"]["variant"] == "mirror"
