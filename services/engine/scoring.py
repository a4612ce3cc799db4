"""Scoring a round and deciding when the game ends, for both presets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .rules import BOSTON_CONTRACT, BOSTON_VALUE, TEN_FOR_200_CONTRACT, Rules

POINTS_PER_TRICK = 10


@dataclass(frozen=True, slots=True)
class RoundScore:
    points: tuple[int, ...]  # per side, bag penalties included
    bag_penalties: tuple[int, ...]  # per side: how many times the penalty hit
    bags: tuple[int, ...]  # per side, after the round


def contract_value(rules: Rules, contract: int, blind: int = 0) -> tuple[int, str | None]:
    """What making a contract is worth, bags aside, and the house rule that set the worth (None: 10 a contract
    trick, ``blind`` of them bid blind and counted twice; ``ten_for_200``: a contract of 10 or more is worth
    ``ten_for_200_value`` instead; ``boston``: a contract of all 13 tricks is worth ``BOSTON_VALUE``)."""
    if rules.boston and contract == BOSTON_CONTRACT:
        return BOSTON_VALUE, "boston"
    if rules.ten_for_200 and contract >= TEN_FOR_200_CONTRACT:
        return rules.ten_for_200_value, "ten_for_200"
    return POINTS_PER_TRICK * (contract + blind), None


def contract_points(rules: Rules, contract: int, tricks: int, blind: int = 0) -> tuple[int, int]:
    """``(points, bags)`` for a contract: made = its worth (:func:`contract_value`) + 1 a bag; set = minus its
    worth, or 0 where ``set_penalty`` is zero."""
    value, _ = contract_value(rules, contract, blind)
    if tricks >= contract:
        return value + (tricks - contract), tricks - contract
    if rules.set_penalty == "negative":
        return -value, 0
    return 0, 0


def nil_points(rules: Rules, tricks: int, blind: bool = False) -> int:
    """A nil bid: +nil_value with no trick taken, -nil_value otherwise (blind_nil_value for a blind nil)."""
    value = rules.blind_nil_value if blind else rules.nil_value
    return value if tricks == 0 else -value


def apply_bag_penalty(rules: Rules, bags: int) -> tuple[int, int]:
    """``(times the penalty hits, bags left)``: each time bags reach the
    limit the side loses ``bag_penalty`` and the limit comes off its bags."""
    if rules.bag_penalty <= 0:
        return 0, bags
    hits = bags // rules.bag_limit
    return hits, bags - hits * rules.bag_limit


def side_parts(
    rules: Rules,
    seats: tuple[int, ...],
    bids: tuple[int, ...],
    tricks: tuple[int, ...],
    blind: tuple[bool, ...] = (),
) -> dict[str, Any]:
    """One side's round points part by part, bag penalty aside (JSON-ready: a finished round's ``parts``).

    ``contract``: the sum of the side's non-nil bids (``bid``), the tricks that count toward it (``taken``: a nil
    bidder's too when ``nil_tricks_count_for_team`` is on), what it scored bags aside (``points``), its tricks bid
    blind (``blind``, counted twice) and the house rule that set its worth (``bonus``); ``bags``: the overtricks,
    a point each; ``nils``: each nil bid on its own (``blind`` per seat, empty for none, marks the blind bids).
    """
    blind = blind or (False,) * len(bids)
    contract = sum(bids[s] for s in seats if bids[s] != 0)
    blind_tricks = sum(bids[s] for s in seats if bids[s] != 0 and blind[s])
    counted = sum(tricks[s] for s in seats if bids[s] != 0 or rules.nil_tricks_count_for_team)
    points, bags = contract_points(rules, contract, counted, blind_tricks)
    nils = [
        {"seat": s, "made": tricks[s] == 0, "blind": bool(blind[s]), "points": nil_points(rules, tricks[s], blind[s])}
        for s in seats
        if bids[s] == 0
    ]
    worth = {"bid": contract, "taken": counted, "points": points - bags, "blind": blind_tricks}
    return {
        "contract": {**worth, "bonus": contract_value(rules, contract, blind_tricks)[1]},
        "bags": bags,
        "nils": nils,
    }


def side_round_points(
    rules: Rules,
    seats: tuple[int, ...],
    bids: tuple[int, ...],
    tricks: tuple[int, ...],
    blind: tuple[bool, ...] = (),
) -> tuple[int, int]:
    """``(points before bag penalty, bags gained)`` for one side: the sum of its :func:`side_parts`."""
    parts = side_parts(rules, seats, bids, tricks, blind)
    return _points_of(parts), parts["bags"]


def _points_of(parts: dict[str, Any]) -> int:
    """A side's round points before the bag penalty: the sum of its :func:`side_parts`."""
    return parts["contract"]["points"] + parts["bags"] + sum(n["points"] for n in parts["nils"])


def round_parts(
    rules: Rules,
    bids: tuple[int, ...],
    tricks: tuple[int, ...],
    blind: tuple[bool, ...],
    bag_penalties: tuple[int, ...],
) -> list[dict[str, Any]]:
    """A finished round's points per side, part by part (:func:`side_parts`, with ``penalty``: the bag penalty
    as points, and ``total``): what a round summary shows, from the rule that scored it."""
    shown = []
    for side in range(rules.sides):
        parts = side_parts(rules, rules.seats_of(side), bids, tricks, blind)
        penalty = -bag_penalties[side] * rules.bag_penalty
        shown.append({"side": side, **parts, "penalty": penalty, "total": _points_of(parts) + penalty})
    return shown


def score_round(
    rules: Rules,
    bids: tuple[int, ...],
    tricks: tuple[int, ...],
    bags_before: tuple[int, ...],
    blind: tuple[bool, ...] = (),
) -> RoundScore:
    """Points, bag penalties and bags after a round, per side (``blind``: per seat, the bids made blind)."""
    points, penalties, bags_after = [], [], []
    for side in range(rules.sides):
        gained_points, gained_bags = side_round_points(rules, rules.seats_of(side), bids, tricks, blind)
        hits, left = apply_bag_penalty(rules, bags_before[side] + gained_bags)
        points.append(gained_points - hits * rules.bag_penalty)
        penalties.append(hits)
        bags_after.append(left)
    return RoundScore(tuple(points), tuple(penalties), tuple(bags_after))


def game_winner(rules: Rules, scores: tuple[int, ...], rounds_played: int = 0) -> int | None:
    """The winning side at the end of a round, or None to play on.

    The game ends when a side has reached ``win_score`` or fallen to
    ``lose_score``, or (``mercy_margin``) trails the leader by at least the
    margin; with ``deals`` it ends after that many rounds (``rounds_played``)
    and only then, so every table of a duplicate event plays the same deals.
    The highest score wins, and a tie for the highest score plays another round.
    """
    if rules.deals:
        ended = rounds_played >= rules.deals
    else:
        ended = (
            any(s >= rules.win_score for s in scores)
            or (rules.lose_score is not None and any(s <= rules.lose_score for s in scores))
            or (rules.mercy_margin is not None and max(scores) - min(scores) >= rules.mercy_margin)
        )
    if not ended:
        return None
    top = max(scores)
    leaders = [side for side, s in enumerate(scores) if s == top]
    return leaders[0] if len(leaders) == 1 else None
