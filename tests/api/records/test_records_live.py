"""Records on real processes: gunicorn, a Redis of the test's own, and each database (SQLite, the embedded
default; PostgreSQL, a throwaway database of the session, or a private server a test stops).

Shown here: a finished game's record read back after its Redis copy expired and after Redis was flushed; an
abandoned game's record never listed, exported or read while any key of the game is in Redis, and shown once
none is; the database down at the game's end and back later (the record arrives, and only then may the game
expire); a record written twice stored once; a 1,000-record NDJSON export, each line valid against the spec,
streamed in bounded memory, in parts of at most EXPORT_MAX_RECORDS each linked to the next."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import redis
import requests
from prometheus_client.parser import text_string_to_metric_families
from redis.cluster import RedisCluster
from sqlalchemy import func, select

from services.api.records.content import build
from services.api.records.database import make_engine, migrate
from services.api.records.repository import STREAM_BATCH, RecordRepository
from services.api.records.schema import game_records
from services.api.store.redis_record_outbox import outbox_set
from services.engine import make_rules, new_game
from testkit.http_clients import planned_moves
from testkit.postgres import private_postgres
from testkit.processes import free_port

from ..contract import ContractSession
from ..helpers import wait_until
from .conftest import stored_game
from .spec import validator

pytestmark = pytest.mark.integration
SEED = 11
RULES = {"preset": "partnership", "win_score": 1}  # over after a round or two


@pytest.fixture(params=["sqlite", "postgresql"])
def records_db(request, tmp_path) -> Iterator[tuple[dict[str, str], str]]:
    """The server settings naming a records database, and its SQLAlchemy URL for the test's own checks."""
    if request.param == "sqlite":
        yield {"DATA_DIR": str(tmp_path)}, f"sqlite:///{tmp_path}/records.sqlite3"
    else:
        url = request.getfixturevalue("postgres_records_url")
        yield {"RECORDS_DATABASE_URL": url}, url.replace("postgresql://", "postgresql+psycopg://")


def server_env(**extra: str) -> dict[str, str]:
    return {
        "AI_ENABLED": "0",
        "RECORDS_DRAIN_INTERVAL_SECONDS": "0.2",
        "RECORDS_RETRY_SECONDS": "1",
        **extra,
    }


def play_until_one_move_is_left(session: ContractSession) -> tuple[str, tuple]:
    """A four-person game played to its last move; its id and that move (path, body, headers)."""
    # no clock: a clock's commits (a turn run out, time given back after a late heartbeat on a busy machine) would
    # move the game on by themselves; this game changes only by its moves
    body = {"seats": [{"type": "human"}] * 4, "seed": SEED, "rules": RULES, "options": {"clock": "none"}}
    created = session.post("/v1/games", json=body).json()
    tokens = [seat["token"] for seat in created["seats"]]
    overrides = {k: v for k, v in RULES.items() if k != "preset"}
    plan = planned_moves(created["game_id"], tokens, new_game(make_rules("partnership", **overrides), SEED))
    while len(plan) > 1:
        path, body, headers = plan.popleft()
        response = session.post(path, data=body, headers={**headers, "Content-Type": "application/json"})
        assert response.status_code == 200, response.text
    return created["game_id"], plan.popleft()


def last_move(session: ContractSession, move: tuple) -> None:
    path, body, headers = move
    response = session.post(path, data=body, headers={**headers, "Content-Type": "application/json"})
    assert response.status_code == 200 and response.json()["phase"] == "game_over", response.text


def rows_of(url: str, game_id: str) -> int:
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            query = select(func.count()).select_from(game_records).where(game_records.c.game_id == game_id)
            return int(connection.execute(query).scalar_one())
    finally:
        engine.dispose()


