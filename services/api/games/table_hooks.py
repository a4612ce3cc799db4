"""What the commands that change a game's seats call, so that public tables are listed as they are.

The commands know only this protocol; :class:`services.api.lobby.tables.ListingHooks` implements it (the lobby's
listing: :mod:`services.api.store.lobby_tables`), and :data:`NO_TABLES` is the hooks of a process (or a unit test)
that keeps no listing.  Called around the commits that may change what the listing shows — a game's creation, a
claim, a leave — and after the commit that ends a game; never on an ordinary move.  Only public games cost
anything (``options.public``, which never changes after creation).
"""

from __future__ import annotations

from typing import Protocol

from services.api.games.record import GameRecord


class TableHooks(Protocol):
    def before_seats(self, record: GameRecord) -> None:
        """Before the commit of ``record`` (a creation, a claim or a leave): its listing is checked soon even if
        nothing runs after the commit.  A store error fails the change (it is not committed)."""

    def after_seats(self, record: GameRecord) -> None:
        """After the commit of ``record``: the listing shows it.  Never raises."""


class NoTables:
    def before_seats(self, record: GameRecord) -> None:
        return None

    def after_seats(self, record: GameRecord) -> None:
        return None


NO_TABLES = NoTables()
