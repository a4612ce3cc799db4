"""Turns lost to the clock, observed (testkit/chaos_clocks.py) and judged (testkit/chaos_invariants.py) on made-up
answers: no server.  A move counts when its client sent it before the deadline its last view showed, by the
server's clock as that view told it, was answered 409/412, and the game's log holds the seat's
``turn_timed_out`` at that deadline."""

from __future__ import annotations

import time

import orjson
import requests

from testkit.chaos_clocks import ClockWatch, MoveClocks
from testkit.chaos_invariants import ClockedMove, turns_lost_to_the_clock

TOKEN = {"Authorization": "Bearer t1"}
GAME = "http://api/v1/games/g1"


def view_answer(version: int, deadline_ms: int | None, server_ms: int, seat: int = 2) -> requests.Response:
    """A seat's view as ``GET /v1/games/g1`` answers it."""
    response = requests.Response()
    response.status_code = 200
    clock = None if deadline_ms is None else {"seat": seat, "deadline_ms": deadline_ms}
    response._content = orjson.dumps({"version": version, "you": seat, "clock": clock, "server_time_ms": server_ms})
    response.request = requests.Request("GET", GAME, headers=TOKEN).prepare()
    return response


def send_move(clocks: MoveClocks, version: int, status: int | None) -> tuple[str, int, int] | None:
    key = clocks.before("POST", f"{GAME}/plays", {**TOKEN, "If-Match": f'"{version}"'})
    clocks.after(key, status)
    return key


def test_a_move_sent_before_the_deadline_by_the_servers_clock_is_in_time_and_its_first_send_counts():
    clocks = MoveClocks()
    server_now = 1_800_000_000_000
    clocks.answered(view_answer(7, server_now + 20_000, server_now))
    key = send_move(clocks, 7, None)  # no answer: a server stopping
    assert key == ("g1", 2, 7)
    first = clocks.moves[key].sent_ms
    assert server_now <= first < server_now + 5_000, "the server's time as the view told it, plus the time since"
    time.sleep(0.01)
    send_move(clocks, 7, 412)  # the same move again, later: still sent when it was first sent
    move = clocks.moves[key]
    assert (move.sent_ms, move.status, move.in_time) == (first, 412, True)
    assert clocks.sent_in_time_and_refused() == [move]


def test_a_move_for_another_version_or_without_a_clock_is_not_timed():
    clocks = MoveClocks()
    clocks.answered(view_answer(7, None, 1_000))
    assert send_move(clocks, 7, 409) == ("g1", 2, 7)
    assert not clocks.moves[("g1", 2, 7)].in_time, "no deadline: nothing to be late for"
    assert send_move(clocks, 8, 200) is None, "a version the token's last view did not show"
    assert clocks.before("GET", GAME, TOKEN) is None


def test_the_watch_asks_the_log_whether_the_clock_played_the_turn():
    clocks = MoveClocks()
    now = 1_800_000_000_000
    clocks.answered(view_answer(7, now + 30_000, now))
    send_move(clocks, 7, 412)
    played = {"type": "turn_timed_out", "version": 8, "data": {"seat": 2, "deadline_ms": now + 30_000}}
    logs = {"g1": [{"type": "round_started", "version": 3, "data": {}}, played]}
    ClockWatch(clocks, logs.__getitem__).settle()
    (move,) = clocks.moves.values()
    assert move.timed_out is True
    assert len(turns_lost_to_the_clock(clocks.moves.values())) == 1


def test_a_refusal_the_log_shows_no_timeout_for_is_not_the_clocks():
    clocks = MoveClocks()
    now = 1_800_000_000_000
    clocks.answered(view_answer(7, now + 30_000, now))
    send_move(clocks, 7, 409)
    ClockWatch(clocks, lambda game: [{"type": "bid", "version": 6, "data": {"seat": 1}}]).settle()
    (move,) = clocks.moves.values()
    assert move.timed_out is False and turns_lost_to_the_clock([move]) == []


def test_only_a_move_sent_in_time_refused_and_played_by_the_clock_counts():
    base = dict(game_id="g", seat=0, version=4, deadline_ms=10_000)
    lost = ClockedMove(**base, sent_ms=9_000, status=412, timed_out=True)
    late = ClockedMove(**base, sent_ms=10_500, status=412, timed_out=True)  # the person's own lateness
    taken = ClockedMove(**base, sent_ms=9_000, status=200, timed_out=None)
    other = ClockedMove(**base, sent_ms=9_000, status=409, timed_out=False)
    unsettled = ClockedMove(**base, sent_ms=9_000, status=412, timed_out=None)
    (found,) = turns_lost_to_the_clock([lost, late, taken, other, unsettled])
    assert "1000 ms before its deadline" in found and "412" in found
