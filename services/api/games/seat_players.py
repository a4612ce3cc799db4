"""The players seats are bound to, as they are now: deletion is final.

A seat taken with the request's ``Player-Token`` is bound to a live player (the HTTP edge checks the token).  Three
paths bind a seat to a player the request does not name: a rematch (the player of the seat in the finished game), a
rejoin code redeemed (the seat's own player, with a new token) and a quick-match request's seat (the player the
request was sent with).  Each looks the player up again through :class:`Players`, so a player who deleted
themselves meanwhile is never seated again: a rematch or a rejoin is ``403 player_deleted``, and a quick-match
request is dropped (:mod:`services.api.lobby.match_games`).  The same paths carry the credential the seat was
taken through (:attr:`~services.api.games.record.PlayerRef.credential`), and a credential that is dead (a revoked
session, a rotated player token) takes no new seat either: ``403 credential_revoked``, or the request dropped.  A
seat held in a game in play through a credential that dies is released
(:mod:`services.api.games.seat_release`); so is each seat of a player who deletes themselves.

The players live in the records database (``services.api.players``, a room above this one): the app factory gives
:class:`~services.api.games.commands.Collaborators` the player repository; without records nobody is a player, and
a seat's player stands as it was bound (:data:`AS_BOUND`, also the unit tests' default).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Protocol

from services.api.games.record import PlayerRef
from services.api.problems import ApiError


class Players(Protocol):
    def current(self, player: PlayerRef) -> PlayerRef | None:
        """``player`` as it is now (a new name shows; its credential kept), None once it has deleted itself."""

    def lapsed(self, player_id: str, credentials: Collection[str]) -> frozenset[str]:
        """Those of ``credentials`` (seats' credentials) that are no longer ``player_id``'s: revoked, rotated, or
        every one once the player is deleted."""


class _AsBound:
    """Every player as its seat was bound to it: for a process that keeps no players."""

    def current(self, player: PlayerRef) -> PlayerRef | None:
        return player

    def lapsed(self, player_id: str, credentials: Collection[str]) -> frozenset[str]:
        return frozenset()


AS_BOUND: Players = _AsBound()


def player_deleted() -> ApiError:
    return ApiError(
        403,
        "player_deleted",
        "The player this seat was taken as has deleted themselves, and a deleted player is never seated again. "
        "Send a live 'Player-Token' to take the seat as that player.",
    )


def credential_revoked() -> ApiError:
    return ApiError(
        403,
        "credential_revoked",
        "The device this seat was taken on was signed out (its session revoked, or the player token it used "
        "replaced), so its seat tokens take no new seat. Send a live 'Player-Token' to take the seat as that player.",
    )


def live_player(players: Players, player: PlayerRef | None) -> PlayerRef | None:
    """``player`` as it is now (None stays None: a seat of nobody's); ``403 player_deleted`` once it has deleted
    itself, ``403 credential_revoked`` when the credential it was bound through is dead."""
    if player is None:
        return None
    current = players.current(player)
    if current is None:
        raise player_deleted()
    if player.credential is not None and players.lapsed(player.id, [player.credential]):
        raise credential_revoked()
    return current
