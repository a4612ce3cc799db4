"""Device sessions: ``player_sessions`` (a bearer credential per device of a player, kept as its hash, with a name,
when it was made and last seen, and when it was revoked), ``link_codes`` (a short single-use code a signed-in device
makes for another, kept as its hash until it expires) and ``recovery_codes`` (a player's set of single-use codes,
kept as their hashes; a new set replaces the old).

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_sessions",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("player_id", sa.String(40), sa.ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("via", sa.String(16), nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("last_seen_ms", sa.BigInteger, nullable=False),
        sa.Column("revoked_ms", sa.BigInteger),
    )
    op.create_index("player_sessions_token_hash", "player_sessions", ["token_hash"], unique=True)
    op.create_index("player_sessions_player", "player_sessions", ["player_id", "created_ms"])
    op.create_table(
        "link_codes",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(40), sa.ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("expires_ms", sa.BigInteger, nullable=False),
        sa.Column("used_ms", sa.BigInteger),
        sa.Column("session_id", sa.String(40)),
    )
    op.create_index("link_codes_player", "link_codes", ["player_id", "created_ms"])
    op.create_table(
        "recovery_codes",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(40), sa.ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("used_ms", sa.BigInteger),
    )
    op.create_index("recovery_codes_player", "recovery_codes", ["player_id"])


def downgrade() -> None:
    op.drop_table("recovery_codes")
    op.drop_table("link_codes")
    op.drop_table("player_sessions")
