"""Each player's games in play in Redis (:class:`services.api.store.player_index.PlayerIndex`).

Per player one sorted set in the player's own slot (``player:{<player id>}:games``;
:mod:`services.api.store.redis_keys`), each game id scored by when it was noted (Unix ms).  A note is one
pipelined ``MULTI`` on that slot (``ZADD``, ``ZREMRANGEBYRANK`` to the newest
:data:`~services.api.store.player_index.MOST_GAMES`, ``EXPIRE``), a read a ``ZRANGE`` and an ``EXPIRE`` the same
way; the key expires ``GAME_TTL_SECONDS`` after its last note or read, as an idle game does.
"""

from __future__ import annotations

from collections.abc import Collection

import redis
from redis.cluster import RedisCluster

from services.api.store.player_index import MOST_GAMES
from services.api.store.redis_keys import player_games_key


class RedisPlayerIndex:
    """The player-index operations of :class:`services.api.store.redis_store.RedisStore`."""

    client: redis.Redis | RedisCluster
    ttl_seconds: int

    def note_player_game(self, player_id: str, game_id: str, now_ms: int) -> None:
        key = player_games_key(player_id)
        pipe = self.client.pipeline(transaction=True)  # one key: one slot
        pipe.zadd(key, {game_id: now_ms})
        pipe.zremrangebyrank(key, 0, -(MOST_GAMES + 1))
        pipe.expire(key, self.ttl_seconds)
        pipe.execute()

    def forget_player_games(self, player_id: str, game_ids: Collection[str]) -> None:
        if game_ids:
            self.client.zrem(player_games_key(player_id), *game_ids)

    def player_games(self, player_id: str) -> list[str]:
        key = player_games_key(player_id)
        pipe = self.client.pipeline(transaction=True)
        pipe.zrange(key, 0, -1, desc=True)
        pipe.expire(key, self.ttl_seconds)
        members, _ = pipe.execute()
        return [m.decode() if isinstance(m, bytes) else m for m in members]
