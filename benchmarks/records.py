"""Game records: what keeping them costs the move path, and how fast PostgreSQL takes them:
``python -m benchmarks.records``.

1. **The move path, with and without records**, side by side in one run: two gunicorn servers with the same
   settings on one private Redis, one with ``RECORDS_ENABLED=1`` (its records writer threads writing to a
   private PostgreSQL) and one with ``RECORDS_ENABLED=0``, measured in interleaved slices of whole games
   (bids and plays, :mod:`benchmarks.api`'s ``moves``): the servers' CPU per move, the writer's included.
2. **Records written per second per database core**: ``--writers`` threads saving records of real finished
   games (:meth:`~services.api.records.repository.RecordRepository.save`, the writer's own call) into the
   private PostgreSQL for ``--write-seconds``; the records a second, the PostgreSQL processes' CPU
   seconds, and their ratio; the bytes each record takes on disk (tables, indexes and TOAST).

Prints JSON.  Keep it to a quiet machine: both parts share its cores with the servers they measure.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import statistics
import tempfile
import threading
import time
from datetime import UTC, datetime
from typing import Any

import psutil
from sqlalchemy import text

from benchmarks.api import CpuMeter, measure
from services.api.games.record import GameOptions, GameRecord, Seat
from services.api.records.content import build
from services.api.records.database import make_engine, migrate
from services.api.records.repository import RecordRepository
from services.computers import basic_move
from services.engine import Bid, Play, apply, make_rules, new_game, parse_card, turn, view
from testkit.postgres import private_postgres
from testkit.processes import free_port, running, start_gunicorn, start_redis


def postgres_cpu(data_dir: str) -> float:
    """CPU seconds of the private PostgreSQL: its postmaster and every backend."""
    with open(f"{data_dir}/postmaster.pid") as pid_file:
        pid = int(pid_file.readline().strip())
    master = psutil.Process(pid)
    total = 0.0
    for process in [master, *master.children(recursive=True)]:
        with contextlib.suppress(psutil.NoSuchProcess):
            times = process.cpu_times()
            total += times.user + times.system + times.children_user + times.children_system
    return total


def finished_games(count: int) -> list[GameRecord]:
    """``count`` finished partnership games (to 500) as the store holds them, every seat playing basic's
    moves (sensible bids: games of a realistic length, where random bids end one at -200 in two rounds)."""
    games = []
    for seed in range(count):
        state = new_game(make_rules("partnership"), seed)
        while state.phase != "game_over":
            seat = turn(state)
            move = basic_move(view(state, seat, history=False))
            state = apply(state, seat, Bid(move["bid"]) if "bid" in move else Play(parse_card(move["card"])))
        seats = [Seat("human", None, "x"), Seat("ai", "hard"), Seat("human", None, "y"), Seat("ai", "standard")]
        record = GameRecord(f"bench-{seed}", 600, seats, "", GameOptions(None), created_ms=1, changed_ms=2)
        games.append(record.with_state(state))
    return games


def move_path(args: argparse.Namespace, database_url: str) -> dict[str, Any]:
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="spades-bench-redis-") as redis_dir:
        redis_server = start_redis(port, redis_dir, appendonly=False)
        redis_url = f"redis://127.0.0.1:{port}/0"
        with running(redis_server):
            env = {"RATE_LIMIT_ENABLED": "0", "AI_ENABLED": "0"}
            settings = {"workers": args.workers, "threads": 8}
            on, on_base = start_gunicorn(
                redis_url, env={**env, "RECORDS_ENABLED": "1", "RECORDS_DATABASE_URL": database_url}, **settings
            )
            off, off_base = start_gunicorn(redis_url, env={**env, "RECORDS_ENABLED": "0"}, **settings)
            with running(on), running(off):
                targets = {
                    "records_on": (int(on_base.rsplit(":", 1)[1]), CpuMeter(on, redis_url)),
                    "records_off": (int(off_base.rsplit(":", 1)[1]), CpuMeter(off, redis_url)),
                }
                for port_, meter in targets.values():  # warm-up, discarded
                    measure("127.0.0.1", port_, "moves", args.clients, 1, meter)
                slices: dict[str, list[dict[str, float]]] = {name: [] for name in targets}
                for round_no in range(args.rounds):  # which server goes first alternates: drift falls on both
                    for name, (port_, meter) in sorted(targets.items(), reverse=round_no % 2 == 1):
                        slices[name].append(measure("127.0.0.1", port_, "moves", args.clients, args.seconds, meter))
    out: dict[str, Any] = {}
    for name, results in slices.items():
        out[name] = {
            "moves_per_s_median": statistics.median(r["requests_per_s"] for r in results),
            "server_cpu_us_per_move_median": statistics.median(r["server_cpu_us"] for r in results),
            "server_cpu_us_per_move_slices": [r["server_cpu_us"] for r in results],
            "p50_ms_median": statistics.median(r["p50_ms"] for r in results),
        }
    ratios = [
        a["server_cpu_us"] / b["server_cpu_us"]
        for a, b in zip(slices["records_on"], slices["records_off"], strict=True)
    ]
    out["cpu_ratio_on_to_off_per_round"] = [round(r, 3) for r in ratios]
    out["cpu_ratio_on_to_off_median"] = round(statistics.median(ratios), 3)
    return out


def writes(args: argparse.Namespace, database_url: str, data_dir: str) -> dict[str, Any]:
    engine = make_engine(database_url.replace("postgresql://", "postgresql+psycopg://"), pool_size=args.writers)
    migrate(engine)
    repository = RecordRepository(engine)
    documents = [build(game) for game in finished_games(8)]
    counter = iter(range(10**9))
    lock = threading.Lock()
    written = [0] * args.writers
    deadline = time.perf_counter() + args.write_seconds

    def writer(index: int) -> None:
        while time.perf_counter() < deadline:
            with lock:
                n = next(counter)
            document = {**documents[n % len(documents)], "game_id": f"w-{n}"}
            repository.save(document, 1_796_000_000_000 + n, 1_796_000_000_000 + n)
            written[index] += 1

    cpu_before, started = postgres_cpu(data_dir), time.perf_counter()
    threads = [threading.Thread(target=writer, args=(i,)) for i in range(args.writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed, cpu = time.perf_counter() - started, postgres_cpu(data_dir) - cpu_before
    with engine.connect() as connection:
        count = connection.execute(text("SELECT count(*) FROM game_records")).scalar_one()
        size = connection.execute(
            text("SELECT pg_total_relation_size('game_records') + pg_total_relation_size('record_seats')")
        ).scalar_one()
        body = connection.execute(text("SELECT avg(octet_length(body)) FROM game_records")).scalar_one()
    engine.dispose()
    total = sum(written)
    return {
        "writers": args.writers,
        "records": total,
        "seconds": round(elapsed, 1),
        "records_per_s": round(total / elapsed, 1),
        "postgres_cpu_s": round(cpu, 2),
        "records_per_postgres_core_second": round(total / cpu, 1) if cpu else None,
        "rounds_per_record": round(statistics.mean(len(d["rounds"]) for d in documents), 1),
        "json_bytes_per_record": round(float(body)),
        "disk_bytes_per_record": round(size / count),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="length of one move-path slice")
    parser.add_argument("--rounds", type=int, default=5, help="slices of each server, interleaved")
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--writers", type=int, default=4, help="threads saving records in the write part")
    parser.add_argument("--write-seconds", type=float, default=20.0)
    parser.add_argument("--skip-move-path", action="store_true", help="only the write part")
    args = parser.parse_args(argv)
    out: dict[str, Any] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {"cores": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version()},
        "settings": vars(args),
    }
    with private_postgres(free_port()) as database:
        if not args.skip_move_path:
            out["move_path"] = move_path(args, database.url)
        out["writes"] = writes(args, database.url, str(database.data_dir))
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
