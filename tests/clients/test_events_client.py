"""The events' client methods over a scripted session: each sends its operation's method, path, body and
``Player-Token``, reads the answer into its model, and a refusal raises the problem's exception."""

from __future__ import annotations

from typing import Any

import pytest

from spades_client import SpadesClient
from spades_client.errors import Conflict, NotFound
from spades_client.events import EventDetail

from .test_client_units import FakeResponse, FakeSession, problem

SUMMARY = {
    "event_id": "e1", "name": "Club night", "format": "duplicate_pairs", "status": "running", "creator": "p_a",
    "max_pairs": 8, "deals_per_round": 2, "rounds": 7, "clock": "none", "rated": False, "bots_allowed": True,
    "stand_in_level": "easy", "start_at_ms": None, "par": True, "pairs_count": 2, "created_ms": 1,
    "minutes": 60, "seating": "partners", "max_players": 1000,
}  # fmt: skip
PAIR = {
    "pair_id": "q1", "number": 1, "kind": "players", "invited": None, "withdrawn": False,
    "players": [{"player_id": "p_a", "name": "Ada", "kind": "bot"}, {"player_id": "p_b", "name": "Bea", "kind": "bot"}],
}  # fmt: skip
DETAIL = {
    **SUMMARY, "arena": None, "version": 4, "finished_ms": None, "pairs": [PAIR], "boards": [1, 2],
    "standings": [{"rank": 1, "pair": 1, "matchpoints": 3.0, "top": 6, "percent": 50.0}],
    "current_round": {"number": 1, "finished": False, "tables_finished": [], "no_shows": [],
                      "tables": [{"table": 1, "ns": 1, "ew": 2, "game_id": "g1"}]},
}  # fmt: skip
SHEET = {
    "event_id": "e1", "board": 1, "round": 1, "deal": 1, "par": {"ns": 60, "ew": -40}, "par_game_id": "gp",
    "tables": [{"table": 1, "ns": 1, "ew": 2, "game_id": "g1", "finished": True, "bids": [3, 3, 4, 3],
                "tricks": [3, 2, 5, 3], "score": {"ns": 71, "ew": -60}, "matchpoints": {"ns": 2, "ew": 0, "top": 2},
                "no_show": []}],
}  # fmt: skip


def client(*answers: Any) -> tuple[SpadesClient, FakeSession]:
    session = FakeSession(list(answers))
    return SpadesClient("http://api", session=session, sleep=lambda s: None, player_token="spt_x"), session


def test_each_event_method_sends_its_operation_and_reads_its_model():
    api, session = client(
        FakeResponse(201, DETAIL), FakeResponse(200, {"events": [SUMMARY]}), FakeResponse(200, DETAIL),
        FakeResponse(201, PAIR), FakeResponse(200, PAIR), FakeResponse(200, DETAIL), FakeResponse(200, DETAIL),
        FakeResponse(200, SHEET),
    )  # fmt: skip
    created = api.create_event("Club night", max_pairs=8, deals_per_round=2, rounds=7, stand_in_level="easy")
    assert isinstance(created, EventDetail) and created.current_round.tables[0].game_id == "g1"
    assert api.list_events(limit=5).events[0].event_id == "e1"
    event = api.get_event("e1")
    assert event.pair_of("p_b").number == 1 and event.standings[0].percent == 50.0
    assert api.join_event("e1", "p_b").pair_id == "q1"
    assert api.accept_pair("e1", "q1").players[1].name == "Bea"
    api.withdraw_pair("e1", "q1")
    api.start_event("e1")
    sheet = api.get_event_board("e1", 1)
    assert sheet.tables[0].score == {"ns": 71, "ew": -60} and sheet.par == {"ns": 60, "ew": -40}
    sent = [(method, url) for method, url, _ in session.sent]
    assert sent == [
        ("POST", "http://api/v1/events"),
        ("GET", "http://api/v1/events"),
        ("GET", "http://api/v1/events/e1"),
        ("POST", "http://api/v1/events/e1/pairs"),
        ("POST", "http://api/v1/events/e1/pairs/q1/accept"),
        ("DELETE", "http://api/v1/events/e1/pairs/q1"),
        ("POST", "http://api/v1/events/e1/start"),
        ("GET", "http://api/v1/events/e1/boards/1"),
    ]
    assert session.sent[0][2]["json"] == {
        "name": "Club night", "format": "duplicate_pairs", "max_pairs": 8, "deals_per_round": 2, "rounds": 7,
        "stand_in_level": "easy",
    }  # fmt: skip
    assert session.sent[3][2]["json"] == {"partner": "p_b"}
    assert all(kwargs["headers"]["Player-Token"] == "spt_x" for _, _, kwargs in session.sent)


ENTRANT = {
    "rank": 1, "player_id": "p_a", "name": "Ada", "kind": "bot", "rating": 1500, "points": 6, "games": 3, "wins": 2,
    "run": 2, "on_fire": True, "performance": 1780, "status": "playing", "game_id": "g7", "seat": 2,
}  # fmt: skip


def test_each_arena_method_sends_its_operation_and_reads_its_model():
    page = {"event_id": "e1", "start": 0, "entrants": 1, "standings": [ENTRANT]}
    arena = {**DETAIL, "format": "arena", "current_round": None, "standings": [], "pairs": [], "boards": [],
             "arena": {"seating": "partners", "minutes": 30, "started_ms": 1, "ends_ms": 1_800_001, "entrants": 1,
                       "waiting": 0, "games_in_play": 1, "standings": [ENTRANT]}}  # fmt: skip
    api, session = client(
        FakeResponse(201, arena), FakeResponse(201, ENTRANT), FakeResponse(200, ENTRANT),
        FakeResponse(200, {**ENTRANT, "status": "withdrawn"}), FakeResponse(200, page),
    )  # fmt: skip
    created = api.create_event("Friday arena", format="arena", minutes=30, seating="partners", clock="normal")
    assert created.arena.standings[0].on_fire and created.arena.ends_ms == 1_800_001
    assert api.join_arena("e1").game_id == "g7"
    assert api.get_arena_entrant("e1", "p_a").seat == 2
    assert api.withdraw_from_arena("e1", "p_a").status == "withdrawn"
    assert api.get_arena_standings("e1", start=0, limit=10).standings[0].points == 6
    assert [(method, url) for method, url, _ in session.sent] == [
        ("POST", "http://api/v1/events"),
        ("POST", "http://api/v1/events/e1/entrants"),
        ("GET", "http://api/v1/events/e1/entrants/p_a"),
        ("DELETE", "http://api/v1/events/e1/entrants/p_a"),
        ("GET", "http://api/v1/events/e1/standings"),
    ]
    assert session.sent[4][2]["params"] == {"start": 0, "limit": 10}


@pytest.mark.parametrize(
    ("code", "status", "exception"), [("event_full", 409, Conflict), ("event_not_found", 404, NotFound)]
)
def test_an_events_refusal_raises_its_exception(code: str, status: int, exception: type[Exception]):
    api, _ = client(FakeResponse(status, problem(code, status)))
    with pytest.raises(exception):
        api.join_event("e1", "p_b")
