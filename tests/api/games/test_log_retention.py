"""The bounded event log on the in-memory store: what a commit keeps, and the 410 for a client behind it."""

from __future__ import annotations

import pytest

from services.api.games import commands
from services.api.games.commands import Collaborators
from services.api.games.log_retention import KEPT_ROUNDS, check_resumable
from services.api.games.move_request import MoveRequest, parse_move, request_fingerprint
from services.api.games.record import GameRecord
from services.api.games.rendering import ViewCache
from services.api.http import request_schemas
from services.api.problems import ApiError
from services.api.store.memory_store import MemoryStore
from services.engine import Bid, card_code, legal_moves, turn


def new_game(ctx: Collaborators) -> tuple[str, list[str]]:
    body = request_schemas.CREATE_GAME_REQUEST.load({"seats": [{"type": "human"}] * 4, "seed": 5})
    created = commands.create_game(ctx, body)
    return created["game_id"], [s["token"] for s in created["seats"]]


def next_move(ctx: Collaborators, game_id: str, tokens: list[str], key: str | None = None) -> MoveRequest:
    """The seat to move's first legal move (a bid of at least 2 when it may), with ``key`` as Idempotency-Key."""
    state = ctx.store.load(game_id).state
    seat = turn(state)
    moves = legal_moves(state, seat)
    chosen = next((m for m in moves if isinstance(m, Bid) and m.tricks >= 2), moves[0])
    kind, body = (
        ("bid", {"bid": chosen.tricks}) if isinstance(chosen, Bid) else ("play", {"card": card_code(chosen.card)})
    )
    fingerprint = request_fingerprint(kind, body) if key else None
    return MoveRequest(tokens[seat], parse_move(kind, body), idempotency_key=key, fingerprint=fingerprint)


def move(ctx: Collaborators, game_id: str, tokens: list[str]) -> dict:
    return commands.make_move(ctx, game_id, next_move(ctx, game_id, tokens))


def play_until_round(ctx: Collaborators, game_id: str, tokens: list[str], round_no: int) -> None:
    while ctx.store.load(game_id).state.round < round_no:
        move(ctx, game_id, tokens)


def round_starts(events: list[dict]) -> list[int]:
    return [e["data"]["round"] for e in events if e["type"] == "round_started"]


def test_the_log_keeps_the_current_and_the_previous_round_and_every_seq_in_them():
    ctx = Collaborators(MemoryStore(GameRecord.from_stored), ViewCache(256))
    game_id, tokens = new_game(ctx)
    play_until_round(ctx, game_id, tokens, KEPT_ROUNDS)
    assert ctx.store.events_after(game_id, 0, 10_000)[0]["type"] == "game_created"  # nothing trimmed yet
    for round_no in (KEPT_ROUNDS + 1, KEPT_ROUNDS + 2):
        play_until_round(ctx, game_id, tokens, round_no)
        record = ctx.store.load(game_id)
        kept = ctx.store.events_after(game_id, 0, 10_000)
        assert round_starts(kept) == list(range(round_no - KEPT_ROUNDS + 1, round_no + 1))
        assert kept[0]["type"] == "round_started" and kept[0]["seq"] == record.first_seq
        assert [e["seq"] for e in kept] == list(range(record.first_seq, record.seq + 1))  # no gap, up to the last
        assert len(record.state.history) == round_no - 1  # finished rounds stay as hand records


def test_a_resume_point_before_the_kept_log_is_410_with_first_seq_and_one_inside_is_not():
    ctx = Collaborators(MemoryStore(GameRecord.from_stored), ViewCache(256))
    game_id, tokens = new_game(ctx)
    play_until_round(ctx, game_id, tokens, KEPT_ROUNDS + 1)
    record = ctx.store.load(game_id)
    for after in (record.first_seq - 1, record.seq):
        check_resumable(record, after)  # inside the window: no problem
    for after in (0, record.first_seq - 2):
        with pytest.raises(ApiError) as error:
            check_resumable(record, after)
        assert (error.value.status, error.value.code) == (410, "too_far_behind")
        assert error.value.extra == {"first_seq": record.first_seq}
        assert "last_seq" in error.value.detail


def test_a_view_s_last_seq_is_the_log_s_last_event():
    ctx = Collaborators(MemoryStore(GameRecord.from_stored), ViewCache(256))
    game_id, tokens = new_game(ctx)
    play_until_round(ctx, game_id, tokens, KEPT_ROUNDS + 2)
    view = move(ctx, game_id, tokens)
    assert view["last_seq"] == ctx.store.events_after(game_id, 0, 10_000)[-1]["seq"]
    assert ctx.store.events_after(game_id, view["last_seq"], 10) == []
