"""Provisional ratings: ``player_ratings.provisional`` (first in the leaderboards' index after board and kind, so
the top and a rank read only ratings that are not), ``player_games.games_after`` (the player's rated games on
the board with that game, so a game's rating can be told provisional) and ``bucket_rules``, the rules the flags
and the buckets were counted by.

The flags and the buckets themselves are counted by :func:`services.api.records.database.migrate` right after the
migrations (:mod:`services.api.ratings.recount`): ``bucket_rules`` starts empty, so every flag is set by the
running code's rule and the buckets counted again from the ratings that are not provisional.  ``games_after``
is filled here, each rated game numbered in its player's games on its board by when it ended.  Down, the buckets
count every rating again, as revision 0003's code did.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import math
from collections import Counter

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

PER_POINT = 16  # revision 0003's buckets: floor(score × 16), kept here as it was


def upgrade() -> None:
    op.drop_index("player_ratings_rank", "player_ratings")
    with op.batch_alter_table("player_ratings", recreate="never") as batch:  # never copy: rows cascade from players
        batch.add_column(sa.Column("provisional", sa.Boolean, nullable=False, server_default=sa.true()))
    op.create_index("player_ratings_rank", "player_ratings", ["board", "kind", "provisional", "score", "player_id"])
    with op.batch_alter_table("player_games", recreate="never") as batch:
        batch.add_column(sa.Column("games_after", sa.Integer))
    op.execute(
        sa.text(
            "UPDATE player_games SET games_after = (SELECT count(*) FROM player_games AS earlier"
            " WHERE earlier.player_id = player_games.player_id AND earlier.board = player_games.board"
            " AND earlier.rated AND (earlier.ended_ms < player_games.ended_ms OR (earlier.ended_ms ="
            " player_games.ended_ms AND earlier.game_id <= player_games.game_id))) WHERE player_games.rated"
        )
    )
    op.create_table(
        "bucket_rules",
        sa.Column("rules", sa.String(200), primary_key=True),
        sa.Column("counted_ms", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("bucket_rules")
    with op.batch_alter_table("player_games", recreate="never") as batch:  # SQLite's own DROP COLUMN (3.35+)
        batch.drop_column("games_after")
    op.drop_index("player_ratings_rank", "player_ratings")
    with op.batch_alter_table("player_ratings", recreate="never") as batch:
        batch.drop_column("provisional")
    op.create_index("player_ratings_rank", "player_ratings", ["board", "kind", "score", "player_id"])
    connection = op.get_bind()
    counted: Counter[tuple[str, str, int]] = Counter()
    for board, kind, score in connection.execute(sa.text("SELECT board, kind, score FROM player_ratings")):
        counted[(board, kind, math.floor(score * PER_POINT))] += 1
    connection.execute(sa.text("DELETE FROM rating_buckets"))
    if counted:
        connection.execute(
            sa.text("INSERT INTO rating_buckets (board, kind, bucket, players) VALUES (:board, :kind, :bucket, :n)"),
            [{"board": b, "kind": k, "bucket": n, "n": count} for (b, k, n), count in sorted(counted.items())],
        )
