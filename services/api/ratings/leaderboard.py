"""The leaderboards: per board and kind of player, ranked by ``score`` (the ordinal), higher first and, at an
equal score, the lower player id first.  A provisional rating (:mod:`services.ratings.provisional`) is on no
board and in nobody's rank: its player's own place says so, without a rank.

A player held by the fair-play watch (an open or confirmed flag) is on no board either, and has no own place.

The top of a board is one index walk (``player_ratings_rank``: board, kind, provisional, score, player id).  A
player's own rank must not count a million rows, so ``rating_buckets`` keeps how many ratings on the board (not
provisional) of each board and kind have a score in each sixteenth of a point (:mod:`services.ratings.buckets`):
the rank is one more than the players in the buckets above the player's own (a sum over at most a few thousand
small rows) plus those ahead of it in its own bucket (an index range inside one bucket, counted from its nearer
end).  The buckets and the flags move in the transaction that moves a rating (:mod:`services.api.ratings.apply`),
so they never disagree.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, and_, false, func, or_, select

from services.api.ratings.watch import holds
from services.api.records.schema import player_ratings, players, rating_buckets
from services.ratings.buckets import bounds, bucket_of
from services.ratings.model import Rating, display

KINDS = ("person", "bot", "computer")
MAX_LIMIT = 100
ON_THE_BOARD = player_ratings.c.provisional == false()  # "= false", not "IS FALSE": an index can seek it


def top(connection: Connection, board: str, kind: str, limit: int) -> list[dict[str, Any]]:
    """The board's first ``limit`` players of ``kind``: rank, player, display rating and games."""
    query = (
        select(
            player_ratings.c.player_id,
            player_ratings.c.mu,
            player_ratings.c.sigma,
            player_ratings.c.games,
            players.c.name,
        )
        .join(players, players.c.id == player_ratings.c.player_id)
        .where(player_ratings.c.board == board, player_ratings.c.kind == kind, ON_THE_BOARD)
        .order_by(player_ratings.c.score.desc(), player_ratings.c.player_id)
        .limit(limit)
    )
    return [
        {
            "rank": rank,
            "player": {"id": row.player_id, "name": row.name, "kind": kind},
            "rating": display(Rating(row.mu, row.sigma)),
            "games": row.games,
        }
        for rank, row in enumerate(connection.execute(query), start=1)
    ]


def rank(connection: Connection, board: str, kind: str, player_id: str, score: float) -> int:
    """The rank of ``player_id`` (with ``score``, not provisional) on its board among players of ``kind`` (see the
    module doc).

    One statement (one snapshot): the players in the buckets above, the own bucket's count, and a count inside the
    own bucket from whichever end the score is nearer — the players ahead, or those behind taken from the
    bucket's count — so at most about half a bucket is read."""
    bucket = bucket_of(score)
    low, high = bounds(bucket)
    here = and_(player_ratings.c.board == board, player_ratings.c.kind == kind, ON_THE_BOARD)
    buckets = and_(rating_buckets.c.board == board, rating_buckets.c.kind == kind)
    above = select(func.coalesce(func.sum(rating_buckets.c.players), 0)).where(
        buckets, rating_buckets.c.bucket > bucket
    )
    count = select(func.coalesce(func.max(rating_buckets.c.players), 0)).where(
        buckets, rating_buckets.c.bucket == bucket
    )
    nearer_top = score - low >= (high - low) / 2
    if nearer_top:  # count those ahead: higher, or as high with a lower id
        inside = or_(
            player_ratings.c.score > score,
            and_(player_ratings.c.score == score, player_ratings.c.player_id < player_id),
        )
        counted = and_(here, player_ratings.c.score >= score, player_ratings.c.score < high, inside)
    else:  # count those behind: lower, or as high with a higher id
        inside = or_(
            player_ratings.c.score < score,
            and_(player_ratings.c.score == score, player_ratings.c.player_id > player_id),
        )
        counted = and_(here, player_ratings.c.score >= low, player_ratings.c.score <= score, inside)
    found = select(func.count()).select_from(player_ratings).where(counted)
    row = connection.execute(select(above.scalar_subquery(), count.scalar_subquery(), found.scalar_subquery())).one()
    in_bucket_ahead = int(row[2]) if nearer_top else int(row[1]) - 1 - int(row[2])
    return 1 + int(row[0]) + in_bucket_ahead


def own_place(connection: Connection, board: str, kind: str, player_id: str) -> dict[str, Any] | None:
    """The player's display rating on this board and kind, whether it is provisional and, when it is not, its
    rank; None when it has no rating there or its ratings are held (:func:`services.api.ratings.watch.holds`)."""
    return None if holds(connection, [player_id]) else _place(connection, board, kind, player_id)


def _place(connection: Connection, board: str, kind: str, player_id: str) -> dict[str, Any] | None:
    """:func:`own_place` of a player known not to be held."""
    query = select(player_ratings).where(
        player_ratings.c.player_id == player_id, player_ratings.c.board == board, player_ratings.c.kind == kind
    )
    row = connection.execute(query).first()
    if row is None:
        return None
    shown = display(Rating(row.mu, row.sigma))
    if row.provisional:
        return {"rating": shown, "provisional": True}
    return {"rank": rank(connection, board, kind, player_id, row.score), "rating": shown, "provisional": False}


def leaderboard(connection: Connection, board: str, kind: str, limit: int, me: str | None = None) -> dict[str, Any]:
    """The ``GET /v1/leaderboards/{board}`` body: the top ``limit`` and, for a player, its own place."""
    body: dict[str, Any] = {"board": board, "kind": kind, "top": top(connection, board, kind, limit)}
    if me is not None:
        hold = holds(connection, [me]).get(me)
        body["me"] = None if hold else _place(connection, board, kind, me)
        if hold is not None:  # why ``me`` is null: the player is told, as its profile tells it
            body["me_hold"] = hold
    return body
