"""Scoring a round and deciding when the game ends, for both presets."""

from __future__ import annotations

from dataclasses import dataclass

from .rules import Rules

POINTS_PER_TRICK = 10


@dataclass(frozen=True, slots=True)
class RoundScore:
    points: tuple[int, ...]  # per side, bag penalties included
    bag_penalties: tuple[int, ...]  # per side: how many times the penalty hit
    bags: tuple[int, ...]  # per side, after the round


def contract_points(rules: Rules, contract: int, tricks: int) -> tuple[int, int]:
    """``(points, bags)`` for a contract: made = 10 a contract trick + 1 a
    bag; set = -10 a contract trick, or 0 where ``set_penalty`` is zero."""
    if tricks >= contract:
        return POINTS_PER_TRICK * contract + (tricks - contract), tricks - contract
    if rules.set_penalty == "negative":
        return -POINTS_PER_TRICK * contract, 0
    return 0, 0


def nil_points(rules: Rules, tricks: int) -> int:
    """A nil bid: +nil_value with no trick taken, -nil_value otherwise."""
    return rules.nil_value if tricks == 0 else -rules.nil_value


def apply_bag_penalty(rules: Rules, bags: int) -> tuple[int, int]:
    """``(times the penalty hits, bags left)``: each time bags reach the
    limit the side loses ``bag_penalty`` and the limit comes off its bags."""
    if rules.bag_penalty <= 0:
        return 0, bags
    hits = bags // rules.bag_limit
    return hits, bags - hits * rules.bag_limit


def side_round_points(
    rules: Rules, seats: tuple[int, ...], bids: tuple[int, ...], tricks: tuple[int, ...]
) -> tuple[int, int]:
    """``(points before bag penalty, bags gained)`` for one side.

    The contract is the sum of the side's non-nil bids; each nil bid scores on
    its own; a nil bidder's tricks count toward the side's tricks when
    ``nil_tricks_count_for_team`` is on.
    """
    contract = sum(bids[s] for s in seats if bids[s] != 0)
    nil_seats = [s for s in seats if bids[s] == 0]
    counted = sum(tricks[s] for s in seats if bids[s] != 0 or rules.nil_tricks_count_for_team)
    points, bags = contract_points(rules, contract, counted)
    points += sum(nil_points(rules, tricks[s]) for s in nil_seats)
    return points, bags


def score_round(
    rules: Rules, bids: tuple[int, ...], tricks: tuple[int, ...], bags_before: tuple[int, ...]
) -> RoundScore:
    """Points, bag penalties and bags after a round, per side."""
    points, penalties, bags_after = [], [], []
    for side in range(rules.sides):
        gained_points, gained_bags = side_round_points(rules, rules.seats_of(side), bids, tricks)
        hits, left = apply_bag_penalty(rules, bags_before[side] + gained_bags)
        points.append(gained_points - hits * rules.bag_penalty)
        penalties.append(hits)
        bags_after.append(left)
    return RoundScore(tuple(points), tuple(penalties), tuple(bags_after))


def game_winner(rules: Rules, scores: tuple[int, ...]) -> int | None:
    """The winning side at the end of a round, or None to play on.

    The game ends when a side has reached ``win_score`` or fallen to
    ``lose_score``; the highest score wins, and a tie for the highest score
    plays another round.
    """
    ended = any(s >= rules.win_score for s in scores) or (
        rules.lose_score is not None and any(s <= rules.lose_score for s in scores)
    )
    if not ended:
        return None
    top = max(scores)
    leaders = [side for side, s in enumerate(scores) if s == top]
    return leaders[0] if len(leaders) == 1 else None
