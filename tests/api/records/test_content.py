"""A record holds the whole game and nothing secret: no token, no seed, no deal of a round in play."""

from __future__ import annotations

import orjson

from services.api.records.content import build, with_parts
from services.engine import round_view

from .conftest import stored_game
from .spec import validator


def test_a_finished_games_record_holds_every_round_with_its_tricks_and_the_result():
    record = stored_game()
    document = build(record)
    state = record.state
    validator("GameRecordDocument").validate(document)
    assert document["outcome"] == "finished"
    assert len(document["rounds"]) == len(state.history) > 0
    for number, shown in enumerate(document["rounds"], start=1):
        assert {k: v for k, v in shown.items() if k != "tricks"} == round_view(
            number, state.history[number - 1], state.rules
        )
        assert [card["card"] for trick in shown["tricks"] for card in trick["cards"]] == shown["plays"]
        assert [sum(t["winner"] == seat for t in shown["tricks"]) for seat in range(4)] == shown["tricks_won"]
    assert document["result"] == {"winner": list(state.winner), "scores": list(state.scores), "bags": list(state.bags)}
    assert [s["won"] for s in document["seats"]] == [seat in state.winner for seat in range(4)]
    assert document["rules"] == state.rules.to_dict()
    assert document["created_at"] == "2026-11-30T00:53:20.000Z"


def test_a_stored_record_without_its_rounds_parts_is_read_with_them():
    """Every client reads one shape: a document stored without ``parts`` gets them from its own rules and rounds,
    exactly as the game's views showed them; one that has them is read as stored."""
    document = build(stored_game())
    stored = orjson.dumps(document)
    assert with_parts(stored) is stored
    for shown in document["rounds"]:
        del shown["parts"]
    assert orjson.loads(with_parts(orjson.dumps(document))) == orjson.loads(stored)
    validator("GameRecordDocument").validate(orjson.loads(with_parts(orjson.dumps(document))))


def test_a_record_never_holds_a_token_hash_or_the_seed():
    record = stored_game(seed=5_944_116_209_883_121_473)  # as long as a secret seed
    text = orjson.dumps(build(record)).decode()
    assert "hash-0" not in text and "hash-2" not in text and "token" not in text
    assert "seed" not in build(record) and str(record.state.seed) not in text


def test_an_abandoned_games_round_in_play_shows_no_deal():
    record = stored_game(over=False, moves=9)  # the four bids and five cards
    document = build(record)
    validator("GameRecordDocument").validate(document)
    assert document["outcome"] == "abandoned" and document["result"]["winner"] is None
    in_play = document["round_in_play"]
    assert set(in_play) == {"round", "dealer", "bids", "tricks", "trick"}
    assert len(in_play["tricks"]) == 1 and len(in_play["trick"]) == 1
    assert "hands" not in orjson.dumps(in_play).decode()
