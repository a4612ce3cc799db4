"""What the API stores and the small interface it stores it through.

:class:`GameStore` is the storage contract, named after storage operations
(boardgame.io's ``StorageAPI`` is the model): a game record read and written
with a compare-and-set on its version, an event log and stored idempotent
responses, and the side stores by concern (each game's timer, the lobby, table life, …).  Two implementations keep the
same semantics: :class:`services.api.store.redis_store.RedisStore` (production: one
Lua script per commit) and :class:`services.api.store.memory_store.MemoryStore`
(unit tests: the command logic and the AI sweeper without Redis).
"""

from __future__ import annotations

import hashlib
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cached_property
from threading import Lock
from typing import Any, Protocol

import orjson

from services.api.store.fair_share import FairShareStore
from services.api.store.lobby_tables import TableListing
from services.api.store.matches import MatchQueue
from services.api.store.record_outbox import RecordOutbox
from services.api.store.table_life import TableLifeStore
from services.api.store.timers import Timers
from services.api.store.waiting_slots import WaitingSlots
from services.engine import GameState, from_json, to_json_parts

_PARSED: OrderedDict[tuple[str, str], GameState] = OrderedDict()
_PARSED_LOCK = Lock()
PARSED_CACHE_SIZE = 1024


def parse_state(text: str, rounds: str) -> GameState:
    """``from_json`` with a small per-process cache keyed by the stored texts
    themselves (content-addressed, so it can never return another state)."""
    key = (text, rounds)
    with _PARSED_LOCK:
        state = _PARSED.get(key)
        if state is not None:
            _PARSED.move_to_end(key)
            return state
    state = from_json(text, rounds)
    with _PARSED_LOCK:
        _PARSED[key] = state
        while len(_PARSED) > PARSED_CACHE_SIZE:
            _PARSED.popitem(last=False)
    return state


def idempotency_key(game_id: str, seat: int) -> str:
    """Where a seat's last accepted keyed move is kept (a Redis key; the in-memory store uses it as is).

    One entry per seat, overwritten by the seat's next keyed move: a client retries only the
    request whose answer it lost, and it sends no next move before it has that answer."""
    return f"game:{{{game_id}}}:idem:{seat}"


KEY_DIGEST_BYTES = hashlib.sha256().digest_size


def key_digest(key: str) -> bytes:
    """The ``Idempotency-Key`` as stored: its SHA-256, which every stored entry starts with."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).digest()


def entry_answers(entry: bytes, digest: bytes) -> bool:
    """Whether a seat's stored entry is the one for the key of ``digest`` (not an older or newer key)."""
    return entry[:KEY_DIGEST_BYTES] == digest


def notify_channel(game_id: str) -> str:
    """The shard channel each commit publishes its events on (the game's hash tag: the game's slot)."""
    return f"game:{{{game_id}}}:notify"


@dataclass(frozen=True, slots=True)
class PlayerRef:
    """The player a person's seat is bound to (``services.api.players``): id, display name and kind as they
    were when the seat was taken (a later rename shows in the next game)."""

    id: str
    name: str
    kind: str  # person | bot


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat as stored; immutable, so versions of a record can share them.

    Stored as a JSON list, ``[type, level, token_hash]``, then ``stand_in`` when it is true or a player
    follows, then the player's ``id``, ``name`` and ``kind`` when the seat is bound to one: a seat stored
    before players existed reads back as it was, and an unbound seat costs nothing more."""

    type: str  # human | open | ai
    level: str | None = None  # ai level
    token_hash: str | None = None
    stand_in: bool = False  # an AI playing a left seat until someone claims it
    player_id: str | None = None  # the player the seat is bound to (a human seat taken with a player token)
    name: str | None = None  # that player's display name when the seat was taken
    player_kind: str | None = None  # that player's kind: person | bot

    @property
    def claimable(self) -> bool:
        return self.type == "open" or self.stand_in

    @property
    def player(self) -> PlayerRef | None:
        if self.player_id is None:
            return None
        return PlayerRef(self.player_id, self.name or "", self.player_kind or "person")

    @classmethod
    def taken(cls, token_hash: str | None, player: PlayerRef | None = None) -> Seat:
        """A person's seat, bound to ``player`` when one took it."""
        if player is None:
            return cls("human", None, token_hash)
        return cls("human", None, token_hash, False, player.id, player.name, player.kind)

    def to_json(self) -> list[Any]:
        base = [self.type, self.level, self.token_hash]
        if self.player_id is not None:
            return [*base, self.stand_in, self.player_id, self.name, self.player_kind]
        return [*base, True] if self.stand_in else base


