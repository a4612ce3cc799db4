"""The rematch route on the v1 blueprint: a finished game's seat opts in to the next game at the same table
(:mod:`services.api.games.rematch`)."""

from __future__ import annotations

from flask import Response, current_app

from services.api.games import rematch
from services.api.games.quotas import creator_ids
from services.api.http import request_schemas
from services.api.http.player_auth import seat_player
from services.api.http.rate_limits import client_address, client_id
from services.api.http.routes import collaborators, load_body, required_token, seated, v1


@v1.post("/games/<game_id>/rematch")
def offer_rematch(game_id: str) -> Response:
    token = required_token()
    load_body(request_schemas.EMPTY_REQUEST, allow_empty=True)
    ctx = collaborators()
    creators = creator_ids(client_address(), token) if ctx.quotas.active else ()  # the next game counts for them
    wait = float(current_app.config["REMATCH_WAIT_SECONDS"])
    return seated(rematch.opt_in(ctx, game_id, token, wait, creators, seat_player(), client_id()))
