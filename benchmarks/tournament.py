"""Duplicate tournament between two computer levels, on the real engine.

    python -m benchmarks.tournament --a pro --b standard --preset partnership --rounds 2000 --seed 1

Each of ``--rounds`` deals (round 1 of ``new_game(rules, seed=seed + i)``) is
played twice with the same cards:

* partnership: level A holds seats 0 & 2 (team 0) and B seats 1 & 3, then the
  levels swap teams;
* individual: A holds seats 0 & 2 and B seats 1 & 3 (each seat scoring alone),
  then swapped, so across the pair each level sits in every seat position.

The engine drives everything (``new_game``/``view``/``apply``) and scores the
round (``history[0].points``).  Every deal is a fresh game, so bags do not
carry across rounds (a 10-bag penalty only hits a side that takes 10 bags in
one round) – the figures are points per round, not games.

A level's points for one play: its team's points (partnership) or the mean of
its two seats' points (individual).  Per deal the paired difference is the
mean over the two plays of (A's points − B's points); the JSON reports the
mean points per round of each level, that difference with a 95% confidence
interval (normal, over the deals), and rounds won (per play, the level with
more points; ties counted apart).  Two worker processes share the deals.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import time
from typing import Any

from services.ai_worker import LEVELS, decide, warm_up
from services.engine import Bid, Play, apply, make_rules, new_game, parse_card, turn, view


def play_round(preset: str, deal_seed: int, seat_levels: tuple[str, ...], decision_seed: int) -> tuple[int, ...]:
    """Points per seat's side for one round of ``deal_seed`` with ``seat_levels``."""
    state = new_game(make_rules(preset), seed=deal_seed)
    move_no = 0
    while not state.history:
        seat = turn(state)
        decision = decide(view(state, seat), seat_levels[seat], decision_seed * 1000 + move_no)
        move = Bid(decision["bid"]) if "bid" in decision else Play(parse_card(decision["card"]))
        state = apply(state, seat, move)
        move_no += 1
    return state.history[0].points


def level_points(preset: str, points: tuple[int, ...], a_seats: tuple[int, int]) -> tuple[float, float]:
    """(A's points, B's points) for one play."""
    if preset == "partnership":
        a_side = a_seats[0] % 2
        return float(points[a_side]), float(points[1 - a_side])
    b_seats = [s for s in range(4) if s not in a_seats]
    return sum(points[s] for s in a_seats) / 2, sum(points[s] for s in b_seats) / 2


def play_deal(args: tuple[str, str, str, int]) -> tuple[float, float, float, float]:
    """Both plays of one duplicate deal: (A, B) points of each."""
    preset, a, b, deal_seed = args
    first = (a, b, a, b)
    second = (b, a, b, a)
    a1, b1 = level_points(preset, play_round(preset, deal_seed, first, 2 * deal_seed), (0, 2))
    a2, b2 = level_points(preset, play_round(preset, deal_seed, second, 2 * deal_seed + 1), (1, 3))
    return a1, b1, a2, b2


def summarise(results: list[tuple[float, float, float, float]]) -> dict[str, Any]:
    n = len(results)
    diffs = [((a1 - b1) + (a2 - b2)) / 2 for a1, b1, a2, b2 in results]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    stderr = math.sqrt(var / n)
    plays = [(a1, b1) for a1, b1, _, _ in results] + [(a2, b2) for _, _, a2, b2 in results]
    return {
        "mean_points_per_round": {
            "a": round(sum(p[0] for p in plays) / len(plays), 2),
            "b": round(sum(p[1] for p in plays) / len(plays), 2),
        },
        "difference_a_minus_b": {
            "mean": round(mean, 2),
            "ci95": [round(mean - 1.96 * stderr, 2), round(mean + 1.96 * stderr, 2)],
            "stderr": round(stderr, 3),
        },
        "rounds_won": {
            "a": sum(1 for x, y in plays if x > y),
            "b": sum(1 for x, y in plays if y > x),
            "tie": sum(1 for x, y in plays if x == y),
        },
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", choices=LEVELS, required=True)
    parser.add_argument("--b", choices=LEVELS, required=True)
    parser.add_argument("--preset", choices=("partnership", "individual"), default="partnership")
    parser.add_argument("--rounds", type=int, default=2000, help="duplicate deals (each is played twice)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    jobs = [(args.preset, args.a, args.b, args.seed * 1_000_003 + i) for i in range(args.rounds)]
    if args.processes > 1:
        with multiprocessing.get_context("fork").Pool(args.processes, initializer=warm_up) as pool:
            results = pool.map(play_deal, jobs, chunksize=20)
    else:
        warm_up()
        results = [play_deal(job) for job in jobs]
    report = {
        "a": args.a,
        "b": args.b,
        "preset": args.preset,
        "deals": args.rounds,
        "plays": 2 * args.rounds,
        "seed": args.seed,
        **summarise(results),
        "elapsed_s": round(time.perf_counter() - started, 1),
    }
    print(json.dumps(report))
    return report


if __name__ == "__main__":
    main()
