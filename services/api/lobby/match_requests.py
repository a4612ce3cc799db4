"""A quick-match request as the API sees it: its bucket, its ids and secrets, and its answers.

- **Compatibility**: requests with the same resolved rules (every option) and the same clock share a *bucket*,
  named by a hash of the two (:func:`bucket_of`); a request's id starts with its bucket's name, so any process
  finds its bucket from the id alone.
- **Secrets**: the request's ``secret`` (256 random bits) is shown once, in the ``202``; the store keeps its
  hash.  The seat token the request will get is derived from the secret (:func:`seat_token_of`: an HMAC of it),
  so its hash is known before any group forms — a group's game is created with its people's seat-token hashes
  already in place, whoever creates it — and the token itself is computed from the secret the client presents
  on ``GET /v1/matches/{id}``: neither is stored in clear.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from typing import Any

import orjson

from services.api.games.seat_tokens import hash_token
from services.api.problems import ApiError, invalid_request
from services.api.store.matches import CANCELLED, EXPIRED, SEATED, SEATS, MatchLook, MatchRequest
from services.engine import RuleError, make_rules

BUCKET_HEX = 16
_MATCH_ID = re.compile(rf"^([0-9a-f]{{{BUCKET_HEX}}})\.[A-Za-z0-9_-]{{22}}$")
_SEAT_LABEL = b"spades-quick-match-seat"
STATUS = {SEATED: "seated", CANCELLED: "cancelled", EXPIRED: "expired"}  # else "waiting" (forming included)


def resolved_rules(request_rules: dict[str, Any]) -> dict[str, Any]:
    """A match request's ``rules`` (as a create request's) resolved to every option; 400 or 422 as a create."""
    overrides = dict(request_rules)
    preset = overrides.pop("preset")
    try:
        return make_rules(preset, **overrides).to_dict()
    except RuleError as error:
        errors = [{"field": f"rules.{name}", "message": error.message} for name in error.options]
        if len(error.options) == 1:
            raise invalid_request(errors) from None
        detail = f"rules.{error.options[0]} and rules.{error.options[1]}: {error.message}"
        raise ApiError(422, "invalid_rules", detail, errors=errors) from None


def bucket_spec(rules: dict[str, Any], clock: str) -> str:
    """The bucket's spec as stored: what its games are created with."""
    return orjson.dumps({"rules": rules, "clock": clock}, option=orjson.OPT_SORT_KEYS).decode()


def bucket_of(spec: str) -> str:
    return hashlib.sha256(spec.encode()).hexdigest()[:BUCKET_HEX]


def new_match_id(bucket: str) -> str:
    return f"{bucket}.{secrets.token_urlsafe(16)}"


def bucket_of_id(match_id: str) -> str:
    """The bucket a request id names; 404 for an id no request could have."""
    found = _MATCH_ID.match(match_id)
    if found is None:
        raise ApiError(404, "not_found", "No such match request (it may have ended long ago).")
    return found.group(1)


def seat_token_of(secret: str) -> str:
    """The seat token a request's secret gives (43 URL-safe characters, as every seat token)."""
    digest = hmac.new(secret.encode("utf-8", "surrogatepass"), _SEAT_LABEL, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def check_secret(request: MatchRequest, secret: str | None) -> None:
    """401 unless ``secret`` is the request's."""
    if secret is None or not hmac.compare_digest(hash_token(secret), request.secret_hash):
        raise ApiError(401, "unauthorized", "Send the match request's secret: 'Authorization: Bearer <secret>'.")


def match_view(look: MatchLook, secret: str, now_ms: int) -> dict[str, Any]:
    """``GET /v1/matches/{id}``'s body (openapi.yaml ``Match``): the seat and its token once seated; while it
    waits, the people found for it of the table's seats and the level of the computers that would fill the rest."""
    request = look.request
    status = STATUS.get(request.status, "waiting")
    seated = status == "seated"
    waiting = status == "waiting"
    return {
        "match_id": request.match_id,
        "status": status,
        "created_ms": request.created_ms,
        "expires_ms": request.deadline_ms,
        "server_time_ms": now_ms,
        "game_id": request.game_id if seated else None,
        "seat": request.seat if seated else None,
        "token": seat_token_of(secret) if seated else None,
        "found": look.found if waiting else None,
        "seats": SEATS,
        "fill_level": look.fill_level if waiting else None,
    }
