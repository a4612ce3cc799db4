"""The arena room's store half of ``benchmarks.events``: an arena of ``players`` entrants kept in a real Redis as the
service keeps it (:class:`services.api.store.redis_arena_rooms.RedisArenaRooms`, read and written through
:class:`services.api.events.arena_room.ArenaRoom`), with the reads and writes each timed as a request makes them:

* ``standings_read``: the standings' top 20 with their entrants, as the event's view shows them (``ZRANGE`` and
  ``HMGET`` of 20 documents, decoded);
* ``entrant_read``: one entrant and its rank, as a player polling for its next game reads it (``HGET``, ``ZRANK``);
* ``game_scored``: a finished game's four entrants scored in one write (``ArenaRoom.score_game``: the game's
  document read, the four entrants read, ``record_game``, one script writing them back, re-ranking them and
  putting them in the pool), its final scores random.

The entrants are joined in batches first (one write a batch: not timed), and each game put in play as a wave
would (one write), so every read and write runs against the whole arena.  No game is created: the waves' games
are sized in docs/capacity.md from the duplicate room's figures.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import redis

from services.api.events.arena import ArenaRules, Entrant, Table, standing_score
from services.api.events.arena_docs import ArenaGame, Entry, seating
from services.api.events.arena_room import ArenaRoom
from services.api.events.model import Event, Settings
from services.api.games.commands import Collaborators
from services.api.store.arena_rooms import ArenaBatch
from services.api.store.memory_store import MemoryStore
from services.api.store.redis_arena_rooms import RedisArenaRooms

Percentiles = Callable[[list[float]], dict[str, float | int]]
JOIN_BATCH = 500
TOP = 20


@dataclass
class _State:
    scores: tuple[int, ...]


@dataclass
class _Finished:
    """What ``score_game`` reads of a finished game: its final scores."""

    state: _State


def run(redis_url: str, players: int, games: int, reads: int, seed: int, percentiles: Percentiles) -> dict[str, Any]:
    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    rng, rooms = random.Random(seed), RedisArenaRooms(client)
    room = ArenaRoom(Collaborators(MemoryStore(lambda doc: doc)), rooms, lambda player, board: 1500)
    settings = Settings("Benchmark arena", "arena", 8, 1, 1, "none", False, True, "easy", minutes=60)
    event = Event("bench-arena", "p0", settings, 0, status="running", started_ms=0)
    rules = ArenaRules("partners")
    ids = [f"e{i:05d}" for i in range(players)]
    for start in range(0, players, JOIN_BATCH):
        batch = ArenaBatch()
        for entrant_id in ids[start : start + JOIN_BATCH]:
            entry = Entry(Entrant(entrant_id, round(rng.gauss(1500, 300))), f"Player {entrant_id}", "bot")
            batch.entrants[entrant_id] = entry.to_doc()
            batch.standings[entrant_id] = standing_score(entry.standing)
        assert rooms.write_arena(event.event_id, rooms.arena_version(event.event_id), batch)

    scored, standings_reads, entrant_reads = [], [], []
    for n in range(games):
        four = rng.sample(ids, 4)
        table = Table(((four[0], four[1]), (four[2], four[3])))
        game = ArenaGame(f"g{n}", table, seating(rules, table), 0)
        put = ArenaBatch(games_add={game.game_id: game.to_doc()}, pool_remove=four)
        assert rooms.write_arena(event.event_id, rooms.arena_version(event.event_id), put)
        finished = _Finished(_State((rng.randrange(-200, 500, 10), rng.randrange(-200, 500, 10))))
        started = time.perf_counter()
        room.score_game(event, rules, game, finished)  # type: ignore[arg-type]
        scored.append(time.perf_counter() - started)
    for _ in range(reads):
        started = time.perf_counter()
        top = room.standings(event.event_id, 0, TOP)
        standings_reads.append(time.perf_counter() - started)
        assert len(top) == TOP
        someone = rng.choice(ids)
        started = time.perf_counter()
        found, rank = room.entry(event.event_id, someone), room.rank(event.event_id, someone)
        entrant_reads.append(time.perf_counter() - started)
        assert found is not None and rank is not None
    used = client.info("memory")["used_memory"]
    client.flushdb()
    return {
        "players": players,
        "games_scored": games,
        "standings_read": percentiles(standings_reads),
        "entrant_read": percentiles(entrant_reads),
        "game_scored": percentiles(scored),
        "redis_used_memory_mb": round(used / 2**20, 1),
    }
