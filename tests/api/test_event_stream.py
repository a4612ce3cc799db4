"""An event's push stream through gunicorn and ``spades_client``: the body at once, again at each change (pairs
joining, the event starting — here, with too few pairs, finishing at its start time, the read that finds it past
its start being the stream's own), and the end after the finished event's body; a reconnect with the last tag is
``204``, and the stream of an unknown event a ``404`` before any byte."""

from __future__ import annotations

import threading
import time

import pytest
import requests

from spades_client import SpadesClient
from spades_client.errors import NotFound

from .test_duplicate_event import Bot

pytestmark = pytest.mark.integration


def test_a_stream_pushes_each_change_of_the_event_and_ends_with_its_finish(api_server):
    bots = [Bot(api_server, i) for i in range(4)]
    start_at = int(time.time() * 1000) + 8000  # the first read after it starts the event: the stream's
    event = bots[0].events.create_event("Streamed", max_pairs=4, deals_per_round=1, rounds=1, start_at_ms=start_at)
    seen: list = []
    first = threading.Event()

    def follow() -> None:
        for body in SpadesClient(api_server).stream_event(event.event_id):
            seen.append(body)
            first.set()

    follower = threading.Thread(target=follow, daemon=True)
    follower.start()
    assert first.wait(30), "the body comes at once"
    pair = bots[0].events.join_event(event.event_id, bots[1].id)
    bots[1].events.accept_pair(event.event_id, pair.pair_id)
    follower.join(60)
    assert not follower.is_alive(), "the stream ends after the finished event's body"

    statuses = [(b.status, b.pairs_count, b.version) for b in seen]
    assert statuses[0] == ("open", 0, 1) and statuses[-1][0] == "finished", statuses
    assert [v for _, _, v in statuses] == sorted({v for _, _, v in statuses}), "each body once, in order"
    assert ("open", 1, 3) in statuses, "the pair, complete, pushed before the start"
    assert seen[-1].finished_ms >= start_at and seen[-1].pairs_count == 1, "one pair at its start: nobody played"

    url = f"{api_server}/v1/events/{event.event_id}/stream"
    tag = requests.get(url, stream=True, timeout=30)
    last_id = next(line for line in tag.iter_lines(decode_unicode=True) if line.startswith("id: "))[4:]
    tag.close()
    again = requests.get(url, headers={"Last-Event-ID": last_id}, timeout=30)
    assert again.status_code == 204, "finished, and its last body already read: do not reconnect"
    for bad in ("", "12345", last_id.upper(), last_id + "0"):
        refused = requests.get(url, headers={"Last-Event-ID": bad}, timeout=30)
        assert refused.status_code == 400 and refused.json()["code"] == "invalid_request", bad
    with pytest.raises(NotFound):
        next(iter(SpadesClient(api_server).stream_event("no-such-event")))
