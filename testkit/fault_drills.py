"""Fault drills that a benchmark command measures and an integration test asserts on: one scenario each,
so the figures in docs/benchmarks.md and the tests' guarantees come from the same code.

* :func:`api_kills`: games played while gunicorn's worker processes are SIGKILLed mid-request
  (``benchmarks.faults``, and the API's fault tests);
* :func:`play_through_failover`: a game played through the SIGKILL of the Redis Cluster master holding its
  slot (``benchmarks.failover``, and the API's failover test); :func:`start_game` and :func:`acknowledged_lost`,
  the same player and check around the runbook's planned failover (``tests/operations/test_fail_over.py``).
"""

from __future__ import annotations

import random
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import psutil
import redis
import requests

from testkit.stored import stored_state

from .http_clients import EventFollower, random_move, replay_events
from .processes import running, start_gunicorn
from .redis_cluster import LoopbackCluster, until

API_KILLS_RULES = {"preset": "partnership", "win_score": 120, "lose_score": -120}


def api_kills(kills: int = 18, url: str = "redis://127.0.0.1:6379/5") -> dict[str, int]:
    """Four games played by threads while ``kills`` gunicorn workers are SIGKILLed, one every 0.4 s at
    the soonest (the master starts new ones; each kill waits for a live worker, so a slow machine makes the
    drill longer, never smaller), on the Redis database ``url`` (flushed first)."""
    client = redis.Redis.from_url(url)
    client.flushdb()
    server, base = start_gunicorn(url, workers=2, env={"AI_ENABLED": "0", "RATE_LIMIT_ENABLED": "0"})
    failures = 0
    lock = threading.Lock()
    done = threading.Event()
    with running(server):
        games = []
        for seed in range(4):
            body = {"rules": API_KILLS_RULES, "seats": [{"type": "human"}] * 4, "seed": seed}
            created = requests.post(f"{base}/v1/games", json=body, timeout=10).json()
            games.append((seed, created["game_id"], [s["token"] for s in created["seats"]]))
        # the log keeps only the last rounds: each game's whole log is read as it happens
        followers = {game_id: EventFollower(base, game_id) for _, game_id, _ in games}
        for follower in followers.values():
            follower.start()

        def player(game_id: str, tokens: list[str], seed: int) -> None:
            nonlocal failures
            http, rng = requests.Session(), random.Random(seed)
            while not done.is_set():
                try:
                    view = http.get(f"{base}/v1/games/{game_id}", timeout=5).json()
                    if view["phase"] == "game_over":
                        return
                    random_move(http, base, game_id, tokens[view["turn"]], rng)
                except (requests.RequestException, ValueError, KeyError):
                    with lock:
                        failures += 1

        threads = [threading.Thread(target=player, args=(g, t, s)) for s, g, t in games]
        for thread in threads:
            thread.start()
        killed = 0
        master = psutil.Process(server.pid)
        while killed < kills:
            time.sleep(0.4)  # the pace of the drill, not a wait for anything
            until(master.children, "gunicorn started no worker again")
            random.choice(master.children()).send_signal(signal.SIGKILL)
            killed += 1
        done.set()
        for thread in threads:
            thread.join()
        inconsistent = moves = 0
        for seed, game_id, _ in games:
            stored = stored_state(client, game_id)
            version = int(client.hget(f"game:{{{game_id}}}", "v"))
            events = followers[game_id].finish()
            game_moves = sum(e["type"] in ("bid", "card_played") for e in events)
            moves += game_moves
            # the stored state is the log replayed, every accepted move is in the log once, and every commit
            # (a move; the outage the kills made, given back to the clocks) left its entries: no version missing
            logged = {e["version"] for e in events}
            inconsistent += replay_events(API_KILLS_RULES, seed, events) != stored or logged != set(
                range(1, version + 1)
            )
    return {
        "worker_kills": killed,
        "requests_cut_off": failures,
        "moves_applied": moves,
        "games_state_and_log_disagree": inconsistent,
    }


FAILOVER_RULES = {"preset": "partnership", "win_score": 60, "lose_score": -60}
RETRY_PAUSE = 0.05  # a client's pause between retries: shorter than Retry-After, so the outage is timed finely


@dataclass
class Play:
    """What the client saw: acknowledged moves (version, seat, kind, body), refusals, and when."""

    acked: list[tuple[int, int, str, dict[str, Any]]] = field(default_factory=list)
    ack_times: list[float] = field(default_factory=list)
    ack_sent: list[float] = field(default_factory=list)  # when each acknowledged move's answered attempt left
    attempt_sent: float = 0.0
    refused: Counter = field(default_factory=Counter)
    finished: bool = False
    error: str | None = None
    stop: threading.Event = field(default_factory=threading.Event)  # set: the player stops before its next move


def _until_answered(http: requests.Session, method: str, url: str, play: Play, **kwargs: Any) -> requests.Response:
    """Send until the answer is not a 503 (each 503 counted by its code), for at most 120 s."""
    deadline = time.monotonic() + 120
    while True:
        play.attempt_sent = time.monotonic()
        try:
            response = http.request(method, url, timeout=30, **kwargs)
        except requests.RequestException as error:
            play.refused[f"connection:{error.__class__.__name__}"] += 1
        else:
            if response.status_code != 503:
                return response
            play.refused[f"{method} 503 {response.json().get('code')}"] += 1
        if time.monotonic() > deadline:
            raise RuntimeError(f"{method} {url}: still 503 after 120 s")
        time.sleep(RETRY_PAUSE)


