"""Passkeys over HTTP, on gunicorn with Redis and each records database (SQLite, PostgreSQL), answered by a software
authenticator (:mod:`tests.api.soft_authenticator`); every response checked against openapi.yaml.

A signed-in player registers passkeys, lists and deletes them; a second device that knows nothing signs in with a
passkey (discoverable: the options name no credential) and is the same player, with a session ``via: passkey``.
Each refusal — a replayed challenge, an expired one (``PASSKEY_CHALLENGE_SECONDS`` 0 on a server of its own: no
sleeping), another site's origin, an unknown credential, a bad signature, a counter that did not grow — has its own
code and changes nothing; refused passkey sign-ins count against ``SIGN_IN_RATE_LIMIT`` and a sign-in's options
against ``PASSKEY_OPTIONS_RATE_LIMIT``.  The Python client signs in with a passkey too."""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import pytest

from spades_client import SpadesClient, Unauthorized

from .contract import ContractSession, records_server
from .soft_authenticator import SoftAuthenticator

pytestmark = pytest.mark.integration
NO_LIMITS = {"PLAYER_CREATE_RATE_LIMIT": "", "SIGN_IN_RATE_LIMIT": "", "PASSKEY_OPTIONS_RATE_LIMIT": ""}
ORIGIN = "http://localhost:8000"  # the page the browser would be on (the default origins: localhost, any port)


@pytest.fixture(params=["sqlite", "postgresql"])
def api(request, gunicorn_factory, private_redis_url, tmp_path) -> Iterator[ContractSession]:
    yield records_server(request, gunicorn_factory, private_redis_url, tmp_path, **NO_LIMITS)


@pytest.fixture(params=["sqlite"])
def strict(request, gunicorn_factory, private_redis_url, tmp_path) -> Iterator[ContractSession]:
    """A server whose challenges expire as they are made, with small limits."""
    limits = {"RATE_LIMIT_ENABLED": "1", "SIGN_IN_RATE_LIMIT": "3/hour", "PASSKEY_OPTIONS_RATE_LIMIT": "6/hour"}
    env = {"PLAYER_CREATE_RATE_LIMIT": "", "PASSKEY_CHALLENGE_SECONDS": "0", **limits}
    yield records_server(request, gunicorn_factory, private_redis_url, tmp_path, **env)


def as_player(token: str) -> dict[str, str]:
    return {"Player-Token": token}


def code(response) -> str:
    return response.json()["code"]


def make_player(http: ContractSession, name: str) -> tuple[str, str]:
    created = http.post("/v1/players", json={"name": f"{name} {secrets.token_hex(4)}"})
    assert created.status_code == 201, created.text
    return created.json()["player"]["id"], created.json()["token"]


def add_passkey(http: ContractSession, token: str, phone: SoftAuthenticator, name: str = "Phone") -> dict:
    options = http.post("/v1/players/me/passkey-options", headers=as_player(token))
    assert options.status_code == 200, options.text
    made = http.post(
        "/v1/players/me/passkeys", json={"credential": phone.create(options.json()["options"]), "name": name},
        headers=as_player(token),
    )  # fmt: skip
    assert made.status_code == 201, made.text
    return made.json()


def sign_in_options(http: ContractSession) -> dict:
    options = http.post("/v1/sessions/passkey-options")
    assert options.status_code == 200, options.text
    return options.json()["options"]


def sign_in(http: ContractSession, answer: dict, device: str = "Laptop"):
    return http.post("/v1/sessions", json={"passkey": answer, "device_name": device})


def account(http: ContractSession, token: str) -> tuple[list, list]:
    """What a refusal must not change: the sessions and the passkeys (with their last use)."""
    sessions = http.get("/v1/players/me/sessions", headers=as_player(token)).json()["sessions"]
    passkeys = http.get("/v1/players/me/passkeys", headers=as_player(token)).json()["passkeys"]
    return sessions, passkeys


def test_a_device_that_knows_nothing_signs_in_with_a_passkey_and_is_the_same_player(api: ContractSession):
    ada, token = make_player(api, "Ada")
    phone = SoftAuthenticator(ORIGIN)
    first = add_passkey(api, token, phone, "  My   phone ")
    assert (first["name"], first["last_used_at"], first["transports"]) == ("My phone", None, ["hybrid", "internal"])
    key = SoftAuthenticator(ORIGIN)
    second = add_passkey(api, token, key, "")
    assert second["name"] == "Passkey"
    options = sign_in_options(api)
    assert options["allowCredentials"] == [] and options["rpId"] == "localhost"

    signed = sign_in(api, phone.get(options), "Laptop")
    assert signed.status_code == 201, signed.text
    laptop = signed.json()["token"]
    assert signed.json()["player"]["id"] == ada and signed.json()["session"]["via"] == "passkey"
    me = api.get("/v1/players/me", headers=as_player(laptop))
    assert (me.status_code, me.json()["id"]) == (200, ada) and me.json()["name"].startswith("Ada ")
    sessions, passkeys = account(api, laptop)
    assert [(s["name"], s["via"], s["current"]) for s in sessions] == [("Laptop", "passkey", True)]
    assert [p["id"] for p in passkeys] == [first["id"], second["id"]] and passkeys[0]["last_used_at"] is not None

    deleted = api.delete(f"/v1/players/me/passkeys/{first['id']}", headers=as_player(laptop))  # a session may
    assert deleted.status_code == 204
    assert code(api.delete(f"/v1/players/me/passkeys/{first['id']}", headers=as_player(token))) == "passkey_not_found"
    assert code(api.delete("/v1/players/me/passkeys/pk_nope", headers=as_player(token))) == "passkey_not_found"
    assert code(sign_in(api, phone.get(sign_in_options(api)))) == "passkey_unknown"
    assert api.get("/v1/players/me", headers=as_player(laptop)).status_code == 200  # its sessions stay
    assert code(api.get("/v1/players/me/passkeys")) == "player_token_invalid"
    both = {"passkey": phone.get(sign_in_options(api)), "link_code": "ABCD-EFGH"}
    assert code(api.post("/v1/sessions", json=both)) == "invalid_request"
    assert code(api.post("/v1/sessions", json={"passkey": {"id": "AA"}})) == "invalid_request"
    assert api.checked > 15

    tablet = SpadesClient(api.base_url)  # the Python client carries the WebAuthn JSON both ways
    created = tablet.sign_in(passkey=key.get(tablet.start_passkey_sign_in().options), device_name="Tablet")
    assert (created.player.id, created.session.via) == (ada, "passkey")
    assert [p.name for p in tablet.list_my_passkeys().passkeys] == ["Passkey"]
    tablet.delete_my_passkey(second["id"])
    with pytest.raises(Unauthorized) as refused:
        SpadesClient(api.base_url).sign_in(passkey=key.get(tablet.start_passkey_sign_in().options))
    assert refused.value.code == "passkey_unknown"
    assert tablet.start_passkey_registration().options["excludeCredentials"] == []


