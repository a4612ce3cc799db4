"""What ``WAIT`` for one replica costs a move: n=0 and n=1 side by side on the same cluster in one run.

``python -m benchmarks.wait_cost [--moves 600]`` starts a 3-master, 3-replica
cluster on loopback (``TEST_CLUSTER_BASE_PORT``, default 7101) and two
gunicorns on it (1 worker each), one with ``REDIS_WAIT_REPLICAS=0`` and one
with ``1`` (Celery on ``REDIS_URL``, default 127.0.0.1:6379 database 6, unused:
all seats are human).  One client sends moves one at a time, alternating blocks
of 50 between the two servers so machine noise falls on both alike, and prints
each setting's move latency (POST to response, ms) as JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import requests

from testkit.processes import free_port, gunicorn
from testkit.redis_cluster import benchmark_celery_url, loopback_cluster

RULES = {"preset": "partnership"}
BLOCK = 50


class Table:
    """One game of four human seats on one server, replaced by a new one when it ends."""

    def __init__(self, base: str, http: requests.Session, rng: random.Random) -> None:
        self.base, self.http, self.rng = base, http, rng
        self.game_id = ""
        self.tokens: list[str] = []

    def _new_game(self) -> None:
        body = {"rules": RULES, "seats": [{"type": "human"}] * 4}
        created = self.http.post(f"{self.base}/v1/games", json=body, timeout=30).json()
        self.game_id, self.tokens = created["game_id"], [s["token"] for s in created["seats"]]

    def move(self) -> float:
        """Make the next move; the POST's seconds."""
        while True:
            if not self.game_id:
                self._new_game()
            public = self.http.get(f"{self.base}/v1/games/{self.game_id}", timeout=30).json()
            if public["phase"] != "game_over":
                break
            self.game_id = ""
        auth = {"Authorization": f"Bearer {self.tokens[public['turn']]}"}
        mine = self.http.get(f"{self.base}/v1/games/{self.game_id}", headers=auth, timeout=30).json()
        if mine["phase"] == "bidding":
            path, body = (
                "bids",
                {"bid": self.rng.choice([b for b in mine["legal"] if isinstance(b, int) and b > 0] or mine["legal"])},
            )
        else:
            path, body = "plays", {"card": self.rng.choice(mine["legal"])}
        started = time.perf_counter()
        response = self.http.post(f"{self.base}/v1/games/{self.game_id}/{path}", json=body, headers=auth, timeout=30)
        elapsed = time.perf_counter() - started
        if response.status_code != 200:
            raise RuntimeError(f"move failed: {response.status_code} {response.text}")
        return elapsed


def summary(seconds: list[float]) -> dict[str, float]:
    ms = sorted(s * 1000 for s in seconds)
    return {
        "moves": len(ms),
        "mean_ms": round(statistics.fmean(ms), 3),
        "p50_ms": round(ms[len(ms) // 2], 3),
        "p99_ms": round(ms[min(len(ms) - 1, int(len(ms) * 0.99))], 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=600, help="moves per setting")
    args = parser.parse_args()
    timings: dict[str, list[float]] = {"0": [], "1": []}
    with loopback_cluster() as cluster:
        common = cluster.api_env(benchmark_celery_url(), RATE_LIMIT_ENABLED="0", AI_ENABLED="0", LOG_LEVEL="WARNING")
        unused = f"redis://127.0.0.1:{free_port()}/0"
        with (
            gunicorn(unused, workers=1, threads=4, env={**common, "REDIS_WAIT_REPLICAS": "0"}) as no_wait,
            gunicorn(unused, workers=1, threads=4, env={**common, "REDIS_WAIT_REPLICAS": "1"}) as one_replica,
        ):
            http, rng = requests.Session(), random.Random(1)
            tables = {"0": Table(no_wait, http, rng), "1": Table(one_replica, http, rng)}
            for table in tables.values():
                table.move()  # warm up: connections, script cache
            while len(timings["1"]) < args.moves:
                for n, table in tables.items():
                    timings[n] += [table.move() for _ in range(min(BLOCK, args.moves - len(timings[n])))]
    result = {f"wait_replicas_{n}": summary(seconds) for n, seconds in timings.items()}
    result["wait_cost_mean_ms"] = round(result["wait_replicas_1"]["mean_ms"] - result["wait_replicas_0"]["mean_ms"], 3)
    print(json.dumps({"benchmark": "wait_cost", **result}, indent=2))


if __name__ == "__main__":
    main()
