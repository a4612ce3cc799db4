"""The one place the API hands turns to computer players (issue 4 fills it in).

:func:`after_commit` runs after every committed change (create, claim, leave,
move). Today it only works out whether an AI seat is to move; dispatching the
decision (a Celery task sent by name with the seat's view) is still to come,
so AI seats simply wait. Nothing here may raise into the request.
"""

from __future__ import annotations

from .store import GameRecord, GameStore


def ai_seat_to_move(record: GameRecord) -> int | None:
    """The AI seat whose turn it is, or None (human turn, waiting, game over)."""
    if record.waiting:
        return None
    from services.engine import turn

    seat = turn(record.state)
    if seat is None or record.seats[seat].type != "ai":
        return None
    return seat


def dispatch_ai_turn(store: GameStore, record: GameRecord, seat: int) -> None:
    """Send the AI decision for ``seat`` at ``record.version``; a no-op until the AI worker exists."""


def after_commit(store: GameStore, record: GameRecord) -> None:
    seat = ai_seat_to_move(record)
    if seat is not None:
        dispatch_ai_turn(store, record, seat)
