"""``benchmarks.tournament``: both modes print every figure docs/ai.md quotes, and the figures add up.

Short runs with the cheap levels (basic is deterministic, easy random by seed)."""

from __future__ import annotations

import pytest

from benchmarks import tournament as t
from services.engine import make_rules

PARTNERSHIP = make_rules("partnership")
INDIVIDUAL = make_rules("individual")
PER_LEVEL_FIGURES = (
    "nil_bid_rate",
    "nil_success_rate",
    "partner_nils_covered",
    "opponent_nils_set",
    "bags_per_round_per_side",
    "bag_penalties_per_100_rounds_per_side",
)


def run(*args: str) -> dict:
    return t.main([*args, "--processes", "1"])


def assert_per_level_consistent(report: dict, rounds_per_role: int, sides_per_role: int) -> None:
    for role in ("a", "b"):
        figures = report["per_level"][role]
        assert figures["level"] == report[role]
        assert set(PER_LEVEL_FIGURES) <= set(figures)
        c = figures["counts"]
        assert c["rounds"] == rounds_per_role
        assert c["side_rounds"] == sides_per_role * rounds_per_role
        assert c["bids"] == 2 * rounds_per_role  # two seats each
        assert 0 <= c["nil_made"] <= c["nil_bids"] <= c["bids"]
        assert 0 <= c["partner_nils_made"] <= c["partner_nils"]
        assert 0 <= c["opponent_nils_set"] <= c["opponent_nils"]
        assert figures["bags_per_round_per_side"] == pytest.approx(c["bags"] / c["side_rounds"], abs=1e-3)


def test_single_rounds_report_plain_and_bag_adjusted_differences():
    report = run("--a", "basic", "--b", "easy", "--rounds", "6", "--seed", "3")
    assert report["mode"] == "rounds" and report["deals"] == 6 and report["plays"] == 12
    won = report["rounds_won"]
    assert won["a"] + won["b"] + won["tie"] == 12
    for block in (report, report["bag_adjusted"]):
        low, high = block["difference_a_minus_b"]["ci95"]
        assert low <= block["difference_a_minus_b"]["mean"] <= high
    assert report["bag_adjusted"]["charge_per_bag"] == PARTNERSHIP.bag_penalty / PARTNERSHIP.bag_limit == 10
    assert_per_level_consistent(report, rounds_per_role=12, sides_per_role=1)
    for role in ("a", "b"):  # no 10-bag round here, so adjusted = plain − 10 × bags
        level = report["per_level"][role]
        assert level["counts"]["bag_penalties"] == 0
        expected = report["mean_points_per_round"][role] - 10 * level["bags_per_round_per_side"]
        assert report["bag_adjusted"]["mean_points_per_round"][role] == pytest.approx(expected, abs=0.02)


def test_individual_rounds_charge_nothing_for_bags_and_count_each_seat_as_a_side():
    report = run("--a", "basic", "--b", "easy", "--preset", "individual", "--rounds", "4")
    assert report["bag_adjusted"]["charge_per_bag"] == 0
    assert report["bag_adjusted"]["difference_a_minus_b"] == report["difference_a_minus_b"]
    assert_per_level_consistent(report, rounds_per_role=8, sides_per_role=2)
    assert report["per_level"]["a"]["partner_nils_covered"] is None


def test_the_same_level_on_both_sides_scores_level_and_every_game_pair_splits():
    """basic is deterministic: if the swap really swaps seats on the same deals, both games of a
    pair are the same game with the labels exchanged, so A and B win exactly one each."""
    rounds = run("--a", "basic", "--b", "basic", "--rounds", "3")
    assert rounds["difference_a_minus_b"]["mean"] == 0 and rounds["difference_a_minus_b"]["ci95"] == [0, 0]
    games = run("--a", "basic", "--b", "basic", "--games", "2", "--win-score", "150")
    assert games["wins"] == {"a": 2, "b": 2}
    assert games["pairs"]["split"] == 2
    assert games["final_score_difference_a_minus_b"]["mean"] == 0


def test_a_pair_swaps_the_levels_seats():
    first, second = t.seatings("hard", "pro")
    assert first.levels == ("hard", "pro", "hard", "pro") and second.levels == ("pro", "hard", "pro", "hard")
    assert (first.a_seats, first.b_seats) == (second.b_seats, second.a_seats)
    for seating in (first, second):
        assert all(seating.levels[s] == "hard" for s in seating.a_seats)
        assert all(seating.levels[s] == "pro" for s in seating.b_seats)
    pair = t.play_pair(("partnership", {}, "basic", "easy", 5, 1))
    assert [p["levels"] for p in pair["plays"]] == [
        ("basic", "easy", "basic", "easy"),
        ("easy", "basic", "easy", "basic"),
    ]
    assert [p["a"]["seats"] for p in pair["plays"]] == [(0, 2), (1, 3)]


def test_whole_games_count_every_game_once():
    report = run("--a", "basic", "--b", "easy", "--games", "2", "--win-score", "150", "--seed", "4")
    assert report["mode"] == "games" and report["game_pairs"] == 2 and report["games"] == 4
    assert report["wins"]["a"] + report["wins"]["b"] + report["ties"] == 4
    assert sum(report["pairs"].values()) == 2
    assert report["a_win_share"] == report["wins"]["a"] / 4
    low, high = report["a_win_share_wilson95"]
    assert 0 <= low <= report["a_win_share"] <= high <= 1
    assert report["round_cap_hit"] == report["ties"] == 0
    assert report["rules"]["win_score"] == 150
    per_game = report["rounds_per_game"]
    assert per_game["min"] <= per_game["mean"] <= per_game["max"]
    total_rounds = round(per_game["mean"] * 4)
    assert_per_level_consistent(report, rounds_per_role=total_rounds, sides_per_role=1)
    assert set(report["mean_final_score"]) == set(report["mean_points_per_round"]) == {"a", "b"}


