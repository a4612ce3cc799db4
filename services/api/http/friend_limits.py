"""The invites' limit: ``INVITE_RATE_LIMIT`` invites per sending player (``429 invite_rate_limited``), on the
machinery of :mod:`services.api.http.rate_limits` (flask-limiter's storage and strategy, so it holds across
processes).  The player is known only once its ``Player-Token`` is read, so the route spends the budget itself,
and only for an invite that passed every check: a refused one costs nothing.
"""

from __future__ import annotations

import logging
import time

from flask import current_app
from flask_limiter import Limiter
from limits import parse

from services.api.metrics import QUOTA_REFUSALS
from services.api.problems import ApiError

log = logging.getLogger(__name__)


def spend_invite(player_id: str) -> None:
    """One invite of ``player_id``'s budget, or ``429 invite_rate_limited``; a storage that fails lets the invite
    through, as the limiter's own limits do."""
    config = current_app.config
    limiter: Limiter | None = current_app.extensions.get("spades.limiter")
    if limiter is None or not config["RATE_LIMIT_ENABLED"] or not config["INVITE_RATE_LIMIT"]:
        return
    item = parse(config["INVITE_RATE_LIMIT"])
    key = ("spades-rl", "invites_player", player_id)
    try:
        allowed = limiter.limiter.hit(item, *key)
        reset = limiter.limiter.get_window_stats(item, *key).reset_time if not allowed else 0.0
    except Exception:
        log.warning("invite limit unavailable", exc_info=True)
        return
    if not allowed:
        QUOTA_REFUSALS.labels("invite_rate_limited").inc()
        raise ApiError(
            429,
            "invite_rate_limited",
            f"Too many invites sent: the limit is {config['INVITE_RATE_LIMIT']}. Retry after the time in Retry-After.",
            retry_after=max(1, int(reset - time.time()) + 1),
        )
