"""The game commands against the in-memory store: no Redis, no processes.

Two :class:`MemoryStore` over one backend play two API processes over one
Redis, each with its own ``recent`` copies, so the stale-copy and race cases
of tests/api/store/test_stale_copies.py (which runs them on Redis) are checked here
move by move.
"""

from __future__ import annotations

from typing import Any

import pytest

from services.api.games import commands, pipeline
from services.api.games.commands import Collaborators
from services.api.games.move_request import MoveRequest, parse_move, request_fingerprint
from services.api.games.pipeline import MAX_CAS_ATTEMPTS
from services.api.games.record import GameRecord
from services.api.games.rendering import ViewCache
from services.api.http import request_schemas
from services.api.problems import ApiError
from services.api.store.memory_store import MemoryBackend, MemoryStore
from services.api.store.protocol import idempotency_key, key_digest

HUMANS = [{"type": "human"}] * 4


def create(ctx: Collaborators, seats: list[dict] | None = None, **extra: Any) -> tuple[str, list[str | None]]:
    body = request_schemas.CREATE_GAME_REQUEST.load({"seats": seats or HUMANS, "seed": 12, **extra})
    created = commands.create_game(ctx, body)
    return created["game_id"], [s.get("token") for s in created["seats"]]


def bid(ctx: Collaborators, game_id: str, token: str | None, tricks: int, **request: Any) -> dict[str, Any]:
    assert token is not None
    move = MoveRequest(token=token, move=parse_move("bid", {"bid": tricks}), **request)
    return commands.make_move(ctx, game_id, move)


def code_of(call: Any) -> str:
    with pytest.raises(ApiError) as error:
        call()
    return error.value.code


@pytest.fixture
def two_processes() -> tuple[Collaborators, Collaborators]:
    backend = MemoryBackend()
    return Collaborators(MemoryStore(GameRecord.from_stored, backend), ViewCache(256)), Collaborators(
        MemoryStore(GameRecord.from_stored, backend), ViewCache(256)
    )


# ---- compare-and-set ------------------------------------------------------------


def test_a_commit_over_a_version_that_moved_on_writes_nothing():
    store = MemoryStore(GameRecord.from_stored)
    game_id, _ = create(Collaborators(store))
    first = store.load(game_id)
    assert store.commit(first.successor(), first, [{"seq": first.seq + 1, "type": "x", "version": 2, "data": {}}])
    assert not store.commit(first.successor(), first, [{"seq": 99, "type": "lost", "version": 2, "data": {}}])
    assert not store.commit(first, None, []), "a game id that exists is never created again"
    # four people: a clock by default, whose first turn_clock the creation appends
    assert [e["type"] for e in store.events_after(game_id, 0, 10)] == [
        "game_created",
        "round_started",
        "turn_clock",
        "x",
    ]


def test_a_stale_copys_refusal_is_checked_again_on_a_fresh_read(two_processes):
    a, b = two_processes
    game_id, tokens = create(a)  # a's recent copy: version 1
    bid(b, game_id, tokens[1], 3)  # b commits version 2
    commits = a.store.commits
    response = bid(a, game_id, tokens[2], 2)  # refused on a's stale copy, then applied
    assert response["version"] == 3 and response["bids"] == [None, 3, 2, None]
    assert a.store.commits == commits + 1


def test_of_two_racing_moves_for_one_turn_one_applies_the_other_sees_the_truth(two_processes):
    a, b = two_processes
    game_id, tokens = create(a)
    b.store.load(game_id)  # both hold version 1
    bid(a, game_id, tokens[1], 3)
    assert code_of(lambda: bid(b, game_id, tokens[1], 4)) == "not_your_turn"  # legal on b's copy: the CAS lost
    assert b.store.commits == 0
    assert b.store.load(game_id).state.bids == (None, 3, None, None)


def test_a_pinned_version_that_moved_on_is_a_version_conflict(two_processes):
    a, b = two_processes
    game_id, tokens = create(a)
    bid(b, game_id, tokens[1], 3)
    assert code_of(lambda: bid(a, game_id, tokens[2], 2, if_match=1)) == "version_conflict"
    assert bid(a, game_id, tokens[2], 2, if_match=2)["version"] == 3


