"""An event's push stream on the v1 blueprint: ``GET /v1/events/{id}/stream``, the event's body as Server-Sent
Events whenever it changes (:mod:`services.api.events.stream`), from the process's shared watch
(:class:`services.api.events.watch.EventWatch`).  Checked here before the first byte: the event exists (``404``),
the client's waiting slots (``429 too_many_waiting``); a finished event the client has the last body of is
``204``, SSE's "do not reconnect"."""

from __future__ import annotations

import re
from functools import partial

import orjson
from flask import Response, current_app, request

from services.api.events.stream import EventStreamSettings, event_frames
from services.api.events.watch import EventWatch
from services.api.http import event_schemas
from services.api.http.event_routes import event_body, events
from services.api.http.routes import v1, waiting_slot
from services.api.live.peer import peer_connected
from services.api.problems import invalid_request

TAG = re.compile(r"[0-9a-f]{16}")  # a body's tag (services.api.events.watch), the stream's message ids


def event_watch() -> EventWatch:
    """The process's watch, made on first use with the app's settings."""
    watch = current_app.extensions.get("spades.event_watch")
    if watch is None:
        app = current_app._get_current_object()  # type: ignore[attr-defined]

        def build(event_id: str) -> tuple[bytes, bool]:
            with app.app_context():
                event, body = event_body(event_id)
                return orjson.dumps(event_schemas.EVENT.dump(body)), event.status == "finished"

        watch = EventWatch(build, float(current_app.config["EVENT_STREAM_INTERVAL_SECONDS"]))
        current_app.extensions["spades.event_watch"] = watch
    return watch


@v1.get("/events/<event_id>/stream")
def stream_event(event_id: str) -> Response:
    unknown = sorted(set(request.args))
    if unknown:
        raise invalid_request([{"field": name, "message": "unknown parameter"} for name in unknown])
    events().load(event_id)  # 404 before the first byte
    last = request.headers.get("Last-Event-ID")
    if last is not None and not TAG.fullmatch(last):
        raise invalid_request([{"field": "Last-Event-ID", "message": "must be a message id of this stream"}])
    watch = event_watch()
    tag, _, finished = watch.current(event_id, fresh=True)  # the stream's first body: as of now
    if finished and last == tag:
        return Response(status=204)
    config = current_app.config
    slot = waiting_slot(None)  # released when the server closes the response, whatever ended it
    settings = EventStreamSettings(
        interval=watch.interval,
        heartbeat=float(config["STREAM_HEARTBEAT_SECONDS"]),
        max_seconds=float(config["STREAM_MAX_SECONDS"]),
        renew_seconds=slot.renew_seconds,
    )
    hub = current_app.extensions["spades.fanout"]
    connected = partial(peer_connected, request.environ.get("gunicorn.socket"))  # asked before each renewal
    frames = event_frames(watch, event_id, last, settings, lambda: hub.draining, renew=slot.renew, connected=connected)
    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    response = Response(frames, 200, headers, mimetype="text/event-stream")
    response.call_on_close(slot.release)
    return response
