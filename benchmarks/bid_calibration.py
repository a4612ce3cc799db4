"""How well a searching level foresees its own rounds: the make chance its bid search gives, against the table.

    python -m benchmarks.bid_calibration --level expert --preset individual --deals 400 --opponents standard,hard

Hard and expert choose a bid by playing the round out over sampled deals with every other seat modelled as
normal plays (docs/ai.md), and report the chance each candidate bid is made (``make_chance``).  At a table
that plays better or worse than that model the chance is off, and the bids with it: this command measures by
how much, against each opponent.  On each deal (:func:`benchmarks.gauntlet.deal_seeds`) the level sits as in
the gauntlet: in the individual game alone against three of the opponent, on each seat in turn; in
partnership as one side, then the other.  At each of its bids with its hand seen it records the make chance
of the bid it chose, of one trick more, and of nil, and then what the round gave.  Per opponent the JSON has:

* ``contracts``: over its bids other than nil, the mean make chance (``foreseen``) and the share made
  (``made``, with its Wilson 95 % interval): the side's contract in partnership, the seat's own bid alone;
* ``one_more``: the same for one trick more than the bid (its chance as a candidate; made when the round
  gave that many, played for the bid it chose: a seat that ducks once its contract is made takes fewer than
  it would have taken playing for one more);
* ``nils``: the same for its nils;
* ``reliability``: its bids other than nil by tenth of their make chance, with the share made in each;
* ``mean_bid`` and ``mean_tricks``: its bids other than nil and the tricks its seat took on them.

A level's moves are its ``analysis(view, seed)["move"]``, the moves ``services.ai_worker.decide`` makes,
so the rounds are the gauntlet's.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from benchmarks.gauntlet import deal_seeds, gauntlet_decider, opponents_arg
from benchmarks.ratings import BOT
from benchmarks.tournament import move_seeds, play, run_jobs
from services.ai_worker.dispatch import level_module
from services.computers import LEVEL_NAMES
from services.engine import Rules, make_rules
from spades_client.duplicate import RoundFacts, contract_and_tricks, seatings, wilson
from testkit.people_bots import PEOPLE

SEARCHING = ("expert", "hard")  # the levels whose bid search reports a make chance
OPPONENTS: tuple[str, ...] = (*LEVEL_NAMES, BOT, *PEOPLE)
PRESETS = ("partnership", "individual")
TENTHS = 10


def made(rules: Rules, seat: int, bid: int, facts: RoundFacts) -> bool:
    """Whether ``bid`` by ``seat`` would be made by the tricks of ``facts`` (a nil: no trick; otherwise the
    contract of the seat's side, its partner's actual bid included, as the engine scores it)."""
    if bid == 0:
        return facts.tricks[seat] == 0
    bids = tuple(bid if s == seat else b for s, b in enumerate(facts.bids))
    contract, taken = contract_and_tricks(rules, replace(facts, bids=bids), rules.side_of(seat))
    return taken >= contract


def bid_record(rules: Rules, seat: int, analysis: dict[str, Any], facts: RoundFacts) -> dict[str, Any]:
    """One bid of the level: the make chances its search gave and what the round gave."""
    chances = {c["bid"]: c["make_chance"] for c in analysis["candidates"] if "make_chance" in c}
    bid = analysis["move"]["bid"]
    record: dict[str, Any] = {"bid": bid, "tricks": facts.tricks[seat], "chance": chances[bid]}
    record["made"] = made(rules, seat, bid, facts)
    if bid > 0 and bid + 1 in chances:
        record["one_more"] = (chances[bid + 1], made(rules, seat, bid + 1, facts))
    return record


def play_deal(job: tuple[str, str, str, int]) -> list[dict[str, Any]]:
    """Every bid the level made with its hand seen on one deal, in each seating of the deal."""
    preset, level, opponent, game_seed = job
    rules = make_rules(preset)
    analyse: Callable[[dict[str, Any], int], dict[str, Any]] = level_module(level).analysis
    seated = seatings(level, opponent, alone=not rules.partnership)
    records = []
    for swapped, seating in enumerate(seated):
        others = gauntlet_decider(seating.levels, game_seed, swapped)
        seen: dict[int, dict[str, Any]] = {}

        def decider(view: dict[str, Any], player: str, seed: int, seating=seating, others=others, seen=seen):
            seat = view["you"]
            if seat in seating.a_seats and view["phase"] == "bidding" and view["hand"] is not None:
                analysis = analyse(view, seed)
                if len(analysis["candidates"]) > 1:  # a lone legal bid is not searched: no chance to weigh
                    seen[seat] = analysis
                return analysis["move"]
            return others(view, player, seed)

        played = play(rules, game_seed, seating.levels, move_seeds(len(seated), game_seed, swapped, 1), 1, decider)
        records += [bid_record(rules, seat, seen[seat], played.rounds[0]) for seat in sorted(seen)]
    return records


def share(pairs: list[tuple[float, bool]]) -> dict[str, Any]:
    """Foreseen (mean chance) against made (share, Wilson 95 %) over ``(chance, made)`` pairs."""
    n = len(pairs)
    if not n:
        return {"bids": 0}
    hits = sum(1 for _, hit in pairs if hit)
    foreseen = sum(chance for chance, _ in pairs) / n
    return {"bids": n, "foreseen": round(foreseen, 3), "made": round(hits / n, 3), "made_wilson95": wilson(hits, n)}


def summarise(records: list[dict[str, Any]]) -> dict[str, Any]:
    """One opponent's figures over the level's bids."""
    contracts = [r for r in records if r["bid"] > 0]
    by_tenth: dict[int, list[tuple[float, bool]]] = {}
    for r in contracts:
        by_tenth.setdefault(min(TENTHS - 1, int(r["chance"] * TENTHS)), []).append((r["chance"], r["made"]))
    return {
        "bids": len(records),
        "contracts": share([(r["chance"], r["made"]) for r in contracts]),
        "one_more": share([r["one_more"] for r in contracts if "one_more" in r]),
        "nils": share([(r["chance"], r["made"]) for r in records if r["bid"] == 0]),
        "reliability": [
            {"chance": [tenth / TENTHS, (tenth + 1) / TENTHS], **share(by_tenth[tenth])} for tenth in sorted(by_tenth)
        ],
        "mean_bid": round(sum(r["bid"] for r in contracts) / len(contracts), 3) if contracts else None,
        "mean_tricks": round(sum(r["tricks"] for r in contracts) / len(contracts), 3) if contracts else None,
    }


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", choices=SEARCHING, default="expert")
    parser.add_argument("--preset", choices=PRESETS, default="individual")
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument(
        "--opponents", default="standard,normal,pro,hard", help="comma-separated, of: " + ", ".join(OPPONENTS)
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args(argv)
    args.opponents = opponents_arg(parser, args.opponents, OPPONENTS)
    return args


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    started = time.perf_counter()
    seeds = deal_seeds(args.seed, args.deals)
    jobs = [(args.preset, args.level, opponent, seed) for opponent in args.opponents for seed in seeds]
    results = run_jobs(play_deal, jobs, args.processes, chunksize=5)
    rows = {
        opponent: summarise([r for deal in results[i * args.deals : (i + 1) * args.deals] for r in deal])
        for i, opponent in enumerate(args.opponents)
    }
    report: dict[str, Any] = {"level": args.level, "preset": args.preset, "deals": args.deals, "seed": args.seed}
    report["seating"] = "pairs" if make_rules(args.preset).partnership else "alone"
    report["opponents"] = rows
    report["elapsed_s"] = round(time.perf_counter() - started, 1)
    return report


if __name__ == "__main__":
    print(json.dumps(main(), indent=2))
