"""The SSE generator and the resume point on the in-memory store (no Redis, no HTTP)."""

from __future__ import annotations

from itertools import pairwise

import pytest

from services.api.games.audience import Audience
from services.api.games.record import GameRecord
from services.api.live.fanout import FanoutHub
from services.api.live.stream import KEEP_ALIVE, StreamSettings, resume_point, sse_frames
from services.api.problems import ApiError
from services.api.store.memory_store import MemoryStore


def _hub_with(events: list[dict]) -> FanoutHub:
    store = MemoryStore(GameRecord.from_stored)
    record = GameRecord("g", 1, [], "{}")
    assert store.commit(record, None, events)
    return FanoutHub(store, store.subscription)


def _event(seq: int, kind: str = "bid", private: dict | None = None) -> dict:
    entry = {"seq": seq, "type": kind, "version": seq, "data": {"seat": 0}}
    if private:
        entry["private"] = private
    return entry


class Clock:
    """A clock that moves one second per reading: the stream's lifetime runs out without waiting."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def test_the_header_wins_and_bad_values_are_400():
    assert resume_point(None, None) == 0
    assert resume_point("7", "3") == 7 and resume_point(None, "3") == 3
    for header, after in (
        ("x", None),
        ("-1", None),
        ("12345678901234567", None),
        (None, "9007199254740993"),
        (None, ""),
        ("0", "9007199254740993"),  # a bad `after` is refused even when the header wins
    ):
        with pytest.raises(ApiError) as error:
            resume_point(header, after)
        assert error.value.status == 400


def test_frames_carry_the_seats_view_and_end_after_game_over():
    hand = {"0": {"hand": ["AS"]}, "1": {"hand": ["KD"]}}
    hub = _hub_with([_event(1), _event(2, "round_started", hand), _event(3, "game_over"), _event(4)])
    settings = StreamSettings(heartbeat_seconds=0.0, max_seconds=100.0, page_size=500)
    body = b"".join(sse_frames(hub, "g", Audience(1, "h", 0, lambda: "h"), 0, settings))
    assert body.startswith(b"retry: 2000\n\n")
    assert b'"hand":["KD"]' in body and b"AS" not in body and b"private" not in body
    assert b"id: 3\nevent: game_over\n" in body and b"id: 4" not in body  # ended at game_over
    spectator = b"".join(sse_frames(hub, "g", Audience(None), 1, settings))
    assert b"hand" not in spectator and b"id: 1\n" not in spectator


def test_a_quiet_stream_sends_heartbeats_until_its_lifetime_ends():
    hub = _hub_with([_event(1)])
    settings = StreamSettings(heartbeat_seconds=0.0, max_seconds=4.0, page_size=500)
    frames = list(sse_frames(hub, "g", Audience(None), 1, settings, clock=Clock()))
    assert frames[0].startswith(b"retry:") and frames[1:] and set(frames[1:]) == {KEEP_ALIVE}


def test_a_stream_whose_cursor_fell_behind_the_kept_log_ends_so_its_reconnect_gets_the_410():
    hub = _hub_with([_event(seq) for seq in (7, 8)])  # 1 to 6 trimmed away
    settings = StreamSettings(heartbeat_seconds=0.0, max_seconds=50.0, page_size=10)
    assert list(sse_frames(hub, "g", Audience(None), 2, settings, Clock())) == [b"retry: 2000\n\n"]


def test_an_open_stream_touches_its_game_every_touch_seconds():
    """The stream of a computer-only game counts as a read while it is open (its route passes ``touch``)."""
    hub = _hub_with([_event(1)])
    touched: list[float] = []
    clock = Clock()  # one second per reading: one reading per loop, so a touch every third loop
    settings = StreamSettings(heartbeat_seconds=0.0, max_seconds=12.0, page_size=500, touch_seconds=3.0)
    frames = list(
        sse_frames(hub, "g", Audience(None), 1, settings, clock=clock, touch=lambda: touched.append(clock.now))
    )
    assert set(frames[1:]) == {KEEP_ALIVE}
    assert len(touched) >= 2 and all(b - a >= 3.0 for a, b in pairwise(touched))
    untouched = StreamSettings(heartbeat_seconds=0.0, max_seconds=12.0, page_size=500)
    list(sse_frames(hub, "g", Audience(None), 1, untouched, clock=Clock(), touch=lambda: touched.append(-1.0)))
    assert -1.0 not in touched, "no touch_seconds: never touched"


def test_a_stream_starts_touching_once_a_player_has_left():
    """A game a person leaves may be left to computers alone: from then on its open stream watches it."""
    hub = _hub_with([_event(1), _event(2, "seat_left")])
    touched: list[float] = []
    clock = Clock()
    settings = StreamSettings(heartbeat_seconds=0.0, max_seconds=12.0, page_size=500, touch_seconds=3.0)
    list(
        sse_frames(hub, "g", Audience(None), 1, settings, clock=clock, touch=lambda: touched.append(0), touching=False)
    )
    assert touched, "after the seat_left event the stream touches its game"
    list(
        sse_frames(
            hub, "g", Audience(None), 2, settings, clock=Clock(), touch=lambda: touched.append(1), touching=False
        )
    )
    assert 1 not in touched, "a stream past that event, of a game with a person, does not"
