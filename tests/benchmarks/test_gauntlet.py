"""``benchmarks.gauntlet`` and its people (``testkit.people_bots``): the JSON's shape, the same deals for
expert and hard, the paired difference, and each person's defining habit on constructed views.

The runs are short (two deals, in process): expert's decisions are what they cost."""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks import gauntlet as g
from benchmarks import tournament as t
from benchmarks.ratings import api_view
from services.engine import codes, make_rules, new_game, view
from spades_client.models import GameView
from testkit import people_bots as pb

PARTNERSHIP = make_rules("partnership")


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    return g.main(["--deals", "2", "--opponents", "random-legal,nil-happy,head-to-head", "--seed", "3",
                   "--processes", "1"])  # fmt: skip


def test_every_opponent_has_both_margins_and_their_paired_difference(report: dict[str, Any]):
    assert report["preset"] == "partnership" and report["deals"] == 2 and report["levels"] == ["expert", "hard"]
    assert set(report["opponents"]) == {"random-legal", "nil-happy"}
    for opponent, row in report["opponents"].items():
        assert row["deals"] == 2
        for level in ("expert", "hard"):
            side = row[level]
            for block in (side["margin"], side["bag_adjusted_margin"]):
                low, high = block["ci95"]
                assert low <= block["mean"] <= high
            points = side["mean_points_per_round"]
            assert side["margin"]["mean"] == pytest.approx(points["level"] - points["opponent"], abs=0.015)
            assert side["per_level"]["level"]["level"] == level
            assert side["per_level"]["opponent"]["level"] == opponent
            assert side["per_level"]["level"]["counts"]["rounds"] == 4  # two deals, each played twice
            assert sum(side["rounds_won"].values()) == 4
            assert side["cpu_s_per_deal"] > 0
        # The mean of the per-deal differences is the difference of the means (each rounded to 0.01).
        for paired, margin in (
            ("expert_minus_hard", "margin"),
            ("expert_minus_hard_bag_adjusted", "bag_adjusted_margin"),
        ):
            expected = row["expert"][margin]["mean"] - row["hard"][margin]["mean"]
            assert row[paired]["mean"] == pytest.approx(expected, abs=0.015)
            low, high = row[paired]["ci95"]
            assert low <= row[paired]["mean"] <= high
    summary = report["summary"]
    assert summary["opponents"] == 2
    assert set(summary["interval_above_zero"]) <= set(summary["expert_ahead"]) <= set(report["opponents"])


def test_expert_and_hard_meet_the_same_deals_against_every_opponent(report: dict[str, Any]):
    digests = {row[level]["deal_digest"] for row in report["opponents"].values() for level in ("expert", "hard")}
    assert digests == {report["head_to_head"]["deal_digest"]}


def test_head_to_head_is_the_tournaments_row_on_the_same_seeds(report: dict[str, Any]):
    tournament = t.main(["--a", "expert", "--b", "hard", "--rounds", "2", "--seed", "3", "--processes", "1"])
    head = report["head_to_head"]
    assert head["deals"] == 2
    assert head["expert_minus_hard"] == tournament["difference_a_minus_b"]
    assert head["bag_adjusted"] == tournament["bag_adjusted"]["difference_a_minus_b"]
    assert head["per_level"]["level"] == tournament["per_level"]["a"]


def test_alone_each_level_sits_on_every_seat_against_three_of_the_opponent():
    report = g.main(["--preset", "individual", "--deals", "1", "--opponents", "random-legal", "--seed", "3",
                     "--processes", "1", "--alone"])  # fmt: skip
    assert report["seating"] == "alone"
    row = report["opponents"]["random-legal"]
    for level in ("expert", "hard"):
        counts = row[level]["per_level"]
        assert counts["level"]["counts"]["rounds"] == 4 and counts["level"]["counts"]["bids"] == 4  # one seat a play
        assert counts["opponent"]["counts"]["bids"] == 12
    assert row["expert"]["deal_digest"] == row["hard"]["deal_digest"]
    plays = t.duplicate_pair(make_rules("individual"), "basic", "easy", 5, 1, alone=True)["plays"]
    assert [p["a"]["seats"] for p in plays] == [(0,), (1,), (2,), (3,)]
    assert plays[1]["levels"] == ("easy", "basic", "easy", "easy")
    assert plays[1]["b"]["seats"] == (0, 2, 3)


def test_the_digest_is_of_the_cards_the_engine_dealt():
    seed = 11
    g.dealt.clear()
    pair = t.duplicate_pair(PARTNERSHIP, "basic", "trumper", seed, 1, g.gauntlet_decider)
    assert len(pair["plays"]) == 2
    hands = {key[2]: hand for key, hand in g.dealt.items() if key[:2] == (seed, 0)}
    dealt = new_game(PARTNERSHIP, seed=seed).hands
    assert {seat: sorted(hand) for seat, hand in hands.items()} == {s: sorted(codes(dealt[s])) for s in range(4)}
    assert {key[:2] for key in g.dealt} == {(seed, 0), (seed, 1)}


def test_an_individual_run_reports_no_partner_figures():
    report = g.main(["--preset", "individual", "--deals", "1", "--opponents", "cautious", "--processes", "1"])
    row = report["opponents"]["cautious"]
    assert row["expert"]["per_level"]["level"]["partner_nils_covered"] is None
    assert row["expert"]["per_level"]["level"]["counts"]["side_rounds"] == 4  # two seats, two plays
    assert "head_to_head" not in report


def test_unknown_opponents_are_refused():
    with pytest.raises(SystemExit):
        g.parse_args(["--opponents", "basic,grandmaster"])


