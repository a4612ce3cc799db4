"""The store's part in quick match: each compatibility bucket's requests and groups, and the buckets due.

:class:`MatchQueue` is the part of :class:`services.api.store.protocol.GameStore` that
:mod:`services.api.lobby.matchmaker` uses; Redis implements it in :mod:`services.api.store.redis_matches`
(Lua scripts), the memory store in :mod:`services.api.store.memory_matches`, with the same rules:

- **A bucket** holds the requests of one compatibility key (the same rules and clock), all on one Redis Cluster
  slot (its hash tag), so every step below is one atomic script.  A request is *waiting* (``w``), *forming*
  (``f``: in a group whose game is being created), *seated* (``S``), *cancelled* (``c``) or *expired* (``x``:
  its client stopped asking about it for ``idle`` ms, so nobody would sit down).  A request's state changes
  only inside its bucket's scripts, and a waiting request joins one group at most: no person is seated twice.
- **Forming**: :meth:`MatchQueue.enqueue_match` forms a group of four waiting requests (the first four in
  arrival order that hold no blocked pair: :mod:`services.api.store.match_groups`) as soon as there are four;
  :meth:`MatchQueue.form_matches` also forms one around each waiting request whose deadline passed (with those
  it may sit with; the free seats go to computers), and hands back groups
  whose creation was not finished within their lease (its process died).  Each group gets a game id the
  caller chose beforehand, its members their seats, and a lease: whoever holds the group creates its game
  with that id and the members' pre-made seat-token hashes (a repeated creation finds the game made), then
  :meth:`MatchQueue.match_seated` marks the members seated (a member dropped from the game cancelled).  No
  request is lost: a group is completed by whoever holds it next.
- **Found**: :meth:`MatchQueue.look_match` also says how many people are found for the request
  (:class:`MatchLook`): while it waits, the bucket's waiting requests (the queue's size, a count the bucket keeps:
  no scan), at most three, since four who may sit together sit down at once; while its group forms, the group's
  size.  A script that changes the queue's size names :data:`EVERYONE` among the ids it publishes, so every long
  poll on the bucket reads the new count; a sweep looks at the bucket when its first waiting request would go idle,
  so a person who left stops counting within a sweep.
- **The due buckets** are one sorted set (its own slot) scored by when each bucket next needs a look (the
  soonest deadline, or a lease's end): :meth:`MatchQueue.lower_match_due` before an enqueue (so a process that
  dies right after it leaves the bucket due), :meth:`MatchQueue.raise_match_due` after a look, applied only
  if no enqueue touched the bucket meanwhile (its touch count is unchanged): a later enqueue is never hidden.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import orjson

WAITING, FORMING, SEATED, CANCELLED, EXPIRED = "w", "f", "S", "c", "x"
DUE_KEY = "mm:{due}"  # the due buckets: one slot, read by every process's sweep (docs/architecture.md)
TOUCH_KEY = "mm:{due}:touch"  # per bucket: how many enqueues touched it (the raise's compare-and-set)
SEATS = 4  # a table's seats: four waiting who may sit together sit down at once
EVERYONE = "*"  # in a bucket's publication: the count of waiting requests changed, every waiter reads it


def bucket_tag(bucket: str) -> str:
    """The hash tag of a bucket's keys: a bucket is one slot."""
    return f"{{m:{bucket}}}"


def match_channel(bucket: str) -> str:
    """The shard channel a bucket's scripts publish the ids of the requests they changed on (a JSON list)."""
    return f"mm:{bucket_tag(bucket)}:n"


