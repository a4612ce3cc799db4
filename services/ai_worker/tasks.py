"""The one Celery task: ``ai.decide``, a computer player's move.

The API sends it by name (``send_task("ai.decide", kwargs=..., queue=f"ai.{level}")``)
and never imports this package.  Inputs and output are plain JSON.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from .celery_app import celery
from .strategies import decide

log = logging.getLogger(__name__)


@celery.task(name="ai.decide")
def decide_task(
    *,
    view: dict[str, Any],
    level: str,
    game_id: str,
    version: int,
    seat: int,
    seed: int,
    request_id: str | None = None,
) -> dict[str, Any]:
    """The move of a ``level`` computer in seat ``seat`` for the game state
    ``version`` of ``game_id``; returns it with the echo of those ids (the API
    drops an answer whose version is stale) and the time it took."""
    started = time.perf_counter()
    if view.get("you") != seat:
        raise ValueError(f"view is for seat {view.get('you')}, not seat {seat}")
    move = decide(view, level, seed)
    elapsed_ms = round((time.perf_counter() - started) * 1000, 3)
    log.info(
        "ai.decide request_id=%s game_id=%s version=%s seat=%s level=%s move=%s elapsed_ms=%s",
        request_id, game_id, version, seat, level, move, elapsed_ms,
    )  # fmt: skip
    return {
        "game_id": game_id,
        "version": version,
        "seat": seat,
        "level": level,
        "move": move,
        "elapsed_ms": elapsed_ms,
    }
