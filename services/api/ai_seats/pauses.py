"""Bounded bulk: a computer-only game plays only while someone watches it.

A computer-only game (no seat a person's or a bot's) plays itself to the end, a few CPU-seconds of
hard decisions, whether anyone looks or not.  :class:`PauseGate` holds back the AI turn of such a game
that nobody has read for ``PAUSE_UNWATCHED_SECONDS`` and marks the game paused; the next read of it
(its view, ``/events``, ``/stream``, a spectator's as much as anyone's) marks it watched again, takes
the mark and sends the turn, so the game goes on where it stopped.  Its creation counts as a read.  A
paused game keeps its timer until the deadline sweep finds it unwatched (and marks it paused
again) and expires after ``GAME_TTL_SECONDS`` like any idle game.

Games a person or a bot sits in are never paused and cost nothing here: the check is on the seats of
the record already in hand, and only a computer-only game's read or AI turn makes a Redis call (one
script on the game's slot; :mod:`services.api.store.fair_share` says why a read and a pause never miss
each other).
"""

from __future__ import annotations

import logging
import time
from typing import Any, Protocol

from services.api.games.record import GameRecord
from services.api.metrics import AI_PAUSES
from services.api.store.protocol import GameStore
from services.engine import turn

log = logging.getLogger(__name__)


class Sender(Protocol):
    """What the gate needs of :class:`services.api.ai_seats.dispatch.AiDispatcher`."""

    def dispatch(self, record: GameRecord, seat: int, attempts: int = 1) -> Any: ...


def ai_turn(record: GameRecord) -> int | None:
    """The seat of a computer-only game whose turn it is (None when the game is over)."""
    return turn(record.state) if record.computer_only else None


class PauseGate:
    """Watched marks on reads, pauses on unwatched AI turns (see module doc); ``seconds`` 0 turns it off."""

    def __init__(self, store: GameStore | None, seconds: float, sender: Sender | None = None) -> None:
        self.store = store
        self.seconds = seconds
        self.sender = sender

    def may_send(self, record: GameRecord, read: bool = False) -> bool:
        """Whether the AI turn of ``record`` (just committed, or overdue) may go to the workers now; for an
        unwatched computer-only game, False, and the game is marked paused.  ``read``: the commit came from
        a client looking at the game (its creation; the leave that left it to computers), which counts as
        a read."""
        if not self.seconds or self.store is None or not record.computer_only:
            return True
        if read:
            self.store.watch(record.game_id, self.seconds)
            return True
        if self.store.pause_unless_watched(record.game_id):
            return True
        AI_PAUSES.labels("paused").inc()
        log.info("computer-only game paused: nobody watches it", extra={"game_id": record.game_id})
        return False

    def seen(self, record: GameRecord) -> None:
        """``record``'s game was read: watched for ``seconds`` more; a paused one goes on (its turn is sent
        by this call).  Never raises: the read itself must not fail because of this."""
        if record.computer_only:
            self.touch(record.game_id)

    def touch(self, game_id: str) -> None:
        """As :meth:`seen`, for a game that may have become computer-only since its record was read (an open
        stream's, :mod:`services.api.live.stream`): watched whatever its seats."""
        if not self.seconds or self.store is None:
            return
        try:
            if not self.store.watch(game_id, self.seconds):
                return
            current = self.store.load(game_id)  # the version that was paused
            seat = ai_turn(current) if current is not None else None
            if seat is None or current is None or self.sender is None:
                return
            AI_PAUSES.labels("resumed").inc()
            log.info("computer-only game resumed by a read", extra={"game_id": game_id})
            self.sender.dispatch(current, seat)
        except Exception:
            log.warning("could not resume a paused game", extra={"game_id": game_id}, exc_info=True)
            self._leave_to_the_sweep(game_id)

    def _leave_to_the_sweep(self, game_id: str) -> None:
        """The mark may be taken and the turn unsent: due now in the timers, the deadline sweep sends it
        (the game is watched now).  If the store is down, the next read after it is back finds no mark,
        and only the timers (if the turn is still in it) restarts the game."""
        try:
            assert self.store is not None
            self.store.expect_turn(game_id, time.time())
        except Exception:
            log.warning("could not hand a paused game to the sweep", extra={"game_id": game_id}, exc_info=True)


OFF = PauseGate(None, 0)  # a gate that never pauses
