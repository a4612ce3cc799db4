"""The records writer on the memory store and SQLite: a finished game recorded, then let go; a game in play
looked at again before it expires, recorded hidden when abandoned, ended at its expiry and only then shown (a
move meanwhile wins); a database that fails holds everything back; the sweep shows what a lost entry left
hidden."""

from __future__ import annotations

import orjson
import pytest
from sqlalchemy.exc import OperationalError

from services.api.games.record import GameRecord
from services.api.games.record_schedule import RecordSchedule
from services.api.records import writer as writer_module
from services.api.records.content import build
from services.api.records.repository import RecordRepository
from services.api.records.writer import RecordWriter
from services.api.store.memory_store import MemoryStore

from .conftest import stored_game

DAY = 86_400.0
SCHEDULE = RecordSchedule(game_ttl=7 * 86_400)


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class FailingRepository(RecordRepository):
    """The database down: every write fails as a lost connection does."""

    def save(self, document, created_ms, ended_ms) -> bool:
        raise OperationalError("INSERT", {}, Exception("connection refused"))

    def reveal(self, game_ids) -> int:
        raise OperationalError("UPDATE", {}, Exception("connection refused"))


@pytest.fixture
def clock() -> Clock:
    return Clock()


def put(store: MemoryStore, record) -> None:
    assert store.commit(record, None, [])


def writer(store, engine, clock, repository=None) -> RecordWriter:
    found = RecordWriter(store, repository or RecordRepository(engine), SCHEDULE, retry=10, clock=clock)
    found.migrated = True
    return found


def test_a_finished_game_is_recorded_then_given_its_expiry(sqlite_engine, clock):
    store = MemoryStore(GameRecord.from_stored)
    record = stored_game("g1")
    put(store, record)
    store.schedule_record("g1", clock.now)
    assert writer(store, sqlite_engine, clock).drain() == 1
    outcome, body = RecordRepository(sqlite_engine).get("g1")
    assert outcome == "finished" and orjson.loads(body)["version"] == record.version
    assert store.backend.written == {"g1": record.version} and store.backend.outbox == {}


def test_a_game_that_changed_after_it_was_read_is_recorded_again(sqlite_engine, clock):
    store = MemoryStore(GameRecord.from_stored)
    put(store, stored_game("g1"))
    store.record_written = lambda game_id, version: False  # type: ignore[method-assign]  # a leave got in first
    store.schedule_record("g1", clock.now)
    writer(store, sqlite_engine, clock).handle("g1")
    assert store.backend.outbox == {"g1": clock.now}


def test_a_game_in_play_is_due_again_a_margin_before_it_expires(sqlite_engine, clock):
    store = MemoryStore(GameRecord.from_stored)
    put(store, stored_game("g1", over=False))
    store.backend.ttls["g1"] = 3 * DAY
    writer(store, sqlite_engine, clock).handle("g1")
    assert store.backend.outbox["g1"] == clock.now + 3 * DAY - SCHEDULE.margin
    assert RecordRepository(sqlite_engine).get("g1") is None


def test_an_abandoned_game_is_recorded_hidden_then_ended_at_its_expiry_and_only_then_shown(sqlite_engine, clock):
    store = MemoryStore(GameRecord.from_stored)
    put(store, stored_game("g1", over=False))
    store.backend.ttls["g1"] = 60.0
    records = RecordRepository(sqlite_engine)
    writer(store, sqlite_engine, clock).handle("g1")
    assert records.hidden("", 10) == ["g1"] and records.get("g1") is None  # written, shown to nobody
    assert store.backend.outbox["g1"] == clock.now + 60  # looked at again when it would expire
    assert store.load("g1") is not None
    clock.now += 60
    store.backend.ttls["g1"] = 0.2  # not quite expired yet: ended now
    writer(store, sqlite_engine, clock).handle("g1")
    assert store.load("g1") is None and "g1" not in store.backend.events  # every key of it gone at once
    assert records.get("g1")[0] == "abandoned" and records.hidden("", 10) == []
    assert store.backend.outbox == {}


