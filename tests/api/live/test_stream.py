"""The push stream (GET /v1/games/{id}/stream, Server-Sent Events) over real gunicorn: the same events
as /events, resumable, private data only to its seat, heartbeats, a clean end, and no leaked reader."""

from __future__ import annotations

import signal
import threading
import time

import psutil
import pytest
import requests

from ..contract import ContractSession, check_response
from ..helpers import auth, create_game, hands_visible_in, planned_game, play_planned, waiting
from ..sse import events_until, messages, open_stream

pytestmark = pytest.mark.integration
SHORT = {"preset": "partnership", "win_score": 60, "lose_score": -60}


def _bid_round(session: ContractSession, game_id: str, tokens: list[str], bids: int) -> None:
    """``bids`` bids of 2, each by the seat to move."""
    for _ in range(bids):
        seat = session.get(f"/v1/games/{game_id}").json()["turn"]
        assert session.post(f"/v1/games/{game_id}/bids", json={"bid": 2}, headers=auth(tokens[seat])).ok


def _all_events(session: ContractSession, game_id: str, token: str | None, after: int = 0) -> list[dict]:
    headers = auth(token) if token else {}
    return session.get(f"/v1/games/{game_id}/events", params={"after": after}, headers=headers).json()["events"]


def test_the_stream_carries_what_events_returns_and_resumes_without_gaps_or_repeats(api_server):
    session = ContractSession(api_server)
    created = create_game(session, seats=[{"type": "human"}] * 4, seed=41)
    game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    _bid_round(session, game_id, tokens, 2)
    expected = _all_events(session, game_id, tokens[0])
    assert len(expected) >= 4

    with open_stream(api_server, game_id, tokens[0]) as first:
        assert first.status_code == 200
        assert first.headers["Content-Type"].startswith("text/event-stream")
        assert first.headers["Cache-Control"] == "no-store" and first.headers["X-Accel-Buffering"] == "no"
        assert next(messages(first)).retry == 2000
        head = events_until(first, expected[1]["seq"])  # a client that drops after two events
    assert head == expected[:2]

    with open_stream(api_server, game_id, tokens[0], last_event_id=head[-1]["seq"]) as resumed:
        rest = events_until(resumed, expected[-1]["seq"])
        assert head + rest == expected  # nothing missed, nothing repeated
        _bid_round(session, game_id, tokens, 1)  # an event that happens while the stream is open
        live = _all_events(session, game_id, tokens[0], after=expected[-1]["seq"])
        assert events_until(resumed, live[-1]["seq"]) == live

    # ?after= (for clients that cannot set headers) starts at the same place; the header wins over it
    with open_stream(api_server, game_id, tokens[0], after=head[-1]["seq"]) as by_query:
        assert events_until(by_query, expected[-1]["seq"]) == rest
    with open_stream(api_server, game_id, tokens[0], last_event_id=expected[2]["seq"], after=0) as both:
        assert events_until(both, expected[3]["seq"]) == [expected[3]]


def test_a_seat_sees_only_its_own_hand_and_a_spectator_none(api_server):
    session = ContractSession(api_server)
    created = create_game(session, seats=[{"type": "human"}] * 4, seed=42)
    game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    last = _all_events(session, game_id, None)[-1]["seq"]
    for seat, token in enumerate(tokens):
        own = set(session.get(f"/v1/games/{game_id}", headers=auth(token)).json()["hand"])
        with open_stream(api_server, game_id, token) as response:
            seen = events_until(response, last)
        assert seen == _all_events(session, game_id, token)
        dealt = [e for e in seen if e["type"] == "round_started"]
        assert dealt and set(dealt[0]["data"]["hand"]) == own
        assert hands_visible_in(seen) == own, f"seat {seat} saw another seat's cards"
    with open_stream(api_server, game_id) as spectator:
        seen = events_until(spectator, last)
    assert seen == _all_events(session, game_id, None)
    assert hands_visible_in(seen) == set() and all("hand" not in e["data"] for e in seen)


