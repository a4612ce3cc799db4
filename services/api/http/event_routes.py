"""The events' routes on the v1 blueprint (``/v1/events``): create, list, read (which moves the event on), join
as a pair, accept, withdraw, start, a board's scoresheet.  Handlers only parse, check the ``Player-Token`` and hand
over to :class:`services.api.events.service.Events`."""

from __future__ import annotations

from flask import Response, current_app, url_for

from services.api.events import views
from services.api.events.arena_views import arena_view
from services.api.events.model import Event, Settings
from services.api.events.service import Events
from services.api.games.record import PlayerRef
from services.api.http import event_schemas, request_schemas
from services.api.http.player_auth import request_player, request_ref
from services.api.http.routes import json_response, load_body, query_args, v1
from services.api.problems import ApiError

MOST_BOARDS = event_schemas.MOST_DEALS * event_schemas.MOST_ROUNDS


def events() -> Events:
    return current_app.extensions["spades.events"]


def player() -> PlayerRef:
    found = request_player(required=True)
    assert found is not None
    return request_ref(found)


def event_body(event_id: str) -> tuple[Event, dict]:
    """The event moved on (as every read does) and its body as ``GET /v1/events/{id}`` answers it."""
    service = events()
    event = service.advance(service.load(event_id))
    watch_par(service, event)
    body = views.event_view(event, service.results(event))
    body["arena"] = arena_view(event, service.arena) if event.settings.format == "arena" and service.arena else None
    return event, body


def _event_response(event_id: str, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return json_response(event_schemas.EVENT, event_body(event_id)[1], status, headers)


@v1.post("/events")
def create_event() -> Response:
    body = load_body(event_schemas.CREATE_EVENT)
    event = events().create(player(), Settings(**body))
    location = url_for("v1.get_event", event_id=event.event_id)
    return _event_response(event.event_id, 201, {"Location": location})


@v1.get("/events")
def list_events() -> Response:
    query = query_args(event_schemas.EVENTS_QUERY)
    page = [views.summary(e) for e in events().newest(query["limit"])]
    return json_response(event_schemas.EVENTS_PAGE, {"events": page})


@v1.get("/events/<event_id>")
def get_event(event_id: str) -> Response:
    return _event_response(event_id)


@v1.post("/events/<event_id>/pairs")
def join_event(event_id: str) -> Response:
    body = load_body(event_schemas.JOIN_EVENT)
    pair = events().join(event_id, player(), body["partner"])
    return json_response(event_schemas.PAIR, views.pair_view(pair), 201)


@v1.post("/events/<event_id>/pairs/<pair_id>/accept")
def accept_pair(event_id: str, pair_id: str) -> Response:
    load_body(request_schemas.EMPTY_REQUEST, allow_empty=True)
    pair = events().accept(event_id, pair_id, player())
    return json_response(event_schemas.PAIR, views.pair_view(pair))


@v1.delete("/events/<event_id>/pairs/<pair_id>")
def withdraw_pair(event_id: str, pair_id: str) -> Response:
    events().withdraw(event_id, pair_id, player())
    return _event_response(event_id)


@v1.post("/events/<event_id>/start")
def start_event(event_id: str) -> Response:
    load_body(request_schemas.EMPTY_REQUEST, allow_empty=True)
    events().start(event_id, player())
    return _event_response(event_id)


@v1.get("/events/<event_id>/boards/<int(signed=True):board>")
def event_board(event_id: str, board: int) -> Response:
    if not 1 <= board <= MOST_BOARDS:
        raise ApiError(404, "board_not_found", "No such board (yet) in this event.")
    service = events()
    event = service.advance(service.load(event_id))
    watch_par(service, event)
    sheet = views.scoresheet(event, service.results(event), board, service.pars(event))
    return json_response(event_schemas.SCORESHEET, sheet)


def watch_par(service: Events, event: Event) -> None:
    """A read of the event watches every expert table still playing: a computer-only game nobody reads pauses
    (:mod:`services.api.ai_seats.pauses`), and a round's par is kept only once its table finishes, which may be
    rounds later."""
    for rnd in event.rounds:
        record = service.game(rnd.par_game_id) if rnd.par_game_id and not rnd.par else None
        if record is not None and not record.finished:
            current_app.extensions["spades.pauses"].seen(record)
