"""Accuracy's scoring and its flag rule (services/ratings/accuracy.py), on small fixed inputs."""

from __future__ import annotations

from services.ratings import accuracy
from services.ratings.accuracy import Accuracy, Scored, beyond_levels, score, total

CARDS = [
    {"card": "AS", "value": 40.0, "trick_chance": 0.9},
    {"card": "2H", "value": 37.5, "trick_chance": 0.1},
    {"card": "KD", "value": 20.0, "trick_chance": 0.5},
]


def test_the_best_move_gives_nothing_away_and_is_accurate() -> None:
    assert score(CARDS, {"card": "AS"}) == Scored(0.0, True)


def test_a_move_within_the_margin_is_accurate_and_one_beyond_is_not() -> None:
    assert score(CARDS, {"card": "2H"}) == Scored(2.5, True)
    assert score(CARDS, {"card": "KD"}) == Scored(20.0, False)
    assert accuracy.MARGIN < 20.0


def test_a_lone_move_or_one_expert_did_not_weigh_is_not_scored() -> None:
    assert score([{"card": "AS"}], {"card": "AS"}) is None
    assert score(CARDS, {"card": "QC"}) is None
    passes = [{"pass": ["2C", "3C"], "value": 1.0}, {"pass": ["AS", "KS"], "value": 4.0}]
    assert score(passes, {"pass": ["3C", "2C"]}) == Scored(3.0, True)  # a pass's cards in any order


def test_bids_and_blind_bids_are_matched_whole() -> None:
    bids = [{"look": True, "value": 10.0}, {"bid": 0, "blind": True, "value": -30.0, "make_chance": 0.4}]
    assert score(bids, {"look": True}) == Scored(0.0, True)
    assert score(bids, {"bid": 0, "blind": True}) == Scored(40.0, False)
    plain = [{"bid": 3, "value": 5.0, "make_chance": 0.8}, {"bid": 4, "value": 9.0, "make_chance": 0.6}]
    assert score(plain, {"bid": 3}) == Scored(4.0, True)


def test_a_cards_trick_excess_is_signed_by_the_way_it_leaned() -> None:
    assert score(CARDS, {"card": "AS"}, took_trick=True).trick_excess == 0.1  # leaned to take it, took it
    assert score(CARDS, {"card": "2H"}, took_trick=True).trick_excess == -0.9  # leaned to duck, took it
    assert score(CARDS, {"card": "KD"}, took_trick=False).trick_excess is None  # at the mean: no lean


def test_a_game_adds_up_its_scored_decisions() -> None:
    game = total([Scored(0.0, True, 0.2), None, Scored(12.0, False), Scored(2.0, True, -0.1)])
    assert game == Accuracy(3, 2, 14.0, 2, 0.1)
    assert game.share == 2 / 3 and game.mean_given_away == 14 / 3 and game.mean_trick_excess == 0.05
    assert (game + game).decisions == 6
    assert Accuracy().figures()["accurate_share"] is None


def test_no_flag_before_enough_games_nor_at_the_levels_ceiling() -> None:
    cheat = Accuracy(100, 90, 50.0, 50, 50 * 0.4)
    assert not beyond_levels([cheat] * (accuracy.FLAG_MIN_GAMES - 1))
    assert beyond_levels([cheat] * accuracy.FLAG_MIN_GAMES)
    at_ceiling = Accuracy(100, 99, 20.0, 50, 50 * accuracy.LEVEL_CEILING_EXCESS)
    assert not beyond_levels([at_ceiling] * 100)


def test_the_threshold_narrows_with_more_cards() -> None:
    assert accuracy.flag_threshold(100) > accuracy.flag_threshold(10_000) > accuracy.LEVEL_CEILING_EXCESS


TRUE_DEAL = [{"card": "AS", "value": 40.0}, {"card": "2H", "value": 36.0}, {"card": "KD", "value": 20.0}]


def test_a_card_agrees_with_the_true_deal_within_the_margin() -> None:
    assert accuracy.true_agrees(TRUE_DEAL, {"card": "AS"}) is True
    assert accuracy.true_agrees(TRUE_DEAL, {"card": "2H"}) is True  # 4 points short: within the margin
    assert accuracy.true_agrees(TRUE_DEAL, {"card": "KD"}) is False


def test_a_card_whose_choices_are_worth_the_same_or_unknown_is_not_scored_on_the_true_deal() -> None:
    level = [{"card": "AS", "value": 40.0}, {"card": "2H", "value": 40.0 - accuracy.TRUE_MARGIN}]
    assert accuracy.true_agrees(level, {"card": "2H"}) is None  # nothing to tell
    assert accuracy.true_agrees(TRUE_DEAL[:1], {"card": "AS"}) is None  # a lone card
    assert accuracy.true_agrees(TRUE_DEAL, {"card": "QC"}) is None  # not among the cards valued
    assert accuracy.true_agrees([*TRUE_DEAL, {"card": "QC"}], {"card": "AS"}) is None  # a card not valued


def test_true_deal_agreement_adds_up_beside_the_views_scores() -> None:
    game = total([score(CARDS, {"card": "AS"}, True), None], [True, False, None, True])
    assert (game.decisions, game.true_cards, game.true_agreed) == (1, 3, 2)
    assert game.figures()["true_agreement"] == round(2 / 3, 4)
    assert (game + game).true_cards == 6


def test_agreement_beyond_the_best_levels_is_flagged_and_at_it_is_not() -> None:
    ceiling = accuracy.LEVEL_CEILING_AGREEMENT
    at_ceiling = Accuracy(100, 99, 20.0, 0, 0.0, 100, round(100 * ceiling))
    seer = Accuracy(100, 80, 300.0, 0, 0.0, 32, 30)  # a game's ~32 cards from 8 tricks left, nearly all agreeing
    assert not beyond_levels([at_ceiling] * 100)
    assert not beyond_levels([seer] * (accuracy.FLAG_MIN_GAMES - 1))
    assert beyond_levels([seer] * accuracy.FLAG_MIN_GAMES)
    assert accuracy.agreement_threshold(100) > accuracy.agreement_threshold(10_000) > ceiling
