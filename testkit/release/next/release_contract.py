"""The test release's contract (``testkit/release``), run once the old release is gone:
``game_records.rounds`` NOT NULL.  First every row the old release wrote since the expand is filled, and every
row it changed is put right (an old writer's update of a newer version leaves ``rounds`` as it was): the column is
recomputed wherever it disagrees with the document.  Its downgrade (``--undo-contract``) makes the column nullable
again, before a rollback's old processes start writing NULLs.

Revision ID: release_contract
Revises: release_expand
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "release_contract"
down_revision = "release_expand"
branch_labels = None
depends_on = None
contract = True  # services/api/records/database.py: applied by --contract, not at a process's start


def upgrade() -> None:
    bind = op.get_bind()
    rounds = (
        "json_array_length(CAST(body AS json) -> 'rounds')"
        if bind.dialect.name == "postgresql"
        else "json_array_length(body, '$.rounds')"
    )
    op.execute(f"UPDATE game_records SET rounds = {rounds} WHERE rounds IS NULL OR rounds <> {rounds}")
    with op.batch_alter_table("game_records") as batch:
        batch.alter_column("rounds", existing_type=sa.Integer, nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("game_records") as batch:
        batch.alter_column("rounds", existing_type=sa.Integer, nullable=True)
