"""The leaderboard at scale: ``python -m benchmarks.leaderboard`` (``--players 1000000`` by default).

Fills a throwaway PostgreSQL database (on ``TEST_POSTGRES_URL``'s server, or ``--server-url``) with
``--players`` players — nine in ten people, one in ten bots — each rated on the partnership board (and a
third of them on the individual board too), their ratings spread as a played-in population's are (``mu``
around 25, ``sigma`` from 1 to 8.3, 1 to 400 games), each flagged provisional by the rule of
:mod:`services.ratings.provisional` (about two in five), and ``rating_buckets`` counting the others, all inside
PostgreSQL (``generate_series``: no rows cross the wire).  Then, through the API's own functions on one
connection (:mod:`services.api.ratings.leaderboard`):

- **top 50** of the people's partnership board, ``--queries`` times;
- **own rank** (``own_place``: the rating row, the buckets above, the count inside its bucket) of
  ``--queries`` players on the board drawn at random (a provisional player's own place has no rank to count);

each timed alone, and prints JSON with p50, p99 and max in milliseconds.  ``--checks`` of the drawn players'
ranks are compared with a plain ``COUNT`` over the whole board (the slow way), and the top with a plain
``ORDER BY``: ``rank_mismatches`` must be 0.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import random
import statistics
import sys
import time
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, text

from services.api.ratings.leaderboard import own_place, top
from services.api.records.database import make_engine, migrate
from services.ratings.provisional import PROVISIONAL_GAMES, PROVISIONAL_SIGMA
from testkit.postgres import SHARED_URL, throwaway_database

BOARD, KIND = "partnership", "person"
NOW_MS = 1_796_000_000_000


def player_id(n: int) -> str:
    """The id of the ``n``-th player the fill makes (as SQL makes it: ``p_`` and 22 characters)."""
    return "p_" + hashlib.md5(str(n).encode()).hexdigest()[:22]


FILL = [
    # players: p_<22 chars>, a name each, one in ten a bot
    """INSERT INTO players (id, kind, name, name_key, token_hash, created_ms)
       SELECT 'p_' || left(md5(n::text), 22), CASE WHEN n % 10 = 0 THEN 'bot' ELSE 'person' END,
              'Player ' || n, 'player ' || n, NULL, :now
       FROM generate_series(1, :players) AS n""",
    # ratings: mu ~ N(25, 4) (Box-Muller), sigma 1..8.3, skewed towards the settled; provisional by the rule
    """INSERT INTO player_ratings (player_id, board, kind, mu, sigma, score, games, updated_ms, provisional)
       SELECT id, board, kind, mu, sigma, mu - 3 * sigma, games, :now, sigma > :sigma OR games < :games FROM (
         SELECT 'p_' || left(md5(n::text), 22) AS id, b.board,
                CASE WHEN n % 10 = 0 THEN 'bot' ELSE 'person' END AS kind,
                25 + 4 * sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()) AS mu,
                1 + 7.33 * power(random(), 2) AS sigma,
                1 + floor(random() * 400)::int AS games
         FROM generate_series(1, :players) AS n
         CROSS JOIN (VALUES ('partnership'), ('individual')) AS b(board)
         WHERE b.board = 'partnership' OR n % 3 = 0
       ) AS rated""",
    """INSERT INTO rating_buckets (board, kind, bucket, players)
       SELECT board, kind, floor(score * 16)::int, count(*) FROM player_ratings WHERE NOT provisional
       GROUP BY 1, 2, 3""",
]


def fill(connection: Connection, players: int, seed: float) -> dict[str, float]:
    """The players, their ratings and the buckets; seconds each step took."""
    connection.execute(text("SELECT setseed(:seed)"), {"seed": seed})
    taken: dict[str, float] = {}
    for name, statement in zip(("players", "ratings", "buckets"), FILL, strict=True):
        started = time.perf_counter()
        rule = {"sigma": PROVISIONAL_SIGMA, "games": PROVISIONAL_GAMES}
        connection.execute(text(statement), {"players": players, "now": NOW_MS, **rule})
        taken[name] = round(time.perf_counter() - started, 2)
    return taken


def percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "queries": len(ordered),
        "p50_ms": round(statistics.median(ordered) * 1000, 3),
        "p99_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000, 3),
        "max_ms": round(ordered[-1] * 1000, 3),
    }


def timed(calls: list[Any], call: Any) -> list[float]:
    times = []
    for argument in calls:
        started = time.perf_counter()
        call(argument)
        times.append(time.perf_counter() - started)
    return times


def counted_rank(connection: Connection, player: str) -> int:
    """The rank the slow way: everyone on the board ahead of the player, counted."""
    query = text(
        """SELECT 1 + count(*) FROM player_ratings o, player_ratings me
           WHERE me.player_id = :player AND me.board = :board AND o.board = me.board AND o.kind = me.kind
             AND NOT o.provisional
             AND (o.score > me.score OR (o.score = me.score AND o.player_id < me.player_id))"""
    )
    return int(connection.execute(query, {"player": player, "board": BOARD}).scalar_one())


def run(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    with throwaway_database(args.server_url, prefix="spades_leaderboard") as url:
        engine = make_engine(url.replace("postgresql://", "postgresql+psycopg://"))
        try:
            migrate(engine)
            with engine.begin() as connection:
                fill_seconds = fill(connection, args.players, rng.random())
            with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
                connection.execute(text("VACUUM ANALYZE"))  # as autovacuum leaves a table at rest
            with engine.connect() as connection:
                rated = int(connection.execute(text("SELECT count(*) FROM player_ratings")).scalar_one())
                counted = int(connection.execute(text("SELECT sum(players) FROM rating_buckets")).scalar_one())
                candidates = [player_id(rng.randint(1, args.players)) for _ in range(3 * args.queries)]
                kinds = dict(
                    connection.execute(
                        text(
                            "SELECT player_id, kind FROM player_ratings WHERE player_id = ANY(:ids) AND board = :b"
                            " AND NOT provisional"
                        ),
                        {"ids": candidates, "b": BOARD},
                    ).all()
                )
                drawn = [p for p in candidates if p in kinds][: args.queries]
                for _ in range(args.warmup):
                    top(connection, BOARD, KIND, 50)
                top_times = timed([None] * args.queries, lambda _: top(connection, BOARD, KIND, 50))
                rank_times = timed(drawn, lambda p: own_place(connection, BOARD, kinds[p], p))
                mismatches = 0
                for player in drawn[: args.checks]:
                    place = own_place(connection, BOARD, kinds[player], player)
                    mismatches += place is None or place["rank"] != counted_rank(connection, player)
                plain_top = (
                    connection.execute(
                        text(
                            "SELECT player_id FROM player_ratings WHERE board = :b AND kind = :k"
                            " AND NOT provisional ORDER BY score DESC, player_id LIMIT 50"
                        ),
                        {"b": BOARD, "k": KIND},
                    )
                    .scalars()
                    .all()
                )
                top_agrees = [entry["player"]["id"] for entry in top(connection, BOARD, KIND, 50)] == list(plain_top)
                buckets = int(connection.execute(text("SELECT count(*) FROM rating_buckets")).scalar_one())
                largest = int(connection.execute(text("SELECT max(players) FROM rating_buckets")).scalar_one())
                version = connection.execute(text("SHOW server_version")).scalar_one()
        finally:
            engine.dispose()
    return {
        "benchmark": "leaderboard",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "command": " ".join(["python -m benchmarks.leaderboard", *sys.argv[1:]]),
        "machine": {"cores": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version()},
        "postgres": version,
        "players": args.players,
        "rating_rows": rated,
        "on_the_boards": counted,
        "buckets": buckets,
        "largest_bucket": largest,
        "fill_seconds": fill_seconds,
        "top50": percentiles(top_times),
        "own_rank": percentiles(rank_times),
        "ranks_checked": min(args.checks, len(drawn)),
        "rank_mismatches": mismatches,
        "top_agrees": top_agrees,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1_000_000)
    parser.add_argument("--queries", type=int, default=1000, help="timed queries of each kind")
    parser.add_argument("--warmup", type=int, default=50, help="untimed top-50 queries first")
    parser.add_argument("--checks", type=int, default=20, help="own ranks compared with a plain COUNT")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--server-url", default=SHARED_URL, help="the PostgreSQL server (a database is made on it)")
    print(json.dumps(run(parser.parse_args(argv)), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
