"""The commit that creates a game, whoever creates it: ``POST /v1/games`` (:func:`services.api.games.commands.
create_game`) and a rematch's next game (:mod:`services.api.games.rematch`).  One path, so every game is held
for its creators, registered with the AI ledger and the records outbox before it exists, and counted."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from services.api.games import quotas
from services.api.metrics import GAMES_CREATED
from services.api.store.protocol import GameRecord, NotReplicated

if TYPE_CHECKING:
    from services.api.games.commands import Collaborators


def commit_created(
    ctx: Collaborators, record: GameRecord, events: list[dict[str, Any]], repeated: bool = False
) -> bool:
    """Create ``record`` with its first ``events``: True once written, False when its id exists already (nothing
    written; nothing held, unless ``repeated``: a creation made again with fixed ids, whose first making holds the
    same places).  A ``429`` when a creator holds too many games; a store error fails it whole.  A public game is
    listed (the lobby's hooks) around the commit."""
    quotas.hold(ctx.store, ctx.quotas, record)
    try:  # each step before the commit may be refused by the store (its ledger or outbox shard failing over)
        ctx.ai.before_commit(record)
        ctx.tables.before_seats(record)
        if ctx.records:
            ctx.records.created(ctx.store, record)
        committed = ctx.store.commit(record, None, events)
    except NotReplicated:
        raise  # written: it stays held
    except Exception:
        quotas.release(ctx.store, record)
        raise
    if not committed:
        if not repeated:
            quotas.release(ctx.store, record)
        return False
    GAMES_CREATED.inc()
    ctx.ai.after_commit(record, read=True)
    ctx.tables.after_seats(record)
    return True