@dataclass(frozen=True, slots=True)
class MatchRequest:
    """One request as stored.  ``holders``: its client's hashed creator ids (quotas); ``seen_ms``: when its
    client last asked about it; ``game_id`` and ``seat`` once it is in a group."""

    match_id: str
    status: str
    secret_hash: str
    token_hash: str
    level: str
    created_ms: int
    deadline_ms: int
    seen_ms: int
    holders: tuple[str, ...] = ()
    game_id: str | None = None
    seat: int | None = None
    ended_ms: int | None = None
    player: tuple[str, str, str] | None = None  # the player the request's seat is bound to: (id, name, kind)
    client: str | None = None  # who sent it (a hashed address): the seat's client in the game (fair play)
    avoid: tuple[str, ...] = ()  # the players its player blocked: never at its table (store.match_groups)
    credential: str | None = None  # the player's credential the request came with (PlayerRef.credential)

    def stored(self) -> str:
        """The JSON the bucket keeps (the scripts read and write the same fields, and keep the player's, ``p``,
        as they found it, the client's, ``cl``, the blocked players', ``av``, and the player's credential,
        ``pc``)."""
        data: dict[str, Any] = {"s": self.status, "sec": self.secret_hash, "tok": self.token_hash, "lvl": self.level}
        data |= {"c": self.created_ms, "d": self.deadline_ms, "seen": self.seen_ms, "q": " ".join(self.holders)}
        if self.player is not None:
            data["p"] = list(self.player)
        if self.client is not None:
            data["cl"] = self.client
        if self.avoid:
            data["av"] = list(self.avoid)
        if self.credential is not None:
            data["pc"] = self.credential
        return orjson.dumps(data).decode()

    @classmethod
    def from_stored(cls, match_id: str, raw: str | bytes) -> MatchRequest:
        data = orjson.loads(raw)
        ended = data.get("e")
        return cls(
            match_id,
            data["s"],
            data["sec"],
            data["tok"],
            data["lvl"],
            int(data["c"]),
            int(data["d"]),
            int(data["seen"]),
            tuple(data["q"].split()) if data.get("q") else (),
            data.get("g"),
            None if data.get("seat") is None else int(data["seat"]),
            None if ended is None else int(ended),
            tuple(data["p"]) if data.get("p") else None,  # type: ignore[arg-type]
            data.get("cl"),
            tuple(data["av"]) if data.get("av") else (),
            data.get("pc"),
        )


@dataclass(frozen=True, slots=True)
class MatchLook:
    """A request as a look found it, with what its bucket says of its table so far (None once it ended):
    ``found``, the people for it, itself included (the bucket's waiting requests, at most ``SEATS - 1``, while it
    waits; its group's members while the group forms), and ``fill_level``, the level of the computers that would
    take the free seats (the longest-waiting request's; its group's first member's)."""

    request: MatchRequest
    found: int | None = None
    fill_level: str | None = None


@dataclass(frozen=True, slots=True)
class Group:
    """A group to create a game for: its game id, the bucket's spec (its rules and clock, as JSON) and its
    members in seat order."""

    game_id: str
    spec: str
    members: tuple[MatchRequest, ...]


@dataclass(frozen=True, slots=True)
class Formed:
    """What a look at a bucket found: groups the caller now holds, and when the bucket next needs a look
    (Unix ms; None: nothing left to wait for)."""

    groups: tuple[Group, ...] = ()
    next_due_ms: int | None = None


@dataclass(frozen=True, slots=True)
class MatchTimes:
    """A bucket script's times (Unix ms): now, a group's lease, how long an unasked-about request waits, how
    long an ended one is kept for its client to read; and the bucket's keys' expiry (seconds)."""

    now_ms: int
    lease_ms: int
    idle_ms: int
    keep_ms: int
    ttl_seconds: int = 24 * 3600


class MatchQueue(Protocol):
    def enqueue_match(
        self, bucket: str, request: MatchRequest, spec: str, times: MatchTimes, game_ids: list[str]
    ) -> Formed:
        """Add a waiting request (its bucket's spec is ``spec``); a group of four if it completes one."""

    def form_matches(self, bucket: str, times: MatchTimes, game_ids: list[str]) -> Formed:
        """Expire idle requests, form what is due (four waiting; or all waiting once the soonest deadline
        passed) with ``game_ids``, and hand back groups whose lease ended (leased again to the caller).  The next
        look is due at the soonest deadline, lease's end, or time a waiting request would go idle."""

    def match_seated(
        self, bucket: str, game_id: str, times: MatchTimes, dropped: Sequence[str] = ()
    ) -> list[MatchRequest]:
        """The group's game exists: its members are seated, but for the ids in ``dropped``, cancelled (their
        players deleted themselves: the game was made without them, or not at all when none is left).  Returns
        the members this call ended; none if another caller did it."""

    def look_match(self, bucket: str, match_id: str, times: MatchTimes) -> MatchLook | None:
        """The request and the people found for it (None if unknown or no longer kept); a waiting one counts as
        asked about now."""

    def cancel_match(self, bucket: str, match_id: str, times: MatchTimes) -> MatchRequest | None:
        """Cancel the request if it is waiting; the request as it is afterwards."""

    def lower_match_due(self, bucket: str, due_ms: int) -> None:
        """The bucket needs a look no later than ``due_ms`` (and counts as touched)."""

    def due_match_buckets(self, now_ms: int, limit: int) -> list[tuple[str, str]]:
        """Buckets due at ``now_ms``, each with its touch count as read (for :meth:`raise_match_due`)."""

    def raise_match_due(self, bucket: str, next_ms: int | None, touched: str) -> bool:
        """After a look: the bucket next needs one at ``next_ms`` (None: no more), if no enqueue touched it
        since ``touched`` was read; False (nothing changed) otherwise."""

    def waiting_matches(self) -> int:
        """Requests waiting now, over every due bucket (the metrics' gauge)."""
