"""A player's games, newest first, a page at a time (``GET /v1/players/{id}/games``): from ``player_games``,
whose index (player, ended, game) serves each page as one range read; the cursor is the last row's
``(ended_ms, game_id)`` as the records' listing has it, so a page never skips or repeats a game however many
end meanwhile.  Each game shows its final scores and who sat where (names as they are now, from the records'
seats: one more indexed read for the page, absent once the game's record is gone), so the page can say whom it
was played with and against and how it ended.  A rated game shows the player's display rating before and
after, the change, and whether the rating after it was provisional
(:func:`services.ratings.provisional.provisional`), unless the player's ratings are held by the fair-play watch
(:func:`services.api.ratings.watch.holds`): then none is shown."""

from __future__ import annotations

from typing import Any

import orjson
from sqlalchemy import Connection, select, tuple_

from services.api.ratings.record_view import live_players, seat_player
from services.api.ratings.watch import holds
from services.api.records.content import iso
from services.api.records.repository import Cursor
from services.api.records.schema import player_games, record_seats
from services.ratings import policy
from services.ratings.model import Rating, display
from services.ratings.provisional import provisional

SEATS = 4


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
    seated = seats_of(connection, [row.game_id for row in rows[:limit]])
    shown = not holds(connection, [player_id])
    return [game_of(row, seated.get(row.game_id), shown) for row in rows[:limit]], following


def seats_of(connection: Connection, game_ids: list[str]) -> dict[str, list[dict[str, Any] | None]]:
    """Who sat at each seat of these games (``RecordPlayer`` or None), from the seats of their kept records."""
    if not game_ids:
        return {}
    query = select(record_seats.c.game_id, record_seats.c.seat, record_seats.c.player, record_seats.c.player_id)
    rows = connection.execute(query.where(record_seats.c.game_id.in_(game_ids))).all()
    found = live_players(connection, [player for row in rows if (player := _player_id(row)) is not None])
    seated: dict[str, list[dict[str, Any] | None]] = {}
    for row in rows:
        seats = seated.setdefault(row.game_id, [None] * SEATS)
        seats[row.seat] = seat_player(row.seat, _player_id(row), found)
    return seated


def _player_id(row: Any) -> str | None:
    """A record seat's player: its ``player_id``, else the computer level's that sat there (a record written before
    seats named their players, or a computer standing in for nobody)."""
    if row.player_id is not None:
        return str(row.player_id)
    return policy.computer_id(row.player) if row.player != "human" else None


def game_of(row: Any, seats: list[dict[str, Any] | None] | None = None, ratings_shown: bool = True) -> dict[str, Any]:
    """One row as the page shows it, with who sat where (None: the game's record is gone) and, when
    ``ratings_shown``, the player's rating before and after it."""
    game: dict[str, Any] = {
        "game_id": row.game_id,
        "ended_at": iso(row.ended_ms),
        "seat": row.seat,
        "won": row.won,
        "board": row.board,
        "rated": row.rated,
    }
    if row.scores is not None:
        game["scores"] = orjson.loads(row.scores)
    if seats is not None:
        game["players"] = seats
    if ratings_shown and row.rated and row.mu_before is not None and row.mu_after is not None:
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
