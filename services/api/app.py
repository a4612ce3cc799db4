"""The app factory: config, the Redis store, the commands' collaborators, blueprints and problem+json errors."""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import redis
import sqlalchemy.exc
from celery import Celery
from flask import Flask, Response, has_request_context, redirect, request, send_file
from flask_swagger_ui import get_swaggerui_blueprint
from sqlalchemy import Engine
from werkzeug.exceptions import HTTPException, SecurityError
from werkzeug.middleware.proxy_fix import ProxyFix

from services.api.ai_seats.analysis import AnalysisTasks, BulkAnalyses
from services.api.ai_seats.brokers import broker_nodes
from services.api.ai_seats.dispatch import AiDispatcher
from services.api.ai_seats.driver import SWEEP_PARALLEL, AiDriver
from services.api.ai_seats.hints import HintClient
from services.api.ai_seats.hooks import DispatchHooks
from services.api.ai_seats.pacing import Pacer
from services.api.ai_seats.pauses import PauseGate
from services.api.ai_seats.senders import celery_for_node
from services.api.config import check_config, load_config
from services.api.events.arena_room import ArenaRoom
from services.api.events.service import Events
from services.api.events.storage import EventStorage
from services.api.games.clock_credit import credit_running
from services.api.games.commands import Collaborators
from services.api.games.quotas import NO_QUOTAS, Quotas
from services.api.games.record import GameRecord
from services.api.games.record_schedule import RecordSchedule
from services.api.games.rendering import ViewCache
from services.api.games.replay import record_decisions
from services.api.games.service_beat import NO_BEAT, ServiceBeat
from services.api.http import (  # noqa: F401  (their routes join v1)
    arena_routes,
    event_routes,
    event_stream_routes,
    fair_play_routes,
    friend_routes,
    leaderboard_routes,
    live_routes,
    lobby_routes,
    passkey_routes,
    player_games_routes,
    player_routes,
    record_routes,
    rematch_routes,
    seat_follow_routes,
    session_routes,
    table_life_routes,
)
from services.api.http.health import health, healthz
from services.api.http.inbound import init_inbound
from services.api.http.json_codec import OrjsonProvider
from services.api.http.listeners import init_listeners
from services.api.http.observability import configure_logging, init_observability, note_seat, request_id
from services.api.http.rate_limits import (
    SlowRefusals,
    init_protection,
    limit_creates,
    limit_exports,
    limit_hints,
    limit_player_creates,
    limit_rejoins,
)
from services.api.http.request_body import body_guard
from services.api.http.routes import v1
from services.api.http.session_limits import limit_sessions
from services.api.http.wsgi_edge import Edge
from services.api.live.fanout import FanoutHub
from services.api.live.presence import PresenceSettings
from services.api.live.waiting_caps import NO_CAPS, WaitingCaps
from services.api.live.wakeups import Wakeups
from services.api.lobby.match_games import NO_BLOCKS
from services.api.lobby.service import lobby_service
from services.api.lobby.tables import ListingHooks
from services.api.metrics import FANOUT_LISTENERS, FANOUT_SUBSCRIPTIONS, STORE_ERRORS
from services.api.players.rekey import rekey_if_stale
from services.api.players.repository import PlayerRepository
from services.api.players.service import friends_service
from services.api.problems import ApiError, invalid_request, problem_response
from services.api.ratings.apply import applier
from services.api.ratings.collector import AccuracyCollector
from services.api.ratings.recount import recount_if_stale
from services.api.ratings.standing import entry_rating
from services.api.records.service import records_service
from services.api.store.arena_rooms import MemoryArenaRooms
from services.api.store.event_docs import MemoryEventDocs
from services.api.store.protocol import NotReplicated
from services.api.store.redis_arena_rooms import RedisArenaRooms
from services.api.store.redis_event_docs import RedisEventDocs
from services.api.store.redis_store import make_store
from services.computers import HINT_LEVEL, queue_of
from services.web import web

