"""Player ids and tokens: their shapes, their randomness, and a token kept only as its SHA-256."""

from __future__ import annotations

import hashlib

from services.api.players.tokens import (
    hash_player_token,
    new_player_id,
    new_player_token,
    well_formed_id,
    well_formed_token,
)


def test_a_token_is_spt_and_256_random_bits_and_is_stored_as_its_sha256():
    tokens = {new_player_token() for _ in range(200)}
    assert len(tokens) == 200
    for token in tokens:
        assert token.startswith("spt_") and len(token) == 4 + 43 and well_formed_token(token)
        assert hash_player_token(token) == hashlib.sha256(token.encode()).hexdigest()
        assert len(hash_player_token(token)) == 64


def test_a_player_id_is_p_and_128_random_bits():
    ids = {new_player_id() for _ in range(200)}
    assert len(ids) == 200
    assert all(player_id.startswith("p_") and len(player_id) == 24 and well_formed_id(player_id) for player_id in ids)


def test_other_shapes_are_refused_before_any_lookup():
    token = new_player_token()
    for bad in ("", "spt_", token[:-1], token + "x", "Bearer " + token, token.replace("spt_", "sst_"), token + "\n"):
        assert not well_formed_token(bad), bad
    assert well_formed_id("computer-hard")
    for bad in ("", "p_short", "computer-", "computer-HARD", "../etc", "p_" + "a" * 40):
        assert not well_formed_id(bad), bad