def test_a_move_made_before_the_end_wins_over_the_abandonment(sqlite_engine, clock):
    store = MemoryStore(GameRecord.from_stored)
    abandoned = stored_game("g1", over=False)
    put(store, abandoned)
    store.backend.ttls["g1"] = 0.5
    moved = stored_game("g1", over=False, moves=31)
    moved.version = abandoned.version + 1
    ending = store.end_game

    def a_move_first(game_id, version):  # the move lands between the writer's read and its end
        assert store.commit(moved, abandoned, [])
        store.backend.ttls["g1"] = 7 * DAY
        return ending(game_id, version)

    store.end_game = a_move_first  # type: ignore[method-assign]
    writer(store, sqlite_engine, clock).handle("g1")
    assert store.load("g1").version == moved.version  # played on
    records = RecordRepository(sqlite_engine)
    assert records.get("g1") is None and records.hidden("", 10) == ["g1"]
    assert store.backend.outbox["g1"] == clock.now  # looked at again at once ...
    store.end_game = ending  # type: ignore[method-assign]
    writer(store, sqlite_engine, clock).handle("g1")
    assert store.backend.outbox["g1"] == clock.now + 7 * DAY - SCHEDULE.margin  # ... as the game in play it is
    assert records.get("g1") is None


def test_a_database_down_keeps_the_entry_and_holds_an_expiring_game(sqlite_engine, clock):
    store = MemoryStore(GameRecord.from_stored)
    put(store, stored_game("over"))
    put(store, stored_game("abandoned", over=False))
    store.backend.ttls["abandoned"] = 60.0
    for game_id in ("over", "abandoned"):
        store.schedule_record(game_id, clock.now)
    down = writer(store, sqlite_engine, clock, FailingRepository(sqlite_engine))
    assert down.drain() == 2
    assert store.backend.outbox == {"over": clock.now + 10, "abandoned": clock.now + 10}  # claimed: the retry
    assert store.backend.written == {} and store.backend.kept == {"abandoned": SCHEDULE.margin}
    clock.now += 10
    assert writer(store, sqlite_engine, clock).drain() == 2  # back: both written
    assert store.backend.written == {"over": stored_game("over").version}
    assert RecordRepository(sqlite_engine).hidden("", 10) == ["abandoned"]  # written; shown once it has ended
    assert store.backend.outbox["abandoned"] == clock.now + SCHEDULE.margin


def test_a_database_down_or_a_crash_before_the_record_is_shown_leaves_the_entry_until_it_is(sqlite_engine, clock):
    """The game ended (by the writer, or by its expiry) with its record still hidden: a database down at that
    step, or a writer that died, leaves the entry, and the next look shows the record."""
    store = MemoryStore(GameRecord.from_stored)
    RecordRepository(sqlite_engine).save(build(stored_game("g1", over=False)), 1, 2)  # hidden; the game gone
    store.schedule_record("g1", clock.now)
    assert writer(store, sqlite_engine, clock, FailingRepository(sqlite_engine)).drain() == 1
    assert store.backend.outbox == {"g1": clock.now + 10}  # claimed: tried again at the retry
    assert RecordRepository(sqlite_engine).get("g1") is None
    clock.now += 10
    assert writer(store, sqlite_engine, clock).drain() == 1
    assert RecordRepository(sqlite_engine).get("g1")[0] == "abandoned" and store.backend.outbox == {}


def test_a_finished_game_replaces_the_hidden_record_of_its_abandonment_and_is_shown(sqlite_engine, clock):
    records = RecordRepository(sqlite_engine)
    abandoned = stored_game("g1", over=False)
    records.save(build(abandoned), 1, 2)
    store = MemoryStore(GameRecord.from_stored)
    over = stored_game("g1")
    over.version = abandoned.version + 1
    put(store, over)
    store.schedule_record("g1", clock.now)
    writer(store, sqlite_engine, clock).drain()
    assert records.get("g1")[0] == "finished" and records.hidden("", 10) == []


