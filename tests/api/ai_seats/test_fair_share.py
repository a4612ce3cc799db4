"""People first and bounded bulk, end to end: real gunicorn, real Redis, real Celery workers.

- A person's game is served before computer-only turns queued ahead of it: the worker reads every
  interactive queue before any bulk one (kombu's priority order over the ``-Q`` list).
- A computer-only game nobody reads pauses, and a read (a spectator's too) resumes it; an open stream
  keeps one playing to its end.
- Nothing is lost across a restart of the API and of the worker: every game, paused or not, ends with
  every move applied once, and its creators' holds are released.

The logic behind them is unit-tested in tests/api/ai_seats/test_pauses.py and tests/api/games/test_quotas.py.
"""

from __future__ import annotations

import json
import os
import random
import signal
import threading
from collections.abc import Callable
from typing import Any

import pytest
import redis
import requests

from services.computers import level_queues
from testkit.http_clients import auth, replay_events
from testkit.processes import running, start_gunicorn, start_worker, stop
from testkit.stored import stored_state
from tests.conftest import redis_url

from ..helpers import holds_within, wait_until

pytestmark = pytest.mark.integration  # real Redis / gunicorn / Celery processes

BASIC = {"type": "ai", "level": "basic"}
PERSON = {"type": "human"}
SHORT = {"preset": "partnership", "win_score": 100, "lose_score": -100}
LONG = {"preset": "partnership", "win_score": 1000, "lose_score": -1000}
QUICK = {"preset": "partnership", "win_score": 1}  # over after a round or two


def create(base: str, rules: dict[str, Any], seats: list[dict], seed: int | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"rules": rules, "seats": seats}
    if seed is not None:
        body["seed"] = seed
    response = requests.post(f"{base}/v1/games", json=body, timeout=10)
    assert response.status_code == 201, response.text
    return response.json()


def version(store: redis.Redis, game_id: str) -> int:
    """The stored version, read from Redis (a read through the API would count as watching the game)."""
    return int(store.hget(f"game:{{{game_id}}}", "v") or 0)


def paused(store: redis.Redis, game_id: str) -> bool:
    return bool(store.exists(f"game:{{{game_id}}}:paused"))


def test_a_game_with_a_person_is_served_before_100_queued_computer_only_turns(private_redis_url):
    store = redis.Redis.from_url(private_redis_url)
    # rate limits off: one client creates 100 computer-only games; unread games pause after a second.
    # Basic seats: the order the queues are served in is the level's queue order, whatever each decision costs.
    env = {
        "PAUSE_UNWATCHED_SECONDS": "1",
        "RATE_LIMIT_ENABLED": "0",
        "COMPUTER_GAME_PACE_SECONDS": "0",
        "AI_SWEEP_INTERVAL_SECONDS": "0.2",
    }
    api, base = start_gunicorn(private_redis_url, env=env)
    try:
        bulk = [create(base, LONG, [BASIC] * 4)["game_id"] for _ in range(100)]
        assert store.llen("ai.bulk.basic") == 100, "no worker yet: each game's first turn waits in the bulk queue"
        # once nobody has read them for a second, each computer-only game pauses after its first move
        watched = [f"game:{{{game_id}}}:watched" for game_id in bulk]
        wait_until(lambda: store.exists(*watched) == 0, "the creations' watched marks never lapsed")
        # five people's games, each waiting for its seat 1 (a computer, first to bid) before the person bids
        people = [create(base, LONG, [BASIC, BASIC, PERSON, BASIC])["game_id"] for _ in range(5)]
        assert store.llen("ai.basic") == 5
    finally:
        stop(api)  # nobody hears the results: the worker stores each, stamped with when it was decided
    worker = start_worker(private_redis_url, queues=level_queues("basic"), concurrency=1)
    with running(worker):
        wait_until(lambda: len(decided(store)) == 105, "the worker did not decide every queued turn")
        order = decided(store)
        # the API again: its deadline sweep applies the stored decisions
        api, base = start_gunicorn(private_redis_url, env=env)
        with running(api):
            wait_until(lambda: all(version(store, g) == 2 for g in people), "a person's opponent never bid")
            wait_until(
                lambda: all(version(store, g) == 2 for g in bulk), "the queued computer-only turns were not applied"
            )
            wait_until(lambda: all(paused(store, g) for g in bulk), "each then pauses: nobody reads them")
        assert store.llen("ai.bulk.basic") == 0 and store.llen("ai.basic") == 0
    # The worker's own order (one process, one decision at a time): a first-come-first-served queue would decide
    # all 100 first; a rotating order, one between people's turns.
    served = [game_id for _, game_id in sorted(order)]
    last_person = max(served.index(game_id) for game_id in people)
    served_before = sum(game_id in bulk for game_id in served[:last_person])
    assert served_before == 0, f"{served_before} queued computer-only turns were decided before a person's"


