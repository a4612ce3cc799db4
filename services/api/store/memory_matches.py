"""Quick match in process memory (:class:`services.api.store.matches.MatchQueue`), step for step the Redis
scripts of :mod:`services.api.store.redis_matches` (each step under the backend's one lock), for unit tests."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from threading import Condition
from typing import Protocol

import orjson

from services.api.store.match_groups import four, table_from
from services.api.store.matches import (
    CANCELLED,
    EVERYONE,
    EXPIRED,
    FORMING,
    SEATED,
    SEATS,
    WAITING,
    Formed,
    Group,
    MatchLook,
    MatchRequest,
    MatchTimes,
    match_channel,
)


@dataclass
class Bucket:
    """What Redis holds of one bucket."""

    requests: dict[str, MatchRequest] = field(default_factory=dict)
    queue: dict[str, int] = field(default_factory=dict)  # waiting request id -> arrival ms
    groups: dict[str, tuple[str, ...]] = field(default_factory=dict)  # game id -> member ids in seat order
    forming: dict[str, int] = field(default_factory=dict)  # game id -> its lease's end (ms)
    ended: dict[str, int] = field(default_factory=dict)  # request id -> when it goes (ms)
    spec: str = ""


@dataclass
class MatchesMemory:
    buckets: dict[str, Bucket] = field(default_factory=dict)
    due: dict[str, int] = field(default_factory=dict)  # bucket -> when it next needs a look (ms)
    touches: dict[str, int] = field(default_factory=dict)  # bucket -> enqueues that touched it


class _Backend(Protocol):
    changed: Condition
    matches: MatchesMemory

    def publish(self, channel: str, payload: bytes) -> None: ...


class _Step:
    """One script run on a bucket: what it changes, then the publication of the requests it touched (and
    ``EVERYONE`` when the count of waiting requests changed)."""

    def __init__(self, bucket: Bucket, times: MatchTimes, game_ids: list[str]) -> None:
        self.bucket, self.times, self.game_ids, self.touched = bucket, times, list(game_ids), []
        self.queued = len(bucket.queue)

    def published(self) -> list[str]:
        return [*self.touched, EVERYONE] if len(self.bucket.queue) != self.queued else self.touched

    def finish(self, request: MatchRequest, status: str) -> None:
        now = self.times.now_ms
        self.bucket.requests[request.match_id] = dataclasses.replace(request, status=status, ended_ms=now)
        self.bucket.queue.pop(request.match_id, None)
        self.bucket.ended[request.match_id] = now + self.times.keep_ms
        self.touched.append(request.match_id)

    def prune(self) -> None:
        for match_id, until in list(self.bucket.ended.items()):
            if until <= self.times.now_ms:
                del self.bucket.ended[match_id]
                self.bucket.requests.pop(match_id, None)

    def waiting(self) -> list[MatchRequest]:
        live = []
        for match_id, _ in sorted(self.bucket.queue.items(), key=lambda item: (item[1], item[0])):
            request = self.bucket.requests.get(match_id)
            if request is None or request.status != WAITING:
                self.bucket.queue.pop(match_id, None)
            elif request.seen_ms < self.times.now_ms - self.times.idle_ms:
                self.finish(request, EXPIRED)
            else:
                live.append(request)
        return live

    def form(self, members: list[MatchRequest]) -> str:
        game_id = self.game_ids.pop(0)
        for seat, request in enumerate(members):
            placed = dataclasses.replace(request, status=FORMING, game_id=game_id, seat=seat)
            self.bucket.requests[request.match_id] = placed
            self.bucket.queue.pop(request.match_id, None)
        self.bucket.groups[game_id] = tuple(request.match_id for request in members)
        self.bucket.forming[game_id] = self.times.now_ms + self.times.lease_ms
        return game_id

    def take(self, live: list[MatchRequest], pick: list[int]) -> str:
        """Form the group of ``live``'s ``pick`` and take its members out of ``live``."""
        game_id = self.form([live[index] for index in pick])
        for index in reversed(pick):
            del live[index]
        return game_id

    def group(self, game_id: str) -> Group:
        members = self.bucket.groups[game_id]
        return Group(game_id, self.bucket.spec, tuple(self.bucket.requests[m] for m in members))