@dataclass
class GameRecord:
    """One game as stored: version, seats, options and the engine state as
    its two stored texts (:func:`services.engine.to_json_parts`)."""

    game_id: str
    version: int
    seats: list[Seat]
    state_json: str
    options: dict[str, Any] = field(default_factory=dict)
    started: bool = False  # all seats were taken at least once and round 1 began
    seq: int = 0  # seq of the last event
    rounds_json: str = "[]"
    seeded: bool = False  # created with a client-chosen seed: its creator can compute the deals
    first_seq: int = 1  # seq of the oldest event the log keeps (services.api.games.log_retention)
    round_starts: tuple[int, ...] = ()  # seqs of the kept rounds' round_started events, oldest first
    creators: tuple[str, ...] = ()  # who created it, hashed (services.api.games.quotas): released at game over
    created_ms: int = 0  # when it was created (Unix ms): its record's timestamps (services.api.records)
    changed_ms: int = 0  # when this version was made (Unix ms): a finished game's end, an abandoned one's last change
    table: dict[str, Any] = field(default_factory=dict)  # rematch links and reserved seats (games.rematch); replaced
    clock: dict[str, Any] | None = None  # the turn clock (services.api.games.clocks), None without one

    @cached_property
    def state(self) -> GameState:
        return parse_state(self.state_json, self.rounds_json)

    def with_state(self, state: GameState) -> GameRecord:
        head, rounds = to_json_parts(state)
        record = self._copy(self.version, self.seats, head, self.options, rounds)
        record.__dict__["state"] = state
        return record

    def successor(self) -> GameRecord:
        """A copy to modify into the next version, stamped now (seats are immutable: a change replaces one)."""
        nxt = self._copy(self.version + 1, list(self.seats), self.state_json, dict(self.options), self.rounds_json)
        nxt.changed_ms = now_ms()
        nxt.__dict__["state"] = self.state
        return nxt

    def _copy(
        self, version: int, seats: list[Seat], state_json: str, options: dict[str, Any], rounds_json: str
    ) -> GameRecord:
        """This record with those fields replaced: the one place that lists every field (positionally,
        as ``dataclasses.replace`` costs a move several µs)."""
        return GameRecord(
            self.game_id,
            version,
            seats,
            state_json,
            options,
            self.started,
            self.seq,
            rounds_json,
            self.seeded,
            self.first_seq,
            self.round_starts,
            self.creators,
            self.created_ms,
            self.changed_ms,
            self.table,
            self.clock,
        )

    @property
    def waiting(self) -> bool:
        return "open" in [s.type for s in self.seats]

    @property
    def computer_only(self) -> bool:
        """No seat is a person's or a bot's (nor open), or every person's is away (its clock's mark): nobody
        waits on its computers' turns (bulk work; paused while nobody reads it)."""
        away = self.clock["away"] if self.clock is not None else (False,) * 4
        return all(s.type == "ai" or gone for s, gone in zip(self.seats, away, strict=True))

    def meta_json(self) -> str:
        meta: dict[str, Any] = {
            "seats": [s.to_json() for s in self.seats],
            "options": self.options,
            "started": self.started,
            "seq": self.seq,
            "log": [self.first_seq, *self.round_starts],
        }
        if self.seeded:  # written only when true: most games are unseeded
            meta["seeded"] = True
        if self.creators:  # only with quotas on: the creators' hashed ids, to release their hold at game over
            meta["by"] = self.creators
        if self.created_ms:  # created and last changed, Unix ms: the game's record's timestamps
            meta["t"] = [self.created_ms, self.changed_ms]
        if self.table:  # a rematch offered from it, or seats reserved in it (services.api.games.rematch)
            meta["table"] = self.table
        if self.clock is not None:  # only in games with a clock
            meta["clock"] = self.clock
        return orjson.dumps(meta).decode()

    @classmethod
    def from_stored(cls, game_id: str, version: int, meta_json: str | bytes, state: str, rounds: str) -> GameRecord:
        meta = orjson.loads(meta_json)
        log = meta["log"]  # the kept log's first seq, then each kept round's first seq
        created, changed = meta.get("t", (0, 0))
        return cls(
            game_id,
            version,
            [Seat(*s) for s in meta["seats"]],
            state,
            meta["options"],
            meta["started"],
            meta["seq"],
            rounds,
            meta.get("seeded", False),
            log[0],
            tuple(log[1:]),
            tuple(meta.get("by", ())),
            created,
            changed,
            meta.get("table", {}),
            meta.get("clock"),
        )


