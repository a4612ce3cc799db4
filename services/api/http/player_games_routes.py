"""A player's games on the v1 blueprint: ``GET /v1/players/{player_id}/games``, newest first, a page at a time
(:mod:`services.api.ratings.player_games`)."""

from __future__ import annotations

import orjson
from flask import Response, request
from marshmallow import Schema, ValidationError, fields, validate
from sqlalchemy import select

from services.api.http.record_routes import records_engine
from services.api.http.request_schemas import QueryInteger
from services.api.http.routes import v1
from services.api.problems import ApiError, flatten_messages, invalid_request
from services.api.ratings.player_games import games_page
from services.api.records.repository import decode_cursor, encode_cursor
from services.api.records.schema import players

MAX_PAGE = 100


class PlayerGamesQuery(Schema):
    cursor = fields.String(load_default=None, validate=validate.Length(max=200))
    limit = QueryInteger(load_default=20, validate=validate.Range(1, MAX_PAGE))


PLAYER_GAMES_QUERY = PlayerGamesQuery()


@v1.get("/players/<player_id>/games")
def games_of_player(player_id: str) -> Response:
    """The player's finished games, newest first; ``next`` is the cursor of the following page (null: last)."""
    try:
        query = PLAYER_GAMES_QUERY.load(request.args.to_dict())
    except ValidationError as error:
        raise invalid_request(flatten_messages(error.messages)) from None
    after = None
    if query["cursor"] is not None:
        try:
            after = decode_cursor(query["cursor"])
        except ValueError:
            raise invalid_request([{"field": "cursor", "message": "Not a cursor this listing returned."}]) from None
    with records_engine().connect() as connection:
        live = select(players.c.id).where(players.c.id == player_id, players.c.deleted_ms.is_(None))
        if len(player_id) > 40 or connection.execute(live).first() is None:
            raise ApiError(404, "player_not_found", "No such player (never made, or deleted).")
        games, following = games_page(connection, player_id, after, query["limit"])
    body = {"games": games, "next": encode_cursor(following) if following else None}
    return Response(orjson.dumps(body), 200, [("Content-Type", "application/json")])
