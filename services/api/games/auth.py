"""Seat tokens on requests: the one parser of ``Authorization: Bearer <token>``
(the routes and the per-token rate limit both use it) and a token's seat."""

from __future__ import annotations

from services.api.games.record import GameRecord
from services.api.games.seat_tokens import seat_of_token
from services.api.problems import ApiError

MAX_TOKEN_LENGTH = 256


def token_of(header: str | None) -> str | None:
    """The token of a well-formed ``Bearer <token>`` header, else None (no header or a malformed one)."""
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > MAX_TOKEN_LENGTH:
        return None
    return token


def bearer_token(header: str | None, required: bool) -> str | None:
    """The request's seat token: None without a header (401 if ``required``), 401 for a malformed one."""
    if not header:
        if required:
            raise ApiError(401, "unauthorized", "This request needs 'Authorization: Bearer <seat token>'.")
        return None
    token = token_of(header)
    if token is None:
        raise ApiError(401, "unauthorized", "The Authorization header must be 'Bearer <seat token>'.")
    return token


def seat_for(record: GameRecord, token: str | None) -> int | None:
    """The seat ``token`` holds in this game; 401 for a token of no seat here."""
    if token is None:
        return None
    seat = seat_of_token(token, [s.token_hash for s in record.seats])
    if seat is None:
        raise no_seat()
    return seat


def no_seat() -> ApiError:
    """401 for a token that holds no seat of the game (any more: a seat changes hands)."""
    return ApiError(401, "unauthorized", "The token does not hold a seat in this game.")
