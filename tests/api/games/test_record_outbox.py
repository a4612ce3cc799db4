"""The outbox entries a game's commands make: one before its creation is committed, due a margin before
it would expire; its end makes it due at once.  And the commit's TTLs: a game that ends keeps no expiry
until its record is written."""

from __future__ import annotations

import time

from services.api.games.commands import Collaborators
from services.api.games.record_outbox import RecordSchedule
from services.api.store.memory_store import MemoryStore
from services.api.store.redis_commit import CommitTtls

from .test_quotas import create, play_to_the_end

SCHEDULE = RecordSchedule(game_ttl=7 * 86_400)


def test_a_new_game_is_due_a_margin_before_its_expiry_and_at_once_when_it_ends():
    ctx = Collaborators(MemoryStore(), records=SCHEDULE)
    before = time.time()
    created = create(ctx, ())
    due = ctx.store.backend.outbox[created["game_id"]]
    assert abs(due - (before + SCHEDULE.game_ttl - SCHEDULE.margin)) < 60  # at creation, give or take the run
    play_to_the_end(ctx, created)
    assert ctx.store.backend.outbox[created["game_id"]] < due - SCHEDULE.game_ttl / 2  # due now, not in a week
    record = ctx.store.load(created["game_id"])
    assert 0 < record.created_ms <= record.changed_ms


def test_without_records_nothing_goes_to_the_outbox():
    ctx = Collaborators(MemoryStore())
    play_to_the_end(ctx, create(ctx, ()))
    assert ctx.store.backend.outbox == {}


def test_the_margin_is_an_hour_or_half_a_short_ttl():
    assert SCHEDULE.margin == 3600 and RecordSchedule(game_ttl=600).margin == 300


def test_the_commit_that_ends_a_game_takes_its_expiry_off_and_later_ones_leave_it():
    ctx = Collaborators(MemoryStore(), records=SCHEDULE)
    created = create(ctx, ())
    play_to_the_end(ctx, created)
    over = ctx.store.load(created["game_id"])
    in_play = create(ctx, ())
    playing = ctx.store.load(in_play["game_id"])
    kept, plain = CommitTtls(100, 10, 50, keep_finished=True), CommitTtls(100, 10, 50)
    assert kept.after(playing, None) == plain.after(playing, None) == 100
    assert kept.after(over, playing) == -1 and plain.after(over, playing) == 10
    assert kept.after(over, over) == 0 and plain.after(over, over) == 10
