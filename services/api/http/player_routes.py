"""The players' routes on the v1 blueprint: make a player, read one, and the token holder's own player
(``/v1/players/me``: read, rename, a new token, delete).

Handlers only parse, check and call :class:`services.api.players.repository.PlayerRepository` (on the records
database: a database that is down is a ``503 records_unavailable``, as for records).  ``POST /v1/players`` has
its own limit per client address (``PLAYER_CREATE_RATE_LIMIT``,
:func:`services.api.http.rate_limits.limit_player_creates`).  A rotation releases the seats the old token took, a
deletion leaves every seat its credentials took (:mod:`services.api.games.seat_release`), after the commit.
"""

from __future__ import annotations

from typing import Any

from flask import Response, url_for

from services.api.games.seat_release import settle_quietly
from services.api.http import player_schemas, request_schemas
from services.api.http.player_auth import (
    pairing_ban_of,
    player_repository,
    player_token,
    request_player,
    request_session,
)
from services.api.http.routes import collaborators, json_response, load_body, v1
from services.api.players.names import DisplayName, NameRefused, display_name
from services.api.players.repository import Player, PlayerRepository, name_taken, player_not_found
from services.api.players.tokens import well_formed_id
from services.api.problems import ApiError, invalid_request
from services.api.ratings.standing import standing
from services.api.ratings.watch import HIDDEN, REVIEW


@v1.post("/players")
def create_player() -> Response:
    body = load_body(player_schemas.CREATE_PLAYER_REQUEST)
    repository = player_repository()
    player, token = repository.create(_name(body["name"]), body["kind"])
    location = url_for("v1.get_player", player_id=player.id)
    answer = player_schemas.created(profile(repository, player), token)
    return json_response(player_schemas.CREATED_PLAYER, answer, 201, {"Location": location})


@v1.get("/players/<player_id>")
def get_player(player_id: str) -> Response:
    repository = player_repository()
    player = repository.get(player_id) if well_formed_id(player_id) else None
    if player is None:
        raise player_not_found()
    body = profile(repository, player)
    viewer = request_player(required=False)
    if body["rating_hold"] == REVIEW and (viewer is None or viewer.id != player.id):
        body["rating_hold"] = HIDDEN  # an open review is the player's own business until it is decided
    return json_response(player_schemas.PLAYER, body)


@v1.get("/players/me")
def get_me() -> Response:
    me = _me()
    body = {**profile(player_repository(), me), "pairing_ban": pairing_ban_of(me.id)}
    return json_response(player_schemas.ME, body)


@v1.patch("/players/me")
def rename_me() -> Response:
    player = _me()
    body = load_body(player_schemas.RENAME_PLAYER_REQUEST)
    repository = player_repository()
    return json_response(player_schemas.PLAYER, profile(repository, repository.rename(player, _name(body["name"]))))


@v1.post("/players/me/token")
def rotate_my_token() -> Response:
    player = _me()
    if request_session() is not None:  # a device's session never mints a credential that outlives it
        raise ApiError(403, "forbidden", "A device's session cannot replace the player token: send the player token.")
    load_body(request_schemas.EMPTY_REQUEST, allow_empty=True)
    repository = player_repository()
    token = player_token()
    assert token is not None
    fresh = repository.rotate(player, token)
    settle_quietly(collaborators(), player.id)  # the seats the old token took: released
    return json_response(player_schemas.CREATED_PLAYER, player_schemas.created(profile(repository, player), fresh))


@v1.delete("/players/me")
def delete_me() -> Response:
    player = _me()
    player_repository().delete(player)
    settle_quietly(collaborators(), player.id, gone=True)  # its seats in games in play: left
    return Response(status=204)


def profile(repository: PlayerRepository, player: Player) -> dict[str, Any]:
    """A player as ``GET /v1/players/{id}`` shows it: the player, and its standing (ratings per board, stats, accuracy:
    :func:`services.api.ratings.standing.standing`), read on the players' database."""
    with repository.engine.connect() as connection:
        found = standing(connection, player.id)
    return {
        "id": player.id,
        "kind": player.kind,
        "name": player.name,
        "created_ms": player.created_ms,
        "ratings": found["ratings"],
        "rating_hold": found["rating_hold"],
        "stats": found["stats"],
        "accuracy": found["accuracy"],
    }


def _me() -> Player:
    player = request_player(required=True)
    assert player is not None
    return player


def _name(raw: str) -> DisplayName:
    """The name as stored; a 400 naming what is wrong with it, or a 409 for a computer level's name."""
    try:
        return display_name(raw)
    except NameRefused as refused:
        if refused.taken:
            raise name_taken() from None
        raise invalid_request([{"field": "name", "message": str(refused)}]) from None
