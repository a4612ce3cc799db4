"""The store's part in listing public tables: the listing, its checks and its log of changes.

:class:`TableListing` is the part of :class:`services.api.store.protocol.GameStore` that
:mod:`services.api.lobby.tables` uses; Redis implements it in :mod:`services.api.store.redis_lobby_tables`,
the memory store in :mod:`services.api.store.memory_tables`.

- **The listing** holds one entry per public game it has heard of: the version it was last brought to,
  whether the game is listed (a claimable seat, not over) and, when it is, its item (the JSON
  ``GET /v1/tables`` shows).  :meth:`TableListing.sync_table` brings an entry to a version of its game and
  never back: a sync of an older version than the entry's changes nothing, so syncs sent after commits
  may land in any order.  An entry of a game no longer listed stays as a *tombstone* (its version, not
  listed) until a check prunes it, so a late sync of an older version cannot list it again.
- **Checks**: every entry is due for a check at a time (a listed one every ``LOBBY_CHECK_SECONDS``, a tombstone
  once, to prune it); a check loads the game and syncs the entry to it, so a commit whose own sync was lost (its
  process died) or a game that expired or ended without one is set right by the next check.  A commit that may
  list a game (its creation, a leave) makes the game due soon *before* it commits (:meth:`TableListing.expect_table`).
  A claim takes a due check for a lease (:meth:`TableListing.claim_tables`): one checker at a time.
- **The log**: every sync that opens, changes or closes a listed table appends one change with the next
  sequence number (``seq``) and publishes it (its JSON) on :data:`TABLES_CHANNEL`; the lobby streams read it.  The log
  keeps the last ``LOBBY_LOG_SIZE`` changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

TABLES_CHANNEL = "lobby:{tables}:notify"  # the lobby's one slot (its hash tag): every change is published here
GONE_VERSION = 2**53 - 1  # the version a sync of a game that no longer exists gives its entry: final
OPENED, CHANGED, CLOSED = "table_opened", "table_changed", "table_closed"


@dataclass(frozen=True, slots=True)
class TableEntry:
    """A public game as the listing should show it at ``version``: listed with ``item`` (its JSON), or not."""

    game_id: str
    version: int
    listed: bool
    item: str = ""  # the listing item's JSON (listed entries only)
    created_ms: int = 0  # the listing's order: newest first


@dataclass(frozen=True, slots=True)
class TablesPage:
    """Listed tables after a cursor, newest first: ``(game id, created ms, item JSON)`` each, and the log's last
    seq when it was read (the lobby stream resumes after it)."""

    entries: list[tuple[str, int, str]]
    last_seq: int


class TableListing(Protocol):
    def expect_table(self, game_id: str, due: float) -> None:
        """Check the game's entry no later than ``due`` (Unix seconds): before a commit that may list it."""

    def sync_table(self, entry: TableEntry, now_ms: int, check_at: float, prune: bool = False) -> str | None:
        """Bring the game's entry to ``entry`` unless it holds a newer version already; the entry is next
        checked at ``check_at``.  ``prune``: a check's sync, which deletes a tombstone (an entry not listed
        before nor now) instead of keeping it.  The change it logged (:data:`OPENED`, :data:`CHANGED`,
        :data:`CLOSED`), or None."""

    def claim_tables(self, now: float, lease: float, limit: int) -> list[str]:
        """Up to ``limit`` games whose check is due at ``now``, each claimed (due again ``lease`` later)."""

    def tables_page(self, before: tuple[int, str] | None, count: int) -> TablesPage:
        """Up to ``count`` listed tables after the cursor ``before`` (created ms, game id), newest first."""

    def table_changes_after(self, after: int, limit: int) -> list[dict[str, Any]]:
        """The logged changes with a seq above ``after``, oldest first (at most ``limit``)."""