@pytest.mark.parametrize("preset", ["partnership", "individual", "house", "jokers_deuces_high"])
def test_the_people_and_the_example_bot_play_whole_rounds_legally(preset: str):
    """The engine refuses an illegal move: a round of each table plays to its end."""
    rules = make_rules(preset, **({"blind_margin": 0} if preset == "house" else {}))
    tables = [
        ("nil-happy", "cautious", "overbidder", "bag-dumper"),
        ("trumper", "random-legal", "trumper", "random-legal"),
    ]
    if preset in g.PRESETS:
        tables.append(("example-bot", "nil-happy", "example-bot", "random-legal"))
    for seed, players in enumerate(tables):
        played = t.play(rules, seed, players, lambda n: n, 1, g.gauntlet_decider(players, seed, 0))
        assert sum(played.rounds[0].tricks) == 13


# --- the people's habits, on constructed views -----------------------------------------------------------


def seat_view(**fields: Any) -> GameView:
    """Seat 0's view of a partnership round, with ``fields`` over it: what the bot in seat 0 would read."""
    base = view(new_game(PARTNERSHIP, seed=1), 0, history=False) | {"turn": 0}
    return GameView.from_dict(api_view(base, ("a", "b", "c", "d"), 1) | fields)


WEAK = ["2C", "5C", "9C", "QC", "3D", "7D", "JD", "4H", "8H", "KH", "2S", "5S", "9S"]  # KH, QC: ~1 trick
STRONG = ["AC", "KC", "4C", "AD", "5D", "AH", "KH", "3H", "AS", "KS", "QS", "7S", "6S"]


def bidding(hand: list[str], legal: list[int] | None = None) -> GameView:
    return seat_view(phase="bidding", hand=hand, legal=legal if legal is not None else list(range(14)))


def test_the_nil_happy_one_bids_nil_where_the_others_do_not():
    weak = bidding(WEAK)
    assert pb.nil_happy(weak) == 0
    for name in ("cautious", "overbidder", "bag-dumper", "trumper"):
        assert pb.PEOPLE[name](weak) > 0, name
    with_the_king = bidding([*WEAK[:-1], "KS"])  # a sure spade trick: no nil
    assert pb.nil_happy(with_the_king) > 0


def test_the_bidders_bid_under_at_and_over_the_count():
    strong = bidding(STRONG)
    count = pb.count_tricks(strong)
    assert count == 10  # four aces, KC, KH, KS, QS, and the fourth and fifth spades
    assert pb.cautious(strong) == 9
    assert pb.bag_dumper(strong) == 9
    assert pb.trumper(strong) == 10
    assert pb.overbidder(strong) == 12
    assert pb.nil_happy(strong) == 10
    assert pb.overbidder(bidding(STRONG, legal=[0, *range(1, 10)])) == 9  # the highest the rules allow


def playing(hand: list[str], trick: list[tuple[int, str]], **fields: Any) -> GameView:
    led = trick[0][1][1] if trick else None
    follow = [c for c in hand if c[1] == led]
    return seat_view(
        phase="playing", hand=hand, legal=follow or hand, bids=fields.pop("bids", [3, 3, 3, 3]),
        trick=[{"seat": s, "card": c} for s, c in trick], **fields,
    )  # fmt: skip


VOID_IN_HEARTS = ["2C", "8C", "KC", "3D", "9D", "4S", "9S", "QS"]


def test_the_trumper_ruffs_even_over_its_winning_partner():
    partner_wins = playing(VOID_IN_HEARTS, [(1, "3H"), (2, "AH"), (3, "5H")])
    assert pb.trumper(partner_wins) == "4S"
    assert pb.cautious(partner_wins) == "2C"  # the others discard under a winning partner
    over_a_ruff = playing(VOID_IN_HEARTS, [(1, "3H"), (2, "4H"), (3, "8S")])
    assert pb.trumper(over_a_ruff) == "9S"  # the lowest spade that wins
    following = playing([*VOID_IN_HEARTS, "TH"], [(1, "3H"), (2, "AH"), (3, "5H")])
    assert pb.trumper(following) == "TH"  # not void: it follows suit


def test_the_bag_dumper_ducks_once_its_side_has_made_its_bid():
    hand = ["AC", "TC", "4C", "3D"]
    trick = [(1, "5C"), (2, "2C"), (3, "9C")]
    before = playing(hand, trick, bids=[2, 3, 2, 3], tricks_won=[1, 2, 1, 3])
    assert pb.bag_dumper(before) == "TC"  # the side has 2 of 4: win cheaply
    made = playing(hand, trick, bids=[2, 3, 2, 3], tricks_won=[2, 2, 2, 3])
    assert pb.bag_dumper(made) == "4C"  # 4 of 4: the highest card that loses
    assert pb.cautious(made) == "TC"


def test_a_nil_bidder_plays_the_highest_card_that_loses():
    nil = playing(["AC", "TC", "4C", "3D"], [(1, "JC")], bids=[0, 3, 3, 3])
    assert pb.nil_happy(nil) == "TC"
    nothing_loses = playing(["AC", "KC", "3D"], [(1, "JC")], bids=[0, 3, 3, 3])
    assert pb.nil_happy(nothing_loses) == "AC"  # it wins anyway: shed the ace now


def test_random_legal_only_plays_legal_moves_and_draws_with_the_view():
    hand = ["2C", "8C", "KC", "3D", "9D", "4S"]
    cards = {pb.random_legal(playing(hand, [(1, "5C")], version=v)) for v in range(40)}
    assert cards == {"2C", "8C", "KC"}  # every club, nothing else
    many = {pb.random_legal(seat_view(phase="bidding", hand=WEAK, legal=[1, 2, 3], version=v)) for v in range(30)}
    assert many == {1, 2, 3}
    again = playing(hand, [(1, "5C")], version=7)
    assert pb.random_legal(again) == pb.random_legal(again)
