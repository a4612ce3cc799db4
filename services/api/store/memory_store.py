"""The game store in process memory: :class:`services.api.store.protocol.GameStore`
with Redis's semantics, for unit tests of the command logic and the AI sweeper.

Not a mock: records are kept as their stored texts and rebuilt on every load (a caller can't change what is
stored by editing a record), a commit is a compare-and-set on the version that writes the record, its events and
its idempotency entry together or not at all, and each :class:`MemoryStore` keeps its own ``recent`` copies.
Several stores over one :class:`MemoryBackend` play several API processes over one Redis, stale copies included.
What it leaves out: expiry (TTLs; a watched mark lapses on its ``clock``, holds end at their given times, and so
do waiting slots' leases; a game's time left is what a test puts in ``ttls``) and the Lua script's wire format.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from threading import Condition
from typing import Any, Generic

import orjson

from services.api.store.fair_share import COMPUTER_GAMES, GAMES
from services.api.store.memory_matches import MatchesMemory, MemoryMatches
from services.api.store.memory_player_index import MemoryPlayerIndex
from services.api.store.memory_table_life import MemoryTableLife, TableBackend
from services.api.store.memory_tables import MemoryTables, TablesMemory
from services.api.store.memory_timers import BeatMemory, MemoryTimers
from services.api.store.protocol import (
    Decode,
    Notice,
    RecentCopies,
    Record,
    entry_answers,
    idempotency_key,
    notify_channel,
)
from services.api.store.waiting_slots import Capped

DEFAULT_TTL_SECONDS = 7 * 24 * 3600.0  # a game's time left when a test set none (GAME_TTL_SECONDS's default)


@dataclass
class MemoryBackend:
    """What Redis holds: shared by every MemoryStore built over it."""

    games: dict[str, tuple[int, str, str, str]] = field(default_factory=dict)  # id -> (v, meta, state, rounds)
    events: dict[str, list[tuple[int, bytes]]] = field(default_factory=dict)  # id -> [(seq, event JSON)]
    idempotent: dict[str, bytes] = field(default_factory=dict)  # idempotency_key(id, seat) -> last entry
    pending: dict[str, dict[str, Any]] = field(default_factory=dict)
    deadlines: dict[str, float] = field(default_factory=dict)
    beats: BeatMemory = field(default_factory=BeatMemory)  # the service's heartbeat (memory_timers)
    holds: dict[str, dict[str, tuple[float, bool]]] = field(default_factory=dict)  # creator -> game -> (until, cpu)
    watched: dict[str, float] = field(default_factory=dict)  # game id -> watched until
    paused: set[str] = field(default_factory=set)  # game ids marked paused
    changed: Condition = field(default_factory=Condition)  # the lock of every read and write
    subscribers: dict[str, set[MemorySubscription]] = field(default_factory=dict)  # channel -> subscriptions
    outbox: dict[str, float] = field(default_factory=dict)  # game id -> when its record is due
    ttls: dict[str, float] = field(default_factory=dict)  # game id -> seconds left, as a test sets it
    written: dict[str, int] = field(default_factory=dict)  # game id -> the version record_written was told
    kept: dict[str, float] = field(default_factory=dict)  # game id -> the last keep_game's seconds
    waiting: dict[str, dict[str, float]] = field(default_factory=dict)  # holder -> slot -> its lease's end
    table: TableBackend = field(default_factory=TableBackend)  # presence, messages, rejoin codes
    tables: TablesMemory = field(default_factory=TablesMemory)  # the public tables' listing (memory_tables)
    matches: MatchesMemory = field(default_factory=MatchesMemory)  # quick match's buckets (memory_matches)
    player_games: dict[str, dict[str, int]] = field(default_factory=dict)  # player -> game -> noted (ms)

    def publish(self, channel: str, payload: bytes) -> None:
        """SPUBLISH's part (call with ``changed`` held)."""
        for subscription in self.subscribers.get(channel, ()):
            subscription.notices.put(("message", channel, payload))