class AlwaysOvertaken(MemoryStore):
    """A store where another writer commits just before every commit of ours."""

    def commit(self, record: GameRecord, expected: GameRecord | None, events: list, idempotent: Any = None) -> bool:
        if expected is not None:
            rival = self.load(record.game_id)
            super().commit(rival.successor(), rival, [])
        return super().commit(record, expected, events, idempotent)


def test_a_game_overtaken_on_every_attempt_answers_busy_after_the_attempt_budget():
    store = AlwaysOvertaken(GameRecord.from_stored)
    game_id, tokens = create(Collaborators(store))
    assert code_of(lambda: bid(Collaborators(store), game_id, tokens[1], 3)) == "unavailable"
    assert store.load(game_id).version == 1 + MAX_CAS_ATTEMPTS  # only the rival's writes landed
    assert store.load(game_id).state.bids == (None, None, None, None)


# ---- stale copies -------------------------------------------------------------------


def test_a_token_claimed_elsewhere_works_at_once(two_processes):
    a, b = two_processes
    game_id, tokens = create(a, seats=HUMANS[:3] + [{"type": "open"}])
    claimed = commands.claim_seat(b, game_id, 3)
    assert bid(a, game_id, tokens[1], 3)["version"] == 3  # a's copy has seat 3 open: it must not say 401
    assert bid(a, game_id, tokens[2], 3)["version"] == 4
    assert bid(a, game_id, claimed["token"], 3)["you"] == 3


def test_a_left_seats_token_is_refused_even_by_a_process_that_saw_it_valid(two_processes):
    a, b = two_processes
    game_id, tokens = create(a)
    commands.leave_seat(b, game_id, 1, tokens[1])
    assert code_of(lambda: bid(a, game_id, tokens[1], 3)) == "unauthorized"


# ---- idempotency ------------------------------------------------------------------


def test_an_idempotent_move_sent_again_answers_the_first_response_and_commits_once(two_processes):
    a, b = two_processes
    game_id, tokens = create(a)
    key, fingerprint = "k-1", request_fingerprint("bid", {"bid": 3})
    first = bid(a, game_id, tokens[1], 3, idempotency_key=key, fingerprint=fingerprint)
    commits = a.store.commits
    bid(a, game_id, tokens[2], 2)  # the game moves on meanwhile
    again = bid(b, game_id, tokens[1], 3, idempotency_key=key, fingerprint=fingerprint)
    assert again == first and again["version"] == 2
    assert a.store.commits == commits + 1 and b.store.commits == 0


def test_an_idempotency_key_reused_with_another_body_is_refused():
    ctx = Collaborators(MemoryStore(GameRecord.from_stored))
    game_id, tokens = create(ctx)
    bid(ctx, game_id, tokens[1], 3, idempotency_key="k", fingerprint=request_fingerprint("bid", {"bid": 3}))
    other = request_fingerprint("bid", {"bid": 4})
    assert code_of(lambda: bid(ctx, game_id, tokens[1], 4, idempotency_key="k", fingerprint=other)) == (
        "idempotency_key_reused"
    )
    # the key is per seat: another seat may use the same one
    assert bid(ctx, game_id, tokens[2], 4, idempotency_key="k", fingerprint=other)["version"] == 3


def test_a_seat_keeps_one_idempotency_entry_its_last_keyed_moves(two_processes):
    a, b = two_processes
    game_id, tokens = create(a)
    bid(a, game_id, tokens[1], 3, idempotency_key="k-1", fingerprint=request_fingerprint("bid", {"bid": 3}))
    bid(a, game_id, tokens[2], 2, idempotency_key="k-2", fingerprint=request_fingerprint("bid", {"bid": 2}))
    entries = a.store.backend.idempotent
    assert sorted(entries) == [idempotency_key(game_id, 1), idempotency_key(game_id, 2)]
    assert b.store.idempotent_entry(idempotency_key(game_id, 1), key_digest("k-1")) is not None
    assert b.store.idempotent_entry(idempotency_key(game_id, 1), key_digest("k-2")) is None, "seat 2's key"


# ---- claim, leave, takeover -----------------------------------------------------------


