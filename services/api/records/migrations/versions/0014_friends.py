"""Friends: ``follows`` (whom a player follows), ``blocks`` (whom a player blocked), ``player_presence`` (when a
player was last seen, and the public table it last sat down at) and ``player_notices`` (the invites in a player's
lobby, each until it expires; one per inviter and table).

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def _player(name: str, primary_key: bool = False) -> sa.Column:
    return sa.Column(
        name,
        sa.String(40),
        sa.ForeignKey("players.id", ondelete="CASCADE"),
        primary_key=primary_key,
        nullable=False,
    )


def upgrade() -> None:
    op.create_table(
        "follows",
        _player("player_id", True),
        _player("followed_id", True),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("follows_followed", "follows", ["followed_id"])
    op.create_table(
        "blocks",
        _player("player_id", True),
        _player("blocked_id", True),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("blocks_blocked", "blocks", ["blocked_id"])
    op.create_table(
        "player_presence",
        _player("player_id", True),
        sa.Column("seen_ms", sa.BigInteger, nullable=False),
        sa.Column("game_id", sa.String(64)),
        sa.Column("seat", sa.Integer),
    )
    op.create_table(
        "player_notices",
        sa.Column("id", sa.String(40), primary_key=True),
        _player("player_id"),
        sa.Column("kind", sa.String(16), nullable=False),
        _player("from_id"),
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("expires_ms", sa.BigInteger, nullable=False),
    )
    op.create_index("player_notices_one", "player_notices", ["player_id", "from_id", "game_id"], unique=True)
    op.create_index("player_notices_player", "player_notices", ["player_id", "expires_ms"])


def downgrade() -> None:
    op.drop_table("player_notices")
    op.drop_table("player_presence")
    op.drop_table("blocks")
    op.drop_table("follows")
