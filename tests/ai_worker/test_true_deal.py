"""The true-deal evaluation (``ai.true_deal``): a finished round's card decision valued with every hand known, only
ever for a finished round, answering with the seat's legal cards alone."""

from __future__ import annotations

import random

import pytest

from services.ai_worker.tasks import true_deal_task
from services.ai_worker.true_deal import EXACT_FROM, NotFinished, evaluation, hands_at
from services.engine import card_code, make_rules, new_game, turn, view
from testkit.random_play import play_randomly

IDS = {"game_id": "g", "version": 3, "seed": 1}


def finished_round(seed: int):
    """A partnership round played to its end at random, with each card decision's view (more than one legal card)."""
    rng = random.Random(seed)
    state = new_game(make_rules("partnership"), seed=seed)
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
    for seat_view, _ in views[:: max(1, len(views) // 6)]:
        seat = seat_view["you"]
        result = true_deal_task.run(view=seat_view, plays=plays, seat=seat, **IDS)
        assert (result["game_id"], result["seat"]) == ("g", seat)
        assert [c["card"] for c in result["candidates"]] == seat_view["legal"]
        assert result["move"]["card"] in seat_view["legal"]
        assert result["exact"] == (len(seat_view["hand"]) <= EXACT_FROM)
        shown = {v for k, v in result.items() if isinstance(v, str)} | {c["card"] for c in result["candidates"]}
        others = set(plays) - set(seat_view["hand"])
        assert not (shown & others), "nothing of the other hands"


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
