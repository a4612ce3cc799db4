"""Engine benchmark: prints JSON.

    python -m benchmarks.engine [--seconds 3]

Figures: random full rounds per second through the public ``apply`` API
(uniformly random legal moves, ``legal_moves`` included), ``legal_moves``
calls per second, stored bytes for a fresh game, mid-round and after ten
rounds with their hand records, and the µs of ``new_game`` (a game's first
deal) from a server's secret and from a chosen seed, measured in alternating
slices (the medians).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time

from services.engine import apply, legal_moves, make_rules, new_game, to_json, turn


def rounds_per_second(seconds: float) -> float:
    rules = make_rules("partnership", win_score=100_000, lose_score=None)
    rng = random.Random(1)
    state = new_game(rules, seed=1)
    rounds, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        round_no = state.round
        while state.round == round_no:
            seat = turn(state)
            state = apply(state, seat, rng.choice(legal_moves(state, seat)))
        rounds += 1
        if rounds % 50 == 0:  # keep history (and state size) bounded
            state = new_game(rules, seed=rounds)
    return rounds / (time.perf_counter() - start)


def legal_moves_per_second(seconds: float) -> float:
    rng = random.Random(2)
    positions = []
    state = new_game(make_rules("partnership"), seed=2)
    while len(positions) < 52:
        seat = turn(state)
        positions.append((state, seat))
        state = apply(state, seat, rng.choice(legal_moves(state, seat)))
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for state, seat in positions:
            legal_moves(state, seat)
        calls += len(positions)
    return calls / (time.perf_counter() - start)


def new_game_microseconds(seconds: float) -> dict[str, float]:
    """µs per ``new_game`` (the rules, a blank state and round 1's deal) without a seed (the server's
    secret: SHAKE-256) and with one (Mersenne Twister), side by side in alternating slices."""
    rules = make_rules("partnership")
    slices: dict[str, list[float]] = {"secret": [], "chosen_seed": []}
    count, deadline = 200, time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        for name, seed in (("secret", None), ("chosen_seed", 12345)):
            start = time.perf_counter()
            for _ in range(count):
                new_game(rules, seed)
            slices[name].append((time.perf_counter() - start) / count * 1e6)
    return {name: round(statistics.median(times), 1) for name, times in slices.items()}


def stored_bytes() -> dict[str, int]:
    rules = make_rules("partnership", win_score=100_000, lose_score=None)
    rng = random.Random(3)
    state = new_game(rules, seed=3)
    sizes = {"fresh_game": len(to_json(state).encode())}
    while state.round <= 10:
        seat = turn(state)
        state = apply(state, seat, rng.choice(legal_moves(state, seat)))
        if state.round == 1 and len(state.plays) == 26:
            sizes["mid_round"] = len(to_json(state).encode())
    sizes["after_10_rounds"] = len(to_json(state).encode())
    return sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per throughput figure")
    args = parser.parse_args()
    print(
        json.dumps(
            {
                "benchmark": "engine",
                "python": platform.python_version(),
                "random_rounds_per_second": round(rounds_per_second(args.seconds), 1),
                "legal_moves_calls_per_second": round(legal_moves_per_second(args.seconds)),
                "stored_bytes": stored_bytes(),
                "new_game_microseconds": new_game_microseconds(args.seconds),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
