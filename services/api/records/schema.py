"""The records' tables, as SQLAlchemy Core metadata (the Alembic migrations in ``migrations/`` create them).

``game_records`` holds one row per game: the record document as JSON text (``body``) and the columns the
listing filters and orders on; ``record_seats`` one row per seat, so "games a level played" and "games a
level won" are indexed lookups.  Times are Unix milliseconds (the same on every database).  ``hidden`` marks a
record no read may return yet (:mod:`services.api.records.repository`: an abandoned game's, until its game is
gone); the few hidden rows have an index of their own.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    false,
    text,
)

metadata = MetaData()

game_records = Table(
    "game_records",
    metadata,
    Column("game_id", String(64), primary_key=True),
    Column("version", Integer, nullable=False),  # the game's version recorded: a later one replaces it
    Column("outcome", String(16), nullable=False),  # finished | abandoned
    Column("created_ms", BigInteger, nullable=False),
    Column("ended_ms", BigInteger, nullable=False),  # a finished game's end; an abandoned game's last change
    Column("recorded_ms", BigInteger, nullable=False),
    Column("body", Text, nullable=False),  # the record document (JSON)
    Column("hidden", Boolean, nullable=False, server_default=false()),  # not shown yet: its game may still be live
    Index("game_records_newest", "ended_ms", "game_id"),
    Index("game_records_hidden", "game_id", sqlite_where=text("hidden = 1"), postgresql_where=text("hidden")),
)

record_seats = Table(
    "record_seats",
    metadata,
    Column("game_id", String(64), ForeignKey("game_records.game_id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player", String(16), nullable=False),  # human, or the computer level
    Column("won", Boolean, nullable=False),
    Index("record_seats_player", "player", "won", "game_id"),
)
