"""The fair-play flags an operator decides (``/v1/operator/flags``): listed, cleared or confirmed.

- **clear**: the flag was wrong; the player's next games count again (the games it held stay unrated: nobody
  can tell now what they would have been worth);
- **confirm**: the flagged games' rating changes are removed and their players replayed from the ledger
  (:func:`services.api.ratings.removal.remove_games`, exactly once), and the player's games stay unrated and
  their ratings held (shown nowhere, on no board: :func:`services.api.ratings.watch.holds`) until an operator
  clears the confirmed flag.

A decision is one transaction on the flag's row (locked): a flag is decided once; deciding it again is
``409 flag_decided``, so two operators never both act on it.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Connection, Engine, select

from services.api.problems import ApiError
from services.api.ratings.removal import remove_games
from services.api.ratings.watch import CLEARED, CONFIRMED, OPEN, place_on_boards
from services.api.records.database import insert_of
from services.api.records.schema import fair_play_flags, players

DECISIONS = {"clear": CLEARED, "confirm": CONFIRMED}
STATUSES = (OPEN, CLEARED, CONFIRMED)


def list_flags(engine: Engine, status: str, limit: int, after: str | None) -> list[dict[str, Any]]:
    """Flags of ``status``, oldest first (``after``: the last id of the previous page)."""
    query = (
        select(fair_play_flags, players.c.name)
        .join(players, players.c.id == fair_play_flags.c.player_id)
        .where(fair_play_flags.c.status == status)
        .order_by(fair_play_flags.c.raised_ms, fair_play_flags.c.id)
        .limit(limit)
    )
    with engine.connect() as connection:
        if after is not None:
            mark = connection.execute(select(fair_play_flags.c.raised_ms).where(fair_play_flags.c.id == after)).first()
            if mark is not None:
                key = (fair_play_flags.c.raised_ms, fair_play_flags.c.id)
                query = query.where((key[0] > mark.raised_ms) | ((key[0] == mark.raised_ms) & (key[1] > after)))
        return [flag_view(row) for row in connection.execute(query)]


def decide(engine: Engine, flag_id: str, decision: str, now_ms: int) -> dict[str, Any]:
    """Clear or confirm a flag (see the module doc): ``{"flag": …, "removed_games": […]}``, the flag as decided and
    the games a confirm removed now."""
    with engine.begin() as connection:
        row = _locked(connection, flag_id)
        if row.status != OPEN and not (row.status == CONFIRMED and decision == "clear"):
            raise ApiError(409, "flag_decided", f"Flag {flag_id} was already decided ({row.status}).")
        removed: list[str] = []
        if decision == "confirm":
            removed = remove_games(connection, insert_of(connection), json.loads(row.games), now_ms)
        connection.execute(
            fair_play_flags.update()
            .where(fair_play_flags.c.id == flag_id)
            .values(status=DECISIONS[decision], decided_ms=now_ms)
        )
        place_on_boards(connection, row.player_id, now_ms)  # a cleared hold puts the player back on the boards
        name = connection.execute(select(players.c.name).where(players.c.id == row.player_id)).scalar()
        decided = _locked(connection, flag_id)
        return {"flag": flag_view(decided, name), "removed_games": removed}


def _locked(connection: Connection, flag_id: str) -> Any:
    query = select(fair_play_flags).where(fair_play_flags.c.id == flag_id).with_for_update()
    row = connection.execute(query).first()
    if row is None:
        raise ApiError(404, "flag_not_found", f"No flag {flag_id}.")
    return row


def flag_view(row: Any, name: str | None = None) -> dict[str, Any]:
    """A flag as the operator API shows it."""
    return {
        "id": row.id,
        "player": {"id": row.player_id, "name": name if name is not None else getattr(row, "name", None)},
        "kind": row.kind,
        "status": row.status,
        "raised_ms": row.raised_ms,
        "decided_ms": row.decided_ms,
        "games": json.loads(row.games),
        "detail": json.loads(row.detail),
    }
