"""The Redis keys of a game and of the timers.

Every key of a game carries its ``{game_id}`` hash tag, so a game lives in one Redis Cluster slot and the
commit script may touch all of its keys; the timers are sharded into ``PENDING_SHARDS`` sorted sets, each
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
    """The timers shard that holds a game's AI deadline (stable: a hash of the id)."""
    return PENDING_SETS[zlib.crc32(game_id.encode()) % PENDING_SHARDS]


def held_games_key(creator: str) -> str:
    """A creator's games in play (sorted set: game id scored by when its hold ends); its own slot."""
    return f"quota:{{{creator}}}:games"


def held_computer_games_key(creator: str) -> str:
    """The creator's computer-only games in play, in the same slot as :func:`held_games_key`."""
    return f"quota:{{{creator}}}:computer"


def watched_key(game_id: str) -> str:
    """Set, with a TTL, by each read of a computer-only game (services.api.ai_seats.pauses)."""
    return f"game:{{{game_id}}}:watched"


def paused_key(game_id: str) -> str:
    """Set when a computer-only game's AI turn was held back because nobody watched it; a read takes it."""
    return f"game:{{{game_id}}}:paused"


def waiting_key(holder: str) -> str:
    """A client's waiting requests (sorted set: slot id scored by its lease's end; services.api.live.waiting_caps);
    its own slot."""
    return f"waiting:{{{holder}}}"


def player_games_key(player_id: str) -> str:
    """A player's games in play (sorted set: game id scored by when it was noted; services.api.store.player_index);
    its own slot."""
    return f"player:{{{player_id}}}:games"


def heartbeat_keys() -> tuple[str, str]:
    """The service's latest heartbeat and its outages (services.api.store.heartbeat); one slot of their own."""
    return "service:{beat}", "service:{beat}:outages"