def test_errors_come_before_the_stream_as_problems(api_server):
    session = ContractSession(api_server)
    game_id = create_game(session, seats=[{"type": "human"}] * 4, seed=43)["game_id"]
    cases = [
        ("/v1/games/nope/stream", {}, 404),
        (f"/v1/games/{game_id}/stream", {"Authorization": "Bearer not-a-seat"}, 401),
        (f"/v1/games/{game_id}/stream", {"Authorization": "Basic abc"}, 401),
        (f"/v1/games/{game_id}/stream", {"Last-Event-ID": "x1"}, 400),
        (f"/v1/games/{game_id}/stream?after=-1", {}, 400),
        (f"/v1/games/{game_id}/stream?after=9007199254740993", {}, 400),
        (f"/v1/games/{game_id}/stream?wait=3", {}, 400),
    ]
    for path, headers, status in cases:
        response = session.get(path, headers=headers)
        assert response.status_code == status, (path, headers, response.text)
        assert response.headers["Content-Type"] == "application/problem+json"


def test_heartbeats_arrive_while_nothing_happens(gunicorn_factory):
    base = gunicorn_factory({"STREAM_HEARTBEAT_SECONDS": "0.2"}, workers=1, threads=2)
    session = ContractSession(base)
    game_id = create_game(session, seats=[{"type": "human"}] * 4, seed=44)["game_id"]
    last = _all_events(session, game_id, None)[-1]["seq"]
    with open_stream(base, game_id, last_event_id=last, timeout=30) as response:
        stream = messages(response)
        beats = 0
        for message in stream:  # bounded by the read timeout: a silent stream fails the test
            assert not message.logged, "nothing happened, so nothing but heartbeats (and who is at the table)"
            beats += "keep-alive" in message.comments
            if beats == 3:
                break
    assert beats == 3


def test_the_stream_ends_after_game_over(api_server, ai_worker):
    session = ContractSession(api_server)
    created = create_game(session, rules=SHORT, seats=[{"type": "ai", "level": "easy"}] * 4, seed=45)
    game_id = created["game_id"]
    with open_stream(api_server, game_id, timeout=120) as response:
        seen = [m.json() for m in messages(response) if m.logged]  # ends when the server closes
    assert seen[-1]["type"] == "game_over"
    assert [e["type"] for e in seen].count("game_over") == 1
    assert seen == _all_events(session, game_id, None)
    # a client reconnecting after the end is told not to come back (204), not held open
    after_end = requests.get(
        f"{api_server}/v1/games/{game_id}/stream", headers={"Last-Event-ID": str(seen[-1]["seq"])}, timeout=30
    )
    check_response(after_end)
    assert after_end.status_code == 204 and after_end.content == b""


def test_the_stream_closes_at_its_maximum_lifetime(gunicorn_factory):
    base = gunicorn_factory({"STREAM_MAX_SECONDS": "1", "STREAM_HEARTBEAT_SECONDS": "0.3"}, workers=1, threads=2)
    session = ContractSession(base)
    game_id = create_game(session, seats=[{"type": "human"}] * 4, seed=46)["game_id"]
    expected = _all_events(session, game_id, None)
    with open_stream(base, game_id, timeout=30) as response:
        seen = [m.json() for m in messages(response) if m.logged]  # ends when the server closes
    assert seen == expected


def _worker(base: str) -> psutil.Process:
    """The one worker process of a gunicorn started with workers=1 (the child of whoever listens)."""
    port = int(base.rsplit(":", 1)[1])
    for proc in psutil.process_iter():
        try:
            listening = any(
                c.laddr.port == port and c.status == psutil.CONN_LISTEN for c in proc.net_connections("tcp")
            )
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
        if listening and proc.children():
            (worker,) = proc.children()
            return worker
    raise AssertionError(f"no gunicorn master listening on {port}")


def _open_streams(worker: psutil.Process, port: int) -> int:
    """Client connections the worker still holds (an unnoticed dropped stream keeps its socket)."""
    return sum(1 for c in worker.net_connections("tcp") if c.laddr.port == port and c.status != psutil.CONN_LISTEN)


def _eventually(condition, seconds: float = 30.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)  # polling a condition, not waiting out a guess
    return condition()


