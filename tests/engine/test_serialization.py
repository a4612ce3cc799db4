"""Storage form: exact round trips, compact, versioned."""

import json

import pytest

from services.engine import (
    SchemaError,
    apply,
    from_json,
    legal_moves,
    make_rules,
    new_game,
    serialization,
    to_json,
    to_json_parts,
    turn,
)
from services.engine.serialization import to_dict
from tests.engine.strategies_util import play_random_game


def test_fresh_game_round_trips_exactly():
    state = new_game(make_rules("individual"), seed=1)
    assert from_json(to_json(state)) == state


def test_finished_game_round_trips_exactly():
    state = play_random_game(make_rules("partnership", win_score=200), seed=4)
    assert state.phase == "game_over"
    assert from_json(to_json(state)) == state


def test_ten_rounds_with_hand_records_fit_in_4_kib():
    state = play_random_game(make_rules("partnership", win_score=100_000, lose_score=None), seed=4, max_rounds=10)
    assert len(state.history) == 10
    assert len(to_json(state).encode()) <= 4096


def test_stored_text_is_the_plain_json_of_the_state():
    # to_json builds the text from cached pieces; it must equal the plain encoding.
    state = play_random_game(make_rules("partnership", win_score=300), seed=9)
    assert len(state.history) >= 1
    assert to_json(state) == json.dumps(to_dict(state), separators=(",", ":"))


def test_stored_text_is_right_after_every_move():
    # the finished rounds' text is remembered per history tuple, which moves share
    state = new_game(make_rules("partnership", win_score=250), seed=5)
    while state.phase != "game_over":
        seat = turn(state)
        state = apply(state, seat, legal_moves(state, seat)[-1])
        assert to_json(state) == json.dumps(to_dict(state), separators=(",", ":"))
    assert len(state.history) >= 2


def test_parts_store_the_rounds_apart_and_join_exactly():
    state = play_random_game(make_rules("partnership", win_score=300), seed=9)
    head, rounds = to_json_parts(state)
    assert json.loads(head)["history"] == [] and json.loads(rounds) == to_dict(state)["history"]
    assert from_json(head, rounds) == state
    assert to_json_parts(new_game(make_rules("individual"), seed=2))[1] == "[]"
    with pytest.raises(SchemaError):
        from_json(to_json(state), rounds)  # rounds given twice: refused, not silently replaced


def test_schema_version_is_checked():
    doc = json.loads(to_json(new_game(make_rules("partnership"), seed=1)))
    doc["schema"] = 99
    with pytest.raises(SchemaError):
        from_json(json.dumps(doc))


def test_rules_to_dict_hands_out_a_fresh_dict():
    # Rules convert to a dict once (a per-process cache that serialization relies on):
    # a caller changing its copy must not change the next one.
    rules = make_rules("partnership")
    first = rules.to_dict()
    first["win_score"] = -1
    assert rules.to_dict()["win_score"] == 500 and rules.to_dict() is not rules.to_dict()


def test_an_option_newer_than_the_stored_ones_is_written_only_when_set(monkeypatch):
    """A game that leaves a newer house rule off is stored as before and reads the same where the rule is
    unknown: here mercy_margin plays the newer option."""
    monkeypatch.setattr(serialization, "ALWAYS_STORED", serialization.ALWAYS_STORED - {"mercy_margin"})
    serialization._rules_json.cache_clear()
    try:
        off = new_game(make_rules("partnership"), seed=3)
        on = new_game(make_rules("partnership", mercy_margin=300), seed=3)
        assert "mercy_margin" not in json.loads(to_json(off))["rules"]
        assert json.loads(to_json(on))["rules"]["mercy_margin"] == 300
        assert from_json(to_json(off)) == off and from_json(to_json(on)) == on
        stored = json.loads(to_json(off))["rules"]  # as a process that knows nothing newer reads it
        assert set(stored) == serialization.ALWAYS_STORED - {"mercy_margin"}
    finally:
        serialization._rules_json.cache_clear()
