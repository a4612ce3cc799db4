"""The v1 game resources (a Flask blueprint). Handlers only parse, call
:mod:`services.api.games.commands` (with the process's
:class:`~services.api.games.commands.Collaborators`) and dump through a marshmallow schema."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, json, request, url_for
from marshmallow import Schema, ValidationError

from services.api.ai_seats import hints, review
from services.api.games import commands, pipeline, seat_back
from services.api.games.auth import bearer_token, seat_for, token_of
from services.api.games.commands import Collaborators
from services.api.games.move_request import MoveRequest, parse_if_match, request_fingerprint
from services.api.games.quotas import creator_ids
from services.api.games.record import GameRecord, PlayerRef
from services.api.games.rendering import game_view
from services.api.http import json_codec as jsonio
from services.api.http import request_schemas, response_schemas
from services.api.http.catalogues import levels_catalogue, rules_catalogue
from services.api.http.observability import note_seat, request_id
from services.api.http.player_auth import check_not_banned, check_not_blocked_at, seat_player
from services.api.http.rate_limits import client_address, client_id
from services.api.http.view_bodies import live_view_body, table_extras, view_body, view_parts
from services.api.live.waiting_caps import NO_CAPS, WaitingSlot, take_slot
from services.api.problems import ApiError, flatten_messages, invalid_request
from services.api.store.protocol import now_ms

v1 = Blueprint("v1", __name__, url_prefix="/v1")


def collaborators() -> Collaborators:
    return current_app.extensions["spades.commands"]


def seen(record: GameRecord) -> None:
    """A read of the game: a computer-only one counts as watched (and a paused one goes on)."""
    current_app.extensions["spades.pauses"].seen(record)


def waiting_slot(token: str | None, waits: bool = True) -> WaitingSlot:
    """This request's slot among its client's waiting requests, or ``429 too_many_waiting`` past a cap
    (:mod:`services.api.live.waiting_caps`); a request that does not wait takes none."""
    caps = current_app.extensions["spades.waiting_caps"] if waits else NO_CAPS
    return take_slot(collaborators().store, caps, client_address(), token)


def json_response(schema: Schema, data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    response = Response(json.dumps(schema.dump(data)), status=status, mimetype="application/json")
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def required_token() -> str:
    """The request's seat token (``Authorization: Bearer``): ``401`` without one."""
    token = bearer_token(request.headers.get("Authorization"), required=True)
    assert token is not None
    return token


def seated(claimed: dict[str, Any]) -> Response:
    """A seat and its new token (``ClaimedSeat``: a claim, a redeemed rejoin code, a rematch), tagged with its
    view's version."""
    etag = {"ETag": f'"{claimed["state"]["version"]}"'}
    return json_response(response_schemas.CLAIMED_SEAT, claimed, 200, etag)


def _view_response(data: dict[str, Any], status: int = 200) -> Response:
    """A view's response, with ``server_time_ms`` (a move's view has its own already: the time of its commit,
    stored with it, so that an ``Idempotency-Key`` replay answers the same bytes)."""
    body = view_body(data)
    return _view_body_response(body if "server_time_ms" in data else with_server_time(body), data["version"], status)


def with_server_time(body: bytes) -> bytes:
    """A view's body (cached per version) with this response's ``server_time_ms`` added: the time a client
    counts a clock's deadline down from (:mod:`services.api.games.clocks`), never its own."""
    return b'%s,"server_time_ms":%d}' % (body[:-1], now_ms())


def with_server_time_state(answer: dict[str, Any]) -> dict[str, Any]:
    """An answer holding a view under ``state`` (created, claimed), its view with ``server_time_ms``."""
    return {**answer, "state": {**answer["state"], "server_time_ms": now_ms()}}


def _view_body_response(body: bytes, version: int, status: int = 200) -> Response:
    """A game view's response.  (Its ``Cache-Control: no-store`` comes from
    :class:`services.api.http.wsgi_edge.Edge`, like every ``/v1/games`` response's.)"""
    headers = [("Content-Type", "application/json"), ("ETag", f'"{version}"'), ("Vary", "Authorization")]
    return Response(body, status, headers)


def _raw_body() -> bytes:
    """The request body.  :class:`services.api.http.request_body.BodyGuard` has read it (a chunked one too, then
    with its Content-Length), so one within MAX_CONTENT_LENGTH is read straight from ``wsgi.input``: werkzeug's
    stream wrappers cost more than the rest of parsing a move.  A longer one takes werkzeug's path, which
    refuses it (413) unread."""
    req = request._get_current_object()  # type: ignore[attr-defined]  # one context lookup, not four
    length, limit = req.content_length, req.max_content_length
    if length is not None and (limit is None or length <= limit):
        return req.environ["wsgi.input"].read(length)
    return req.get_data(cache=True)


