"""The ratings' ``provisional`` flags and the leaderboards' buckets counted again when the rules behind them change
(:data:`RULES`: the provisional rule's thresholds and the buckets' width).

Each rating's flag says whether :func:`services.ratings.provisional.provisional` held for it when it was last
written, and ``rating_buckets`` counts the ratings whose flag is false (:mod:`services.api.ratings.apply` keeps
both exact, game by game).  A flag is a function of the rule as well as of the rating, so when the running
code's rule is not the one ``bucket_rules`` holds, :func:`recount_if_stale`, run by
:func:`services.api.records.database.migrate` under its lock after the migrations (the app gives it as the
migration's upkeep), sets every flag by the running rule and counts the buckets again.  An empty table stands
for revision 0007's start: flags from before it, and buckets that counted every rating.

It takes the tables first (PostgreSQL: ``EXCLUSIVE`` locks on both, reads go on; SQLite: its one writer), so a
game applied meanwhile waits and then moves what was counted.  A process still running older code during a
rolling upgrade that changes the rule keeps its own rule in the buckets it moves; deleting ``bucket_rules``'
row after the upgrade has the next start count again.
"""

from __future__ import annotations

import logging
from collections import Counter

from sqlalchemy import Connection, bindparam, delete, select, text, tuple_, update

from services.api.ratings.watch import holds
from services.api.records.schema import bucket_rules, player_ratings, rating_buckets
from services.api.store.protocol import now_ms
from services.ratings.buckets import PER_POINT, bucket_of
from services.ratings.model import Rating
from services.ratings.provisional import RULE, off_board

log = logging.getLogger(__name__)

RULES = f"{RULE},per_point={PER_POINT}"
PAGE = 10_000  # ratings read, and flags written, at a time


def recount_if_stale(connection: Connection) -> bool:
    """Count the flags and the buckets by :data:`RULES` unless the stored ones were; whether it did."""
    stored = connection.execute(select(bucket_rules.c.rules)).scalars().all()
    if stored == [RULES]:
        return False
    changed, counted = recount(connection)
    connection.execute(delete(bucket_rules))
    connection.execute(bucket_rules.insert().values(rules=RULES, counted_ms=now_ms()))
    log.info(
        "ratings counted by %s (was %s): %d flags changed, %d ratings on the boards",
        RULES,
        stored[0] if stored else "every rating counted",
        changed,
        counted,
    )
    return True


def recount(connection: Connection) -> tuple[int, int]:
    """Every rating's flag by the running rule (off the boards while its player is held:
    :func:`services.api.ratings.watch.holds`) and the buckets from the ratings it leaves on the boards; the
    flags changed and the ratings counted."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("LOCK TABLE player_ratings, rating_buckets IN EXCLUSIVE MODE"))
    connection.execute(delete(rating_buckets))  # SQLite: the write lock, taken before the first read
    buckets: Counter[tuple[str, str, int]] = Counter()
    changed, after = 0, None
    key = tuple_(player_ratings.c.player_id, player_ratings.c.board)
    held = holds(connection)  # few: the players with an open or confirmed flag
    while True:
        query = select(player_ratings).order_by(player_ratings.c.player_id, player_ratings.c.board).limit(PAGE)
        rows = connection.execute(query if after is None else query.where(key > tuple_(*after))).all()
        if not rows:
            break
        flips = []
        for row in rows:
            now = off_board(Rating(row.mu, row.sigma), row.games, row.player_id in held)
            if now != bool(row.provisional):
                flips.append({"p_id": row.player_id, "p_board": row.board, "p_flag": now})
            if not now:
                buckets[(row.board, row.kind, bucket_of(row.score))] += 1
        if flips:
            connection.execute(_SET_FLAG, flips)
        changed += len(flips)
        after = (rows[-1].player_id, rows[-1].board)
    if buckets:
        rows = [{"board": b, "kind": k, "bucket": n, "players": c} for (b, k, n), c in sorted(buckets.items())]
        connection.execute(rating_buckets.insert(), rows)
    return changed, sum(buckets.values())


_SET_FLAG = (
    update(player_ratings)
    .where(player_ratings.c.player_id == bindparam("p_id"), player_ratings.c.board == bindparam("p_board"))
    .values(provisional=bindparam("p_flag"))
)
