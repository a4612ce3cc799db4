"""Device sessions over HTTP, on gunicorn with Redis and each records database (SQLite, PostgreSQL); every response
checked against openapi.yaml.

A second device signs in with a link code and is the same player (its session works wherever the player token
does, and seats a game as that player); a code used twice, a wrong one, an expired one (``LINK_CODE_SECONDS`` 0 on a
server of its own: no sleeping), a recovery code used twice and a revoked session are each refused with their own
code and change nothing; a link code comes with the QR code of its link; signing out everywhere keeps the asking
device; the link codes' and sign-ins' limits answer 429.  A dead credential (a revoked session, a rotated player
token, a deleted player) releases the seats it took and no other."""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import pytest

from services.api.http.link_qr import absolute_link, qr_svg

from .contract import ContractSession, records_server

pytestmark = pytest.mark.integration
NO_LIMITS = {"PLAYER_CREATE_RATE_LIMIT": "", "LINK_CODE_RATE_LIMIT": "", "LINK_CODE_ADDRESS_RATE_LIMIT": ""}


@pytest.fixture(params=["sqlite", "postgresql"])
def session(request, gunicorn_factory, private_redis_url, tmp_path) -> Iterator[ContractSession]:
    yield records_server(request, gunicorn_factory, private_redis_url, tmp_path, **NO_LIMITS, SIGN_IN_RATE_LIMIT="")


@pytest.fixture(params=["sqlite"])
def strict(request, gunicorn_factory, private_redis_url, tmp_path) -> Iterator[ContractSession]:
    """A server whose link codes expire as they are made, with small limits."""
    limits = {
        "RATE_LIMIT_ENABLED": "1",
        "LINK_CODE_RATE_LIMIT": "2/hour",
        "LINK_CODE_ADDRESS_RATE_LIMIT": "4/hour",
        "SIGN_IN_RATE_LIMIT": "3/hour",
    }
    yield records_server(
        request,
        gunicorn_factory,
        private_redis_url,
        tmp_path,
        PLAYER_CREATE_RATE_LIMIT="",
        LINK_CODE_SECONDS="0",
        **limits,
    )


def as_player(token: str) -> dict[str, str]:
    return {"Player-Token": token}


def make_player(http: ContractSession, name: str) -> tuple[str, str]:
    """A new player named ``name`` and a random tail (the PostgreSQL database is the session's: names repeat)."""
    created = http.post("/v1/players", json={"name": f"{name} {secrets.token_hex(4)}"})
    assert created.status_code == 201, created.text
    return created.json()["player"]["id"], created.json()["token"]


def code(response) -> str:
    return response.json()["code"]


def link_code(http: ContractSession, token: str) -> str:
    made = http.post("/v1/players/me/link-codes", headers=as_player(token))
    assert made.status_code == 201, made.text
    assert made.json()["link"] == "/play#link=" + made.json()["code"].replace("-", "")
    # the QR code holds the link as an absolute address on the server asked (tests/api/http/test_link_qr.py: drawn
    # faithfully)
    assert made.json()["qr_svg"] == qr_svg(absolute_link(http.base_url + "/", made.json()["link"]))
    return made.json()["code"]


def sign_in(http: ContractSession, **body: str):
    return http.post("/v1/sessions", json=body)


def sessions_of(http: ContractSession, token: str) -> list[tuple[str, bool]]:
    listed = http.get("/v1/players/me/sessions", headers=as_player(token))
    assert listed.status_code == 200, listed.text
    return [(s["name"], s["current"]) for s in listed.json()["sessions"]]


def test_a_second_device_signs_in_by_link_code_and_is_the_same_player(session: ContractSession):
    ada, token = make_player(session, "Ada")
    code_text = link_code(session, token)
    signed = sign_in(session, link_code=code_text.lower(), device_name="  Phone ")
    assert signed.status_code == 201, signed.text
    phone = signed.json()["token"]
    assert signed.json()["player"]["id"] == ada and signed.json()["session"]["name"] == "Phone"
    me = session.get("/v1/players/me", headers=as_player(phone))
    assert (me.status_code, me.json()["id"]) == (200, ada) and me.json()["name"].startswith("Ada ")
    assert sessions_of(session, phone) == [("Phone", True)]
    assert sessions_of(session, token) == [("Phone", False)]

    seats = [{"type": "human", "player": True}, {"type": "open"}, {"type": "ai"}, {"type": "ai"}]
    created = session.post("/v1/games", json={"rules": {}, "seats": seats}, headers=as_player(phone))
    assert created.status_code == 201, created.text
    view = session.get(f"/v1/games/{created.json()['game_id']}").json()
    assert view["seats"][0]["player"]["id"] == ada  # the session seats its player, as the token does

    # a session is not the player token: it cannot replace it
    assert code(session.post("/v1/players/me/token", headers=as_player(phone))) == "forbidden"
    before = sessions_of(session, token)
    assert code(sign_in(session, link_code=code_text)) == "link_code_used"
    assert code(sign_in(session, link_code="ZZZZ-ZZZZ")) == "link_code_invalid"
    assert code(sign_in(session, link_code=code_text, recovery_code="0000")) == "invalid_request"
    assert sessions_of(session, token) == before
    assert session.checked > 10


