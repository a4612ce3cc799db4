"""The public tables' listing in process memory (:class:`services.api.store.lobby_tables.TableListing`), with
the Redis scripts' rules (:mod:`services.api.store.redis_lobby_tables`), for unit tests."""

from __future__ import annotations

from dataclasses import dataclass, field
from threading import Condition
from typing import Any, Protocol

import orjson

from services.api.store.lobby_tables import CHANGED, CLOSED, OPENED, TABLES_CHANNEL, TableEntry, TablesPage


@dataclass
class TablesMemory:
    """What Redis holds of the listing."""

    entries: dict[str, tuple[int, bool, str]] = field(default_factory=dict)  # game id -> (version, listed, item)
    created: dict[str, int] = field(default_factory=dict)  # listed game id -> created ms (the order)
    checks: dict[str, float] = field(default_factory=dict)  # game id -> next check
    log: list[dict[str, Any]] = field(default_factory=list)  # the kept changes, oldest first
    seq: int = 0
    log_size: int = 1000


class _Backend(Protocol):
    changed: Condition
    tables: TablesMemory

    def publish(self, channel: str, payload: bytes) -> None: ...


class MemoryTables:
    """The listing operations of :class:`services.api.store.memory_store.MemoryStore`."""

    backend: _Backend

    def expect_table(self, game_id: str, due: float) -> None:
        with self.backend.changed:
            checks = self.backend.tables.checks
            checks[game_id] = min(due, checks.get(game_id, due))

    def sync_table(self, entry: TableEntry, now_ms: int, check_at: float, prune: bool = False) -> str | None:
        backend = self.backend
        with backend.changed:
            tables = backend.tables
            current = tables.entries.get(entry.game_id)
            if current is not None and current[0] > entry.version:
                return None
            was_open, item = (current[1], current[2]) if current else (False, "")
            kind = None
            if entry.listed:
                kind = OPENED if not was_open else CHANGED if item != entry.item else None
                tables.entries[entry.game_id] = (entry.version, True, entry.item)
                tables.created[entry.game_id] = entry.created_ms
                tables.checks[entry.game_id] = check_at
            else:
                kind = CLOSED if was_open else None
                tables.created.pop(entry.game_id, None)
                if prune and not was_open:
                    tables.entries.pop(entry.game_id, None)
                    tables.checks.pop(entry.game_id, None)
                else:
                    tables.entries[entry.game_id] = (entry.version, False, "")
                    tables.checks[entry.game_id] = check_at
            if kind is not None:
                tables.seq += 1
                shown = orjson.loads(entry.item) if entry.listed else None
                change = {"seq": tables.seq, "type": kind, "game_id": entry.game_id, "at_ms": now_ms, "table": shown}
                tables.log = [*tables.log, change][-tables.log_size :]
                backend.publish(TABLES_CHANNEL, orjson.dumps(change))
            return kind

    def claim_tables(self, now: float, lease: float, limit: int) -> list[str]:
        with self.backend.changed:
            checks = self.backend.tables.checks
            due = sorted((when, game_id) for game_id, when in checks.items() if when <= now)[:limit]
            for _, game_id in due:
                checks[game_id] = now + lease
        return [game_id for _, game_id in due]

    def tables_page(self, before: tuple[int, str] | None, count: int) -> TablesPage:
        with self.backend.changed:
            tables = self.backend.tables
            order = sorted(((ms, game_id) for game_id, ms in tables.created.items()), reverse=True)
            after = [(ms, game_id) for ms, game_id in order if before is None or (ms, game_id) < before][:count]
            entries = [(game_id, ms, tables.entries[game_id][2]) for ms, game_id in after]
            return TablesPage(entries, tables.seq)

    def table_changes_after(self, after: int, limit: int) -> list[dict[str, Any]]:
        with self.backend.changed:
            return [dict(change) for change in self.backend.tables.log if change["seq"] > after][:limit]
