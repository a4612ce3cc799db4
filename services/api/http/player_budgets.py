"""Budgets per player (``LINK_CODE_RATE_LIMIT``, ``INVITE_RATE_LIMIT``), on the machinery of
:mod:`services.api.http.rate_limits` (flask-limiter's storage and strategy, so a budget holds across processes).

The player is known only once its ``Player-Token`` is read, so a route spends the budget itself, where it chooses:
a link code as it is made, an invite only once it passed every check (a refused one costs nothing).  A storage
that fails lets the request through, as the limiter's own limits do (``swallow_errors``).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from flask import current_app
from flask_limiter import Limiter
from limits import parse

from services.api.metrics import QUOTA_REFUSALS
from services.api.problems import ApiError

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class PlayerBudget:
    """A budget: its setting (``"10/hour"``; ``""``: none), its key among the limiter's, its problem code and what
    it counts, in the refusal's words."""

    setting: str
    bucket: str
    code: str
    counts: str


LINK_CODES = PlayerBudget("LINK_CODE_RATE_LIMIT", "link_codes_player", "link_code_rate_limited", "link codes made")
INVITES = PlayerBudget("INVITE_RATE_LIMIT", "invites_player", "invite_rate_limited", "invites sent")


def spend(budget: PlayerBudget, player_id: str) -> None:
    """One of ``player_id``'s ``budget``, or ``429 <budget.code>`` with ``Retry-After``."""
    config = current_app.config
    limiter: Limiter | None = current_app.extensions.get("spades.limiter")
    if limiter is None or not config["RATE_LIMIT_ENABLED"] or not config[budget.setting]:
        return
    item = parse(config[budget.setting])
    key = ("spades-rl", budget.bucket, player_id)
    try:
        allowed = limiter.limiter.hit(item, *key)
        reset = limiter.limiter.get_window_stats(item, *key).reset_time if not allowed else 0.0
    except Exception:  # Redis down: the store's own routes answer 503
        log.warning("player budget unavailable", extra={"budget": budget.bucket}, exc_info=True)
        return
    if not allowed:
        QUOTA_REFUSALS.labels(budget.code).inc()
        raise ApiError(
            429,
            budget.code,
            f"Too many {budget.counts} for this player: the limit is {config[budget.setting]}. Retry after the time "
            "in Retry-After.",
            retry_after=max(1, int(reset - time.time()) + 1),
        )
