"""Hidden records: an abandoned game's record is shown only once its game is gone from the live store.

Records of abandoned games written before this revision were shown at once, while their game could still be
live; they are hidden here, and each records writer shows again those whose game is gone (its sweep,
:meth:`services.api.records.writer.RecordWriter.sweep`), a batch at a time.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_records") as batch:
        batch.add_column(sa.Column("hidden", sa.Boolean, nullable=False, server_default=sa.false()))
    records = sa.table("game_records", sa.column("outcome", sa.String), sa.column("hidden", sa.Boolean))
    op.execute(records.update().where(records.c.outcome == "abandoned").values(hidden=True))
    op.create_index(
        "game_records_hidden",
        "game_records",
        ["game_id"],
        sqlite_where=sa.text("hidden = 1"),
        postgresql_where=sa.text("hidden"),
    )


def downgrade() -> None:
    op.drop_index("game_records_hidden", "game_records")
    with op.batch_alter_table("game_records") as batch:
        batch.drop_column("hidden")
