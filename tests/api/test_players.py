"""Players over HTTP, on gunicorn with Redis and each records database (SQLite, PostgreSQL); every response
checked against openapi.yaml.

A player made, a game created with its seat (``player: true``), a seat claimed by another player's token: the
table shows both names and the record both ids.  A rename, a new token (the old one refused), a token that names
nobody refused wherever it is sent; then a deletion: the player is gone, its name free, its games' record no
longer names it.  A rematch and a quick match bind their seats to their players too.  Every look-alike of a
player's name is refused, each with the reason."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from services.engine import make_rules, new_game
from testkit.http_clients import planned_moves

from .contract import ContractSession
from .helpers import wait_until

pytestmark = pytest.mark.integration
SEED = 11
RULES = {"preset": "partnership", "win_score": 1}  # over after a round or two


@pytest.fixture(params=["sqlite", "postgresql"])
def session(request, gunicorn_factory, private_redis_url, tmp_path) -> Iterator[ContractSession]:
    if request.param == "sqlite":
        database = {"DATA_DIR": str(tmp_path)}
    else:
        database = {"RECORDS_DATABASE_URL": request.getfixturevalue("postgres_records_url")}
    env = {"AI_ENABLED": "0", "RECORDS_DRAIN_INTERVAL_SECONDS": "0.2", "PLAYER_CREATE_RATE_LIMIT": "", **database}
    yield ContractSession(gunicorn_factory(env, redis=private_redis_url))


def as_player(token: str) -> dict[str, str]:
    return {"Player-Token": token}


def make_player(session: ContractSession, name: str, kind: str = "person") -> tuple[str, str]:
    created = session.post("/v1/players", json={"name": name, "kind": kind})
    assert created.status_code == 201, created.text
    body = created.json()
    assert created.headers["Location"] == f"/v1/players/{body['player']['id']}"
    return body["player"]["id"], body["token"]


def code(response) -> str:
    return response.json()["code"]


def test_a_player_lasts_from_seat_to_record_and_a_deletion_anonymises_it(session: ContractSession):
    ada, ada_token = make_player(session, "  Ada   Lovelace ")
    bot, bot_token = make_player(session, "Deep Spade", "bot")
    assert code(session.post("/v1/players", json={"name": "ADA LOVELACE"})) == "name_taken"
    assert code(session.post("/v1/players", json={"name": "Ada\u200b"})) == "invalid_request"
    me = session.get("/v1/players/me", headers=as_player(ada_token)).json()
    assert (me["id"], me["name"], me["kind"], me["ratings"]) == (ada, "Ada Lovelace", "person", {})
    assert session.get(f"/v1/players/{bot}").json()["kind"] == "bot"
    assert session.get("/v1/players/computer-hard").json()["kind"] == "computer"

    seats = [{"type": "human", "player": True}, {"type": "open"}, {"type": "human"}, {"type": "human"}]
    body = {"rules": RULES, "seats": seats, "seed": SEED, "options": {"clock": "none"}}
    assert code(session.post("/v1/games", json=body)) == "player_token_invalid"  # player: true needs a token
    assert code(session.post("/v1/games", json=body, headers=as_player("spt_nobody"))) == "player_token_invalid"
    created = session.post("/v1/games", json=body, headers=as_player(ada_token))
    assert created.status_code == 201, created.text
    game_id = created.json()["game_id"]
    claim = f"/v1/games/{game_id}/seats/1/claim"
    assert code(session.post(claim, headers=as_player(bot_token + "x"))) == "player_token_invalid"
    assert code(session.post(claim, headers=as_player(ada_token))) == "player_seated"
    claimed = session.post(claim, headers=as_player(bot_token))
    assert claimed.status_code == 200, claimed.text
    view = session.get(f"/v1/games/{game_id}").json()
    assert [seat["player"] for seat in view["seats"]] == [
        {"id": ada, "name": "Ada Lovelace", "kind": "person"},
        {"id": bot, "name": "Deep Spade", "kind": "bot"},
        None,
        None,
    ]

    tokens = [seat.get("token") for seat in created.json()["seats"]]
    tokens[1] = claimed.json()["token"]
    overrides = {k: v for k, v in RULES.items() if k != "preset"}
    for path, move, headers in planned_moves(game_id, tokens, new_game(make_rules("partnership", **overrides), SEED)):
        assert session.post(path, data=move, headers={**headers, "Content-Type": "application/json"}).ok

    def listed() -> list[dict]:
        return session.get("/v1/records", params={"player_id": ada}).json()["records"]

    wait_until(lambda: listed() != [], "the record was not written to the database")  # Redis answers before
    assert [summary["game_id"] for summary in listed()] == [game_id]
    record = session.get(f"/v1/games/{game_id}/record").json()
    assert [seat["player_id"] for seat in record["seats"]] == [ada, bot, None, None]
    rematch = session.post(f"/v1/games/{game_id}/rematch", headers={"Authorization": f"Bearer {tokens[0]}"})
    assert rematch.status_code == 200, rematch.text  # Ada's seat token: her seat in the next game is hers again
    assert rematch.json()["state"]["seats"][0]["player"]["id"] == ada

    renamed = session.patch("/v1/players/me", json={"name": "Countess"}, headers=as_player(ada_token))
    assert renamed.status_code == 200 and renamed.json()["name"] == "Countess"
    assert code(session.patch("/v1/players/me", json={"name": "deep spade"}, headers=as_player(ada_token))) == (
        "name_taken"
    )
    rotated = session.post("/v1/players/me/token", headers=as_player(ada_token))
    assert rotated.status_code == 200, rotated.text
    fresh = rotated.json()["token"]
    assert code(session.get("/v1/players/me", headers=as_player(ada_token))) == "player_token_invalid"
    assert session.get("/v1/players/me", headers=as_player(fresh)).json()["name"] == "Countess"

    assert session.delete("/v1/players/me", headers=as_player(fresh)).status_code == 204
    assert code(session.get(f"/v1/players/{ada}")) == "player_not_found"
    assert code(session.get("/v1/players/me", headers=as_player(fresh))) == "player_token_invalid"
    anonymised = session.get(f"/v1/games/{game_id}/record")
    assert ada not in anonymised.text
    assert [seat["player_id"] for seat in anonymised.json()["seats"]] == [None, bot, None, None]
    assert listed() == []
    assert make_player(session, "Countess")[0] != ada  # the name is free
    assert session.checked > 20


def test_quick_match_seats_each_request_as_the_player_it_was_sent_with(session: ContractSession):
    players = [make_player(session, name) for name in ("Quick One", "Quick Two")]
    asks = [as_player(token) for _, token in players] + [{}, {}]
    body = {"rules": RULES, "clock": "none", "max_wait_seconds": 60, "fill_level": "easy"}
    assert code(session.post("/v1/matches", json=body, headers=as_player("spt_nobody"))) == "player_token_invalid"
    created = [session.post("/v1/matches", json=body, headers=headers).json() for headers in asks]
    seated = [
        session.get(
            f"/v1/matches/{m['match_id']}", params={"wait": 10}, headers={"Authorization": f"Bearer {m['secret']}"}
        ).json()
        for m in created
    ]
    assert {m["status"] for m in seated} == {"seated"} and len({m["game_id"] for m in seated}) == 1
    view = session.get(f"/v1/games/{seated[0]['game_id']}").json()
    by_request = [view["seats"][m["seat"]]["player"] for m in seated]
    assert [p and p["id"] for p in by_request] == [players[0][0], players[1][0], None, None]


LOOK_ALIKES = [  # (a name drawn like one of the players' below, what it is, the code, what the answer says)
    ("Farmer A\ufe0f", "VS16, the emoji variation selector", "invalid_request", "variation selector (U+FE0F)"),
    ("Farmer A\ufe00", "VS1", "invalid_request", "variation selector (U+FE00)"),
    ("Farmer A\U000e0100", "VS17, an ideographic variation selector", "invalid_request", "(U+E0100)"),
    ("Farmer A\u180b", "a Mongolian free variation selector", "invalid_request", "variation selector (U+180B)"),
    ("Farmer \u0410", "a Cyrillic capital A", "invalid_request", "different scripts (Latin and Cyrillic)"),
    ("\u039ftto Farm", "a Greek capital Omicron", "invalid_request", "different scripts (Greek and Latin)"),
    ("\u039f\u03a7\u039f", "all Greek: Omicron, Chi, Omicron", "name_taken", "looks the same"),
    ("\u041d\u0415\u0410\u0422", "all Cyrillic: En, Ie, A, Te", "name_taken", "looks the same"),
    ("Ｆａｒｍｅｒ Ａ", "full-width letters, which NFKC folds", "name_taken", "looks the same"),
    ("FARMER A", "another case", "name_taken", "looks the same"),
    ("Farrner A", "rn drawn as m", "name_taken", "looks the same"),
    ("Otto Farrn", "rn drawn as m, in the other name", "name_taken", "looks the same"),
]


def test_each_look_alike_of_a_players_name_is_refused_with_the_reason(session: ContractSession):
    farmer, token = make_player(session, "Farmer A")
    for name in ("OXO", "HEAT", "Otto Farm"):
        make_player(session, name)
    for name, what, expected, says in LOOK_ALIKES:
        refused = session.post("/v1/players", json={"name": name})
        assert (refused.status_code, code(refused)) == (409 if expected == "name_taken" else 400, expected), what
        if expected == "invalid_request":
            assert refused.json()["errors"][0]["field"] == "name", what
            assert says in refused.json()["errors"][0]["message"], what
        else:
            assert says in refused.json()["detail"], what
    assert code(session.patch("/v1/players/me", json={"name": "Farmer \u0410"}, headers=as_player(token))) == (
        "invalid_request"
    )
    assert code(session.patch("/v1/players/me", json={"name": "ｏｘｏ"}, headers=as_player(token))) == "name_taken"
    assert session.get(f"/v1/players/{farmer}").json()["name"] == "Farmer A"
