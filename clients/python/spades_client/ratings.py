"""The ratings' operations: a leaderboard (with your own place when the client has a player token) and a
player's games, newest first.

:class:`RatingMethods` is part of :class:`spades_client.client.SpadesClient` (its methods use the client's
plumbing); the models are the contract's ``Leaderboard``, ``LeaderboardEntry``, ``LeaderboardPlace``,
``PlayerGame`` and ``PlayerGamesPage`` (a record's ``RecordRating`` and ``RecordPlayer`` are in
:mod:`spades_client.models`), held to it by
``tests/clients/test_models_match_spec.py`` like every other model.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from spades_client.models import Body, PlayerRef, RecordPlayer

if TYPE_CHECKING:
    from spades_client.client import SpadesClient

RATING_OPERATIONS: dict[str, tuple[str, str]] = {
    "getLeaderboard": ("GET", "/v1/leaderboards/{board}"),
    "listPlayerGames": ("GET", "/v1/players/{player_id}/games"),
}


@dataclass
class LeaderboardEntry(Body):
    SCHEMA: ClassVar[str] = "LeaderboardEntry"
    rank: int
    player: PlayerRef
    rating: int
    games: int


@dataclass
class LeaderboardPlace(Body):
    """Your own place: no ``rank`` while your rating is ``provisional`` (it is on no board)."""

    SCHEMA: ClassVar[str] = "LeaderboardPlace"
    rating: int
    provisional: bool
    rank: int | None = None


@dataclass
class Leaderboard(Body):
    """A board's best players of one kind; ``me`` only when the client sent its player token (None: unrated, or
    held: ``me_hold`` says so)."""

    SCHEMA: ClassVar[str] = "Leaderboard"
    board: str
    kind: str
    top: list[LeaderboardEntry]
    me: LeaderboardPlace | None = None
    me_hold: str | None = None  # "review" or "closed" while the fair-play watch holds the player's ratings


@dataclass
class PlayerGame(Body):
    """One of a player's games: its final scores (per side) and who sat where, while its record is kept; a rated
    one has the display ratings before and after, and whether the one after was provisional."""

    SCHEMA: ClassVar[str] = "PlayerGame"
    game_id: str
    ended_at: str
    seat: int
    won: bool
    board: str
    rated: bool
    rating_before: int | None = None
    rating_after: int | None = None
    change: int | None = None
    provisional: bool | None = None
    scores: list[int] | None = None  # per side: the seat's side is seat % 2 in partnership play, the seat alone else
    players: list[RecordPlayer | None] | None = None  # names as they are now; absent once the record is gone


@dataclass
class PlayerGamesPage(Body):
    SCHEMA: ClassVar[str] = "PlayerGamesPage"
    games: list[PlayerGame]
    next: str | None


RATING_MODELS: tuple[type[Body], ...] = (
    LeaderboardEntry,
    LeaderboardPlace,
    Leaderboard,
    PlayerGame,
    PlayerGamesPage,
)


class RatingMethods:
    """The ratings' operations (mixed into :class:`spades_client.client.SpadesClient`)."""

    def get_leaderboard(self: SpadesClient, board: str, kind: str = "person", limit: int | None = None) -> Leaderboard:
        """The best ``limit`` players of ``kind`` on ``board`` (``partnership`` or ``individual``)."""
        params: dict[str, object] = {"kind": kind}
        if limit is not None:
            params["limit"] = limit
        return Leaderboard.from_dict(self._call("getLeaderboard", board=board, params=params).json())

    def list_player_games(
        self: SpadesClient, player_id: str, cursor: str | None = None, limit: int | None = None
    ) -> PlayerGamesPage:
        """One page of the player's games, newest first; pass ``next`` back as ``cursor``."""
        params: dict[str, object] = {}
        if cursor is not None:
            params["cursor"] = cursor
        if limit is not None:
            params["limit"] = limit
        return PlayerGamesPage.from_dict(self._call("listPlayerGames", player_id=player_id, params=params).json())

    def iter_player_games(self: SpadesClient, player_id: str, limit: int | None = None) -> Iterator[PlayerGame]:
        """Every game of the player, newest first, page after page."""
        cursor: str | None = None
        while True:
            page = self.list_player_games(player_id, cursor, limit)
            yield from page.games
            if page.next is None:
                return
            cursor = page.next
