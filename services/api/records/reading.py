"""Reading records: one game's, whether or not Redis still has the game, and listings.

A finished game's record comes from the database; one not written yet (the writer is a moment behind, or
the database is down) is built from the game Redis still holds — it can't have expired, it keeps no
expiry until its record is written.  A game still in play has no record yet (``409 game_in_play``); an
abandoned game's record is read as the listing reads it, only once shown (the repository's rule,
:mod:`services.api.records.repository`: once its game is gone).  With the database down, a finished game
Redis holds still answers; anything else is a ``503 records_unavailable``.
"""

from __future__ import annotations

import orjson
from sqlalchemy.exc import SQLAlchemyError

from services.api.problems import ApiError
from services.api.records.content import FINISHED, build, with_parts
from services.api.records.repository import RecordRepository
from services.api.store.protocol import GameStore

MAX_ID_LENGTH = 64


def game_record(store: GameStore, repository: RecordRepository, game_id: str) -> bytes:
    """The record document (JSON) of ``game_id``: 404 for none, 409 while the game is being played."""
    if len(game_id) > MAX_ID_LENGTH:
        raise ApiError(404, "not_found", "No record of such a game.")
    try:
        stored = repository.get(game_id)
    except SQLAlchemyError:
        record = store.load(game_id)  # the database is down: a finished game Redis still holds can answer
        if record is None or record.state.phase != "game_over":
            raise
        return orjson.dumps(build(record))
    if stored is not None and stored[0] == FINISHED:
        return with_parts(stored[1])  # a finished game's record never changes: Redis need not be asked
    record = store.load(game_id)
    if record is not None and record.state.phase != "game_over":
        raise ApiError(409, "game_in_play", "The game is still being played: its record is kept once it ends.")
    if record is not None:
        return orjson.dumps(build(record))
    if stored is None:
        raise ApiError(404, "not_found", "No record of such a game (it never existed, or its record was deleted).")
    return with_parts(stored[1])
