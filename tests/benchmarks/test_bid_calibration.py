"""``benchmarks.bid_calibration``: the JSON's shape, the rounds it scores are the gauntlet's, and what counts as made.

The runs are short (a deal or two of hard, in process)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from benchmarks import bid_calibration as c
from benchmarks.gauntlet import gauntlet_decider
from benchmarks.tournament import SEED_STRIDE, move_seeds, play
from services.engine import make_rules
from spades_client.duplicate import RoundFacts, seatings

INDIVIDUAL = make_rules("individual")
PARTNERSHIP = make_rules("partnership")


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    return c.main(["--level", "hard", "--deals", "2", "--opponents", "random-legal", "--processes", "1"])


def test_every_bid_of_the_level_is_counted_once(report: dict[str, Any]):
    assert (report["level"], report["preset"], report["seating"], report["deals"]) == ("hard", "individual", "alone", 2)
    row = report["opponents"]["random-legal"]
    assert row["bids"] == 8  # two deals, the level alone on each of the four seats
    assert row["contracts"]["bids"] + row["nils"]["bids"] == 8
    assert sum(tenth["bids"] for tenth in row["reliability"]) == row["contracts"]["bids"]
    for block in (row["contracts"], row["one_more"], *row["reliability"]):
        low, high = block["made_wilson95"]
        assert 0 <= block["foreseen"] <= 1 and low <= block["made"] <= high
    for tenth in row["reliability"]:
        low, high = tenth["chance"]
        assert low <= tenth["foreseen"] <= high


def test_the_rounds_are_the_gauntlets():
    """The level's bid and tricks on each seating of a deal are those of the gauntlet's play of it."""
    seed = 1 * SEED_STRIDE
    records = c.play_deal(("individual", "hard", "standard", seed))
    seated = seatings("hard", "standard", alone=True)
    assert len(records) == len(seated) == 4
    for swapped, (seating, record) in enumerate(zip(seated, records, strict=True)):
        decider = gauntlet_decider(seating.levels, seed, swapped)
        facts = play(INDIVIDUAL, seed, seating.levels, move_seeds(len(seated), seed, swapped, 1), 1, decider).rounds[0]
        (seat,) = seating.a_seats
        assert (record["bid"], record["tricks"]) == (facts.bids[seat], facts.tricks[seat])
        assert record["made"] == c.made(INDIVIDUAL, seat, record["bid"], facts)


def test_partnership_counts_both_seats_of_the_side():
    records = c.play_deal(("partnership", "hard", "standard", 1 * SEED_STRIDE))
    assert len(records) == 4  # two seatings, two seats of the level in each
    assert all(0 <= r["chance"] <= 1 for r in records)


def facts(bids: tuple[int, ...], tricks: tuple[int, ...]) -> RoundFacts:
    return RoundFacts(bids=bids, tricks=tricks, points=(0, 0), bags=(0, 0), penalties=(0, 0))


def test_made_alone_counts_the_seats_own_tricks():
    round_ = facts((3, 4, 2, 4), (3, 5, 1, 4))
    assert c.made(INDIVIDUAL, 0, 3, round_) and not c.made(INDIVIDUAL, 0, 4, round_)
    assert not c.made(INDIVIDUAL, 2, 2, round_)
    assert c.made(INDIVIDUAL, 0, 0, facts((0, 4, 4, 5), (0, 5, 4, 4)))
    assert not c.made(INDIVIDUAL, 0, 0, facts((0, 4, 4, 5), (1, 5, 3, 4)))


def test_made_in_partnership_is_the_sides_contract():
    round_ = facts((3, 4, 2, 4), (2, 5, 3, 3))  # seats 0 and 2: 5 tricks on a contract of 5
    assert c.made(PARTNERSHIP, 0, 3, round_) and c.made(PARTNERSHIP, 2, 2, round_)
    assert not c.made(PARTNERSHIP, 0, 4, round_)  # one trick more: 6 on 5 tricks
    nil_partner = facts((4, 4, 0, 4), (3, 5, 1, 4))  # the nil bidder's trick: counted for the side or not
    assert PARTNERSHIP.nil_tricks_count_for_team and c.made(PARTNERSHIP, 0, 4, nil_partner)
    apart = make_rules("partnership", nil_tricks_count_for_team=False)
    assert not c.made(apart, 0, 4, nil_partner) and not c.made(apart, 2, 0, nil_partner)


def test_a_bid_the_level_did_not_search_is_left_out(monkeypatch: pytest.MonkeyPatch):
    """A lone legal bid (a partner's 13 leaves only nil) has no make chance: it is not counted, and nothing fails."""

    def lone(view: dict[str, Any], seed: int) -> dict[str, Any]:
        bid = view["legal"][0]
        return {"move": {"bid": bid}, "candidates": [{"bid": bid}]}  # hard's answer when one bid is legal

    monkeypatch.setattr(c, "level_module", lambda level: SimpleNamespace(analysis=lone))
    assert c.play_deal(("partnership", "hard", "standard", 1 * SEED_STRIDE)) == []
