"""Players in the records database: made, found by id or by token, renamed, given a new token, deleted.

SQLAlchemy Core on the records' engine (one database, one migration history: ``records/schema.py`` has the
``players`` table).  A name is unique by its two keys (:mod:`services.api.players.names`: the same name in any
case, or one drawn alike), held by the unique indexes ``players_name_key`` and ``players_shape_key``: two
requests racing for one name, or for two look-alikes, both pass the look-up, and an index refuses the second
(``409 name_taken`` either way).  A token is found by its hash (:mod:`services.api.players.tokens`),
also under a unique index.

Computer levels are players too (``computer-<level>``, kind ``computer``, the level's name): their rows are
made on demand (an insert that does nothing when the row is there), by whoever needs one first.

A deletion (:mod:`services.api.players.anonymise`) keeps the row — the player's games still name a seat — but
clears the name, its key (free for anyone) and the token.  A deleted player is not found by any read here, so no
seat is bound to it again (:meth:`PlayerRepository.current`).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import Connection, Engine, or_, select, update
from sqlalchemy.exc import IntegrityError

from services.api.games.record import PlayerRef
from services.api.players import anonymise
from services.api.players.credentials import SESSION_ID_PREFIX
from services.api.players.names import DisplayName
from services.api.players.tokens import (
    hash_player_token,
    new_player_id,
    new_player_token,
    token_mark,
    well_formed_token,
)
from services.api.problems import ApiError
from services.api.records.database import insert_of
from services.api.records.schema import player_sessions, players
from services.api.store.protocol import now_ms
from services.computers import LEVEL_NAMES

KINDS = ("person", "bot")  # what POST /v1/players makes; computer levels are made here on demand
COMPUTER_PREFIX = "computer-"


@dataclass(frozen=True, slots=True)
class Player:
    """A player as stored (never its token)."""

    id: str
    kind: str
    name: str
    created_ms: int

    @property
    def ref(self) -> PlayerRef:
        """The player as a seat binds it."""
        return PlayerRef(self.id, self.name, self.kind)


def name_taken() -> ApiError:
    return ApiError(
        409,
        "name_taken",
        "Another player has that name or one that looks the same (names are compared ignoring case, and"
        " characters drawn alike, such as Cyrillic and Latin 'a' or 'rn' and 'm', count as the same).",
    )


class PlayerRepository:
    """The players on one SQLAlchemy engine (the records database's)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._insert = insert_of(engine)

    def create(self, name: DisplayName, kind: str) -> tuple[Player, str]:
        """A new player named ``name`` and its token (shown once: only its hash is kept); ``409 name_taken``."""
        if kind not in KINDS:
            raise ValueError(kind)
        token = new_player_token()
        player = Player(new_player_id(), kind, name.text, now_ms())
        row = {"id": player.id, "kind": kind, "name": name.text, "name_key": name.key, "shape_key": name.shape}
        row |= {"token_hash": hash_player_token(token), "created_ms": player.created_ms}
        try:
            with self.engine.begin() as connection:
                self._check_free(connection, name, None)
                connection.execute(players.insert().values(row))
        except IntegrityError:
            raise name_taken() from None  # a unique name key: a race for the name (or a look-alike), lost
        return player, token

    def get(self, player_id: str) -> Player | None:
        """The player of that id, None when unknown or deleted; a computer level's is made on first read."""
        with self.engine.begin() as connection:
            level = player_id.removeprefix(COMPUTER_PREFIX)
            if player_id.startswith(COMPUTER_PREFIX) and level in LEVEL_NAMES:
                self.ensure_computer(connection, level)
            row = connection.execute(_live().where(players.c.id == player_id)).first()
        return None if row is None else _player(row)

    def current(self, player: PlayerRef) -> PlayerRef | None:
        """The player a seat was bound to as it is now (its name today), None once it has deleted itself: the
        games room's :class:`services.api.games.seat_players.Players`, for the seats taken again without the
        request's player token (a rematch, a rejoin, a quick match).  The credential it came through stays."""
        with self.engine.connect() as connection:
            row = connection.execute(_live().where(players.c.id == player.id)).first()
        return None if row is None else replace(_player(row).ref, credential=player.credential)

    def lapsed(self, player_id: str, credentials: Collection[str]) -> frozenset[str]:
        """Those of ``credentials`` (seats' :attr:`~services.api.games.record.PlayerRef.credential`) that no longer
        are ``player_id``'s: a revoked session's id, the mark of a player token rotated since; all of them once the
        player is deleted.  One read of the player's row and one of its sessions."""
        wanted = frozenset(credentials)
        if not wanted:
            return wanted
        sessions = [c for c in wanted if c.startswith(SESSION_ID_PREFIX)]
        with self.engine.connect() as connection:
            row = connection.execute(
                select(players.c.token_hash).where(players.c.id == player_id, players.c.deleted_ms.is_(None))
            ).first()
            if row is None:
                return wanted
            live = {token_mark(row.token_hash)} if row.token_hash else set()
            if sessions:
                live |= set(
                    connection.execute(
                        select(player_sessions.c.id).where(
                            player_sessions.c.player_id == player_id,
                            player_sessions.c.id.in_(sessions),
                            player_sessions.c.revoked_ms.is_(None),
                        )
                    ).scalars()
                )
        return wanted - live

    def by_token(self, token: str) -> Player | None:
        """The player ``token`` belongs to; None for any other string (a revoked token, a deleted player's)."""
        if not well_formed_token(token):
            return None
        query = _live().where(players.c.token_hash == hash_player_token(token))
        with self.engine.connect() as connection:
            row = connection.execute(query).first()
        return None if row is None else _player(row)

    def rename(self, player: Player, name: DisplayName) -> Player:
        """``player`` called ``name`` from now on (its old name free at once); ``409 name_taken``."""
        try:
            with self.engine.begin() as connection:
                self._check_free(connection, name, player.id)
                changed = connection.execute(
                    update(players)
                    .where(players.c.id == player.id, players.c.deleted_ms.is_(None))
                    .values(name=name.text, name_key=name.key, shape_key=name.shape)
                ).rowcount
        except IntegrityError:
            raise name_taken() from None
        if not changed:
            raise player_not_found()
        return Player(player.id, player.kind, name.text, player.created_ms)

    def rotate(self, player: Player, token: str) -> str:
        """A new token for ``player`` in place of ``token`` (which stops working now); 401 if ``token`` was
        rotated or revoked meanwhile (two rotations with one token: one wins)."""
        fresh = new_player_token()
        with self.engine.begin() as connection:
            changed = connection.execute(
                update(players)
                .where(players.c.id == player.id, players.c.token_hash == hash_player_token(token))
                .values(token_hash=hash_player_token(fresh))
            ).rowcount
        if not changed:
            raise player_token_invalid()
        return fresh

    def delete(self, player: Player) -> bool:
        """Delete ``player``: anonymised everywhere, in one transaction (:mod:`services.api.players.anonymise`).
        False when it was deleted already."""
        with self.engine.begin() as connection:
            return anonymise.delete_player(connection, player.id, now_ms())

    def ensure_computer(self, connection: Connection, level: str) -> None:
        """The computer level's player row, made if missing (its name is the level's, reserved by
        :mod:`services.api.players.names`; no name key, no token)."""
        row = {"id": COMPUTER_PREFIX + level, "kind": "computer", "name": level, "created_ms": now_ms()}
        connection.execute(self._insert(players).values(row).on_conflict_do_nothing(index_elements=[players.c.id]))

    @staticmethod
    def _check_free(connection: Connection, name: DisplayName, mine: str | None) -> None:
        """``409 name_taken`` when another player holds either key (the indexes settle a race)."""
        holders = connection.execute(
            select(players.c.id).where(or_(players.c.name_key == name.key, players.c.shape_key == name.shape))
        ).scalars()
        if any(holder != mine for holder in holders):
            raise name_taken()


def player_not_found() -> ApiError:
    return ApiError(404, "player_not_found", "No such player (or the player deleted themselves).")


def player_token_invalid() -> ApiError:
    return ApiError(
        401, "player_token_invalid", "The Player-Token is not a live player's token (revoked, rotated or deleted)."
    )


def _live() -> Any:
    columns = (players.c.id, players.c.kind, players.c.name, players.c.created_ms)
    return select(*columns).where(players.c.deleted_ms.is_(None))


def _player(row: Any) -> Player:
    return Player(row.id, row.kind, row.name, row.created_ms)
