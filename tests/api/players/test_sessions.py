"""Device sessions, link codes and recovery codes on SQLite and PostgreSQL: a device signed in by a link code or a
recovery code gets a session naming its player; each refusal (a wrong, expired or used link code, a used recovery
code, a revoked session) has its own code and changes nothing; sign-out everywhere keeps the asking device; last
seen moves at most once a minute; a deletion takes every device with it.  The clock is a parameter: no sleeps."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine, func, select

from services.api.players.credentials import shown
from services.api.players.device_codes import MAX_LINK_CODE_MS, DeviceCodes
from services.api.players.names import display_name
from services.api.players.repository import PlayerRepository
from services.api.players.sessions import LAST_SEEN_STEP_MS, Sessions, device_name
from services.api.players.tokens import hash_player_token, token_mark
from services.api.problems import ApiError
from services.api.records.schema import link_codes, player_sessions, recovery_codes

T = 1_800_000_000_000  # a moment, in Unix ms
MINUTES = 60_000


def refused(call, *args) -> str:
    with pytest.raises(ApiError) as caught:
        call(*args)
    return caught.value.code


def rows(engine: Engine, table) -> list[tuple]:
    with engine.connect() as connection:
        return [tuple(row) for row in connection.execute(select(table).order_by(*table.primary_key.columns))]


@pytest.fixture
def ada(engine: Engine):
    player, _ = PlayerRepository(engine).create(display_name("Ada"), "person")
    return player


def test_a_link_code_signs_one_device_in_once_and_each_refusal_has_its_code(engine: Engine, ada):
    codes, sessions = DeviceCodes(engine), Sessions(engine)
    code, expires = codes.new_link_code(ada.id, T, 10 * MINUTES)
    assert expires == T + 10 * MINUTES
    assert code not in str(rows(engine, link_codes))  # only its hash is kept
    player, session, credential = codes.sign_in_with_link_code(shown(code).lower(), "Phone", T + MINUTES)
    assert (player.id, player.name, session.name, session.via) == (ada.id, "Ada", "Phone", "link")
    assert sessions.find(credential, T + MINUTES) == (player, session)
    before = rows(engine, player_sessions), rows(engine, link_codes)
    assert refused(codes.sign_in_with_link_code, code, "Tablet", T + MINUTES) == "link_code_used"
    assert refused(codes.sign_in_with_link_code, "ZZZZ-ZZZZ", "Tablet", T) == "link_code_invalid"
    assert refused(codes.sign_in_with_link_code, "not a code", "Tablet", T) == "link_code_invalid"
    late, _ = codes.new_link_code(ada.id, T, 10 * MINUTES)
    assert refused(codes.sign_in_with_link_code, late, "Tablet", T + 10 * MINUTES) == "link_code_expired"
    assert rows(engine, player_sessions) == before[0]
    assert [row for row in rows(engine, link_codes) if row[4] is not None] == [r for r in before[1] if r[4]]
    with pytest.raises(ValueError):
        codes.new_link_code(ada.id, T, MAX_LINK_CODE_MS + 1)


def test_recovery_codes_are_a_set_each_used_once_and_a_new_set_replaces_the_old(engine: Engine, ada):
    codes = DeviceCodes(engine)
    first = codes.new_recovery_codes(ada.id, T)
    assert len(set(first)) == 10 and codes.recovery_codes_left(ada.id) == 10
    player, session, _ = codes.sign_in_with_recovery_code(shown(first[3]), device_name(""), T)
    assert (player.id, session.name, session.via) == (ada.id, "Device", "recovery")
    assert codes.recovery_codes_left(ada.id) == 9
    held = rows(engine, player_sessions)
    assert refused(codes.sign_in_with_recovery_code, first[3], "Again", T) == "recovery_code_used"
    assert refused(codes.sign_in_with_recovery_code, "0000-0000-0000-0000", "Again", T) == "recovery_code_invalid"
    assert rows(engine, player_sessions) == held
    second = codes.new_recovery_codes(ada.id, T + 1)
    assert refused(codes.sign_in_with_recovery_code, first[0], "Old", T) == "recovery_code_invalid"
    assert codes.recovery_codes_left(ada.id) == 10 and len(rows(engine, recovery_codes)) == 10
    assert codes.sign_in_with_recovery_code(second[0], "New", T)[0].id == ada.id


def test_a_revoked_session_is_refused_and_sign_out_everywhere_keeps_the_asking_device(engine: Engine, ada):
    codes, sessions = DeviceCodes(engine), Sessions(engine)
    made = [
        codes.sign_in_with_link_code(codes.new_link_code(ada.id, T, MINUTES)[0], name, T + i)
        for i, name in enumerate("ABC")
    ]
    (_, a, a_key), (_, b, b_key), (_, c, c_key) = made
    assert [s.name for s in sessions.list(ada.id)] == ["A", "B", "C"]
    sessions.revoke(ada.id, b.id, T)
    sessions.revoke(ada.id, b.id, T)  # again: nothing changes
    assert refused(sessions.find, b_key, T) == "session_revoked"
    other, _ = PlayerRepository(engine).create(display_name("Bea"), "person")
    assert refused(sessions.revoke, other.id, a.id, T) == "session_not_found"
    assert sessions.revoke_all(ada.id, keep=c.id, now_ms=T) == 1
    assert refused(sessions.find, a_key, T) == "session_revoked"
    assert [s.id for s in sessions.list(ada.id)] == [c.id]
    assert sessions.find(c_key, T)[1].id == c.id
    assert sessions.revoke_all(ada.id, keep=None, now_ms=T) == 1 and sessions.list(ada.id) == []
    assert sessions.find("sps_" + "x" * 43, T) is None and sessions.find("spt_nobody", T) is None


def test_the_credentials_a_seat_names_are_dead_once_revoked_rotated_or_their_player_deleted(engine: Engine):
    """What a seat keeps of the credential that took it (a session's id, the player token's mark), judged by the
    players' repository (services.api.games.seat_release asks it)."""
    repository, codes, sessions = PlayerRepository(engine), DeviceCodes(engine), Sessions(engine)
    ada, token = repository.create(display_name("Ada"), "person")
    bea, _ = repository.create(display_name("Bea"), "person")
    _, phone, _ = codes.sign_in_with_link_code(codes.new_link_code(ada.id, T, MINUTES)[0], "Phone", T)
    _, laptop, _ = codes.sign_in_with_link_code(codes.new_link_code(ada.id, T, MINUTES)[0], "Laptop", T)
    _, beas, _ = codes.sign_in_with_link_code(codes.new_link_code(bea.id, T, MINUTES)[0], "Bea's", T)
    mark = token_mark(hash_player_token(token))
    named = [phone.id, laptop.id, mark]
    assert repository.lapsed(ada.id, named) == frozenset() and repository.lapsed(ada.id, []) == frozenset()
    assert repository.lapsed(ada.id, [beas.id]) == {beas.id}, "another player's session is not Ada's"
    sessions.revoke(ada.id, phone.id, T)
    assert repository.lapsed(ada.id, named) == {phone.id}
    fresh = repository.rotate(ada, token)
    assert repository.lapsed(ada.id, named) == {phone.id, mark}
    assert repository.lapsed(ada.id, [token_mark(hash_player_token(fresh))]) == frozenset()
    repository.delete(ada)
    assert repository.lapsed(ada.id, [laptop.id]) == {laptop.id}


