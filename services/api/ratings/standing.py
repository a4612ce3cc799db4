"""A player's standing, as ``GET /v1/players/{id}`` shows it: a rating per board it has played rated games on
(the display rating, the model's ``mu`` and ``sigma``, its rated games, whether it is provisional and, when it
is not, its rank among its kind), what its finished games add up to, and its accuracy in its scored rated games.

A player held by the fair-play watch (:func:`services.api.ratings.watch.holds`: a flag open or confirmed) shows
no rating, only the hold: a rating a ring took before its flag is never shown, nor a confirmed player's."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Engine, func, select

from services.api.ratings.leaderboard import rank
from services.api.ratings.watch import holds
from services.api.records.schema import game_accuracy, player_ratings, player_stats
from services.ratings.accuracy import Accuracy
from services.ratings.model import DISPLAY_BASE, Rating, display
from services.ratings.stats import FIELDS


def standing(connection: Connection, player_id: str) -> dict[str, Any]:
    """``{"ratings": {board: Rating}, "rating_hold": str | None, "stats": Stats, "accuracy": Accuracy}`` of the
    player (no games yet: no ratings, zero stats, no accuracy figures; held: no ratings)."""
    ratings: dict[str, Any] = {}
    hold = holds(connection, [player_id]).get(player_id)
    query = select(player_ratings).where(player_ratings.c.player_id == player_id).order_by(player_ratings.c.board)
    for row in connection.execute(query).all() if hold is None else ():
        rating = {
            "rating": display(Rating(row.mu, row.sigma)),
            "mu": row.mu,
            "sigma": row.sigma,
            "games": row.games,
            "provisional": bool(row.provisional),
        }
        if not row.provisional:  # a provisional rating is on no leaderboard
            rating["rank"] = rank(connection, row.board, row.kind, player_id, row.score)
        ratings[row.board] = rating
    found = connection.execute(select(player_stats).where(player_stats.c.player_id == player_id)).first()
    stats: dict[str, Any] = {name: (getattr(found, name) if found else 0) for name in FIELDS}
    stats["bags_per_round"] = round(stats["bags"] / stats["rounds"], 3) if stats["rounds"] else 0.0
    return {"ratings": ratings, "rating_hold": hold, "stats": stats, "accuracy": accuracy_of(connection, player_id)}


def accuracy_of(connection: Connection, player_id: str) -> dict[str, Any]:
    """The player's scored rated games, and their decisions pooled: the share accurate, the mean points given away,
    and the cards scored on the true deal with the share agreeing with it."""
    c = game_accuracy.c
    row = connection.execute(
        select(
            func.count(),
            func.coalesce(func.sum(c.decisions), 0),
            func.coalesce(func.sum(c.accurate), 0),
            func.coalesce(func.sum(c.given_away), 0.0),
            func.coalesce(func.sum(c.true_cards), 0),
            func.coalesce(func.sum(c.true_agreed), 0),
        ).where(c.player_id == player_id)
    ).one()
    pooled = Accuracy(int(row[1]), int(row[2]), float(row[3]), true_cards=int(row[4]), true_agreed=int(row[5]))
    shown = ("decisions", "accurate_share", "mean_given_away", "true_cards", "true_agreement")
    return {"games": int(row[0]), **{k: pooled.figures()[k] for k in shown}}


def entry_rating(engine: Engine | None, player_id: str, board: str) -> int:
    """The player's shown rating on ``board`` as an event seeds it and shows it in its standings (a new player,
    a held one, whose rating is shown nowhere, or no records database: the scale's base)."""
    if engine is None:
        return DISPLAY_BASE
    query = select(player_ratings.c.mu, player_ratings.c.sigma).where(
        player_ratings.c.player_id == player_id, player_ratings.c.board == board
    )
    with engine.connect() as connection:
        found = connection.execute(query).first()
        if found is None or holds(connection, [player_id]):
            return DISPLAY_BASE
    return display(Rating(found.mu, found.sigma))
