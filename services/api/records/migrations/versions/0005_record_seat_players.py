"""Each record seat's player: ``record_seats.player_id``, indexed, so the records of one player's games are an
index lookup (the listing's ``player_id`` filter; a deleted player's records found and anonymised).

Revision ID: 0005
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("record_seats") as batch:
        batch.add_column(sa.Column("player_id", sa.String(40)))
    op.create_index("record_seats_player_id", "record_seats", ["player_id", "game_id"])


def downgrade() -> None:
    op.drop_index("record_seats_player_id", "record_seats")
    with op.batch_alter_table("record_seats") as batch:
        batch.drop_column("player_id")
