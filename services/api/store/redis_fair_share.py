"""Creators' holds and paused computer-only games in Redis (:class:`services.api.store.fair_share.FairShareStore`).

Holds: per creator two sorted sets in the creator's own slot (``quota:{<creator>}:games`` and
``:computer``; :mod:`services.api.store.redis_keys`), each game id scored by when its hold ends.
:data:`HOLD_LUA` drops the ended holds (``ZREMRANGEBYSCORE``), checks the counts and adds the game, all
in one script on that one slot; the keys expire with their last hold.  A release is a ``ZREM`` per set,
sent only when a game ends, never on an ordinary move.

Watched and paused: two small keys in the game's slot, each step one script (:data:`WATCH_LUA`,
:data:`PAUSE_LUA`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Any

import redis
from redis.cluster import RedisCluster

from services.api.store.fair_share import COMPUTER_GAMES, GAMES
from services.api.store.lua_scripts import lua
from services.api.store.redis_keys import held_computer_games_key, held_games_key, paused_key, watched_key

HOLD_LUA = lua("fair_share/hold.lua")

WATCH_LUA = lua("fair_share/watch.lua")

PAUSE_LUA = lua("fair_share/pause.lua")


class RedisFairShare:
    """The fair-share operations of :class:`services.api.store.redis_store.RedisStore`."""

    client: redis.Redis | RedisCluster
    ttl_seconds: int

    @cached_property
    def _scripts(self) -> dict[str, Any]:
        return {name: self.client.register_script(lua) for name, lua in _SCRIPTS.items()}

    def hold_game(
        self, creator: str, game_id: str, computer_only: bool, limits: tuple[int, int], now: float, until: float
    ) -> str | None:
        keys = [held_games_key(creator), held_computer_games_key(creator)]
        args = [repr(now), repr(until), game_id, limits[0], limits[1], "1" if computer_only else "0"]
        refused = self._scripts["hold"](keys=keys, args=args)  # a re-sent call finds it held
        refused = refused.decode() if isinstance(refused, bytes) else refused
        assert refused in ("", GAMES, COMPUTER_GAMES), refused
        return refused or None

    def release_game(self, creators: Sequence[str], game_id: str) -> None:
        pipe = self.client.pipeline(transaction=False)  # one round trip per master
        for creator in creators:
            pipe.zrem(held_games_key(creator), game_id)
            pipe.zrem(held_computer_games_key(creator), game_id)
        pipe.execute()

    def watch(self, game_id: str, seconds: float) -> bool:
        millis = max(1, round(seconds * 1000))
        return bool(self._scripts["watch"](keys=[watched_key(game_id), paused_key(game_id)], args=[millis]))

    def pause_unless_watched(self, game_id: str) -> bool:
        keys = [watched_key(game_id), paused_key(game_id)]
        return bool(self._scripts["pause"](keys=keys, args=[self.ttl_seconds]))  # the mark lives as long as the game


_SCRIPTS = {"hold": HOLD_LUA, "watch": WATCH_LUA, "pause": PAUSE_LUA}
