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
from collections.abc import Callable, Sequence
from threading import Lock
from typing import Any, Generic, Protocol, TypeVar

from services.api.store.fair_share import FairShareStore
from services.api.store.lobby_tables import TableListing
from services.api.store.matches import MatchQueue
from services.api.store.player_index import PlayerIndex
from services.api.store.record_outbox import RecordOutbox
from services.api.store.table_life import TableLifeStore
from services.api.store.timers import Timers
from services.api.store.waiting_slots import WaitingSlots


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


class StoredGame(Protocol):
    """What the store reads of a game to write it (the games room's ``GameRecord``): the store keeps a game as
    its version and three texts, and never looks inside them."""

    game_id: str
    version: int
    first_seq: int  # the oldest event the log keeps: a commit drops the ones below it
    state_json: str
    rounds_json: str
    seats: Sequence[object]  # one idempotent entry per seat

    @property
    def finished(self) -> bool:
        """A finished game is kept for its own time (and its seats' idempotent entries dropped)."""

    def meta_json(self) -> str: ...


Record = TypeVar("Record", bound=StoredGame)
#: How a store reads a game back: ``(game_id, version, meta_json, state_json, rounds_json)`` → the record
#: (:meth:`services.api.games.record.GameRecord.from_stored`, given to the store where it is made).
Decode = Callable[[str, int, str | bytes, str, str], Record]


def now_ms() -> int:
    """The time as records keep it: Unix milliseconds."""
    return int(time.time() * 1000)


class NotReplicated(Exception):
    """A commit (or a replayed idempotent response) that the primary holds but
    fewer replicas than required confirmed in time: it may not survive a
    failover, so it is not acknowledged (a 503 ``not_replicated``)."""


class RecentCopies(Generic[Record]):
    """The last version of each game this process read or wrote (LRU, ``size``
    games; 0 keeps none).  Possibly stale: only a starting point for
    optimistic writes, whose compare-and-set on the version catches
    staleness.  Shared by every :class:`GameStore` implementation."""

    def __init__(self, size: int) -> None:
        self._copies: OrderedDict[str, Record] = OrderedDict()
        self._size = size
        self._lock = Lock()

    def get(self, game_id: str) -> Record | None:
        with self._lock:
            return self._copies.get(game_id)

    def remember(self, record: Record) -> None:
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


class GameStore(
    Timers,
    FairShareStore,
    RecordOutbox,
    WaitingSlots,
    TableLifeStore,
    TableListing,
    MatchQueue,
    PlayerIndex,
    Protocol[Record],
):
    """The storage operations the API needs; every change goes through :meth:`commit`.
    (Each game's deadline and the computer's turn sent: :class:`services.api.store.timers.Timers`; creators' holds and paused games: :class:`services.api.store.fair_share.FairShareStore`; the records
    outbox: :class:`services.api.store.record_outbox.RecordOutbox`; waiting requests' slots:
    :class:`services.api.store.waiting_slots.WaitingSlots`; presence, quick messages and rejoin codes:
    :class:`services.api.store.table_life.TableLifeStore`; public tables:
    :class:`services.api.store.lobby_tables.TableListing`; quick match: :class:`services.api.store.matches.MatchQueue`;
    each player's games in play: :class:`services.api.store.player_index.PlayerIndex`.)"""

    def load(self, game_id: str) -> Record | None:
        """The stored record, or None for an unknown (or expired) game."""

    def recent(self, game_id: str) -> Record | None:
        """The last version of the game this process read or wrote, if any.

        Possibly stale: only for optimistic writes, whose compare-and-set on
        the version catches staleness.  Never a basis for a refusal or a read answer."""

    def commit(
        self,
        record: Record,
        expected: Record | None,
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
