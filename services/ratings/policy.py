"""Which finished games are rated, on which board, and each seat's player — read off a record document.

A rating is only worth what its games are: a game counts when nobody could have arranged it — no chosen seed
(its creator knows every deal), every person's seat held by a player, and either strangers met (a public
table or a quick match) under a clock (nobody can stall a lost game away), or one person or bot played the
computers (the levels are rated players, so such a game measures its one player against known strengths).
Games of computers alone are rated only when the server is told to (``RATE_COMPUTER_ONLY_GAMES``: a rating
run that places the levels on the scale).

A seat's player is the record seat's ``player_id``: a bound person's or bot's id, a computer seat's level's fixed
id ``computer-<level>`` (:func:`computer_id`), or null — a person without a player, or a computer standing in
for a person who left (whose seat is then nobody's, and the game unrated).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from services.ratings.model import board_of, places

COMPUTER_PREFIX = "computer-"
NO_CLOCK = "none"


def computer_id(level: str) -> str:
    """The player id of a computer level (``computer-hard``)."""
    return f"{COMPUTER_PREFIX}{level}"


def is_computer(player_id: str) -> bool:
    return player_id.startswith(COMPUTER_PREFIX)


def seat_player(seat: Mapping[str, Any]) -> str | None:
    """The player id of a record seat: its ``player_id`` (a bound person or bot, ``computer-<level>``, or null: a
    person without a player, or a computer standing in for one who left); a record without the field names a
    computer seat by its level."""
    if "player_id" in seat:
        return str(seat["player_id"]) if seat["player_id"] else None
    if seat.get("type") == "ai" and seat.get("level"):
        return computer_id(str(seat["level"]))
    return None


def seat_players(document: Mapping[str, Any]) -> list[str | None]:
    """Each seat's player id (:func:`seat_player`), by seat."""
    return [seat_player(seat) for seat in document["seats"]]


def board(document: Mapping[str, Any]) -> str:
    """The board the game counts on: its rules' scoring (``partnership`` or ``individual``)."""
    return board_of(str(document["rules"]["scoring"]))


def side_places(document: Mapping[str, Any]) -> list[int]:
    """Each side's finishing place (1 = best, ties share), from the record's result."""
    result = document["result"]
    return places(board(document), result["scores"], result["winner"] or [])


def is_rated(document: Mapping[str, Any], computer_only: bool = False) -> bool:
    """Whether the game updates its players' ratings (see the module doc); ``computer_only``: games of computers
    alone are rated too (``RATE_COMPUTER_ONLY_GAMES``)."""
    if document["outcome"] != "finished" or document.get("seeded") or not document["result"].get("winner"):
        return False
    return _players_qualify(seat_players(document), document.get("options") or {}, computer_only)


def _players_qualify(players: Sequence[str | None], options: Mapping[str, Any], computer_only: bool) -> bool:
    if any(player is None for player in players):
        return False  # a person played unbound: nobody's rating could carry the seat's result
    people = [player for player in players if player is not None and not is_computer(player)]
    if len(set(people)) != len(people):
        return False  # one player on two seats plays with itself
    if not people:
        return computer_only
    if len(people) == 1:
        return True  # one person or bot against the computers
    strangers = bool(options.get("public") or options.get("matched"))
    return strangers and (options.get("clock") or NO_CLOCK) != NO_CLOCK
