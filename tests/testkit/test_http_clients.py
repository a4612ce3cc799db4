"""testkit's simulated players: a planned game is one whole legal game, request by request; an event
follower reads a log through a server's failures and stops when closed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import parse_qs, urlparse

from services.engine import Bid, Play, apply, make_rules, new_game, parse_card, turn
from testkit.http_clients import EventFollower, planned_moves
from testkit.local_http import QuietHandler, local_http_server
from testkit.processes import free_port


def test_a_planned_game_is_every_move_of_one_whole_game_in_order():
    state = new_game(make_rules("partnership", win_score=150, lose_score=-150), seed=11)
    tokens = [f"token-{seat}" for seat in range(4)]
    plan = planned_moves("g1", tokens, state)
    for path, body, headers in plan:
        seat = turn(state)
        assert headers == {"Authorization": f"Bearer {tokens[seat]}"}
        data = json.loads(body)
        move = Bid(data["bid"]) if path == "/v1/games/g1/bids" else Play(parse_card(data["card"]))
        assert path.endswith("/bids") == isinstance(move, Bid)
        state = apply(state, seat, move)  # raises if the plan holds an illegal move
    assert state.phase == "game_over" and len(plan) > 56


EVENTS = [{"seq": 1, "type": "bid"}, {"seq": 2, "type": "card_played"}, {"seq": 3, "type": "game_over"}]


@contextmanager
def events_server(answers: list[int]) -> Iterator[tuple[str, list[int]]]:
    """A server of :data:`EVENTS`, one a read, after the failed reads ``answers`` (status codes) are spent;
    yields its base URL and the ``after`` of every read."""
    reads: list[int] = []

    class Handler(QuietHandler):
        def do_GET(self) -> None:
            after = int(parse_qs(urlparse(self.path).query)["after"][0])
            reads.append(after)
            status = answers.pop(0) if answers else 200
            body = json.dumps({"events": [e for e in EVENTS if e["seq"] == after + 1]} if status == 200 else {})
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(body.encode())

    with local_http_server(Handler) as base:
        yield base, reads


def test_a_follower_reads_through_failed_reads_to_game_over():
    with events_server([503, 502]) as (base, reads):
        follower = EventFollower(base, "g1")
        follower.start()
        assert follower.finish(timeout=30) == EVENTS
    assert reads == [0, 0, 0, 1, 2]  # the two failed reads were repeated, then one read an event


def test_a_4xx_answer_ends_the_follower_with_the_problem():
    with events_server([410]) as (base, _):
        follower = EventFollower(base, "g1")
        follower.start()
        follower.join(30)
        assert not follower.is_alive() and follower.problem == {}


def test_closing_a_follower_stops_it_while_its_server_is_down():
    with EventFollower(f"http://127.0.0.1:{free_port()}", "g1") as follower:  # nothing listens there
        assert follower.is_alive()  # it retries for as long as it is not closed
    assert not follower.is_alive() and follower.events == []
