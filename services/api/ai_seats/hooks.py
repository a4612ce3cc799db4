"""The one place game commands hand turns to computer players.

Every command that commits a change (create, claim, leave, a move, an AI's
own move) calls ``before_commit`` with the record it is about to write and
``after_commit`` once it is written (:class:`services.api.games.commit_hooks.AiHooks`,
passed to the commands in :class:`services.api.games.commands.Collaborators`);
:class:`DispatchHooks` is the implementation that sends AI turns:

* ``before_commit`` registers the AI turn the new version will need with a
  deadline, *before* the write, so that even if this process dies right
  after committing, the AI driver's deadline sweep finds the turn and sends
  it (a registration for a write that then loses its race is dropped by the
  sweep: the game has no AI turn at that version).  A registration the store
  refuses (the ledger shard's master failing over) fails the change as any
  store error does (503): committed without its deadline, the turn could be
  lost for good;
* ``after_commit`` sends the decision to the workers at once — unless the
  game is computer-only: then nobody watching it pauses it (:mod:`services.api.ai_seats.pauses`:
  it waits for a read), and otherwise the turn is sent after the game's pace
  (:mod:`services.api.ai_seats.pacing`).

``after_commit`` never raises into the request: the change itself must not
fail because the broker hiccuped; the deadline sweep retries.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

from services.api.ai_seats.pacing import Pacer
from services.api.ai_seats.pauses import OFF, PauseGate
from services.api.store.protocol import GameRecord
from services.engine import turn

log = logging.getLogger(__name__)


def ai_seat_to_move(record: GameRecord) -> int | None:
    """The AI seat whose turn it is, or None (human turn, waiting, game over)."""
    types = [s.type for s in record.seats]
    if "ai" not in types or "open" in types:
        return None  # (most games: no computer seat, no need to work out the turn; or waiting)
    seat = turn(record.state)
    if seat is None or record.seats[seat].type != "ai":
        return None
    return seat


class Dispatcher(Protocol):
    """What the hooks need of :class:`services.api.ai_seats.dispatch.AiDispatcher`."""

    def expect(self, game_id: str) -> None: ...

    def dispatch(self, record: GameRecord, seat: int, attempts: int = 1) -> Any: ...


class DispatchHooks:
    """Registers and sends the AI turn a committed version needs (see module doc)."""

    def __init__(self, dispatcher: Dispatcher, gate: PauseGate = OFF, pacer: Pacer | None = None) -> None:
        self.dispatcher = dispatcher
        self.gate = gate
        self.pacer = pacer  # None: computer-only games' turns are sent at once too

    def before_commit(self, record: GameRecord) -> None:
        if ai_seat_to_move(record) is not None:
            self.dispatcher.expect(record.game_id)  # a store error fails the change: see the module docstring

    def after_commit(self, record: GameRecord, read: bool = False) -> None:
        seat = ai_seat_to_move(record)
        if seat is None:
            return
        try:
            if not self.gate.may_send(record, read):
                return
            if record.computer_only and self.pacer is not None:
                self.pacer.later(lambda: self.dispatcher.dispatch(record, seat))
            else:
                self.dispatcher.dispatch(record, seat)
        except Exception:
            log.exception("could not send an AI turn", extra={"game_id": record.game_id, "seat": seat})
