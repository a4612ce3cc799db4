"""Passkeys: ``passkeys`` (a player's WebAuthn credentials: the credential id, the public key, the signature
counter, transports, a name, when made and last used) and ``passkey_challenges`` (the challenges given out for a
registration or a sign-in, kept as their hashes, each answered once, until they expire).

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "passkeys",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("player_id", sa.String(40), sa.ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
        sa.Column("credential_id", sa.String(1400), nullable=False),
        sa.Column("public_key", sa.LargeBinary, nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False),
        sa.Column("transports", sa.String(200), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("last_used_ms", sa.BigInteger),
    )
    op.create_index("passkeys_credential", "passkeys", ["credential_id"], unique=True)
    op.create_index("passkeys_player", "passkeys", ["player_id", "created_ms"])
    op.create_table(
        "passkey_challenges",
        sa.Column("challenge_hash", sa.String(64), primary_key=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("player_id", sa.String(40), sa.ForeignKey("players.id", ondelete="CASCADE")),
        sa.Column("created_ms", sa.BigInteger, nullable=False),
        sa.Column("expires_ms", sa.BigInteger, nullable=False),
        sa.Column("used_ms", sa.BigInteger),
    )
    op.create_index("passkey_challenges_expiry", "passkey_challenges", ["expires_ms"])


def downgrade() -> None:
    op.drop_table("passkey_challenges")
    op.drop_table("passkeys")
