"""The duplicate method's figures, in one place for ``benchmarks.tournament`` (levels in process) and
``spades-bot match`` (a bot through the API): every deal is played twice with the sides swapped, and the
paired difference per deal cancels the luck of the cards.

Pure functions over plain data.  ``rules`` is anything with the engine's scoring surface
(:class:`ScoringRules`): the engine's ``Rules`` or the client's :class:`spades_client.models.Rules`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

Z95 = 1.96


class ScoringRules(Protocol):
    """What the figures read of the rules."""

    bag_limit: int
    bag_penalty: int
    nil_tricks_count_for_team: bool

    @property
    def partnership(self) -> bool: ...

    @property
    def sides(self) -> int: ...

    def side_of(self, seat: int) -> int: ...


@dataclass(frozen=True, slots=True)
class Seating:
    """Which level sits where for one play of a duplicate pair."""

    levels: tuple[str, str, str, str]  # per seat
    a_seats: tuple[int, ...]
    b_seats: tuple[int, ...]


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


def seatings(a: str, b: str, alone: bool = False) -> tuple[Seating, ...]:
    """The plays of one duplicate deal: A on seats 0 & 2, then on 1 & 3; ``alone`` (the individual game, where
    every seat plays for itself and two A's at a table set each other's nils too): A on each seat in turn, B on
    the other three."""
    if alone:
        return tuple(
            Seating(tuple(a if s == k else b for s in range(4)), (k,), tuple(s for s in range(4) if s != k))
            for k in range(4)
        )
    return Seating((a, b, a, b), (0, 2), (1, 3)), Seating((b, a, b, a), (1, 3), (0, 2))


def sides_of(rules: ScoringRules, seats: Iterable[int]) -> tuple[int, ...]:
    """The scoring sides a level holds: one team, or each of its seats."""
    return tuple(sorted({rules.side_of(s) for s in seats}))


def bag_charge(rules: ScoringRules) -> float:
    """Points one bag costs in the long run: its share of the bag penalty."""
    return rules.bag_penalty / rules.bag_limit


def adjusted_points(rules: ScoringRules, facts: RoundFacts, side: int) -> float:
    """The side's points with the realised penalty put back and each bag charged its share."""
    return facts.points[side] + facts.penalties[side] * rules.bag_penalty - facts.bags[side] * bag_charge(rules)


def level_counts(
    rules: ScoringRules, rounds: Iterable[RoundFacts], seats: tuple[int, ...], offered: tuple[int, ...] = (0, 0, 0, 0)
) -> Counter:
    """Per-level counts (nils, contracts set, bags, penalties, blind decisions, nil exchanges) over ``rounds``
    for the level on ``seats`` (``offered``: per seat, its bidding turns with the hand hidden)."""
    counts: Counter = Counter()
    sides = sides_of(rules, seats)
    counts["blind_offered"] = sum(offered[s] for s in seats)
    for facts in rounds:
        count_house_rules(rules, facts, seats, counts)
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
            contract, taken = contract_and_tricks(rules, facts, side)
            if contract > 0:
                counts["contracts"] += 1
                counts["contracts_set"] += taken < contract
            for other in range(4):
                if rules.side_of(other) != side and facts.bids[other] == 0:
                    counts["opponent_nils"] += 1
                    counts["opponent_nils_set"] += facts.tricks[other] > 0
    return counts


def count_house_rules(rules: ScoringRules, facts: RoundFacts, seats: tuple[int, ...], counts: Counter) -> None:
    """Blind nils and blind bids taken and made, and nil exchanges with their nils made, by ``seats``."""
    for seat in seats:
        if facts.blind and facts.blind[seat]:
            if facts.bids[seat] == 0:
                counts["blind_nils"] += 1
                counts["blind_nils_made"] += facts.tricks[seat] == 0
            else:
                counts["blind_bids"] += 1
                contract, taken = contract_and_tricks(rules, facts, rules.side_of(seat))
                counts["blind_bids_made"] += taken >= contract
        if facts.passed and facts.passed[seat]:
            counts["exchanges"] += 1
            nils = [s for s in (seat, (seat + 2) % 4) if facts.bids[s] == 0]
            counts["exchange_nils_made"] += bool(nils) and all(facts.tricks[s] == 0 for s in nils)


def contract_and_tricks(rules: ScoringRules, facts: RoundFacts, side: int) -> tuple[int, int]:
    """A side's contract (its non-nil bids) and the tricks that count toward it, as the engine scores them."""
    seats = [seat for seat in range(4) if rules.side_of(seat) == side]
    contract = sum(facts.bids[s] for s in seats if facts.bids[s] != 0)
    taken = sum(facts.tricks[s] for s in seats if facts.bids[s] != 0 or rules.nil_tricks_count_for_team)
    return contract, taken


def mean_of_sides(values: Iterable[float]) -> float:
    values = list(values)
    return sum(values) / len(values)


def play_figures(rules: ScoringRules, seating: Seating, played: Played) -> dict[str, Any]:
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
        "contract_set_rate": share(c["contracts_set"], c["contracts"]),
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
    "opponent_nils", "opponent_nils_set", "contracts", "contracts_set", "bags", "bag_penalties", "blind_offered",
    "blind_nils", "blind_nils_made", "blind_bids", "blind_bids_made", "exchanges", "exchange_nils_made",
)  # fmt: skip


def pair_differences(pairs: list[dict[str, Any]], figure: str = "points") -> list[float]:
    """Per duplicate pair, A − B in ``figure`` (``points`` or ``adjusted``) averaged over its two plays: the
    values the paired difference's interval is taken over."""
    return [mean_of_sides(p["a"][figure] - p["b"][figure] for p in pair["plays"]) for pair in pairs]


def summarise_rounds(pairs: list[dict[str, Any]], rules: ScoringRules) -> dict[str, Any]:
    """Single-round mode: points, paired difference (plain and bag-adjusted), rounds won."""
    plays = [p for pair in pairs for p in pair["plays"]]
    diffs = pair_differences(pairs, "points")
    adjusted = pair_differences(pairs, "adjusted")
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
