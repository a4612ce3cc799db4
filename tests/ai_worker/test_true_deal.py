"""The true-deal evaluation (``ai.true_deal``): a finished round's card decision valued with every hand known, only
ever for a finished round, answering with the seat's legal cards alone, and only where the value is exact (a
partnership game's card with at most EXACT_FROM tricks left)."""

from __future__ import annotations

import random

import pytest

from services.ai_worker.tasks import true_deal_task
from services.ai_worker.true_deal import EXACT_FROM, NotFinished, evaluated, evaluation, hands_at
from services.engine import card_code, make_rules, new_game, turn, view
from services.ratings import accuracy
from testkit.random_play import play_randomly

IDS = {"game_id": "g", "version": 3, "seed": 1}


def finished_round(seed: int, scoring: str = "partnership"):
    """A round played to its end at random, with each card decision's view (more than one legal card)."""
    rng = random.Random(seed)
    state = new_game(make_rules(scoring), seed=seed)
    views = []
    while not state.history:
        seat = turn(state)
        seat_view = view(state, seat, history=False)
        if state.phase == "playing" and len(seat_view["legal"]) > 1:
            views.append((seat_view, state))
        state = play_randomly(state, 1, rng)
    return [card_code(c) for c in state.history[0].plays], views


def test_the_hands_at_a_decision_are_the_cards_each_seat_plays_later():
    plays, views = finished_round(41)
    for seat_view, state in views:
        assert hands_at(seat_view, plays) == list(state.hands)


def test_a_finished_rounds_card_is_valued_with_only_the_legal_cards_in_the_answer():
    plays, views = finished_round(42)
    late = [each for each in views if len(each[0]["hand"]) <= EXACT_FROM]
    assert late and all(evaluated(seat_view) for seat_view, _ in late)
    for seat_view, _ in late[:: max(1, len(late) // 6)]:
        seat = seat_view["you"]
        result = true_deal_task.run(view=seat_view, plays=plays, seat=seat, **IDS)
        assert (result["game_id"], result["seat"]) == ("g", seat)
        assert [c["card"] for c in result["candidates"]] == seat_view["legal"]
        assert result["move"]["card"] in seat_view["legal"]
        assert result["exact"] is True
        shown = {v for k, v in result.items() if isinstance(v, str)} | {c["card"] for c in result["candidates"]}
        others = set(plays) - set(seat_view["hand"])
        assert not (shown & others), "nothing of the other hands"


@pytest.mark.parametrize("scoring", ["partnership", "individual"])
def test_a_card_whose_value_would_not_be_exact_is_not_valued(scoring: str):
    plays, views = finished_round(46, scoring)
    early = [v for v, _ in views if scoring == "individual" or len(v["hand"]) > EXACT_FROM]
    assert early and not any(evaluated(v) for v in early)
    for seat_view in early[:: max(1, len(early) // 4)]:
        result = true_deal_task.run(view=seat_view, plays=plays, seat=seat_view["you"], **IDS)
        assert (result["move"], result["candidates"], result["exact"]) == (None, [], False)
        with pytest.raises(NotFinished):  # still only of a finished round
            evaluation(seat_view, plays[:-4])


@pytest.mark.parametrize("scoring", ["partnership", "individual"])
def test_the_collector_asks_exactly_for_the_cards_the_worker_values(scoring: str):
    assert accuracy.TRUE_DEAL_FROM == EXACT_FROM  # services.ratings imports nothing of the worker: kept equal here
    _, views = finished_round(47, scoring)
    assert [accuracy.true_deal_scored(v) for v, _ in views] == [evaluated(v) for v, _ in views]


def test_a_round_in_play_is_refused():
    plays, views = finished_round(43)
    seat_view, _ = views[len(views) // 2]
    so_far = plays[: 52 - sum(seat_view["hand_sizes"])]
    for asked in (so_far, so_far + ["2C"], plays[:-4]):  # the plays of a round in play are never complete
        with pytest.raises(NotFinished):
            evaluation(seat_view, asked)
        with pytest.raises(ValueError):
            true_deal_task.run(view=seat_view, plays=asked, seat=seat_view["you"], **IDS)


def test_another_rounds_plays_or_a_bid_are_refused():
    plays, views = finished_round(44)
    other, _ = finished_round(45)
    seat_view, _ = views[len(views) // 2]
    with pytest.raises(NotFinished):
        evaluation(seat_view, other)
    bidding = view(new_game(make_rules("partnership"), seed=44), turn(new_game(make_rules("partnership"), seed=44)))
    with pytest.raises(NotFinished):
        evaluation(bidding, plays)
    with pytest.raises(ValueError):  # a view for another seat, as every task refuses
        true_deal_task.run(view=seat_view, plays=plays, seat=(seat_view["you"] + 1) % 4, **IDS)
