"""Table life in process memory (:class:`services.api.store.table_life.TableLifeStore`), with Redis's semantics:
the part of :class:`services.api.store.memory_store.MemoryStore` for presence, quick messages and rejoin codes.
What it leaves out, as the rest of the memory store does: expiry with the game."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from services.api.store.protocol import notify_channel
from services.api.store.table_life import MESSAGES_KEPT, SEATS, MessageLimits, message_notice, presence_notice

if TYPE_CHECKING:
    from services.api.store.memory_store import MemoryBackend


@dataclass
class TableBackend:
    """What Redis holds of table life (under the :class:`MemoryBackend`'s lock)."""

    presence: dict[str, dict[int, int]] = field(default_factory=dict)  # game id -> seat -> its lease's end (ms)
    messages: dict[str, list[bytes]] = field(default_factory=dict)  # game id -> the kept messages, oldest first
    said: dict[tuple[str, int], list[int]] = field(default_factory=dict)  # (game id, seat) -> its posts' times (ms)
    codes: dict[str, dict[int, str]] = field(default_factory=dict)  # game id -> seat -> its code's digest and token


class MemoryTableLife:
    """The table-life operations of :class:`services.api.store.memory_store.MemoryStore`."""

    backend: MemoryBackend

    def hold_presence(self, game_id: str, seat: int | None, now_ms: int, until_ms: int) -> list[bool]:
        backend = self.backend
        with backend.changed:
            leases = backend.table.presence.setdefault(game_id, {})
            before = [s in leases for s in range(SEATS)]
            for held, ends in list(leases.items()):
                if ends <= now_ms:
                    del leases[held]
            if seat is not None:
                leases[seat] = max(until_ms, leases.get(seat, until_ms))
            after = [s in leases for s in range(SEATS)]
            if after != before:
                backend.publish(notify_channel(game_id), presence_notice(after))
            return after

    def table_extras(self, game_id: str, now_ms: int) -> tuple[list[bool], list[bytes]]:
        with self.backend.changed:
            leases = self.backend.table.presence.get(game_id, {})
            connected = [leases.get(s, 0) > now_ms for s in range(SEATS)]
            return connected, list(self.backend.table.messages.get(game_id, ()))

    def post_message(self, game_id: str, seat: int, entry: bytes, now_ms: int, limits: MessageLimits) -> int:
        backend = self.backend
        with backend.changed:
            said = [t for t in backend.table.said.get((game_id, seat), []) if t > now_ms - limits.window_ms]
            backend.table.said[(game_id, seat)] = said
            if said and said[-1] + limits.gap_ms > now_ms:
                return said[-1] + limits.gap_ms - now_ms
            if len(said) >= limits.most:
                return said[0] + limits.window_ms - now_ms
            said.append(now_ms)
            kept = backend.table.messages.setdefault(game_id, [])
            kept.append(entry)
            del kept[:-MESSAGES_KEPT]
            backend.publish(notify_channel(game_id), message_notice(entry))
            return 0

    def set_rejoin_code(self, game_id: str, seat: int, stored: str) -> None:
        with self.backend.changed:
            self.backend.table.codes.setdefault(game_id, {})[seat] = stored

    def drop_rejoin_code(self, game_id: str, seat: int) -> None:
        with self.backend.changed:
            self.backend.table.codes.get(game_id, {}).pop(seat, None)

    def take_rejoin_code(self, game_id: str, digest: str) -> tuple[int, str] | None:
        with self.backend.changed:
            codes = self.backend.table.codes.get(game_id, {})
            seat = next((s for s, stored in codes.items() if stored.startswith(digest)), None)
            return None if seat is None else (seat, codes.pop(seat))
