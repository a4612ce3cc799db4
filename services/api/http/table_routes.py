"""The table-life routes on the v1 blueprint: rejoin codes, rematch, quick messages.

Handlers only parse, check and call :mod:`services.api.games.rejoin`, :mod:`services.api.games.rematch` and
:mod:`services.api.games.messages`.  (Presence has no route of its own: streams and long polls hold it,
:mod:`services.api.http.live_routes`.)
"""

from __future__ import annotations

from flask import Response, current_app, request

from services.api.games import messages, rejoin, rematch
from services.api.games.auth import bearer_token
from services.api.games.quotas import creator_ids
from services.api.http import request_schemas, response_schemas, table_schemas
from services.api.http.player_auth import seat_player
from services.api.http.rate_limits import client_address
from services.api.http.routes import collaborators, json_response, load_body, v1
from services.api.problems import ApiError


def _token() -> str:
    token = bearer_token(request.headers.get("Authorization"), required=True)
    assert token is not None
    return token


def _seat_token(seat: int) -> str:
    token = _token()
    if not 0 <= seat < 4:
        raise ApiError(404, "not_found", "Seats are numbered 0 to 3.")
    return token


def _seated(claimed: dict) -> Response:
    """A seat and its new token (ClaimedSeat): a redeemed code, a rematch."""
    etag = {"ETag": f'"{claimed["state"]["version"]}"'}
    return json_response(response_schemas.CLAIMED_SEAT, claimed, 200, etag)


@v1.post("/games/<game_id>/seats/<int(signed=True):seat>/rejoin-code")
def create_rejoin_code(game_id: str, seat: int) -> Response:
    token = _seat_token(seat)
    load_body(request_schemas.EMPTY_REQUEST, allow_empty=True)
    return json_response(table_schemas.REJOIN_CODE, rejoin.create_code(collaborators(), game_id, seat, token))


@v1.delete("/games/<game_id>/seats/<int(signed=True):seat>/rejoin-code")
def revoke_rejoin_code(game_id: str, seat: int) -> Response:
    token = _seat_token(seat)
    rejoin.revoke_code(collaborators(), game_id, seat, token)
    return Response(status=204)


@v1.post("/games/<game_id>/rejoin")
def redeem_rejoin_code(game_id: str) -> Response:
    """Its refusals count against ``REJOIN_RATE_LIMIT`` (:func:`services.api.http.rate_limits.limit_rejoins`)."""
    body = load_body(table_schemas.REJOIN_REQUEST)
    return _seated(rejoin.redeem(collaborators(), game_id, body["code"]))


@v1.post("/games/<game_id>/rematch")
def offer_rematch(game_id: str) -> Response:
    token = _token()
    load_body(request_schemas.EMPTY_REQUEST, allow_empty=True)
    ctx = collaborators()
    creators = creator_ids(client_address(), token) if ctx.quotas.active else ()  # the next game counts for them
    wait = float(current_app.config["REMATCH_WAIT_SECONDS"])
    return _seated(rematch.opt_in(ctx, game_id, token, wait, creators, seat_player()))


@v1.post("/games/<game_id>/messages")
def post_message(game_id: str) -> Response:
    token = _token()
    body = load_body(table_schemas.MESSAGE_REQUEST)
    return json_response(table_schemas.TABLE_MESSAGE, messages.post(collaborators(), game_id, token, body["code"]))