def test_recovery_codes_sign_in_once_each_and_a_new_set_replaces_the_old(session: ContractSession):
    ada, token = make_player(session, "Ada")
    made = session.post("/v1/players/me/recovery-codes", headers=as_player(token))
    assert made.status_code == 201, made.text
    codes = made.json()["codes"]
    assert len(set(codes)) == 10
    laptop = sign_in(session, recovery_code=codes[0], device_name="Laptop")
    assert laptop.status_code == 201 and laptop.json()["player"]["id"] == ada
    before = sessions_of(session, token)
    assert code(sign_in(session, recovery_code=codes[0])) == "recovery_code_used"
    assert code(sign_in(session, recovery_code="0000-0000-0000-0000")) == "recovery_code_invalid"
    fresh = session.post("/v1/players/me/recovery-codes", headers=as_player(laptop.json()["token"])).json()["codes"]
    assert code(sign_in(session, recovery_code=codes[1])) == "recovery_code_invalid"  # the old set is gone
    assert sessions_of(session, token) == before
    assert sign_in(session, recovery_code=fresh[0]).status_code == 201


def test_a_revoked_session_is_refused_at_its_next_request_and_sign_out_everywhere_keeps_this_device(
    session: ContractSession,
):
    _, token = make_player(session, "Ada")
    devices = {}
    for name in ("Phone", "Tablet", "Laptop"):
        devices[name] = sign_in(session, link_code=link_code(session, token), device_name=name).json()["token"]
    listed = session.get("/v1/players/me/sessions", headers=as_player(devices["Phone"])).json()["sessions"]
    tablet = next(s["id"] for s in listed if s["name"] == "Tablet")
    assert session.delete(f"/v1/players/me/sessions/{tablet}", headers=as_player(devices["Phone"])).status_code == 204
    refused = session.get("/v1/players/me", headers=as_player(devices["Tablet"]))
    assert (refused.status_code, code(refused)) == (401, "session_revoked")
    assert code(session.post("/v1/players/me/link-codes", headers=as_player(devices["Tablet"]))) == "session_revoked"
    assert code(session.delete("/v1/players/me/sessions/ses_nobody", headers=as_player(token))) == "session_not_found"
    assert sorted(sessions_of(session, token)) == [("Laptop", False), ("Phone", False)]

    left = session.delete("/v1/players/me/sessions", headers=as_player(devices["Laptop"]))
    assert left.status_code == 200 and [s["name"] for s in left.json()["sessions"]] == ["Laptop"]
    assert code(session.get("/v1/players/me", headers=as_player(devices["Phone"]))) == "session_revoked"
    assert session.get("/v1/players/me", headers=as_player(devices["Laptop"])).status_code == 200
    assert session.delete("/v1/players/me/sessions", headers=as_player(token)).json()["sessions"] == []
    assert code(session.get("/v1/players/me", headers=as_player(devices["Laptop"]))) == "session_revoked"
    assert session.get("/v1/players/me", headers=as_player(token)).status_code == 200  # the token is untouched

    assert session.delete("/v1/players/me", headers=as_player(token)).status_code == 204
    assert code(session.get("/v1/players/me", headers=as_player(devices["Laptop"]))) == "player_token_invalid"


def seat_taken_with(http: ContractSession, credential: str) -> tuple[str, str]:
    """A game (no clock) whose seat 0 was taken with ``credential`` (a session or the player token): its id and the
    seat's token."""
    seats = [{"type": "human", "player": True}, {"type": "human"}, {"type": "ai"}, {"type": "ai"}]
    created = http.post("/v1/games", json={"seats": seats, "options": {"clock": "none"}}, headers=as_player(credential))
    assert created.status_code == 201, created.text
    return created.json()["game_id"], created.json()["seats"][0]["token"]


def holds(http: ContractSession, game_id: str, seat_token: str) -> bool:
    """Whether ``seat_token`` still holds its seat (``401 unauthorized`` once it does not)."""
    answer = http.get(f"/v1/games/{game_id}", headers={"Authorization": f"Bearer {seat_token}"})
    assert answer.status_code in (200, 401), answer.text
    return answer.status_code == 200


