"""Backup and restore drill of the records database, running docs/operations.md's commands as written:
``python -m benchmarks.restore --records 10000``.

On two throwaway PostgreSQL 15 servers (:func:`testkit.postgres.private_postgres`), the runbook's blocks run
by name (:mod:`testkit.runbook`), in this order:

1. **The records server**: its role and database (``new-server``), WAL archiving on (``archive-on``, a restart,
   ``archive-check``), then ``--records`` records of finished games written by the API's own records part
   (:func:`services.api.records.service.records_service`: the writer on an in-memory game store, migrating with
   the app's upkeep steps; each record saved and its ratings, stats and player games applied, accuracy jobs
   queued, as a running API does).  The games are ``--distinct-games`` partnership games to 500 played by
   basic's moves, each recorded many times under its own id with its own players: ``--players`` people, three
   games in four one person against three computer levels (rated), one in four two people at a private table
   (not rated).
2. **Backup**: the client's version (``versions``), ``back-up``, the records server's sums while nothing writes
   (the runbook's ``database_sums``), a base backup (``base-backup``).
3. **After the backups**: ``--records-after`` more records (what a dump loses), the server's clock noted as the
   recovery target and its sums taken, then a mistake (every record deleted) and its WAL archived
   (``archive-check``).
4. **Restore** the dump into the second server (``new-server``, ``restore``) and **check** it (``sums``,
   ``check-restore``), the backup's sums also compared with the records server's from step 2.
5. **Point-in-time recovery** of the records server to the noted time from the base backup and the archive
   (``recover``, ``check-recovery``), every table compared with the sums of step 3.

Prints JSON (the records, each step's seconds, the sizes, each comparison); exits 1 when one differs.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg

from benchmarks.records import finished_games
from services.api.config import DEFAULTS
from services.api.games.record import GameOptions, GameRecord, PlayerRef, Seat
from services.api.games.record_schedule import RecordSchedule
from services.api.players.names import display_name
from services.api.players.rekey import rekey_if_stale
from services.api.players.repository import PlayerRepository
from services.api.ratings.apply import applier
from services.api.ratings.recount import recount_if_stale
from services.api.records.service import records_service
from services.api.store.memory_store import MemoryStore
from services.engine import GameState
from testkit import runbook
from testkit.postgres import PrivatePostgres, postgres_bin, private_postgres
from testkit.processes import free_port

BLOCKS = (
    "new-server",
    "archive-on",
    "archive-check",
    "versions",
    "back-up",
    "sums",
    "base-backup",
    "restore",
    "check-restore",
    "recover",
    "check-recovery",
)  # docs/operations.md's blocks this drill runs
OPPONENTS = ("hard", "standard", "normal")  # the computer levels beside a person playing alone
BATCH = 200  # games put in the store, then drained, at a time
BASE_MS = 1_796_000_000_000  # the records' game times: a minute apart from here


def app_url(server: PrivatePostgres) -> str:
    """The records database on ``server`` as the API's role reaches it (the runbook's ``spades``)."""
    return f"postgresql://spades@127.0.0.1:{server.port}/spades"


class Filler:
    """Records written the way a running API writes them, numbered on from one call to the next."""

    def __init__(self, url: str, players: int, distinct_games: int) -> None:
        settings = {**DEFAULTS, "RECORDS_DATABASE_URL": url}
        self.store = MemoryStore(GameRecord.from_stored)
        self.writer = records_service(
            settings, self.store, RecordSchedule(int(DEFAULTS["GAME_TTL_SECONDS"])),
            lambda engine, computer_only: applier(engine, computer_only, score=True),
            upkeep=(rekey_if_stale, recount_if_stale),
        )  # fmt: skip
        repository = PlayerRepository(self.writer.repository.engine)
        self.people = [repository.create(display_name(f"Drill {n:05d}"), "person")[0].ref for n in range(players)]
        self.games: list[GameState] = [game.state for game in finished_games(distinct_games)]
        self.written = 0

    def record(self, n: int) -> GameRecord:
        """The ``n``-th record's game: a played game, its seats bound to players (see the module doc)."""
        person = self.people[n % len(self.people)]
        seats = [bound(person), *(Seat("ai", level) for level in OPPONENTS)]
        if n % 4 == 3:  # two people, partners at a private table: not rated
            partner = self.people[(n * 7 + 1) % len(self.people)]
            if partner.id == person.id:
                partner = self.people[(n + 1) % len(self.people)]
            seats[2] = bound(partner)
        game = GameRecord(
            f"drill-{n:07d}", 600, seats, "", GameOptions(None, hints=False), started=True, created_ms=BASE_MS + n * 60_000,
            changed_ms=BASE_MS + n * 60_000 + 1_500_000,
        )  # fmt: skip
        return game.with_state(self.games[n % len(self.games)])

    def fill(self, count: int) -> float:
        """``count`` more records written; the seconds it took."""
        started = time.perf_counter()
        end = self.written + count
        while self.written < end:
            batch = range(self.written, min(end, self.written + BATCH))
            for n in batch:
                game = self.record(n)
                assert self.store.commit(game, None, [])
                self.store.schedule_record(game.game_id, 0)
            assert self.writer.drain() == len(batch)
            self.store.backend.games.clear()  # recorded: the finished games are let go
            self.written = batch[-1] + 1
        return time.perf_counter() - started


def bound(player: PlayerRef) -> Seat:
    return Seat("human", None, f"hash-{player.id}", player_id=player.id, name=player.name, player_kind=player.kind)


def scalar(url: str, query: str) -> Any:
    with psycopg.connect(url, autocommit=True) as connection:
        row = connection.execute(query).fetchone()
        assert row is not None
        return row[0]


