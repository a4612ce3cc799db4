"""When a game's record is due: the two outbox entries a game's commands make.

Every game gets its entry before its creation is committed, due shortly before it would expire in play
(:meth:`RecordSchedule.created`): a game that is abandoned is recorded before it goes, and the entry exists
even if the process dies right after the commit.  The move that ends the game makes it due shortly before its
commit (:meth:`RecordSchedule.ending`), so the end is recorded even if nothing runs after the commit (the process
dies, the outbox shard's master fails over), and at once after it (:meth:`RecordSchedule.finished`): a ``ZADD``
each, at the end only.  The records writer
(:mod:`services.api.records.writer`) drains the outbox; a game still in play when its entry comes due is
due again before its new expiry, and one abandoned is recorded hidden then, ended at its expiry and only then
shown.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from services.api.games.record import GameRecord
from services.api.store.protocol import GameStore

EXPIRY_MARGIN_SECONDS = 3600  # an abandoned game is recorded (hidden) this long before it would expire
ENDING_SECONDS = 10  # before the commit that ends a game, its entry is made due this much later


@dataclass(frozen=True, slots=True)
class RecordSchedule:
    """The outbox entries of a process that keeps records (``RECORDS_ENABLED``); ``game_ttl`` is
    ``GAME_TTL_SECONDS``."""

    game_ttl: int

    @property
    def margin(self) -> float:
        """How long before its expiry a game in play is recorded (half its TTL when that is short)."""
        return min(EXPIRY_MARGIN_SECONDS, self.game_ttl / 2)

    def created(self, store: GameStore, record: GameRecord) -> None:
        store.schedule_record(record.game_id, time.time() + self.game_ttl - self.margin)

    def ending(self, store: GameStore, record: GameRecord) -> None:
        """Before the commit that ends ``record``'s game: due a little later, so the writer takes it once the
        commit has landed (a commit that then fails leaves a game in play, which the writer puts back)."""
        store.schedule_record(record.game_id, time.time() + ENDING_SECONDS)

    def finished(self, store: GameStore, record: GameRecord) -> None:
        store.schedule_record(record.game_id, time.time())
