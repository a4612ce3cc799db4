"""Settings from environment variables, so one image serves every deployment.

Every setting has a safe default for a laptop; docs/api.md lists them all.
"""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import quote

from services.computers import HINT_LEVEL, WORKER_QUEUES, queue_of

DEFAULTS: dict[str, Any] = {
    "REDIS_URL": "redis://127.0.0.1:6379/0",
    "REDIS_CLUSTER_NODES": "",  # "host:port,host:port": games on a Redis Cluster (REDIS_URL then unused for games)
    "REDIS_CLUSTER_PASSWORD": "",  # the cluster nodes' password (AUTH), when they require one
    "REDIS_WAIT_REPLICAS": 0,  # a write is acknowledged once this many replicas confirm it (WAIT); 1 in cluster mode
    "REDIS_WAIT_TIMEOUT_MS": 500,  # how long a write waits for them; less than REDIS_SOCKET_TIMEOUT
    "REDIS_SOCKET_TIMEOUT": 1.0,  # seconds; bounds every Redis call so a dead Redis gives a quick 503
    "REDIS_MAX_CONNECTIONS": 512,  # per pool and process: requests in a Redis call at once (a waiting client holds none)
    "GAME_TTL_SECONDS": 7 * 24 * 3600,  # idle games expire; refreshed on every change
    "FINISHED_GAME_TTL_SECONDS": 3600,  # a finished game (nobody moves in it) expires this long after its end
    "IDEMPOTENCY_TTL_SECONDS": 24 * 3600,  # how long a stored Idempotency-Key response is replayed
    "DATA_DIR": "var",  # the embedded records database's directory (records.sqlite3), when no URL is set
    "RECORDS_ENABLED": True,  # every finished (or abandoned) game's record kept in the records database
    "RECORDS_DATABASE_URL": "",  # postgresql://user:password@host:5432/db for a deployment ("" = SQLite in DATA_DIR)
    "RECORDS_POOL_SIZE": 2,  # PostgreSQL connections per API process (as many again in bursts)
    "RECORDS_WRITER_ENABLED": True,  # run this process's records writer (drains the outbox into the database)
    "RECORDS_DRAIN_INTERVAL_SECONDS": 1.0,  # how often the writer looks for due records
    "RECORDS_RETRY_SECONDS": 10.0,  # a record the database did not take is tried again this much later
    "RECORDS_RETENTION_DAYS": 0,  # records that ended longer ago are deleted (0 = kept forever)
    "RATE_COMPUTER_ONLY_GAMES": False,  # rate games of computers alone too (a rating run placing the levels)
    "EXPORT_RATE_LIMIT": "10/hour",  # NDJSON exports of the records per client address, on top of its budget ("" = none)
    "EXPORT_MAX_RECORDS": 10_000,  # records one export sends at most; a Link header says where the next starts (0 = all)
    "MAX_CONTENT_LENGTH": 16 * 1024,  # bytes; bigger bodies get 413
    "BODY_READ_TIMEOUT_SECONDS": 10.0,  # a request body not received within this gets 408 and its connection closed
    "TRUSTED_HOSTS": "",  # comma-separated Host names served (".example.com": subdomains); others 400 ("" = any)
    "EVENTS_MAX_WAIT": 30,  # seconds; upper bound of ?wait= on /events
    "EVENTS_PAGE_SIZE": 500,  # most events returned by one /events call
    "STREAM_HEARTBEAT_SECONDS": 15.0,  # /stream: a ": keep-alive" comment after this long without an event
    "STREAM_MAX_SECONDS": 300.0,  # /stream: the server closes a stream this old; the client resumes
    "EVENT_STREAM_INTERVAL_SECONDS": 2.0,  # an event's stream: its body read again (once a process) this often
    "ALLOW_SEEDED_GAMES": False,  # accept POST /v1/games with "seed": match mode (the seed's chooser knows every deal)
    "VIEW_CACHE_SIZE": 4096,  # per-process cache of rendered views, keyed by (game, version, seat)
    "CELERY_BROKER_URL": None,  # Celery broker for AI turns; defaults to REDIS_URL (required in cluster mode)
    "CELERY_RESULT_BACKEND": None,  # where AI decisions come back; defaults to REDIS_URL (required in cluster mode)
    "AI_BROKER_URLS": "",  # "redis://a/0,redis://b/0": AI broker nodes, each game's tasks on one (unset: CELERY_*)
    "AI_ENABLED": True,  # run the AI driver threads (apply decisions, re-send overdue turns)
    "AI_DECISION_DEADLINE_SECONDS": 10.0,  # an AI turn not applied by then is sent again
    "AI_MAX_ATTEMPTS": 5,  # after this many sends the API plays basic's move for the seat itself
    "AI_SWEEP_INTERVAL_SECONDS": 1.0,  # how often each API process looks for overdue AI turns
    "CLOCK_SWEEP_INTERVAL_SECONDS": 0.25,  # how often each API process looks for run-out turn clocks (the same sweep)
    "CLOCK_SCALE": 1.0,  # tests and drills only: the time controls' times multiplied (1 = the catalogue's)
    "CLOCK_OUTAGE_SECONDS": 1.0,  # a gap in the service's heartbeat longer than this is an outage, given back (0: off)
    "CLOCK_OUTAGE_GRACE_SECONDS": 5.0,  # a turn that ran through an outage has at least this left after its end
    "ACCURACY_ENABLED": True,  # score rated games' moves on the bulk expert queue (docs/capacity.md: its cost)
    "OPERATOR_TOKEN": "",  # the operator API's bearer token (/v1/operator: fair-play flags); "" = no operator API
    "OPERATOR_TOKEN_PREVIOUS": "",  # also taken while a new OPERATOR_TOKEN rolls out (docs/operations.md); "" = none
    "RATED_MIN_WIN_SCORE": 500,  # a game to a lower winning score is not rated (services.ratings.policy.may_count)
    "AI_QUEUES": ",".join(WORKER_QUEUES),  # queues /readyz expects a worker for: both of each level (computers)
    "HINT_QUEUE": queue_of(HINT_LEVEL),  # where GET /v1/games/{id}/hint sends ai.hint (the hint level's queue)
    "HINT_TIMEOUT_SECONDS": 5.0,  # how long a hint request waits for a worker before a 503 hint_unavailable
    "HINT_RATE_LIMIT": "30/minute",  # hint and review requests per seat token, on top of RATE_LIMIT_PER_TOKEN ("" = none)
    "REVIEW_TIMEOUT_SECONDS": 10.0,  # how long a round review waits for all its analyses before a 503 review_unavailable
    "READY_CACHE_SECONDS": 5.0,  # /readyz caches worker discovery this long
    "INTERNAL_BIND": "",  # "host:port" gunicorn also listens on, serving only /healthz, /readyz, /metrics ("" = none)
    "PUBLIC_OPS_ENDPOINTS": True,  # /readyz and /metrics also on the public port (API_BIND); off in deploy/
    "RATE_LIMIT_ENABLED": True,  # the rate limits and the games-in-play quotas on /v1
    "RATE_LIMIT_PER_ADDRESS": "3000/minute",  # every request from one client address ("" = none)
    "RATE_LIMIT_PER_TOKEN": "600/minute",  # requests carrying one seat token ("" = none)
    "CREATE_RATE_LIMIT": "30/minute",  # games created per client address, on top of its request budget
    "MAX_GAMES_IN_PLAY": 20,  # games one creator (address; seat token) keeps unfinished at once (0 = no limit)
    "MAX_COMPUTER_GAMES": 3,  # of which computer-only games (no person or bot seated) (0 = no limit)
    "MAX_WAITING_PER_ADDRESS": 100,  # streams, long polls, hints, reviews one client address has waiting (0 = no cap)
    "MAX_WAITING_PER_TOKEN": 10,  # the same per seat token, from any address (0 = no cap)
    "WAITING_LEASE_SECONDS": 90.0,  # a waiting request's slot lapses this long after its process stops renewing it
    "PRESENCE_LEASE_SECONDS": 20.0,  # a seat counts as connected this long after its last stream or long poll (0 = off)
    "REMATCH_WAIT_SECONDS": 30.0,  # a rematch keeps the last game's people's seats this long, then computers take them
    "REJOIN_RATE_LIMIT": "10/minute",  # refused rejoin codes per client address ("" = none)
    "PLAYER_CREATE_RATE_LIMIT": "10/hour",  # players made per client address (POST /v1/players) ("" = none)
    "LINK_CODE_SECONDS": 600,  # how long a link code signs a device in (0 to 600: at most ten minutes)
    "LINK_CODE_RATE_LIMIT": "10/hour",  # link codes made per player ("" = none)
    "LINK_CODE_ADDRESS_RATE_LIMIT": "30/hour",  # link codes made per client address ("" = none)
    "SIGN_IN_RATE_LIMIT": "10/minute",  # refused sign-ins (POST /v1/sessions) per client address ("" = none)
    "WEBAUTHN_RP_ID": "localhost",  # the passkeys' relying party: the site's domain (never an IP address)
    "WEBAUTHN_RP_NAME": "Spades",  # the name an authenticator shows with a passkey
    "WEBAUTHN_ORIGINS": "",  # pages passkeys answer from ("" = https://<RP id>, and http://localhost on any port)
    "PASSKEY_CHALLENGE_SECONDS": 300,  # how long a passkey's options may be answered (0 to 300)
    "PASSKEY_OPTIONS_RATE_LIMIT": "30/minute",  # passkey sign-in options per client address ("" = none)
    "INVITE_RATE_LIMIT": "30/hour",  # invites sent per player (POST /v1/games/{id}/invites) ("" = none)
    "INVITE_SECONDS": 600,  # how long an invite stays in its player's notices
    "ONLINE_SECONDS": 300,  # a followed player is online when seen this recently (or at their public table)
    "MAX_MATCHES_PER_ADDRESS": 20,  # quick-match requests one client address has waiting at once (0 = no cap)
    "MAX_MATCHES_PER_TOKEN": 1,  # the same per seat token sent with the request (0 = no cap)
    "MATCH_SWEEP_INTERVAL_SECONDS": 0.25,  # how often each API process looks for quick-match buckets due
    "MATCH_FORM_LEASE_SECONDS": 5.0,  # a group whose game is not created by then is created by another process
    "MATCH_IDLE_SECONDS": 30.0,  # a waiting match request its client stopped asking about for this long expires
    "MATCH_KEEP_SECONDS": 600.0,  # an ended match request (seated, cancelled, expired) stays readable this long
    "LOBBY_CHECK_SECONDS": 60.0,  # a listed public table is checked against its game this often (expiry, a lost sync)
    "LOBBY_LOG_SIZE": 1000,  # the lobby's changes kept for GET /v1/tables/stream to resume from
    "LOBBY_SWEEPER_ENABLED": True,  # run this process's lobby sweeper (quick-match deadlines, table checks)
    "PAUSE_UNWATCHED_SECONDS": 60.0,  # a computer-only game nobody read for this long waits for a read (0 = never)
    "COMPUTER_GAME_PACE_SECONDS": 0.25,  # a computer-only game's computer moves no sooner than this after the last (0 = at once)
    "REFUSAL_DELAY_SECONDS": 1.0,  # under gevent, a 429 is answered this late: a refused flood takes no CPU (0 = at once)
    "RATE_LIMIT_STORAGE_URL": None,  # defaults to the game store (REDIS_URL, or the cluster), so limits hold everywhere
    "CORS_ORIGINS": "",  # comma-separated origins allowed to call the API from a browser ("" = no CORS)
    "LOG_LEVEL": "INFO",
    "WEB_ROOT": "",  # the /play client's files ("" = services/web/static; tests serve a copy they change)
    "PROXY_FIX_HOPS": 0,  # trusted reverse proxies in front (X-Forwarded-For/-Proto); 0 = use the peer address
}