def test_a_dead_credential_releases_the_seats_it_took_and_nothing_else(session: ContractSession):
    """Revoking a device's session, rotating the player token and signing out everywhere each release the seats
    the dead credential took (their tokens ``401``, the seat still the player's, taken back on a trusted device);
    the seats a live credential took are untouched; a deletion leaves every seat a credential of the player took."""
    ada, token = make_player(session, "Ada")
    phone = sign_in(session, link_code=link_code(session, token), device_name="Phone").json()["token"]
    laptop = sign_in(session, link_code=link_code(session, token), device_name="Laptop").json()["token"]
    on_phone, on_laptop, on_token = (seat_taken_with(session, c) for c in (phone, laptop, token))
    versions = {g: session.get(f"/v1/games/{g}").json()["version"] for g, _ in (on_laptop, on_token)}
    listed = session.get("/v1/players/me/sessions", headers=as_player(laptop)).json()["sessions"]
    phone_id = next(s["id"] for s in listed if s["name"] == "Phone")

    assert session.delete(f"/v1/players/me/sessions/{phone_id}", headers=as_player(laptop)).status_code == 204
    assert not holds(session, *on_phone)
    view = session.get(f"/v1/games/{on_phone[0]}").json()
    assert (view["seats"][0]["type"], view["seats"][0]["player"]["id"]) == ("human", ada)  # still hers
    last = session.get(f"/v1/games/{on_phone[0]}/events", params={"after": view["last_seq"] - 1}).json()["events"]
    assert [(e["type"], e["data"]) for e in last] == [("seat_released", {"seat": 0})]
    assert holds(session, *on_laptop) and holds(session, *on_token)
    assert {g: session.get(f"/v1/games/{g}").json()["version"] for g, _ in (on_laptop, on_token)} == versions
    mine = session.get("/v1/players/me/live-games", headers=as_player(laptop)).json()["games"]
    assert sorted(g["game_id"] for g in mine) == sorted(g for g, _ in (on_phone, on_laptop, on_token))
    taken = session.post(f"/v1/games/{on_phone[0]}/seats/0/take", headers=as_player(laptop))
    assert taken.status_code == 200, taken.text
    on_phone = (on_phone[0], taken.json()["token"])  # now the laptop's
    assert holds(session, *on_phone)

    rotated = session.post("/v1/players/me/token", headers=as_player(token))
    assert rotated.status_code == 200, rotated.text
    token = rotated.json()["token"]
    assert not holds(session, *on_token)
    assert holds(session, *on_laptop) and holds(session, *on_phone)  # the laptop's session took those

    on_new_token = seat_taken_with(session, token)
    signed_out = session.delete("/v1/players/me/sessions", headers=as_player(token))
    assert signed_out.status_code == 200 and signed_out.json()["sessions"] == []
    assert not holds(session, *on_laptop) and not holds(session, *on_phone)
    assert holds(session, *on_new_token)

    assert session.delete("/v1/players/me", headers=as_player(token)).status_code == 204
    assert not holds(session, *on_new_token)
    for game_id in (on_phone[0], on_laptop[0], on_token[0], on_new_token[0]):
        seat = session.get(f"/v1/games/{game_id}").json()["seats"][0]
        assert seat["type"] != "human" and seat["claimable"], "left: a stand-in plays it until someone claims it"


def test_an_expired_link_code_is_refused_and_the_limits_answer_429(strict: ContractSession):
    _, ada = make_player(strict, "Ada")
    _, bea = make_player(strict, "Bea")
    expired = link_code(strict, ada)  # LINK_CODE_SECONDS 0: expired as it is made
    refused = sign_in(strict, link_code=expired)
    assert (refused.status_code, code(refused)) == (410, "link_code_expired")
    assert sessions_of(strict, ada) == []
    link_code(strict, ada)
    per_player = strict.post("/v1/players/me/link-codes", headers=as_player(ada))  # Ada's third: 2 an hour
    assert (per_player.status_code, code(per_player)) == (429, "link_code_rate_limited")
    assert int(per_player.headers["Retry-After"]) >= 1
    link_code(strict, bea)  # Bea's first, the address's fourth
    per_address = strict.post("/v1/players/me/link-codes", headers=as_player(bea))
    assert (per_address.status_code, code(per_address)) == (429, "link_code_rate_limited")
    assert code(sign_in(strict, link_code="ZZZZ-ZZZZ")) == "link_code_invalid"
    assert code(sign_in(strict, recovery_code="0000-0000-0000-0000")) == "recovery_code_invalid"
    limited = sign_in(strict, link_code="ZZZZ-ZZZZ")  # the fourth refused sign-in: 3 an hour
    assert (limited.status_code, code(limited)) == (429, "sign_in_rate_limited")
