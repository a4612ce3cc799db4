"""An arena's routes on the v1 blueprint: join (``POST /v1/events/{id}/entrants``), withdraw and read an entrant
(``/v1/events/{id}/entrants/{player_id}``: a read moves the arena on, so a player waiting for its next game reads
its entrant), and the standings page by page.  Handlers only parse, check the ``Player-Token`` and hand over to
:class:`services.api.events.service.Events`."""

from __future__ import annotations

from flask import Response

from services.api.events.arena_room import ArenaRoom
from services.api.events.arena_views import entrant_view, standings_page
from services.api.events.service import Events
from services.api.http import event_schemas, request_schemas
from services.api.http.event_routes import events, player
from services.api.http.routes import json_response, load_body, query_args, v1
from services.api.problems import ApiError


def room(service: Events) -> ArenaRoom:
    """The service's arena room; a service that runs no arenas made none, so no event here is one."""
    if service.arena is None:
        raise ApiError(409, "wrong_event_format", "This service runs no arenas.")
    return service.arena


def _entrant_response(event_id: str, player_id: str, status: int = 200) -> Response:
    service = events()
    event = service.advance(service.load(event_id), player_id)
    room = service.arena
    entry = room.entry(event_id, player_id) if room and event.settings.format == "arena" else None
    if entry is None or room is None:
        raise ApiError(404, "entrant_not_found", "No such player in this arena.")
    body = entrant_view(event, entry, room.rank(event_id, player_id))
    return json_response(event_schemas.ENTRANT, body, status)


@v1.post("/events/<event_id>/entrants")
def join_arena(event_id: str) -> Response:
    load_body(request_schemas.EMPTY_REQUEST, allow_empty=True)
    me, service = player(), events()
    room(service).join(service.load(event_id), me)
    return _entrant_response(event_id, me.id, 201)  # its read pairs at once: the table may be the one just filled


@v1.get("/events/<event_id>/entrants/<player_id>")
def arena_entrant(event_id: str, player_id: str) -> Response:
    return _entrant_response(event_id, player_id)


@v1.delete("/events/<event_id>/entrants/<player_id>")
def withdraw_from_arena(event_id: str, player_id: str) -> Response:
    me = player()
    if me.id != player_id:
        raise ApiError(403, "not_entrant", "Only the player withdraws itself.")
    service = events()
    room(service).withdraw(service.load(event_id), me.id)
    return _entrant_response(event_id, player_id)


@v1.get("/events/<event_id>/standings")
def arena_standings(event_id: str) -> Response:
    query = query_args(event_schemas.STANDINGS_QUERY)
    service = events()
    event = service.advance(service.load(event_id))
    if event.settings.format != "arena" or service.arena is None:
        raise ApiError(409, "wrong_event_format", "Only an arena's standings page: read the event for a duplicate's.")
    room = service.arena
    page = standings_page(event, room, query["start"], query["limit"])
    body = {"event_id": event_id, "start": query["start"], "entrants": room.counts(event_id)["entrants"]}
    return json_response(event_schemas.ARENA_STANDINGS, {**body, "standings": page})
