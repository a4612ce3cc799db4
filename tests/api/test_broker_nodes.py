"""Two AI broker nodes with real Redis servers, workers and gunicorn: each game's tasks (its computers' turns
and its hints) on its node, and one node lost mid-game.

The node that is stopped costs its games only time (basic's move after the deadline, counted by
``spades_ai_fallback_moves_total{node}``); the other node's games keep their workers' decisions throughout;
when the node is back its worker answers again; replaying every event proves each move was applied once.
"""

from __future__ import annotations

import random
import tempfile
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import redis
import requests

from services.api.ai_seats.brokers import node_of
from services.computers import HINT_LEVEL, queue_of
from testkit.http_clients import EventFollower, random_move, replay_events, wait_for_turn
from testkit.processes import free_port, gunicorn, running, start_redis, start_worker, stop

from .helpers import wait_until

pytestmark = pytest.mark.integration  # real Redis / gunicorn / Celery processes

RULES = {"preset": "partnership", "win_score": 100, "lose_score": -100}
LEVEL = "standard"
SEATS = [{"type": "human"}] + [{"type": "ai", "level": LEVEL}] * 3


def metric(base: str, name: str, **labels: str) -> float:
    """``name``'s samples with ``labels`` summed over the API's workers."""
    text = requests.get(f"{base}/metrics", timeout=10).text
    wanted = [f'{key}="{value}"' for key, value in labels.items()]
    return sum(
        float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line.startswith(name + "{") and all(label in line for label in wanted)
    )


def published(node: redis.Redis) -> int:
    """Results the node's workers published (``PUBLISH`` calls since the server started)."""
    return int(node.info("commandstats").get("cmdstat_publish", {}).get("calls", 0))


def ai_moves(base: str, game_id: str) -> int:
    events = requests.get(f"{base}/v1/games/{game_id}/events", timeout=10).json()["events"]
    return sum(1 for e in events if e["type"] in ("bid", "card_played") and e["data"]["seat"] != 0)


class Game:
    """A game of one person (seat 0) and three computers, followed from its first event."""

    def __init__(self, http: requests.Session, base: str, seed: int) -> None:
        self.http, self.base, self.seed, self.rng = http, base, seed, random.Random(seed)
        created = http.post(f"{base}/v1/games", json={"rules": RULES, "seats": SEATS, "seed": seed}).json()
        self.game_id, self.token = created["game_id"], created["seats"][0]["token"]
        self.follower = EventFollower(base, self.game_id)
        self.follower.start()

    def move(self) -> dict[str, Any]:
        """The person's next move once it is their turn (the computers' moves come between); the view."""
        view = wait_for_turn(self.http, self.base, self.game_id, 0, timeout=120)
        if view["phase"] != "game_over":
            assert random_move(self.http, self.base, self.game_id, self.token, self.rng).status_code == 200
        return view

    def settle(self) -> None:
        """Until the person is to move: no computer's turn in flight."""
        wait_for_turn(self.http, self.base, self.game_id, 0, timeout=120)

    def finish(self) -> None:
        while self.move()["phase"] != "game_over":
            pass
        events = self.follower.finish()
        assert replay_events(RULES, self.seed, events).phase == "game_over"  # every move legal, each once
        versions = [e["version"] for e in events if e["type"] in ("bid", "card_played")]
        assert len(versions) == len(set(versions))


def test_a_broker_node_lost_mid_game_costs_only_its_games_time():
    ports = [free_port() for _ in range(3)]  # the game store, node 0, node 1
    urls = [f"redis://127.0.0.1:{port}/0" for port in ports]
    env = {
        "AI_BROKER_URLS": ",".join(urls[1:]),
        # each computer move of the lost node's game waits for this deadline before basic's move is played; a
        # standard decision takes milliseconds, so the kept node's turns still never reach the fallback
        "AI_DECISION_DEADLINE_SECONDS": "1",
        "AI_SWEEP_INTERVAL_SECONDS": "0.2",
        "REDIS_SOCKET_TIMEOUT": "1",
        "RATE_LIMIT_ENABLED": "0",
    }
    queues = (f"ai.{LEVEL}", queue_of(HINT_LEVEL))  # the hint level's queue too
    http = requests.Session()
    games: list[list[Game]] = [[], []]  # by node
    with tempfile.TemporaryDirectory() as data_dir:
        servers = [start_redis(port, data_dir, appendonly=False) for port in ports]
        nodes = [redis.Redis.from_url(url) for url in urls[1:]]
        try:
            with ThreadPoolExecutor(2) as pool:  # both workers warm up at once
                workers = list(pool.map(lambda url: start_worker(url, queues=queues), urls[1:]))
            with gunicorn(urls[0], env=env) as base, running(*workers):
                baseline = [published(node) for node in nodes]  # the workers' start-up pings were PUBLISHed
                seed = 60
                while not all(games):
                    game = Game(http, base, seed)
                    games[node_of(game.game_id, 2)].append(game)
                    seed += 1
                lost, kept = games[1][0], games[0][0]
                for _ in range(4):
                    kept.move()
                    lost.move()
                kept.settle()
                lost.settle()
                # every task of a game went to its node: each node published a result per computer move of its
                # games (more only for a turn re-sent after a missed deadline)
                moves = [sum(ai_moves(base, g.game_id) for g in node_games) for node_games in games]
                results = [published(node) - before for node, before in zip(nodes, baseline, strict=True)]
                reissued = metric(base, "spades_ai_decisions_reissued_total")
                assert all(r >= m for r, m in zip(results, moves, strict=True)), (results, moves)
                assert sum(results) <= sum(moves) + reissued, (results, moves, reissued)

                # a game's hint goes to the node of its turns too: only that node's worker publishes an answer
                for node, game in ((0, kept), (1, lost)):
                    before = [published(n) for n in nodes]
                    hint = http.get(
                        f"{base}/v1/games/{game.game_id}/hint", headers={"Authorization": f"Bearer {game.token}"}
                    )
                    assert hint.status_code == 200, hint.text
                    after = [published(n) for n in nodes]
                    assert after[node] - before[node] == 1 and after[1 - node] == before[1 - node], (node, after)

                stop(servers[2])  # node 1 lost
                kept_results, kept_moves = published(nodes[0]), ai_moves(base, kept.game_id)
                for _ in range(2):  # each of the lost game's computer moves now waits out its deadline
                    kept.move()
                    lost.move()
                wait_until(lambda: metric(base, "spades_ai_fallback_moves_total", node="1") >= 1, "no fallback")
                assert metric(base, "spades_ai_fallback_moves_total", node="0") == 0  # the other node's games
                assert published(nodes[0]) - kept_results >= ai_moves(base, kept.game_id) - kept_moves

                servers[2] = start_redis(ports[2], data_dir, appendonly=False)  # node 1 back (empty)

                def answered_by_its_worker() -> bool:
                    lost.move()
                    return published(nodes[1]) > 0

                wait_until(answered_by_its_worker, "node 1's worker never answered again", bound=120)
                kept.finish()
                lost.finish()
                assert metric(base, "spades_ai_fallback_moves_total", node="0") == 0
        finally:
            for game in games[0] + games[1]:  # only the first game of each node is played out
                game.follower.close()
            for client in nodes:
                client.close()
            for server in servers:
                stop(server)
