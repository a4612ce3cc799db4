"""Quick match under load: ``python -m benchmarks.matchmaking``.  Prints JSON.

    python -m benchmarks.matchmaking [--people 2000] [--seconds 60] [--wait 20] [--servers 2] [--workers 1]
                                     [--redis-url redis://127.0.0.1:6379/9] [--clocks | --no-clocks]

Starts ``--servers`` API servers (gunicorn, ``--workers`` processes each: by default two API processes) on one
Redis (its database flushed first), then ``--people`` simulated people arrive at random over ``--seconds``, each
a thread with its own HTTP client (requests): ``POST /v1/matches`` on one server (a mix of presets and clocks,
so some buckets fill at once and some only when the wait runs out), then long polls of ``GET
/v1/matches/{id}?wait=30`` on the other until the request is no longer waiting.  Time to a seat is the
person's: from sending the request to reading ``seated``.  The servers' and Redis's CPU per person is net of
their idle CPU, measured for ``--idle-seconds`` before the people arrive.  After the run every seated person
reads its game with its token (the seat must be its own), and every game's people are counted against the
requests seated in it.  Figures: time to a seat p50/p90/p99/max; the goal p99 <= the requested wait + 1 s; people seated twice
(a seat given to two people, a token that does not hold its seat, a person's seat no request holds): 0;
requests lost (not seated: an error, expired, still waiting): 0.  The exit status is 1 when either count is
not 0.  ``--clocks`` (the default) also runs ``python -m benchmarks.clocks`` when this checkout has it, and
puts its JSON under ``clocks``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from datetime import UTC, datetime
from typing import Any

import psutil
import redis
import requests
from prometheus_client.parser import text_string_to_metric_families

from testkit.processes import ROOT, running, start_gunicorn

from .host import machine

PRESETS = (("partnership", 0.75), ("individual", 0.20), ("house", 0.05))
CLOCKS = (("normal", 0.60), ("fast", 0.25), ("relaxed", 0.10), ("correspondence", 0.05))
LEVELS = ("easy", "basic", "standard")
SERVER_ENV = {
    "RATE_LIMIT_ENABLED": "0",  # every simulated person comes from 127.0.0.1
    "AI_DECISION_DEADLINE_SECONDS": "3600",  # no AI worker runs: the computers' turns just wait
    "RECORDS_ENABLED": "0",
}
_local = threading.local()


def _pick(rng: random.Random, weighted: tuple[tuple[str, float], ...]) -> str:
    return rng.choices([name for name, _ in weighted], [share for _, share in weighted])[0]


def _session() -> requests.Session:
    if not hasattr(_local, "session"):
        _local.session = requests.Session()
    return _local.session


def person(n: int, bases: list[str], body: dict[str, Any], bound: float) -> dict[str, Any]:
    """One person: ask on one server, follow on another; what it saw, with its own times (monotonic s)."""
    http = _session()
    asked = time.monotonic()
    out: dict[str, Any] = {"n": n, "asked": asked, "body": body, "status": "error", "polls": 0}
    try:
        created = http.post(f"{bases[n % len(bases)]}/v1/matches", json=body, timeout=30)
        if created.status_code != 202:
            out["error"] = f"POST {created.status_code}"
            return out
        match = created.json()
        follow = f"{bases[(n + 1) % len(bases)]}/v1/matches/{match['match_id']}"
        headers = {"Authorization": f"Bearer {match['secret']}"}
        while time.monotonic() - asked < bound:
            answer = http.get(follow, params={"wait": 30}, headers=headers, timeout=40)
            out["polls"] += 1
            if answer.status_code != 200:
                out["error"] = f"GET {answer.status_code}"
                return out
            seen = answer.json()
            if seen["status"] != "waiting":
                out.update(status=seen["status"], seated=time.monotonic(), match=seen)
                return out
        out["status"] = "still_waiting"
    except requests.RequestException as error:
        out["error"] = type(error).__name__
    return out


def checked(bases: list[str], outcomes: list[dict[str, Any]]) -> dict[str, Any]:
    """Every seat given once, each token holding its seat, every person's seat held by a request."""
    seated = [o["match"] for o in outcomes if o["status"] == "seated"]
    places = Counter((m["game_id"], m["seat"]) for m in seated)
    wrong_token, people = 0, Counter(m["game_id"] for m in seated)
    http = requests.Session()
    for m in seated:
        view = http.get(f"{bases[0]}/v1/games/{m['game_id']}", headers={"Authorization": f"Bearer {m['token']}"})
        wrong_token += view.status_code != 200 or view.json()["you"] != m["seat"]
    unheld = 0
    for game_id, count in people.items():
        seats = http.get(f"{bases[-1]}/v1/games/{game_id}", timeout=10).json()["seats"]
        unheld += sum(s["type"] == "human" for s in seats) - count
    twice = sum(n - 1 for n in places.values()) + wrong_token + unheld
    return {"seated_twice": twice, "seats_given_twice": sum(n - 1 for n in places.values()),
            "tokens_not_holding_their_seat": wrong_token, "people_seats_without_a_request": unheld,
            "games": len(people), "people_per_game": dict(sorted(Counter(people.values()).items()))}  # fmt: skip


def server_figures(bases: list[str]) -> dict[str, Any]:
    """The servers' own counts (``/metrics``; each server sums its processes)."""
    found: Counter[str] = Counter()
    for base in bases:
        for family in text_string_to_metric_families(requests.get(f"{base}/metrics", timeout=10).text):
            for sample in family.samples:
                if sample.name == "spades_matches_formed_total":
                    found[f"games_with_{sample.labels['people']}_people"] += int(sample.value)
                elif sample.name == "spades_match_requests_total":
                    found[f"requests_{sample.labels['outcome']}"] += int(sample.value)
    return dict(sorted(found.items()))


