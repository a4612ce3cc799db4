"""Exactly once, through crashes: the API process that applies finished games to their players is killed
(SIGKILL: no cleanup) at each point between its writes — the record saved and the ratings not yet applied;
the ratings written and not yet committed; committed and the game's outbox entry not yet gone — and gunicorn
starts a new worker in its place.  Every game still ends up counted once: one guard row, one player game per
player, each level's games in its stats and its rating equal to the games it played.  The players start a game
or two short of leaving provisional, so the buckets take them in during the crashes, and still count exactly the
ratings on the boards.

The crashes are the test setting ``TEST_CRASH_AT`` (:mod:`services.api.records.crash_points`): the first worker
to reach each named point kills itself there.  The games are finished and put into the test's own Redis as the
API stores them: half of one person (made with ``POST /v1/players``) against three computers, half of computers
alone (``RATE_COMPUTER_ONLY_GAMES`` on), so every one is rated."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest
import redis
import requests
from sqlalchemy import func, select

from services.api.games.record import FairPlay, GameOptions, GameRecord, PlayerRef, Seat
from services.api.records.database import make_engine
from services.api.records.schema import game_ratings, game_records, player_games, player_ratings, player_stats
from services.api.store.redis_record_outbox import OUTBOX_SETS
from services.api.store.redis_store import RedisStore
from services.computers import LEVEL_NAMES
from services.engine import make_rules, new_game
from services.ratings.provisional import PROVISIONAL_GAMES

from ..helpers import wait_until
from ..records.conftest import played
from .conftest import buckets_agree, seasoned

pytestmark = pytest.mark.integration
POINTS = ("record_saved", "ratings_written", "ratings_applied")
GAMES = 12


@pytest.fixture(params=["sqlite", "postgresql"])
def records_db(request, tmp_path) -> Iterator[tuple[dict[str, str], str]]:
    """The server settings naming a records database, and its SQLAlchemy URL for the test's own checks."""
    if request.param == "sqlite":
        yield {"DATA_DIR": str(tmp_path)}, f"sqlite:///{tmp_path}/records.sqlite3"
    else:
        from testkit.postgres import throwaway_database

        with throwaway_database() as url:
            yield {"RECORDS_DATABASE_URL": url}, url.replace("postgresql://", "postgresql+psycopg://")


def finished_games(url: str, people: list[PlayerRef]) -> dict[str, list[str]]:
    """``GAMES`` finished games put into Redis with their outbox entries due: the even ones of a person (in turn)
    against three computers, the odd ones of computers alone; each game's players."""
    store = RedisStore(GameRecord.from_stored, redis.Redis.from_url(url), ttl_seconds=3600, idem_ttl=60)
    rng = random.Random(5)
    players: dict[str, list[str]] = {}
    for n in range(GAMES):
        seats = [Seat("ai", rng.choice(LEVEL_NAMES)) for _ in range(4)]
        if n % 2 == 0:
            seats[n % 4] = Seat.taken(f"hash-{n}", people[n // 2 % len(people)])
        state = played(new_game(make_rules("partnership", win_score=100), n), random.Random(n))
        record = GameRecord(f"g{n}", 9, seats, "", GameOptions.from_json({"hints": True}), started=True)
        record.created_ms, record.changed_ms = 1_796_000_000_000 + n, 1_796_000_600_000 + n
        record.fair = FairPlay() if n % 2 == 0 else None  # a person's game made to count (short for speed)
        assert store.commit(record.with_state(state), None, [])
        store.schedule_record(record.game_id, 0)
        players[record.game_id] = [seat.player_id or f"computer-{seat.level}" for seat in seats]
    return players


def test_each_game_counts_once_though_the_process_applying_it_is_killed_between_its_writes(
    gunicorn_factory, private_redis_url, records_db, tmp_path
):
    env, url = records_db
    marks = tmp_path / "crashes"
    marks.mkdir()
    settings = {
        "AI_ENABLED": "0",
        "RATE_COMPUTER_ONLY_GAMES": "1",
        "RECORDS_DRAIN_INTERVAL_SECONDS": "0.1",
        "RECORDS_RETRY_SECONDS": "1",
        "TEST_CRASH_AT": ",".join(POINTS),
        "TEST_CRASH_MARKS": str(marks),
        **env,
    }
    client = redis.Redis.from_url(private_redis_url)
    people = []
    maker = {**settings, "TEST_CRASH_AT": "", "RECORDS_WRITER_ENABLED": "0"}  # a server that only makes the players
    base = gunicorn_factory(maker, redis=private_redis_url, workers=1)
    for name in ("Ada", "Grace", "Linus"):
        made = requests.post(f"{base}/v1/players", json={"name": name}, timeout=10)
        assert made.status_code == 201, made.text
        player = made.json()["player"]
        people.append(PlayerRef(player["id"], player["name"], player["kind"]))
    engine = make_engine(url)  # migrated by the server that made the players
    seeded = {f"computer-{level}": PROVISIONAL_GAMES - 2 for level in LEVEL_NAMES} | {
        p.id: PROVISIONAL_GAMES - 1 for p in people
    }
    for player, games in seeded.items():
        kind = "computer" if player.startswith("computer-") else "person"
        seasoned(engine, player, "partnership", kind, games, sigma=2.0)
    players = finished_games(private_redis_url, people)
    base = gunicorn_factory(settings, redis=private_redis_url)
    wait_until(lambda: sum(client.zcard(key) for key in OUTBOX_SETS) == 0, "the outbox did not drain", bound=120)
    assert sorted(path.name for path in marks.iterdir()) == sorted(POINTS)  # a worker died at each point
    try:
        with engine.connect() as connection:

            def count(table) -> int:
                return connection.execute(select(func.count()).select_from(table)).scalar_one()

            assert count(game_records) == count(game_ratings) == GAMES
            assert connection.execute(select(func.count()).where(game_ratings.c.rated)).scalar_one() == GAMES
            played_in = Counter(player for seats in players.values() for player in set(seats))
            assert count(player_games) == sum(played_in.values())
            stats = {row.player_id: row.games for row in connection.execute(select(player_stats))}
            ratings = {row.player_id: row.games for row in connection.execute(select(player_ratings))}
            assert stats == dict(played_in) and ratings == dict(Counter(seeded) + played_in)
            on_board = {row.player_id for row in connection.execute(select(player_ratings)) if not row.provisional}
            assert on_board == {p for p, games in ratings.items() if games >= PROVISIONAL_GAMES} != set()
        assert buckets_agree(engine)
    finally:
        engine.dispose()
    for person in people:
        shown = requests.get(f"{base}/v1/players/{person.id}", timeout=10).json()
        assert shown["stats"]["games"] == played_in[person.id] > 0
        assert shown["ratings"]["partnership"]["games"] == seeded[person.id] + played_in[person.id]