def test_each_refused_passkey_sign_in_has_its_code_and_changes_nothing(api: ContractSession):
    _, token = make_player(api, "Ada")
    phone = SoftAuthenticator(ORIGIN)
    add_passkey(api, token, phone)
    key = phone.credentials[0]
    options = sign_in_options(api)
    assert sign_in(api, phone.get(options)).status_code == 201
    before = account(api, token)
    answers = {
        "passkey_challenge_used": phone.get(options, credential=key),  # a replay: its challenge was answered
        "passkey_origin_invalid": phone.get(sign_in_options(api), origin="https://spades.evil.example"),
        "passkey_unknown": phone.get(sign_in_options(api), credential=phone.stranger()),
        "passkey_signature_invalid": phone.get(sign_in_options(api), bad_signature=True),
        "passkey_counter_stale": phone.get(sign_in_options(api), counter=1),  # the server saw 1 already
        "passkey_challenge_invalid": phone.get({**sign_in_options(api), "challenge": "bm8tc3VjaC1jaGFsbGVuZ2U"}),
    }
    for expected, answer in answers.items():
        refused = sign_in(api, answer, "Tablet")
        assert (refused.status_code, code(refused)) == ({"passkey_challenge_used": 410}.get(expected, 403), expected)
        assert account(api, token) == before, expected
    # a registration's refusals: another player's challenge, another site's page, a replay
    _, bea = make_player(api, "Bea")
    for_bea = phone.create(api.post("/v1/players/me/passkey-options", headers=as_player(bea)).json()["options"])
    for_ada = api.post("/v1/players/me/passkeys", json={"credential": for_bea}, headers=as_player(token))
    assert code(for_ada) == "passkey_challenge_invalid"
    elsewhere = phone.create(
        api.post("/v1/players/me/passkey-options", headers=as_player(token)).json()["options"], origin="http://a.b"
    )
    assert code(api.post("/v1/players/me/passkeys", json={"credential": elsewhere}, headers=as_player(token))) == (
        "passkey_origin_invalid"
    )
    assert account(api, token) == before
    assert api.post("/v1/players/me/passkeys", json={"credential": for_bea}, headers=as_player(bea)).status_code == 201
    replay = api.post("/v1/players/me/passkeys", json={"credential": for_bea}, headers=as_player(bea))
    assert (replay.status_code, code(replay)) == (410, "passkey_challenge_used")


def test_an_expired_challenge_is_refused_and_the_limits_answer_429(strict: ContractSession):
    _, token = make_player(strict, "Ada")
    phone = SoftAuthenticator(ORIGIN)
    options = strict.post("/v1/players/me/passkey-options", headers=as_player(token)).json()["options"]
    expired = strict.post(
        "/v1/players/me/passkeys", json={"credential": phone.create(options)}, headers=as_player(token)
    )
    assert (expired.status_code, code(expired)) == (410, "passkey_challenge_expired")
    assert strict.get("/v1/players/me/passkeys", headers=as_player(token)).json()["passkeys"] == []
    answer = phone.get(sign_in_options(strict))  # options 1; expired as they are made
    refused = sign_in(strict, answer)
    assert (refused.status_code, code(refused)) == (410, "passkey_challenge_expired")
    for _ in range(2):  # refused sign-ins 2 and 3 (3 an hour)
        assert code(sign_in(strict, phone.get(sign_in_options(strict)))) == "passkey_challenge_expired"
    limited = sign_in(strict, phone.get(sign_in_options(strict)))  # the fourth refused sign-in
    assert (limited.status_code, code(limited)) == (429, "sign_in_rate_limited")
    for _ in range(2):
        sign_in_options(strict)  # options 5 and 6 (6 an hour)
    too_many = strict.post("/v1/sessions/passkey-options")
    assert (too_many.status_code, code(too_many)) == (429, "passkey_options_rate_limited")
    assert int(too_many.headers["Retry-After"]) >= 1
