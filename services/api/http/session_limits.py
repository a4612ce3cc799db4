"""The device routes' rate limits, on the machinery of :mod:`services.api.http.rate_limits` (flask-limiter, its
Redis storage, its ``429`` with ``Retry-After``):

- refused sign-ins (``POST /v1/sessions``: a link code, a recovery code, a passkey) per client address
  (``SIGN_IN_RATE_LIMIT``, ``sign_in_rate_limited``), counting only the refusals, as rejoin codes do: guessing link
  and recovery codes is bounded by it, a person who types theirs right is never held back;
- a passkey sign-in's options (``POST /v1/sessions/passkey-options``, each a challenge kept until it expires) per
  client address (``PASSKEY_OPTIONS_RATE_LIMIT``, ``passkey_options_rate_limited``);
- link codes made, per client address (``LINK_CODE_ADDRESS_RATE_LIMIT``) and per player
  (``LINK_CODE_RATE_LIMIT``, however many devices it asks from), both ``link_code_rate_limited``.  The player is
  known only once its ``Player-Token`` is read, so the route spends the player's budget itself
  (:func:`spend_link_code`), on the limiter's own storage and strategy.
"""

from __future__ import annotations

import logging
import time

from flask import Flask, current_app
from flask_limiter import Limiter
from limits import parse

from services.api.http.rate_limits import limit_per_address
from services.api.metrics import QUOTA_REFUSALS
from services.api.problems import ApiError

log = logging.getLogger(__name__)


def limit_sessions(app: Flask, limiter: Limiter) -> None:
    """The per-address limits of the device routes (after the v1 blueprint is registered)."""
    limit_per_address(
        app,
        limiter,
        "v1.sign_in",
        app.config["SIGN_IN_RATE_LIMIT"],
        "sign_in",
        deduct_when=lambda response: response.status_code != 201,
    )
    limit_per_address(app, limiter, "v1.create_link_code", app.config["LINK_CODE_ADDRESS_RATE_LIMIT"], "link_codes")
    options = app.config["PASSKEY_OPTIONS_RATE_LIMIT"]
    limit_per_address(app, limiter, "v1.start_passkey_sign_in", options, "passkey_options")


def spend_link_code(player_id: str) -> None:
    """One link code of ``player_id``'s budget (``LINK_CODE_RATE_LIMIT``), or ``429 link_code_rate_limited``; a
    storage that fails lets the request through, as the limiter's own limits do (``swallow_errors``)."""
    config = current_app.config
    limiter: Limiter | None = current_app.extensions.get("spades.limiter")
    if limiter is None or not config["RATE_LIMIT_ENABLED"] or not config["LINK_CODE_RATE_LIMIT"]:
        return
    item = parse(config["LINK_CODE_RATE_LIMIT"])
    key = ("spades-rl", "link_codes_player", player_id)
    try:
        allowed = limiter.limiter.hit(item, *key)
        reset = limiter.limiter.get_window_stats(item, *key).reset_time if not allowed else 0.0
    except Exception:  # Redis down: the store's own routes answer 503
        log.warning("link code limit unavailable", exc_info=True)
        return
    if not allowed:
        QUOTA_REFUSALS.labels("link_code_rate_limited").inc()
        raise ApiError(
            429,
            "link_code_rate_limited",
            f"Too many link codes made for this player: the limit is {config['LINK_CODE_RATE_LIMIT']}. Retry after "
            "the time in Retry-After.",
            retry_after=max(1, int(reset - time.time()) + 1),
        )
