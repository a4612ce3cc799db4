"""Ranks from the buckets agree with a plain count over every rating (ties to the lower id), on SQLite and
PostgreSQL; the top is in rank order; a player's standing shows its ratings, rank and stats."""

from __future__ import annotations

import random

from sqlalchemy import select

from services.api.ratings.apply import apply_record
from services.api.ratings.leaderboard import leaderboard, rank, top
from services.api.ratings.standing import standing
from services.api.records.schema import player_ratings, players, rating_buckets
from services.ratings.buckets import bucket_of
from services.ratings.model import Rating, display, ordinal

from .conftest import NOW, add_players, finished


def fill(engine, count: int, seed: int = 1) -> list[tuple[str, str, float]]:
    """``count`` players with ratings on the partnership board (some tied), buckets to match; (id, kind, score)."""
    rng = random.Random(seed)
    rows, people, buckets = [], [], {}
    for n in range(count):
        player, kind = f"p_{n:05d}", rng.choice(("person", "person", "bot"))
        mu, sigma = (25.0, 5.0) if n % 7 == 0 else (rng.gauss(25, 6), rng.uniform(1, 8))  # every 7th tied
        score = mu - 3 * sigma
        people.append({"id": player, "kind": kind, "name": player, "name_key": player, "created_ms": NOW})
        rows.append({"player_id": player, "board": "partnership", "kind": kind, "mu": mu, "sigma": sigma,
                     "score": score, "games": 1 + n % 30, "updated_ms": NOW})  # fmt: skip
        key = ("partnership", kind, bucket_of(score))
        buckets[key] = buckets.get(key, 0) + 1
    with engine.begin() as connection:
        connection.execute(players.insert(), people)
        connection.execute(player_ratings.insert(), rows)
        connection.execute(
            rating_buckets.insert(),
            [{"board": b, "kind": k, "bucket": n, "players": c} for (b, k, n), c in buckets.items()],
        )
    return [(r["player_id"], r["kind"], r["score"]) for r in rows]


def counted_rank(everyone: list[tuple[str, str, float]], player: str, kind: str, score: float) -> int:
    return 1 + sum(1 for p, k, s in everyone if k == kind and (s > score or (s == score and p < player)))


def test_ranks_from_buckets_agree_with_a_plain_count_and_the_top_is_in_rank_order(engine):
    everyone = fill(engine, 600)
    with engine.connect() as connection:
        for player, kind, score in random.Random(2).sample(everyone, 80) + everyone[:3]:
            assert rank(connection, "partnership", kind, player, score) == counted_rank(everyone, player, kind, score)
        best = top(connection, "partnership", "person", 40)
    people = sorted((p for p in everyone if p[1] == "person"), key=lambda p: (-p[2], p[0]))
    assert [entry["player"]["id"] for entry in best] == [p for p, _, _ in people[:40]]
    assert [entry["rank"] for entry in best] == list(range(1, 41))


def test_the_leaderboard_shows_a_players_own_place(engine):
    everyone = fill(engine, 50)
    player, kind, score = everyone[10]
    with engine.connect() as connection:
        body = leaderboard(connection, "partnership", kind, 5, player)
        assert body["me"]["rank"] == counted_rank(everyone, player, kind, score) and len(body["top"]) == 5
        assert leaderboard(connection, "individual", kind, 5, player) == {
            "board": "individual",
            "kind": kind,
            "top": [],
            "me": None,
        }


def test_a_players_standing_shows_its_rating_rank_and_stats(engine):
    add_players(engine, "p_a")
    document = finished("g1", ["p_a", "ai:hard", "ai:hard", "ai:hard"])
    apply_record(engine, document, NOW, NOW, computer_only=False)
    with engine.connect() as connection:
        shown = standing(connection, "p_a")
        row = connection.execute(select(player_ratings).where(player_ratings.c.player_id == "p_a")).one()
        assert standing(connection, "p_nobody") == {
            "ratings": {},
            "stats": {**{k: 0 for k in shown["stats"]}, "bags_per_round": 0.0},
        }
    rating = shown["ratings"]["partnership"]
    assert rating == {"rating": display(Rating(row.mu, row.sigma)), "mu": row.mu, "sigma": row.sigma, "games": 1,
                      "rank": 1}  # fmt: skip
    stats = shown["stats"]
    assert stats["games"] == 1 and stats["rounds"] == len(document["rounds"])
    assert stats["bags_per_round"] == round(stats["bags"] / stats["rounds"], 3)
    assert ordinal(Rating(row.mu, row.sigma)) == row.score
