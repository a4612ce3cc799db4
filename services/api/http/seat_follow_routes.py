"""A seat follows its player, on the v1 blueprint: ``POST /v1/games/{id}/seats/{seat}/take`` (the seat's token for
this device, with the ``Player-Token`` of the player it is bound to: :mod:`services.api.games.take_back`) and
``GET /v1/players/me/live-games`` (the player's games in play: :mod:`services.api.games.live_games`).

Both take a player token or a device's session (:mod:`services.api.http.player_auth`); the listing first releases
the player's seats that a dead credential still holds (:func:`services.api.games.seat_release.settle_quietly`: a
revocation's own release that found the store down).  Neither has a limit of its
own: each needs the player's credential, and a refused take tells nothing a view of the table does not.
"""

from __future__ import annotations

from flask import Response
from marshmallow import Schema, fields

from services.api.games.live_games import live_games
from services.api.games.seat_release import settle_quietly
from services.api.games.take_back import take_seat
from services.api.http import request_schemas
from services.api.http.player_auth import request_player, request_ref
from services.api.http.rate_limits import client_id
from services.api.http.response_schemas import Codes
from services.api.http.routes import collaborators, json_response, load_body, seated, v1, with_server_time_state
from services.api.players.repository import Player


class LiveGame(Schema):
    game_id = fields.String()
    seat = fields.Integer()
    stand_in = fields.Boolean()
    phase = fields.String()
    round = fields.Integer()
    turn = fields.Integer(allow_none=True)
    scores = fields.List(fields.Integer())
    seats = Codes()  # rendered by rendering.seats_view (openapi: SeatInfo)
    changed_ms = fields.Integer()


class LiveGames(Schema):
    games = fields.List(fields.Nested(LiveGame))


LIVE_GAMES = LiveGames()


@v1.post("/games/<game_id>/seats/<int(signed=True):seat>/take")
def take_my_seat(game_id: str, seat: int) -> Response:
    player = _me()
    load_body(request_schemas.EMPTY_REQUEST, allow_empty=True)
    return seated(with_server_time_state(take_seat(collaborators(), game_id, seat, request_ref(player), client_id())))


@v1.get("/players/me/live-games")
def my_live_games() -> Response:
    player = _me()
    ctx = collaborators()
    settle_quietly(ctx, player.id)  # seats a dead credential still holds (a revocation's release that failed)
    return json_response(LIVE_GAMES, {"games": live_games(ctx.store, player.id)})


def _me() -> Player:
    player = request_player(required=True)
    assert player is not None
    return player
