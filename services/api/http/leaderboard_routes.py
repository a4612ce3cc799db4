"""The leaderboards' route on the v1 blueprint: ``GET /v1/leaderboards/{board}`` — a board's top players of a
kind and, when the request sends its ``Player-Token`` (:mod:`services.api.http.player_auth`), the player's own
rank (:mod:`services.api.ratings.leaderboard`)."""

from __future__ import annotations

import orjson
from flask import Response, request
from marshmallow import Schema, ValidationError, fields, validate

from services.api.http.player_auth import request_player
from services.api.http.record_routes import records_engine
from services.api.http.request_schemas import QueryInteger
from services.api.http.routes import v1
from services.api.problems import ApiError, flatten_messages, invalid_request
from services.api.ratings.leaderboard import KINDS, MAX_LIMIT, leaderboard
from services.ratings.model import BOARDS


class LeaderboardQuery(Schema):
    kind = fields.String(load_default="person", validate=validate.OneOf(KINDS))
    limit = QueryInteger(load_default=50, validate=validate.Range(1, MAX_LIMIT))


LEADERBOARD_QUERY = LeaderboardQuery()


@v1.get("/leaderboards/<board>")
def leaderboard_of_board(board: str) -> Response:
    """The board's top ``limit`` players of ``kind``; ``me`` for the player whose token the request sends."""
    if board not in BOARDS:
        raise ApiError(404, "not_found", f"No such leaderboard: the boards are {', '.join(BOARDS)}.")
    try:
        query = LEADERBOARD_QUERY.load(request.args.to_dict())
    except ValidationError as error:
        raise invalid_request(flatten_messages(error.messages)) from None
    player = request_player(required=False)
    with records_engine().connect() as connection:
        body = leaderboard(connection, board, query["kind"], query["limit"], player.id if player else None)
    return Response(orjson.dumps(body), 200, [("Content-Type", "application/json"), ("Cache-Control", "no-store")])