def test_a_record_is_read_back_after_its_redis_copy_expired_and_after_a_flush(
    gunicorn_factory, private_redis_url, records_db
):
    env, url = records_db
    base = gunicorn_factory(server_env(FINISHED_GAME_TTL_SECONDS="2", **env), redis=private_redis_url)
    session = ContractSession(base)
    game_id, move = play_until_one_move_is_left(session)
    assert session.get(f"/v1/games/{game_id}/record").status_code == 409  # game_in_play
    last_move(session, move)
    client = redis.Redis.from_url(private_redis_url)
    wait_until(lambda: rows_of(url, game_id) == 1, "the record was not written")
    wait_until(lambda: not client.exists(f"game:{{{game_id}}}"), "the finished game did not expire")
    record = session.get(f"/v1/games/{game_id}/record")
    assert record.status_code == 200
    document = record.json()
    validator("GameRecordDocument").validate(document)
    assert document["outcome"] == "finished" and document["game_id"] == game_id and document["rounds"]
    assert document["rules"]["win_score"] == 1 and "token" not in record.text
    client.flushdb()  # the test's own Redis
    assert session.get(f"/v1/games/{game_id}/record").json() == document
    listed = session.get("/v1/records", params={"limit": 5}).json()
    assert game_id in [summary["game_id"] for summary in listed["records"]]
    assert session.get("/v1/games/no-such-game/record").status_code == 404


def test_a_record_written_twice_is_stored_once(gunicorn_factory, private_redis_url, records_db):
    env, url = records_db
    base = gunicorn_factory(server_env(**env), redis=private_redis_url)
    session = ContractSession(base)
    game_id, move = play_until_one_move_is_left(session)
    last_move(session, move)
    client = redis.Redis.from_url(private_redis_url)
    wait_until(lambda: client.ttl(f"game:{{{game_id}}}") > 0, "the record was not written")
    first = session.get(f"/v1/games/{game_id}/record").json()
    client.zadd(outbox_set(game_id), {game_id: 0})  # due again, as after a writer lost its reply
    wait_until(lambda: client.zscore(outbox_set(game_id), game_id) is None, "the second write did not happen")
    assert rows_of(url, game_id) == 1
    assert session.get(f"/v1/games/{game_id}/record").json() == first


def metric(base: str, name: str) -> float:
    text = requests.get(f"{base}/metrics", timeout=10).text
    return sum(s.value for family in text_string_to_metric_families(text) for s in family.samples if s.name == name)


def test_the_database_down_at_the_end_the_record_arrives_when_it_returns_and_only_then_may_it_expire(
    gunicorn_factory, private_redis_url
):
    with private_postgres(free_port()) as database:
        url = database.url.replace("postgresql://", "postgresql+psycopg://")
        base = gunicorn_factory(
            server_env(RECORDS_DATABASE_URL=database.url, FINISHED_GAME_TTL_SECONDS="2"), redis=private_redis_url
        )
        session = ContractSession(base)
        game_id, move = play_until_one_move_is_left(session)
        client = redis.Redis.from_url(private_redis_url)
        database.stop()
        last_move(session, move)  # the move path does not touch the database
        wait_until(lambda: metric(base, "spades_record_write_failures_total") >= 2, "no write was tried")
        assert client.ttl(f"game:{{{game_id}}}") == -1  # no expiry while its record is not written
        served = session.get(f"/v1/games/{game_id}/record")  # Redis answers for the database meanwhile
        assert served.status_code == 200 and served.json()["outcome"] == "finished"
        database.start()
        wait_until(lambda: client.ttl(f"game:{{{game_id}}}") != -1, "the game never got its expiry back")
        assert rows_of(url, game_id) == 1  # written before the expiry was given back
        wait_until(lambda: not client.exists(f"game:{{{game_id}}}"), "the finished game did not expire")
        stored = session.get(f"/v1/games/{game_id}/record").json()
        assert stored.pop("players") == [None, None, None, None]  # names are read from the database, once it is up
        assert stored == served.json()


EXPORTED = 1000
ENDED_FROM = 4_000_000_000_000  # far ahead of any real record: the export's own range


