"""Passkeys on SQLite and PostgreSQL, answered by a software authenticator: a player registers passkeys and signs a
device in with one (a session ``via: passkey``, the counter moved); each refusal — a replayed challenge, an expired
one, another site's origin, an unknown credential, a bad signature, a counter that did not grow, another player's
challenge — has its own code and changes nothing (the challenge too stays unspent); a deletion takes every passkey
with it.  The clock is a parameter: no sleeps."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine, select

from services.api.players.anonymise import delete_player
from services.api.players.names import display_name
from services.api.players.passkey_challenges import MAX_CHALLENGE_MS
from services.api.players.passkeys import MAX_PASSKEYS, Passkeys, passkey_name
from services.api.players.repository import PlayerRepository
from services.api.players.sessions import Sessions
from services.api.players.webauthn_checks import RelyingParty
from services.api.problems import ApiError
from services.api.records.schema import passkey_challenges, passkeys, player_sessions
from tests.api.soft_authenticator import SoftAuthenticator

T = 1_800_000_000_000
RP = RelyingParty("localhost", "Spades")
LIFE = MAX_CHALLENGE_MS


def refused(call, *args) -> str:
    with pytest.raises(ApiError) as caught:
        call(*args)
    return caught.value.code


def state(engine: Engine) -> tuple:
    with engine.connect() as connection:
        return tuple(
            sorted(tuple(row) for row in connection.execute(select(table)))
            for table in (passkeys, player_sessions, passkey_challenges)
        )


@pytest.fixture
def ada(engine: Engine):
    return PlayerRepository(engine).create(display_name("Ada"), "person")[0]


@pytest.fixture
def phone() -> SoftAuthenticator:
    return SoftAuthenticator("http://localhost:8000")


def registered(keys: Passkeys, player, authenticator: SoftAuthenticator, name: str = "Phone", now: int = T):
    return keys.register(player, authenticator.create(keys.registration_options(player, now, LIFE)), name, now)


def test_a_registered_passkey_signs_any_device_in_with_a_session_of_its_own(engine: Engine, ada, phone):
    keys = Passkeys(engine, RP)
    options = keys.registration_options(ada, T, LIFE)
    assert options["rp"] == {"name": "Spades", "id": "localhost"} and options["user"]["name"] == "Ada"
    assert options["authenticatorSelection"]["residentKey"] == "required"
    made = keys.register(ada, phone.create(options), "Phone", T)
    assert (made.name, made.transports, made.last_used_ms) == ("Phone", ("hybrid", "internal"), None)
    second = registered(keys, ada, SoftAuthenticator("http://localhost:8000"), "Key", T + 1)
    assert [p.id for p in keys.list(ada.id)] == [made.id, second.id]
    again = keys.registration_options(ada, T + 2, LIFE)
    assert len(again["excludeCredentials"]) == 2  # the authenticator makes no second passkey for the player

    sign_in = keys.sign_in_options(T + 3, LIFE)
    assert sign_in["allowCredentials"] == [] and sign_in["rpId"] == "localhost"  # discoverable: names no one
    player, session, credential = keys.sign_in(phone.get(sign_in), "Laptop", T + 4)
    assert (player.id, player.name, session.name, session.via) == (ada.id, "Ada", "Laptop", "passkey")
    assert Sessions(engine).find(credential, T + 4) == (player, session)
    used = next(p for p in keys.list(ada.id) if p.id == made.id)
    assert used.last_used_ms == T + 4
    with engine.connect() as connection:
        assert connection.execute(select(passkeys.c.sign_count).where(passkeys.c.id == made.id)).scalar() == 1

    keys.delete(ada.id, made.id)
    assert [p.id for p in keys.list(ada.id)] == [second.id]
    assert refused(keys.delete, ada.id, made.id) == "passkey_not_found"
    assert refused(keys.sign_in, phone.get(keys.sign_in_options(T + 5, LIFE)), "X", T + 5) == "passkey_unknown"
    assert Sessions(engine).find(credential, T + 6) is not None  # its sessions stay


def test_each_refusal_has_its_code_and_changes_nothing(engine: Engine, ada, phone):
    keys = Passkeys(engine, RP)
    made = registered(keys, ada, phone)
    key = phone.credentials[0]
    options = keys.sign_in_options(T, LIFE)
    keys.sign_in(phone.get(options), "Laptop", T + 1)
    cases = {
        "passkey_challenge_used": lambda: phone.get(options),  # a replay of a spent challenge
        "passkey_origin_invalid": lambda: phone.get(keys.sign_in_options(T, LIFE), origin="https://evil.example"),
        "passkey_unknown": lambda: phone.get(keys.sign_in_options(T, LIFE), credential=phone.stranger()),
        "passkey_signature_invalid": lambda: phone.get(keys.sign_in_options(T, LIFE), bad_signature=True),
        "passkey_counter_stale": lambda: phone.get(keys.sign_in_options(T, LIFE), counter=1),  # stored: 1
        "passkey_challenge_invalid": lambda: phone.get({**keys.sign_in_options(T, LIFE), "challenge": "AAAA"}),
        "passkey_invalid": lambda: phone.create({"rp": {"id": "localhost"}, "user": {"id": "cA"}, "challenge": "AA"}),
    }
    for code, answer in cases.items():
        made_answer = answer()
        before = state(engine)
        assert refused(keys.sign_in, made_answer, "Tablet", T + 2) == code
        assert state(engine) == before, code
    expired = phone.get(keys.sign_in_options(T, 0), credential=key, counter=9)
    assert refused(keys.sign_in, expired, "Tablet", T) == "passkey_challenge_expired"
    assert [(p.id, p.last_used_ms) for p in keys.list(ada.id)] == [(made.id, T + 1)]
    assert keys.sign_in(phone.get(keys.sign_in_options(T, LIFE), credential=key), "Tablet", T + 3)[1].via == "passkey"


def test_a_registration_refuses_another_players_challenge_a_replay_and_a_passkey_twice(engine: Engine, ada, phone):
    keys = Passkeys(engine, RP)
    bea = PlayerRepository(engine).create(display_name("Bea"), "person")[0]
    for_bea = phone.create(keys.registration_options(bea, T, LIFE))
    before = state(engine)[:2]
    assert refused(keys.register, ada, for_bea, "Phone", T) == "passkey_challenge_invalid"
    elsewhere = phone.create(keys.registration_options(ada, T, LIFE), origin="http://localhost.evil.example")
    assert refused(keys.register, ada, elsewhere, "Phone", T) == "passkey_origin_invalid"
    a_sign_in = phone.get(keys.sign_in_options(T, LIFE))
    assert refused(keys.register, ada, a_sign_in, "Phone", T) == "passkey_invalid"
    assert state(engine)[:2] == before
    keys.register(bea, for_bea, "Phone", T)
    assert refused(keys.register, bea, for_bea, "Phone", T) == "passkey_challenge_used"
    twice = phone.create(keys.registration_options(ada, T, LIFE), credential=phone.credentials[0])
    assert refused(keys.register, ada, twice, "Phone", T) == "passkey_registered"
    assert [p.name for p in keys.list(ada.id)] == []


def test_a_player_has_at_most_so_many_passkeys_and_a_deletion_takes_them_all(engine: Engine, ada):
    keys = Passkeys(engine, RP)
    for n in range(MAX_PASSKEYS):
        registered(keys, ada, SoftAuthenticator("http://localhost"), f"Key {n}")
    extra = SoftAuthenticator("http://localhost").create(keys.registration_options(ada, T, LIFE))
    assert refused(keys.register, ada, extra, "One more", T) == "too_many_passkeys"
    with engine.begin() as connection:
        assert delete_player(connection, ada.id, T)
    assert keys.list(ada.id) == []
    with engine.connect() as connection:
        assert (
            connection.execute(select(passkey_challenges).where(passkey_challenges.c.player_id == ada.id)).all() == []
        )


def test_a_passkeys_name_follows_the_device_names_rule():
    assert passkey_name(None) == passkey_name("   ") == "Passkey"
    assert passkey_name("  My   phone ") == "My phone"
    with pytest.raises(ValueError):
        passkey_name("bad\u200bname")
