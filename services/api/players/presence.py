"""Whether a followed player is online, and at which public table: ``player_presence`` on the records database.

- **Last seen**: each request whose ``Player-Token`` names a player (:mod:`services.api.http.player_auth`) moves the
  player's ``seen_ms``, at most once a minute (:data:`SEEN_STEP_MS`: one upsert that changes nothing in between).
  The web client reads the player's notices every half minute while its lobby is open, so an open lobby counts.
- **The public table**: after a commit that changes a public game's seats (created, claimed, left), each seat's
  player is noted at that game and seat (:class:`SeatedPlayers`, wrapping the listing's hooks).  A note is only a
  hint: it is read back against the game as it is (:func:`table_of`): still public, not over, the seat still the
  player's.  A private table (a friends' game, a quick match) is never noted, so never shown.

A followed player is **online** (:func:`online`) when seen within ``ONLINE_SECONDS`` (default five minutes), or
connected at the public table shown (their seat's presence, :mod:`services.api.live.presence`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Engine, select

from services.api.games.record import GameRecord
from services.api.games.table_hooks import TableHooks
from services.api.players.friends import Related
from services.api.records.database import insert_of
from services.api.records.schema import player_presence
from services.api.store.protocol import GameStore

log = logging.getLogger(__name__)
SEEN_STEP_MS = 60_000
ONLINE_MS = 300_000


@dataclass(frozen=True, slots=True)
class Whereabouts:
    """A followed player as the following list shows it."""

    player: Related
    online: bool
    seen_ms: int | None
    game_id: str | None  # the public table they sit at now
    seat: int | None


def online(seen_ms: int | None, now_ms: int, window_ms: int, connected: bool = False) -> bool:
    """The one rule: seen within ``window_ms``, or connected at their public table."""
    return connected or (seen_ms is not None and now_ms - seen_ms <= window_ms)


def table_of(record: GameRecord | None, player_id: str, seat: int | None) -> bool:
    """Whether ``record`` is a public table ``player_id`` sits at, at ``seat``, now."""
    if record is None or seat is None or not 0 <= seat < len(record.seats):
        return False
    taken = record.seats[seat]
    return record.options.public and not record.finished and taken.player_id == player_id and not taken.stand_in


class Presence:
    """Last seen and public tables on one SQLAlchemy engine (the records database's)."""

    def __init__(self, engine: Engine, window_ms: int = ONLINE_MS) -> None:
        self.engine, self.window_ms = engine, window_ms
        self._insert = insert_of(engine)

    def seen(self, player_id: str, now_ms: int) -> None:
        """``player_id`` made a request now; written at most once a :data:`SEEN_STEP_MS`."""
        statement = self._insert(player_presence).values(player_id=player_id, seen_ms=now_ms)
        statement = statement.on_conflict_do_update(
            index_elements=[player_presence.c.player_id],
            set_={"seen_ms": now_ms},
            where=player_presence.c.seen_ms <= now_ms - SEEN_STEP_MS,
        )
        with self.engine.begin() as connection:
            connection.execute(statement)

    def at_table(self, player_id: str, game_id: str, seat: int, now_ms: int) -> None:
        """``player_id`` sat down at ``game_id``'s ``seat`` (a public table), which counts as seen too."""
        values = {"game_id": game_id, "seat": seat, "seen_ms": now_ms}
        statement = self._insert(player_presence).values(player_id=player_id, **values)
        statement = statement.on_conflict_do_update(index_elements=[player_presence.c.player_id], set_=values)
        with self.engine.begin() as connection:
            connection.execute(statement)

    def whereabouts(self, store: GameStore, followed: Sequence[Related], now_ms: int) -> list[Whereabouts]:
        """Each of ``followed`` with whether it is online and the public table it sits at (read against the
        game as it is now: one load per noted table, and one presence read per table found)."""
        ids = [player.id for player in followed]
        notes: dict[str, tuple[int, str | None, int | None]] = {}
        with self.engine.connect() as connection:
            for start in range(0, len(ids), 200):
                query = select(player_presence).where(player_presence.c.player_id.in_(ids[start : start + 200]))
                for row in connection.execute(query):
                    notes[row.player_id] = (row.seen_ms, row.game_id, row.seat)
        out = []
        for player in followed:
            seen_ms, game_id, seat = notes.get(player.id, (None, None, None))
            connected = False
            if game_id is not None:
                record = store.load(game_id)
                if table_of(record, player.id, seat):
                    assert seat is not None
                    connected = bool(store.table_extras(game_id, now_ms)[0][seat])
                else:
                    game_id, seat = None, None
            live = online(seen_ms, now_ms, self.window_ms, connected)
            out.append(Whereabouts(player, live, seen_ms, game_id, seat))
        return out


class SeatedPlayers:
    """The listing's hooks (:class:`services.api.games.table_hooks.TableHooks`), and after each commit that changes
    a public game's seats, its seats' players noted at that table."""

    def __init__(self, inner: TableHooks, presence: Presence, clock_ms) -> None:  # type: ignore[no-untyped-def]
        self.inner, self.presence, self.clock_ms = inner, presence, clock_ms

    def before_seats(self, record: GameRecord) -> None:
        self.inner.before_seats(record)

    def after_seats(self, record: GameRecord) -> None:
        self.inner.after_seats(record)
        if not record.options.public or record.finished:
            return
        try:
            now = self.clock_ms()
            for seat, taken in enumerate(record.seats):
                if taken.player_id is not None and not taken.stand_in and taken.player_kind != "computer":
                    self.presence.at_table(taken.player_id, record.game_id, seat, now)
        except Exception:  # a hint only: the table shows no friend, the game goes on
            log.warning("could not note a table's players", extra={"game_id": record.game_id}, exc_info=True)
