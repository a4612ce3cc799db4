"""The fair-play watch (:mod:`services.api.ratings.watch`): each player's recent outcomes in games made to count
(``fair_play_outcomes``), their pairing bans (``pairing_bans``) and the flags an operator decides
(``fair_play_flags``); ``game_ratings.unrated_reason`` says why an applied game did not move ratings when the
watch held it (``flagged``: a flagged player sat) or an operator removed it (``removed``).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "fair_play_outcomes",
        sa.Column("player_id", sa.String(40), sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("ended_ms", sa.BigInteger, nullable=False),
        sa.Column("outcome", sa.String(16), nullable=False),
        sa.Column("fast", sa.Boolean, nullable=False),
        sa.Column("beat", sa.Text, nullable=False),
        sa.Column("lost_to", sa.Text, nullable=False),
    )
    op.create_index("fair_play_outcomes_newest", "fair_play_outcomes", ["player_id", "ended_ms"])
    op.create_table(
        "pairing_bans",
        sa.Column("player_id", sa.String(40), sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("started_ms", sa.BigInteger, primary_key=True),
        sa.Column("ends_ms", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "fair_play_flags",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("player_id", sa.String(40), sa.ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("raised_ms", sa.BigInteger, nullable=False),
        sa.Column("decided_ms", sa.BigInteger),
        sa.Column("games", sa.Text, nullable=False),
        sa.Column("detail", sa.Text, nullable=False),
    )
    op.create_index("fair_play_flags_player", "fair_play_flags", ["player_id", "status"])
    op.create_index("fair_play_flags_status", "fair_play_flags", ["status", "raised_ms", "id"])
    op.create_index(  # one open flag of a kind per player, however many games raise it at once
        "fair_play_flags_open",
        "fair_play_flags",
        ["player_id", "kind"],
        unique=True,
        sqlite_where=sa.text("status = 'open'"),
        postgresql_where=sa.text("status = 'open'"),
    )
    with op.batch_alter_table("game_ratings", recreate="never") as batch:
        batch.add_column(sa.Column("unrated_reason", sa.String(16)))


def downgrade() -> None:
    with op.batch_alter_table("game_ratings", recreate="never") as batch:
        batch.drop_column("unrated_reason")
    op.drop_table("fair_play_flags")
    op.drop_table("pairing_bans")
    op.drop_table("fair_play_outcomes")
