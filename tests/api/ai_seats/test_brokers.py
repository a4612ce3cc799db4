"""Several AI broker nodes: the game-id mapping, each game's turns on its node, a node that is down.

In-memory store and recording Celery apps (one per node), as in test_driver.py; the two-node run with
real Redis servers, workers and gunicorn is tests/api/test_broker_nodes.py.
"""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace
from typing import Any

from flask import Flask
from kombu.exceptions import OperationalError

from services.api.ai_seats.brokers import BrokerNode, broker_nodes, node_of
from services.api.ai_seats.dispatch import AiDispatcher
from services.api.ai_seats.driver import AiDriver
from services.api.ai_seats.hooks import DispatchHooks
from services.api.ai_seats.senders import SenderRedisBackend
from services.api.app import celery_init_app
from services.api.games.commands import Collaborators
from services.api.games.record import GameRecord
from services.api.store.memory_store import MemoryBackend, MemoryStore
from tests.api.ai_seats.test_driver import DEADLINE, Clock, RecordingCelery, ai_game, decision


class DownCelery(RecordingCelery):
    """A node whose broker is down: every send and result read fails as kombu's Redis transport does."""

    def send_task(self, name: str, task_id: str, kwargs: dict[str, Any], queue: str) -> None:
        raise OperationalError("Error 111 connecting to 127.0.0.1:1. Connection refused.")

    def AsyncResult(self, task_id: str) -> Any:  # Celery's method name
        raise OperationalError("Error 111 connecting to 127.0.0.1:1. Connection refused.")


def test_without_ai_broker_urls_the_one_node_is_the_celery_settings():
    config = {"AI_BROKER_URLS": "", "CELERY_BROKER_URL": None, "CELERY_RESULT_BACKEND": "redis://r/1"}
    assert broker_nodes(config | {"REDIS_URL": "redis://g/0"}) == [BrokerNode("0", "redis://g/0", "redis://r/1")]


def test_each_listed_node_is_its_own_broker_and_result_backend():
    config = {"AI_BROKER_URLS": "redis://a/0, redis://b/0", "CELERY_BROKER_URL": "redis://x/0"}
    assert broker_nodes(config) == [
        BrokerNode("0", "redis://a/0", "redis://a/0"),
        BrokerNode("1", "redis://b/0", "redis://b/0"),
    ]


def test_the_mapping_is_stable_and_spreads_games_evenly():
    games = [f"game-{i}" for i in range(4000)]
    assert node_of("game-7", 4) == node_of("game-7", 4) and node_of("game-7", 1) == 0
    for nodes in (2, 4):
        counts = Counter(node_of(game, nodes) for game in games)
        share = len(games) / nodes
        assert set(counts) == set(range(nodes))
        assert all(abs(n - share) <= 0.1 * share for n in counts.values()), counts


def two_nodes(down: int | None = None) -> tuple[Collaborators, AiDriver, list[RecordingCelery], Clock]:
    nodes = [DownCelery() if node == down else RecordingCelery() for node in range(2)]
    clock, store = Clock(), MemoryStore(GameRecord.from_stored, MemoryBackend())
    dispatcher = AiDispatcher(nodes, store, DEADLINE, clock=clock)  # type: ignore[arg-type]
    ctx = Collaborators(store, ai=DispatchHooks(dispatcher))
    return ctx, AiDriver(ctx, dispatcher, None, 3, sweep_interval=1.0, clock=clock), nodes, clock


def test_every_turn_of_a_game_goes_to_its_node():
    ctx, driver, nodes, _ = two_nodes()
    games = games_on_both_nodes(ctx)
    answered = [0, 0]
    for _ in range(6):  # each game's turns, answered as a worker would: the next ones are sent
        for node, celery in enumerate(nodes):
            for task in celery.sent[answered[node] :]:
                answered[node] += 1
                driver.apply_result(decision(task))
    assert {node_of(game, 2) for game in games} == {0, 1}
    assert all(ctx.store.load(game).version > 6 for game in games)
    for node, celery in enumerate(nodes):
        assert {task["game_id"] for task in celery.sent} == {game for game in games if node_of(game, 2) == node}


def ai_game_in(ctx: Collaborators) -> str:
    """A computer-only game created through ``ctx`` (test_driver's helper reads only ``.ctx``)."""
    return ai_game(SimpleNamespace(ctx=ctx))  # type: ignore[arg-type]


def games_on_both_nodes(ctx: Collaborators, least: int = 8) -> list[str]:
    """At least ``least`` computer-only games, with some on each of the two nodes (ids are random: 8 games
    all land on one node once in 128 runs)."""
    games = [ai_game_in(ctx) for _ in range(least)]
    for _ in range(64):
        if {node_of(game, 2) for game in games} == {0, 1}:
            return games
        games.append(ai_game_in(ctx))
    raise AssertionError("64 more games all landed on one node")


def test_a_node_that_is_down_costs_its_games_one_deadline_a_move_and_the_others_nothing():
    ctx, driver, nodes, clock = two_nodes(down=1)
    games = games_on_both_nodes(ctx)
    down = [g for g in games if node_of(g, 2) == 1]
    up = [g for g in games if node_of(g, 2) == 0]
    assert down and up
    versions = {g: ctx.store.load(g).version for g in games}
    clock.now += DEADLINE + 1
    driver.sweep_once()  # the down node's turns: basic's move at once, no waiting for more attempts
    assert all(ctx.store.load(g).version == versions[g] + 1 for g in down)
    assert all(ctx.store.load(g).version == versions[g] for g in up)  # their sends went through: awaited
    assert {t["game_id"] for t in nodes[0].sent} == set(up)


def test_each_nodes_app_keeps_its_own_urls_whatever_the_environment_says(monkeypatch):
    """Celery's settings take ``CELERY_BROKER_URL`` and ``CELERY_RESULT_BACKEND`` from the environment before the
    URLs an app is made with, and a deployment of several nodes keeps node 0's there (the workers of node 0 and
    the cluster overlay read them): every node's app would send to node 0 and wait on its backend."""
    monkeypatch.setenv("CELERY_BROKER_URL", "redis://node-zero:6379/0")
    monkeypatch.setenv("CELERY_RESULT_BACKEND", "redis://node-zero:6379/0")
    app = Flask("brokers-test")
    app.config.update(
        AI_BROKER_URLS="redis://node-a:6379/0,redis://node-b:6379/0",
        CELERY_BROKER_URL="redis://node-zero:6379/0",
        CELERY_RESULT_BACKEND="redis://node-zero:6379/0",
        REDIS_URL="redis://games:6379/0",
        REDIS_SOCKET_TIMEOUT=1.0,
    )
    celery_init_app(app)  # connections and backends are lazy: nothing is contacted
    for celery, host in zip(app.extensions["spades.celery_nodes"], ("node-a", "node-b"), strict=True):
        for connection in (celery.connection_for_write(), celery.connection_for_read()):
            assert connection.hostname == host
            connection.release()
        assert isinstance(celery.backend, SenderRedisBackend)
        assert celery.backend.connparams["host"] == host
        celery.close()