def test_a_game_stopped_by_the_round_cap_is_a_reported_tie():
    report = run("--a", "basic", "--b", "easy", "--games", "1", "--round-cap", "1")
    assert report["round_cap"] == 1 and report["round_cap_hit"] == 2
    assert report["ties"] == 2 and report["wins"] == {"a": 0, "b": 0}
    assert report["pairs"]["with_unfinished"] == 1
    assert report["rounds_per_game"] == {"mean": 1, "min": 1, "max": 1}


def test_nils_partners_and_opponents_are_counted_per_side():
    # Seat 0 (A) nil made, seat 2 (A) bids 4; seat 1 (B) nil set, seat 3 (B) bids 3.
    facts = t.RoundFacts(bids=(0, 0, 4, 3), tricks=(0, 2, 6, 5), points=(0, 0), bags=(2, 0), penalties=(0, 0))
    a = t.level_counts(PARTNERSHIP, [facts], (0, 2))
    assert (a["nil_bids"], a["nil_made"]) == (1, 1)
    assert (a["partner_nils"], a["partner_nils_made"]) == (1, 1)  # seat 2's partner, seat 0
    assert (a["opponent_nils"], a["opponent_nils_set"]) == (1, 1)  # seat 1
    b = t.level_counts(PARTNERSHIP, [facts], (1, 3))
    assert (b["nil_bids"], b["nil_made"], b["opponent_nils"], b["opponent_nils_set"]) == (1, 0, 1, 0)
    # Individual: no partners; each of A's seats plays against the three others.
    solo = t.RoundFacts(bids=(0, 0, 4, 3), tricks=(0, 2, 6, 5), points=(100, -100, 40, 50), bags=(0, 0, 2, 2),
                        penalties=(0, 0, 0, 0))  # fmt: skip
    a = t.level_counts(INDIVIDUAL, [solo], (0, 2))
    assert a["partner_nils"] == 0
    assert (a["opponent_nils"], a["opponent_nils_set"]) == (3, 2)  # seat 0 faces 1; seat 2 faces 0 and 1
    assert (a["side_rounds"], a["bags"]) == (2, 2)


def test_bag_adjusted_points_put_the_realised_penalty_back_and_charge_each_bag():
    # Side 0 makes 8 with 11 tricks (83 points, 3 bags) and, carrying 7 bags, pays the penalty.
    facts = t.RoundFacts(bids=(4, 3, 4, 3), tricks=(9, 1, 2, 1), points=(83 - 100, -60), bags=(3, 0), penalties=(1, 0))
    assert t.adjusted_points(PARTNERSHIP, facts, 0) == 83 - 3 * 10
    assert t.adjusted_points(PARTNERSHIP, facts, 1) == -60
    quiet = t.RoundFacts(bids=(1, 1, 1, 1), tricks=(4, 3, 3, 3), points=(13, 12, 12, 12), bags=(3, 2, 2, 2),
                         penalties=(0, 0, 0, 0))  # fmt: skip
    assert t.adjusted_points(INDIVIDUAL, quiet, 0) == 13


def test_round_facts_take_tricks_and_bags_from_the_engine():
    from services.engine import Bid, apply, legal_moves, new_game, turn

    state = new_game(PARTNERSHIP, seed=9)
    while not state.history:
        seat = turn(state)
        moves = legal_moves(state, seat)
        state = apply(state, seat, Bid(2) if Bid(2) in moves else moves[0])
    facts = t.round_facts(PARTNERSHIP, 1, state.history[0])
    assert sum(facts.tricks) == 13 and facts.bids == (2, 2, 2, 2)
    for side in (0, 1):
        taken = facts.tricks[side] + facts.tricks[side + 2]
        assert facts.bags[side] == max(0, taken - 4)
        assert facts.points[side] == (40 + facts.bags[side] if taken >= 4 else -40)


def test_wilson_interval_is_the_textbook_one():
    assert t.wilson(0, 10) == [0.0, pytest.approx(0.2775, abs=1e-4)]
    low, high = t.wilson(5, 10)
    assert low == pytest.approx(1 - high, abs=1e-4) and low == pytest.approx(0.2366, abs=1e-4)


@pytest.mark.integration
def test_two_processes_give_the_same_figures_as_one():
    args = ["--a", "easy", "--b", "basic", "--games", "2", "--win-score", "120", "--seed", "7"]
    one = t.main([*args, "--processes", "1"])
    two = t.main([*args, "--processes", "2"])
    del one["elapsed_s"], two["elapsed_s"]
    assert one == two


def test_house_rule_rounds_report_blind_decisions_and_nil_exchanges():
    report = run(
        "--a", "normal", "--b", "easy", "--preset", "house", "--option", "blind_margin=0",
        "--option", "suicide=true", "--rounds", "3", "--seed", "2",
    )  # fmt: skip
    assert report["options"] == {"blind_margin": 0, "suicide": True}
    assert_per_level_consistent(report, rounds_per_role=6, sides_per_role=1)
    for role in ("a", "b"):
        figures, c = report["per_level"][role], report["per_level"][role]["counts"]
        assert c["blind_offered"] == 2 * 6  # every seat's hand hidden at its bid; neither level bids blind
        assert figures["blind_nil_rate"] == figures["blind_bid_rate"] == 0.0
        assert c["exchanges"] == 2 * 6  # suicide: a nil in every side, so both partners pass every round
        assert 0 <= c["exchange_nils_made"] <= c["exchanges"]
