"""A player's games, newest first, a page at a time (``GET /v1/players/{id}/games``): from ``player_games``,
whose index (player, ended, game) serves each page as one range read; the cursor is the last row's
``(ended_ms, game_id)`` as the records' listing has it, so a page never skips or repeats a game however many
end meanwhile.  A rated game shows the player's display rating before and after, the change, and whether the
rating after it was provisional (:func:`services.ratings.provisional.provisional`)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, select, tuple_

from services.api.records.content import iso
from services.api.records.repository import Cursor
from services.api.records.schema import player_games
from services.ratings.model import Rating, display
from services.ratings.provisional import provisional


def games_page(
    connection: Connection, player_id: str, after: Cursor | None, limit: int
) -> tuple[list[dict[str, Any]], Cursor | None]:
    """Up to ``limit`` of the player's games after ``after``, newest first; the next page's cursor (None: last)."""
    key = tuple_(player_games.c.ended_ms, player_games.c.game_id)
    query = select(player_games).where(player_games.c.player_id == player_id)
    if after is not None:
        query = query.where(key < tuple_(*after))
    query = query.order_by(player_games.c.ended_ms.desc(), player_games.c.game_id.desc()).limit(limit + 1)
    rows = connection.execute(query).all()
    following = (rows[limit - 1].ended_ms, rows[limit - 1].game_id) if len(rows) > limit and limit else None
    return [game_of(row) for row in rows[:limit]], following


def game_of(row: Any) -> dict[str, Any]:
    """One row as the page shows it."""
    game: dict[str, Any] = {
        "game_id": row.game_id,
        "ended_at": iso(row.ended_ms),
        "seat": row.seat,
        "won": row.won,
        "board": row.board,
        "rated": row.rated,
    }
    if row.rated and row.mu_before is not None and row.mu_after is not None:
        before = display(Rating(row.mu_before, row.sigma_before))
        rated = Rating(row.mu_after, row.sigma_after)
        after = display(rated)
        game.update(
            rating_before=before,
            rating_after=after,
            change=after - before,
            provisional=provisional(rated, row.games_after or 0),
        )
    return game
