"""Accuracy jobs: ``accuracy_jobs``, the rated games whose people's moves are still to be scored by the accuracy
collector, with when each is due.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accuracy_jobs",
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("due_ms", sa.BigInteger, nullable=False),
        sa.Column("sends", sa.Integer, nullable=False),
        sa.Column("work", sa.Text),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("accuracy_jobs_due", "accuracy_jobs", ["due_ms"])


def downgrade() -> None:
    op.drop_index("accuracy_jobs_due", "accuracy_jobs")
    op.drop_table("accuracy_jobs")
