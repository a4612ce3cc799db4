"""Signing a device in: link codes and recovery codes, each redeemed once for a new session
(:mod:`services.api.players.sessions`), on the records database (``link_codes``, ``recovery_codes``).

A **link code** is made by a signed-in device (the player token or a session) and typed, or opened as a link, on
the other device; it lives ``lifetime_ms`` (at most ten minutes: ``LINK_CODE_SECONDS``).  A **recovery code** is
one of a set of ten made at once (a new set replaces the old, used codes and all), kept by a person on paper for
the day no device is signed in.  Each kind is stored only as its hash (:func:`credentials.digest`).

A redeem is one transaction: the code is marked used by an ``UPDATE`` that holds only while it is unused (and, for
a link code, unexpired), then the session is inserted.  Two devices racing with one code: one ``UPDATE`` changes
the row, the other finds it used.  A refusal says why — a code that is no code (``403 link_code_invalid``,
``recovery_code_invalid``), one used already (``410 link_code_used``, ``recovery_code_used``), a link code
expired (``410 link_code_expired``) — and changes nothing.
"""

from __future__ import annotations

from sqlalchemy import Connection, Engine, delete, select, update

from services.api.players import credentials
from services.api.players.credentials import LINK_CODE_LENGTH, RECOVERY_CODE_LENGTH, RECOVERY_CODES, digest
from services.api.players.repository import Player
from services.api.players.sessions import Session, open_session
from services.api.problems import ApiError
from services.api.records.schema import link_codes, players, recovery_codes

MAX_LINK_CODE_MS = 600_000  # ten minutes: the longest a link code may live
KEEP_EXPIRED_MS = 86_400_000  # an expired code is still told apart from a wrong one for a day, then dropped


def link_code_invalid() -> ApiError:
    return ApiError(
        403, "link_code_invalid", "No device made that link code: check it, or make a new one on a signed-in device."
    )


def link_code_expired() -> ApiError:
    return ApiError(410, "link_code_expired", "That link code has expired: make a new one on a signed-in device.")


def link_code_used() -> ApiError:
    return ApiError(410, "link_code_used", "That link code was used already: each one signs in one device.")


def recovery_code_invalid() -> ApiError:
    return ApiError(403, "recovery_code_invalid", "That is not one of a player's recovery codes: check it.")


def recovery_code_used() -> ApiError:
    return ApiError(410, "recovery_code_used", "That recovery code was used already: each one signs in once.")


class DeviceCodes:
    """Link and recovery codes on one SQLAlchemy engine (the records database's)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def new_link_code(self, player_id: str, now_ms: int, lifetime_ms: int) -> tuple[str, int]:
        """A fresh link code for ``player_id`` (in its one spelling) and when it expires; the player's codes
        expired for a day are dropped."""
        if not 0 <= lifetime_ms <= MAX_LINK_CODE_MS:
            raise ValueError(lifetime_ms)
        code = credentials.new_code(LINK_CODE_LENGTH)
        expires = now_ms + lifetime_ms
        with self.engine.begin() as connection:
            connection.execute(
                delete(link_codes).where(
                    link_codes.c.player_id == player_id, link_codes.c.expires_ms < now_ms - KEEP_EXPIRED_MS
                )
            )
            connection.execute(
                link_codes.insert().values(
                    code_hash=digest("link", code), player_id=player_id, created_ms=now_ms, expires_ms=expires
                )
            )
        return code, expires

    def new_recovery_codes(self, player_id: str, now_ms: int) -> list[str]:
        """A fresh set of recovery codes for ``player_id``, replacing the old set (its used codes too)."""
        codes = [credentials.new_code(RECOVERY_CODE_LENGTH) for _ in range(RECOVERY_CODES)]
        rows = [{"code_hash": digest("recovery", c), "player_id": player_id, "created_ms": now_ms} for c in codes]
        with self.engine.begin() as connection:
            connection.execute(delete(recovery_codes).where(recovery_codes.c.player_id == player_id))
            connection.execute(recovery_codes.insert(), rows)
        return codes

    def recovery_codes_left(self, player_id: str) -> int:
        """How many of ``player_id``'s recovery codes are unused."""
        query = select(recovery_codes.c.code_hash).where(
            recovery_codes.c.player_id == player_id, recovery_codes.c.used_ms.is_(None)
        )
        with self.engine.connect() as connection:
            return len(connection.execute(query).all())

    def sign_in_with_link_code(self, typed: str, name: str, now_ms: int) -> tuple[Player, Session, str]:
        """A new session for the player whose link code ``typed`` is, and its credential; the code used up."""
        code = credentials.normalized(typed, LINK_CODE_LENGTH)
        if code is None:
            raise link_code_invalid()
        key = digest("link", code)
        with self.engine.begin() as connection:
            taken = connection.execute(
                update(link_codes)
                .where(link_codes.c.code_hash == key, link_codes.c.used_ms.is_(None), link_codes.c.expires_ms > now_ms)
                .values(used_ms=now_ms)
            ).rowcount
            if not taken:
                raise _why_not_link(connection, key)
            player_id = connection.execute(select(link_codes.c.player_id).where(link_codes.c.code_hash == key))
            player = _live(connection, player_id.scalar_one())
            if player is None:
                raise link_code_invalid()  # rolled back: the player deleted themselves meanwhile
            session, credential = open_session(connection, player.id, name, "link", now_ms)
            connection.execute(update(link_codes).where(link_codes.c.code_hash == key).values(session_id=session.id))
        return player, session, credential

    def sign_in_with_recovery_code(self, typed: str, name: str, now_ms: int) -> tuple[Player, Session, str]:
        """A new session for the player whose recovery code ``typed`` is, and its credential; the code used up."""
        code = credentials.normalized(typed, RECOVERY_CODE_LENGTH)
        if code is None:
            raise recovery_code_invalid()
        key = digest("recovery", code)
        with self.engine.begin() as connection:
            taken = connection.execute(
                update(recovery_codes)
                .where(recovery_codes.c.code_hash == key, recovery_codes.c.used_ms.is_(None))
                .values(used_ms=now_ms)
            ).rowcount
            if not taken:
                found = connection.execute(select(recovery_codes.c.used_ms).where(recovery_codes.c.code_hash == key))
                raise recovery_code_used() if found.first() is not None else recovery_code_invalid()
            player_id = connection.execute(
                select(recovery_codes.c.player_id).where(recovery_codes.c.code_hash == key)
            ).scalar_one()
            player = _live(connection, player_id)
            if player is None:
                raise recovery_code_invalid()
            session, credential = open_session(connection, player.id, name, "recovery", now_ms)
        return player, session, credential


def _why_not_link(connection: Connection, key: str) -> ApiError:
    row = connection.execute(select(link_codes.c.used_ms).where(link_codes.c.code_hash == key)).first()
    if row is None:
        return link_code_invalid()
    return link_code_used() if row.used_ms is not None else link_code_expired()


def _live(connection: Connection, player_id: str) -> Player | None:
    row = connection.execute(
        select(players.c.id, players.c.kind, players.c.name, players.c.created_ms).where(
            players.c.id == player_id, players.c.deleted_ms.is_(None)
        )
    ).first()
    return None if row is None else Player(row.id, row.kind, row.name, row.created_ms)