def flag(value: str) -> bool:
    """An on/off variable: 0, false, no and off (any case) are off."""
    return value.strip().lower() not in ("0", "false", "no", "off")


_CASTS = {
    "REDIS_SOCKET_TIMEOUT": float,
    "REDIS_MAX_CONNECTIONS": int,
    "REDIS_WAIT_REPLICAS": int,
    "REDIS_WAIT_TIMEOUT_MS": int,
    "GAME_TTL_SECONDS": int,
    "FINISHED_GAME_TTL_SECONDS": int,
    "IDEMPOTENCY_TTL_SECONDS": int,
    "RECORDS_ENABLED": flag,
    "RATE_COMPUTER_ONLY_GAMES": flag,
    "RECORDS_POOL_SIZE": int,
    "RECORDS_WRITER_ENABLED": flag,
    "RECORDS_DRAIN_INTERVAL_SECONDS": float,
    "RECORDS_RETRY_SECONDS": float,
    "RECORDS_RETENTION_DAYS": float,
    "EXPORT_MAX_RECORDS": int,
    "MAX_CONTENT_LENGTH": int,
    "BODY_READ_TIMEOUT_SECONDS": float,
    "EVENTS_MAX_WAIT": int,
    "EVENTS_PAGE_SIZE": int,
    "STREAM_HEARTBEAT_SECONDS": float,
    "STREAM_MAX_SECONDS": float,
    "EVENT_STREAM_INTERVAL_SECONDS": float,
    "VIEW_CACHE_SIZE": int,
    "AI_ENABLED": flag,
    "ALLOW_SEEDED_GAMES": flag,
    "AI_DECISION_DEADLINE_SECONDS": float,
    "AI_MAX_ATTEMPTS": int,
    "AI_SWEEP_INTERVAL_SECONDS": float,
    "CLOCK_SWEEP_INTERVAL_SECONDS": float,
    "CLOCK_SCALE": float,
    "CLOCK_OUTAGE_SECONDS": float,
    "CLOCK_OUTAGE_GRACE_SECONDS": float,
    "RATED_MIN_WIN_SCORE": int,
    "ACCURACY_ENABLED": flag,
    "HINT_TIMEOUT_SECONDS": float,
    "REVIEW_TIMEOUT_SECONDS": float,
    "READY_CACHE_SECONDS": float,
    "PUBLIC_OPS_ENDPOINTS": flag,
    "PROXY_FIX_HOPS": int,
    "RATE_LIMIT_ENABLED": flag,
    "MAX_GAMES_IN_PLAY": int,
    "MAX_COMPUTER_GAMES": int,
    "MAX_WAITING_PER_ADDRESS": int,
    "MAX_WAITING_PER_TOKEN": int,
    "WAITING_LEASE_SECONDS": float,
    "PRESENCE_LEASE_SECONDS": float,
    "REMATCH_WAIT_SECONDS": float,
    "MAX_MATCHES_PER_ADDRESS": int,
    "LINK_CODE_SECONDS": int,
    "PASSKEY_CHALLENGE_SECONDS": int,
    "INVITE_SECONDS": int,
    "ONLINE_SECONDS": int,
    "MAX_MATCHES_PER_TOKEN": int,
    "MATCH_SWEEP_INTERVAL_SECONDS": float,
    "MATCH_FORM_LEASE_SECONDS": float,
    "MATCH_IDLE_SECONDS": float,
    "MATCH_KEEP_SECONDS": float,
    "LOBBY_CHECK_SECONDS": float,
    "LOBBY_LOG_SIZE": int,
    "LOBBY_SWEEPER_ENABLED": flag,
    "PAUSE_UNWATCHED_SECONDS": float,
    "COMPUTER_GAME_PACE_SECONDS": float,
    "REFUSAL_DELAY_SECONDS": float,
}


