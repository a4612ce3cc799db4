"""The duplicate half of ``benchmarks.events``: the room (:class:`services.api.events.service.Events`) on a real
Redis, built as the API builds it (``services/api/app.py``: the store, the view cache, the listing hooks, the
events' documents in Redis), with no AI and no records (every seat is a pair's player)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import redis

from services.api.config import load_config
from services.api.events import views
from services.api.events.model import Event, Settings
from services.api.events.service import Events
from services.api.events.storage import EventStorage
from services.api.games import commands, take_back
from services.api.games.commands import Collaborators
from services.api.games.move_request import MoveRequest
from services.api.games.record import GameRecord, PlayerRef
from services.api.games.rendering import ViewCache
from services.api.lobby.tables import ListingHooks
from services.api.store.redis_event_docs import RedisEventDocs
from services.api.store.redis_store import make_store
from services.engine import legal_moves, turn

ROUND_GOAL_MS = 5000

Percentiles = Callable[[list[float]], dict[str, float | int]]


def room(redis_url: str) -> Events:
    config = load_config({"REDIS_URL": redis_url, "REDIS_CLUSTER_NODES": "", "RECORDS_ENABLED": False})
    store = make_store(config, GameRecord.from_stored)
    ctx = Collaborators(store, ViewCache(int(config["VIEW_CACHE_SIZE"])), tables=ListingHooks(store))
    return Events(ctx, EventStorage(RedisEventDocs(store.client)))


class RedisMeter:
    """What Redis spent between two reads of its INFO: commands, its own CPU, its memory."""

    def __init__(self, client: redis.Redis) -> None:
        self.client = client

    def read(self) -> tuple[int, float, int]:
        info = self.client.info()
        cpu = float(info["used_cpu_sys"]) + float(info["used_cpu_user"])
        return int(info["total_commands_processed"]), cpu, int(info["used_memory"])


def enter(events: Events, pairs: int) -> tuple[Event, list[PlayerRef]]:
    players = [PlayerRef(f"bench-{i:04d}", f"Player {i}", "bot") for i in range(2 * pairs)]
    settings = Settings(
        name="Benchmark",
        format="duplicate_pairs",
        max_pairs=pairs,
        deals_per_round=1,
        rounds=pairs,  # as many as the movement has (pairs - 1): a next round always follows a timed one
        clock="none",
        rated=False,
        bots_allowed=True,
        stand_in_level="easy",
    )
    event = events.create(players[0], settings)
    for first, second in zip(players[::2], players[1::2], strict=True):
        pair = events.join(event.event_id, first, second.id)
        events.accept(event.event_id, pair.pair_id, second)
    return event, players


def play(events: Events, event: Event, rng: random.Random) -> int:
    """Every table of the current round played out by random legal moves, each seat by its player; moves made."""
    ctx, moves = events.ctx, 0
    for table in event.rounds[-1].tables:
        record = ctx.store.load(table.game_id)
        assert record is not None
        tokens = {
            s: take_back.take_seat(ctx, table.game_id, s, held.player)["token"] for s, held in enumerate(record.seats)
        }
        state = record.state
        while record is not None and not record.finished:
            seat = turn(state)
            commands.make_move(ctx, table.game_id, MoveRequest(tokens[seat], move=rng.choice(legal_moves(state, seat))))
            record = ctx.store.load(table.game_id)
            state, moves = record.state if record else state, moves + 1
    return moves


def read_event(events: Events, event_id: str) -> dict[str, Any]:
    """``GET /v1/events/{id}`` as its route builds the body."""
    event = events.advance(events.load(event_id))
    return views.event_view(event, events.results(event))


def read_sheet(events: Events, event_id: str, board: int) -> dict[str, Any]:
    """``GET /v1/events/{id}/boards/{board}`` as its route builds the body."""
    event = events.advance(events.load(event_id))
    return views.scoresheet(event, events.results(event), board, events.pars(event))


def run(redis_url: str, pairs: int, rounds: int, reads: int, seed: int, percentiles: Percentiles) -> dict[str, Any]:
    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    events, rng = room(redis_url), random.Random(seed)
    event, players = enter(events, pairs)
    meter = RedisMeter(client)
    starts, cpu, commands_per_round, redis_cpu, memory, played, tables, moves = ([] for _ in range(8))
    event_reads: list[float] = []
    by_round: list[dict[str, Any]] = []  # a read loads the games of the rounds not finished (the current one's)
    sheets: list[float] = []
    seen_games: set[str] = set()
    per_round = max(reads // max(rounds, 1), 2)

    def read_a_while(board: int) -> None:
        """Reads while a round runs: the event (its standings) and the scoresheet of the round before's board."""
        mine = []
        for i in range(per_round):
            started = time.perf_counter()
            read_event(events, event.event_id) if i % 2 == 0 else read_sheet(events, event.event_id, board)
            (event_reads if i % 2 == 0 else sheets).append(time.perf_counter() - started)
            mine.append(time.perf_counter() - started)
        games = sum(len(r.tables) for r in events.load(event.event_id).rounds if not r.results)
        by_round.append({"rounds_begun": board + 1, "games_read": games, "p50_ms": _ms(sorted(mine)[len(mine) // 2])})

    for number in range(1, rounds + 1):
        before, process = meter.read(), time.process_time()
        started = time.perf_counter()
        event = events.start(event.event_id, players[0]) if number == 1 else events.advance(events.load(event.event_id))
        starts.append(time.perf_counter() - started)
        cpu.append(time.process_time() - process)
        after = meter.read()
        commands_per_round.append(after[0] - before[0] - 1)  # less the INFO that read it
        redis_cpu.append(after[1] - before[1])
        memory.append(after[2] - before[2])
        current = event.rounds[-1]
        assert current.number == number, "the timed call started the round"
        tables.append(len(current.tables))
        seen_games.update(t.game_id for t in current.tables)
        if number > 1:
            read_a_while(number - 1)
        moves.append(play(events, event, rng))
        played.append(meter.read()[2] - after[2])
    event = events.advance(events.load(event.event_id))  # the next round (untimed), so the last board is read
    read_a_while(rounds)
    body = read_event(events, event.event_id)
    sheet = read_sheet(events, event.event_id, rounds)
    doc = client.hget(f"event:{{{event.event_id}}}", "doc") or b""
    round_figures = percentiles(starts)
    scored = [t for t in sheet["tables"] if t["matchpoints"] is not None]
    return {
        "pairs": pairs,
        "rounds": rounds,
        "deals_per_round": 1,
        "seed": seed,
        "tables_per_round": {"min": min(tables), "max": max(tables)},
        "games_made": len(seen_games),
        "round_start": round_figures,
        "round_start_cpu_ms": {"p50": _ms(sorted(cpu)[len(cpu) // 2]), "max": _ms(max(cpu))},
        "round_start_redis": {
            "commands_p50": sorted(commands_per_round)[len(commands_per_round) // 2],
            "cpu_ms_p50": _ms(sorted(redis_cpu)[len(redis_cpu) // 2]),
            "memory_bytes_p50": sorted(memory)[len(memory) // 2],
            "memory_after_play_bytes_p50": sorted(played)[len(played) // 2],
        },
        "moves_per_round": {"min": min(moves), "max": max(moves)},
        "event_read": percentiles(event_reads),
        "scoresheet_read": percentiles(sheets),
        "reads_by_rounds_begun": by_round,
        "event_doc_bytes": len(doc),
        "standings": len(body["standings"]),
        "boards_scored": len(scored),
        "goal_round_start_ms": ROUND_GOAL_MS,
        "meets_goal": round_figures["max_ms"] <= ROUND_GOAL_MS,
    }


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 3)
