"""The commit: one Lua compare-and-set that writes a game's change whole.

It compares the stored version, writes the record (the finished rounds only when they changed),
appends the events (trimming the log when a round start moved its lower bound), publishes the new
events on the game's shard channel for the fan-out hubs, stores the seat's idempotency entry over its
previous one, and refreshes every TTL — all or nothing, on the game's one slot.  When finished games are
recorded (:mod:`services.api.store.record_outbox`), the commit that ends a game takes its expiry off instead
(``ttl`` -1: ``PERSIST``) and a later commit of the finished game leaves it as it is (``ttl`` 0): the records
writer gives it back once the record is written.
:func:`commit_command` is the one place that lays out its keys and arguments.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from services.api.store.lua_scripts import lua
from services.api.store.protocol import StoredGame, idempotency_key, notify_channel
from services.api.store.redis_keys import events_key, game_key

COMMIT_LUA = lua("commit/commit.lua")


@dataclass(frozen=True, slots=True)
class CommitTtls:
    """How long a game (in play, or finished) and a seat's idempotency entry are kept; ``keep_finished``:
    a finished game has no expiry until its record is written (services.api.store.record_outbox)."""

    game: int
    finished: int
    idempotency: int
    keep_finished: bool = False

    def after(self, record: StoredGame, expected: StoredGame | None) -> int:
        """The game's TTL after this commit: -1 to take it off, 0 to leave it as it is."""
        if not record.finished:
            return self.game
        if not self.keep_finished:
            return self.finished
        newly_over = expected is None or not expected.finished
        return -1 if newly_over else 0


def commit_command(
    record: StoredGame,
    expected: StoredGame | None,
    events: list[dict[str, Any]],
    idempotent: tuple[str, bytes] | None,
    ttls: CommitTtls,
) -> tuple[list[str], list[Any]]:
    """The script's keys and arguments for this change.  The finished rounds are sent only when they
    differ from ``expected``'s, the log's new lower bound only when a round start moved it."""
    rounds = record.rounds_json
    if expected is not None and expected.rounds_json == rounds:
        rounds = ""  # unchanged: not sent, not rewritten
    trim = expected is not None and record.first_seq > expected.first_seq
    ttl = ttls.after(record, expected)
    args: list[Any] = [
        "" if expected is None else str(expected.version),  # expected
        str(record.version),  # version
        record.meta_json(),  # meta
        record.state_json,  # state
        ttl,  # ttl
        idempotent[1] if idempotent else "",  # idem_entry
        min(ttls.idempotency, ttl) if ttl > 0 else ttls.idempotency,  # idem_ttl
        rounds,  # rounds
        f"{record.first_seq}-0" if trim else "",  # trim_below
    ]
    for event in events:
        args += [f"{event['seq']}-0", orjson.dumps(event).decode()]
    idem_key = idempotent[0] if idempotent else game_key(record.game_id) + ":idem:none"
    keys = [game_key(record.game_id), events_key(record.game_id), idem_key, notify_channel(record.game_id)]
    if record.finished and not ttls.keep_finished:
        # every seat's entry expires with the finished game (EXPIRE … LT: never lengthened)
        keys += [idempotency_key(record.game_id, seat) for seat in range(len(record.seats))]
    return keys, args
