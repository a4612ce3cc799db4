"""The one place game commands hand turns to computer players.

Every command that commits a change (create, claim, leave, a move, an AI's
own move) calls :func:`before_commit` with the record it is about to write
and :func:`after_commit` once it is written:

* ``before_commit`` registers the AI turn the new version will need with a
  deadline, *before* the write, so that even if this process dies right
  after committing, the AI driver's deadline sweep finds the turn and sends
  it (a registration for a write that then loses its race is dropped by the
  sweep: the game has no AI turn at that version);
* ``after_commit`` sends the decision to the workers at once.

Neither raises into the request: the change itself must not fail because
the broker hiccuped; the deadline sweep retries.
"""

from __future__ import annotations

import logging

from flask import current_app

from services.engine import turn

from .store import GameRecord, GameStore

log = logging.getLogger("spades.ai")


def ai_seat_to_move(record: GameRecord) -> int | None:
    """The AI seat whose turn it is, or None (human turn, waiting, game over)."""
    types = [s.type for s in record.seats]
    if "ai" not in types or "open" in types:
        return None  # (most games: no computer seat, no need to work out the turn; or waiting)
    seat = turn(record.state)
    if seat is None or record.seats[seat].type != "ai":
        return None
    return seat


def before_commit(record: GameRecord) -> None:
    if ai_seat_to_move(record) is None:
        return
    dispatcher = current_app.extensions.get("spades.ai")
    if dispatcher is None:
        return
    try:
        dispatcher.expect(record.game_id)
    except Exception:
        log.exception("could not register an AI turn", extra={"game_id": record.game_id})


def after_commit(store: GameStore, record: GameRecord) -> None:
    seat = ai_seat_to_move(record)
    if seat is None:
        return
    dispatcher = current_app.extensions.get("spades.ai")
    if dispatcher is None:
        return
    try:
        dispatcher.dispatch(record, seat)
    except Exception:
        log.exception("could not send an AI turn", extra={"game_id": record.game_id, "seat": seat})