def cpu_seconds(processes: list[psutil.Process], store: redis.Redis) -> tuple[float, float]:
    """CPU used so far by the API servers (each master and its workers) and by the whole Redis server."""
    api = 0.0
    for process in processes:
        for each in (process, *process.children(recursive=True)):
            times = each.cpu_times()
            api += times.user + times.system
    info = store.info("cpu")
    return api, float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def run(args: argparse.Namespace) -> dict[str, Any]:
    store = redis.Redis.from_url(args.redis_url)
    store.flushdb()
    rng = random.Random(args.seed)
    arrivals = sorted(rng.uniform(0, args.seconds) for _ in range(args.people))
    bodies = [
        {"rules": {"preset": _pick(rng, PRESETS)}, "clock": _pick(rng, CLOCKS), "max_wait_seconds": args.wait,
         "fill_level": rng.choice(LEVELS)}
        for _ in arrivals
    ]  # fmt: skip
    with ExitStack() as stack:
        bases, processes = [], []
        for _ in range(args.servers):
            process, base = start_gunicorn(args.redis_url, workers=args.workers, env=SERVER_ENV)
            stack.enter_context(running(process))
            bases.append(base)
            processes.append(psutil.Process(process.pid))
        idle_before = cpu_seconds(processes, store)
        time.sleep(args.idle_seconds)  # the servers' own background work (sweeps, writers), nobody asking
        cpu_before = cpu_seconds(processes, store)
        idle = [(b - a) / args.idle_seconds for a, b in zip(idle_before, cpu_before, strict=True)]
        bound = args.wait + 60.0
        with ThreadPoolExecutor(args.threads) as pool:
            start = time.monotonic()
            futures, late = [], 0.0
            for n, (at, body) in enumerate(zip(arrivals, bodies, strict=True)):
                delay = start + at - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                late = max(late, -delay)
                futures.append(pool.submit(person, n, bases, body, bound))
            outcomes = [future.result() for future in futures]
        elapsed = time.monotonic() - start
        cpu_after = cpu_seconds(processes, store)
        checks = checked(bases, outcomes)
        servers = server_figures(bases)
    seat_times = [o["seated"] - o["asked"] for o in outcomes if o["status"] == "seated"]
    statuses = Counter(o["status"] for o in outcomes)
    p99 = percentile(seat_times, 0.99) if seat_times else None
    return {
        "people": args.people,
        "seconds": args.seconds,
        "wait_seconds": args.wait,
        "servers": args.servers,
        "api_processes": args.servers * args.workers,
        "run_seconds": round(elapsed, 1),
        "latest_arrival_behind_schedule_ms": round(late * 1000, 1),
        "statuses": dict(statuses),
        "errors": dict(Counter(o.get("error") for o in outcomes if o.get("error"))),
        "lost": args.people - statuses.get("seated", 0),
        "time_to_seat_ms": {
            "p50": round(statistics.median(seat_times) * 1000, 1) if seat_times else None,
            "p90": round(percentile(seat_times, 0.90) * 1000, 1) if seat_times else None,
            "p99": round(p99 * 1000, 1) if p99 is not None else None,
            "max": round(max(seat_times) * 1000, 1) if seat_times else None,
        },
        "goal_p99_ms_max": (args.wait + 1) * 1000,
        "p99_within_goal": p99 is not None and p99 <= args.wait + 1,
        "max_past_the_wait_ms": round(max(0.0, max(seat_times) - args.wait) * 1000, 1) if seat_times else None,
        "api_cpu_ms_per_person": round((cpu_after[0] - cpu_before[0] - idle[0] * elapsed) * 1000 / args.people, 2),
        "redis_cpu_us_per_person": round((cpu_after[1] - cpu_before[1] - idle[1] * elapsed) * 1e6 / args.people, 1),
        "idle_cpu_ms_per_second": {"api": round(idle[0] * 1000, 2), "redis": round(idle[1] * 1000, 2)},
        "long_polls_per_person": round(sum(o["polls"] for o in outcomes) / max(1, len(outcomes)), 2),
        **checks,
        "server": servers,
    }


def clocks_part(extra: list[str]) -> dict[str, Any]:
    """``python -m benchmarks.clocks`` (its JSON), when this checkout has it."""
    if importlib.util.find_spec("benchmarks.clocks") is None:
        return {"skipped": "benchmarks/clocks.py is not in this checkout"}
    done = subprocess.run([sys.executable, "-m", "benchmarks.clocks", *extra], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        return {"failed": done.returncode, "stderr": done.stderr[-2000:]}
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=60.0, help="the people arrive at random over this long")
    parser.add_argument("--wait", type=int, default=20, help="every request's max_wait_seconds (5 to 120)")
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--workers", type=int, default=1, help="API processes per server")
    parser.add_argument("--threads", type=int, default=400, help="client threads (people waiting at once)")
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument(
        "--idle-seconds", type=float, default=10.0, help="the servers' idle CPU is measured this long first"
    )
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/9", help="flushed first")
    parser.add_argument("--clocks", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--clocks-args", default="", help="arguments for python -m benchmarks.clocks")
    args = parser.parse_args(argv)
    out: dict[str, Any] = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "command": "python -m benchmarks.matchmaking " + " ".join(argv if argv is not None else sys.argv[1:]),
        "matchmaking": run(args),
    }
    if args.clocks:
        out["clocks"] = clocks_part(args.clocks_args.split())
    print(json.dumps(out, indent=2))
    figures = out["matchmaking"]
    return 1 if figures["lost"] or figures["seated_twice"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
