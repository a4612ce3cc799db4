"""Rejoin codes (services.api.games.rejoin) on the in-memory store: a seat taken back from another device."""

from __future__ import annotations

import orjson
import pytest

from services.api.games import commands, rejoin
from services.api.games.commands import Collaborators
from services.api.games.record import GameRecord
from services.api.games.rendering import ViewCache
from services.api.http import request_schemas
from services.api.problems import ApiError
from services.api.store.memory_store import MemoryStore


@pytest.fixture
def table() -> tuple[Collaborators, str, list[str]]:
    ctx = Collaborators(MemoryStore(GameRecord.from_stored), ViewCache(64))
    body = request_schemas.CREATE_GAME_REQUEST.load({"seats": [{"type": "human"}] * 2 + [{"type": "ai"}] * 2})
    created = commands.create_game(ctx, body)
    return ctx, created["game_id"], [s.get("token") for s in created["seats"]]


def refused(call) -> str:
    with pytest.raises(ApiError) as error:
        call()
    return error.value.code


def test_a_redeemed_code_gives_a_new_token_and_revokes_the_old_one_in_one_commit(table):
    ctx, game_id, tokens = table
    code = rejoin.create_code(ctx, game_id, 1, tokens[1])["code"]
    before = ctx.store.load(game_id)
    seated = rejoin.redeem(ctx, game_id, code)
    after = ctx.store.load(game_id)
    assert (seated["seat"], seated["state"]["you"], after.version) == (1, 1, before.version + 1)
    assert after.seats[1].token_hash != before.seats[1].token_hash
    assert refused(lambda: rejoin.create_code(ctx, game_id, 1, tokens[1])) == "unauthorized"  # the old token
    rejoin.create_code(ctx, game_id, 1, seated["token"])  # the new one works
    last = ctx.store.events_after(game_id, before.seq, 10)
    assert [(e["type"], e["data"]) for e in last] == [("seat_rejoined", {"seat": 1})]


def test_a_code_is_used_once_revocable_and_replaced_by_the_next(table):
    ctx, game_id, tokens = table
    first = rejoin.create_code(ctx, game_id, 0, tokens[0])["code"]
    second = rejoin.create_code(ctx, game_id, 0, tokens[0])["code"]
    assert refused(lambda: rejoin.redeem(ctx, game_id, first)) == "invalid_rejoin_code"  # replaced
    rejoin.revoke_code(ctx, game_id, 0, tokens[0])
    assert refused(lambda: rejoin.redeem(ctx, game_id, second)) == "invalid_rejoin_code"  # revoked
    third = rejoin.create_code(ctx, game_id, 0, tokens[0])["code"]
    rejoin.redeem(ctx, game_id, third.lower().replace("-", " ").replace("0", "o"))  # as a person may type it
    assert refused(lambda: rejoin.redeem(ctx, game_id, third)) == "invalid_rejoin_code"  # used


def test_only_the_seats_own_token_makes_its_code_and_a_seat_that_changed_hands_refuses_it(table):
    ctx, game_id, tokens = table
    assert refused(lambda: rejoin.create_code(ctx, game_id, 0, tokens[1])) == "forbidden"
    code = rejoin.create_code(ctx, game_id, 1, tokens[1])["code"]
    commands.leave_seat(ctx, game_id, 1, tokens[1])
    commands.claim_seat(ctx, game_id, 1)  # someone else sits there now
    assert refused(lambda: rejoin.redeem(ctx, game_id, code)) == "invalid_rejoin_code"
    assert refused(lambda: rejoin.redeem(ctx, game_id, "not a code")) == "invalid_rejoin_code"


def test_a_code_is_kept_hashed_and_never_reaches_the_log_or_a_view(table):
    ctx, game_id, tokens = table
    code = rejoin.create_code(ctx, game_id, 0, tokens[0])["code"]
    compact = rejoin.normalized(code)
    assert compact and len(compact) == rejoin.LENGTH and len(code) == rejoin.LENGTH + 2
    stored = ctx.store.backend.table.codes[game_id][0]
    assert compact not in stored and stored.startswith(rejoin.code_digest(game_id, compact))
    seated = rejoin.redeem(ctx, game_id, code)
    everything = orjson.dumps([ctx.store.events_after(game_id, 0, 100), seated["state"]]).decode()
    assert compact not in everything and code not in everything
