"""The game records and their seats.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_records",
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("outcome", sa.String(16), nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("ended_ms", sa.BigInteger, nullable=False),
        sa.Column("recorded_ms", sa.BigInteger, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
    )
    op.create_index("game_records_newest", "game_records", ["ended_ms", "game_id"])
    op.create_table(
        "record_seats",
        sa.Column(
            "game_id",
            sa.String(64),
            sa.ForeignKey("game_records.game_id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player", sa.String(16), nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
    )
    op.create_index("record_seats_player", "record_seats", ["player", "won", "game_id"])


def downgrade() -> None:
    op.drop_table("record_seats")
    op.drop_table("game_records")
