"""A rematch's reserved seats (:attr:`services.api.games.record.GameRecord.rematch`): what views show of the rematch
offered from a finished game and of the seats a rematch keeps for the last game's people
(:mod:`services.api.games.rematch`), and what claims respect.  It changes only with a commit, so it is part of the
view cached per version (unlike ``seats[i].connected`` and ``messages``, read at each ``GET``:
:mod:`services.api.http.view_bodies`)."""

from __future__ import annotations

from typing import Any

from services.api.games.record import GameRecord
from services.api.problems import ApiError


def reserved_seats(record: GameRecord) -> list[int]:
    """The seats still open and reserved for a person of the game before (none once the wait ended)."""
    return [seat for seat in record.rematch.reserved if record.seats[seat].type == "open"]


def rematch_view(record: GameRecord) -> dict[str, Any]:
    """The view's ``rematch`` (the next game, once offered) and ``reserved`` (while seats are reserved)."""
    rematch = record.rematch
    fields: dict[str, Any] = {}
    if rematch.next_game is not None:
        fields["rematch"] = {"game_id": rematch.next_game}
        if rematch.offered_by is not None:  # a game whose rematch was offered by an older process names nobody
            fields["rematch"]["seat"] = rematch.offered_by
    reserved = reserved_seats(record)
    if reserved:
        fields["reserved"] = {
            "seats": reserved,
            "until_ms": rematch.until_ms,
            "previous_game_id": rematch.previous_game,
        }
    return fields


def check_claim(record: GameRecord, seat: int, at_ms: int) -> None:
    """A claim of ``seat`` (``POST …/claim``): ``409 seat_reserved`` while the seat waits for its person."""
    rematch = record.rematch
    until = rematch.until_ms
    if seat in rematch.reserved and until is not None and until > at_ms and record.seats[seat].type == "open":
        raise ApiError(
            409,
            "seat_reserved",
            f"Seat {seat} is kept for its player from the last game until {until} (ms since the epoch); "
            "then it is claimable.",
            until_ms=until,
        )