def decided(store: redis.Redis) -> list[tuple[str, str]]:
    """(when it was decided, game id) of every decision stored in the result backend."""
    found = []
    for key in store.scan_iter("celery-task-meta-*", count=1000):
        meta = json.loads(store.get(key) or "null")
        if meta and meta.get("status") == "SUCCESS":
            found.append((meta["date_done"], meta["result"]["game_id"]))
    return found


def test_a_paused_computer_only_game_resumes_when_read_and_an_open_stream_keeps_one_going(gunicorn_factory, ai_worker):
    store = redis.Redis.from_url(redis_url(1))  # the session's worker serves this database
    base = gunicorn_factory({"PAUSE_UNWATCHED_SECONDS": "1", "STREAM_HEARTBEAT_SECONDS": "0.2"})
    game_id = create(base, LONG, [{"type": "ai", "level": "normal"}] * 4)["game_id"]
    wait_until(lambda: paused(store, game_id), "an unread computer-only game never paused")
    stopped_at = version(store, game_id)
    assert stopped_at > 1 and store.hget(f"game:{{{game_id}}}", "meta")

    view = requests.get(f"{base}/v1/games/{game_id}", timeout=10)  # a spectator reads it
    assert view.status_code == 200 and view.json()["phase"] != "game_over"
    wait_until(lambda: version(store, game_id) > stopped_at, "the read did not resume the game")
    wait_until(lambda: paused(store, game_id), "unread again, it never paused again")

    streamed = create(base, SHORT, [{"type": "ai", "level": "normal"}] * 4)["game_id"]
    with requests.get(f"{base}/v1/games/{streamed}/stream", stream=True, timeout=60) as stream:
        types = [line[7:] for line in stream.iter_lines(decode_unicode=True) if line.startswith("event: ")]
    assert types[-1] == "game_over", "the stream's game played to its end with nobody else reading it"
    text = requests.get(f"{base}/metrics", timeout=10).text
    resumed = [line for line in text.splitlines() if line.startswith('spades_ai_pauses_total{event="resumed"}')]
    assert resumed and float(resumed[0].rsplit(" ", 1)[1]) >= 1


class Follower(threading.Thread):
    """Long-polls a game's events through whichever API is up (``base()``), keeping every one, until game_over.
    Its reads keep a computer-only game watched."""

    def __init__(self, base: Callable[[], str], game_id: str) -> None:
        super().__init__(daemon=True)
        self.base, self.game_id = base, game_id
        self.events: list[dict[str, Any]] = []
        self.problem: dict[str, Any] | None = None  # a 4xx ends it (e.g. 410: it fell behind the kept log)

    def run(self) -> None:
        http = requests.Session()
        while not (self.events and self.events[-1]["type"] == "game_over"):
            after = self.events[-1]["seq"] if self.events else 0
            try:
                url = f"{self.base()}/v1/games/{self.game_id}/events"
                response = http.get(url, params={"after": after, "wait": 1}, timeout=10)
            except requests.RequestException:
                continue  # the API is restarting
            if 400 <= response.status_code < 500:
                self.problem = response.json()
                return
            if response.status_code == 200:
                self.events += response.json()["events"]


