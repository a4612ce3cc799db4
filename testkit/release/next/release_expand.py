"""The test release's expand (``testkit/release``): ``game_records.rounds``, each record's finished rounds,
nullable, and backfilled from the record documents.  The old release's code works after it: it names the
columns it writes, so its rows get NULL, which the contract's backfill fills.

Revision ID: release_expand
Revises: (the tree's head when the overlay is applied)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "release_expand"
down_revision = "0000"  # replaced by the overlay with the tree's head
branch_labels = None
depends_on = None


def rounds_of_body(dialect: str) -> str:
    """The SQL expression of a record's finished rounds, read from its document (``body``)."""
    if dialect == "postgresql":
        return "json_array_length(CAST(body AS json) -> 'rounds')"
    return "json_array_length(body, '$.rounds')"


def backfill(where: str) -> None:
    """Each row ``where`` says, its ``rounds`` from its document."""
    bind = op.get_bind()
    op.execute(f"UPDATE game_records SET rounds = {rounds_of_body(bind.dialect.name)} WHERE {where}")


def upgrade() -> None:
    op.add_column("game_records", sa.Column("rounds", sa.Integer, nullable=True))
    backfill("rounds IS NULL")


def downgrade() -> None:
    with op.batch_alter_table("game_records") as batch:
        batch.drop_column("rounds")
