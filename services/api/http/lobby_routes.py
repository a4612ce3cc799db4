"""The lobby's routes on the v1 blueprint: public tables (``GET /v1/tables``, ``GET /v1/tables/stream``) and
quick match (``POST /v1/matches``, ``GET`` and ``DELETE /v1/matches/{id}``).  Handlers only parse, check and
hand over to :mod:`services.api.lobby`."""

from __future__ import annotations

from flask import Response, current_app, request, url_for

from services.api.games.auth import bearer_token, token_of
from services.api.http import lobby_schemas
from services.api.http.player_auth import check_not_banned, seat_player
from services.api.http.rate_limits import client_address
from services.api.http.routes import _load_body, collaborators, json_response, query_args, v1, waiting_slot
from services.api.live.stream import StreamSettings, resume_point
from services.api.lobby.feed import lobby_frames, resumable
from services.api.lobby.listing import TableFilters, tables_page
from services.api.lobby.matchmaker import Matchmaker
from services.api.problems import ApiError, invalid_request


def matchmaker() -> Matchmaker:
    return current_app.extensions["spades.matchmaker"]


@v1.get("/tables")
def tables() -> Response:
    query = query_args(lobby_schemas.TABLES_QUERY)
    filters = TableFilters(query.get("preset"), query.get("clock"), query["free_seats"], query.get("level"))
    body = tables_page(collaborators().store, filters, query.get("cursor"), query["limit"])
    return json_response(lobby_schemas.TABLES_PAGE, body)


@v1.get("/tables/stream")
def tables_stream() -> Response:
    """The listing's changes as Server-Sent Events (:mod:`services.api.lobby.feed`); everything that can fail
    with a problem is checked before the first byte."""
    after = resume_point(request.headers.get("Last-Event-ID"), request.args.get("after"))
    unknown = sorted(set(request.args) - {"after"})
    if unknown:
        raise invalid_request([{"field": name, "message": "unknown parameter"} for name in unknown])
    store = collaborators().store
    oldest = resumable(store, after)
    if oldest is not None:
        raise ApiError(
            410,
            "too_far_behind",
            f"The lobby's changes after that seq are no longer kept (the oldest kept is {oldest}). "
            "Reload GET /v1/tables and resume from its last_seq.",
            first_seq=oldest,
        )
    config = current_app.config
    slot = waiting_slot(None)  # released when the server closes the response, whatever ended it
    settings = StreamSettings(
        heartbeat_seconds=float(config["STREAM_HEARTBEAT_SECONDS"]),
        max_seconds=float(config["STREAM_MAX_SECONDS"]),
        page_size=int(config["EVENTS_PAGE_SIZE"]),
        renew_seconds=slot.renew_seconds,
    )
    frames = lobby_frames(store, current_app.extensions["spades.wakeups"], after, settings, renew=slot.renew)
    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    response = Response(frames, 200, headers, mimetype="text/event-stream")
    response.call_on_close(slot.release)
    return response


@v1.post("/matches")
def create_match() -> Response:
    body = _load_body(lobby_schemas.MATCH_REQUEST, allow_empty=True)
    token = token_of(request.headers.get("Authorization"))
    player = seat_player()
    check_not_banned(player)
    created = matchmaker().submit(body, client_address(), token, player)
    location = url_for("v1.get_match", match_id=created["match_id"])
    return json_response(lobby_schemas.MATCH_CREATED, created, 202, {"Location": location})


@v1.get("/matches/<match_id>")
def get_match(match_id: str) -> Response:
    secret = bearer_token(request.headers.get("Authorization"), required=True)
    query = query_args(lobby_schemas.MATCH_QUERY)
    wait = min(query["wait"], int(current_app.config["EVENTS_MAX_WAIT"]))
    with waiting_slot(secret, wait > 0):
        body = matchmaker().look(match_id, secret, wait, query.get("found"))
    return json_response(lobby_schemas.MATCH, body)


@v1.delete("/matches/<match_id>")
def cancel_match(match_id: str) -> Response:
    secret = bearer_token(request.headers.get("Authorization"), required=True)
    return json_response(lobby_schemas.MATCH, matchmaker().cancel(match_id, secret))