def sums(text: str) -> dict[str, tuple[int, str]]:
    """The runbook's sums lines (``table rows sha256``), by table."""
    found = {}
    for line in text.splitlines():
        table, rows, digest = line.split()
        found[table] = (int(rows), digest)
    return found


def compared(left: dict[str, tuple[int, str]], right: dict[str, tuple[int, str]]) -> dict[str, Any]:
    differing = sorted(t for t in left.keys() | right.keys() if left.get(t) != right.get(t))
    return {"tables": len(left), "rows": sum(rows for rows, _ in left.values()), "differing": differing}


def drill(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    out: dict[str, Any] = {"blocks_run": []}
    with private_postgres(free_port()) as records_server, private_postgres(free_port()) as new_server:
        url = app_url(records_server)
        env = {
            "RECORDS_DATABASE_URL": url, "BACKUP": str(work / "records.dump"), "NEW_SERVER_URL": new_server.url,
            "RESTORED_URL": app_url(new_server), "SUPERUSER_URL": records_server.url, "ARCHIVE": str(work / "archive"),
            "BASE_BACKUP": str(work / "base"), "PG_BIN": str(postgres_bin()), "RECOVERY_DIR": str(work / "recovery"),
        }  # fmt: skip

        def run(*names: str, then: str = "", **more: str) -> runbook.Step:
            out["blocks_run"] += [name for name in names if name not in out["blocks_run"]]
            return runbook.run(names, {**env, **more}, work, then=then)

        run("new-server", NEW_SERVER_URL=records_server.url)
        run("archive-on")
        records_server.restart()
        run("archive-check")
        filler = Filler(url, args.players, args.distinct_games)
        out["fill_seconds"] = round(filler.fill(args.records), 1)
        versions = run("versions").stdout.split("\n")
        out["versions"] = {"pg_dump": versions[0], "server": versions[1]}
        backup = run("back-up")
        out["database_bytes"] = scalar(url, "SELECT pg_database_size(current_database())")
        out["backup"] = {"seconds": round(backup.seconds, 2), "bytes": Path(env["BACKUP"]).stat().st_size}
        at_backup = sums(run("sums", then='database_sums "$RECORDS_DATABASE_URL"').stdout)
        base = run("base-backup")
        base_bytes = sum(f.stat().st_size for f in Path(env["BASE_BACKUP"]).iterdir())
        out["base_backup"] = {"seconds": round(base.seconds, 2), "bytes": base_bytes}

        out["fill_after_seconds"] = round(filler.fill(args.records_after), 1)
        target_time = scalar(records_server.url, "SELECT clock_timestamp()::text")
        at_target = sums(run("sums", then='database_sums "$RECORDS_DATABASE_URL"').stdout)
        scalar(url, "WITH gone AS (DELETE FROM game_records RETURNING 1) SELECT count(*) FROM gone")  # the mistake
        run("archive-check")
        filler.writer.repository.engine.dispose()

        run("new-server")
        restore = run("restore")
        check = run("sums", "check-restore")
        restored, backed_up = (sums((work / name).read_text()) for name in ("restored.sums", "backup.sums"))
        out["restore"] = {
            "seconds": round(restore.seconds, 2),
            "check_seconds": round(check.seconds, 2),
            "records": scalar(app_url(new_server), "SELECT count(*) FROM game_records"),
            "backup_against_restored": compared(backed_up, restored),
            "backup_against_records_server": compared(backed_up, at_backup),
        }

        recovery = PrivatePostgres(free_port(), env["RECOVERY_DIR"])
        recovered_url = app_url(recovery)
        try:
            recover = run("recover", RECOVERY_PORT=str(recovery.port), TARGET_TIME=target_time,
                          RECOVERED_URL=recovered_url)  # fmt: skip
            count, newest = run("check-recovery", RECOVERED_URL=recovered_url).stdout.strip().split("|")
            recovered = sums(run("sums", then=f'database_sums "{recovered_url}"').stdout)
        finally:
            if (recovery.data_dir / "postmaster.pid").exists():
                recovery.stop()
        out["point_in_time"] = {
            "seconds": round(recover.seconds, 2),
            "target_time": target_time,
            "records": int(count),
            "newest_record_written": newest,
            "newest_before_target": scalar(url, f"SELECT '{newest}'::timestamptz < '{target_time}'::timestamptz"),
            "wal_segments_archived": sum(1 for _ in (work / "archive").iterdir()),
            "recovered_against_target": compared(recovered, at_target),
        }
    comparisons = [out["restore"]["backup_against_restored"], out["restore"]["backup_against_records_server"]]
    comparisons.append(out["point_in_time"]["recovered_against_target"])
    out["ok"] = (
        all(not c["differing"] for c in comparisons)
        and out["restore"]["records"] == args.records
        and out["point_in_time"]["records"] == args.records + args.records_after
        and out["point_in_time"]["newest_before_target"]
        and versions[0].split()[2].split(".")[0] == versions[1].split(".")[0]
    )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=10_000, help="records written before the backup")
    parser.add_argument("--records-after", type=int, default=1_000, help="records written after the backups")
    parser.add_argument("--players", type=int, default=1_000, help="people the records' seats are bound to")
    parser.add_argument("--distinct-games", type=int, default=40, help="games played, each recorded many times")
    args = parser.parse_args(argv)
    if args.players < 2:
        parser.error("--players: at least 2 (partners)")
    out: dict[str, Any] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {"cores": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version()},
        "settings": vars(args),
    }
    with runbook.work_dir("spades-restore-", "archive") as work:
        out |= drill(args, work)
    print(json.dumps(out, indent=2))
    return 0 if out["ok"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
