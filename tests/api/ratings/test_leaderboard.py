"""Ranks from the buckets agree with a plain count over every rating on the board (ties to the lower id), on SQLite
and PostgreSQL; the top is in rank order; provisional ratings are on no board and in nobody's rank; a player's
standing shows its ratings, whether each is provisional, its rank when it is not, and its stats."""

from __future__ import annotations

import random

from sqlalchemy import select

from services.api.ratings.apply import apply_record
from services.api.ratings.leaderboard import leaderboard, rank, top
from services.api.ratings.standing import standing
from services.api.records.schema import player_ratings, players, rating_buckets
from services.ratings.buckets import bucket_of
from services.ratings.model import Rating, display, ordinal
from services.ratings.provisional import PROVISIONAL_GAMES, PROVISIONAL_SIGMA, provisional

from .conftest import NOW, add_players, buckets_agree, finished, seasoned


def fill(engine, count: int, seed: int = 1) -> list[tuple[str, str, float, bool]]:
    """``count`` players with ratings on the partnership board (some tied, about a third provisional), buckets to
    match; (id, kind, score, provisional)."""
    rng = random.Random(seed)
    rows, people, buckets = [], [], {}
    for n in range(count):
        player, kind = f"p_{n:05d}", rng.choice(("person", "person", "bot"))
        mu, sigma = (25.0, 3.0) if n % 7 == 0 else (rng.gauss(25, 6), rng.uniform(1, 5))  # every 7th tied
        score, games = mu - 3 * sigma, 20 + n % 40
        flag = provisional(Rating(mu, sigma), games)
        people.append({"id": player, "kind": kind, "name": player, "name_key": player, "created_ms": NOW})
        rows.append({"player_id": player, "board": "partnership", "kind": kind, "mu": mu, "sigma": sigma,
                     "score": score, "games": games, "provisional": flag, "updated_ms": NOW})  # fmt: skip
        if not flag:
            key = ("partnership", kind, bucket_of(score))
            buckets[key] = buckets.get(key, 0) + 1
    with engine.begin() as connection:
        connection.execute(players.insert(), people)
        connection.execute(player_ratings.insert(), rows)
        connection.execute(
            rating_buckets.insert(),
            [{"board": b, "kind": k, "bucket": n, "players": c} for (b, k, n), c in buckets.items()],
        )
    return [(r["player_id"], r["kind"], r["score"], r["provisional"]) for r in rows]


def counted_rank(everyone: list[tuple[str, str, float, bool]], player: str, kind: str, score: float) -> int:
    """The rank by a plain count: the players of the kind on the board ahead of this score."""
    ahead = [p for p, k, s, flag in everyone if k == kind and not flag and (s > score or (s == score and p < player))]
    return 1 + len(ahead)


def test_ranks_from_buckets_agree_with_a_plain_count_and_the_top_is_in_rank_order(engine):
    everyone = fill(engine, 600)
    ranked = [entry for entry in everyone if not entry[3]]
    assert 100 < len(ranked) < 500
    with engine.connect() as connection:
        for player, kind, score, _ in random.Random(2).sample(ranked, 80) + ranked[:3]:
            assert rank(connection, "partnership", kind, player, score) == counted_rank(everyone, player, kind, score)
        best = top(connection, "partnership", "person", 40)
    people = sorted((p for p in ranked if p[1] == "person"), key=lambda p: (-p[2], p[0]))
    assert [entry["player"]["id"] for entry in best] == [p for p, _, _, _ in people[:40]]
    assert [entry["rank"] for entry in best] == list(range(1, 41))