def test_last_seen_moves_at_most_once_a_minute(engine: Engine, ada):
    codes, sessions = DeviceCodes(engine), Sessions(engine)
    _, _, key = codes.sign_in_with_link_code(codes.new_link_code(ada.id, T, MINUTES)[0], "Phone", T)

    def seen() -> int:
        return sessions.list(ada.id)[0].last_seen_ms

    sessions.find(key, T + LAST_SEEN_STEP_MS - 1)
    assert seen() == T
    sessions.find(key, T + LAST_SEEN_STEP_MS)
    assert seen() == T + LAST_SEEN_STEP_MS


def test_a_deleted_player_takes_its_sessions_and_codes_with_it(engine: Engine, ada):
    repository, codes, sessions = PlayerRepository(engine), DeviceCodes(engine), Sessions(engine)
    _, _, key = codes.sign_in_with_link_code(codes.new_link_code(ada.id, T, MINUTES)[0], "Phone", T)
    link, _ = codes.new_link_code(ada.id, T, MINUTES)
    recovery = codes.new_recovery_codes(ada.id, T)
    assert repository.delete(ada)
    assert sessions.find(key, T) is None
    assert refused(codes.sign_in_with_link_code, link, "X", T) == "link_code_invalid"
    assert refused(codes.sign_in_with_recovery_code, recovery[0], "X", T) == "recovery_code_invalid"
    with engine.connect() as connection:
        for table in (player_sessions, link_codes, recovery_codes):
            assert connection.execute(select(func.count()).select_from(table)).scalar_one() == 0


def test_a_device_name_is_trimmed_and_kept_printable():
    assert device_name("  Ada's   phone ") == "Ada's phone" and device_name(None) == "Device"
    assert device_name("ＰＣ") == "PC"
    for bad in ("a\u202eb", "tab\x00", "x" * 41):
        with pytest.raises(ValueError):
            device_name(bad)
