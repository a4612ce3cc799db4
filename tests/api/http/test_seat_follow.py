"""A seat follows its player, over HTTP (gunicorn, Redis, the records database on SQLite); every response checked
against openapi.yaml.

The seat's player takes it to another device with a session (the old token refused at once), or with the player
token; every other caller is refused with its own code and nothing changes (the game's version stands); and the
player's games in play are listed on any of its devices, without a token, finished and freed games left out.
The old device's connections ending: tests/api/http/test_seat_handover.py."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from tests.conftest import run_gunicorn

from ..contract import ContractSession
from ..helpers import auth
from .test_seat_handover import FOUR, Table, play_until

pytestmark = pytest.mark.integration

ENV = {"AI_ENABLED": "0", "PLAYER_CREATE_RATE_LIMIT": "", "LINK_CODE_RATE_LIMIT": "", "MAX_GAMES_IN_PLAY": "0"}


@pytest.fixture(scope="module")
def http(redis_db1, tmp_path_factory) -> Iterator[ContractSession]:
    with run_gunicorn({**ENV, "DATA_DIR": str(tmp_path_factory.mktemp("records"))}, workers=1) as base:
        yield ContractSession(base)


def as_player(credential: str) -> dict[str, str]:
    return {"Player-Token": credential}


def player(http: ContractSession, name: str) -> tuple[str, str]:
    made = http.post("/v1/players", json={"name": f"{name} {uuid.uuid4().hex[:6]}"})
    assert made.status_code == 201, made.text
    return made.json()["player"]["id"], made.json()["token"]


def session_of(http: ContractSession, token: str) -> str:
    link = http.post("/v1/players/me/link-codes", headers=as_player(token))
    signed_in = http.post("/v1/sessions", json={"link_code": link.json()["code"], "device_name": "Tablet"})
    assert signed_in.status_code == 201, signed_in.text
    return signed_in.json()["token"]


def game_with(http: ContractSession, token: str, rules: dict | None = None, mine: int = 0, **options) -> Table:
    seats = [{"type": "human", "player": True} if i == mine else seat for i, seat in enumerate(FOUR)]
    body = {"rules": rules or {"preset": "partnership"}, "seats": seats, "options": {"clock": "none", **options}}
    created = http.post("/v1/games", json=body, headers=as_player(token))
    assert created.status_code == 201, created.text
    return Table(created.json()["game_id"], {s["seat"]: s["token"] for s in created.json()["seats"]})


def take(http: ContractSession, game_id: str, seat: int, credential: str | None):
    return http.post(f"/v1/games/{game_id}/seats/{seat}/take", headers=as_player(credential) if credential else {})


def version(http: ContractSession, game_id: str) -> int:
    return http.get(f"/v1/games/{game_id}").json()["version"]


def test_the_seats_player_takes_it_on_another_device_and_the_old_token_is_refused_at_once(http):
    _, token = player(http, "Ada")
    table = game_with(http, token)
    taken = take(http, table.game_id, 0, session_of(http, token))
    assert taken.status_code == 200, taken.text
    assert taken.json()["seat"] == 0 and taken.json()["state"]["you"] == 0
    assert taken.headers["ETag"] == f'"{taken.json()["state"]["version"]}"'
    old = http.get(f"/v1/games/{table.game_id}/events", params={"after": 0}, headers=auth(table.tokens[0]))
    assert old.status_code == 401 and old.json()["code"] == "unauthorized"
    mine = http.get(f"/v1/games/{table.game_id}", headers=auth(taken.json()["token"])).json()
    assert mine["you"] == 0 and len(mine["hand"]) == 13
    again = take(http, table.game_id, 0, token)  # the player token takes it just the same, from the session
    assert again.status_code == 200 and again.json()["token"] != taken.json()["token"]
    events = http.get(f"/v1/games/{table.game_id}/events", params={"after": 0}).json()["events"]
    assert [e["data"] for e in events if e["type"] == "seat_rejoined"] == [{"seat": 0}, {"seat": 0}]


def test_a_stranger_a_seat_of_nobodys_no_credential_and_a_revoked_session_are_refused_and_nothing_changes(http):
    _, ada = player(http, "Ada")
    _, bea = player(http, "Bea")
    table = game_with(http, ada)
    revoked = session_of(http, ada)
    http.delete("/v1/players/me/sessions", headers=as_player(ada))  # signed out everywhere
    before = version(http, table.game_id)
    refusals = [
        (take(http, table.game_id, 0, bea), 403, "seat_not_yours"),  # another player
        (take(http, table.game_id, 1, ada), 403, "seat_not_yours"),  # a person's seat taken without a player
        (take(http, table.game_id, 0, None), 401, "player_token_invalid"),
        (take(http, table.game_id, 0, revoked), 401, "session_revoked"),
        (take(http, table.game_id, 0, "spt_" + "x" * 43), 401, "player_token_invalid"),
        (take(http, table.game_id, 4, ada), 404, "not_found"),
        (take(http, "no-such-game", 0, ada), 404, "not_found"),
    ]
    for answer, status, code in refusals:
        assert (answer.status_code, answer.json()["code"]) == (status, code), answer.text
    assert version(http, table.game_id) == before
    assert http.get(f"/v1/games/{table.game_id}", headers=auth(table.tokens[0])).json()["you"] == 0


def test_a_finished_games_seat_and_a_deleted_players_are_refused(http):
    _, ada = player(http, "Ada")
    over = game_with(http, ada, rules={"preset": "partnership", "win_score": 1, "lose_score": 0})
    play_until(http, over, lambda view: view["phase"] == "game_over")
    finished = take(http, over.game_id, 0, ada)
    assert (finished.status_code, finished.json()["code"]) == (409, "game_over")
    table = game_with(http, ada)
    assert http.delete("/v1/players/me", headers=as_player(ada)).status_code == 204
    gone = take(http, table.game_id, 0, ada)  # a deleted player has no credential left
    assert (gone.status_code, gone.json()["code"]) == (401, "player_token_invalid")


def test_the_players_games_in_play_are_listed_on_any_device_without_a_token(http):
    ada_id, ada = player(http, "Ada")
    _, bea = player(http, "Bea")
    first = game_with(http, ada)
    claimed = game_with(http, bea)
    assert http.post(f"/v1/games/{claimed.game_id}/seats/1/leave", headers=auth(claimed.tokens[1])).status_code == 200
    sat = http.post(f"/v1/games/{claimed.game_id}/seats/1/claim", headers=as_player(ada))
    assert sat.status_code == 200, sat.text
    left = game_with(http, ada, ai_takeover=None)
    assert http.post(f"/v1/games/{left.game_id}/seats/0/leave", headers=auth(left.tokens[0])).status_code == 200
    over = game_with(http, ada, rules={"preset": "partnership", "win_score": 1, "lose_score": 0})
    play_until(http, over, lambda view: view["phase"] == "game_over")

    answer = http.get("/v1/players/me/live-games", headers=as_player(session_of(http, ada)))
    assert answer.status_code == 200, answer.text
    games = answer.json()["games"]
    assert [(g["game_id"], g["seat"]) for g in games] == [(claimed.game_id, 1), (first.game_id, 0)]
    assert games[0]["seats"][1]["player"]["id"] == ada_id and games[0]["phase"] == "bidding"
    assert all(token not in answer.text for table in (first, claimed) for token in table.tokens.values())
    assert all(token not in answer.text for token in (sat.json()["token"], ada, bea))
    assert http.get("/v1/players/me/live-games", headers=as_player(bea)).json()["games"][0]["seat"] == 0
    nobody = http.get("/v1/players/me/live-games")
    assert (nobody.status_code, nobody.json()["code"]) == (401, "player_token_invalid")
