"""Public tables: what the listing shows of a game, the hooks the seat commands call, and the checks.

A game created with ``options.public`` is *listed* while it has a claimable seat (open, or a computer standing
in for a player who left), is not over, and — once under way — someone still sits at it.  Its listing item is derived from the game alone
(:func:`listing_entry`), so whoever syncs it — the command that changed its seats, or a check — writes the same
thing for the same version, and the store keeps the newest version (:mod:`services.api.store.lobby_tables`).

The commands that change seats call :class:`ListingHooks` (:mod:`services.api.games.table_hooks`): before the
commit the game is made due for a check a few seconds later (so a process that dies right after the commit
leaves it to the next check), after it the entry is synced at once.  Each API process's sweeper
(:mod:`services.api.lobby.sweeper`) runs :func:`check_tables`: it claims due checks, loads each game and syncs
its entry — a game that expired, was ended abandoned, or ended without its own sync drops out of the list
within ``LOBBY_CHECK_SECONDS``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import orjson

from services.api.games import fair_play
from services.api.games.record import GameRecord
from services.api.games.rendering import seat_player
from services.api.games.reservations import reserved_seats
from services.api.lobby.rules_summary import rules_summary
from services.api.store.lobby_tables import GONE_VERSION, TableEntry
from services.api.store.protocol import GameStore, now_ms

log = logging.getLogger(__name__)
SOON_SECONDS = 5.0  # before a commit that may list a game: checked this soon if its own sync never lands
PRUNE_SECONDS = 600.0  # a tombstone is pruned this long after its game stopped being listed
CHECK_BATCH = 100


def is_listed(record: GameRecord) -> bool:
    """Public, not over, with a seat someone may claim, and not abandoned: once under way, a person (or a bot)
    still sits at it — a table every person left plays on among computers, with nobody to play with."""
    if not record.options.public or record.state.phase == "game_over":
        return False
    if record.started and not any(seat.type == "human" for seat in record.seats):
        return False
    return bool(free_seats(record))


def free_seats(record: GameRecord) -> list[int]:
    """The seats a stranger may claim: open or a computer standing in, and not kept for a rematch's person nor,
    in a rated game, for the player who left it."""
    kept = reserved_seats(record)
    return [
        i
        for i, seat in enumerate(record.seats)
        if seat.claimable and i not in kept and not fair_play.kept_for_player(record, i)
    ]


def listing_item(record: GameRecord) -> dict[str, object]:
    """The game as ``GET /v1/tables`` lists it (openapi.yaml ``PublicTable``)."""
    return {
        "game_id": record.game_id,
        "rules": rules_summary(record.state.rules.to_dict()),
        "win_score": record.state.rules.win_score,
        "lose_score": record.state.rules.lose_score,
        "clock": record.options.clock,
        "free_seats": free_seats(record),
        "levels": [seat.level if seat.type == "ai" else None for seat in record.seats],
        "people": sum(1 for seat in record.seats if seat.type == "human"),
        "players": [seat_player(seat) if seat.type == "human" else None for seat in record.seats],
        "created_ms": record.created_ms,
    }


def listing_entry(record: GameRecord) -> TableEntry:
    """The entry the listing should hold for ``record`` at its version."""
    if not is_listed(record):
        return TableEntry(record.game_id, record.version, False)
    item = orjson.dumps(listing_item(record)).decode()
    return TableEntry(record.game_id, record.version, True, item, record.created_ms)


@dataclass(frozen=True, slots=True)
class ListingHooks:
    """:class:`services.api.games.table_hooks.TableHooks` for a process that keeps the listing."""

    store: GameStore
    check_seconds: float = 60.0  # LOBBY_CHECK_SECONDS: a listed table's entry is checked this often
    clock: Callable[[], float] = field(default=time.time, compare=False)

    def before_seats(self, record: GameRecord) -> None:
        if record.options.public:
            self.store.expect_table(record.game_id, self.clock() + SOON_SECONDS)

    def after_seats(self, record: GameRecord) -> None:
        if not record.options.public:
            return
        try:
            sync(self.store, listing_entry(record), self.clock(), self.check_seconds)
        except Exception:  # committed: the check made due before the commit sets the listing right
            log.warning("could not sync a public table", extra={"game_id": record.game_id}, exc_info=True)


def sync(store: GameStore, entry: TableEntry, now: float, check_seconds: float, prune: bool = False) -> str | None:
    """Sync ``entry``: a listed one is checked again ``check_seconds`` later, a tombstone pruned later."""
    check_at = now + (check_seconds if entry.listed else PRUNE_SECONDS)
    return store.sync_table(entry, now_ms(), check_at, prune)


def check_tables(store: GameStore, now: float, check_seconds: float, lease: float = 30.0) -> int:
    """One sweep of the due checks: each claimed game loaded and its entry synced (pruned when it is a
    tombstone that stays one).  Returns how many were checked."""
    due = store.claim_tables(now, lease, CHECK_BATCH)
    for game_id in due:
        try:
            record = store.load(game_id)
            entry = listing_entry(record) if record is not None else TableEntry(game_id, GONE_VERSION, False)
            sync(store, entry, now, check_seconds, prune=True)
        except Exception:  # one game's failure must not stop the batch: its claim lapses and it comes back
            log.warning("could not check a public table", extra={"game_id": game_id}, exc_info=True)
    return len(due)
