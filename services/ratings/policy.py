"""Which games are rated, on which board, and each seat's player: the one rule, told in docs/api.md.

A rating is only worth what its games are, so a game counts only when nobody could have arranged it or had help:

- **made to count** (:func:`may_count`, when the game is created): no chosen seed (its creator knows every deal),
  no hints (engine help), a real length (a winning score of at least :data:`RATED_MIN_TARGET`, every preset's
  own: not a one-round game), and either strangers meeting (a public table or a quick match) under a clock
  (nobody can stall a lost game away), or one person or bot alone against the computers (the levels are rated
  players, so such a game measures its one player against known strengths);
- **still counting at its end** (the game's ``fair_play``, kept by ``services.api.games.fair_play``): no person
  left, nor was away, before the first card (an abort), and no client (an address) held two person seats;
- **played by distinct players**: every person's seat bound to a player, none on two seats.

A person who leaves, or loses two turns in a row to the clock, after the first card *forfeits*: their side is
placed below every side that did not, whatever their stand-in then scores (:func:`side_places`).  Games of
computers alone are rated only when the server is told to (``RATE_COMPUTER_ONLY_GAMES``: a rating run that places
the levels on the scale).  A record's ``fair_play`` is null for a game not made to count; a record without the
key was written before games kept it, and is judged by its options (strangers under a clock, or one player
against the computers).

A seat's player is the record seat's ``player_id``: a bound person's or bot's id, a computer seat's level's fixed
id ``computer-<level>`` (:func:`computer_id`), or null — a person without a player, or a computer standing in
for nobody's seat.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from services.ratings.model import board_of, board_sides, places

COMPUTER_PREFIX = "computer-"
NO_CLOCK = "none"
RATED_MIN_TARGET = 500  # every preset's winning score: a shorter game is a different, luckier contest


# Why a game moves no rating (a record read's ``unrated_reason``; the web client says each in words).
UNFINISHED, SEEDED, HINTS, SHORT_GAME = "unfinished", "seeded", "hints", "short_game"
PRIVATE_TABLE, NO_CLOCK_REASON = "private_table", "no_clock"  # not strangers meeting; strangers with no clock
UNNAMED_PLAYER, SAME_PLAYER, COMPUTERS_ONLY = "unnamed_player", "same_player", "computers_only"
EVERY_SIDE_FORFEITED = "every_side_forfeited"
ABORTED, SHARED_CLIENT = "aborted", "shared_client"  # a game made to count that stopped counting (its fair play)


def unmade_reason(
    seat_types: Sequence[str],
    *,
    seeded: bool,
    hints: bool,
    public: bool,
    matched: bool,
    clock: str,
    win_score: int,
    min_win_score: int = RATED_MIN_TARGET,
) -> str | None:
    """Why a game made so cannot be rated (None: it is made to count; see the module doc): its seats' types as
    created (``human``, ``open``, ``ai``), its options and its rules' winning score (``min_win_score``: the
    server's ``RATED_MIN_WIN_SCORE``, :data:`RATED_MIN_TARGET` by default)."""
    if seeded:
        return SEEDED
    if hints:
        return HINTS
    if win_score < min_win_score:
        return SHORT_GAME
    if list(seat_types).count("human") == 1 and "open" not in seat_types:
        return None  # one person or bot against the computers
    if not (public or matched):
        return PRIVATE_TABLE
    return NO_CLOCK_REASON if clock == NO_CLOCK else None


def may_count(seat_types: Sequence[str], **made: Any) -> bool:
    """Whether a game made so can be rated (:func:`unmade_reason` finds no reason)."""
    return unmade_reason(seat_types, **made) is None


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


def forfeits(document: Mapping[str, Any]) -> list[int]:
    """The seats whose player forfeited (left, or away, after the first card)."""
    fair = document.get("fair_play") or {}
    return list(fair.get("forfeits", ()))


def side_places(document: Mapping[str, Any]) -> list[int]:
    """Each side's finishing place (1 = best, ties share), from the record's result: a side with a seat that
    forfeited below every side without one."""
    result = document["result"]
    return places(board(document), result["scores"], result["winner"] or [], forfeits(document))


def seats_won(document: Mapping[str, Any]) -> list[bool]:
    """Whether each seat won, for its player's stats and games: the record's ``won`` (the scores), except that a
    side with a forfeit loses to every side without one (as :func:`side_places` places it): leaving a game, or
    losing it to the clock, is a loss whatever the stand-in scores."""
    won = [bool(seat.get("won")) for seat in document["seats"]]
    if not forfeits(document) or not document["result"].get("winner"):
        return won
    places = side_places(document)
    by_seat = [False] * len(won)
    for index, side in enumerate(board_sides(board(document))):
        for seat in side:
            by_seat[seat] = places[index] == 1 and places.count(1) == 1
    return by_seat


def is_rated(document: Mapping[str, Any], computer_only: bool = False) -> bool:
    """Whether the game updates its players' ratings (see the module doc); ``computer_only``: games of computers
    alone are rated too (``RATE_COMPUTER_ONLY_GAMES``)."""
    return unrated_reason(document, computer_only) is None


def unrated_reason(document: Mapping[str, Any], computer_only: bool = False) -> str | None:
    """Why the game updates no rating (None: it is rated): the first rule of the module doc it fails."""
    if document["outcome"] != "finished" or not document["result"].get("winner"):
        return UNFINISHED
    if document.get("seeded"):
        return SEEDED
    options = document.get("options") or {}
    if "fair_play" in document:  # a game of fair play's time: made to count, or not rated
        fair = document["fair_play"]
        if fair is None:
            if all(p is not None and is_computer(p) for p in seat_players(document)):
                return None if computer_only else COMPUTERS_ONLY
            return _unmade(document, options)
        if not fair["counts"]:
            return fair["reason"] or ABORTED  # an abort, or one client on two seats
        forfeited = set(forfeits(document))
        if all(forfeited & set(side) for side in board_sides(board(document))):
            return EVERY_SIDE_FORFEITED  # nobody to credit
        return _players_reason(seat_players(document), {}, computer_only, made_to_count=True)
    return _players_reason(seat_players(document), options, computer_only)


def _unmade(document: Mapping[str, Any], options: Mapping[str, Any]) -> str:
    """Why a recorded game was not made to count, from its record (its seats as they ended)."""
    found = unmade_reason(
        [seat.get("type", "human") for seat in document.get("seats", ())],
        seeded=bool(document.get("seeded")),
        hints=bool(options.get("hints")),
        public=bool(options.get("public")),
        matched=bool(options.get("matched")),
        clock=options.get("clock") or NO_CLOCK,
        win_score=int((document.get("rules") or {}).get("win_score", RATED_MIN_TARGET)),
    )
    return found or PRIVATE_TABLE  # seats that changed since it was made: it was made among friends


def _players_reason(
    players: Sequence[str | None], options: Mapping[str, Any], computer_only: bool, made_to_count: bool = False
) -> str | None:
    if any(player is None for player in players):
        return UNNAMED_PLAYER  # a person played unbound: nobody's rating could carry the seat's result
    people = [player for player in players if player is not None and not is_computer(player)]
    if len(set(people)) != len(people):
        return SAME_PLAYER  # one player on two seats plays with itself
    if not people:
        return None if computer_only else COMPUTERS_ONLY
    if len(people) == 1 or made_to_count:
        return None  # one person or bot against the computers; or a game made to count (may_count)
    if not (options.get("public") or options.get("matched")):
        return PRIVATE_TABLE
    return NO_CLOCK_REASON if (options.get("clock") or NO_CLOCK) == NO_CLOCK else None
