"""Redis bytes per game, by ``MEMORY USAGE``: ``python -m benchmarks.memory``. Prints JSON.

    python -m benchmarks.memory [--games 3] [--redis-url redis://127.0.0.1:6379/5] [--server-root PATH]

Starts one gunicorn (gunicorn.conf.py) on loopback against ``--redis-url`` (its database is flushed
first) and plays ``--games`` seeded games over HTTP the way the web client does: four human seats,
every move sent with ``If-Match`` and a fresh ``Idempotency-Key``.  The games are the first seeds whose
game, played by :func:`testkit.http_clients.planned_moves`'s rule under :data:`RULES`, ends after exactly
:data:`ROUNDS` rounds, so every figure is reproducible.

At each checkpoint it sums ``MEMORY USAGE <key> SAMPLES 0`` (exact, not sampled) over the game's keys,
split into the game hash, the events stream and the idempotency entries: a fresh game, the middle of
round 5 and of round 10 (the bids and 26 cards played), and the finished game (10 rounds), with the
finished game's TTLs.  ``--server-root`` serves the API from another checkout (e.g. an older commit in
a ``git worktree``), so two checkouts are compared by the same command.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import redis
import requests

from services.engine import make_rules, new_game
from testkit.http_clients import planned_moves
from testkit.processes import ROOT, running, start_gunicorn

from .host import machine

RULES = {"preset": "partnership", "win_score": 200, "lose_score": -200}  # ~10-round games
ROUNDS = 10
MID_ROUND_CARDS = 26  # "mid-round": the bids made and half the cards played
CHECKPOINTS = ("fresh", "mid_round_5", "mid_round_10", "finished")
MOVES_PER_ROUND = 4 + 52


def _rules() -> Any:
    return make_rules(RULES["preset"], win_score=RULES["win_score"], lose_score=RULES["lose_score"])


def seeds_with_rounds(count: int, rounds: int = ROUNDS) -> list[int]:
    """The first ``count`` seeds (from 1) whose planned game ends after exactly ``rounds`` rounds."""
    found: list[int] = []
    seed = 0
    while len(found) < count:
        seed += 1
        plan = planned_moves("g", ["t"] * 4, new_game(_rules(), seed))
        if len(plan) == rounds * MOVES_PER_ROUND:  # every round is 4 bids and 52 cards
            found.append(seed)
    return found


def checkpoint_after(move_index: int) -> str | None:
    """The checkpoint reached once the move at ``move_index`` (0-based) is applied, if any."""
    done = move_index + 1
    for name, round_no in (("mid_round_5", 5), ("mid_round_10", 10)):
        if done == (round_no - 1) * MOVES_PER_ROUND + 4 + MID_ROUND_CARDS:
            return name
    return "finished" if done == ROUNDS * MOVES_PER_ROUND else None


def game_bytes(client: redis.Redis, game_id: str) -> dict[str, int]:
    """Bytes Redis uses for the game: its hash, its events stream, its idempotency entries."""
    base = f"game:{{{game_id}}}"

    def usage(key: str | bytes) -> int:
        return int(client.memory_usage(key, samples=0) or 0)

    idem = list(client.scan_iter(match=f"{base}:idem:*", count=1000))
    out = {
        "hash": usage(base),
        "events": usage(f"{base}:events"),
        "idempotency": sum(usage(key) for key in idem),
        "idempotency_entries": len(idem),
        "events_kept": int(client.xlen(f"{base}:events")),
    }
    out["total"] = out["hash"] + out["events"] + out["idempotency"]
    return out


def play_game(base: str, client: redis.Redis, seed: int) -> dict[str, Any]:
    """One seeded game over HTTP, as the web client moves; the bytes at each checkpoint."""
    http = requests.Session()
    seats = [{"type": "human"}] * 4
    created = http.post(f"{base}/v1/games", json={"rules": RULES, "seats": seats, "seed": seed}, timeout=10)
    created.raise_for_status()
    body = created.json()
    game_id, tokens = body["game_id"], [s["token"] for s in body["seats"]]
    figures: dict[str, Any] = {"seed": seed, "fresh": game_bytes(client, game_id)}
    version = body["state"]["version"]
    for index, (path, data, headers) in enumerate(planned_moves(game_id, tokens, new_game(_rules(), seed))):
        headers = {**headers, "If-Match": f'"{version}"', "Idempotency-Key": os.urandom(16).hex()}
        headers["Content-Type"] = "application/json"
        response = http.post(base + path, data=data, headers=headers, timeout=10)
        response.raise_for_status()
        version = response.json()["version"]
        reached = checkpoint_after(index)
        if reached:
            figures[reached] = game_bytes(client, game_id)
    deadline = time.monotonic() + 30  # a finished game gets its TTL once its record is written (RECORDS_ENABLED)
    while client.ttl(f"game:{{{game_id}}}") == -1 and time.monotonic() < deadline:
        time.sleep(0.05)
    figures["finished_ttl_seconds"] = {
        "hash": client.ttl(f"game:{{{game_id}}}"),
        "events": client.ttl(f"game:{{{game_id}}}:events"),
        "idempotency_max": max(client.ttl(k) for k in client.scan_iter(match=f"game:{{{game_id}}}:idem:*")),
    }
    return figures


def summary(games: list[dict[str, Any]]) -> dict[str, Any]:
    """Per checkpoint, the median over games of each figure."""
    return {
        name: {part: round(statistics.median(g[name][part] for g in games)) for part in games[0][name]}
        for name in CHECKPOINTS
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/5"))
    parser.add_argument("--server-root", type=Path, default=ROOT, help="the checkout whose API is measured")
    args = parser.parse_args()
    client = redis.Redis.from_url(args.redis_url)
    client.flushdb()
    seeds = seeds_with_rounds(args.games)
    env = {"AI_ENABLED": "0", "RATE_LIMIT_ENABLED": "0"}
    process, base = start_gunicorn(args.redis_url, workers=1, threads=4, env=env, root=args.server_root)
    with running(process):
        games = [play_game(base, client, seed) for seed in seeds]
    client.flushdb()
    out = {
        "date_utc": datetime.now(UTC).strftime("%Y-%m-%d %H:%M"),
        "machine": machine(),
        "redis_version": client.info("server")["redis_version"],
        "server_root": str(args.server_root.resolve()),
        "settings": {"games": args.games, "rules": RULES, "rounds": ROUNDS, "seeds": seeds},
        "bytes_per_game_median": summary(games),
        "finished_ttl_seconds": games[0]["finished_ttl_seconds"],
        "games": games,
    }
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
