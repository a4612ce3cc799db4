"""The live routes on the v1 blueprint: the long poll of a game's event log and its push stream (SSE).

Both park the request (a waiting slot of its client, :mod:`services.api.live.waiting_caps`) on the process's
fan-out hub (:mod:`services.api.live.fanout`); handlers only parse, check and hand over.
"""

from __future__ import annotations

from functools import partial

from flask import Response, current_app, request

from services.api.games import pipeline
from services.api.games.audience import Audience
from services.api.games.auth import bearer_token, no_seat, seat_for
from services.api.games.clock_events import delivered
from services.api.games.log_retention import check_resumable, skipped_past, too_far_behind
from services.api.http import request_schemas, response_schemas
from services.api.http.observability import note_seat
from services.api.http.routes import collaborators, json_response, query_args, seen, v1, waiting_slot
from services.api.http.view_bodies import hidden_for
from services.api.live.peer import peer_connected
from services.api.live.presence import Renewals, SeatPresence
from services.api.live.stream import StreamSettings, TableFeed, resume_point, sse_frames
from services.api.problems import invalid_request
from services.api.store.protocol import now_ms


def seat_presence(game_id: str, seat: int | None) -> SeatPresence:
    """This request's part in the game's presence (:mod:`services.api.live.presence`)."""
    settings = current_app.extensions["spades.presence"]
    return SeatPresence(collaborators().store, settings, game_id, seat)


@v1.get("/games/<game_id>/events")
def events(game_id: str) -> Response:
    query = query_args(request_schemas.EVENTS_QUERY)
    token = bearer_token(request.headers.get("Authorization"), required=False)
    store = collaborators().store
    record = pipeline.load(store, game_id)
    seat = seat_for(record, token)
    note_seat(seat)
    audience = Audience.of(store, record, seat, token)  # the events as the seat sees them while its token holds it
    check_resumable(record, query["after"])
    seen(record)
    wait = min(query["wait"], int(current_app.config["EVENTS_MAX_WAIT"]))
    page = int(current_app.config["EVENTS_PAGE_SIZE"])
    with waiting_slot(token, wait > 0) as slot:
        hub = current_app.extensions["spades.fanout"]
        renew = Renewals((slot.renew, slot.renew_seconds))
        if wait > 0 and seat is not None:  # a seat's long poll: its person is at the table (live/presence.py)
            presence = seat_presence(game_id, seat)
            presence.hold()
            renew = Renewals((slot.renew, slot.renew_seconds), (presence.renew, presence.renew_seconds))
        found = hub.wait_events(game_id, query["after"], page, wait, renew, renew.seconds)
    if skipped_past(query["after"], found):  # trimmed since the record was read
        raise too_far_behind(found[0]["seq"])
    shown = audience.admit(found)
    if audience.ended and not shown:  # the seat changed hands before anything this token may see
        raise no_seat()
    now = now_ms()  # a turn_clock entry carries the time it left at (the client's countdown starts from it)
    visible = [delivered(e, now) for e in shown]
    last_seq = visible[-1]["seq"] if visible else query["after"]
    body = {"game_id": game_id, "events": visible, "last_seq": last_seq, "server_time_ms": now}
    return json_response(response_schemas.EVENT_PAGE, body)


@v1.get("/games/<game_id>/stream")
def stream(game_id: str) -> Response:
    """The events of ``/events`` pushed as Server-Sent Events (:mod:`services.api.live.stream`).

    Everything that can fail with a problem (400, 401, 404, 410, 503) is checked here, before the first
    byte; the generator then runs outside the request context, with the store and settings passed in.
    A finished game with nothing left to send is ``204``: SSE's "do not reconnect"."""
    after = resume_point(request.headers.get("Last-Event-ID"), request.args.get("after"))
    unknown = sorted(set(request.args) - {"after"})
    if unknown:
        raise invalid_request([{"field": name, "message": "unknown parameter"} for name in unknown])
    token = bearer_token(request.headers.get("Authorization"), required=False)
    store = collaborators().store
    record = pipeline.load(store, game_id)
    seat = seat_for(record, token)
    note_seat(seat)
    if record.state.phase == "game_over" and after >= record.seq:
        return Response(status=204)
    check_resumable(record, after)
    seen(record)
    config = current_app.config
    gate = current_app.extensions["spades.pauses"]
    slot = waiting_slot(token)  # released when the server closes the response, whatever ended it
    presence = seat_presence(game_id, seat)  # a seat's: held; a spectator's: lapsed leases dropped
    renew = Renewals((slot.renew, slot.renew_seconds), (presence.renew, presence.renew_seconds))
    settings = StreamSettings(
        heartbeat_seconds=float(config["STREAM_HEARTBEAT_SECONDS"]),
        max_seconds=float(config["STREAM_MAX_SECONDS"]),
        page_size=int(config["EVENTS_PAGE_SIZE"]),
        touch_seconds=gate.seconds / 2,  # an open stream keeps watching a computer-only game
        renew_seconds=renew.seconds,
    )
    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no", "Vary": "Authorization"}
    hub, touch = current_app.extensions["spades.fanout"], partial(gate.touch, game_id)
    table = TableFeed(
        presence.hold(), frozenset(hidden_for(record, seat, current_app.extensions.get("spades.friends")))
    )
    connected = partial(peer_connected, request.environ.get("gunicorn.socket"))  # checked before each renewal
    frames = sse_frames(
        hub,
        game_id,
        Audience.of(store, record, seat, token),
        after,
        settings,
        touch=touch,
        touching=record.computer_only,
        renew=renew,
        table=table,
        connected=connected,
    )
    response = Response(frames, 200, headers, mimetype="text/event-stream")
    response.call_on_close(slot.release)
    return response
