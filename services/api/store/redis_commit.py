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

from services.api.store.protocol import GameRecord, idempotency_key, notify_channel
from services.api.store.redis_keys import events_key, game_key

COMMIT_LUA = """
local game, events, idem, notify = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local expected, version, meta, state = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local ttl, idem_entry, idem_ttl = tonumber(ARGV[5]), ARGV[6], tonumber(ARGV[7])
local rounds, trim_below = ARGV[8], ARGV[9]
local FIRST_EVENT = 10  -- then (stream id, event JSON) pairs to the end of ARGV

local cur = redis.call('HGET', game, 'v')
if expected == '' then
  if cur then return {0, cur} end
elseif cur ~= expected then
  if cur then return {0, cur} end
  return {0, ''}
end
if rounds ~= '' then
  redis.call('HSET', game, 'v', version, 'meta', meta, 'state', state, 'rounds', rounds)
else
  redis.call('HSET', game, 'v', version, 'meta', meta, 'state', state)
end
if ttl > 0 then redis.call('EXPIRE', game, ttl) elseif ttl < 0 then redis.call('PERSIST', game) end
local notice = {}  -- the new events, as one JSON array, to the API processes' fan-out hubs
for i = FIRST_EVENT, #ARGV, 2 do
  redis.call('XADD', events, ARGV[i], 'e', ARGV[i + 1])
  notice[#notice + 1] = ARGV[i + 1]
end
if trim_below ~= '' then redis.call('XTRIM', events, 'MINID', trim_below) end  -- a new round: older rounds go
if ttl > 0 then  -- a no-op while the stream does not exist
  redis.call('EXPIRE', events, ttl)
elseif ttl < 0 then
  redis.call('PERSIST', events)
end
if #notice > 0 then redis.call('SPUBLISH', notify, '[' .. table.concat(notice, ',') .. ']') end
if idem_entry ~= '' then redis.call('SET', idem, idem_entry, 'EX', idem_ttl) end
for i = 5, #KEYS do redis.call('EXPIRE', KEYS[i], ttl, 'LT') end  -- game over: no seat's entry outlives it
return {1, version}
"""


@dataclass(frozen=True, slots=True)
class CommitTtls:
    """How long a game (in play, or finished) and a seat's idempotency entry are kept; ``keep_finished``:
    a finished game has no expiry until its record is written (services.api.store.record_outbox)."""

    game: int
    finished: int
    idempotency: int
    keep_finished: bool = False

    def after(self, record: GameRecord, expected: GameRecord | None) -> int:
        """The game's TTL after this commit: -1 to take it off, 0 to leave it as it is."""
        if record.state.phase != "game_over":
            return self.game
        if not self.keep_finished:
            return self.finished
        newly_over = expected is None or expected.state.phase != "game_over"
        return -1 if newly_over else 0


def commit_command(
    record: GameRecord,
    expected: GameRecord | None,
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
    if record.state.phase == "game_over" and not ttls.keep_finished:
        # every seat's entry expires with the finished game (EXPIRE … LT: never lengthened)
        keys += [idempotency_key(record.game_id, seat) for seat in range(len(record.seats))]
    return keys, args