def load_config(overrides: dict[str, Any] | None = None, environ: dict[str, str] | None = None) -> dict[str, Any]:
    """DEFAULTS, then environment variables, then ``overrides`` (tests)."""
    environ = os.environ if environ is None else environ
    config = dict(DEFAULTS)
    for name in DEFAULTS:
        if name in environ and environ[name] != "":
            cast = _CASTS.get(name, str)
            config[name] = cast(environ[name])
    config.update(overrides or {})
    return config


class ConfigError(ValueError):
    """Settings that cannot work together: the process refuses to start rather than fail later."""


def cluster_nodes(config: dict[str, Any]) -> list[tuple[str, int]]:
    """``REDIS_CLUSTER_NODES`` as (host, port) pairs; empty when games live in one Redis."""
    nodes = []
    for item in str(config["REDIS_CLUSTER_NODES"]).split(","):
        if item.strip():
            host, _, port = item.strip().rpartition(":")
            nodes.append((host, int(port)))
    return nodes


def operator_tokens(config: dict[str, Any]) -> tuple[str, ...]:
    """The bearer tokens the operator API takes: ``OPERATOR_TOKEN`` and, while a new one rolls out,
    ``OPERATOR_TOKEN_PREVIOUS`` (processes of both settings serve at once, so neither token is refused meanwhile).
    None without ``OPERATOR_TOKEN``: a previous token alone makes nobody the operator."""
    current, previous = str(config.get("OPERATOR_TOKEN") or ""), str(config.get("OPERATOR_TOKEN_PREVIOUS") or "")
    return tuple(token for token in (current, previous) if token) if current else ()


