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
  refuses (the timers shard's master failing over) fails the change as any
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
from collections.abc import Callable
from typing import Any, Protocol

from services.api.ai_seats.pacing import Pacer
from services.api.ai_seats.pauses import OFF, PauseGate
from services.api.games.clocks import NO_OUTAGES, Outages, computer_seat, deadline_seconds
from services.api.games.record import GameRecord
from services.api.store.protocol import GameStore, now_ms

log = logging.getLogger(__name__)


def ai_seat_to_move(record: GameRecord, now: int | None = None, outages: Outages = NO_OUTAGES) -> int | None:
    """The seat whose turn the computer plays at ``now`` (Unix ms; default: the time now): an ai seat's, an
    away person's or a person's past the deadline, the service's ``outages`` given back
    (:func:`services.api.games.clocks.computer_seat`, the one rule); None for a person's turn in time, while
    waiting, at game over.  (A record as committed has its outages given back already.)"""
    return computer_seat(record, now_ms() if now is None else now, outages)


class Dispatcher(Protocol):
    """What the hooks need of :class:`services.api.ai_seats.dispatch.AiDispatcher`."""

    def expect(self, game_id: str, earlier: bool = False) -> None: ...

    def dispatch(self, record: GameRecord, seat: int, attempts: int = 1) -> Any: ...

    @property
    def store(self) -> GameStore: ...


class DispatchHooks:
    """Registers and sends the AI turn a committed version needs (see module doc)."""

    def __init__(
        self, dispatcher: Dispatcher, gate: PauseGate = OFF, pacer: Pacer | None = None, store: GameStore | None = None
    ) -> None:
        self.dispatcher = dispatcher
        self.store: GameStore = store if store is not None else dispatcher.store  # the timers: clocks' deadlines
        self.on_deadline: Callable[[float], None] | None = None  # the driver's wake_at: it sweeps at each deadline
        self.gate = gate
        self.pacer = pacer  # None: computer-only games' turns are sent at once too

    def before_commit(self, record: GameRecord) -> None:
        # a store error fails the change: see the module docstring.  In a game with a clock, a registration
        # only ever brings the deadline sooner: this change may lose its race, and the winner's must not be
        # pushed later (one found too early is put back at its deadline by the sweep)
        clocked = record.clock is not None
        if ai_seat_to_move(record, record.changed_ms or None) is not None:
            self.dispatcher.expect(record.game_id, clocked)
        elif clocked and (due := deadline_seconds(record)) is not None:
            self.store.expect_turn(record.game_id, due, earlier=True)

    def after_commit(self, record: GameRecord, read: bool = False) -> None:
        seat = ai_seat_to_move(record, record.changed_ms or None)
        if seat is None:
            if record.clock is not None and (due := deadline_seconds(record)) is not None:
                try:  # the committed turn's own deadline, exactly (a racing change may have registered another)
                    self.store.expect_turn(record.game_id, due)
                except Exception:  # registered sooner before the commit: the sweep finds it
                    log.exception("could not register a clock", extra={"game_id": record.game_id})
                if self.on_deadline is not None:
                    self.on_deadline(due)
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
