"""Rate limits and CORS (the security headers are added by :mod:`services.api.http.wsgi_edge`).

Rate limits use flask-limiter with Redis storage, so a limit holds across
every API process: one budget per client address for all ``/v1`` requests
(an application-wide limit, not flask-limiter's per-route default limits),
and one per seat token, shared by every v1 route, for requests that carry one.
The two add up: a token's requests also spend its address's budget; hints
and round reviews have a third, their own per-token budget (``HINT_RATE_LIMIT``), game
creation a fourth, per address (``CREATE_RATE_LIMIT``, refused with its own
code, ``create_rate_limited``), the records' NDJSON export a fifth, per address
(``EXPORT_RATE_LIMIT``, ``export_rate_limited``), and making players a sixth, per address
(``PLAYER_CREATE_RATE_LIMIT``, ``player_create_rate_limited``).  A refused request gets a 429 problem+json
with ``Retry-After`` (at least 1 s; a quota's own 429 keeps the app's value).
``/healthz`` and the contract/docs pages are not limited; ``/readyz`` and
``/metrics`` are limited only where :mod:`services.api.http.listeners` says (on
the public listener, by the per-address budget), so probes and scrapes on the
internal listener never starve.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterable
from typing import Any

from flask import Blueprint, Flask, Response, g, request
from flask_cors import CORS
from flask_limiter import Limiter
from flask_limiter.errors import RateLimitExceeded

from services.api.config import rate_limit_storage
from services.api.games.auth import token_of
from services.api.games.quotas import address_id
from services.api.http.listeners import Listeners
from services.api.metrics import QUOTA_REFUSALS
from services.api.problems import MAX_INT64, ApiError, ascii_int, problem_response

SCOPE_CODES = {  # a scope's refusal code
    "create": "create_rate_limited",
    "export": "export_rate_limited",
    "rejoin": "rejoin_rate_limited",
    "players": "player_create_rate_limited",
    "link_codes": "link_code_rate_limited",
    "sign_in": "sign_in_rate_limited",
    "passkey_options": "passkey_options_rate_limited",
}
REFUSED_WHAT = {
    "create_rate_limited": "games created from this address",
    "export_rate_limited": "record exports",
    "rejoin_rate_limited": "refused rejoin codes from this address",
    "player_create_rate_limited": "players created from this address",
    "link_code_rate_limited": "link codes made from this address",
    "sign_in_rate_limited": "refused sign-ins from this address",
    "passkey_options_rate_limited": "passkey sign-ins started from this address",
}
EXPOSED_HEADERS = [
    "ETag",
    "Link",
    "Location",
    "Retry-After",
    "X-Request-ID",
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
]
ALLOWED_HEADERS = [
    "Authorization",
    "Content-Type",
    "If-Match",
    "If-None-Match",
    "Idempotency-Key",
    "Player-Token",
    "X-Request-ID",
]


def client_address() -> str:
    """The client's address: the peer's, or with ``PROXY_FIX_HOPS`` = n the one the n trusted proxies
    put in ``X-Forwarded-For`` (werkzeug's ProxyFix, applied by the app factory); a header a client
    forges is never read with 0 hops."""
    return request.remote_addr or "unknown"


def client_id() -> str | None:
    """This request's client as a game keeps who took a seat: its address, hashed
    (:func:`services.api.games.quotas.address_id`)."""
    return address_id(client_address())


def bearer_token() -> str | None:
    """This request's seat token, through the routes' own parser (a malformed header counts as none)."""
    return token_of(request.headers.get("Authorization"))


def token_key() -> str:
    """Rate-limit key for a seat token: a digest, so the token itself is never stored."""
    token = bearer_token() or ""
    return "token:" + hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def init_protection(app: Flask, api: Blueprint, exempt: list[Any], listeners: Listeners) -> Limiter:
    """Install limits on ``api`` and on the ops endpoints ``listeners`` limits (never on ``exempt`` views),
    CORS and headers."""
    config = app.config

    # flask-limiter's header hook writes Retry-After on every response it saw a limit for:
    # on a 200 (meaningless), on a 503 "retry in 1 s" (inflated to the end of the rate-limit
    # window), and truncated on a 429 ("0" near the window's end: a client retrying at once).
    # These two hooks bracket it (Flask runs after_request hooks in reverse order of
    # registration): the one registered after the limiter remembers what the app set, and
    # the one registered before it restores that, or keeps at least 1 s on a 429.
    # (With limits disabled the limiter writes no headers and neither hook is needed.)
    enabled = bool(config["RATE_LIMIT_ENABLED"])

    def retry_after_as_the_app_meant(response: Response) -> Response:
        if response.status_code == 429:  # the app's own 429 (a quota) keeps its value; the limiter's, its window's
            seconds = g.get("app_retry_after") or response.headers.get("Retry-After", "")
            response.headers["Retry-After"] = str(max(1, ascii_int(seconds, MAX_INT64) or 1))
        elif g.get("app_retry_after") is not None:
            response.headers["Retry-After"] = g.app_retry_after
        else:
            response.headers.pop("Retry-After", None)
        return response

    if enabled:
        app.after_request(retry_after_as_the_app_meant)
    limiter = Limiter(
        key_func=client_address,
        app=app,
        storage_uri=rate_limit_storage(config),
        storage_options={"socket_timeout": float(config["REDIS_SOCKET_TIMEOUT"])},
        application_limits=[config["RATE_LIMIT_PER_ADDRESS"]] if config["RATE_LIMIT_PER_ADDRESS"] else [],
        application_limits_exempt_when=lambda: (  # the v1 API, and /readyz and /metrics on the public listener
            request.blueprint != api.name and not listeners.limited(request.endpoint, request.environ)
        ),
        headers_enabled=True,
        strategy="fixed-window",
        swallow_errors=True,  # a Redis outage must not turn into 500s here; the store answers 503
        enabled=enabled,
        key_prefix="spades-rl",
    )

    def remember_app_retry_after(response: Response) -> Response:
        g.app_retry_after = response.headers.get("Retry-After")
        return response

    if enabled:
        app.after_request(remember_app_retry_after)

    if config["RATE_LIMIT_PER_TOKEN"]:
        per_token = limiter.shared_limit(
            config["RATE_LIMIT_PER_TOKEN"],
            scope="token",
            key_func=token_key,
            exempt_when=lambda: bearer_token() is None,
            override_defaults=False,
        )
        per_token(api)
    for view in exempt:
        limiter.exempt(view)

    @app.errorhandler(RateLimitExceeded)
    def rate_limited(error: RateLimitExceeded) -> Response:
        code = SCOPE_CODES.get(str(error.limit.scope), "rate_limited")
        if code != "rate_limited":
            QUOTA_REFUSALS.labels(code).inc()
        what = REFUSED_WHAT.get(code, "requests")
        detail = f"Too many {what}: the limit is {error.description}. Retry after the time in Retry-After."
        return problem_response(ApiError(429, code, detail))

    origins = [o.strip() for o in str(config["CORS_ORIGINS"] or "").split(",") if o.strip()]
    if origins:
        CORS(app, origins=origins, expose_headers=EXPOSED_HEADERS, allow_headers=ALLOWED_HEADERS, max_age=600)

    app.extensions["spades.limiter"] = limiter  # route decorators (limit_hints) hold it only weakly
    return limiter


class SlowRefusals:
    """WSGI middleware: a ``429`` is answered after ``delay`` seconds.

    A refusal costs the API about as much CPU as serving a small request (the limit checks are Redis
    round trips), so a client that sends again as soon as it is refused, on a few connections, keeps
    the API processes busy refusing it, and that CPU is everyone else's.  Held back ``delay`` seconds
    (a parked greenlet under gevent: no CPU, no thread), a refused client's requests are bounded by its
    connections / ``delay``; a client that honours ``Retry-After`` (at least 1 s) loses nothing.  The app
    factory installs it only under gevent, where the wait holds no thread."""

    def __init__(self, app: Callable[..., Iterable[bytes]], delay: float, sleep: Callable[[float], None] = time.sleep):
        self.app, self.delay, self.sleep = app, delay, sleep

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        refused = False

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            nonlocal refused
            refused = status.startswith("429")
            return start_response(status, headers, exc_info)

        body = self.app(environ, start)
        if refused:  # the status is set before the body is returned: nothing has been sent yet
            self.sleep(self.delay)
        return body


def limit_creates(app: Flask, limiter: Limiter) -> None:
    """``CREATE_RATE_LIMIT`` per client address on ``POST /v1/games``, on top of the shared budgets: a
    game costs far more than a request (and a computer-only one, workers' time until it ends)."""
    limit_per_address(app, limiter, "v1.create_game", app.config["CREATE_RATE_LIMIT"], "create")


def limit_exports(app: Flask, limiter: Limiter, is_export: Callable[[], bool]) -> None:
    """``EXPORT_RATE_LIMIT`` per client address on the records' NDJSON export (``GET /v1/records`` when
    ``is_export``: the route's own test), on top of the shared budgets: one export streams up to
    ``EXPORT_MAX_RECORDS`` whole records, a page of the listing 200 summaries at most."""
    limit_per_address(
        app, limiter, "v1.records", app.config["EXPORT_RATE_LIMIT"], "export", exempt_when=lambda: not is_export()
    )


def limit_rejoins(app: Flask, limiter: Limiter) -> None:
    """``REJOIN_RATE_LIMIT`` per client address on redeeming a rejoin code (``POST /v1/games/{id}/rejoin``),
    counting only the redeems refused: guessing codes (:mod:`services.api.games.rejoin`) is bounded by it, a
    person who types theirs right is never held back."""
    limit_per_address(
        app,
        limiter,
        "v1.redeem_rejoin_code",
        app.config["REJOIN_RATE_LIMIT"],
        "rejoin",
        deduct_when=lambda response: response.status_code != 200,
    )


def limit_player_creates(app: Flask, limiter: Limiter) -> None:
    """``PLAYER_CREATE_RATE_LIMIT`` per client address on ``POST /v1/players``, on top of the shared budgets:
    a player is a row kept for good and a name taken from everyone else, so one address cannot mint them in
    bulk (or squat on names)."""
    limit_per_address(app, limiter, "v1.create_player", app.config["PLAYER_CREATE_RATE_LIMIT"], "players")


def limit_per_address(
    app: Flask,
    limiter: Limiter,
    endpoint: str,
    limit: str,
    scope: str,
    exempt_when: Callable[[], bool] | None = None,
    deduct_when: Callable[[Response], bool] | None = None,
) -> None:
    """``limit`` per client address on one route (none when empty), its refusals coded by ``scope``
    (:data:`SCOPE_CODES`); wrapped around the registered view, as :func:`limit_hints` does."""
    if not limit:
        return
    app.view_functions[endpoint] = limiter.limit(
        limit,
        key_func=client_address,
        override_defaults=False,
        scope=scope,
        exempt_when=exempt_when,
        deduct_when=deduct_when,
    )(app.view_functions[endpoint])


def limit_hints(app: Flask, limiter: Limiter) -> None:
    """``HINT_RATE_LIMIT`` per seat token, one budget shared by the hint and round-review routes, on
    top of the shared per-token and per-address budgets: both cost a worker far more than a view, so
    a client polling them is held back sooner.

    Applied by wrapping the registered views (flask-limiter checks a route's
    own limits in the wrapper its decorator makes), so this runs after the
    blueprint is registered."""
    if not app.config["HINT_RATE_LIMIT"]:
        return
    shared = limiter.shared_limit(
        app.config["HINT_RATE_LIMIT"],
        scope="hint",
        key_func=token_key,
        exempt_when=lambda: bearer_token() is None,  # a hint or review without a token is a 401 anyway
        override_defaults=False,  # the blueprint's shared per-token limit still applies
    )
    for endpoint in ("v1.hint", "v1.round_review"):
        app.view_functions[endpoint] = shared(app.view_functions[endpoint])
