"""Compact idempotency entries: a replay equals the original response, byte for byte, after later rounds."""

from __future__ import annotations

import orjson
import pytest

from services.api import idempotency
from services.api.commands import Collaborators, make_move
from services.api.memory_store import MemoryBackend, MemoryStore
from services.api.rendering import ViewCache
from services.api.routes import view_body

from .contract import ContractSession
from .helpers import planned_game, play_planned
from .test_retention import new_game, next_move, play_until_round


def test_an_entry_holds_no_history_and_is_compressed():
    response = {"version": 9, "history": [{"round": 1, "points": [10, -10]}], "hand": ["QS"] * 13}
    raw = idempotency.pack("f" * 64, response)
    assert len(raw) < len(orjson.dumps(response))
    stored = idempotency.unpack(raw)
    assert (stored.fingerprint, stored.rounds) == ("f" * 64, 1)
    assert stored.response == {"version": 9, "hand": ["QS"] * 13}


def test_a_replay_after_later_rounds_finished_equals_the_original_response():
    ctx = Collaborators(MemoryStore(), ViewCache(256))
    game_id, tokens = new_game(ctx)
    play_until_round(ctx, game_id, tokens, 2)
    request = next_move(ctx, game_id, tokens, key="k-round-2")
    original = make_move(ctx, game_id, request)
    assert len(original["history"]) == 1
    play_until_round(ctx, game_id, tokens, 5)  # three more rounds finish; the log is trimmed meanwhile
    for cache in (ctx.cache, None, ViewCache(256)):  # warm, absent and cold caches rebuild the same rounds
        retry = Collaborators(ctx.store, cache)
        assert view_body(make_move(retry, game_id, request)) == view_body(original)


def test_a_stale_copy_with_fewer_rounds_than_the_entry_replays_from_a_fresh_read():
    backend = MemoryBackend()
    first, second = Collaborators(MemoryStore(backend), ViewCache(256)), Collaborators(MemoryStore(backend))
    game_id, tokens = new_game(first)
    second.store.load(game_id)  # the second process's recent copy: round 1, no finished round
    play_until_round(first, game_id, tokens, 3)
    request = next_move(first, game_id, tokens, key="k")
    original = make_move(first, game_id, request)
    assert second.store.recent(game_id).state.history == ()
    assert view_body(make_move(second, game_id, request)) == view_body(original)


@pytest.mark.integration
def test_over_http_a_retried_move_returns_the_original_bytes_after_the_log_was_trimmed(api_server):
    session = ContractSession(api_server)
    created, plan = planned_game(session, seed=63)
    game_id = created["game_id"]
    play_planned(session, plan, lambda view: view["round"] == 2)
    path, body, headers = plan.popleft()
    headers = {**headers, "Content-Type": "application/json", "Idempotency-Key": "move-of-round-2"}
    original = session.post(path, data=body, headers=headers)
    assert original.status_code == 200 and len(original.json()["history"]) == 1
    play_planned(session, plan, lambda view: view["round"] == 4)  # round 2's events are trimmed now
    assert session.get(f"/v1/games/{game_id}/events", params={"after": 0}).status_code == 410
    retried = session.post(path, data=body, headers=headers)
    assert retried.status_code == 200
    assert retried.content == original.content
    assert retried.headers["ETag"] == original.headers["ETag"]
