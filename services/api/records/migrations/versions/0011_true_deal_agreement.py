"""True-deal agreement: ``game_accuracy`` counts a person's card decisions scored against the round's true deal once
it is over (``true_cards``) and those that agreed with it (``true_agreed``); rows written before count none.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_accuracy") as table:
        table.add_column(sa.Column("true_cards", sa.Integer, nullable=False, server_default="0"))
        table.add_column(sa.Column("true_agreed", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("game_accuracy") as table:
        table.drop_column("true_agreed")
        table.drop_column("true_cards")
