"""Players in the records database: what a player costs on disk, and how fast PostgreSQL makes and finds them:
``python -m benchmarks.players``.

On a private PostgreSQL (``fsync`` off, as :mod:`benchmarks.records`), migrated to the newest revision:

1. **Bytes per player**: ``--players`` rows as ``POST /v1/players`` stores them (an id, a name checked by
   :mod:`services.api.players.names` and its two keys, a token's SHA-256, a time), written in batches; then the
   ``players`` table with its indexes (the primary key, the unique name and shape keys, the unique token hash),
   per row.
2. **Players made per database core-second**: ``--threads`` threads calling
   :meth:`~services.api.players.repository.PlayerRepository.create` (the route's own call: the name's keys looked
   up, then the insert) for ``--seconds``; the players a second, the PostgreSQL processes' CPU, and their ratio.
3. **Token look-ups per database core-second**: the same threads calling ``by_token`` (what every request with a
   ``Player-Token`` costs) with tokens of players made in part 2.

Prints JSON.  Keep it to a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, insert, text

from benchmarks.records import postgres_cpu
from services.api.players.names import display_name
from services.api.players.repository import PlayerRepository
from services.api.players.tokens import hash_player_token, new_player_id, new_player_token
from services.api.records.database import make_engine, migrate
from services.api.records.schema import players
from testkit.postgres import private_postgres
from testkit.processes import free_port

BATCH = 5000
NOW_MS = 1_796_000_000_000


def name_of(n: int) -> str:
    """A 12-character name, as a typical one (unique per ``n``)."""
    return f"Player {n:06d}"


def bytes_per_player(engine: Engine, count: int) -> dict[str, Any]:
    for start in range(0, count, BATCH):
        rows = []
        for n in range(start, min(count, start + BATCH)):
            name = display_name(name_of(n))
            token_hash = hash_player_token(new_player_token())
            row = {
                "id": new_player_id(),
                "kind": "person",
                "name": name.text,
                "name_key": name.key,
                "shape_key": name.shape,
            }
            rows.append({**row, "token_hash": token_hash, "created_ms": NOW_MS + n})
        with engine.begin() as connection:
            connection.execute(insert(players), rows)
    with engine.begin() as connection:
        table = connection.execute(text("SELECT pg_table_size('players')")).scalar_one()
        indexes = connection.execute(text("SELECT pg_indexes_size('players')")).scalar_one()
    return {
        "players": count,
        "table_bytes_per_player": round(table / count),
        "index_bytes_per_player": round(indexes / count),
        "total_bytes_per_player": round((table + indexes) / count),
    }


def run_threads(threads: int, seconds: float, work: Callable[[int, int], None]) -> tuple[int, float]:
    """``work(thread, n)`` called by ``threads`` threads for ``seconds``; the calls made, and the time taken."""
    done = [0] * threads
    deadline = time.perf_counter() + seconds

    def loop(index: int) -> None:
        n = 0
        while time.perf_counter() < deadline:
            work(index, n)
            n += 1
        done[index] = n

    started = time.perf_counter()
    running = [threading.Thread(target=loop, args=(i,)) for i in range(threads)]
    for thread in running:
        thread.start()
    for thread in running:
        thread.join()
    return sum(done), time.perf_counter() - started


def rates(args: argparse.Namespace, engine: Engine, data_dir: str) -> dict[str, Any]:
    repository = PlayerRepository(engine)
    tokens: list[list[str]] = [[] for _ in range(args.threads)]

    def make(thread: int, n: int) -> None:
        _, token = repository.create(display_name(f"Made {thread:02d} {n:06d}"), "person")
        tokens[thread].append(token)

    cpu = postgres_cpu(data_dir)
    made, made_seconds = run_threads(args.threads, args.seconds, make)
    made_cpu = postgres_cpu(data_dir) - cpu

    def look_up(thread: int, n: int) -> None:
        mine = tokens[thread]
        assert repository.by_token(mine[n % len(mine)]) is not None

    cpu = postgres_cpu(data_dir)
    found, found_seconds = run_threads(args.threads, args.seconds, look_up)
    found_cpu = postgres_cpu(data_dir) - cpu
    return {
        "threads": args.threads,
        "players_made": made,
        "made_per_s": round(made / made_seconds, 1),
        "made_per_postgres_core_second": round(made / made_cpu, 1) if made_cpu else None,
        "token_lookups": found,
        "lookups_per_s": round(found / found_seconds, 1),
        "lookups_per_postgres_core_second": round(found / found_cpu, 1) if found_cpu else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200_000, help="rows written for the bytes per player")
    parser.add_argument("--threads", type=int, default=4, help="threads making players, then looking them up")
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each rate part")
    args = parser.parse_args(argv)
    out: dict[str, Any] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {"cores": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version()},
        "settings": vars(args),
    }
    with private_postgres(free_port()) as database:
        url = database.url.replace("postgresql://", "postgresql+psycopg://")
        engine = make_engine(url, pool_size=args.threads)
        migrate(engine)
        out["bytes"] = bytes_per_player(engine, args.players)
        out["rates"] = rates(args, engine, str(database.data_dir))
        engine.dispose()
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
