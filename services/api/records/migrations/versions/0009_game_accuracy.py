"""Accuracy: ``game_accuracy``, a person's decisions in a rated game scored against expert's analysis from the
seat's view, added up (one row per game and seat), indexed by player for the profile and the flag.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_accuracy",
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.String(40), sa.ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
        sa.Column("decisions", sa.Integer, nullable=False),
        sa.Column("accurate", sa.Integer, nullable=False),
        sa.Column("given_away", sa.Float, nullable=False),
        sa.Column("cards", sa.Integer, nullable=False),
        sa.Column("trick_excess", sa.Float, nullable=False),
        sa.Column("scored_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("game_accuracy_player", "game_accuracy", ["player_id", "scored_ms"])


def downgrade() -> None:
    op.drop_index("game_accuracy_player", "game_accuracy")
    op.drop_table("game_accuracy")
