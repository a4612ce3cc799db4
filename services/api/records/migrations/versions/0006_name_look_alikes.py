"""Look-alike names: ``players.shape_key`` (unique) beside ``name_key``, and ``name_key_rules``, the rules the
stored keys were made by.

The keys themselves are made by :func:`services.api.records.database.migrate` right after the migrations
(:mod:`services.api.players.rekey`): ``name_key_rules`` starts empty, so every player's keys are made again
there, from ``name_key`` holding the casefolded name to both keys holding UTS #39 skeletons.  Down, ``name_key``
is the casefolded name again (the rule of revision 0003, kept here as it was), ``shape_key`` and the rules go.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players", recreate="never") as batch:  # never copy players: rows cascade from it
        batch.add_column(sa.Column("shape_key", sa.String(64)))
    op.create_index("players_shape_key", "players", ["shape_key"], unique=True)
    op.create_table(
        "name_key_rules",
        sa.Column("rules", sa.String(200), primary_key=True),
        sa.Column("keyed_ms", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    from services.api.records.name_keys import assign_keys

    op.drop_table("name_key_rules")
    op.drop_index("players_shape_key", "players")
    with op.batch_alter_table("players", recreate="never") as batch:  # SQLite's own DROP COLUMN (3.35+)
        batch.drop_column("shape_key")
    assign_keys(op.get_bind(), ("name_key",), lambda name: {"name_key": _casefold_key(name)})


def _casefold_key(text: str) -> str | None:
    """Revision 0003's name key: the name casefolded, NFKC on both sides of the fold (None when longer than its
    column, as that revision's code refused such a name)."""
    key = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    return key if len(key) <= 64 else None