class MemorySubscription:
    """:class:`services.api.live.channel_reader.Subscription` on a :class:`MemoryBackend` (at-most-once, like Redis's)."""

    def __init__(self, backend: MemoryBackend) -> None:
        self.backend = backend
        self.notices: queue.Queue[Notice] = queue.Queue()

    def subscribe(self, channel: str) -> None:
        with self.backend.changed:
            self.backend.subscribers.setdefault(channel, set()).add(self)
        self.notices.put(("subscribed", channel, None))

    def unsubscribe(self, channel: str) -> None:
        with self.backend.changed:
            self.backend.subscribers.get(channel, set()).discard(self)
            if not self.backend.subscribers.get(channel, True):
                del self.backend.subscribers[channel]

    def receive(self, timeout: float) -> Notice | None:
        try:
            return self.notices.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        with self.backend.changed:
            for subscribers in self.backend.subscribers.values():
                subscribers.discard(self)


class MemoryStore(MemoryTimers, MemoryTableLife, MemoryTables, MemoryMatches, MemoryPlayerIndex, Generic[Record]):
    """One API process's view of a :class:`MemoryBackend` (a fresh backend by default), reading games back with
    ``decode``."""

    def __init__(
        self,
        decode: Decode[Record],
        backend: MemoryBackend | None = None,
        recent_size: int = 4096,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.decode = decode
        self.backend = backend or MemoryBackend()
        self.clock = clock  # when a watched mark lapses (the one TTL this store keeps)
        self._recent: RecentCopies[Record] = RecentCopies(recent_size)
        self.commits = 0  # committed writes through this store (tests count round trips with it)

    def load(self, game_id: str) -> Record | None:
        with self.backend.changed:
            stored = self.backend.games.get(game_id)
        if stored is None:
            return None
        version, meta, state, rounds = stored
        record = self.decode(game_id, version, meta, state, rounds)
        self._remember(record)
        return record

    def recent(self, game_id: str) -> Record | None:
        return self._recent.get(game_id)

    def _remember(self, record: Record) -> None:
        self._recent.remember(record)

    def commit(
        self,
        record: Record,
        expected: Record | None,
        events: list[dict[str, Any]],
        idempotent: tuple[str, bytes] | None = None,
    ) -> bool:
        backend = self.backend
        with backend.changed:
            current = backend.games.get(record.game_id)
            if (current is None) != (expected is None) or (current and expected and current[0] != expected.version):
                return False
            backend.games[record.game_id] = (record.version, record.meta_json(), record.state_json, record.rounds_json)
            log = backend.events.setdefault(record.game_id, [])
            stored = [orjson.dumps(e) for e in events]
            log.extend((e["seq"], raw) for e, raw in zip(events, stored, strict=True))
            if expected is not None and record.first_seq > expected.first_seq:  # Redis's XTRIM MINID
                log[:] = [(seq, raw) for seq, raw in log if seq >= record.first_seq]
            if stored:
                backend.publish(notify_channel(record.game_id), b"[" + b",".join(stored) + b"]")
            if idempotent:
                backend.idempotent[idempotent[0]] = idempotent[1]
            self.commits += 1
        self._remember(record)
        return True

    def idempotent_entry(self, key: str, digest: bytes) -> bytes | None:
        with self.backend.changed:
            entry = self.backend.idempotent.get(key)
        return entry if entry is not None and entry_answers(entry, digest) else None

    def events_after(self, game_id: str, after: int, limit: int) -> list[dict[str, Any]]:
        with self.backend.changed:
            stored = list(self.backend.events.get(game_id, ()))
        return [orjson.loads(raw) for seq, raw in stored if seq > after][:limit]

    def subscription(self) -> MemorySubscription:
        return MemorySubscription(self.backend)

    def ping(self) -> bool:
        return True

    # ---- fair share (services.api.store.fair_share) -------------------------------

    def hold_game(
        self, creator: str, game_id: str, computer_only: bool, limits: tuple[int, int], now: float, until: float
    ) -> str | None:
        with self.backend.changed:
            held = self.backend.holds.setdefault(creator, {})
            if game_id in held:
                return None
            for game, (ends, _) in list(held.items()):
                if ends < now:
                    del held[game]
            if limits[0] and len(held) >= limits[0]:
                return GAMES
            if computer_only and limits[1] and sum(cpu for _, cpu in held.values()) >= limits[1]:
                return COMPUTER_GAMES
            held[game_id] = (until, computer_only)
            return None

    def release_game(self, creators: Sequence[str], game_id: str) -> None:
        with self.backend.changed:
            for creator in creators:
                self.backend.holds.get(creator, {}).pop(game_id, None)

    def watch(self, game_id: str, seconds: float) -> bool:
        with self.backend.changed:
            self.backend.watched[game_id] = self.clock() + seconds
            if game_id in self.backend.paused:
                self.backend.paused.discard(game_id)
                return True
            return False

    def pause_unless_watched(self, game_id: str) -> bool:
        with self.backend.changed:
            if self.backend.watched.get(game_id, float("-inf")) > self.clock():
                return True
            self.backend.paused.add(game_id)
            return False

    # ---- the records outbox (services.api.store.record_outbox) ---------------------

    def schedule_record(self, game_id: str, due: float) -> None:
        with self.backend.changed:
            self.backend.outbox[game_id] = due

    def claim_records(self, now: float, lease: float, limit: int) -> list[str]:
        with self.backend.changed:
            due = sorted((when, game_id) for game_id, when in self.backend.outbox.items() if when <= now)[:limit]
            for _, game_id in due:
                self.backend.outbox[game_id] = now + lease
        return [game_id for _, game_id in due]

    def record_done(self, game_id: str) -> None:
        with self.backend.changed:
            self.backend.outbox.pop(game_id, None)

    def record_written(self, game_id: str, version: int) -> bool:
        with self.backend.changed:
            stored = self.backend.games.get(game_id)
            if stored is None or stored[0] != version:
                return False
            self.backend.written[game_id] = version
            self.backend.outbox.pop(game_id, None)
            return True

    def game_ttl(self, game_id: str) -> float | None:
        with self.backend.changed:
            if game_id not in self.backend.games:
                return None
            return self.backend.ttls.get(game_id, DEFAULT_TTL_SECONDS)

    def keep_game(self, game_id: str, seconds: float) -> None:
        with self.backend.changed:
            self.backend.kept[game_id] = seconds
            self.backend.ttls[game_id] = max(seconds, self.backend.ttls.get(game_id, DEFAULT_TTL_SECONDS))

    def end_game(self, game_id: str, version: int | None) -> bool:
        backend = self.backend
        with backend.changed:
            stored = backend.games.get(game_id)
            if stored is not None and stored[0] != version:
                return False  # changed since (or gone was expected): a move wins
            backend.games.pop(game_id, None)
            backend.events.pop(game_id, None)
            for seat in range(4):
                backend.idempotent.pop(idempotency_key(game_id, seat), None)
            backend.pending.pop(game_id, None)
            backend.watched.pop(game_id, None)
            backend.paused.discard(game_id)
            backend.ttls.pop(game_id, None)
            return True

    # ---- waiting requests' slots (services.api.store.waiting_slots) -----------------

    def take_waiting(self, holders: Sequence[Capped], slot: str, now: float, until: float) -> str | None:
        with self.backend.changed:
            for holder, cap in holders:
                slots = self._live_slots(holder, now)
                if cap and slot not in slots and len(slots) >= cap:
                    return holder
            for holder, _ in holders:
                self.backend.waiting[holder][slot] = until
            return None

    def renew_waiting(self, holders: Sequence[str], slot: str, now: float, until: float) -> None:
        with self.backend.changed:
            for holder in holders:
                self._live_slots(holder, now)[slot] = until

    def release_waiting(self, holders: Sequence[str], slot: str) -> None:
        with self.backend.changed:
            for holder in holders:
                self.backend.waiting.get(holder, {}).pop(slot, None)

    def _live_slots(self, holder: str, now: float) -> dict[str, float]:
        """The holder's slots, those whose lease ended before ``now`` dropped (call with ``changed`` held)."""
        slots = self.backend.waiting.setdefault(holder, {})
        for slot, until in list(slots.items()):
            if until < now:
                del slots[slot]
        return slots