CONTRACT = "openapi.yaml"
YAML_TYPES = ["application/yaml", "text/yaml"]  # what GET /openapi.yaml answers in, by Accept


def openapi_path() -> Path:
    """The contract: at the root of a checkout, else in the working directory (the image's /app, where
    deploy/Dockerfile copies it beside gunicorn.conf.py: an installed package has no checkout root)."""
    checkout = Path(__file__).resolve().parents[2] / CONTRACT
    return checkout if checkout.exists() else Path.cwd() / CONTRACT


log = logging.getLogger(__name__)

_HTTP_CODES = {
    400: "invalid_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
}


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """A ready app; ``config`` overrides environment variables (tests)."""
    settings = load_config(config)
    check_config(settings)
    app = Flask(__name__)
    app.config.update(settings)
    init_inbound(app)
    app.wsgi_app = Edge(body_guard(app, _under_gevent()))  # type: ignore[method-assign]
    delay = float(settings["REFUSAL_DELAY_SECONDS"])
    if delay > 0 and settings["RATE_LIMIT_ENABLED"] and _under_gevent():  # a waiting refusal: a parked greenlet
        app.wsgi_app = SlowRefusals(app.wsgi_app, delay)  # type: ignore[method-assign]
    hops = int(settings["PROXY_FIX_HOPS"])
    if hops:  # behind an ingress: rate limits and logs need the client's address, not the proxy's
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)  # type: ignore[method-assign]
    app.json = OrjsonProvider(app)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    configure_logging(settings["LOG_LEVEL"])
    store = settings.get("STORE") or make_store(settings, GameRecord.from_stored)
    app.extensions["spades.store"] = store
    app.extensions["spades.fanout"] = FanoutHub(store, store.subscription, FANOUT_LISTENERS, FANOUT_SUBSCRIPTIONS)
    app.extensions["spades.waiting_caps"] = waiting_caps_of(settings)
    app.extensions["spades.presence"] = PresenceSettings(float(settings["PRESENCE_LEASE_SECONDS"]))
    app.extensions["spades.wakeups"] = wakeups = Wakeups(store.subscription)
    celery_init_app(app)  # one Celery app per broker node, in app.extensions
    dispatcher = AiDispatcher(
        app.extensions["spades.celery_nodes"], store, float(settings["AI_DECISION_DEADLINE_SECONDS"]), _ai_request_id
    )
    app.extensions["spades.ai"] = dispatcher
    gate = PauseGate(store, float(settings["PAUSE_UNWATCHED_SECONDS"]), dispatcher)
    app.extensions["spades.pauses"] = gate
    hooks = DispatchHooks(dispatcher, gate, Pacer(float(settings["COMPUTER_GAME_PACE_SECONDS"])))
    outage = float(settings["CLOCK_OUTAGE_SECONDS"])  # the service's heartbeat: outages given back to the clocks
    beat = ServiceBeat(store, outage, float(settings["CLOCK_OUTAGE_GRACE_SECONDS"])) if outage > 0 else None
    ctx = Collaborators(
        store=store,
        cache=ViewCache(int(settings["VIEW_CACHE_SIZE"])),
        ai=hooks,
        allow_seeded=bool(settings["ALLOW_SEEDED_GAMES"]),
        note_seat=note_seat,
        quotas=quotas_of(settings),
        records=RecordSchedule(int(settings["GAME_TTL_SECONDS"])) if settings["RECORDS_ENABLED"] else None,
        tables=ListingHooks(store, float(settings["LOBBY_CHECK_SECONDS"])),
        clock_scale=float(settings["CLOCK_SCALE"]),
        rated_min_win_score=int(settings["RATED_MIN_WIN_SCORE"]),
        outages=beat or NO_BEAT,
    )
    ctx = init_records(app, ctx)
    if beat is not None:  # an outage this process's beat found: every running clock shows its time back at once
        beat.on_outage = lambda span: threading.Thread(
            target=credit_running, args=(ctx, span[0] / 1000), name="clock-credit", daemon=True
        ).start()
    app.extensions["spades.commands"] = ctx
    redis_backed = hasattr(store, "client")  # else a test's MemoryStore
    docs = RedisEventDocs.beside(store) if redis_backed else MemoryEventDocs()
    rooms = RedisArenaRooms.beside(store) if redis_backed else MemoryArenaRooms()
    records = getattr(ctx.players, "engine", None)  # seeds an arena entrant's rating
    arena = ArenaRoom(ctx, rooms, lambda player, board: entry_rating(records, player.id, board))
    app.extensions["spades.events"] = Events(ctx, EventStorage(docs), arena=arena)
    blocks = app.extensions.get("spades.friends", NO_BLOCKS)  # quick match never seats a blocked pair together
    app.extensions["spades.matchmaker"], sweeper = lobby_service(app.config, ctx, wakeups, blocks)
    if sweeper is not None:
        app.extensions["spades.lobby_sweeper"] = sweeper
        sweeper.start()
    app.extensions["spades.hints"], app.extensions["spades.reviews"] = make_analysis_clients(app, dispatcher)
    init_observability(app, dispatcher.queue_depth)
    _register_errors(app)
    listeners = init_listeners(app)  # before the limits: a request its listener does not serve spends nothing
    limiter = init_protection(app, v1, exempt=[healthz], listeners=listeners)
    app.register_blueprint(v1)
    limit_hints(app, limiter)
    limit_creates(app, limiter)
    limit_exports(app, limiter, record_routes.wants_export)
    limit_rejoins(app, limiter)
    limit_player_creates(app, limiter)
    limit_sessions(app, limiter)
    app.register_blueprint(health)
    app.register_blueprint(web)
    _register_docs(app)
    if settings["AI_ENABLED"]:
        results = [
            redis.Redis.from_url(node.backend, socket_timeout=None, socket_connect_timeout=2)
            for node in broker_nodes(settings)
        ]
        max_attempts = int(settings["AI_MAX_ATTEMPTS"])
        # one sweep finds overdue AI turns and run-out clocks: it runs at the shorter interval (timeouts' lateness)
        interval = min(float(settings["AI_SWEEP_INTERVAL_SECONDS"]), float(settings["CLOCK_SWEEP_INTERVAL_SECONDS"]))
        driver = AiDriver(ctx, dispatcher, results, max_attempts, interval, gate=gate, parallel=SWEEP_PARALLEL)
        hooks.on_deadline = driver.wake_at  # the clocks this process starts: swept as they run out
        app.extensions["spades.ai_driver"] = driver
        driver.start()
        start_collector(app, dispatcher, results)
    return app


