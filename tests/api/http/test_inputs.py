"""Numbers a request carries (headers, query parameters, a records cursor, path segments) follow one rule,
ASCII digits within a bound (``services.api.problems.ascii_int``): anything else is a 400 naming the field,
never a 500 and never a number read from another script's digits."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from flask.testing import FlaskClient

from services.api.app import create_app
from services.api.games.move_request import parse_if_match
from services.api.games.record import GameRecord
from services.api.live.stream import resume_point
from services.api.problems import MAX_INT64, ApiError, ascii_int, int_param
from services.api.records.repository import decode_cursor, encode_cursor
from services.api.store.memory_store import MemoryStore

from ..helpers import auth


@pytest.mark.parametrize(
    ("text", "maximum", "value"),
    [
        ("0", 30, 0),
        ("30", 30, 30),
        ("07", 30, 7),
        ("31", 30, None),
        ("007", 30, None),  # more digits than the bound has
        ("", 30, None),
        ("²", 30, None),  # isdigit() is true, int() fails
        ("１", 30, None),  # a fullwidth digit: int() reads it as 1
        ("١", 30, None),  # an Arabic-Indic digit, likewise
        ("-1", 30, None),
        ("+1", 30, None),
        (" 1", 30, None),
        ("1_0", 30, None),  # int() takes underscores
        (str(MAX_INT64), MAX_INT64, MAX_INT64),
        (str(MAX_INT64 + 1), MAX_INT64, None),
        (None, 30, None),
    ],
)
def test_a_number_is_ascii_digits_within_its_bound(text: str | None, maximum: int, value: int | None):
    assert ascii_int(text, maximum) == value


def test_a_bad_number_is_a_400_naming_its_field():
    with pytest.raises(ApiError) as refused:
        int_param("²", "wait", 30)
    assert refused.value.status == 400 and refused.value.extra["errors"][0]["field"] == "wait"
    assert int_param("12", "wait", 30) == 12


@pytest.mark.parametrize("header", ["²", '"²"', 'W/"¹"', '"１"', '"1234567890123456"'])
def test_if_match_takes_ascii_digits_only(header: str):
    with pytest.raises(ApiError) as refused:
        parse_if_match(header)
    assert refused.value.status == 400 and refused.value.extra["errors"][0]["field"] == "If-Match"


def test_last_event_id_and_after_share_the_rule():
    assert resume_point("00012", "5") == 12
    for header, after, field in (("¹", None, "Last-Event-ID"), (None, "²", "after"), (None, str(2**53 + 1), "after")):
        with pytest.raises(ApiError) as refused:
            resume_point(header, after)
        assert refused.value.extra["errors"][0]["field"] == field


def cursor_of(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


@pytest.mark.parametrize("text", [f"{2**63}:g1", "²:g1", "-5:g1", "1e3:g1", f"{'9' * 30}:g1"])
def test_a_cursor_holds_what_the_column_holds(text: str):
    with pytest.raises(ValueError):
        decode_cursor(cursor_of(text))
    assert decode_cursor(encode_cursor((MAX_INT64, "g1"))) == (MAX_INT64, "g1")


@pytest.fixture
def client(tmp_path) -> FlaskClient:
    settings: dict[str, Any] = {
        "STORE": MemoryStore(GameRecord.from_stored),
        "AI_ENABLED": False,
        "RATE_LIMIT_ENABLED": False,
        "LOG_LEVEL": "WARNING",
        "DATA_DIR": str(tmp_path),  # the records' SQLite file
        "RECORDS_WRITER_ENABLED": False,
    }
    return create_app(settings).test_client()


def new_game(client: FlaskClient) -> tuple[str, list[str]]:
    created = client.post("/v1/games", json={"seats": [{"type": "human"}] * 4}).get_json()
    return created["game_id"], [seat["token"] for seat in created["seats"]]


def assert_refused(response: Any, field: str) -> None:
    assert response.status_code == 400, response.get_data()
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["code"] == "invalid_request"
    assert [error["field"] for error in response.get_json()["errors"]] == [field]


def test_crafted_numbers_in_headers_and_queries_are_400s(client):
    game_id, tokens = new_game(client)
    bid = client.post(f"/v1/games/{game_id}/bids", json={"bid": 3}, headers={**auth(tokens[1]), "If-Match": "²"})
    assert_refused(bid, "If-Match")
    assert client.get(f"/v1/games/{game_id}").get_json()["version"] == 1  # nothing applied
    assert_refused(client.get(f"/v1/games/{game_id}/events?after=%C2%B2"), "after")
    assert_refused(client.get(f"/v1/games/{game_id}/events?wait=%C2%B9"), "wait")
    assert_refused(client.get(f"/v1/games/{game_id}/events?wait=%EF%BC%91"), "wait")  # "１", read as 1 by int()
    assert_refused(client.get(f"/v1/records?cursor={cursor_of(f'{2**63}:g1')}"), "cursor")
    assert_refused(client.get("/v1/records?limit=%EF%BC%91%EF%BC%92"), "limit")  # "１２", read as 12 by int()
    assert client.get("/v1/records?limit=12").status_code == 200
    assert client.get(f"/v1/games/{game_id}/events?after=0&wait=0").status_code == 200


def test_path_numbers_are_ascii_digits(client):
    game_id, _ = new_game(client)
    assert client.post(f"/v1/games/{game_id}/seats/١/claim").status_code == 404  # not seat 1
    assert client.post(f"/v1/games/{game_id}/seats/1/claim").status_code == 409  # seat 1 is taken
