"""Settings from environment variables, so one image serves every deployment.

Every setting has a safe default for a laptop; docs/api.md lists them all.
"""

from __future__ import annotations

import os
from typing import Any

DEFAULTS: dict[str, Any] = {
    "REDIS_URL": "redis://127.0.0.1:6379/0",
    "REDIS_SOCKET_TIMEOUT": 1.0,  # seconds; bounds every Redis call so a dead Redis gives a quick 503
    "GAME_TTL_SECONDS": 7 * 24 * 3600,  # idle games expire; refreshed on every change
    "IDEMPOTENCY_TTL_SECONDS": 24 * 3600,  # how long a stored Idempotency-Key response is replayed
    "MAX_CONTENT_LENGTH": 16 * 1024,  # bytes; bigger bodies get 413
    "EVENTS_MAX_WAIT": 30,  # seconds; upper bound of ?wait= on /events
    "EVENTS_PAGE_SIZE": 500,  # most events returned by one /events call
    "VIEW_CACHE_SIZE": 4096,  # per-process cache of rendered views, keyed by (game, version, seat)
    "CELERY_BROKER_URL": None,  # for the AI dispatch (issue 4); unused by the API so far
}

_CASTS = {
    "REDIS_SOCKET_TIMEOUT": float,
    "GAME_TTL_SECONDS": int,
    "IDEMPOTENCY_TTL_SECONDS": int,
    "MAX_CONTENT_LENGTH": int,
    "EVENTS_MAX_WAIT": int,
    "EVENTS_PAGE_SIZE": int,
    "VIEW_CACHE_SIZE": int,
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