def fill(url: str) -> list[dict]:
    """1,000 records of real finished games (five games' records under 200 ids each); their documents."""
    engine = make_engine(url)
    migrate(engine)
    repository = RecordRepository(engine)
    games = [stored_game(f"export-seed-{seed}", seed=seed) for seed in range(5)]
    documents = []
    for n in range(EXPORTED):
        document = {**build(games[n % 5]), "game_id": f"export-{n:04d}-{url[:5]}"}
        repository.save(document, ENDED_FROM, ENDED_FROM + n)
        documents.append(document)
    engine.dispose()
    return documents


def test_an_export_of_1000_records_streams_valid_ndjson_in_parts_each_linked_to_the_next(
    gunicorn_factory, private_redis_url, records_db
):
    env, url = records_db
    stored = fill(url)
    base = gunicorn_factory(server_env(EXPORT_MAX_RECORDS="400", **env), redis=private_redis_url)
    since = "2096-10-02T07:06:40Z"  # ENDED_FROM
    path, parts, links = f"/v1/records?since={since}", [], []
    while path:
        with requests.get(
            f"{base}{path}", headers={"Accept": "application/x-ndjson"}, stream=True, timeout=60
        ) as response:
            assert response.status_code == 200 and response.headers["Content-Type"] == "application/x-ndjson"
            parts.append([json.loads(line) for line in response.iter_lines() if line])
        links.append(response.headers.get("Link"))
        path = response.links.get("next", {}).get("url")
    assert [len(part) for part in parts] == [400, 400, 200]  # EXPORT_MAX_RECORDS each, the rest in the last
    assert links[0].endswith('>; rel="next"') and "cursor=" in links[0] and links[-1] is None
    exported = [document for part in parts for document in part]
    # every record once, the latest first, each line the very document stored; the spec's schema checked on
    # each of the five distinct documents (the 1,000 differ from them only in their ids, all of one form)
    assert exported == stored[::-1]
    check = validator("GameRecordDocument")
    for document in exported[:5]:
        check.validate(document)


# Run in a process of its own: tracemalloc's peak counts every thread of the process, and a pytest process
# holds the background threads (sweepers, readers) of every app the tests before this one made.
ROOT = Path(__file__).resolve().parents[3]
EXPORT_PEAK = """
import json, sys, tracemalloc
from services.api.app import create_app
app = create_app(json.loads(sys.argv[1])).test_client()
tracemalloc.start()
response = app.get("/v1/records?format=ndjson&since=2096-10-02T07:06:40Z", buffered=False)
sent, largest = 0, 0
for chunk in response.response:
    sent, largest = sent + len(chunk), max(largest, len(chunk))
_, peak = tracemalloc.get_traced_memory()
print(json.dumps({"sent": sent, "largest": largest, "peak": peak}))
"""