def now_ms() -> int:
    """The time as records keep it: Unix milliseconds."""
    return int(time.time() * 1000)


class NotReplicated(Exception):
    """A commit (or a replayed idempotent response) that the primary holds but
    fewer replicas than required confirmed in time: it may not survive a
    failover, so it is not acknowledged (a 503 ``not_replicated``)."""


class RecentCopies:
    """The last version of each game this process read or wrote (LRU, ``size``
    games; 0 keeps none).  Possibly stale: only a starting point for
    optimistic writes, whose compare-and-set on the version catches
    staleness.  Shared by every :class:`GameStore` implementation."""

    def __init__(self, size: int) -> None:
        self._copies: OrderedDict[str, GameRecord] = OrderedDict()
        self._size = size
        self._lock = Lock()

    def get(self, game_id: str) -> GameRecord | None:
        with self._lock:
            return self._copies.get(game_id)

    def remember(self, record: GameRecord) -> None:
        """Keep ``record`` unless a newer version of its game is already kept."""
        if self._size <= 0:
            return
        with self._lock:
            known = self._copies.get(record.game_id)
            if known is None or known.version <= record.version:
                self._copies[record.game_id] = record
                self._copies.move_to_end(record.game_id)
            while len(self._copies) > self._size:
                self._copies.popitem(last=False)


Notice = tuple[str, str, bytes | None]  # ("subscribed" | "message", channel, payload)


class Subscription(Protocol):
    """Channels on one pub/sub connection (Redis: :class:`services.api.store.redis_pubsub.RedisSubscription`;
    a cluster: one connection per master)."""

    def subscribe(self, channel: str) -> None: ...

    def unsubscribe(self, channel: str) -> None: ...

    def receive(self, timeout: float) -> Notice | None:
        """The next subscribe confirmation or message, or None after ``timeout`` seconds."""

    def close(self) -> None: ...


class GameStore(Timers, FairShareStore, RecordOutbox, WaitingSlots, TableLifeStore, TableListing, MatchQueue, Protocol):
    """The storage operations the API needs; every change goes through :meth:`commit`.
    (Each game's deadline and the computer's turn sent: :class:`services.api.store.timers.Timers`; creators' holds and paused games: :class:`services.api.store.fair_share.FairShareStore`; the records
    outbox: :class:`services.api.store.record_outbox.RecordOutbox`; waiting requests' slots:
    :class:`services.api.store.waiting_slots.WaitingSlots`; presence, quick messages and rejoin codes:
    :class:`services.api.store.table_life.TableLifeStore`; public tables:
    :class:`services.api.store.lobby_tables.TableListing`; quick match: :class:`services.api.store.matches.MatchQueue`.)"""

    def load(self, game_id: str) -> GameRecord | None:
        """The stored record, or None for an unknown (or expired) game."""

    def recent(self, game_id: str) -> GameRecord | None:
        """The last version of the game this process read or wrote, if any.

        Possibly stale: only for optimistic writes, whose compare-and-set on
        the version catches staleness.  Never a basis for a refusal or a read answer."""

    def commit(
        self,
        record: GameRecord,
        expected: GameRecord | None,
        events: list[dict[str, Any]],
        idempotent: tuple[str, bytes] | None = None,
    ) -> bool:
        """Write ``record`` (at its new version) and append ``events`` if the
        stored version is still ``expected``'s (None: the game must not exist
        yet); False, writing nothing, otherwise.  Events below the record's
        ``first_seq`` are dropped in the same step (:mod:`services.api.games.log_retention`).
        ``idempotent`` is ``(idempotency key, stored entry)``
        (:func:`idempotency_key`, :func:`services.api.games.idempotency.pack`), written in the
        same step over the seat's previous entry.
        Raises :class:`NotReplicated` when the write is made but not confirmed
        by the replicas the store requires."""

    def idempotent_entry(self, key: str, digest: bytes) -> bytes | None:
        """The entry at ``key`` if it was stored for the ``Idempotency-Key`` of ``digest``
        (:func:`entry_answers`), once it is as safe as a fresh commit would be (else
        :class:`NotReplicated`); None if there is none or it belongs to another key."""

    def events_after(self, game_id: str, after: int, limit: int) -> list[dict[str, Any]]: ...

    def subscription(self) -> Subscription:
        """A new :class:`Subscription` to the channels commits publish on
        (:func:`notify_channel`); the per-process fan-out hub holds one."""

    def ping(self) -> bool: ...
