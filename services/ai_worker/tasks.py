"""The Celery tasks: ``ai.decide``, a computer player's move, and ``ai.hint``,
the hint level's move for a person with the figures behind it.

The API sends them by name (``send_task("ai.decide", kwargs=..., queue=f"ai.{level}")``,
``send_task("ai.hint", kwargs=..., queue="ai.hard")``) and never imports this
package.  Inputs and output are plain JSON.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from .celery_app import celery
from .dispatch import analyse, decide

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


@celery.task(name="ai.hint")
def hint_task(
    *,
    view: dict[str, Any],
    game_id: str,
    version: int,
    seat: int,
    seed: int,
    request_id: str | None = None,
) -> dict[str, Any]:
    """A hint for the person in seat ``seat`` at ``version`` of ``game_id``:
    the hint level's move for that seat's view and, per candidate move, the
    figures behind it (:func:`.dispatch.analyse`), with the echo of those ids
    (the API refuses an answer for another game, version or seat)."""
    started = time.perf_counter()
    if view.get("you") != seat:
        raise ValueError(f"view is for seat {view.get('you')}, not seat {seat}")
    analysis = analyse(view, seed)
    elapsed_ms = round((time.perf_counter() - started) * 1000, 3)
    log.info(
        "ai.hint request_id=%s game_id=%s version=%s seat=%s level=%s move=%s elapsed_ms=%s",
        request_id, game_id, version, seat, analysis["level"], analysis["move"], elapsed_ms,
    )  # fmt: skip
    return {
        "game_id": game_id,
        "version": version,
        "seat": seat,
        "level": analysis["level"],
        "move": analysis["move"],
        "candidates": analysis["candidates"],
        "elapsed_ms": elapsed_ms,
    }
