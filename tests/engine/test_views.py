"""Per-seat views reveal exactly what that seat may know."""

import json

from services.engine import Bid, Play, apply, legal_moves, make_rules, new_game, turn, view
from services.engine.cards import codes


def _bid_all(state):
    for _ in range(4):
        seat = turn(state)
        state = apply(state, seat, Bid(3))
    return state


def test_a_seat_sees_its_own_hand_only():
    state = new_game(make_rules("partnership"), seed=5)
    for seat in range(4):
        v = view(state, seat)
        assert v["hand"] == codes(state.hands[seat])
        text = json.dumps(v)
        for other in range(4):
            if other != seat:
                assert not any(f'"{c}"' in text for c in codes(state.hands[other]))


def test_spectators_see_no_hand_and_no_legal_moves():
    state = new_game(make_rules("partnership"), seed=5)
    v = view(state, None)
    assert v["hand"] is None and v["legal"] == [] and v["you"] is None
    assert v["hand_sizes"] == [13, 13, 13, 13]


def test_the_seed_never_leaves_the_engine():
    state = new_game(make_rules("partnership"), seed=987654321)
    for seat in (None, 0, 1, 2, 3):
        assert "987654321" not in json.dumps(view(state, seat))


def test_legal_moves_only_for_the_seat_to_move():
    state = new_game(make_rules("partnership"), seed=5)
    assert view(state, 1)["legal"] == list(range(14))
    assert view(state, 2)["legal"] == []


def test_the_current_trick_and_completed_tricks_are_shown():
    state = _bid_all(new_game(make_rules("partnership"), seed=5))
    for _ in range(5):
        seat = turn(state)
        state = apply(state, seat, Play(int(next(iter(_legal_cards(state, seat))))))
    v = view(state, 0)
    assert len(v["tricks"]) == 1 and v["tricks"][0]["winner"] is not None
    assert len(v["trick"]) == 1
    assert v["last_trick"] == v["tricks"][0]
    assert v["leader"] == v["tricks"][0]["winner"]


def _legal_cards(state, seat):
    return [m.card for m in legal_moves(state, seat)]


def test_finished_rounds_reveal_their_hand_record():
    state = _bid_all(new_game(make_rules("partnership"), seed=5))
    dealt = state.hands
    while state.round == 1:
        seat = turn(state)
        state = apply(state, seat, Play(_legal_cards(state, seat)[0]))
    record = view(state, None)["history"][0]
    assert record["hands"] == [codes(h) for h in dealt]
    assert len(record["plays"]) == 52
    assert sum(record["tricks_won"]) == 13
    assert view(state, None)["last_trick"]["winner"] is not None


def test_a_view_without_history_is_the_same_view_minus_finished_rounds():
    state = _bid_all(new_game(make_rules("partnership"), seed=5))
    while state.round == 1:
        seat = turn(state)
        state = apply(state, seat, Play(_legal_cards(state, seat)[0]))
    full, short = view(state, 2), view(state, 2, history=False)
    assert len(full["history"]) == 1 and short["history"] == []
    assert {**short, "history": full["history"]} == full