def _player(base: str, game_id: str, tokens: list[str], play: Play, seed: int) -> None:
    rng, http, moves = random.Random(seed), requests.Session(), 0
    try:
        while not play.stop.is_set():
            public = _until_answered(http, "GET", f"{base}/v1/games/{game_id}", play).json()
            if public["phase"] == "game_over":
                play.finished = True
                return
            seat = public["turn"]
            auth = {"Authorization": f"Bearer {tokens[seat]}"}
            mine = _until_answered(http, "GET", f"{base}/v1/games/{game_id}", play, headers=auth).json()
            kind, body = (
                "bids",
                {"bid": rng.choice([b for b in mine["legal"] if isinstance(b, int) and 1 <= b <= 4] or mine["legal"])},
            )
            if mine["phase"] != "bidding":
                kind, body = "plays", {"card": rng.choice(mine["legal"])}
            moves += 1
            headers = {**auth, "Idempotency-Key": f"move-{moves}"}
            url = f"{base}/v1/games/{game_id}/{kind}"
            response = _until_answered(http, "POST", url, play, json=body, headers=headers)
            if response.status_code != 200:
                raise RuntimeError(f"move refused: {response.status_code} {response.text}")
            play.acked.append((response.json()["version"], seat, kind, body))
            play.ack_times.append(time.monotonic())
            play.ack_sent.append(play.attempt_sent)
    except Exception as error:  # reported by the caller
        play.error = repr(error)


def _lost(base: str, game_id: str, acked: list[tuple[int, int, str, dict[str, Any]]]) -> tuple[int, int]:
    """(acknowledged moves missing from the final event log, moves in the log)."""
    url = f"{base}/v1/games/{game_id}/events"
    answer = _until_answered(requests.Session(), "GET", url, Play(), params={"after": 0})  # a 503 read again
    if answer.status_code != 200:
        raise RuntimeError(f"GET {url}: {answer.status_code} {answer.text}")
    events = answer.json()["events"]
    moves = {e["version"]: e["data"] for e in events if e["type"] in ("bid", "card_played")}
    missing = 0
    for version, seat, _kind, body in acked:
        expected = {"seat": seat, **body}
        found = moves.get(version)
        missing += found is None or {k: found.get(k) for k in expected} != expected
    return missing, len(moves)


def start_game(base: str, rules: dict[str, Any] = FAILOVER_RULES, seed: int = 7) -> tuple[str, threading.Thread, Play]:
    """A game of four people created on ``base`` and played by a thread to its end (or its ``Play.stop``), every
    move retried through 503s with its ``Idempotency-Key``: its id, the thread and what the player saw (the
    runbook's failover drill)."""
    body = {"rules": rules, "seats": [{"type": "human"}] * 4}
    created = requests.post(f"{base}/v1/games", json=body, timeout=30).json()
    game_id, tokens, play = created["game_id"], [s["token"] for s in created["seats"]], Play()
    player = threading.Thread(target=_player, args=(base, game_id, tokens, play, seed))
    player.start()
    return game_id, player, play


def acknowledged_lost(base: str, game_id: str, play: Play) -> int:
    """The moves ``play`` saw acknowledged that the game's final log lacks."""
    return _lost(base, game_id, play.acked)[0]


def play_through_failover(
    base: str,
    cluster: LoopbackCluster,
    kill_after: int = 30,
    seed: int = 7,
    on_created: Callable[[str], None] | None = None,
    restart: bool = True,
) -> dict[str, Any]:
    """Play a game on ``base`` (a cluster-mode API), killing its slot's master after ``kill_after`` acks;
    ``on_created(game_id)`` runs before the first move (tests start a stream on the game there).

    ``restart``: the killed node is started again and rejoins as a replica (a StatefulSet's pod coming back);
    without it the node is lost for good, and the shard's moves are confirmed again only by another replica
    of the dead master, which follows the promoted one (a cluster with two replicas per master)."""
    created = requests.post(
        f"{base}/v1/games", json={"rules": FAILOVER_RULES, "seats": [{"type": "human"}] * 4}, timeout=30
    ).json()
    game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    if on_created is not None:
        on_created(game_id)
    play = Play()
    player = threading.Thread(target=_player, args=(base, game_id, tokens, play, seed))
    player.start()
    until(lambda: len(play.acked) >= kill_after or play.error, "moves before the kill", 120)
    key = f"game:{{{game_id}}}"
    victim = cluster.master_of(key)
    killed_at = time.monotonic()
    cluster.kill(victim)
    promoted = until(lambda: cluster.master_of(key) != victim, "a replica promoted", 60)
    replica_back = None
    if restart:
        cluster.restart(victim)
        replica_back = round(time.monotonic() - killed_at, 3)
    until(cluster.healthy, "every master with a linked replica again", 60)
    relinked = time.monotonic() - killed_at
    player.join(timeout=300)
    if play.error:
        raise RuntimeError(play.error)
    # the player keeps moving while the kill happens: the window runs from the last acknowledgement before the
    # kill to the first of a move whose answered attempt was sent after it
    acked_before = sum(t <= killed_at for t in play.ack_times)
    last_before = play.ack_times[acked_before - 1]
    after = [t for t, sent in zip(play.ack_times, play.ack_sent, strict=True) if sent > killed_at]
    first_after = after[0] if after else None
    lost, applied = _lost(base, game_id, play.acked)
    return {
        "game_finished": play.finished,
        "moves_acknowledged": len(play.acked),
        "moves_applied": applied,
        "acknowledged_moves_lost": lost,
        "acknowledged_before_kill": acked_before,
        "refused_or_failed_during_failover": dict(play.refused),
        "seconds_unavailable": None if first_after is None else round(first_after - last_before, 3),
        "seconds_to_promotion": round(promoted, 3),
        "killed_node_restarted": restart,
        "seconds_to_restart_of_killed_node": replica_back,
        "seconds_until_replica_linked": round(relinked, 3),
        "killed_master_port": victim,
    }
