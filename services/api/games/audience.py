"""Who an open connection shows a game's events to: a seat's private parts only while its credential holds it.

A stream or a long poll checks its seat token once, when it opens, and stays open while the seat may change
hands: a leave (open, or a computer's stand-in), a claim, a rejoin from another device, a rematch's repeated
opt-in, a release when the player credential that took it dies.  Two rules, applied to the log's entries in
order as they are sent, keep the seat's hidden cards with whoever holds it now, whichever API process made the
change:

- an entry that hands the connection's seat to another credential (``seat_left``, ``seat_claimed``,
  ``seat_rejoined``, ``seat_released``: :data:`~services.api.games.event_types.HANDS_ON`), of a version after the
  one the connection was authenticated at, is the last it gets: it ends there (the change is public);
- before the seat's first private part (a deal's ``hand``, a blind bidder's hand, passed cards, the exchange's
  new hand) of a version after the last one checked, the seat's current credential is read fresh from the
  store (:func:`seat_holder`): if it is no longer the connection's, the connection ends before that entry.
  A token hash, once replaced, never comes back (256 random bits), so a credential current now held the seat
  at every version since it was checked: one store read per deal or exchange, none per ordinary event.

The second rule alone is the guarantee (it covers a change told by an event of any type, and a client that
skipped past the change with ``after``); the first ends the connection the moment its seat changes hands, not
at the next deal.  A spectator's audience has no seat and never ends.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from services.api.games.event_types import HANDS_ON
from services.api.games.events import visible_event
from services.api.games.record import GameRecord
from services.api.games.seat_tokens import hash_token
from services.api.store.protocol import GameStore


def seat_holder(store: GameStore, game_id: str, seat: int) -> str | None:
    """The token hash that holds ``seat`` now (a fresh read, never a process's copy); None: nobody's, or gone."""
    record = store.load(game_id)
    return record.seats[seat].token_hash if record is not None else None


@dataclass
class Audience:
    """One connection's reader of the log: ``seat`` (None: a spectator) authenticated with ``token_hash`` at
    version ``opened``; ``holder()`` reads the seat's current token hash.  :meth:`admit` is the only way an
    entry reaches the connection; once :attr:`ended`, it admits nothing more."""

    seat: int | None
    token_hash: str | None = None
    opened: int = 0
    holder: Callable[[], str | None] | None = None
    ended: bool = False

    def __post_init__(self) -> None:
        self._checked = self.opened  # the newest version at which the credential was seen to hold the seat

    @classmethod
    def of(cls, store: GameStore, record: GameRecord, seat: int | None, token: str | None) -> Audience:
        """The audience of a connection that found ``token`` holding ``seat`` (or no seat) in ``record``."""
        if seat is None or token is None:
            return cls(None)
        return cls(seat, hash_token(token), record.version, lambda: seat_holder(store, record.game_id, seat))

    def admit(self, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """``entries`` (consecutive, in log order) as this audience may see them, up to where its credential
        stopped holding the seat: then :attr:`ended` is set and the rest is withheld."""
        if self.seat is None:
            return [visible_event(entry, None) for entry in entries]
        shown = []
        for entry in entries:
            if self.ended or (self._private(entry) and not self._still_holds(entry["version"])):
                self.ended = True
                break
            shown.append(visible_event(entry, self.seat))
            self.ended = self._handed_on(entry)
        return shown

    def _private(self, entry: dict[str, Any]) -> bool:
        private = entry.get("private")
        return private is not None and str(self.seat) in private

    def _still_holds(self, version: int) -> bool:
        if version <= self._checked:
            return True
        assert self.holder is not None
        if self.holder() != self.token_hash:
            return False
        self._checked = version
        return True

    def _handed_on(self, entry: dict[str, Any]) -> bool:
        """Whether ``entry`` gave the seat to another credential after the connection opened."""
        return entry["type"] in HANDS_ON and entry["version"] > self.opened and entry["data"]["seat"] == self.seat