def test_an_export_streams_in_bounded_memory(records_db, private_redis_url):
    """Measured in a process of its own (tracemalloc) while the whole export is read: the peak is what one
    batch of records costs (its rows, their bytes, the line being sent), not what the export sends."""
    env, url = records_db
    fill(url)
    config = {
        "REDIS_URL": private_redis_url,
        "AI_ENABLED": False,
        "RATE_LIMIT_ENABLED": False,
        "RECORDS_WRITER_ENABLED": False,
        "LOBBY_SWEEPER_ENABLED": False,
        **env,
    }
    run = subprocess.run(
        [sys.executable, "-c", EXPORT_PEAK, json.dumps(config)], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr
    measured = json.loads(run.stdout.strip().splitlines()[-1])
    sent, peak = measured["sent"], measured["peak"]
    batch = 3 * STREAM_BATCH * measured["largest"] + 512 * 1024  # a batch's rows, their bytes, a line; the request's
    print(f"export: {sent} bytes sent, {peak} bytes peak, bound {batch}")
    assert sent > 4_500_000
    assert peak < batch < sent / 2


# GAME_TTL_SECONDS of the abandonment tests: recorded (hidden) 5 s before the game expires, time enough for a
# move after that on a busy machine
ABANDONED_TTL = "10"


def live_keys(client: redis.Redis | RedisCluster, game_id: str) -> list[bytes]:
    """Every key the game still has in Redis (on a cluster, on every master)."""
    return list(client.scan_iter(match=f"game:{{{game_id}}}*"))


def abandoned_game_is_shown_only_once_its_keys_are_gone(
    base: str, client: redis.Redis | RedisCluster, url: str
) -> None:
    """A game played a little, left, played on after it was recorded as abandoned, then left for good: through
    its whole life the listing, the export and ``/record`` never show it while Redis holds any key of it, and
    they show its record (of the later move) once none is left."""
    session = ContractSession(base)
    now = datetime.now(UTC)  # the listing's window: this game's time, not the far future the export tests fill
    window = {"since": (now - timedelta(seconds=5)).isoformat(), "until": (now + timedelta(hours=1)).isoformat()}
    # no clock: a clock's commits (a turn run out, time given back after a late heartbeat on a busy machine) would
    # move the game on by themselves; this game changes only by its moves
    body = {"seats": [{"type": "human"}] * 4, "seed": SEED, "rules": RULES, "options": {"clock": "none"}}
    created = session.post("/v1/games", json=body).json()
    game_id = created["game_id"]
    tokens = [seat["token"] for seat in created["seats"]]
    overrides = {k: v for k, v in RULES.items() if k != "preset"}
    plan = planned_moves(game_id, tokens, new_game(make_rules("partnership", **overrides), SEED))

    def move() -> int:
        path, body, headers = plan.popleft()
        response = session.post(path, data=body, headers={**headers, "Content-Type": "application/json"})
        assert response.status_code == 200, response.text
        return response.json()["version"]

    def shown() -> bool:
        """Whether the listing, the export and /record all show the game; never any of them while it is live."""
        page = session.get("/v1/records", params={**window, "limit": 200}).json()["records"]
        exported = requests.get(f"{base}/v1/records", params={**window, "format": "ndjson"}, timeout=10)
        assert exported.status_code == 200  # (plain requests: the contract check takes no empty body)
        lines = [json.loads(line) for line in exported.text.splitlines() if line]
        found = (
            game_id in [summary["game_id"] for summary in page],
            game_id in [document["game_id"] for document in lines],
            session.get(f"/v1/games/{game_id}/record").status_code,
        )
        left = live_keys(client, game_id)  # after the reads: keys that exist now existed during them
        assert not left or found == (False, False, 409), f"a live game shown: {found}, its keys {left}"
        return found == (True, True, 200)

    move()
    engine = make_engine(url)  # one pool for the polls: a connection each would slow them down

    def recorded() -> bool:
        count = select(func.count()).select_from(game_records).where(game_records.c.game_id == game_id)
        with engine.connect() as connection:
            return connection.execute(count).scalar_one() == 1

    try:
        wait_until(lambda: not shown() and recorded(), "the abandoned game was never recorded")
    finally:
        engine.dispose()
    version = move()  # played on after its abandonment was recorded: the move wins
    wait_until(shown, "the abandoned game's record never appeared once the game was gone")
    assert live_keys(client, game_id) == []
    record = session.get(f"/v1/games/{game_id}/record").json()
    assert record["outcome"] == "abandoned" and record["version"] == version
    validator("GameRecordDocument").validate(record)
    assert session.post(f"/v1/games/{game_id}/seats/0/claim").status_code == 404  # nothing left to take


def test_an_abandoned_game_is_listed_exported_and_recorded_only_once_its_keys_are_gone(
    gunicorn_factory, private_redis_url, records_db
):
    env, url = records_db
    base = gunicorn_factory(server_env(GAME_TTL_SECONDS=ABANDONED_TTL, **env), redis=private_redis_url)
    abandoned_game_is_shown_only_once_its_keys_are_gone(base, redis.Redis.from_url(private_redis_url), url)
