"""Quick messages (services.api.games.messages) on the in-memory store: fixed codes, per-seat limits, the last few
kept and each one published as a notice (never a log event)."""

from __future__ import annotations

import orjson
import pytest

from services.api.games import commands, messages
from services.api.games.commands import Collaborators
from services.api.games.record import GameRecord
from services.api.http import request_schemas
from services.api.problems import ApiError
from services.api.store.memory_store import MemoryStore
from services.api.store.protocol import notify_channel
from services.api.store.table_life import MESSAGES_KEPT, MessageLimits

LIMITS = MessageLimits(gap_ms=2000, most=3, window_ms=60_000)


@pytest.fixture
def table() -> tuple[Collaborators, str, list[str]]:
    ctx = Collaborators(MemoryStore(GameRecord.from_stored))
    created = commands.create_game(ctx, request_schemas.CREATE_GAME_REQUEST.load({}))
    return ctx, created["game_id"], [s["token"] for s in created["seats"]]


def test_each_seat_posts_at_most_one_every_gap_and_so_many_a_window(table):
    ctx, game_id, _ = table
    store = ctx.store
    post = lambda seat, at: store.post_message(game_id, seat, b'{"seat":%d}' % seat, at, LIMITS)  # noqa: E731
    assert post(0, 0) == 0 and post(1, 0) == 0, "each seat has its own limits"
    assert post(0, 1500) == 500, "the gap: 2 s after the last"
    assert post(0, 2000) == 0 and post(0, 4000) == 0
    assert post(0, 6000) == 54_000, "three a minute: the next when the first leaves the window"
    assert post(0, 60_001) == 0
    assert len(store.table_extras(game_id, 0)[1]) == 5


def test_a_post_is_kept_with_the_last_few_and_published_as_a_notice_not_an_event(table):
    ctx, game_id, tokens = table
    logged = [e["type"] for e in ctx.store.events_after(game_id, 0, 10)]
    subscription = ctx.store.subscription()
    subscription.subscribe(notify_channel(game_id))
    assert subscription.receive(1)[0] == "subscribed"
    message = messages.post(ctx, game_id, tokens[2], "good_game")
    assert message["seat"] == 2 and message["code"] == "good_game"
    *_, payload = subscription.receive(1)
    assert orjson.loads(payload) == {"notice": "message", **message}
    assert [e["type"] for e in ctx.store.events_after(game_id, 0, 10)] == logged, "nothing added to the log"
    for seat in range(4):  # more than are kept, one each (the limits are per seat)
        for at in range(3):
            ctx.store.post_message(game_id, seat, b'{"n":%d}' % (seat * 10 + at), at * 3000, LIMITS)
    kept = messages.kept(ctx.store.table_extras(game_id, 0)[1])
    assert len(kept) == MESSAGES_KEPT and kept[-1] == {"n": 32}, "the newest last"


def test_a_seat_past_its_limit_gets_429_too_many_messages_with_retry_after(table):
    ctx, game_id, tokens = table
    messages.post(ctx, game_id, tokens[0], "hello")
    with pytest.raises(ApiError) as error:
        messages.post(ctx, game_id, tokens[0], "oops")
    assert (error.value.status, error.value.code, error.value.retry_after) == (429, "too_many_messages", 2)
    messages.post(ctx, game_id, tokens[1], "hello")  # another seat may
