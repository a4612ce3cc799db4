"""What a finished game adds to each seat's stats, from its record document's rounds.

Each finished round of the record (:func:`services.engine.round_view`) holds the four bids, the tricks each
seat won and, per side, the bags after the round and how often the bag penalty hit.  Per seat:

- ``contracts_bid`` / ``contracts_made`` / ``sets``: its side's contract (the sum of the side's bids other
  than nil; in partnership both partners share the team's) — made when the side's counted tricks reach it
  (a nil bidder's tricks count when ``nil_tricks_count_for_team``, as the scoring counts them), set otherwise;
  a side whose every seat bid nil has no contract;
- ``nils_bid`` / ``nils_made``: the seat's own nil and blind nil bids, made when it took no trick;
- ``bags``: the bags its side gained that round (attributed to each partner as the team's), from the side's
  bags before and after and the penalties that took ``bag_limit`` off;
- ``games`` 1, ``wins`` 1 for a winning seat, ``rounds`` the rounds played.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

FIELDS = ("games", "wins", "rounds", "contracts_bid", "contracts_made", "sets", "nils_bid", "nils_made", "bags")
SEATS = 4


def sides_of(scoring: str) -> list[tuple[int, ...]]:
    """The seats of each scoring side: two teams (0 & 2, 1 & 3), or four seats alone."""
    return [(0, 2), (1, 3)] if scoring == "partnership" else [(seat,) for seat in range(SEATS)]


def seat_stats(document: Mapping[str, Any], won: Sequence[bool] | None = None) -> list[dict[str, int]]:
    """Each seat's stats from a finished game's record (see the module doc), by seat; ``won``: whether each seat
    won, when not the record's (a forfeit is a loss: :func:`services.ratings.policy.seats_won`)."""
    rules = document["rules"]
    sides = sides_of(str(rules["scoring"]))
    stats = [dict.fromkeys(FIELDS, 0) for _ in range(SEATS)]
    for seat, each in enumerate(document["seats"]):
        stats[seat]["games"] = 1
        stats[seat]["wins"] = int(bool(each.get("won") if won is None else won[seat]))
        stats[seat]["rounds"] = len(document["rounds"])
    bags_before = [0] * len(sides)
    for shown in document["rounds"]:
        for index, side in enumerate(sides):
            added = _side_round(rules, side, shown, bags_before[index], index)
            for seat in side:
                for name, value in added.items():
                    stats[seat][name] += value
        bags_before = list(shown["bags"])
        for seat, bid in enumerate(shown["bids"]):
            if bid == 0:
                stats[seat]["nils_bid"] += 1
                stats[seat]["nils_made"] += int(shown["tricks_won"][seat] == 0)
    return stats


def _side_round(
    rules: Mapping[str, Any], side: Sequence[int], shown: Mapping[str, Any], bags_before: int, index: int
) -> dict[str, int]:
    """What one side's round adds to each of its seats: its contract's fate and the bags it gained."""
    bids, tricks = shown["bids"], shown["tricks_won"]
    contract = sum(bids[seat] for seat in side if bids[seat] != 0)
    counted = sum(tricks[seat] for seat in side if bids[seat] != 0 or rules.get("nil_tricks_count_for_team"))
    gained = shown["bags"][index] - bags_before + shown["bag_penalties"][index] * int(rules["bag_limit"])
    if contract == 0:
        return {"bags": gained}
    made = counted >= contract
    return {"contracts_bid": 1, "contracts_made": int(made), "sets": int(not made), "bags": gained}
