"""The lobby stream's body on the in-memory store: frames for the listing's changes, resuming, the 410 point
and its end (no HTTP: tests/api/lobby/test_lobby_live.py reads it from a real server)."""

from __future__ import annotations

import threading

import orjson

from services.api.games import commands
from services.api.live.stream import StreamSettings
from services.api.live.wakeups import Wakeups
from services.api.lobby.feed import lobby_frames, resumable
from services.api.store.memory_store import MemoryBackend, MemorySubscription

from ..helpers import wait_until
from .helpers import Clock, create, process

OPEN2 = [{"type": "human"}, {"type": "open"}, {"type": "open"}, {"type": "ai"}]
SETTINGS = StreamSettings(heartbeat_seconds=10.0, max_seconds=60.0, page_size=100)


def frames_of(chunk: bytes) -> list[tuple[str, str, dict]]:
    out = []
    for message in chunk.decode().strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in message.split("\n"))
        out.append((lines["id"], lines["event"], orjson.loads(lines["data"])))
    return out


def test_the_stream_sends_each_change_as_it_lands_and_resumes_after_its_id():
    backend = MemoryBackend()
    ctx = process(backend, Clock())
    wakeups = Wakeups(lambda: MemorySubscription(backend), poll_seconds=0.05)
    created = create(ctx, OPEN2, options={"public": True})
    stream = lobby_frames(ctx.store, wakeups, 0, SETTINGS)
    assert next(stream) == b"retry: 2000\n\n"
    ((seq, kind, change),) = frames_of(next(stream))
    assert (seq, kind, change["game_id"], change["table"]["free_seats"]) == (
        "1",
        "table_opened",
        created["game_id"],
        [1, 2],
    )
    later: list[bytes] = []
    reader = threading.Thread(target=lambda: later.append(next(stream)), daemon=True)
    reader.start()  # parked on the wake-ups until the claim's change lands
    commands.claim_seat(ctx, created["game_id"], 1)
    reader.join(10)
    ((seq, kind, change),) = frames_of(later[0])
    assert (seq, kind, change["table"]["free_seats"]) == ("2", "table_changed", [2])
    stream.close()
    commands.claim_seat(ctx, created["game_id"], 2)
    resumed = lobby_frames(ctx.store, wakeups, 2, SETTINGS)
    next(resumed)
    assert [(s, k, c["table"]) for s, k, c in frames_of(next(resumed))] == [("3", "table_closed", None)]
    resumed.close()
    wakeups.stop()


def test_a_resume_point_older_than_the_kept_log_is_told_apart():
    backend = MemoryBackend()
    backend.tables.log_size = 2
    ctx = process(backend, Clock())
    created = create(ctx, OPEN2, options={"public": True})
    for seat in (1, 2):
        commands.claim_seat(ctx, created["game_id"], seat)
    assert resumable(ctx.store, 0) == 2, "seq 1 is gone: the oldest kept is 2"
    assert resumable(ctx.store, 1) is None and resumable(ctx.store, 3) is None


def test_the_stream_ends_with_its_lifetime_and_on_a_drain():
    backend = MemoryBackend()
    ctx = process(backend, Clock())
    wakeups = Wakeups(lambda: MemorySubscription(backend), poll_seconds=0.05)
    now = [0.0]
    short = StreamSettings(heartbeat_seconds=0.01, max_seconds=1.0, page_size=100)
    stream = lobby_frames(ctx.store, wakeups, 0, short, clock=lambda: now[0])
    assert next(stream).startswith(b"retry:")
    assert next(stream) == b": keep-alive\n\n"
    now[0] = 1.0
    assert list(stream) == []
    wakeups.drain()
    assert list(lobby_frames(ctx.store, wakeups, 0, SETTINGS)) == [b"retry: 2000\n\n"]
    wakeups.stop()


def test_a_published_change_reaches_the_stream_without_a_read_of_the_log():
    backend = MemoryBackend()
    ctx = process(backend, Clock())
    wakeups = Wakeups(lambda: MemorySubscription(backend), poll_seconds=0.05)
    created = create(ctx, OPEN2, options={"public": True})
    reads = []

    class Counting:
        def table_changes_after(self, after: int, limit: int) -> list[dict]:
            reads.append(after)
            return ctx.store.table_changes_after(after, limit)

    stream = lobby_frames(Counting(), wakeups, 0, SETTINGS)  # type: ignore[arg-type]
    next(stream)
    next(stream)  # the first read: the creation's change
    later: list[bytes] = []
    reader = threading.Thread(target=lambda: later.append(next(stream)), daemon=True)
    reader.start()
    wait_until(lambda: reads == [0, 1], "the stream never waited after its first change")
    commands.claim_seat(ctx, created["game_id"], 1)
    reader.join(10)
    assert [kind for _, kind, _ in frames_of(later[0])] == ["table_changed"]
    assert reads == [0, 1], "the change came with its publication"
    stream.close()
    wakeups.stop()
