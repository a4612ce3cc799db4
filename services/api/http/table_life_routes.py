"""The table-life routes on the v1 blueprint: rejoin codes and quick messages.

Handlers only parse, check and call :mod:`services.api.games.rejoin` and :mod:`services.api.games.messages`.
(Presence has no route of its own: streams and long polls hold it, :mod:`services.api.http.live_routes`; a
rematch is :mod:`services.api.http.rematch_routes`.)
"""

from __future__ import annotations

from flask import Response

from services.api.games import messages, rejoin
from services.api.http import request_schemas, table_life_schemas
from services.api.http.rate_limits import client_id
from services.api.http.routes import collaborators, json_response, load_body, required_token, seated, v1
from services.api.problems import ApiError


def _seat_token(seat: int) -> str:
    token = required_token()
    if not 0 <= seat < 4:
        raise ApiError(404, "not_found", "Seats are numbered 0 to 3.")
    return token


@v1.post("/games/<game_id>/seats/<int(signed=True):seat>/rejoin-code")
def create_rejoin_code(game_id: str, seat: int) -> Response:
    token = _seat_token(seat)
    load_body(request_schemas.EMPTY_REQUEST, allow_empty=True)
    return json_response(table_life_schemas.REJOIN_CODE, rejoin.create_code(collaborators(), game_id, seat, token))


@v1.delete("/games/<game_id>/seats/<int(signed=True):seat>/rejoin-code")
def revoke_rejoin_code(game_id: str, seat: int) -> Response:
    token = _seat_token(seat)
    rejoin.revoke_code(collaborators(), game_id, seat, token)
    return Response(status=204)


@v1.post("/games/<game_id>/rejoin")
def redeem_rejoin_code(game_id: str) -> Response:
    """Its refusals count against ``REJOIN_RATE_LIMIT`` (:func:`services.api.http.rate_limits.limit_rejoins`)."""
    body = load_body(table_life_schemas.REJOIN_REQUEST)
    return seated(rejoin.redeem(collaborators(), game_id, body["code"], client_id()))


@v1.post("/games/<game_id>/messages")
def post_message(game_id: str) -> Response:
    token = required_token()
    body = load_body(table_life_schemas.MESSAGE_REQUEST)
    return json_response(table_life_schemas.TABLE_MESSAGE, messages.post(collaborators(), game_id, token, body["code"]))
