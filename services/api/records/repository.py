"""Records in the database: written once per game (a later version replaces an earlier one), read one by
one, listed newest first a page at a time, and exported whole as a stream.

**Which records are shown** — one rule, here, for the record of one game (``/record``), the listing and the
export: a finished game's record is shown as soon as it is written (nothing in the game can change any more);
an abandoned game's is written *hidden* (:meth:`RecordRepository.save`) and shown only by
:meth:`RecordRepository.reveal`, which the records writer calls once the game is gone from the live store
(:mod:`services.api.records.writer`).  While hidden it is a record no read returns (:data:`SHOWN`), so a game
that can still be joined or played is never listed.

SQLAlchemy Core over whichever database ``RECORDS_DATABASE_URL`` names (:mod:`services.api.records.database`):
the upsert is the dialect's own ``INSERT … ON CONFLICT DO UPDATE … WHERE version <`` (PostgreSQL and SQLite
both have it), so a record written twice — two writers, or a retry after a lost reply — is stored once.
The listing's order is ``(ended_ms, game_id)`` descending, and its cursor is that pair: a page never
skips or repeats a record however many are written meanwhile.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import Connection, Engine, and_, delete, exists, false, select, true, tuple_, update

from services.api.problems import MAX_INT64, ascii_int
from services.api.records.content import FINISHED, player
from services.api.records.database import insert_of
from services.api.records.schema import game_records, players, record_seats
from services.api.store.protocol import now_ms

STREAM_BATCH = 100  # records read per query while streaming an export: bounds its memory
SHOWN = game_records.c.hidden == false()  # the condition of every read: no hidden record is ever returned


@dataclass(frozen=True, slots=True)
class RecordFilter:
    """Which records a listing returns: ended within [since, until) (Unix ms), with a seat of ``player``
    (``human`` or a level), of ``result`` (finished | abandoned, or won | lost: by a seat of ``player``)."""

    since: int | None = None
    until: int | None = None
    player: str | None = None
    result: str | None = None
    player_id: str | None = None  # a seat of this player (services.api.players)


Cursor = tuple[int, str]  # (ended_ms, game_id) of the last record a page returned


def encode_cursor(cursor: Cursor) -> str:
    return base64.urlsafe_b64encode(f"{cursor[0]}:{cursor[1]}".encode()).decode().rstrip("=")


def decode_cursor(text: str) -> Cursor:
    """The cursor a page returned; ValueError for anything else."""
    raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)).decode()
    ended, _, game_id = raw.partition(":")
    ended_ms = ascii_int(ended, MAX_INT64)  # ended_ms is a BIGINT: a larger number is no cursor of ours
    if not game_id or ended_ms is None:
        raise ValueError("not a cursor")
    return ended_ms, game_id


class RecordRepository:
    """The records on one SQLAlchemy engine."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._insert = insert_of(engine)

    def save(self, document: dict[str, Any], created_ms: int, ended_ms: int) -> bool:
        """Store ``document`` (:func:`services.api.records.content.build`) unless a record of a later (or the
        same) version of its game is stored; True when it was stored.  A record of a game that did not finish
        is stored hidden (see the module doc).  A seat's player who has deleted themselves is left out of it
        (:meth:`_without_deleted`)."""
        with self.engine.begin() as connection:
            return self._save(connection, self._without_deleted(connection, document), created_ms, ended_ms)

    def _save(self, connection: Connection, document: dict[str, Any], created_ms: int, ended_ms: int) -> bool:
        row = {
            "game_id": document["game_id"],
            "version": document["version"],
            "outcome": document["outcome"],
            "created_ms": created_ms,
            "ended_ms": ended_ms,
            "recorded_ms": now_ms(),
            "body": orjson.dumps(document).decode(),
            "hidden": document["outcome"] != FINISHED,
        }
        insert = self._insert(game_records).values(row)
        upsert = insert.on_conflict_do_update(
            index_elements=[game_records.c.game_id],
            set_={name: insert.excluded[name] for name in row if name != "game_id"},
            where=game_records.c.version < insert.excluded.version,
        ).returning(game_records.c.game_id)  # no row back: a later (or the same) version is stored
        seats = [
            {
                "game_id": document["game_id"],
                "seat": seat["seat"],
                "player": player(seat["type"], seat["level"]),
                "won": seat["won"],
                "player_id": seat.get("player_id"),
            }
            for seat in document["seats"]
        ]
        if connection.execute(upsert).first() is None:
            return False
        connection.execute(delete(record_seats).where(record_seats.c.game_id == document["game_id"]))
        if seats:
            connection.execute(record_seats.insert(), seats)
        return True

    @staticmethod
    def _without_deleted(connection: Connection, document: dict[str, Any]) -> dict[str, Any]:
        """``document`` without the ids of seats' players who deleted themselves.  Their rows are read with a
        share lock (PostgreSQL), in the transaction that stores the record: a deletion
        (:mod:`services.api.players.repository`) either committed before (its player is left out here) or waits
        for this record and then finds it among the player's games (and anonymises it)."""
        ids = {seat["player_id"] for seat in document["seats"] if seat.get("player_id")}
        if not ids:
            return document
        query = select(players.c.id).where(players.c.id.in_(sorted(ids)), players.c.deleted_ms.is_not(None))
        gone = set(connection.execute(query.with_for_update(read=True)).scalars())
        if not gone:
            return document
        seats = [{**seat, "player_id": None} if seat.get("player_id") in gone else seat for seat in document["seats"]]
        return {**document, "seats": seats}

    def get(self, game_id: str) -> tuple[str, bytes] | None:
        """The shown record's outcome and document (JSON), or None (none stored, or hidden)."""
        query = select(game_records.c.outcome, game_records.c.body).where(game_records.c.game_id == game_id, SHOWN)
        with self.engine.connect() as connection:
            row = connection.execute(query).first()
        return None if row is None else (row.outcome, row.body.encode())

    def page(self, where: RecordFilter, after: Cursor | None, limit: int) -> tuple[list[dict[str, Any]], Cursor | None]:
        """Up to ``limit`` record summaries, newest first, after ``after``; and the cursor of the next page
        (None on the last)."""
        columns = [game_records.c.game_id, game_records.c.outcome, game_records.c.created_ms, game_records.c.ended_ms]
        rows = self._rows(columns, where, after, limit + 1)
        players = self._players([row.game_id for row in rows[:limit]])
        summaries = [
            {
                "game_id": row.game_id,
                "outcome": row.outcome,
                "created_ms": row.created_ms,
                "ended_ms": row.ended_ms,
                "seats": players.get(row.game_id, []),
            }
            for row in rows[:limit]
        ]
        more = len(rows) > limit
        return summaries, ((rows[limit - 1].ended_ms, rows[limit - 1].game_id) if more and limit else None)

    def export_end(self, where: RecordFilter, after: Cursor | None, most: int) -> Cursor | None:
        """Where an export of at most ``most`` records from ``after`` stops: the key of its ``most``-th record
        when more follow it (pass it to :meth:`stream` as ``through``, and as the next export's cursor); None
        when the export reaches the last record."""
        columns = [game_records.c.ended_ms, game_records.c.game_id]
        query = self._query(columns, where, after, None).offset(most - 1).limit(2)
        with self.engine.connect() as connection:
            rows = list(connection.execute(query))
        return (rows[0].ended_ms, rows[0].game_id) if len(rows) == 2 else None

    def stream(
        self, where: RecordFilter, after: Cursor | None = None, through: Cursor | None = None
    ) -> Iterator[bytes]:
        """Every matching record document (JSON), newest first, after ``after`` and down to ``through``
        (included; :meth:`export_end`): batches of :data:`STREAM_BATCH`, each its own short query, so an
        export of any size holds one batch in memory and no long transaction."""
        cursor = after
        while True:
            columns = [game_records.c.game_id, game_records.c.ended_ms, game_records.c.body]
            rows = self._rows(columns, where, cursor, STREAM_BATCH, through)
            for row in rows:
                yield row.body.encode()
            if len(rows) < STREAM_BATCH:
                return
            cursor = (rows[-1].ended_ms, rows[-1].game_id)

    def reveal(self, game_ids: list[str]) -> int:
        """Show the hidden records of these games (their games are gone); how many were hidden."""
        if not game_ids:
            return 0
        hidden = and_(game_records.c.game_id.in_(game_ids), game_records.c.hidden == true())
        with self.engine.begin() as connection:
            return int(connection.execute(update(game_records).where(hidden).values(hidden=False)).rowcount)

    def hidden(self, after: str, limit: int) -> list[str]:
        """Up to ``limit`` ids of games whose record is hidden, in id order after ``after`` (a sweep's walk)."""
        query = (
            select(game_records.c.game_id)
            .where(game_records.c.hidden == true(), game_records.c.game_id > after)
            .order_by(game_records.c.game_id)
            .limit(limit)
        )
        with self.engine.connect() as connection:
            return list(connection.execute(query).scalars())

    def purge(self, before_ms: int, limit: int = 1000) -> int:
        """Delete up to ``limit`` records that ended before ``before_ms`` (retention); how many went."""
        with self.engine.begin() as connection:
            old = select(game_records.c.game_id).where(game_records.c.ended_ms < before_ms).limit(limit)
            ids = list(connection.execute(old).scalars())
            if ids:
                connection.execute(delete(record_seats).where(record_seats.c.game_id.in_(ids)))
                connection.execute(delete(game_records).where(game_records.c.game_id.in_(ids)))
        return len(ids)

    def ping(self) -> bool:
        with self.engine.connect() as connection:
            return connection.execute(select(1)).scalar() == 1

    def _rows(
        self, columns: list[Any], where: RecordFilter, after: Cursor | None, limit: int, through: Cursor | None = None
    ) -> list[Any]:
        query = self._query(columns, where, after, through).limit(limit)
        with self.engine.connect() as connection:
            return list(connection.execute(query))

    def _query(self, columns: list[Any], where: RecordFilter, after: Cursor | None, through: Cursor | None) -> Any:
        """The shown records ``where`` selects, newest first, after ``after`` and down to ``through``."""
        key = tuple_(game_records.c.ended_ms, game_records.c.game_id)
        query = select(*columns).where(SHOWN, *_conditions(where))
        if after is not None:
            query = query.where(key < tuple_(*after))
        if through is not None:
            query = query.where(key >= tuple_(*through))
        return query.order_by(game_records.c.ended_ms.desc(), game_records.c.game_id.desc())

    def _players(self, game_ids: list[str]) -> dict[str, list[dict[str, Any]]]:
        if not game_ids:
            return {}
        query = (
            select(
                record_seats.c.game_id,
                record_seats.c.seat,
                record_seats.c.player,
                record_seats.c.won,
                record_seats.c.player_id,
            )
            .where(record_seats.c.game_id.in_(game_ids))
            .order_by(record_seats.c.game_id, record_seats.c.seat)
        )
        found: dict[str, list[dict[str, Any]]] = {}
        with self.engine.connect() as connection:
            for row in connection.execute(query):
                seat = {"seat": row.seat, "player": row.player, "won": row.won, "player_id": row.player_id}
                found.setdefault(row.game_id, []).append(seat)
        return found


def _conditions(where: RecordFilter) -> list[Any]:
    found: list[Any] = []
    if where.since is not None:
        found.append(game_records.c.ended_ms >= where.since)
    if where.until is not None:
        found.append(game_records.c.ended_ms < where.until)
    if where.result in ("finished", "abandoned"):
        found.append(game_records.c.outcome == where.result)
    if where.player_id is not None:  # its own seat condition: a level's filter names another seat
        mine = and_(record_seats.c.game_id == game_records.c.game_id, record_seats.c.player_id == where.player_id)
        found.append(exists().where(mine))
    if where.player is not None or where.result in ("won", "lost"):
        seat = [record_seats.c.game_id == game_records.c.game_id]
        if where.player is not None:
            seat.append(record_seats.c.player == where.player)
        if where.result in ("won", "lost"):
            seat.append(record_seats.c.won == (where.result == "won"))
            found.append(game_records.c.outcome == "finished")
        found.append(exists().where(and_(*seat)))
    return found
