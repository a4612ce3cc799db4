"""The leaderboards' bucket counts moved as ratings come onto a board, move on it or leave it
(:mod:`services.ratings.buckets`; :mod:`services.api.ratings.leaderboard` reads them)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import Connection

from services.api.records.schema import rating_buckets


def move_buckets(connection: Connection, insert: Any, board: str, moves: Mapping[tuple[str, int], int]) -> None:
    """Add each (kind, bucket)'s change of counted ratings on ``board`` to ``rating_buckets``, in sorted order."""
    for (kind, bucket), delta in sorted(moves.items()):
        if delta:
            add = insert(rating_buckets).values(board=board, kind=kind, bucket=bucket, players=delta)
            connection.execute(
                add.on_conflict_do_update(
                    index_elements=[rating_buckets.c.board, rating_buckets.c.kind, rating_buckets.c.bucket],
                    set_={"players": rating_buckets.c.players + add.excluded.players},
                )
            )
