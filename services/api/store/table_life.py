"""The store's part in table life: who is at the table, the quick messages, and rejoin codes.

:class:`TableLifeStore` is the part of :class:`services.api.store.protocol.GameStore` that
:mod:`services.api.live.presence`, :mod:`services.api.games.messages` and :mod:`services.api.games.rejoin` use;
Redis implements it in :mod:`services.api.store.redis_table_life`, the memory store in
:mod:`services.api.store.memory_table_life`.  Nothing here is part of the game record or its log: every key
carries the game's hash tag (one Redis Cluster slot with the game) and expires with the game.

- **Presence**: per seat the end of a lease (ms) that each stream or long poll holding the seat's token pushes
  ahead while it waits; a seat is connected while its lease has not ended.  A change of who is connected is
  published on the game's channel as a *notice* (:func:`presence_notice`), in the same step as the change.
- **Quick messages**: the last :data:`MESSAGES_KEPT` of a game, and per seat the times of its recent posts
  (the rate limit); a post is published as a notice too.
- **Rejoin codes**: per seat the SHA-256 of its one live code and the token it is bound to
  (:mod:`services.api.games.rejoin`), never the code.

Notices are JSON objects on the channel the commits publish their events on (JSON arrays), so the fan-out hub
tells them apart by their first byte (:mod:`services.api.live.fanout`); they carry no ``seq`` and are never
part of the log.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

SEATS = 4
MESSAGES_KEPT = 8  # the last quick messages a game keeps (the view's `messages`)
PRESENCE_NOTICE, MESSAGE_NOTICE = "presence", "message"


@dataclass(frozen=True, slots=True)
class MessageLimits:
    """How often one seat may post a quick message: ``gap_ms`` between two, at most ``most`` per ``window_ms``."""

    gap_ms: int = 2000
    most: int = 10
    window_ms: int = 60_000


def presence_notice(connected: list[bool]) -> bytes:
    """The notice a change of presence publishes (the Lua scripts write the same bytes)."""
    flags = ",".join("true" if flag else "false" for flag in connected)
    return b'{"notice":"presence","seats":[' + flags.encode() + b"]}"


def message_notice(entry: bytes) -> bytes:
    """The notice a posted message publishes: the stored entry (a JSON object) with ``"notice":"message"`` first."""
    return b'{"notice":"message",' + entry[1:]


class TableLifeStore(Protocol):
    def hold_presence(self, game_id: str, seat: int | None, now_ms: int, until_ms: int) -> list[bool]:
        """``seat``'s lease runs until ``until_ms`` at least (never shortened); lapsed leases (ended at or before
        ``now_ms``) are dropped; with ``seat`` None only that.  Returns each seat's connected flag after, and
        publishes a presence notice when that differs from the leases held before (lapsed ones included: what
        was last told)."""

    def table_extras(self, game_id: str, now_ms: int) -> tuple[list[bool], list[bytes]]:
        """Each seat's connected flag at ``now_ms`` and the kept messages, oldest first (stored JSON): one round trip."""

    def post_message(self, game_id: str, seat: int, entry: bytes, now_ms: int, limits: MessageLimits) -> int:
        """Keep and publish ``entry`` (a JSON object) if ``seat`` may post at ``now_ms``: 0; else the ms until it
        may, and nothing kept or published."""

    def set_rejoin_code(self, game_id: str, seat: int, stored: str) -> None:
        """``stored`` (the code's digest, then what the code is bound to) is the seat's live rejoin code, replacing
        any other, kept as long as the game."""

    def drop_rejoin_code(self, game_id: str, seat: int) -> None: ...

    def take_rejoin_code(self, game_id: str, digest: str) -> tuple[int, str] | None:
        """The seat whose live code starts with ``digest``, and what was stored for it, that code dropped in the
        same step (a code is used once); None if no seat's does."""