ACCURACY_SEND_EXPIRES_SECONDS = 600.0  # an analysis not taken off the bulk queue by then is dropped, then sent again


def start_collector(app: Flask, dispatcher: AiDispatcher, results: list[redis.Redis]) -> None:
    """The accuracy collector (:mod:`services.api.ratings.collector`), with the records writer that queues its
    games: their analyses on the bulk expert queue, read back from the result backends."""
    repository = app.extensions.get("spades.records")
    if repository is None or not app.config["RECORDS_WRITER_ENABLED"] or not app.config["ACCURACY_ENABLED"]:
        return
    bulk = BulkAnalyses(results, dispatcher, queue_of(HINT_LEVEL, bulk=True), ACCURACY_SEND_EXPIRES_SECONDS)
    collector = AccuracyCollector(
        repository.engine, record_decisions, bulk.send, bulk.fetch, wait=ACCURACY_SEND_EXPIRES_SECONDS * 1.5
    )
    app.extensions["spades.accuracy_collector"] = collector
    collector.start()


def init_records(app: Flask, ctx: Collaborators) -> Collaborators:
    """The records database and this process's records writer (:mod:`services.api.records.service`); the
    players, on the same database, which the commands then look seats' players up in (``ctx`` with them)."""
    if ctx.records is None:
        return ctx
    score = all(bool(app.config[name]) for name in ("AI_ENABLED", "RECORDS_WRITER_ENABLED", "ACCURACY_ENABLED"))

    def ratings(engine: Engine, computer_only: bool) -> Callable[[dict[str, Any], int], bool]:
        return applier(engine, computer_only, score)  # rated games queued for the accuracy collector

    writer = records_service(app.config, ctx.store, ctx.records, ratings, upkeep=(rekey_if_stale, recount_if_stale))
    app.extensions["spades.records"], app.extensions["spades.records_writer"] = writer.repository, writer
    players = PlayerRepository(writer.repository.engine)  # the same database and pool
    app.extensions["spades.players"] = players
    friends = friends_service(app.config, players.engine, ctx.tables)
    app.extensions["spades.friends"], app.extensions["spades.invites"] = friends.friends, friends.invites
    app.extensions["spades.player_presence"] = friends.presence
    if app.config["RECORDS_WRITER_ENABLED"]:
        writer.start()
    return dataclasses.replace(ctx, players=players, tables=friends.tables)