class MemoryMatches:
    """The quick-match operations of :class:`services.api.store.memory_store.MemoryStore`."""

    backend: _Backend

    def _published(self, bucket: str, step: _Step) -> None:
        if named := step.published():
            self.backend.publish(match_channel(bucket), orjson.dumps(named))

    def enqueue_match(
        self, bucket: str, request: MatchRequest, spec: str, times: MatchTimes, game_ids: list[str]
    ) -> Formed:
        with self.backend.changed:
            state = self.backend.matches.buckets.setdefault(bucket, Bucket())
            step = _Step(state, times, game_ids[:2])
            step.prune()
            state.requests[request.match_id] = request
            state.queue[request.match_id] = request.created_ms
            state.spec = spec
            live = step.waiting()
            pick = four(live)
            groups = (step.group(step.take(live, pick)),) if pick is not None else ()
            self._published(bucket, step)
            return Formed(groups, None)

    def form_matches(self, bucket: str, times: MatchTimes, game_ids: list[str]) -> Formed:
        with self.backend.changed:
            state = self.backend.matches.buckets.setdefault(bucket, Bucket())
            step = _Step(state, times, game_ids[:2])
            step.prune()
            formed, live = [], step.waiting()
            while step.game_ids and (pick := four(live)) is not None:
                formed.append(step.take(live, pick))
            while step.game_ids and live:
                due = min(range(len(live)), key=lambda index: (live[index].deadline_ms, index))
                if live[due].deadline_ms > times.now_ms:
                    break
                formed.append(step.take(live, table_from(live, due)))
            soonest = min((request.deadline_ms for request in live), default=None)
            idle_at = min((request.seen_ms + times.idle_ms + 1 for request in live), default=None)
            lapsed = sorted((until, game_id) for game_id, until in state.forming.items() if until <= times.now_ms)
            for _, game_id in lapsed[:10]:
                state.forming[game_id] = times.now_ms + times.lease_ms
                formed.append(game_id)
            leases = min(state.forming.values(), default=None)
            due = [when for when in (soonest, leases, idle_at) if when is not None]
            next_due = min(due, default=None)
            if four(live) is not None or (soonest is not None and soonest <= times.now_ms):
                next_due = times.now_ms
            self._published(bucket, step)
            return Formed(tuple(step.group(game_id) for game_id in formed), next_due)

    def match_seated(
        self, bucket: str, game_id: str, times: MatchTimes, dropped: Sequence[str] = ()
    ) -> list[MatchRequest]:
        with self.backend.changed:
            state = self.backend.matches.buckets.setdefault(bucket, Bucket())
            step = _Step(state, times, [])
            members = state.groups.pop(game_id, None)
            state.forming.pop(game_id, None)
            ended = []
            for match_id in members or ():
                request = state.requests.get(match_id)
                if request is not None and request.status == FORMING and request.game_id == game_id:
                    status = CANCELLED if match_id in dropped else SEATED
                    done = dataclasses.replace(request, status=status, ended_ms=times.now_ms)
                    state.requests[match_id] = done
                    state.ended[match_id] = times.now_ms + times.keep_ms
                    step.touched.append(match_id)
                    ended.append(done)
            self._published(bucket, step)
            return ended

    def look_match(self, bucket: str, match_id: str, times: MatchTimes) -> MatchLook | None:
        with self.backend.changed:
            state = self.backend.matches.buckets.get(bucket)
            request = state.requests.get(match_id) if state else None
            if state is None or request is None:
                return None
            if request.status == WAITING:
                request = state.requests[match_id] = dataclasses.replace(request, seen_ms=times.now_ms)
                first = min(state.queue, key=lambda m: (state.queue[m], m))  # the longest-waiting (this one at worst)
                return MatchLook(request, min(len(state.queue), SEATS - 1), state.requests[first].level)
            members = state.groups.get(request.game_id or "") if request.status == FORMING else None
            if members:
                return MatchLook(request, len(members), state.requests[members[0]].level)
            return MatchLook(request)

    def cancel_match(self, bucket: str, match_id: str, times: MatchTimes) -> MatchRequest | None:
        with self.backend.changed:
            state = self.backend.matches.buckets.get(bucket)
            request = state.requests.get(match_id) if state else None
            if state is None or request is None:
                return None
            step = _Step(state, times, [])
            if request.status == WAITING:
                step.finish(request, CANCELLED)
            self._published(bucket, step)
            return state.requests[match_id]

    def lower_match_due(self, bucket: str, due_ms: int) -> None:
        with self.backend.changed:
            matches = self.backend.matches
            matches.touches[bucket] = matches.touches.get(bucket, 0) + 1
            matches.due[bucket] = min(due_ms, matches.due.get(bucket, due_ms))

    def due_match_buckets(self, now_ms: int, limit: int) -> list[tuple[str, str]]:
        with self.backend.changed:
            matches = self.backend.matches
            due = sorted((when, bucket) for bucket, when in matches.due.items() if when <= now_ms)[:limit]
            return [(bucket, str(matches.touches[bucket]) if bucket in matches.touches else "") for _, bucket in due]

    def raise_match_due(self, bucket: str, next_ms: int | None, touched: str) -> bool:
        with self.backend.changed:
            matches = self.backend.matches
            if (str(matches.touches[bucket]) if bucket in matches.touches else "") != touched:
                return False
            if next_ms is None:
                matches.due.pop(bucket, None)
                matches.touches.pop(bucket, None)
            else:
                matches.due[bucket] = next_ms
            return True

    def waiting_matches(self) -> int:
        with self.backend.changed:
            buckets = self.backend.matches.buckets
            return sum(len(buckets[b].queue) for b in self.backend.matches.due if b in buckets)
