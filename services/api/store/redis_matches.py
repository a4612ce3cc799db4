"""Quick match in Redis (:class:`services.api.store.matches.MatchQueue`): a script per step, on a bucket's slot.

A bucket's keys share its hash tag ``{m:<bucket>}`` (:func:`services.api.store.matches.bucket_tag`):

* ``mm:{m:B}:r`` — hash: request id → the request as JSON (:meth:`MatchRequest.stored`, plus ``g``, ``seat``, ``e``);
* ``mm:{m:B}:q`` — sorted set of the waiting requests, by arrival (Unix ms);
* ``mm:{m:B}:g`` and ``:forming`` — each group (its members) and its lease's end (Unix ms);
* ``mm:{m:B}:spec`` — the bucket's rules and clock; ``mm:{m:B}:ended`` — ended requests by when they go;
* ``mm:{m:B}:n`` — the shard channel of the ids of the requests a script changed (and ``*`` when the count of
  waiting requests changed).

The keys expire a day after the bucket's last change.  The due buckets are
:mod:`services.api.store.redis_match_due`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Any

import orjson
import redis
from redis.cluster import RedisCluster

from services.api.store.lua_scripts import lua
from services.api.store.matches import (
    Formed,
    Group,
    MatchLook,
    MatchRequest,
    MatchTimes,
    bucket_tag,
    match_channel,
)

ENQUEUE_LUA = lua("matches/prelude.lua", "matches/enqueue.lua")

FORM_LUA = lua("matches/prelude.lua", "matches/form.lua")

SEATED_LUA = lua("matches/prelude.lua", "matches/seated.lua")

LOOK_LUA = lua("matches/prelude.lua", "matches/look.lua")

CANCEL_LUA = lua("matches/prelude.lua", "matches/cancel.lua")

_SCRIPTS = {
    "enqueue": ENQUEUE_LUA,
    "form": FORM_LUA,
    "seated": SEATED_LUA,
    "look": LOOK_LUA,
    "cancel": CANCEL_LUA,
}


def bucket_keys(bucket: str) -> list[str]:
    """A bucket's keys in the scripts' order (KEYS[1] … KEYS[7])."""
    tag = bucket_tag(bucket)
    return [*(f"mm:{tag}:{name}" for name in ("r", "q", "forming", "g", "spec", "ended")), match_channel(bucket)]


def _text(raw: bytes | str) -> str:
    return raw.decode() if isinstance(raw, bytes) else raw


def _groups(replies: list[Any]) -> tuple[Group, ...]:
    groups = []
    for reply in replies:
        members = tuple(
            MatchRequest.from_stored(_text(reply[i]), reply[i + 1]) for i in range(2, len(reply), 2) if reply[i + 1]
        )
        groups.append(Group(_text(reply[0]), _text(reply[1]), members))
    return tuple(groups)


class RedisMatches:
    """The quick-match operations of :class:`services.api.store.redis_store.RedisStore`."""

    client: redis.Redis | RedisCluster

    @cached_property
    def _match_scripts(self) -> dict[str, Any]:
        return {name: self.client.register_script(lua) for name, lua in _SCRIPTS.items()}

    def _bucket_call(self, name: str, bucket: str, times: MatchTimes, game_ids: list[str], *extra: Any) -> Any:
        ids = [*game_ids, "", ""][:2]
        args = [times.now_ms, times.lease_ms, times.idle_ms, times.keep_ms, times.ttl_seconds, *ids, *extra]
        return self._match_scripts[name](keys=bucket_keys(bucket), args=args)

    def enqueue_match(
        self, bucket: str, request: MatchRequest, spec: str, times: MatchTimes, game_ids: list[str]
    ) -> Formed:
        reply = self._bucket_call("enqueue", bucket, times, game_ids, request.match_id, request.stored(), spec)
        return Formed(_groups(reply[1:]), None)

    def form_matches(self, bucket: str, times: MatchTimes, game_ids: list[str]) -> Formed:
        reply = self._bucket_call("form", bucket, times, game_ids)
        due = int(reply[0])
        return Formed(_groups(reply[1:]), None if due < 0 else due)

    def match_seated(
        self, bucket: str, game_id: str, times: MatchTimes, dropped: Sequence[str] = ()
    ) -> list[MatchRequest]:
        reply = self._bucket_call("seated", bucket, times, [], game_id, orjson.dumps(list(dropped)))
        return [MatchRequest.from_stored(_text(reply[i]), reply[i + 1]) for i in range(0, len(reply), 2)]

    def look_match(self, bucket: str, match_id: str, times: MatchTimes) -> MatchLook | None:
        reply = self._bucket_call("look", bucket, times, [], match_id)
        if reply is None:
            return None
        raw, found, level = reply
        return MatchLook(MatchRequest.from_stored(match_id, raw), int(found) or None, _text(level) if level else None)

    def cancel_match(self, bucket: str, match_id: str, times: MatchTimes) -> MatchRequest | None:
        raw = self._bucket_call("cancel", bucket, times, [], match_id)
        return None if raw is None else MatchRequest.from_stored(match_id, raw)
