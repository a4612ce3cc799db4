"""The operator API on the v1 blueprint: the fair-play watch's flags, listed and decided
(:mod:`services.api.ratings.flags`); the pairing bans are checked by
:func:`services.api.http.player_auth.check_not_banned`.

The operator API answers only a request whose ``Authorization: Bearer`` is the server's ``OPERATOR_TOKEN``, or
``OPERATOR_TOKEN_PREVIOUS`` while a new token rolls out (compared in constant time): none is a ``401``, a player's token or a seat's a ``403 operator_only``, as is every
token on a server with no ``OPERATOR_TOKEN`` (nobody is its operator).
"""

from __future__ import annotations

import hmac

import orjson
from flask import Response, current_app, request
from marshmallow import Schema, ValidationError, fields, validate

from services.api.config import operator_tokens
from services.api.http.record_routes import records_engine
from services.api.http.request_schemas import QueryInteger, StrictSchema, StrictString
from services.api.http.routes import load_body, v1
from services.api.problems import ApiError, flatten_messages, invalid_request
from services.api.ratings import flags
from services.api.store.protocol import now_ms

MAX_FLAGS_PAGE = 100


class FlagsQuery(Schema):
    status = fields.String(load_default=flags.OPEN, validate=validate.OneOf(flags.STATUSES))
    limit = QueryInteger(load_default=50, validate=validate.Range(1, MAX_FLAGS_PAGE))
    after = fields.String(load_default=None, validate=validate.Length(max=40))


class DecisionRequest(StrictSchema):
    decision = StrictString(required=True, validate=validate.OneOf(tuple(flags.DECISIONS)))


FLAGS_QUERY = FlagsQuery()
DECISION_REQUEST = DecisionRequest()


def _operator() -> None:
    """``401`` without a bearer token; ``403 operator_only`` for any token but ``OPERATOR_TOKEN`` (every token on
    a server with none set: nobody is its operator)."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "unauthorized", "The operator API needs 'Authorization: Bearer <operator token>'.")
    given = token.strip().encode()
    matches = [hmac.compare_digest(given, expected.encode()) for expected in operator_tokens(current_app.config)]
    if not any(matches):
        raise ApiError(403, "operator_only", "Only the server's operator token may use the operator API.")


def _json(body: object) -> Response:
    return Response(orjson.dumps(body), 200, [("Content-Type", "application/json"), ("Cache-Control", "no-store")])


@v1.get("/operator/flags")
def list_flags() -> Response:
    """The fair-play flags of a status, oldest first."""
    _operator()
    try:
        query = FLAGS_QUERY.load(request.args.to_dict())
    except ValidationError as error:
        raise invalid_request(flatten_messages(error.messages)) from None
    found = flags.list_flags(records_engine(), query["status"], query["limit"], query["after"])
    last = found[-1]["id"] if len(found) == query["limit"] else None
    return _json({"flags": found, "next": last})


@v1.post("/operator/flags/<flag_id>/decision")
def decide_flag(flag_id: str) -> Response:
    """Clear or confirm a flag (``409 flag_decided`` once decided)."""
    _operator()
    body = load_body(DECISION_REQUEST)
    return _json(flags.decide(records_engine(), flag_id, body["decision"], now_ms()))