def _load_body(schema: Schema, allow_empty: bool = False) -> dict[str, Any]:
    """The JSON body loaded through ``schema``: 415 for another media type, 400 for the rest."""
    raw = _raw_body()
    if allow_empty and not raw.strip():
        return schema.load({})
    mimetype = request.mimetype
    if mimetype != "application/json" and not mimetype.endswith("+json"):
        raise ApiError(415, "unsupported_media_type", "Send the body as application/json.")
    try:
        body = jsonio.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise invalid_request([{"field": "body", "message": "malformed JSON"}]) from None
    if not isinstance(body, dict):
        raise invalid_request([{"field": "body", "message": "must be a JSON object"}])
    try:
        return schema.load(body)
    except ValidationError as error:
        raise invalid_request(flatten_messages(error.messages)) from None
    except RecursionError:
        raise invalid_request([{"field": "body", "message": "nested too deeply"}]) from None


load_body = _load_body  # for the other route modules of the blueprint


def query_args(schema: Schema) -> dict[str, Any]:
    try:
        return schema.load(request.args.to_dict())
    except ValidationError as error:
        raise invalid_request(flatten_messages(error.messages)) from None


@v1.post("/games")
def create_game() -> Response:
    body = _load_body(request_schemas.CREATE_GAME_REQUEST)
    player = _players_seat(body["seats"])
    ctx = collaborators()
    creators: tuple[str, ...] = ()
    if ctx.quotas.active:  # the client address (after the trusted proxies) and the seat token it carries
        creators = creator_ids(client_address(), token_of(request.headers.get("Authorization")))
    created = with_server_time_state(commands.create_game(ctx, body, creators, player=player, client=client_id()))
    location = url_for("v1.get_game", game_id=created["game_id"])
    return json_response(
        response_schemas.CREATED_GAME, created, 201, {"Location": location, "ETag": f'"{created["state"]["version"]}"'}
    )


def _players_seat(seats: list[dict[str, Any]]) -> PlayerRef | None:
    """The player of the request's ``Player-Token`` (checked whenever it is sent), for the seat that says
    ``player: true``: 401 when such a seat comes without a token, 400 for two of them."""
    player = seat_player()
    marked = [i for i, seat in enumerate(seats) if seat.get("player")]
    if marked and player is None:
        raise ApiError(401, "player_token_invalid", "A seat with 'player: true' needs a 'Player-Token' header.")
    if len(marked) > 1:
        raise invalid_request([{"field": f"seats.{marked[1]}.player", "message": "only one seat is the player's"}])
    return player


@v1.get("/games/<game_id>")
def get_game(game_id: str) -> Response:
    token = bearer_token(request.headers.get("Authorization"), required=False)
    ctx = collaborators()
    record = pipeline.load(ctx.store, game_id)
    seat = seat_for(record, token)
    note_seat(seat)
    seen(record)
    cache = ctx.cache
    key = ("json", game_id, record.version, seat)  # a version never changes: cache the rendered body's parts
    parts = cache.get(key) if cache is not None else None
    if parts is None:
        parts = view_parts(game_view(record, seat, cache))
        if cache is not None:
            cache.put(key, parts)
    connected, messages = table_extras(ctx.store, record, seat, current_app.extensions.get("spades.friends"))
    return _view_body_response(with_server_time(live_view_body(parts, record, connected, messages)), record.version)


@v1.post("/games/<game_id>/seats/<int(signed=True):seat>/claim")
def claim_seat(game_id: str, seat: int) -> Response:
    _load_body(request_schemas.EMPTY_REQUEST, allow_empty=True)
    player, ctx = seat_player(), collaborators()
    if (table := ctx.store.load(game_id) if player is not None else None) is not None:
        check_not_banned(player, table)  # a public table is closed to a player banned from pairing
        check_not_blocked_at(player, table)  # a block keeps the pair apart at any table
    claimed = with_server_time_state(commands.claim_seat(ctx, game_id, seat, player, client_id()))
    return seated(claimed)


@v1.post("/games/<game_id>/seats/<int(signed=True):seat>/leave")
def leave_seat(game_id: str, seat: int) -> Response:
    token = required_token()
    _load_body(request_schemas.EMPTY_REQUEST, allow_empty=True)
    if not 0 <= seat < 4:
        raise ApiError(404, "not_found", "Seats are numbered 0 to 3.")
    return _view_response(commands.leave_seat(collaborators(), game_id, seat, token))


