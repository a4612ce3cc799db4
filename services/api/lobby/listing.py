"""``GET /v1/tables``: the listed public tables, newest first, filtered and paged by cursor.

A page scans the listing from its cursor in chunks and keeps the tables that pass the filters, until it holds
``limit`` of them or it has scanned :data:`SCAN_BUDGET` entries: a selective filter may give a page with fewer
tables (even none) and a ``next_cursor`` — a client goes on while ``next_cursor`` is not null.  A cursor names
the last table scanned (its creation time and id), so a page never repeats a table and never skips one that
was listed before the first page was read; a table listed meanwhile is newer than every cursor and shows on
a new first page (or, live, on the lobby stream).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import orjson

from services.api.problems import invalid_request
from services.api.store.protocol import GameStore

SCAN_BUDGET = 500  # listed tables one page looks at, at most
CHUNK = 100
_CURSOR = re.compile(r"^([0-9]{1,15})\.([A-Za-z0-9_-]{1,64})$")


@dataclass(frozen=True, slots=True)
class TableFilters:
    """What a listed table must match (None: anything)."""

    preset: str | None = None
    clock: str | None = None
    free_seats: int = 1  # at least this many claimable seats
    level: str | None = None  # a computer of this level sits at the table

    def match(self, item: dict[str, Any]) -> bool:
        if self.preset is not None and item["rules"]["preset"] != self.preset:
            return False
        if self.clock is not None and item["clock"] != self.clock:
            return False
        if len(item["free_seats"]) < self.free_seats:
            return False
        return self.level is None or self.level in item["levels"]


def parse_cursor(cursor: str | None) -> tuple[int, str] | None:
    """A page's ``next_cursor`` back as (created ms, game id); 400 for anything else."""
    if cursor is None:
        return None
    found = _CURSOR.match(cursor)
    if found is None:
        raise invalid_request([{"field": "cursor", "message": "not a cursor this listing issued"}])
    return int(found.group(1)), found.group(2)


def cursor_of(created_ms: int, game_id: str) -> str:
    return f"{created_ms}.{game_id}"


def tables_page(store: GameStore, filters: TableFilters, cursor: str | None, limit: int) -> dict[str, Any]:
    """The page body: ``tables``, ``next_cursor`` (null on the last page) and ``last_seq`` (the lobby log's
    position when the first chunk was read: follow ``/v1/tables/stream?after=<last_seq>``)."""
    before = parse_cursor(cursor)
    tables: list[dict[str, Any]] = []
    scanned, last_seq, exhausted = 0, None, False
    while len(tables) < limit and scanned < SCAN_BUDGET:
        want = min(CHUNK, SCAN_BUDGET - scanned)
        page = store.tables_page(before, want)
        last_seq = page.last_seq if last_seq is None else last_seq
        exhausted = len(page.entries) < want
        for index, (game_id, created_ms, raw) in enumerate(page.entries):
            scanned += 1
            before = (created_ms, game_id)
            item = orjson.loads(raw)
            if filters.match(item):
                tables.append(item)
            if len(tables) == limit:
                exhausted = exhausted and index == len(page.entries) - 1
                break
        if exhausted:
            break
    next_cursor = cursor_of(*before) if before is not None and not exhausted else None
    return {"tables": tables, "next_cursor": next_cursor, "last_seq": last_seq or 0}
