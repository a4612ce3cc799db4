"""Player ids and player tokens.

A player token (``spt_`` and 256 random bits, URL-safe) is the player's only credential: no e-mail, no
password.  It is shown once (at creation, and at each rotation), kept by the player's client, sent as the
``Player-Token`` header, and stored only as its SHA-256 (``players.token_hash``, unique): a leaked table of
hashes gives no token, and a token is found by an index lookup of its hash, so no comparison of secrets
runs in the application.  The prefix tells a player token from a seat token at a glance (and to secret
scanners).  Player ids (``p_`` and 128 random bits) are public: they name a player in views and records.

A seat taken with the player token keeps its *mark* (:func:`token_mark`: ``spt:`` and the first 16 hex digits of
the stored hash, one-way, no secret), so a rotation, which changes the hash, releases the seats the old token took
(:mod:`services.api.games.seat_release`).
"""

from __future__ import annotations

import hashlib
import re
import secrets

TOKEN_PREFIX = "spt_"
TOKEN_BYTES = 32
ID_PREFIX = "p_"
MARK_PREFIX = "spt:"
MARK_DIGITS = 16  # 64 bits of the hash: two tokens of one player never share a mark
_TOKEN = re.compile(r"spt_[A-Za-z0-9_-]{43}")
_ID = re.compile(r"p_[A-Za-z0-9_-]{22}|computer-[a-z]{1,16}")


def new_player_id() -> str:
    return ID_PREFIX + secrets.token_urlsafe(16)


def new_player_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(TOKEN_BYTES)


def hash_player_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_mark(token_hash: str) -> str:
    """What a seat keeps of the player token that took it (its stored hash's ``token_hash``): changed by a rotation."""
    return MARK_PREFIX + token_hash[:MARK_DIGITS]


def well_formed_token(token: str) -> bool:
    """Whether ``token`` could be a player token (checked before any lookup: a header of any other shape is
    refused without touching the database)."""
    return _TOKEN.fullmatch(token) is not None


def well_formed_id(player_id: str) -> bool:
    """Whether ``player_id`` could name a player (a person's or a bot's, or a computer level's)."""
    return _ID.fullmatch(player_id) is not None
