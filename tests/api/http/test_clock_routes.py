"""Turn clocks over HTTP, on the in-memory store: the time controls in the rules catalogue, ``options.clock``,
the view's ``clock`` and each response's own ``server_time_ms`` (views stay cached per version), ``turn_clock`` as
delivered on ``/events``, and ``POST .../back``'s refusals.  Timeouts and races on the real stack:
tests/api/test_turn_clocks.py."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from flask.testing import FlaskClient

from services.api.app import create_app
from services.api.games.record import GameRecord
from services.api.store import protocol
from services.api.store.memory_store import MemoryStore

from ..helpers import auth

PEOPLE = {"seats": [{"type": "human"}] * 4}


@pytest.fixture
def now(monkeypatch: pytest.MonkeyPatch) -> SimpleNamespace:
    clock = SimpleNamespace(t=1_800_000_000.0)
    monkeypatch.setattr(protocol, "time", SimpleNamespace(time=lambda: clock.t))
    return clock


def client(**config: Any) -> FlaskClient:
    settings = {
        "STORE": MemoryStore(GameRecord.from_stored),
        "AI_ENABLED": False,
        "RATE_LIMIT_ENABLED": False,
        "LOG_LEVEL": "WARNING",
    }
    return create_app({**settings, **config}).test_client()


def test_the_rules_catalogue_lists_the_time_controls_and_the_default_rule():
    catalogue = client().get("/v1/rules").get_json()
    assert [c["name"] for c in catalogue["time_controls"]] == ["none", "fast", "normal", "relaxed", "correspondence"]
    assert "normal" in catalogue["default_time_control"] and "none" in catalogue["default_time_control"]


def test_a_cached_view_gets_each_responses_own_server_time(now):
    http = client()
    created = http.post("/v1/games", json=PEOPLE).get_json()
    game_id, state = created["game_id"], created["state"]
    assert state["options"]["clock"] == "normal" and state["server_time_ms"] == 1_800_000_000_000
    assert state["clock"]["deadline_ms"] == 1_800_000_000_000 + 85_000 and state["clock"]["seat"] == state["turn"]
    first = http.get(f"/v1/games/{game_id}")
    now.t += 2.5
    again = http.get(f"/v1/games/{game_id}")
    assert first.get_json()["server_time_ms"] == 1_800_000_000_000
    assert again.get_json()["server_time_ms"] == 1_800_000_002_500, "added as the response is written"
    assert {**again.get_json(), "server_time_ms": 0} == {**first.get_json(), "server_time_ms": 0}
    assert again.headers["ETag"] == first.headers["ETag"]


def test_turn_clock_events_carry_the_time_they_were_delivered(now):
    http = client()
    game_id = http.post("/v1/games", json=PEOPLE).get_json()["game_id"]
    now.t += 7
    page = http.get(f"/v1/games/{game_id}/events").get_json()
    (clock,) = [e for e in page["events"] if e["type"] == "turn_clock"]
    assert clock["data"]["server_time_ms"] == page["server_time_ms"] == 1_800_000_007_000
    assert clock["data"]["deadline_ms"] - clock["data"]["server_time_ms"] == 85_000 - 7_000


def test_one_person_against_computers_has_no_clock_and_an_unknown_control_is_refused():
    http = client()
    seats = [{"type": "human"}] + [{"type": "ai", "level": "basic"}] * 3
    state = http.post("/v1/games", json={"seats": seats}).get_json()["state"]
    assert state["clock"] is None and state["options"]["clock"] == "none"
    chosen = http.post("/v1/games", json={"seats": seats, "options": {"clock": "fast"}}).get_json()["state"]
    assert chosen["clock"]["control"] == "fast"
    refused = http.post("/v1/games", json={"options": {"clock": "blitz"}})
    assert refused.status_code == 400 and refused.get_json()["errors"][0]["field"] == "options.clock"


def test_back_is_for_the_seats_own_token_and_changes_nothing_for_a_seat_that_is_not_away():
    http = client()
    created = http.post("/v1/games", json=PEOPLE).get_json()
    game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    url = f"/v1/games/{game_id}/seats/2/back"
    assert http.post(url).status_code == 401
    assert http.post(url, headers=auth(tokens[1])).get_json()["code"] == "forbidden"
    assert http.post(f"/v1/games/{game_id}/seats/7/back", headers=auth(tokens[2])).status_code == 404
    back = http.post(url, headers=auth(tokens[2]))
    assert back.status_code == 200 and back.get_json()["version"] == 1 and back.get_json()["you"] == 2
    assert "server_time_ms" in back.get_json()
