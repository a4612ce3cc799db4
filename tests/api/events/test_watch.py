"""The events' shared watch and their stream's frames, with a fake clock: one build an interval whatever the
number of streams asking, a new tag exactly when the body changes, events nobody asks for forgotten; a stream
sends the body at once, again only on a change, a keep-alive in between, and ends after a finished event's."""

from __future__ import annotations

from services.api.events.stream import EventStreamSettings, event_frame, event_frames
from services.api.events.watch import EventWatch


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def test_a_followed_event_is_built_once_an_interval_and_its_tag_follows_its_body():
    clock, builds = Clock(), []
    bodies = {"e1": b'{"v":1}'}

    def build(event_id: str) -> tuple[bytes, bool]:
        builds.append(event_id)
        return bodies[event_id], False

    watch = EventWatch(build, interval=2.0, keep=60.0, clock=clock)
    first = watch.current("e1")
    assert [watch.current("e1") for _ in range(5)] == [first] * 5 and builds == ["e1"], "shared within the interval"
    clock.advance(2.0)
    assert watch.current("e1") == first and len(builds) == 2, "built again, the same body: the same tag"
    bodies["e1"] = b'{"v":2}'
    clock.advance(2.0)
    tag, body, finished = watch.current("e1")
    assert tag != first[0] and body == b'{"v":2}' and not finished
    bodies["e1"] = b'{"v":3}'
    assert watch.current("e1")[1] == b'{"v":2}', "within the interval: the shared body"
    assert watch.current("e1", fresh=True)[1] == b'{"v":3}', "a stream that opens gets the body as of now"
    assert watch.current("e1")[1] == b'{"v":3}', "and the streams after it share that one"
    clock.advance(61.0)
    bodies["e2"] = b"{}"
    watch.current("e2")
    assert watch.watched() == 1, "an event nobody asked for in a minute is forgotten"


def test_a_stream_sends_the_body_then_each_change_with_keep_alives_between_and_ends_when_finished():
    clock = Clock()
    states = iter([(b"a", False)] * 3 + [(b"b", False)] * 10 + [(b"c", True)])
    watch = EventWatch(lambda event_id: next(states), interval=1.0, clock=clock)
    settings = EventStreamSettings(interval=1.0, heartbeat=2.5, max_seconds=300.0)
    frames = list(event_frames(watch, "e1", None, settings, lambda: False, clock=clock, pause=clock.advance))
    tags = [watch_tag(body) for body in (b"a", b"b", b"c")]
    assert frames[0] == b"retry: 3000\n\n"
    assert [f for f in frames if f.startswith(b"id:")] == [
        event_frame(tag, body) for tag, body in zip(tags, (b"a", b"b", b"c"), strict=True)
    ]
    assert frames[-1] == event_frame(tags[2], b"c"), "the finished event's body is the last frame"
    assert frames.count(b": keep-alive\n\n") == 3, "b for 10 s: a keep-alive each 2.5 s without a frame, on the pace"


def test_a_reconnect_with_the_last_tag_gets_only_what_changed_and_the_stream_ends_at_its_age_or_a_drain():
    clock = Clock()
    watch = EventWatch(lambda event_id: (b"same", False), interval=1.0, clock=clock)
    settings = EventStreamSettings(interval=1.0, heartbeat=100.0, max_seconds=5.0)
    tag = watch_tag(b"same")
    aged = list(event_frames(watch, "e1", tag, settings, lambda: False, clock=clock, pause=clock.advance))
    assert aged == [b"retry: 3000\n\n"], "nothing new: no body again, and the stream closes at its age"
    draining = list(event_frames(watch, "e1", None, settings, lambda: True, clock=clock, pause=clock.advance))
    assert draining == [b"retry: 3000\n\n", event_frame(tag, b"same")], "a stopping process ends it"


def watch_tag(body: bytes) -> str:
    return EventWatch(lambda event_id: (body, False), interval=1.0).current("x")[0]