def rate_limit_storage(config: dict[str, Any]) -> str:
    """Where the limit counters live: ``RATE_LIMIT_STORAGE_URL``, else beside the games (one Redis or the cluster)."""
    if config["RATE_LIMIT_STORAGE_URL"]:
        return str(config["RATE_LIMIT_STORAGE_URL"])
    nodes = cluster_nodes(config)
    if not nodes:
        return str(config["REDIS_URL"])
    password = quote(str(config["REDIS_CLUSTER_PASSWORD"]), safe="")
    auth = f":{password}@" if password else ""
    return "redis+cluster://" + auth + ",".join(f"{host}:{port}" for host, port in nodes)


def internal_port(config: dict[str, Any]) -> str | None:
    """The port of ``INTERNAL_BIND`` as gunicorn puts it in a request's ``SERVER_PORT``; None without one."""
    bind = str(config["INTERNAL_BIND"]).strip()
    if not bind:
        return None
    host, _, port = bind.rpartition(":")
    if not host or not port.isascii() or not port.isdigit() or bind.startswith(("unix:", "fd://")):
        raise ConfigError(f"INTERNAL_BIND must be host:port (a TCP address with its port), not {bind!r}")
    return str(int(port))


def check_config(config: dict[str, Any]) -> None:
    """Refuse settings that would fail at the first request (raises :class:`ConfigError`)."""
    internal_port(config)
    if cluster_nodes(config) and not config["AI_BROKER_URLS"]:
        missing = [name for name in ("CELERY_BROKER_URL", "CELERY_RESULT_BACKEND") if not config[name]]
        if missing:
            raise ConfigError(
                f"REDIS_CLUSTER_NODES is set, so {' and '.join(missing)} must name a plain (non-cluster) Redis: "
                "Celery's Redis transport cannot use a Redis Cluster (or set AI_BROKER_URLS)."
            )
    if not 0 <= int(config["LINK_CODE_SECONDS"]) <= 600:
        raise ConfigError("LINK_CODE_SECONDS must be 0 to 600: a link code lives at most ten minutes")
    if not 0 <= int(config["PASSKEY_CHALLENGE_SECONDS"]) <= 300:
        raise ConfigError(
            "PASSKEY_CHALLENGE_SECONDS must be 0 to 300: a passkey's challenge lives at most five minutes"
        )
    rp_id = str(config["WEBAUTHN_RP_ID"]).strip()
    if not rp_id or rp_id.replace(".", "").isdigit() or ":" in rp_id or "/" in rp_id:
        raise ConfigError("WEBAUTHN_RP_ID must be a domain (localhost, example.com): never empty or an IP address")
    if not float(config["CLOCK_SCALE"]) > 0:
        raise ConfigError("CLOCK_SCALE must be a positive number (1: the time controls as the catalogue gives them)")
    outage, sweep = float(config["CLOCK_OUTAGE_SECONDS"]), float(config["CLOCK_SWEEP_INTERVAL_SECONDS"])
    if outage < 0 or 0 < outage < 4 * sweep or float(config["CLOCK_OUTAGE_GRACE_SECONDS"]) < 0:
        raise ConfigError(
            "CLOCK_OUTAGE_SECONDS must be 0 (off) or at least 4 sweeps (CLOCK_SWEEP_INTERVAL_SECONDS: each process "
            "beats at its sweeps), and CLOCK_OUTAGE_GRACE_SECONDS not negative"
        )
    waits = int(config["REDIS_WAIT_REPLICAS"]) > 0
    if waits and int(config["REDIS_WAIT_TIMEOUT_MS"]) >= float(config["REDIS_SOCKET_TIMEOUT"]) * 1000:
        raise ConfigError(
            "REDIS_WAIT_TIMEOUT_MS must be less than REDIS_SOCKET_TIMEOUT, or WAIT's answer is never read"
        )