def test_nothing_is_lost_across_a_restart_of_the_api_and_of_the_worker(private_redis_url):
    store = redis.Redis.from_url(private_redis_url)
    env = {
        "RATE_LIMIT_ENABLED": "1",  # quotas on: every game's hold must be released at its end
        "PAUSE_UNWATCHED_SECONDS": "2",
        # paced, as deployed (a turn held for its pace when the API stops is the sweep's), at a pace that still
        # keeps the followed computer-only game playing through both restarts
        "COMPUTER_GAME_PACE_SECONDS": "0.05",
        "AI_DECISION_DEADLINE_SECONDS": "2",
        "AI_SWEEP_INTERVAL_SECONDS": "0.2",
    }
    api, first_base = start_gunicorn(private_redis_url, env=env)
    current = {"base": first_base}
    # nobody reads this one: once its watched mark lapses, its first move (when a worker comes) pauses it; read
    # again only after both restarts, it need then only play on to its end (a round or two)
    unread = create(first_base, QUICK, [BASIC] * 4, seed=13)["game_id"]
    wait_until(lambda: not store.exists(f"game:{{{unread}}}:watched"), "its creation's watched mark never lapsed")
    worker = start_worker(private_redis_url, queues=level_queues("basic"))
    try:
        people = create(first_base, SHORT, [PERSON, BASIC, BASIC, BASIC], seed=11)
        person, token = people["game_id"], people["seats"][0]["token"]
        watched = create(first_base, SHORT, [BASIC] * 4, seed=12)["game_id"]  # followed: plays on
        followers = {game_id: Follower(lambda: current["base"], game_id) for game_id in (person, watched)}
        for follower in followers.values():
            follower.start()
        rng = random.Random(5)
        play(current["base"], person, token, rng, moves=3)
        wait_until(lambda: paused(store, unread), "the unread game never paused")
        # at its first move, or before it if its paced first turn went out after its watched mark lapsed
        paused_at = version(store, unread)

        stop(api)  # the API restarts: in-flight results are heard by nobody, the sweep recovers them
        api, current["base"] = start_gunicorn(private_redis_url, env=env)
        play(current["base"], person, token, rng, moves=3)

        assert stored_state(store, watched).phase != "game_over", "the followed game plays on through both restarts"
        os.killpg(worker.pid, signal.SIGKILL)  # the worker dies, holding whatever it had taken
        worker.wait()
        worker = start_worker(private_redis_url, queues=level_queues("basic"))
        still = version(store, unread)
        assert still == paused_at, f"paused at version {paused_at}, it moved on to {still} through the restarts"
        followers[unread] = Follower(lambda: current["base"], unread)  # its reads resume it, and keep it going
        followers[unread].start()
        play(current["base"], person, token, rng, moves=None)  # to the end
        for game_id, follower in followers.items():
            follower.join(240)
            assert not follower.is_alive() and follower.problem is None, f"game {game_id}: {follower.problem}"
    finally:
        stop(api)
        stop(worker)
    for game_id, rules, seed in ((person, SHORT, 11), (watched, SHORT, 12), (unread, QUICK, 13)):
        events = followers[game_id].events
        final = replay_events(rules, seed, events)  # every move legal, each once
        assert final.phase == "game_over" and stored_state(store, game_id) == final
        versions = [e["version"] for e in events if e["type"] in ("bid", "card_played")]
        assert len(versions) == len(set(versions))
    assert not list(store.scan_iter("quota:*")), "every ended game released its creator's holds"


def play(base: str, game_id: str, token: str, rng: random.Random, moves: int | None) -> None:
    """The person's random legal moves, ``moves`` of them or until the game is over."""
    http, made = requests.Session(), 0
    while moves is None or made < moves:
        ready = holds_within(lambda: my_turn(http, base, game_id, token), 120)
        assert ready, "the computers never gave the person the turn"
        view = http.get(f"{base}/v1/games/{game_id}", headers=auth(token), timeout=10).json()
        if view["phase"] == "game_over":
            return
        choice = rng.choice(view["legal"])
        path, body = ("bids", {"bid": choice}) if view["phase"] == "bidding" else ("plays", {"card": choice})
        response = http.post(f"{base}/v1/games/{game_id}/{path}", json=body, headers=auth(token), timeout=10)
        assert response.status_code == 200, response.text
        made += 1


def my_turn(http: requests.Session, base: str, game_id: str, token: str) -> bool:
    view = http.get(f"{base}/v1/games/{game_id}", headers=auth(token), timeout=10).json()
    return view["phase"] == "game_over" or bool(view["legal"])
