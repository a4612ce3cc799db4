"""What every committing command calls around its write, so that computer seats get their turns.

The commands know only this protocol; :class:`services.api.ai_seats.hooks.DispatchHooks` implements it
(registers the AI turn a version needs before the write, sends it after), and :data:`NO_AI` is the
hooks of a process that sends no AI turns (and of most unit tests).
"""

from __future__ import annotations

from typing import Protocol

from services.api.games.record import GameRecord


class AiHooks(Protocol):
    def before_commit(self, record: GameRecord) -> None: ...

    def after_commit(self, record: GameRecord, read: bool = False) -> None:
        """``read``: the change came from a client looking at the game (its creation, a player leaving it)."""


class NoAi:
    """Hooks of a process that sends no AI turns (and of most unit tests)."""

    def before_commit(self, record: GameRecord) -> None:
        return None

    def after_commit(self, record: GameRecord, read: bool = False) -> None:
        return None


NO_AI = NoAi()
