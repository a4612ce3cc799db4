"""spades_client's house-rule moves and game records without a server: the blind decision and the nil exchange
as moves, the runner answering those turns, record pages followed by cursor and the NDJSON export read one
line at a time, a capped export followed by its Link (fake transports, no network)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from spades_client import GameInPlay, GamePlayer, GameView, InvalidRules, Move, SpadesClient, as_move, moves
from spades_client.errors import problem_error
from spades_client.models import GameRecordDocument
from tests.clients.test_client_units import VIEW_FIELDS, FakeResponse, FakeSession, problem

RULES = {**VIEW_FIELDS["rules"], "blind_nil": True, "nil_pass_cards": 2}
HAND = ["AS", "KS", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH"]


def view(**fields: Any) -> dict[str, Any]:
    """A seat-1 view body of a game with blind nil and a two-card nil exchange."""
    return {**VIEW_FIELDS, "rules": RULES, "hand_hidden": False, "legal_blind": [], "blind": [False] * 4,
            "pass_count": 2, "passing_seats": [], "passes": None, **fields}  # fmt: skip


BLIND_DECISION = view(turn=1, hand=None, hand_hidden=True, legal=["look"], legal_blind=[0, 5, 6])
PASSING = view(phase="passing", turn=1, hand=HAND, legal=HAND, passing_seats=[1, 3], bids=[3, 0, 4, 5])


@pytest.mark.parametrize(
    ("answer", "move"),
    [
        ("look", Move("blind", {"look": True})),
        ({"look": True}, Move("blind", {"look": True})),
        (moves.blind_bid(0), Move("blind", {"bid": 0})),
        (["AS", "KS"], Move("passes", {"cards": ["AS", "KS"]})),
        ({"cards": ["AS", "KS"]}, Move("passes", {"cards": ["AS", "KS"]})),
        ({"bid": 5, "blind": True}, Move("blind", {"bid": 5})),  # the computer levels' forms
        ({"pass": ["AS", "KS"]}, Move("passes", {"cards": ["AS", "KS"]})),
    ],
)
def test_house_rule_answers_become_their_moves(answer: Any, move: Move):
    assert as_move(answer) == move


def test_a_view_says_when_a_seat_decides_blind_or_passes():
    blind, passing = GameView.from_dict(BLIND_DECISION), GameView.from_dict(PASSING)
    assert (blind.my_turn, blind.blind_decision, blind.passing, blind.hand) == (True, True, False, None)
    assert blind.legal_blind == [0, 5, 6]
    assert (passing.my_turn, passing.blind_decision, passing.passing, passing.pass_count) == (True, False, True, 2)
    exchanged = GameView.from_dict(view(passes={"gave": ["AS", "KS"], "received": ["2C", "3C"]}))
    assert exchanged.passes is not None and exchanged.passes.received == ["2C", "3C"]


def test_decide_blind_and_pass_cards_are_moves_with_if_match_and_an_idempotency_key():
    session = FakeSession([FakeResponse(200, view()), FakeResponse(200, view()), FakeResponse(200, view())])
    client = SpadesClient("http://api", "tok", session=session)  # type: ignore[arg-type]
    client.decide_blind("g", 0, version=7)
    client.decide_blind("g", version=8, key="k1")
    client.pass_cards("g", ["AS", "KS"], version=9)
    sent = [(method, url, kw["json"], kw["headers"].get("If-Match")) for method, url, kw in session.sent]
    assert sent == [
        ("POST", "http://api/v1/games/g/blind", {"bid": 0}, '"7"'),
        ("POST", "http://api/v1/games/g/blind", {"look": True}, '"8"'),
        ("POST", "http://api/v1/games/g/passes", {"cards": ["AS", "KS"]}, '"9"'),
    ]
    assert session.sent[1][2]["headers"]["Idempotency-Key"] == "k1"
    assert all(kw["headers"]["Idempotency-Key"] for _, _, kw in session.sent)


class FakeSeat:
    """A seat's client: the views it returns, in order, and the moves it was sent."""

    def __init__(self, first: dict[str, Any], answers: list[dict[str, Any]]) -> None:
        self.first = first
        self.answers = answers
        self.moves: list[tuple[Move, int | None]] = []

    def as_seat(self, token: str) -> FakeSeat:
        return self

    def get_game(self, game_id: str) -> GameView:
        return GameView.from_dict(self.first)

    def move(self, game_id: str, move: Any, version: int | None = None) -> GameView:
        self.moves.append((as_move(move), version))
        return GameView.from_dict(self.answers.pop(0))


def house_bot(view: GameView) -> Any:
    """Bids blind nil when it may, gives its two highest cards, else the first legal move."""
    if view.blind_decision:
        return moves.blind_bid(0) if 0 in (view.legal_blind or []) else "look"
    if view.passing:
        return view.legal[: view.pass_count]
    return view.legal[0]


def test_the_runner_answers_a_blind_decision_and_a_pass_with_the_bots_moves():
    seat = FakeSeat(
        {**BLIND_DECISION, "version": 20},
        [{**PASSING, "version": 21}, view(version=22, phase="game_over", turn=None, winner=[1, 3])],
    )
    final = GamePlayer(seat, "g", {1: "tok"}, house_bot).play()  # type: ignore[arg-type]
    assert seat.moves == [(Move("blind", {"bid": 0}), 20), (Move("passes", {"cards": ["AS", "KS"]}), 21)]
    assert final.over


