"""Seat tokens: 256 random bits handed out once, stored only as SHA-256 hashes."""

from __future__ import annotations

import hashlib
import hmac
import secrets

TOKEN_BYTES = 32


def new_token() -> str:
    """A fresh bearer token (URL-safe, 43 characters, 256 bits)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_game_id() -> str:
    """An unguessable game id (128 bits)."""
    return secrets.token_urlsafe(16)


def seat_of_token(token: str, token_hashes: list[str | None]) -> int | None:
    """The seat whose stored hash matches ``token``, compared in constant time.

    Every seat is compared (no early exit) so timing reveals nothing.
    """
    digest = hash_token(token)
    found = None
    for seat, stored in enumerate(token_hashes):
        if stored is not None and hmac.compare_digest(digest, stored):
            found = seat
    return found