def _under_gevent() -> bool:
    """Whether this process runs on gevent (gunicorn's gevent worker patches the standard library first)."""
    try:
        from gevent import monkey
    except ImportError:
        return False
    return bool(monkey.is_module_patched("time"))


def quotas_of(settings: dict[str, Any]) -> Quotas:
    """The games-in-play quotas, on with the rate limits (``RATE_LIMIT_ENABLED``)."""
    if not settings["RATE_LIMIT_ENABLED"]:
        return NO_QUOTAS
    in_play, computer = int(settings["MAX_GAMES_IN_PLAY"]), int(settings["MAX_COMPUTER_GAMES"])
    return Quotas(in_play, computer, hold_seconds=int(settings["GAME_TTL_SECONDS"]))


def waiting_caps_of(settings: dict[str, Any]) -> WaitingCaps:
    """The caps on a client's waiting requests (streams, long polls, hints, reviews), on with the rate limits
    (``RATE_LIMIT_ENABLED``)."""
    if not settings["RATE_LIMIT_ENABLED"]:
        return NO_CAPS
    per_address, per_token = int(settings["MAX_WAITING_PER_ADDRESS"]), int(settings["MAX_WAITING_PER_TOKEN"])
    return WaitingCaps(per_address, per_token, float(settings["WAITING_LEASE_SECONDS"]))


def _ai_request_id() -> str:
    """The request an AI turn is sent for (its log lines and the worker's carry it)."""
    return request_id() if has_request_context() else "ai-driver"


def celery_init_app(app: Flask) -> Celery:
    """Flask's Celery pattern, producer side: the API only sends tasks (through
    :class:`SenderRedisBackend`: no result-consumer subscription per send).  One app per broker node
    (``app.extensions["spades.celery_nodes"]``, in ``AI_BROKER_URLS`` order); the first is returned."""
    nodes = [celery_for_node(app.name, app.config, node.broker, node.backend) for node in broker_nodes(app.config)]
    app.extensions["spades.celery_nodes"] = nodes
    app.extensions["celery"] = nodes[0]
    return nodes[0]


def make_analysis_clients(app: Flask, dispatcher: AiDispatcher) -> tuple[HintClient, AnalysisTasks]:
    """Hints and round reviews: ``ai.hint`` on the hint queue, waited for on the result backend with
    bounded socket timeouts (a dead Redis is a quick 503)."""
    config = app.config
    timeout = float(config["REDIS_SOCKET_TIMEOUT"])
    # a game's hints and reviews go to the broker node of its turns, waited for on that node's backend
    results = [
        redis.Redis.from_url(node.backend, socket_timeout=timeout, socket_connect_timeout=timeout)
        for node in broker_nodes(config)
    ]
    queue = config["HINT_QUEUE"]
    hints = AnalysisTasks(results, dispatcher, queue, float(config["HINT_TIMEOUT_SECONDS"]), "hint_unavailable")
    reviews = AnalysisTasks(results, dispatcher, queue, float(config["REVIEW_TIMEOUT_SECONDS"]), "review_unavailable")
    return HintClient(hints), reviews


