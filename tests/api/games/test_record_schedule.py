"""The outbox entries a game's commands make: one before its creation is committed, due a margin before
it would expire; its end makes it due at once.  And the commit's TTLs: a game that ends keeps no expiry
until its record is written."""

from __future__ import annotations

import time

import pytest
import redis

from services.api.games.commands import Collaborators
from services.api.games.record import GameRecord
from services.api.games.record_schedule import RecordSchedule
from services.api.store.memory_store import MemoryStore
from services.api.store.redis_commit import CommitTtls

from .test_quotas import create, play_to_the_end

SCHEDULE = RecordSchedule(game_ttl=7 * 86_400)


def test_a_new_game_is_due_a_margin_before_its_expiry_and_at_once_when_it_ends():
    ctx = Collaborators(MemoryStore(GameRecord.from_stored), records=SCHEDULE)
    before = time.time()
    created = create(ctx, ())
    due = ctx.store.backend.outbox[created["game_id"]]
    assert abs(due - (before + SCHEDULE.game_ttl - SCHEDULE.margin)) < 60  # at creation, give or take the run
    play_to_the_end(ctx, created)
    assert ctx.store.backend.outbox[created["game_id"]] < due - SCHEDULE.game_ttl / 2  # due now, not in a week
    record = ctx.store.load(created["game_id"])
    assert 0 < record.created_ms <= record.changed_ms


class OutboxLostAfterTheEnd(MemoryStore):
    """The outbox refuses every entry once the game's end is committed: its shard's Redis master failing over (or
    the API process killed) right after the commit that ends the game."""

    def schedule_record(self, game_id: str, due: float) -> None:
        record = self.load(game_id)
        if record is not None and record.state.phase == "game_over":
            raise redis.ConnectionError("Error 111 connecting to 127.0.0.1:7101. Connection refused.")
        super().schedule_record(game_id, due)


def test_a_game_whose_end_is_committed_is_due_soon_even_if_nothing_runs_after_the_commit():
    """Made due only after the commit, a game ended just before its process died or its outbox shard failed
    over kept its creation's entry: recorded a week later.  It is made due before the commit too."""
    ctx = Collaborators(OutboxLostAfterTheEnd(GameRecord.from_stored), records=SCHEDULE)
    created = create(ctx, ())
    with pytest.raises(redis.ConnectionError):  # the end's own entry, after its commit: refused
        play_to_the_end(ctx, created)
    game_id = created["game_id"]
    assert ctx.store.load(game_id).state.phase == "game_over"
    assert ctx.store.backend.outbox[game_id] <= time.time() + 60  # due within the minute, not in a week


def test_without_records_nothing_goes_to_the_outbox():
    ctx = Collaborators(MemoryStore(GameRecord.from_stored))
    play_to_the_end(ctx, create(ctx, ()))
    assert ctx.store.backend.outbox == {}


def test_the_margin_is_an_hour_or_half_a_short_ttl():
    assert SCHEDULE.margin == 3600 and RecordSchedule(game_ttl=600).margin == 300


def test_the_commit_that_ends_a_game_takes_its_expiry_off_and_later_ones_leave_it():
    ctx = Collaborators(MemoryStore(GameRecord.from_stored), records=SCHEDULE)
    created = create(ctx, ())
    play_to_the_end(ctx, created)
    over = ctx.store.load(created["game_id"])
    in_play = create(ctx, ())
    playing = ctx.store.load(in_play["game_id"])
    kept, plain = CommitTtls(100, 10, 50, keep_finished=True), CommitTtls(100, 10, 50)
    assert kept.after(playing, None) == plain.after(playing, None) == 100
    assert kept.after(over, playing) == -1 and plain.after(over, playing) == 10
    assert kept.after(over, over) == 0 and plain.after(over, over) == 10
