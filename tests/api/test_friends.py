"""Friends over HTTP, on gunicorn with Redis and PostgreSQL; every response checked against openapi.yaml.

Following shows who is online (a request with their Player-Token) and at which public table (never a private
one); an invite reaches the invitee's notices on another signed-in device and carries no seat token; a blocked
pair is never seated together by quick match, whoever blocked and whoever asked first, while four others sit at
once, nor at any table by a claim of a seat; a blocked player's quick messages never reach the blocker's view or stream; each refusal has its own code.
The rules are unit-tested in tests/api/players/test_friends.py, tests/api/store/test_match_groups.py and
tests/api/lobby/test_matchmaker.py."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from tests.conftest import run_gunicorn

from .contract import ContractSession
from .helpers import auth
from .sse import messages, open_stream

pytestmark = pytest.mark.integration
ENV = {
    "AI_ENABLED": "0",
    "RATE_LIMIT_ENABLED": "1",  # the invites' limit; the rest far out of the way
    "RATE_LIMIT_PER_ADDRESS": "100000/minute",
    "RATE_LIMIT_PER_TOKEN": "100000/minute",
    "CREATE_RATE_LIMIT": "100000/hour",
    "PLAYER_CREATE_RATE_LIMIT": "100000/hour",
    "LINK_CODE_RATE_LIMIT": "100000/hour",
    "LINK_CODE_ADDRESS_RATE_LIMIT": "100000/hour",
    "MAX_GAMES_IN_PLAY": "0",
    "MAX_COMPUTER_GAMES": "0",
    "MAX_MATCHES_PER_ADDRESS": "0",
    "INVITE_RATE_LIMIT": "4/hour",
    "MATCH_SWEEP_INTERVAL_SECONDS": "0.1",
    "STREAM_HEARTBEAT_SECONDS": "0.5",
    "STREAM_MAX_SECONDS": "30",
}
FOUR_PEOPLE = [{"type": "human", "player": True}, {"type": "open"}, {"type": "open"}, {"type": "open"}]


@pytest.fixture(scope="module")
def http(redis_db1, postgres_records_url) -> Iterator[ContractSession]:
    with run_gunicorn({**ENV, "RECORDS_DATABASE_URL": postgres_records_url}, workers=1) as base:
        yield ContractSession(base)


def player(http: ContractSession, name: str) -> tuple[str, dict[str, str]]:
    """A new player (a random tail: the database is the session's) and its Player-Token header."""
    created = http.post("/v1/players", json={"name": f"{name} {secrets.token_hex(4)}"})
    assert created.status_code == 201, created.text
    return created.json()["player"]["id"], {"Player-Token": created.json()["token"]}


def table(http: ContractSession, owner: dict[str, str], public: bool) -> tuple[str, str]:
    body = {"seats": FOUR_PEOPLE, "options": {"public": public, "clock": "none"}}
    created = http.post("/v1/games", json=body, headers=owner)
    assert created.status_code == 201, created.text
    return created.json()["game_id"], created.json()["seats"][0]["token"]


def code(response) -> str:
    return response.json()["code"]


def test_the_following_list_shows_who_is_online_and_only_a_public_table(http):
    _, ada = player(http, "Ada")
    bo_id, bo = player(http, "Bo")
    cy_id, cy = player(http, "Cy")
    di_id, _ = player(http, "Di")  # made, never seen since
    for other in (bo_id, cy_id, di_id):
        followed = http.put(f"/v1/players/me/following/{other}", headers=ada)
        assert followed.status_code == 200 and followed.json()["id"] == other
    public, _ = table(http, bo, public=True)
    table(http, cy, public=False)
    listed = http.get("/v1/players/me/following", headers=ada).json()
    found = {f["id"]: f for f in listed["following"]}
    assert listed["limit"] == 500 and len(found) == 3
    assert (found[bo_id]["online"], found[bo_id]["game_id"], found[bo_id]["seat"]) == (True, public, 0)
    assert (found[cy_id]["online"], found[cy_id]["game_id"]) == (True, None), "a private table is never shown"
    assert (found[di_id]["online"], found[di_id]["last_seen_at"], found[di_id]["game_id"]) == (False, None, None)
    assert http.delete(f"/v1/players/me/following/{cy_id}", headers=ada).status_code == 204
    assert {f["id"] for f in http.get("/v1/players/me/following", headers=ada).json()["following"]} == {bo_id, di_id}
    assert code(http.get("/v1/players/me/following")) == "player_token_invalid"


def test_an_invite_reaches_the_invitees_other_device_and_they_claim_the_seat_with_their_own_token(http):
    ada_id, ada = player(http, "Ada")
    bo_id, bo = player(http, "Bo")
    cy_id, _ = player(http, "Cy")
    made = http.post("/v1/players/me/link-codes", headers=bo)
    signed_in = http.post("/v1/sessions", json={"link_code": made.json()["code"], "device_name": "phone"})
    phone = {"Player-Token": signed_in.json()["token"]}  # Bo's second device
    http.put(f"/v1/players/me/following/{ada_id}", headers=bo)  # Bo follows Ada: she may invite him
    game_id, seat_token = table(http, ada, public=False)
    sent = http.post(f"/v1/games/{game_id}/invites", json={"player_id": bo_id}, headers={**auth(seat_token), **ada})
    assert sent.status_code == 201, sent.text
    assert (sent.json()["player_id"], sent.json()["game_id"], sent.json()["seat"]) == (bo_id, game_id, 1)
    (notice,) = http.get("/v1/players/me/notices", headers=phone).json()["notices"]
    assert (notice["kind"], notice["sender"]["id"], notice["game_id"], notice["seat"]) == ("invite", ada_id, game_id, 1)
    assert "token" not in str(notice), "an invite carries no seat token"
    claimed = http.post(f"/v1/games/{game_id}/seats/{notice['seat']}/claim", headers=phone)
    assert claimed.status_code == 200 and claimed.json()["state"]["seats"][1]["player"]["id"] == bo_id
    assert http.delete(f"/v1/players/me/notices/{notice['id']}", headers=bo).status_code == 204
    assert http.get("/v1/players/me/notices", headers=phone).json()["notices"] == []
    assert code(http.delete(f"/v1/players/me/notices/{notice['id']}", headers=bo)) == "notice_not_found"

    def invite(invitee: str, headers: dict[str, str]):
        return http.post(f"/v1/games/{game_id}/invites", json={"player_id": invitee}, headers=headers)

    assert code(invite(bo_id, {**auth(seat_token), **ada})) == "player_seated"
    assert code(invite(cy_id, {**auth(seat_token), **ada})) == "not_following"
    assert code(invite(ada_id, {**auth(seat_token), **ada})) == "not_yourself"
    assert code(invite(cy_id, ada)) == "unauthorized", "no seat token"
    assert code(invite(cy_id, {**auth(claimed.json()["token"]), **ada})) == "seat_not_yours"
    assert code(invite("p_" + "z" * 22, {**auth(seat_token), **ada})) == "player_not_found"
    http.put(f"/v1/players/me/following/{cy_id}", headers=ada)
    for _ in range(3):  # the budget of 4 an hour: one spent above
        assert invite(cy_id, {**auth(seat_token), **ada}).status_code == 201
    limited = invite(cy_id, {**auth(seat_token), **ada})
    assert (
        limited.status_code == 429
        and code(limited) == "invite_rate_limited"
        and int(limited.headers["Retry-After"]) >= 1
    )


def test_a_blocked_pair_never_sits_at_one_table_by_a_claim_whoever_blocked_and_whoever_sat_first(http):
    ada_id, ada = player(http, "Ada")
    bo_id, bo = player(http, "Bo")
    _, cy = player(http, "Cy")
    assert http.put(f"/v1/players/me/blocks/{bo_id}", headers=ada).status_code == 200
    adas_table, _ = table(http, ada, public=True)
    refused = http.post(f"/v1/games/{adas_table}/seats/1/claim", headers=bo)
    assert (refused.status_code, code(refused)) == (403, "blocked_at_table"), (
        "the blocked player at the blocker's table"
    )
    assert "Ada" not in refused.json()["detail"] and ada_id not in refused.text, "it does not say who"
    bos_table, _ = table(http, bo, public=True)
    assert code(http.post(f"/v1/games/{bos_table}/seats/1/claim", headers=ada)) == "blocked_at_table", "the blocker too"
    assert http.get(f"/v1/games/{adas_table}").json()["seats"][1]["type"] == "open", "nothing changed"
    assert http.post(f"/v1/games/{adas_table}/seats/1/claim", headers=cy).status_code == 200, "anyone else sits"
    assert http.post(f"/v1/games/{adas_table}/seats/2/claim").status_code == 200, "and a seat bound to nobody"
    assert http.delete(f"/v1/players/me/blocks/{bo_id}", headers=ada).status_code == 204
    assert http.post(f"/v1/games/{adas_table}/seats/3/claim", headers=bo).status_code == 200, "unblocked, Bo sits"


# A bucket of this run's own (rules nobody else asks for): no other test's requests share its tables
RULES = {"preset": "partnership", "win_score": 200 + 10 * secrets.randbelow(70)}


def _ask(http: ContractSession, who: dict[str, str]) -> dict[str, Any]:
    body = {"rules": RULES, "clock": "correspondence", "max_wait_seconds": 120, "fill_level": "basic"}
    asked = http.post("/v1/matches", json=body, headers=who)
    assert asked.status_code == 202, asked.text
    return asked.json()


def _look(http: ContractSession, asked: dict[str, Any]) -> dict[str, Any]:
    return http.get(f"/v1/matches/{asked['match_id']}", headers=auth(asked["secret"])).json()


def test_quick_match_never_seats_a_blocked_pair_together_whoever_blocked_and_asked_first(http):
    people = [player(http, name) for name in ("Ada", "Bo", "Cy", "Di", "Ed")]
    (ada_id, ada), (bo_id, bo) = people[0], people[1]
    http.put(f"/v1/players/me/following/{bo_id}", headers=ada)
    assert http.put(f"/v1/players/me/blocks/{bo_id}", headers=ada).status_code == 200
    assert http.get("/v1/players/me/following", headers=ada).json()["following"] == [], "a block ends the follow"
    assert code(http.put(f"/v1/players/me/following/{ada_id}", headers=bo)) == "blocked"
    assert [b["id"] for b in http.get("/v1/players/me/blocks", headers=ada).json()["blocks"]] == [bo_id]
    game_id, seat_token = table(http, ada, public=False)
    for inviter, seat, invitee in ((ada, seat_token, bo_id),):
        refused = http.post(
            f"/v1/games/{game_id}/invites", json={"player_id": invitee}, headers={**auth(seat), **inviter}
        )
        assert refused.status_code == 403 and code(refused) == "blocked"
    for order in ([0, 1, 2, 3, 4], [1, 0, 2, 3, 4]):  # Ada (who blocked) first, then Bo (blocked) first
        asked = [_ask(http, people[i][1]) for i in order]
        views = {i: _look(http, m) for i, m in zip(order, asked, strict=True)}
        waiting = [i for i, v in views.items() if v["status"] == "waiting"]
        assert len(waiting) == 1 and waiting[0] in (0, 1), "one of the pair waits, the other sits with the three"
        seated_view = views[1 - waiting[0]]
        game = http.get(f"/v1/games/{seated_view['game_id']}").json()
        seated = {s["player"]["id"] for s in game["seats"]}
        assert seated == {people[i][0] for i in (1 - waiting[0], 2, 3, 4)} and not {ada_id, bo_id} <= seated
        left = asked[order.index(waiting[0])]
        assert (
            http.delete(f"/v1/matches/{left['match_id']}", headers=auth(left["secret"])).json()["status"] == "cancelled"
        )
    with ThreadPoolExecutor(8) as pool:  # eight at once, the pair among them: two tables, never the pair at one
        asked = list(pool.map(lambda p: _ask(http, p[1]), [*people, *(player(http, n) for n in ("F", "G", "H"))]))
    views = [_look(http, m) for m in asked]
    tables = {v["game_id"] for v in views if v["status"] == "seated"}
    assert tables, "four who may sit together sit at once"
    for game_id in tables:
        seated = {s["player"]["id"] for s in http.get(f"/v1/games/{game_id}").json()["seats"] if s.get("player")}
        assert not {ada_id, bo_id} <= seated
    for m, v in zip(asked, views, strict=True):
        if v["status"] == "waiting":
            http.delete(f"/v1/matches/{m['match_id']}", headers=auth(m["secret"]))


def test_a_blocked_players_quick_messages_never_reach_the_blockers_view_or_stream(http):
    ada_id, ada = player(http, "Ada")
    bo_id, bo = player(http, "Bo")
    game_id, ada_seat = table(http, ada, public=False)
    bo_seat = http.post(f"/v1/games/{game_id}/seats/1/claim", headers=bo).json()["token"]
    cy_seat = http.post(f"/v1/games/{game_id}/seats/2/claim").json()["token"]  # a seat bound to nobody
    assert http.put(f"/v1/players/me/blocks/{bo_id}", headers=ada).status_code == 200
    stream = open_stream(http.base_url, game_id, ada_seat)
    frames = (m for m in messages(stream) if m.event in ("presence", "message"))
    assert next(frames).event == "presence", "the stream is open"
    from_bo = http.post(f"/v1/games/{game_id}/messages", json={"code": "hello"}, headers=auth(bo_seat))
    assert from_bo.status_code == 200 and from_bo.json()["player_id"] == bo_id
    from_cy = http.post(f"/v1/games/{game_id}/messages", json={"code": "wow"}, headers=auth(cy_seat))
    assert "player_id" not in from_cy.json()
    told = next(m for m in frames if m.event == "message")
    assert told.json() == from_cy.json(), "Bo's came first, and never reached Ada's stream"
    stream.close()
    assert http.get(f"/v1/games/{game_id}", headers=auth(ada_seat)).json()["messages"] == [from_cy.json()]
    shown = http.get(f"/v1/games/{game_id}", headers=auth(bo_seat)).json()["messages"]
    assert shown == [from_bo.json(), from_cy.json()], "the blocked player and everyone else see both"
    assert http.get(f"/v1/games/{game_id}").json()["messages"] == shown
    assert ada_id not in {m.get("player_id") for m in shown}, "Ada said nothing"
