"""A seat's stats from a record: contracts (a team's, shared by partners), sets, its own nils, its side's bags
— checked on a hand-made round and against the engine's own scoring over whole games of every kind."""

from __future__ import annotations

import random

import pytest

from services.api.games.record import GameOptions, GameRecord, Seat
from services.api.records.content import build
from services.engine import make_rules, new_game
from services.engine.scoring import side_round_points
from services.ratings.stats import FIELDS, seat_stats, sides_of

from ..api.records.conftest import played

RULES = {"scoring": "partnership", "bag_limit": 10, "nil_tricks_count_for_team": True}


def one_round(bids, tricks_won, bags, bag_penalties, scoring="partnership", **rules):
    return {
        "rules": {**RULES, "scoring": scoring, **rules},
        "seats": [{"seat": i, "won": i in (0, 2)} for i in range(4)],
        "rounds": [{"bids": bids, "tricks_won": tricks_won, "bags": bags, "bag_penalties": bag_penalties}],
    }


def test_partners_share_their_teams_contract_and_bags_and_a_nil_is_the_seats_own():
    # team 0&2 bid 4+0 and took 5 (the nil bidder took 1: a failed nil, counted for the team); team 1&3 set
    stats = seat_stats(one_round([4, 4, 0, 5], [4, 2, 1, 6], [1, 0], [0, 0]))
    assert stats[0] == {**dict.fromkeys(FIELDS, 0), "games": 1, "wins": 1, "rounds": 1, "contracts_bid": 1,
                        "contracts_made": 1, "bags": 1}  # fmt: skip
    assert stats[2] == {**stats[0], "nils_bid": 1}  # its nil failed: made 0
    assert stats[1] == stats[3] == {**dict.fromkeys(FIELDS, 0), "games": 1, "rounds": 1, "contracts_bid": 1, "sets": 1}


def test_bags_gained_count_through_a_penalty_and_a_made_nil_counts():
    doc = one_round([4, 0, 2, 4], [7, 0, 2, 4], [1, 0], [1, 0])  # 3 bags onto the 8 before: the penalty hit once
    earlier = {"bids": [3, 3, 3, 3], "tricks_won": [4, 3, 4, 2], "bags": [8, 0], "bag_penalties": [0, 0]}
    doc["rounds"].insert(0, earlier)
    stats = seat_stats(doc)
    assert stats[0]["bags"] == stats[2]["bags"] == 8 + 3
    assert stats[1]["nils_bid"] == stats[1]["nils_made"] == 1 and stats[3]["nils_bid"] == 0


def test_a_side_of_nil_bidders_has_no_contract():
    stats = seat_stats(one_round([0, 0, 7, 6], [0, 0, 7, 6], [0, 0, 0, 0], [0, 0, 0, 0], scoring="individual"))
    assert stats[0]["contracts_bid"] == 0 and stats[0]["nils_made"] == 1 and stats[2]["contracts_made"] == 1


@pytest.mark.parametrize(
    ("preset", "overrides"),
    [
        ("partnership", {}),
        ("partnership", {"nil_tricks_count_for_team": False, "bag_limit": 5}),
        ("individual", {}),
        ("house", {}),
    ],
)
@pytest.mark.parametrize("seed", [3, 8])
def test_whole_games_agree_with_the_engines_scoring(preset, overrides, seed):
    rules = make_rules(preset, win_score=200, **overrides)
    state = played(new_game(rules, seed), random.Random(seed))
    record = GameRecord("g", 1, [Seat("ai", "hard")] * 4, "", GameOptions(None), started=True).with_state(state)
    document = build(record)
    stats = seat_stats(document)
    sides = sides_of(rules.scoring)
    expected = [dict.fromkeys(("bags", "contracts_bid", "nils_bid"), 0) for _ in range(4)]
    for finished, shown in zip(state.history, document["rounds"], strict=True):
        for side in sides:
            contract = sum(finished.bids[s] for s in side if finished.bids[s] != 0)
            _, bags = side_round_points(rules, side, finished.bids, tuple(shown["tricks_won"]), finished.blind)
            for seat in side:
                expected[seat]["bags"] += bags
                expected[seat]["contracts_bid"] += int(contract > 0)
        for seat, bid in enumerate(finished.bids):
            expected[seat]["nils_bid"] += int(bid == 0)
    for seat in range(4):
        assert stats[seat]["rounds"] == len(state.history)
        assert stats[seat]["wins"] == int(seat in state.winner)
        assert {k: stats[seat][k] for k in ("bags", "contracts_bid", "nils_bid")} == expected[seat]
        assert stats[seat]["contracts_made"] + stats[seat]["sets"] == stats[seat]["contracts_bid"]
        assert stats[seat]["nils_made"] <= stats[seat]["nils_bid"]
    gained = [stats[side[0]]["bags"] for side in sides]  # every bag a side gained; the penalties took some off
    penalties = [sum(shown["bag_penalties"][i] for shown in document["rounds"]) for i in range(len(sides))]
    left = [bags - hits * rules.bag_limit for bags, hits in zip(gained, penalties, strict=True)]
    assert left == document["result"]["bags"]
