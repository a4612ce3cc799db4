"""Idempotency entries: one per seat, its last accepted keyed move's, compact; a replay equals the
original response, byte for byte, after later rounds; an older key of the seat is judged as a new move."""

from __future__ import annotations

import orjson
import pytest

from services.api.games import idempotency
from services.api.games.commands import Collaborators, make_move
from services.api.games.record import GameRecord
from services.api.games.rendering import ViewCache
from services.api.http.routes import view_body
from services.api.problems import ApiError
from services.api.store.memory_store import MemoryBackend, MemoryStore
from services.api.store.protocol import entry_answers, idempotency_key, key_digest
from services.engine import turn

from ..contract import ContractSession
from ..helpers import planned_game, play_planned
from .test_log_retention import move, new_game, next_move, play_until_round


def test_an_entry_starts_with_its_keys_digest_holds_no_history_and_is_compressed():
    response = {"version": 9, "history": [{"round": 1, "points": [10, -10]}], "hand": ["QS"] * 13}
    raw = idempotency.pack(key_digest("k"), "f" * 64, response)
    assert len(raw) < len(orjson.dumps(response))
    assert entry_answers(raw, key_digest("k")) and not entry_answers(raw, key_digest("another"))
    stored = idempotency.unpack(raw)
    assert (stored.fingerprint, stored.rounds) == ("f" * 64, 1)
    assert stored.response == {"version": 9, "hand": ["QS"] * 13}


def test_a_replay_after_later_rounds_finished_equals_the_original_response():
    ctx = Collaborators(MemoryStore(GameRecord.from_stored), ViewCache(256))
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
    first, second = (
        Collaborators(MemoryStore(GameRecord.from_stored, backend), ViewCache(256)),
        Collaborators(MemoryStore(GameRecord.from_stored, backend)),
    )
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


def test_a_seats_next_keyed_move_replaces_its_entry_and_the_older_key_is_judged_as_a_new_move():
    ctx = Collaborators(MemoryStore(GameRecord.from_stored), ViewCache(256))
    game_id, tokens = new_game(ctx)
    seat = turn(ctx.store.load(game_id).state)
    first = next_move(ctx, game_id, tokens, key="k-1")
    make_move(ctx, game_id, first)
    while turn(ctx.store.load(game_id).state) != seat:  # the others bid; then the seat leads
        move(ctx, game_id, tokens)
    second = next_move(ctx, game_id, tokens, key="k-2")
    answered = make_move(ctx, game_id, second)
    move(ctx, game_id, tokens)  # another seat moves meanwhile
    assert view_body(make_move(ctx, game_id, second)) == view_body(answered)
    with pytest.raises(ApiError) as refused:
        make_move(ctx, game_id, first)  # its bid, sent again during the play
    assert (refused.value.status, refused.value.code) == (422, "illegal_move")
    assert refused.value.extra["reason"] == "wrong_phase"
    assert [key for key in ctx.store.backend.idempotent] == [idempotency_key(game_id, seat)]


@pytest.mark.integration
def test_over_http_each_seat_keeps_only_its_last_keyed_move(api_server, redis_db1):
    """Every move of rounds 1 and 2 keyed: a seat's last key is replayed byte for byte after the others
    moved and the log was trimmed, its older keys are new moves (412 with their If-Match), and the
    game holds one entry per seat."""
    session = ContractSession(api_server)
    created, plan = planned_game(session, seed=63)
    game_id = created["game_id"]
    tokens = [s["token"] for s in created["seats"]]
    sent: dict[int, list[tuple[str, bytes, dict[str, str], bytes]]] = {seat: [] for seat in range(4)}
    version = created["state"]["version"]
    while session.get(f"/v1/games/{game_id}").json()["round"] < 3:
        path, body, headers = plan.popleft()
        seat = tokens.index(headers["Authorization"].removeprefix("Bearer "))
        keyed = {**headers, "Content-Type": "application/json", "If-Match": f'"{version}"'}
        keyed["Idempotency-Key"] = f"seat-{seat}-move-{len(sent[seat])}"
        answer = session.post(path, data=body, headers=keyed)
        assert answer.status_code == 200, answer.text
        sent[seat].append((path, body, keyed, answer.content))
        version = answer.json()["version"]
    play_planned(session, plan, lambda view: view["round"] == 4)  # unkeyed; rounds 1 and 2 trimmed
    assert session.get(f"/v1/games/{game_id}/events", params={"after": 0}).status_code == 410
    for seat, moves in sent.items():
        path, body, headers, original = moves[-1]
        replayed = session.post(path, data=body, headers=headers)
        assert replayed.status_code == 200 and replayed.content == original
        path, body, headers, _ = moves[0]
        fresh = session.post(path, data=body, headers=headers)
        assert (fresh.status_code, fresh.json()["code"]) == (412, "version_conflict"), seat
    keys = sorted(key.decode() for key in redis_db1.scan_iter(match=f"game:{{{game_id}}}:idem*"))
    assert keys == [f"game:{{{game_id}}}:idem:{seat}" for seat in range(4)]
