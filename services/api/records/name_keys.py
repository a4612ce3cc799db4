"""The players' stored name keys set in one pass (``players.name_key`` and ``shape_key``): the step a migration and
:mod:`services.api.players.rekey` share, whatever the keys are made of (the caller says)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence

from sqlalchemy import Connection, bindparam, select, text, update

from services.api.records.schema import players

log = logging.getLogger(__name__)


def assign_keys(
    connection: Connection, columns: Sequence[str], keys_of: Callable[[str], Mapping[str, str | None]]
) -> int:
    """Every live named player's key ``columns`` set to ``keys_of(name)`` (None: no key), the oldest player
    first keeping a key two names share; how many players were keyed.  Computer levels hold no key."""
    if connection.dialect.name == "postgresql":  # no player made or renamed meanwhile; reads go on
        connection.execute(text("LOCK TABLE players IN EXCLUSIVE MODE"))
    named = players.c.name.is_not(None) & players.c.deleted_ms.is_(None) & (players.c.kind != "computer")
    rows = connection.execute(
        select(players.c.id, players.c.name).where(named).order_by(players.c.created_ms, players.c.id)
    ).all()
    held: dict[str, set[str]] = {column: set() for column in columns}
    updates: list[dict[str, str | None]] = []
    lost: dict[str, None] = {}  # the players that lost a key, in order
    for row in rows:
        keys = keys_of(row.name)
        values: dict[str, str | None] = {"player": row.id}
        for column in columns:
            key = keys.get(column)
            if key in held[column]:
                key = None  # an older player's: this one keeps its name, not the key
                lost[row.id] = None
            elif key is not None:
                held[column].add(key)
            values[column] = key
        updates.append(values)
    if not updates:
        return 0
    # Cleared first, then set: a key may pass from one player to another (one's old key is another's new one),
    # and the unique indexes are checked row by row.
    connection.execute(update(players).where(named).values(dict.fromkeys(columns)))
    connection.execute(update(players).where(players.c.id == bindparam("player")), updates)
    if lost:
        log.warning(
            "%d players' names look like an older player's: they keep their names but not the keys: %s",
            len(lost),
            ", ".join(lost),
        )
    return len(updates)
