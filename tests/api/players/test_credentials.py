"""Device credentials, pure: a session credential's shape and prefix, codes read as people type them, and each kind
hashed under its own label."""

from __future__ import annotations

import pytest

from services.api.players import credentials
from services.api.players.credentials import (
    LINK_CODE_LENGTH,
    RECOVERY_CODE_LENGTH,
    digest,
    is_session_credential,
    new_code,
    new_session_credential,
    new_session_id,
    normalized,
    shown,
    well_formed_session,
    well_formed_session_id,
)
from services.api.players.tokens import new_player_token, well_formed_token


def test_a_session_credential_is_told_from_a_player_token_by_its_prefix():
    session, player = new_session_credential(), new_player_token()
    assert is_session_credential(session) and well_formed_session(session)
    assert not is_session_credential(player) and not well_formed_token(session)
    assert not well_formed_session(session + "x") and not well_formed_session("sps_short")
    assert well_formed_session_id(new_session_id()) and not well_formed_session_id("ses_x")
    assert new_session_credential() != session


@pytest.mark.parametrize("length", [LINK_CODE_LENGTH, RECOVERY_CODE_LENGTH])
def test_a_code_is_read_in_any_case_with_dashes_spaces_and_misread_letters(length: int):
    code = new_code(length)
    assert len(code) == length and set(code) <= set(credentials.ALPHABET)
    assert normalized(code, length) == code
    assert normalized(shown(code).lower(), length) == code
    assert normalized(" ".join(shown(code).split("-")), length) == code
    assert normalized(code, length + 1) is None


def test_misread_letters_are_the_digits_they_look_like_and_other_letters_are_no_code():
    assert normalized("oil0-OIL0", LINK_CODE_LENGTH) == "01100110"
    assert normalized("ABCD-EFGU", LINK_CODE_LENGTH) is None  # no U in Crockford's alphabet
    assert normalized("ABCD-EFG", LINK_CODE_LENGTH) is None
    assert normalized("A" * 1000, LINK_CODE_LENGTH) is None
    assert shown("ABCDEFGH") == "ABCD-EFGH"
    assert shown("0123456789ABCDEF") == "0123-4567-89AB-CDEF"


def test_each_kind_is_hashed_under_its_own_label():
    assert digest("link", "ABCDEFGH") != digest("recovery", "ABCDEFGH") != digest("session", "ABCDEFGH")
    assert len(digest("link", "ABCDEFGH")) == 64 and digest("link", "ABCDEFGH") == digest("link", "ABCDEFGH")
