"""Players, their ratings, stats and games, and the guard that applies each finished game once
(``records/schema.py`` says what each table is for).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(64)),
        sa.Column("name_key", sa.String(64)),
        sa.Column("token_hash", sa.String(64)),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("deleted_ms", sa.BigInteger),
    )
    op.create_index("players_name_key", "players", ["name_key"], unique=True)
    op.create_index("players_token_hash", "players", ["token_hash"], unique=True)
    op.create_table(
        "player_ratings",
        sa.Column("player_id", sa.String(40), sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("board", sa.String(16), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("player_ratings_rank", "player_ratings", ["board", "kind", "score", "player_id"])
    op.create_table(
        "rating_buckets",
        sa.Column("board", sa.String(16), primary_key=True),
        sa.Column("kind", sa.String(8), primary_key=True),
        sa.Column("bucket", sa.Integer, primary_key=True),
        sa.Column("players", sa.Integer, nullable=False),
    )
    op.create_table(
        "player_stats",
        sa.Column("player_id", sa.String(40), sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
        *(
            sa.Column(name, sa.Integer, nullable=False)
            for name in (
                "games",
                "wins",
                "rounds",
                "contracts_bid",
                "contracts_made",
                "sets",
                "nils_bid",
                "nils_made",
                "bags",
            )
        ),
        sa.Column("updated_ms", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "player_games",
        sa.Column("player_id", sa.String(40), sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("ended_ms", sa.BigInteger, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("board", sa.String(16), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        *(sa.Column(name, sa.Float) for name in ("mu_before", "sigma_before", "mu_after", "sigma_after")),
    )
    op.create_index("player_games_newest", "player_games", ["player_id", "ended_ms", "game_id"])
    op.create_table(
        "game_ratings",
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("applied_ms", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    for table in ("game_ratings", "player_games", "player_stats", "rating_buckets", "player_ratings", "players"):
        op.drop_table(table)
