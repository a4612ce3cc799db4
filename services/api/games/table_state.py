"""A game's ``table`` (:attr:`services.api.store.protocol.GameRecord.table`): the rematch offered from a finished
game, and the seats of a rematch still reserved for the last game's people (:mod:`services.api.games.rematch`) —
what views show of it and what claims respect.  It changes only with a commit, so it is part of the view cached
per version (unlike ``seats[i].connected`` and ``messages``, read at each ``GET``:
:mod:`services.api.http.view_bodies`)."""

from __future__ import annotations

from typing import Any

from services.api.problems import ApiError
from services.api.store.protocol import GameRecord


def reserved_seats(record: GameRecord) -> list[int]:
    """The seats still open and reserved for a person of the game before (none once the wait ended)."""
    return [seat for seat in record.table.get("reserved", ()) if record.seats[seat].type == "open"]


def table_view(record: GameRecord) -> dict[str, Any]:
    """The view's ``rematch`` (the next game, once offered) and ``reserved`` (while seats are reserved)."""
    table = record.table
    if not table:
        return {}
    fields: dict[str, Any] = {}
    if "rematch" in table:
        fields["rematch"] = {"game_id": table["rematch"]}
    reserved = reserved_seats(record)
    if reserved:
        fields["reserved"] = {"seats": reserved, "until_ms": table["until"], "previous_game_id": table["rematch_of"]}
    return fields


def check_claim(record: GameRecord, seat: int, at_ms: int) -> None:
    """A claim of ``seat`` (``POST …/claim``): ``409 seat_reserved`` while the seat waits for its person."""
    table = record.table
    if seat in table.get("reserved", ()) and table.get("until", 0) > at_ms and record.seats[seat].type == "open":
        raise ApiError(
            409,
            "seat_reserved",
            f"Seat {seat} is kept for its player from the last game until {table['until']} (ms since the epoch); "
            "then it is claimable.",
            until_ms=table["until"],
        )