@pytest.mark.parametrize("worker_class", ["gevent", "gthread"])
def test_a_dropped_stream_is_cleaned_up(gunicorn_factory, worker_class):
    """Streams dropped by their clients end within a heartbeat or two: socket closed, listener and
    subscription gone from the hub (its gauges back to 0), no thread kept; more streams than a gthread
    worker has threads are then served, and none of them holds a Redis connection of its own."""
    threads = 2  # streams per round; gthread gets one more thread, for the /metrics scrapes
    env = {"STREAM_HEARTBEAT_SECONDS": "0.2", "API_WORKER_CLASS": worker_class}
    base = gunicorn_factory(env, workers=1, threads=threads + 1)
    port = int(base.rsplit(":", 1)[1])
    session = ContractSession(base)
    game_id = create_game(session, seats=[{"type": "human"}] * 4, seed=47)["game_id"]
    last = _all_events(session, game_id, None)[-1]["seq"]
    worker = _worker(base)
    _eventually(lambda: _open_streams(worker, port) == 0)
    threads_before = worker.num_threads()

    for _round in range(3):  # 3 × threads streams: a leaked one would soon starve a gthread pool
        opened = [open_stream(base, game_id, last_event_id=last, timeout=30) for _ in range(threads)]
        for response in opened:
            assert next(messages(response)).retry  # being served: the retry line came
        assert _eventually(lambda: waiting(base) == {"listeners": threads, "subscriptions": 1})  # one game
        assert _eventually(lambda: _open_streams(worker, port) == threads)  # a /metrics scrape's socket may linger
        for response in opened:
            response.close()  # the client goes away without a word
        assert _eventually(lambda: _open_streams(worker, port) == 0), "a dropped stream kept its socket"
        assert _eventually(lambda: waiting(base) == {"listeners": 0, "subscriptions": 0}), "a listener leaked"
    # one reader thread for the hub at most; gthread's pool is reused, never one more per stream
    assert worker.num_threads() <= threads_before + threads + 2
    assert session.get(f"/v1/games/{game_id}").status_code == 200


def test_a_stream_from_before_the_kept_log_is_410_before_the_first_byte_and_the_view_s_last_seq_resumes(
    api_server,
):
    session = ContractSession(api_server)
    created, plan = planned_game(session, seed=62)
    game_id, token = created["game_id"], created["seats"][0]["token"]
    play_planned(session, plan, lambda view: view["round"] == 3)
    for behind in ({"last_event_id": 1}, {"after": 0}):
        with open_stream(api_server, game_id, token, **behind) as response:
            check_response(response)
            assert response.status_code == 410
            assert response.headers["Content-Type"].startswith("application/problem+json")
            problem = response.json()
        assert problem["code"] == "too_far_behind" and problem["first_seq"] > 1
    view = session.get(f"/v1/games/{game_id}", headers=auth(token)).json()
    play_planned(session, plan, lambda v: len(v["tricks"]) == 1)
    expected = _all_events(session, game_id, token, after=view["last_seq"])
    with open_stream(api_server, game_id, token, after=view["last_seq"]) as resumed:
        assert resumed.status_code == 200
        assert events_until(resumed, expected[-1]["seq"]) == expected  # nothing missed since the view


@pytest.mark.parametrize("worker_class", ["gevent", "gthread"])
def test_a_stopping_worker_ends_its_streams_and_answers_its_long_polls_at_once(gunicorn_factory, worker_class):
    """SIGTERM (a rolling deploy's pod stop) drains the worker's hub: an open stream ends cleanly (its
    last chunk sent, so the client reconnects with Last-Event-ID) and a 30 s long poll is answered
    200 with no events, where without the drain both would be held to gunicorn's graceful timeout
    (10 s, shorter than the poll) and then cut."""
    env = {"STREAM_HEARTBEAT_SECONDS": "30", "API_WORKER_CLASS": worker_class}
    base = gunicorn_factory(env, workers=1, threads=4)
    session = ContractSession(base)
    game_id = create_game(session, seats=[{"type": "human"}] * 4, seed=48)["game_id"]
    last = _all_events(session, game_id, None)[-1]["seq"]
    worker = _worker(base)
    polled: dict[str, requests.Response] = {}
    poll = threading.Thread(
        target=lambda: polled.update(
            response=requests.get(f"{base}/v1/games/{game_id}/events", params={"after": last, "wait": 30}, timeout=60)
        )
    )
    with open_stream(base, game_id, last_event_id=last, timeout=60) as response:
        stream = messages(response)
        assert next(stream).retry  # being served
        poll.start()
        assert _eventually(lambda: waiting(base) == {"listeners": 2, "subscriptions": 1})
        worker.send_signal(signal.SIGTERM)
        rest = list(stream)  # a cut stream raises here (an unfinished chunked body)
    poll.join(timeout=60)
    assert [m for m in rest if m.logged] == []
    assert polled["response"].status_code == 200
    assert polled["response"].json()["events"] == []
