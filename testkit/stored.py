"""What Redis holds for a game, read the way the service reads it (for consistency checks)."""

from __future__ import annotations

import redis

from services.api.games.record import GameRecord
from services.api.store.redis_store import RedisStore
from services.engine import GameState


def stored_state(client: redis.Redis, game_id: str) -> GameState | None:
    """The engine state Redis holds for a game, read through the store itself (no copy kept)."""
    record = RedisStore(GameRecord.from_stored, client, ttl_seconds=60, idem_ttl=60, recent_size=0).load(game_id)
    return None if record is None else record.state
