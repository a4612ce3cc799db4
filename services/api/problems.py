"""RFC 9457 problem details: the one error format of the API.

Handlers raise :class:`ApiError`; the app turns it (and every Werkzeug HTTP
error, and Redis outages) into ``application/problem+json`` with a stable
``code`` that clients branch on.
"""

from __future__ import annotations

from typing import Any

from flask import Response, json

PROBLEM_TYPE_BASE = "urn:spades:problem:"
PROBLEM_MEDIA_TYPE = "application/problem+json"
MAX_INT64 = 2**63 - 1  # the largest number a signed 64-bit column (a BIGINT, SQLite's INTEGER) holds

TITLES: dict[str, str] = {
    "invalid_request": "The request is malformed or has invalid fields",
    "unauthorized": "A valid seat token is required",
    "forbidden": "This token may not do that",
    "not_found": "No such resource",
    "method_not_allowed": "Method not allowed",
    "not_your_turn": "It is not your turn",
    "seat_taken": "The seat is already taken",
    "waiting_for_players": "The game is waiting for open seats to be claimed",
    "game_over": "The game is over",
    "idempotency_key_reused": "The Idempotency-Key was used with a different request",
    "version_conflict": "The game has changed since the version in If-Match",
    "payload_too_large": "The request body is too large",
    "request_timeout": "The request body did not arrive in time",
    "unsupported_media_type": "The request body must be application/json",
    "illegal_move": "The rules do not allow that move",
    "invalid_rules": "These house rules do not make sense together",
    "unavailable": "The game store is unavailable; retry shortly",
    "not_replicated": "The change is not yet safe on the replicas; retry with the same Idempotency-Key",
    "hints_disabled": "Hints are turned off in this game",
    "hint_unavailable": "No AI worker answered the hint in time; retry later",
    "round_not_finished": "The round is still being played",
    "review_unavailable": "No AI worker answered the round review in time; retry later",
    "seeded_games_disabled": "This server does not create games with a chosen seed",
    "too_far_behind": "The events after that point are no longer kept",
    "create_rate_limited": "Too many games created from this address",
    "export_rate_limited": "Too many record exports from this address",
    "too_many_games": "Too many games in play",
    "too_many_computer_games": "Too many computer-only games in play",
    "too_many_waiting": "Too many requests waiting at once",
    "too_many_matches": "Too many quick-match requests waiting at once",
    "already_seated": "The match request has its seat already",
    "game_in_play": "The game is still being played",
    "records_unavailable": "The records database is unavailable; retry shortly",
    "seat_reserved": "The seat is kept for its player from the last game",
    "invalid_rejoin_code": "No seat has that rejoin code",
    "rejoin_rate_limited": "Too many refused rejoin codes from this address",
    "too_many_messages": "Too many quick messages from this seat",
    "player_token_invalid": "A valid player token is required",
    "player_not_found": "No such player",
    "name_taken": "Another player has that name",
    "player_seated": "This player holds a seat of this game already",
    "player_create_rate_limited": "Too many players created from this address",
    "pairing_banned": "Banned from pairing with strangers for now",
    "rated_play_closed": "Rated play with strangers is closed to this player",
    "operator_only": "Only the operator may do this",
    "flag_not_found": "No such flag",
    "flag_decided": "This flag was decided already",
    "session_revoked": "This device's session was revoked",
    "session_not_found": "No such session",
    "link_code_invalid": "No device made that link code",
    "link_code_expired": "The link code has expired",
    "link_code_used": "The link code was used already",
    "link_code_rate_limited": "Too many link codes made",
    "recovery_code_invalid": "No player has that recovery code",
    "recovery_code_used": "The recovery code was used already",
    "sign_in_rate_limited": "Too many refused sign-ins from this address",
    "event_not_found": "No such event",
    "event_full": "The event has all its pairs",
    "event_not_open": "The event has started",
    "already_in_event": "Already in a pair of this event",
    "not_event_creator": "Only the event's creator may do this",
    "too_few_pairs": "Too few pairs to start",
    "pair_not_found": "No such pair in this event",
    "not_invited": "This pair did not invite you",
    "not_in_pair": "You are not in this pair",
    "bots_not_allowed": "This event admits people only",
    "event_format_unsupported": "This service runs no events of that format",
    "event_rated_needs_clock": "A rated event needs a time control",
    "arena_needs_clock": "An arena needs a time control",
    "wrong_event_format": "The event is played another way",
    "entrant_not_found": "No such player in this arena",
    "not_entrant": "Only the player withdraws itself",
    "event_finished": "The arena is over",
    "partner_invalid": "A pair is two different players",
    "board_not_found": "No such board in this event",
    "internal_error": "Internal server error",
}


class ApiError(Exception):
    """An error response: HTTP status, stable code, human detail and extras."""

    def __init__(self, status: int, code: str, detail: str, *, retry_after: int | None = None, **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.retry_after = retry_after  # seconds for the Retry-After header (a 503 says 1 when unset)
        self.extra = extra


def problem_body(status: int, code: str, detail: str, **extra: Any) -> dict[str, Any]:
    body = {
        "type": PROBLEM_TYPE_BASE + code,
        "title": TITLES.get(code, code.replace("_", " ").capitalize()),
        "status": status,
        "detail": detail,
        "code": code,
    }
    body.update(extra)
    return body


def problem_response(error: ApiError, headers: dict[str, str] | None = None) -> Response:
    body = problem_body(error.status, error.code, error.detail, **error.extra)
    response = Response(json.dumps(body), status=error.status, mimetype=PROBLEM_MEDIA_TYPE)
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def invalid_request(errors: list[dict[str, str]], detail: str | None = None) -> ApiError:
    """A 400 naming each bad field as ``{"field", "message"}``."""
    detail = detail or "; ".join(f"{e['field']}: {e['message']}" for e in errors)
    return ApiError(400, "invalid_request", detail, errors=errors)


def ascii_int(text: str | None, maximum: int) -> int | None:
    """``text`` as a whole number written in ASCII digits only, at most ``maximum``; else None.

    The one rule for a number a client writes in a header, a query parameter or a cursor:
    ``str.isdigit()`` alone also takes ``"²"`` (which ``int()`` refuses) and ``"١"`` or ``"１"`` (which it reads),
    and a number no column or field holds must be refused before it reaches one. No sign, no spaces,
    and no more digits than ``maximum`` has."""
    if text is None or not 0 < len(text) <= len(str(maximum)) or not (text.isascii() and text.isdigit()):
        return None
    value = int(text)
    return value if value <= maximum else None


def int_param(text: str, field: str, maximum: int, message: str | None = None) -> int:
    """:func:`ascii_int` of a header or parameter a request sent, or a 400 naming ``field``."""
    value = ascii_int(text, maximum)
    if value is None:
        raise invalid_request([{"field": field, "message": message or f"must be an integer from 0 to {maximum}"}])
    return value


def flatten_messages(messages: Any, prefix: str = "") -> list[dict[str, str]]:
    """marshmallow's nested error dict as a flat list of ``{"field", "message"}``."""
    out: list[dict[str, str]] = []
    if isinstance(messages, dict):
        for key, value in messages.items():
            name = f"{prefix}.{key}" if prefix else str(key)
            if key == "_schema":
                name = prefix or "body"
            out.extend(flatten_messages(value, name))
    elif isinstance(messages, list | tuple):
        for item in messages:
            out.extend(flatten_messages(item, prefix))
    else:
        out.append({"field": prefix or "body", "message": str(messages)})
    return out