SUMMARY = {"game_id": "g1", "outcome": "finished", "created_at": "2026-11-30T20:00:00+00:00",
           "ended_at": "2026-11-30T20:30:00+00:00", "seats": [{"seat": 0, "player": "human", "won": True}]}  # fmt: skip
RECORD = {
    "format": 1, "game_id": "g1", "version": 300, "outcome": "finished", "created_at": SUMMARY["created_at"],
    "ended_at": SUMMARY["ended_at"], "rules": RULES, "options": {"hints": True}, "seeded": False,
    "seats": [{"seat": s, "type": "human" if s == 0 else "ai", "level": None if s == 0 else "normal", "won": s % 2 == 0}
              for s in range(4)],
    "rounds": [{"round": 1, "dealer": 0, "bids": [3, 0, 4, 5], "tricks_won": [3, 1, 4, 5], "points": [70, -50],
                "bag_penalties": [0, 0], "scores": [70, -50], "bags": [0, 1], "hands": [HAND] * 4, "plays": [],
                "parts": [],
                "blind": [False, True, False, False], "passes": [[], ["AS", "KS"], [], ["2C", "3C"]],
                "tricks": [{"leader": 1, "cards": [{"seat": 1, "card": "AS"}], "winner": 1}]}],
    "round_in_play": None, "result": {"winner": [0, 2], "scores": [70, -50], "bags": [0, 1]},
}  # fmt: skip


def test_record_pages_are_followed_by_cursor_with_the_filters_sent_each_time():
    session = FakeSession([
        FakeResponse(200, {"records": [SUMMARY], "next_cursor": "c1"}),
        FakeResponse(200, {"records": [{**SUMMARY, "game_id": "g2"}], "next_cursor": None}),
    ])  # fmt: skip
    client = SpadesClient("http://api", session=session)  # type: ignore[arg-type]
    ids = [s.game_id for s in client.iter_record_summaries(level="normal", result="won", limit=1)]
    assert ids == ["g1", "g2"]
    assert [kw["params"] for _, _, kw in session.sent] == [
        {"level": "normal", "result": "won", "limit": 1},
        {"level": "normal", "result": "won", "cursor": "c1", "limit": 1},
    ]


class StreamedLines(FakeResponse):
    """An NDJSON response that counts how many lines the reader has pulled."""

    def __init__(self, lines: list[str], headers: dict[str, str] | None = None) -> None:
        super().__init__(200, None, headers)
        self.lines = lines
        self.pulled = 0
        self.closed = False

    def iter_lines(self) -> Iterator[str]:
        for line in self.lines:
            self.pulled += 1
            yield line

    def __enter__(self) -> StreamedLines:
        return self

    def __exit__(self, *exc: object) -> None:
        self.closed = True


def test_the_export_is_read_one_record_at_a_time_and_closed_when_dropped():
    lines = [json.dumps({**RECORD, "game_id": f"g{i}"}) for i in range(5)]
    response = StreamedLines([lines[0], "", *lines[1:]])
    session = FakeSession([response])
    client = SpadesClient("http://api", session=session)  # type: ignore[arg-type]
    export = client.export_records(since="2026-11-30T00:00:00+00:00")
    first = next(export)
    assert isinstance(first, GameRecordDocument) and first.game_id == "g0" and response.pulled == 1
    record = first.rounds[0]
    assert (record.blind, record.passes[1], record.tricks[0].winner) == ([False, True, False, False], ["AS", "KS"], 1)
    assert first.seats[1].level == "normal" and first.result.winner == [0, 2]
    export.close()
    assert response.closed and response.pulled == 1
    _, _, kwargs = session.sent[0]
    assert kwargs["params"] == {"since": "2026-11-30T00:00:00+00:00", "format": "ndjson"} and kwargs["stream"]


def test_an_export_cut_short_is_followed_by_its_next_link_with_the_filters_kept():
    lines = [json.dumps({**RECORD, "game_id": f"g{i}"}) for i in range(3)]
    first = StreamedLines(lines[:2], {"Link": '</v1/records?level=human&format=ndjson&cursor=MTA6ZzE>; rel="next"'})
    last = StreamedLines(lines[2:])
    session = FakeSession([first, last])
    client = SpadesClient("http://api", session=session)  # type: ignore[arg-type]
    assert [record.game_id for record in client.export_records(level="human")] == ["g0", "g1", "g2"]
    assert first.closed and last.closed
    assert [kwargs["params"] for _, _, kwargs in session.sent] == [
        {"level": "human", "format": "ndjson"},
        {"level": "human", "format": "ndjson", "cursor": "MTA6ZzE"},
    ]


def test_record_and_rules_problems_are_their_exceptions():
    assert isinstance(problem_error(409, problem("game_in_play", 409)), GameInPlay)
    refused = problem_error(422, problem("invalid_rules", 422, errors=[{"field": "rules.suicide", "message": "x"}]))
    assert isinstance(refused, InvalidRules) and refused.problem.errors[0].field == "rules.suicide"
