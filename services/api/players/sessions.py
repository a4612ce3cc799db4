"""Device sessions: one bearer credential per device of a player, on the records database (``player_sessions``).

A session is opened by a sign-in on a new device (:mod:`services.api.players.device_codes`: a link code or a
recovery code; :mod:`services.api.players.passkeys`: a passkey), and its credential (``sps_…``,
:mod:`services.api.players.credentials`) is shown once, in that answer, and kept only as its SHA-256 (a unique index finds it).  Sent as ``Player-Token``, it names its player
wherever the player token does.  A revoked session keeps its row, so its next request is told why it is refused
(``401 session_revoked``) rather than that its credential means nothing; a deleted player's sessions go with it
(:mod:`services.api.players.anonymise`).

Last seen is written at most once a minute per session (:data:`LAST_SEEN_STEP_MS`): an ``UPDATE`` guarded by the
old time, so most requests only read, and two racing requests write once.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, select, update

from services.api.players.credentials import (
    digest,
    is_session_credential,
    new_session_credential,
    new_session_id,
    well_formed_session,
)
from services.api.players.repository import Player
from services.api.problems import ApiError
from services.api.records.schema import player_sessions, players

LAST_SEEN_STEP_MS = 60_000
MAX_DEVICE_NAME = 40
DEFAULT_DEVICE_NAME = "Device"
VIAS = ("link", "recovery", "passkey")


@dataclass(frozen=True, slots=True)
class Session:
    """A session as its player sees it (never its credential)."""

    id: str
    player_id: str
    name: str
    via: str
    created_ms: int
    last_seen_ms: int


def session_revoked() -> ApiError:
    return ApiError(
        401,
        "session_revoked",
        "This device's session was revoked (signed out from another device, or everywhere). Sign this device in "
        "again with a passkey, a link code from a signed-in device, or a recovery code.",
    )


def session_not_found() -> ApiError:
    return ApiError(404, "session_not_found", "Your player has no session of that id.")


def device_name(raw: str | None) -> str:
    """A device's name as kept: NFKC, runs of spaces made one, the ends trimmed, control and format characters
    refused (:class:`ValueError`); at most :data:`MAX_DEVICE_NAME` characters; empty or absent is ``Device``."""
    text = " ".join(unicodedata.normalize("NFKC", raw or "").split())
    if any(unicodedata.category(char) in ("Cc", "Cf", "Co", "Cs", "Cn") for char in text):
        raise ValueError("a device name has no control, format, private-use or unassigned characters")
    if len(text) > MAX_DEVICE_NAME:
        raise ValueError(f"a device name has at most {MAX_DEVICE_NAME} characters")
    return text or DEFAULT_DEVICE_NAME


def open_session(connection: Connection, player_id: str, name: str, via: str, now_ms: int) -> tuple[Session, str]:
    """A new session of ``player_id`` on ``connection`` (the sign-in's transaction) and its credential."""
    if via not in VIAS:
        raise ValueError(via)
    credential = new_session_credential()
    session = Session(new_session_id(), player_id, name, via, now_ms, now_ms)
    connection.execute(
        player_sessions.insert().values(
            id=session.id,
            player_id=player_id,
            token_hash=digest("session", credential),
            name=name,
            via=via,
            created_ms=now_ms,
            last_seen_ms=now_ms,
        )
    )
    return session, credential


class Sessions:
    """The players' sessions on one SQLAlchemy engine (the records database's)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def find(self, credential: str, now_ms: int) -> tuple[Player, Session] | None:
        """The live player and session of ``credential``; None when it names none (malformed, unknown, its player
        deleted); ``401 session_revoked`` for a revoked one.  Moves last seen when a minute has passed."""
        if not is_session_credential(credential) or not well_formed_session(credential):
            return None
        query = (
            select(
                *player_sessions.c,
                players.c.kind,
                players.c.name.label("player_name"),
                players.c.created_ms.label("born"),
            )
            .join(players, players.c.id == player_sessions.c.player_id)
            .where(player_sessions.c.token_hash == digest("session", credential), players.c.deleted_ms.is_(None))
        )
        with self.engine.connect() as connection:
            row = connection.execute(query).first()
        if row is None:
            return None
        if row.revoked_ms is not None:
            raise session_revoked()
        if now_ms - row.last_seen_ms >= LAST_SEEN_STEP_MS:
            with self.engine.begin() as connection:
                connection.execute(
                    update(player_sessions)
                    .where(player_sessions.c.id == row.id, player_sessions.c.last_seen_ms == row.last_seen_ms)
                    .values(last_seen_ms=now_ms)
                )
        player = Player(row.player_id, row.kind, row.player_name, row.born)
        return player, _session(row, max(row.last_seen_ms, now_ms))

    def list(self, player_id: str) -> list[Session]:
        """``player_id``'s live sessions, oldest first."""
        query = (
            select(player_sessions)
            .where(player_sessions.c.player_id == player_id, player_sessions.c.revoked_ms.is_(None))
            .order_by(player_sessions.c.created_ms, player_sessions.c.id)
        )
        with self.engine.connect() as connection:
            return [_session(row) for row in connection.execute(query)]

    def revoke(self, player_id: str, session_id: str, now_ms: int) -> None:
        """Revoke one of ``player_id``'s sessions (again: nothing changes); ``404 session_not_found`` for a session
        that is not the player's."""
        with self.engine.begin() as connection:
            found = connection.execute(
                select(player_sessions.c.revoked_ms).where(
                    player_sessions.c.id == session_id, player_sessions.c.player_id == player_id
                )
            ).first()
            if found is None:
                raise session_not_found()
            if found.revoked_ms is None:
                connection.execute(
                    update(player_sessions).where(player_sessions.c.id == session_id).values(revoked_ms=now_ms)
                )

    def revoke_all(self, player_id: str, keep: str | None, now_ms: int) -> int:
        """Revoke every live session of ``player_id`` but ``keep`` (the asking device's, if it is a session): how
        many were revoked."""
        condition = [player_sessions.c.player_id == player_id, player_sessions.c.revoked_ms.is_(None)]
        if keep is not None:
            condition.append(player_sessions.c.id != keep)
        with self.engine.begin() as connection:
            return connection.execute(update(player_sessions).where(*condition).values(revoked_ms=now_ms)).rowcount


def _session(row: Any, last_seen_ms: int | None = None) -> Session:
    seen = row.last_seen_ms if last_seen_ms is None else last_seen_ms
    return Session(row.id, row.player_id, row.name, row.via, row.created_ms, seen)
