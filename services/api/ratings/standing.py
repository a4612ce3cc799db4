"""A player's standing: their rating on each board and what their finished games add up to.

What ``GET /v1/players/{id}`` shows beside the name (openapi.yaml ``Player.ratings`` and ``Player.stats``),
read from ``player_ratings`` and ``player_stats`` on the caller's connection.  A board the player has no
rated game on is left out; a player with no finished game has zero stats.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, select

from services.api.records.schema import player_ratings, player_stats
from services.ratings.model import Rating, display

STAT_COLUMNS = ("games", "wins", "rounds", "contracts_bid", "contracts_made", "sets", "nils_bid", "nils_made", "bags")


def standing(connection: Connection, player_id: str) -> dict[str, Any]:
    """``{"ratings": {board: {rating, mu, sigma, games}}, "stats": {...}}`` of ``player_id``."""
    ratings = {}
    query = select(player_ratings.c.board, player_ratings.c.mu, player_ratings.c.sigma, player_ratings.c.games)
    for row in connection.execute(query.where(player_ratings.c.player_id == player_id)):
        rating = Rating(row.mu, row.sigma)
        ratings[row.board] = {"rating": display(rating), "mu": row.mu, "sigma": row.sigma, "games": row.games}
    found = connection.execute(
        select(*(player_stats.c[name] for name in STAT_COLUMNS)).where(player_stats.c.player_id == player_id)
    ).first()
    stats: dict[str, Any] = {name: int(getattr(found, name)) if found else 0 for name in STAT_COLUMNS}
    stats["bags_per_round"] = round(stats["bags"] / stats["rounds"], 3) if stats["rounds"] else 0.0
    return {"ratings": ratings, "stats": stats}
