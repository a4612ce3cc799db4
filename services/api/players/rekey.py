"""The stored name keys made again when the rules that make them change (:data:`names.KEY_RULES`).

A key is a function of ICU's confusables data and Python's Unicode tables as well as of the name
(:mod:`services.api.players.names`), so the key a name was stored with can differ from the one the running
code computes: a look-alike of an old name would then pass.  ``name_key_rules`` holds the rules the stored keys
were made by; :func:`rekey_if_stale`, run by :func:`services.api.records.database.migrate` under its lock after
the migrations, makes every live player's keys again when they differ.  An empty table stands for revision
0005's keys, the casefolded names (revision 0006 makes the table empty).

Two stored names can share a key under the running rules (``Farmer A`` and ``Farmer А`` with a Cyrillic ``А``,
which revision 0005's keys told apart).  The older player keeps the key; the newer keeps its name (nobody is
renamed behind their back) but not the key, and is logged.  While the older player holds the key, no one else
can take a name with it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence

from sqlalchemy import Connection, bindparam, delete, select, text, update

from services.api.players.names import KEY_RULES, name_key, shape_key
from services.api.records.schema import name_key_rules, players
from services.api.store.protocol import now_ms

log = logging.getLogger(__name__)


def rekey_if_stale(connection: Connection) -> bool:
    """Make every live player's keys by :data:`KEY_RULES` unless the stored ones were; whether it did."""
    stored = connection.execute(select(name_key_rules.c.rules)).scalars().all()
    if stored == [KEY_RULES]:
        return False
    keyed = assign_keys(
        connection, ("name_key", "shape_key"), lambda name: {"name_key": name_key(name), "shape_key": shape_key(name)}
    )
    connection.execute(delete(name_key_rules))
    connection.execute(name_key_rules.insert().values(rules=KEY_RULES, keyed_ms=now_ms()))
    log.info(
        "player names keyed by %s (was %s): %d players", KEY_RULES, stored[0] if stored else "casefold keys", keyed
    )
    return True


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
