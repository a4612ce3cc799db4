"""Speed of expert's exact endgame search with and without its memo, printed as JSON.

    python -m benchmarks.endgame [--positions 100] [--deals 200] [--tricks 4] [--cpu 0]

Collects ``--positions`` positions with ``--tricks`` tricks left (a seat to play with more than one
legal card) from single partnership rounds of hard against hard (game seeds 9000, 9001, ...), then
times :func:`services.ai_worker.levels.expert.endgame_values` – ``--deals`` deals solved exactly, as
expert solves them – on each, once with expert's memo (``2**dd.MEMO_BITS`` slots) and once with a
memo of two slots, in one process pinned to one CPU, every deal solved (no budget of positions).  Both
must give every position the same values (the memo only saves work); ``values_equal`` says they did.
The figure behind the memo's row in ``docs/architecture.md``'s caches.  Then once more as expert
decides, stopping at ``expert.DD_NODE_BUDGET`` searched positions (``expert_budget``), with the
positions searched per millisecond that turn the budget into time.  A benchmark, not a test: nothing
fails.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

import numpy as np

from benchmarks.tournament import play
from services.ai_worker import decide, warm_up
from services.ai_worker.dealing import NO_WORLDS, rng_seed
from services.ai_worker.levels import expert, hard
from services.ai_worker.levels.dd import MEMO_BITS, new_memo
from services.ai_worker.position import position_of
from services.computers import deck_of
from services.engine import make_rules

FIRST_GAME_SEED = 9000
SMALL_MEMO_BITS = 1


def endgame_views(count: int, tricks_left: int) -> list[dict[str, Any]]:
    """``count`` seat views with ``tricks_left`` cards in hand and a choice to make, from hard's rounds
    (:func:`benchmarks.tournament.play`, every view its decider sees)."""
    rules = make_rules("partnership")
    views: list[dict[str, Any]] = []

    def keep(seat_view: dict[str, Any], level: str, seed: int) -> dict[str, Any]:
        if seat_view["phase"] == "playing" and len(seat_view["hand"]) == tricks_left and len(seat_view["legal"]) > 1:
            views.append(seat_view)
        return decide(seat_view, level, seed)

    game_seed = FIRST_GAME_SEED
    while len(views) < count:
        play(rules, game_seed, ("hard",) * 4, lambda n, g=game_seed: g * 1000 + n, 1, decider=keep)
        game_seed += 1
    return views[:count]


def solve(seat_view: dict[str, Any], deals: int, seed: int, bits: int, budget: int) -> tuple[np.ndarray, int]:
    """Expert's exact values of ``seat_view``'s legal cards over ``deals`` deals, with a memo of ``2**bits``
    (fewer deals once ``budget`` positions are searched), and the positions searched."""
    deck = deck_of(seat_view)
    legal = sum(1 << deck.parse(code) for code in seat_view["legal"])
    memo = new_memo(bits)
    values = expert.endgame_values(
        position_of(seat_view), legal, hard.PLAY_MISMATCH, deals, budget, rng_seed(seed), *memo, NO_WORLDS
    )
    return values, int(memo[2][0])


def timed(
    views: list[dict[str, Any]], deals: int, bits: int, budget: int = expert.NO_NODE_BUDGET
) -> tuple[dict[str, float], list[np.ndarray]]:
    """Milliseconds per position (mean, p90, max), positions searched per millisecond, and each
    position's values."""
    times, values, nodes = [], [], 0
    for i, seat_view in enumerate(views):
        started = time.perf_counter()
        value, searched = solve(seat_view, deals, i, bits, budget)
        times.append((time.perf_counter() - started) * 1000)
        values.append(value)
        nodes += searched
    figures = {
        "mean_ms": round(float(np.mean(times)), 1),
        "p90_ms": round(float(np.percentile(times, 90)), 1),
        "max_ms": round(float(np.max(times)), 1),
        "positions_per_ms": round(nodes / sum(times)),
    }
    return figures, values


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="expert's exact endgame search, memo against none (JSON)")
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--deals", type=int, default=max(expert.DD_SAMPLES.values()), help="deals solved a position")
    parser.add_argument("--tricks", type=int, default=max(expert.DD_SAMPLES), help="tricks left (2 to 13)")
    parser.add_argument("--cpu", type=int, default=0, help="CPU to pin to (-1: no pinning)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    if args.cpu >= 0 and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})
    warm_up()
    views = endgame_views(args.positions, args.tricks)
    solve(views[0], 1, 0, SMALL_MEMO_BITS, expert.NO_NODE_BUDGET)  # compiled before timing
    with_memo, memo_values = timed(views, args.deals, MEMO_BITS)
    without, small_values = timed(views, args.deals, SMALL_MEMO_BITS)
    budgeted, _ = timed(views, args.deals, MEMO_BITS, expert.DD_NODE_BUDGET)
    report = {
        "positions": len(views),
        "tricks_left": args.tricks,
        "deals_per_position": args.deals,
        "cpu_pinned": args.cpu if args.cpu >= 0 else None,
        f"memo_2**{MEMO_BITS}": with_memo,
        f"memo_2**{SMALL_MEMO_BITS}": without,
        "values_equal": all(np.array_equal(a, b) for a, b in zip(memo_values, small_values, strict=True)),
        "expert_budget": {"positions": expert.DD_NODE_BUDGET, **budgeted},
    }
    print(json.dumps(report))
    return report


if __name__ == "__main__":
    main()