def test_the_sweep_shows_hidden_records_whose_game_is_gone_a_batch_at_a_time(sqlite_engine, clock, monkeypatch):
    monkeypatch.setattr(writer_module, "SWEEP_BATCH", 2)
    records = RecordRepository(sqlite_engine)
    store = MemoryStore(GameRecord.from_stored)
    for game_id in ("a", "b", "c", "live"):
        records.save(build(stored_game(game_id, over=False)), 1, 2)
    put(store, stored_game("live", over=False))  # no outbox entry for any of them (lost with a failover)
    sweeping = writer(store, sqlite_engine, clock)
    assert sweeping.sweep() == 2  # a and b
    assert sweeping.sweep() == 1  # c; live is still in play
    assert records.hidden("", 10) == ["live"]
    assert sweeping.sweep() == 0  # the sweep is over: the next one in an hour
    store.end_game("live", store.load("live").version)
    clock.now += writer_module.SWEEP_EVERY_SECONDS
    assert sweeping.sweep() == 1 and records.hidden("", 10) == []


def test_a_game_that_is_gone_leaves_the_outbox(sqlite_engine, clock):
    store = MemoryStore(GameRecord.from_stored)
    store.schedule_record("never", clock.now)
    writer(store, sqlite_engine, clock).drain()
    assert store.backend.outbox == {}


def test_entries_not_yet_due_wait(sqlite_engine, clock):
    store = MemoryStore(GameRecord.from_stored)
    put(store, stored_game("g1"))
    store.schedule_record("g1", clock.now + 5)
    assert writer(store, sqlite_engine, clock).drain() == 0
    assert RecordRepository(sqlite_engine).get("g1") is None


def test_a_game_that_never_started_is_not_recorded(sqlite_engine, clock):
    store = MemoryStore(GameRecord.from_stored)
    waiting = stored_game("g1", over=False, moves=0)
    waiting.started = False  # a seat stayed open
    put(store, waiting)
    store.backend.ttls["g1"] = 60.0
    writer(store, sqlite_engine, clock).handle("g1")
    assert RecordRepository(sqlite_engine).get("g1") is None
    assert store.backend.outbox["g1"] == clock.now + 61


def test_retention_deletes_old_records_once_an_hour(sqlite_engine, clock):
    repository = RecordRepository(sqlite_engine)
    old, new = stored_game("old"), stored_game("new")
    repository.save(build(old), 1, int((clock.now - 3 * DAY) * 1000))
    repository.save(build(new), 1, int(clock.now * 1000))
    keeping = RecordWriter(MemoryStore(GameRecord.from_stored), repository, SCHEDULE, retention_days=2, clock=clock)
    keeping._purge()
    assert repository.get("old") is None and repository.get("new") is not None
    repository.save(build(old), 1, int((clock.now - 3 * DAY) * 1000))
    clock.now += 60
    keeping._purge()  # within the hour: not yet
    assert repository.get("old") is not None


def test_a_finished_game_is_applied_to_its_players_after_its_record_and_before_its_entry_goes(sqlite_engine, clock):
    store = MemoryStore(GameRecord.from_stored)
    put(store, stored_game("g1"))
    store.schedule_record("g1", clock.now)
    applied: list[tuple[str, int, bool]] = []

    def ratings(document, ended_ms) -> None:
        assert (
            RecordRepository(sqlite_engine).get("g1") is not None and store.backend.outbox
        )  # record in, entry not out
        applied.append((document["game_id"], ended_ms, document["rated"]))

    found = writer(store, sqlite_engine, clock)
    found.ratings = ratings
    found.drain()
    assert applied == [("g1", 1_796_000_600_000, False)] and store.backend.outbox == {}


def test_ratings_the_database_refused_keep_the_entry_until_they_are_applied(sqlite_engine, clock):
    store = MemoryStore(GameRecord.from_stored)
    put(store, stored_game("g1"))
    store.schedule_record("g1", clock.now)
    calls: list[str] = []

    def ratings(document, ended_ms) -> None:
        calls.append(document["game_id"])
        if len(calls) == 1:
            raise OperationalError("INSERT", {}, Exception("connection refused"))

    found = writer(store, sqlite_engine, clock)
    found.ratings = ratings
    found.drain()
    assert store.backend.outbox == {"g1": clock.now + 10} and store.backend.written == {}
    clock.now += 11
    found.drain()
    assert calls == ["g1", "g1"] and store.backend.outbox == {}
