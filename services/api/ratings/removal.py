"""A deleted player's ratings taken off the leaderboards: its rating rows go and each leaves its bucket, in the
caller's transaction (the deletion's), so the buckets keep counting exactly the rows there are."""

from __future__ import annotations

import math

from sqlalchemy import Connection, delete, select

from services.api.records.schema import player_ratings, rating_buckets


def remove_ratings(connection: Connection, player_id: str) -> int:
    """Delete the player's rating rows and move the buckets (locked first, as applying a game locks them);
    how many rows went."""
    mine = player_ratings.c.player_id == player_id
    rows = connection.execute(select(player_ratings).where(mine).order_by(player_ratings.c.board).with_for_update())
    gone = [(row.board, row.kind, math.floor(row.score)) for row in rows]
    connection.execute(delete(player_ratings).where(mine))
    for board, kind, bucket in sorted(gone):
        connection.execute(
            rating_buckets.update()
            .where(rating_buckets.c.board == board, rating_buckets.c.kind == kind, rating_buckets.c.bucket == bucket)
            .values(players=rating_buckets.c.players - 1)
        )
    return len(gone)