def _register_docs(app: Flask) -> None:
    @app.get("/openapi.yaml")
    def openapi_yaml() -> Response:
        """The contract as YAML: ``application/yaml`` (RFC 9512), or ``text/yaml`` for a client that asks for
        text (the generated clients read it as text)."""
        mimetype = request.accept_mimetypes.best_match(YAML_TYPES, default=YAML_TYPES[0]) or YAML_TYPES[0]
        response = send_file(openapi_path(), mimetype=mimetype, max_age=300)
        response.vary.add("Accept")
        return response

    docs = get_swaggerui_blueprint(
        "/docs", "/openapi.yaml", config={"app_name": "Spades API", "deepLinking": True}, blueprint_name="docs"
    )
    app.register_blueprint(docs)

    @app.get("/docs")
    def docs_root() -> Response:
        return redirect("/docs/", code=308)  # type: ignore[return-value]


def _register_errors(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def api_error(error: ApiError) -> Response:
        headers = {"WWW-Authenticate": 'Bearer realm="spades"'} if error.status == 401 else {}
        if error.retry_after is not None:
            headers["Retry-After"] = str(error.retry_after)
        elif error.status == 503:
            headers["Retry-After"] = "1"
        return problem_response(error, headers)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Response:
        if isinstance(error, SecurityError):  # a Host not in TRUSTED_HOSTS (services/api/http/inbound.py)
            return api_error(invalid_request([{"field": "Host", "message": "not a host this server answers for"}]))
        status = error.code or 500
        code = _HTTP_CODES.get(status, "invalid_request" if status < 500 else "internal_error")
        detail = error.description or error.name
        if status == 413:
            detail = f"The body may be at most {app.config['MAX_CONTENT_LENGTH']} bytes."
        headers = dict(error.get_headers()) if status == 405 else {}
        response = problem_response(ApiError(status, code, detail), {k: v for k, v in headers.items() if k == "Allow"})
        return response

    @app.errorhandler(NotReplicated)
    def not_replicated(error: NotReplicated) -> Response:
        STORE_ERRORS.labels("NotReplicated").inc()
        log.warning("write not confirmed by replicas: %s", error)
        detail = (
            "The change was made but is not yet confirmed by the store's replicas, so it is not acknowledged; "
            "retry with the same Idempotency-Key (or re-read the game)."
        )
        return problem_response(ApiError(503, "not_replicated", detail), {"Retry-After": "1"})

    @app.errorhandler(redis.exceptions.RedisError)
    def store_down(error: redis.exceptions.RedisError) -> Response:
        STORE_ERRORS.labels(error.__class__.__name__).inc()
        log.warning("redis error: %s", error.__class__.__name__)
        return problem_response(
            ApiError(503, "unavailable", "The game store is unreachable; retry shortly."), {"Retry-After": "1"}
        )

    @app.errorhandler(sqlalchemy.exc.SQLAlchemyError)
    def records_down(error: sqlalchemy.exc.SQLAlchemyError) -> Response:
        STORE_ERRORS.labels(error.__class__.__name__).inc()
        log.warning("records database error: %s", error.__class__.__name__)
        return problem_response(
            ApiError(503, "records_unavailable", "The records database is unreachable; retry shortly."),
            {"Retry-After": "1"},
        )

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Response:
        log.exception("unhandled error")
        return problem_response(ApiError(500, "internal_error", "An unexpected error occurred."))
