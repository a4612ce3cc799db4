"""Duplicate tournament between two computer levels, on the real engine.

    python -m benchmarks.tournament --a pro --b standard --preset partnership --rounds 2000 --seed 1
    python -m benchmarks.tournament --a hard --b pro --preset partnership --games 100 --seed 1

Two modes, both duplicate: every deal (or game seed) is played twice with the
same cards and the levels' seats swapped,

* partnership: level A holds seats 0 & 2 (team 0) and B seats 1 & 3, then the
  levels swap teams;
* individual: A holds seats 0 & 2 and B seats 1 & 3 (each seat scoring alone),
  then swapped, so across the pair each level sits in every seat position.

**Single rounds** (``--rounds N``, the default mode): N deals, each round 1 of
``new_game(rules, seed)``.  Every deal is a fresh game, so bags do not carry
across rounds (a 10-bag penalty only hits a side that takes 10 bags in one
round) and bags are nearly free.  A level's points for one play: its team's
points (partnership) or the mean of its two seats' points (individual).  Per
deal the paired difference is the mean over the two plays of (A − B); the JSON
gives the mean points per round of each level, that difference with a normal
95% interval over the deals, and rounds won (per play, the level with more
points).  Beside it the **bag-adjusted** figures: each side's points with the
round's realised bag penalties added back and every bag it took charged its
share of the penalty instead (``bag_penalty / bag_limit``, 10 points in the
partnership preset, 0 where the penalty is off), so a level that sheds bags
is not flattered by the fresh round.

**Whole games** (``--games N``): N game seeds, each played twice (a game pair,
sides swapped) from ``new_game(rules, seed)`` to the end the engine declares
(500 / −200 in partnership, bags carrying over); the engine deals every round
from the seed, so both games of a pair see the same deal sequence for as long
as both last.  The JSON gives games, wins of each level, ties (a game stopped
by ``--round-cap`` unfinished; the engine itself never ends on a tie), A's win
share with a Wilson 95% interval, how the pairs split, rounds per game, final
scores and points per round.  The Wilson interval treats the 2N games as
independent; the two games of a pair share their deals and tend to split,
which makes the interval conservative.

**Per level**, from the same runs (counted over the level's seats and sides):
nil bid rate and nil success rate; partner nils covered (nil bids by a seat's
partner – the same level – that were made; partnership only); opponent nils
set (nil bids by the seats a side plays against – the other team, or in the
individual game the three other seats of each of the level's seats – that
failed); bags per round per side; 10-bag penalties per 100 rounds per side.
With the house rules (``--preset`` any preset of ``GET /v1/rules``,
``--option name=value`` for any rule option, e.g. ``blind_margin=0`` so that
round 1's seats may bid blind): blind decisions offered (a turn with the hand
hidden), blind nils and blind bids taken and made, and the nil exchanges a
level's seats took part in with how often their side's nil was made.

The engine drives everything (``new_game``/``view``/``apply``); each decision
renders its seat's view once, without finished rounds (as the API sends it).
Two worker processes share the work; results depend only on ``--seed``.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from services.ai_worker import decide, warm_up
from services.engine import (
    PRESETS,
    Bid,
    Deck,
    Look,
    Move,
    Pass,
    Play,
    Rules,
    apply,
    make_rules,
    mask_of,
    new_game,
    turn,
    view,
)
from services.engine.scoring import side_round_points
from services.engine.state import first_seat, replay_tricks
from services.players import LEVEL_NAMES

Z95 = 1.96
DEFAULT_ROUND_CAP = 200  # a game to 500 takes ~10–25 rounds; this only stops a pathological one
SEED_STRIDE = 1_000_003  # deal/game seeds: seed * SEED_STRIDE + i


@dataclass(frozen=True, slots=True)
class Seating:
    """Which level sits where for one play of a duplicate pair."""

    levels: tuple[str, str, str, str]  # per seat
    a_seats: tuple[int, int]
    b_seats: tuple[int, int]


@dataclass(frozen=True, slots=True)
class RoundFacts:
    """What the figures need from one finished round (plain tuples: cheap to pickle)."""

    bids: tuple[int, ...]  # per seat
    tricks: tuple[int, ...]  # per seat
    points: tuple[int, ...]  # per side, realised bag penalties included
    bags: tuple[int, ...]  # per side: bags taken this round
    penalties: tuple[int, ...]  # per side: times the bag penalty hit this round
    blind: tuple[bool, ...] = ()  # per seat: bid blind (empty when nobody did)
    passed: tuple[bool, ...] = ()  # per seat: gave cards in the nil exchange (empty when none)


@dataclass(frozen=True, slots=True)
class Played:
    """One play: a single round or a whole game."""

    rounds: tuple[RoundFacts, ...]
    final_scores: tuple[int, ...]  # per side
    winner: tuple[int, ...] | None  # the winning seats; None if stopped by the round cap
    capped: bool
    blind_offered: tuple[int, ...] = (0, 0, 0, 0)  # per seat: bidding turns with its hand hidden


def seatings(a: str, b: str) -> tuple[Seating, Seating]:
    """The two plays of a duplicate pair: A on seats 0 & 2, then on 1 & 3."""
    return Seating((a, b, a, b), (0, 2), (1, 3)), Seating((b, a, b, a), (1, 3), (0, 2))


def play(rules: Rules, game_seed: int, levels: tuple[str, ...], seed_of_move: Callable[[int], int],
         max_rounds: int) -> Played:  # fmt: skip
    """Play ``new_game(rules, game_seed)`` with ``levels`` per seat until the
    game ends or ``max_rounds`` rounds are finished (1: a single round).

    Each decision renders the seat's view once, finished rounds left out (the
    AI never reads them; the API does not send them)."""
    state = new_game(rules, seed=game_seed)
    move_no = 0
    offered = [0, 0, 0, 0]
    while state.phase != "game_over" and len(state.history) < max_rounds:
        seat = turn(state)
        seat_view = view(state, seat, history=False)
        if state.phase == "bidding" and seat_view["hand"] is None:
            offered[seat] += 1
        decision = decide(seat_view, levels[seat], seed_of_move(move_no))
        state = apply(state, seat, move_of(decision, rules.deck))
        move_no += 1
    rounds = tuple(round_facts(rules, i + 1, record) for i, record in enumerate(state.history))
    return Played(rounds, state.scores, state.winner, state.phase != "game_over", tuple(offered))


def move_of(decision: dict[str, Any], deck: Deck) -> Move:
    """A level's decision as the engine's move (its cards read in the game's ``deck``)."""
    if "card" in decision:
        return Play(deck.parse(decision["card"]))
    if "pass" in decision:
        return Pass(mask_of(deck.parse(code) for code in decision["pass"]))
    if decision.get("look"):
        return Look()
    return Bid(decision["bid"], blind=bool(decision.get("blind", False)))


def round_facts(rules: Rules, round_no: int, record: Any) -> RoundFacts:
    """The figures of a finished round from its record; tricks per seat come
    from its 13 tricks, bags per side from the engine's own scoring rule."""
    tricks = [0, 0, 0, 0]
    for _, _, winner in replay_tricks(first_seat(round_no), record.plays):
        tricks[winner] += 1
    bags = tuple(
        side_round_points(rules, rules.seats_of(side), record.bids, tuple(tricks), record.blind)[1]
        for side in range(rules.sides)
    )
    passed = tuple(bool(p) for p in record.passes)
    return RoundFacts(record.bids, tuple(tricks), record.points, bags, record.bag_penalties, record.blind, passed)


def sides_of(rules: Rules, seats: Iterable[int]) -> tuple[int, ...]:
    """The scoring sides a level holds: one team, or each of its seats."""
    return tuple(sorted({rules.side_of(s) for s in seats}))


def bag_charge(rules: Rules) -> float:
    """Points one bag costs in the long run: its share of the bag penalty."""
    return rules.bag_penalty / rules.bag_limit


def adjusted_points(rules: Rules, facts: RoundFacts, side: int) -> float:
    """The side's points with the realised penalty put back and each bag charged its share."""
    return facts.points[side] + facts.penalties[side] * rules.bag_penalty - facts.bags[side] * bag_charge(rules)


def level_counts(
    rules: Rules, rounds: Iterable[RoundFacts], seats: tuple[int, ...], offered: tuple[int, ...] = (0, 0, 0, 0)
) -> Counter:
    """Per-level counts (nils, bags, penalties, blind decisions, nil exchanges) over ``rounds`` for
    the level on ``seats`` (``offered``: per seat, its bidding turns with the hand hidden)."""
    counts: Counter = Counter()
    sides = sides_of(rules, seats)
    counts["blind_offered"] = sum(offered[s] for s in seats)
    for facts in rounds:
        for seat in seats:
            if facts.blind and facts.blind[seat]:
                nil = facts.bids[seat] == 0
                counts["blind_nils" if nil else "blind_bids"] += 1
                if nil:
                    counts["blind_nils_made"] += facts.tricks[seat] == 0
                else:
                    partner = (seat + 2) % 4 if rules.partnership else seat
                    team = {seat, partner}
                    contract = sum(facts.bids[s] for s in team if facts.bids[s] > 0)
                    counted = sum(facts.tricks[s] for s in team if facts.bids[s] > 0 or rules.nil_tricks_count_for_team)
                    counts["blind_bids_made"] += counted >= contract
            if facts.passed and facts.passed[seat]:
                counts["exchanges"] += 1
                nils = [s for s in (seat, (seat + 2) % 4) if facts.bids[s] == 0]
                counts["exchange_nils_made"] += bool(nils) and all(facts.tricks[s] == 0 for s in nils)
        counts["rounds"] += 1
        counts["side_rounds"] += len(sides)
        for seat in seats:
            counts["bids"] += 1
            if facts.bids[seat] == 0:
                counts["nil_bids"] += 1
                counts["nil_made"] += facts.tricks[seat] == 0
            partner = (seat + 2) % 4
            if rules.partnership and facts.bids[partner] == 0:
                counts["partner_nils"] += 1
                counts["partner_nils_made"] += facts.tricks[partner] == 0
        for side in sides:
            counts["bags"] += facts.bags[side]
            counts["bag_penalties"] += facts.penalties[side]
            for other in range(4):
                if rules.side_of(other) != side and facts.bids[other] == 0:
                    counts["opponent_nils"] += 1
                    counts["opponent_nils_set"] += facts.tricks[other] > 0
    return counts


def mean_of_sides(values: Iterable[float]) -> float:
    values = list(values)
    return sum(values) / len(values)


def play_pair(args: tuple[str, dict[str, Any], str, str, int, int]) -> dict[str, Any]:
    """Both plays of one duplicate deal (``max_rounds`` 1) or game pair, as plain figures per play."""
    preset, overrides, a, b, game_seed, max_rounds = args
    rules = make_rules(preset, **overrides)
    plays = []
    for swapped, seating in enumerate(seatings(a, b)):
        base = 2 * game_seed + swapped
        if max_rounds == 1:  # single rounds: the seeds of earlier runs, so old rows reproduce
            played = play(rules, game_seed, seating.levels, lambda n, base=base: base * 1000 + n, 1)
        else:
            played = play(rules, game_seed, seating.levels, lambda n, base=base: base * 1_000_000 + n, max_rounds)
        plays.append(play_figures(rules, seating, played))
    return {"plays": plays}


def play_figures(rules: Rules, seating: Seating, played: Played) -> dict[str, Any]:
    """One play reduced to what the summary needs, per role (``a``/``b``)."""
    out: dict[str, Any] = {"levels": seating.levels, "rounds": len(played.rounds), "capped": played.capped}
    for role, seats in (("a", seating.a_seats), ("b", seating.b_seats)):
        sides = sides_of(rules, seats)
        out[role] = {
            "seats": seats,
            "points": sum(mean_of_sides(f.points[s] for s in sides) for f in played.rounds),
            "adjusted": sum(mean_of_sides(adjusted_points(rules, f, s) for s in sides) for f in played.rounds),
            "final_score": mean_of_sides(played.final_scores[s] for s in sides),
            "won": played.winner is not None and played.winner[0] in seats,
            "counts": dict(level_counts(rules, played.rounds, seats, played.blind_offered)),
        }
    return out


def mean_ci(values: list[float]) -> dict[str, Any]:
    """Mean with a normal 95% interval over independent values."""
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    stderr = math.sqrt(var / n)
    return {
        "mean": round(mean, 2),
        "ci95": [round(mean - Z95 * stderr, 2), round(mean + Z95 * stderr, 2)],
        "stderr": round(stderr, 3),
    }


def wilson(successes: float, trials: int, z: float = Z95) -> list[float]:
    """Wilson score interval for a share: sound near 0 or 1 and for few trials."""
    if trials == 0:
        return [0.0, 1.0]
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


def share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def per_level(plays: list[dict[str, Any]], role: str, level: str, partnership: bool) -> dict[str, Any]:
    """The per-level figures of one role, summed over every play."""
    c: Counter = Counter()
    for p in plays:
        c.update(p[role]["counts"])
    return {
        "level": level,
        "counts": {k: c[k] for k in sorted(COUNT_KEYS)},
        "nil_bid_rate": share(c["nil_bids"], c["bids"]),
        "nil_success_rate": share(c["nil_made"], c["nil_bids"]),
        "partner_nils_covered": share(c["partner_nils_made"], c["partner_nils"]) if partnership else None,
        "opponent_nils_set": share(c["opponent_nils_set"], c["opponent_nils"]),
        "bags_per_round_per_side": round(c["bags"] / c["side_rounds"], 3) if c["side_rounds"] else None,
        "bag_penalties_per_100_rounds_per_side": round(100 * c["bag_penalties"] / c["side_rounds"], 3)
        if c["side_rounds"]
        else None,
        "blind_nil_rate": share(c["blind_nils"], c["blind_offered"]),
        "blind_nil_success_rate": share(c["blind_nils_made"], c["blind_nils"]),
        "blind_bid_rate": share(c["blind_bids"], c["blind_offered"]),
        "blind_bid_success_rate": share(c["blind_bids_made"], c["blind_bids"]),
        "exchanges_per_100_rounds": round(100 * c["exchanges"] / c["rounds"] / 2, 3) if c["rounds"] else None,
        "exchange_nil_success_rate": share(c["exchange_nils_made"], c["exchanges"]),
    }


COUNT_KEYS = (
    "rounds", "side_rounds", "bids", "nil_bids", "nil_made", "partner_nils", "partner_nils_made",
    "opponent_nils", "opponent_nils_set", "bags", "bag_penalties", "blind_offered", "blind_nils",
    "blind_nils_made", "blind_bids", "blind_bids_made", "exchanges", "exchange_nils_made",
)  # fmt: skip


def summarise_rounds(pairs: list[dict[str, Any]], rules: Rules) -> dict[str, Any]:
    """Single-round mode: points, paired difference (plain and bag-adjusted), rounds won."""
    plays = [p for pair in pairs for p in pair["plays"]]
    diffs = [mean_of_sides(p["a"]["points"] - p["b"]["points"] for p in pair["plays"]) for pair in pairs]
    adjusted = [mean_of_sides(p["a"]["adjusted"] - p["b"]["adjusted"] for p in pair["plays"]) for pair in pairs]
    return {
        "mean_points_per_round": {r: round(mean_of_sides(p[r]["points"] for p in plays), 2) for r in ("a", "b")},
        "difference_a_minus_b": mean_ci(diffs),
        "rounds_won": {
            "a": sum(1 for p in plays if p["a"]["points"] > p["b"]["points"]),
            "b": sum(1 for p in plays if p["b"]["points"] > p["a"]["points"]),
            "tie": sum(1 for p in plays if p["a"]["points"] == p["b"]["points"]),
        },
        "bag_adjusted": {
            "charge_per_bag": bag_charge(rules),
            "mean_points_per_round": {r: round(mean_of_sides(p[r]["adjusted"] for p in plays), 2) for r in ("a", "b")},
            "difference_a_minus_b": mean_ci(adjusted),
        },
    }


def summarise_games(pairs: list[dict[str, Any]], round_cap: int) -> dict[str, Any]:
    """Whole-game mode: wins with a Wilson interval, pair splits, rounds, scores."""
    plays = [p for pair in pairs for p in pair["plays"]]
    games = len(plays)
    wins = {r: sum(1 for p in plays if p[r]["won"]) for r in ("a", "b")}
    outcomes = Counter(pair_outcome(pair) for pair in pairs)
    rounds = [p["rounds"] for p in plays]
    total_rounds = sum(rounds)
    return {
        "games": games,
        "wins": wins,
        "ties": games - wins["a"] - wins["b"],
        "a_win_share": round(wins["a"] / games, 4),
        "a_win_share_wilson95": wilson(wins["a"], games),
        "pairs": {k: outcomes[k] for k in PAIR_OUTCOMES},
        "rounds_per_game": {"mean": round(total_rounds / games, 2), "min": min(rounds), "max": max(rounds)},
        "round_cap": round_cap,
        "round_cap_hit": sum(1 for p in plays if p["capped"]),
        "mean_final_score": {r: round(mean_of_sides(p[r]["final_score"] for p in plays), 1) for r in ("a", "b")},
        "final_score_difference_a_minus_b": mean_ci(
            [mean_of_sides(p["a"]["final_score"] - p["b"]["final_score"] for p in pair["plays"]) for pair in pairs]
        ),
        "mean_points_per_round": {r: round(sum(p[r]["points"] for p in plays) / total_rounds, 2) for r in ("a", "b")},
    }


PAIR_OUTCOMES = ("a_won_both", "split", "b_won_both", "with_unfinished")


def pair_outcome(pair: dict[str, Any]) -> str:
    """How a game pair fell: one of :data:`PAIR_OUTCOMES`."""
    if any(not p["a"]["won"] and not p["b"]["won"] for p in pair["plays"]):
        return "with_unfinished"
    return ("b_won_both", "split", "a_won_both")[sum(p["a"]["won"] for p in pair["plays"])]


def run_pairs(jobs: list[tuple[Any, ...]], processes: int, chunksize: int) -> list[dict[str, Any]]:
    """Every job's pair, in job order, over ``processes`` warm worker processes."""
    if processes > 1:
        with multiprocessing.get_context("fork").Pool(processes, initializer=warm_up) as pool:
            return pool.map(play_pair, jobs, chunksize=chunksize)
    warm_up()
    return [play_pair(job) for job in jobs]


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", choices=LEVEL_NAMES, required=True)
    parser.add_argument("--b", choices=LEVEL_NAMES, required=True)
    parser.add_argument("--preset", choices=tuple(PRESETS), default="partnership")
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE",
        help="a rule option over the preset, the value as JSON (e.g. blind_margin=0); repeatable",
    )  # fmt: skip
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--rounds", type=int, help="single-round mode: duplicate deals, each played twice (default 2000)")
    mode.add_argument("--games", type=int, help="whole-game mode: game seeds, each played twice (a game pair)")
    parser.add_argument("--round-cap", type=int, default=DEFAULT_ROUND_CAP, help="whole games: stop a game here")
    parser.add_argument("--win-score", type=int, help="override the preset's winning score (short test games)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args(argv)
    if args.games is None and args.rounds is None:
        args.rounds = 2000
    return args


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    started = time.perf_counter()
    overrides = {name: json.loads(value) for name, value in (o.split("=", 1) for o in args.option)}
    if args.win_score is not None:
        overrides["win_score"] = args.win_score
    rules = make_rules(args.preset, **overrides)
    whole_games = args.games is not None
    count = args.games if whole_games else args.rounds
    max_rounds = args.round_cap if whole_games else 1
    jobs = [(args.preset, overrides, args.a, args.b, args.seed * SEED_STRIDE + i, max_rounds) for i in range(count)]
    pairs = run_pairs(jobs, args.processes, chunksize=1 if whole_games else 20)
    plays = [p for pair in pairs for p in pair["plays"]]
    report: dict[str, Any] = {"mode": "games" if whole_games else "rounds", "a": args.a, "b": args.b}
    report["preset"] = args.preset
    if overrides:
        report["options"] = overrides
    if whole_games:
        report |= {
            "game_pairs": count,
            "seed": args.seed,
            "rules": rules.to_dict(),
            **summarise_games(pairs, args.round_cap),
        }
    else:
        report |= {"deals": count, "plays": 2 * count, "seed": args.seed, **summarise_rounds(pairs, rules)}
    report["per_level"] = {r: per_level(plays, r, getattr(args, r), rules.partnership) for r in ("a", "b")}
    report["elapsed_s"] = round(time.perf_counter() - started, 1)
    print(json.dumps(report))
    return report


if __name__ == "__main__":
    main()