@v1.post("/games/<game_id>/seats/<int(signed=True):seat>/back")
def come_back(game_id: str, seat: int) -> Response:
    """An away seat's person is back (:mod:`services.api.games.seat_back`): the computer stops playing it."""
    token = required_token()
    _load_body(request_schemas.EMPTY_REQUEST, allow_empty=True)
    if not 0 <= seat < 4:
        raise ApiError(404, "not_found", "Seats are numbered 0 to 3.")
    return _view_response(seat_back.come_back(collaborators(), game_id, seat, token))


def _move(game_id: str, kind: str, schema: Schema) -> Response:
    environ = request.environ  # the headers straight from WSGI: every move reads three
    token = bearer_token(environ.get("HTTP_AUTHORIZATION"), required=True)
    assert token is not None
    body = _load_body(schema)
    if_match = parse_if_match(environ.get("HTTP_IF_MATCH"))
    idem = environ.get("HTTP_IDEMPOTENCY_KEY")
    if idem is not None and not 1 <= len(idem) <= 255:
        raise invalid_request([{"field": "Idempotency-Key", "message": "must be 1 to 255 characters"}])
    move = MoveRequest(
        token=token,
        kind=kind,
        body=body,
        if_match=if_match,
        idempotency_key=idem,
        fingerprint=request_fingerprint(kind, body) if idem is not None else None,
    )
    return _view_response(commands.make_move(collaborators(), game_id, move))


@v1.post("/games/<game_id>/bids")
def bid(game_id: str) -> Response:
    return _move(game_id, "bid", request_schemas.BID_REQUEST)


@v1.post("/games/<game_id>/plays")
def play(game_id: str) -> Response:
    return _move(game_id, "play", request_schemas.PLAY_REQUEST)


@v1.post("/games/<game_id>/blind")
def blind(game_id: str) -> Response:
    """A blind decision (house rules): a blind bid or blind nil, or looking at the hand."""
    return _move(game_id, "blind", request_schemas.BLIND_REQUEST)


@v1.post("/games/<game_id>/passes")
def passes(game_id: str) -> Response:
    """The cards given to the partner in the nil exchange (house rules)."""
    return _move(game_id, "pass", request_schemas.PASS_REQUEST)


def _token_seat(game_id: str) -> tuple[Collaborators, GameRecord, int]:
    """The game and the seat the request's token holds in it (401 without one): for what only a seat may ask."""
    token = bearer_token(request.headers.get("Authorization"), required=True)
    ctx = collaborators()
    record = pipeline.load(ctx.store, game_id)
    seat = seat_for(record, token)
    assert seat is not None
    note_seat(seat)
    return ctx, record, seat


@v1.get("/games/<game_id>/hint")
def hint(game_id: str) -> Response:
    """The hint level's move for the token's own seat, on its turn (see :mod:`services.api.ai_seats.hints`).

    Its per-token rate limit (``HINT_RATE_LIMIT``) is attached in
    :func:`services.api.http.rate_limits.limit_hints`."""
    ctx, record, seat = _token_seat(game_id)
    with waiting_slot(token_of(request.headers.get("Authorization"))):  # waits up to HINT_TIMEOUT_SECONDS
        answer = hints.hint_for(current_app.extensions["spades.hints"], ctx.cache, record, seat, request_id())
    return json_response(response_schemas.HINT_RESPONSE, answer)


@v1.get("/games/<game_id>/rounds/<int(signed=True):round_no>/review")
def round_review(game_id: str, round_no: int) -> Response:
    """A finished round replayed for the token's own seat, with the hint level's move and figures at
    each of that seat's moves (see :mod:`services.api.ai_seats.review`).  Shares the hints' per-token
    rate limit (:func:`services.api.http.rate_limits.limit_hints`)."""
    ctx, record, seat = _token_seat(game_id)
    with waiting_slot(token_of(request.headers.get("Authorization"))):  # waits up to REVIEW_TIMEOUT_SECONDS
        reviews = current_app.extensions["spades.reviews"]
        answer = review.review_for(reviews, ctx.cache, record, round_no, seat, request_id())
    return json_response(response_schemas.ROUND_REVIEW, answer)


@v1.get("/rules")
def rules() -> Response:
    return json_response(response_schemas.RULES_CATALOGUE, rules_catalogue())


@v1.get("/levels")
def levels() -> Response:
    return json_response(response_schemas.LEVELS_CATALOGUE, levels_catalogue())