def test_claiming_the_last_open_seat_starts_round_one():
    ctx = Collaborators(MemoryStore(GameRecord.from_stored))
    game_id, _ = create(ctx, seats=HUMANS[:3] + [{"type": "open"}])
    assert pipeline.load(ctx.store, game_id).waiting
    claimed = commands.claim_seat(ctx, game_id, 3)
    assert claimed["state"]["phase"] == "bidding" and claimed["state"]["you"] == 3
    kinds = [e["type"] for e in ctx.store.events_after(game_id, 0, 10)]
    assert kinds == ["game_created", "seat_claimed", "round_started", "turn_clock"]  # people: a clock by default
    assert code_of(lambda: commands.claim_seat(ctx, game_id, 3)) == "seat_taken"
    assert code_of(lambda: commands.claim_seat(ctx, game_id, 4)) == "not_found"


def test_a_left_seat_is_taken_over_by_the_games_level_and_can_be_claimed_back():
    ctx = Collaborators(MemoryStore(GameRecord.from_stored))
    game_id, tokens = create(ctx, options={"ai_takeover": "basic"})
    assert code_of(lambda: commands.leave_seat(ctx, game_id, 2, tokens[1])) == "forbidden"
    left = commands.leave_seat(ctx, game_id, 1, tokens[1])
    assert left["seats"][1] == {
        "seat": 1,
        "type": "ai",
        "level": "basic",
        "claimable": True,
        "player": {"id": "computer-basic", "name": "basic", "kind": "computer"},
    }
    assert left["phase"] == "bidding", "a stand-in keeps the game going"
    back = commands.claim_seat(ctx, game_id, 1)
    assert back["state"]["seats"][1]["type"] == "human" and back["state"]["you"] == 1


def test_without_takeover_a_left_seat_opens_and_the_game_waits():
    ctx = Collaborators(MemoryStore(GameRecord.from_stored))
    game_id, tokens = create(ctx, options={"ai_takeover": None})
    left = commands.leave_seat(ctx, game_id, 3, tokens[3])
    assert left["seats"][3]["type"] == "open" and left["phase"] == "waiting"
    assert code_of(lambda: bid(ctx, game_id, tokens[1], 3)) == "waiting_for_players"


# ---- the AI hooks and seeds ---------------------------------------------------------------


class RecordingHooks:
    """AI hooks that note what the store held when each was called."""

    def __init__(self, store: MemoryStore) -> None:
        self.store, self.calls = store, []

    def before_commit(self, record: GameRecord) -> None:
        stored = self.store.load(record.game_id)
        self.calls.append(("before", record.version, stored.version if stored else None))

    def after_commit(self, record: GameRecord, read: bool = False) -> None:
        self.calls.append(("after", record.version, self.store.load(record.game_id).version, read))


def test_the_ai_hooks_run_around_every_commit():
    store = MemoryStore(GameRecord.from_stored)
    hooks = RecordingHooks(store)
    ctx = Collaborators(store, ai=hooks)
    game_id, tokens = create(ctx)
    bid(ctx, game_id, tokens[1], 3)
    # the creation comes from a client looking at the game (a read, for pausing computer-only games); a bid not
    assert hooks.calls == [("before", 1, None), ("after", 1, 1, True), ("before", 2, 1), ("after", 2, 2, False)]


def test_every_view_says_whether_the_game_was_seeded():
    ctx = Collaborators(MemoryStore(GameRecord.from_stored), ViewCache(64))
    seeded, tokens = create(ctx)
    body = request_schemas.CREATE_GAME_REQUEST.load({})
    unseeded = commands.create_game(ctx, body)
    assert unseeded["state"]["seeded"] is False
    assert bid(ctx, seeded, tokens[1], 3)["seeded"] is True
    assert commands.leave_seat(ctx, seeded, 2, tokens[2])["seeded"] is True
    assert commands.claim_seat(ctx, seeded, 2)["state"]["seeded"] is True
    assert ctx.store.load(seeded).seeded and not ctx.store.load(unseeded["game_id"]).seeded


def test_a_server_that_refuses_seeds_refuses_seeded_games_only():
    ctx = Collaborators(MemoryStore(GameRecord.from_stored), allow_seeded=False)
    assert code_of(lambda: create(ctx)) == "seeded_games_disabled"
    created = commands.create_game(ctx, request_schemas.CREATE_GAME_REQUEST.load({}))
    assert created["state"]["seeded"] is False
