"""The stored name keys made again when the rules that make them change (:data:`names.KEY_RULES`).

A key is a function of ICU's confusables data and Python's Unicode tables as well as of the name
(:mod:`services.api.players.names`), so the key a name was stored with can differ from the one the running
code computes: a look-alike of an old name would then pass.  ``name_key_rules`` holds the rules the stored keys
were made by; :func:`rekey_if_stale`, run by :func:`services.api.records.database.migrate` under its lock after
the migrations (the app gives it as the migration's upkeep), makes every live player's keys again when they differ.  An empty table stands for revision
0005's keys, the casefolded names (revision 0006 makes the table empty).

Two stored names can share a key under the running rules (``Farmer A`` and ``Farmer А`` with a Cyrillic ``А``,
which revision 0005's keys told apart).  The older player keeps the key; the newer keeps its name (nobody is
renamed behind their back) but not the key, and is logged.  While the older player holds the key, no one else
can take a name with it.
"""

from __future__ import annotations

import logging

from sqlalchemy import Connection, delete, select

from services.api.players.names import KEY_RULES, name_key, shape_key
from services.api.records.name_keys import assign_keys
from services.api.records.schema import name_key_rules
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
