"""The Redis keys of a game and of the AI ledger.

Every key of a game carries its ``{game_id}`` hash tag, so a game lives in one Redis Cluster slot and the
commit script may touch all of its keys; the AI ledger is sharded into ``PENDING_SHARDS`` sorted sets, each
its own slot, so on a cluster it is spread over the masters like the games are.  ``PENDING_SHARDS`` is a
constant: changing it moves live deadlines.
"""

from __future__ import annotations

import zlib

PENDING_SHARDS = 16  # sorted sets of game ids scored by their AI turn's deadline; each its own slot
PENDING_SETS = tuple(f"ai:pending:{{{shard}}}" for shard in range(PENDING_SHARDS))


def game_key(game_id: str) -> str:
    return f"game:{{{game_id}}}"


def events_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:events"


def pending_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:ai"


def pending_set(game_id: str) -> str:
    """The ledger shard that holds a game's AI deadline (stable: a hash of the id)."""
    return PENDING_SETS[zlib.crc32(game_id.encode()) % PENDING_SHARDS]