def test_the_leaderboard_shows_a_players_own_place(engine):
    everyone = fill(engine, 50)
    player, kind, score, _ = next(entry for entry in everyone[10:] if not entry[3])
    with engine.connect() as connection:
        body = leaderboard(connection, "partnership", kind, 5, player)
        assert body["me"]["rank"] == counted_rank(everyone, player, kind, score) and len(body["top"]) == 5
        assert body["me"]["provisional"] is False
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
            "rating_hold": None,
            "stats": {**{k: 0 for k in shown["stats"]}, "bags_per_round": 0.0},
            "accuracy": {
                "games": 0,
                "decisions": 0,
                "accurate_share": None,
                "mean_given_away": None,
                "true_cards": 0,
                "true_agreement": None,
            },
        }
    rating = shown["ratings"]["partnership"]  # one game: provisional, so no rank
    assert rating == {"rating": display(Rating(row.mu, row.sigma)), "mu": row.mu, "sigma": row.sigma, "games": 1,
                      "provisional": True}  # fmt: skip
    stats = shown["stats"]
    assert stats["games"] == 1 and stats["rounds"] == len(document["rounds"])
    assert stats["bags_per_round"] == round(stats["bags"] / stats["rounds"], 3)
    assert ordinal(Rating(row.mu, row.sigma)) == row.score


def test_a_provisional_player_is_off_the_board_and_in_nobodys_rank(engine):
    """The best score on the board is provisional (too few games), another too unsure: the top and every rank
    go on without them, and their own place and standing say so, with no rank."""
    seasoned(engine, "p_lucky", "partnership", "person", PROVISIONAL_GAMES - 1, mu=45.0, sigma=2.0)
    seasoned(engine, "p_unsure", "partnership", "person", 200, mu=50.0, sigma=PROVISIONAL_SIGMA + 0.5)
    seasoned(engine, "p_first", "partnership", "person", PROVISIONAL_GAMES, mu=40.0, sigma=PROVISIONAL_SIGMA)
    seasoned(engine, "p_second", "partnership", "person", 80, mu=30.0, sigma=2.0)
    assert buckets_agree(engine)
    with engine.connect() as connection:
        body = leaderboard(connection, "partnership", "person", 10, "p_lucky")
        assert [entry["player"]["id"] for entry in body["top"]] == ["p_first", "p_second"]
        assert [entry["rank"] for entry in body["top"]] == [1, 2]
        assert body["me"] == {"rating": display(Rating(45.0, 2.0)), "provisional": True}
        assert leaderboard(connection, "partnership", "person", 10, "p_second")["me"] == {
            "rank": 2,
            "rating": display(Rating(30.0, 2.0)),
            "provisional": False,
        }
        assert rank(connection, "partnership", "person", "p_second", ordinal(Rating(30.0, 2.0))) == 2
        unsure = standing(connection, "p_unsure")["ratings"]["partnership"]
        first = standing(connection, "p_first")["ratings"]["partnership"]
    assert unsure["provisional"] is True and "rank" not in unsure
    assert first["provisional"] is False and first["rank"] == 1


def test_a_players_accuracy_pools_its_scored_games(tmp_path) -> None:
    from services.api.ratings.standing import accuracy_of
    from services.api.records.database import make_engine, migrate
    from services.api.records.schema import game_accuracy, players

    engine = make_engine(f"sqlite:///{tmp_path / 'acc.db'}", 1)
    migrate(engine)
    with engine.begin() as connection:
        connection.execute(players.insert().values(id="p_acc", kind="person", name="Acc", created_ms=1))
        row = {"player_id": "p_acc", "seat": 0, "scored_ms": 1, "cards": 0, "trick_excess": 0.0}
        connection.execute(game_accuracy.insert(), [
            {**row, "game_id": "g1", "decisions": 10, "accurate": 9, "given_away": 10.0, "true_cards": 6, "true_agreed": 4},
            {**row, "game_id": "g2", "decisions": 30, "accurate": 21, "given_away": 70.0, "true_cards": 14, "true_agreed": 10},
        ])  # fmt: skip
        assert accuracy_of(connection, "p_acc") == {
            "games": 2, "decisions": 40, "accurate_share": 0.75, "mean_given_away": 2.0, "true_cards": 20,
            "true_agreement": 0.7,
        }  # fmt: skip
