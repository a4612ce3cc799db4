"""Which games are rated: finished, unseeded, every person bound to a player, and strangers under a clock or
one player against the computers; computers alone only when asked."""

from __future__ import annotations

from typing import Any

import pytest

from services.ratings.policy import (
    board,
    computer_id,
    is_rated,
    may_count,
    seat_player,
    seat_players,
    seats_won,
    side_places,
    unrated_reason,
)


def document(
    seats: list[tuple[str, str | None]],
    options: dict[str, Any] | None = None,
    seeded: bool = False,
    outcome: str = "finished",
    scoring: str = "partnership",
) -> dict[str, Any]:
    """A record document's parts the policy reads; ``seats`` as (type, level or player id)."""
    return {
        "game_id": "g",
        "outcome": outcome,
        "seeded": seeded,
        "options": {"hints": True, "ai_takeover": "standard", **(options or {})},
        "rules": {"scoring": scoring},
        "seats": [
            {"seat": i, "type": kind, "level": who if kind == "ai" else None, "won": i in (0, 2)}
            | ({"player_id": who} if kind == "human" and who else {})
            for i, (kind, who) in enumerate(seats)
        ],
        "result": {"winner": [0, 2] if outcome == "finished" else None, "scores": [510, 300], "bags": [3, 4]},
    }


PEOPLE = [("human", "p_a"), ("human", "p_b"), ("human", "p_c"), ("human", "p_d")]
ONE_VS_COMPUTERS = [("human", "p_a"), ("ai", "hard"), ("ai", "hard"), ("ai", "hard")]
COMPUTERS = [("ai", "hard"), ("ai", "easy"), ("ai", "hard"), ("ai", "easy")]


def test_each_seats_player_is_its_bound_player_or_its_computer_level():
    doc = document([("human", "p_a"), ("ai", "hard"), ("human", None), ("ai", "easy")])
    assert seat_players(doc) == ["p_a", "computer-hard", None, "computer-easy"]
    assert computer_id("pro") == "computer-pro"
    assert seat_player({"type": "ai", "level": "hard", "player_id": "computer-hard"}) == "computer-hard"
    assert seat_player({"type": "ai", "level": "hard", "player_id": None}) is None  # a stand-in for nobody's seat


def test_one_player_against_the_computers_is_rated_whatever_the_table():
    assert is_rated(document(ONE_VS_COMPUTERS))
    assert is_rated(document(ONE_VS_COMPUTERS, {"clock": "none"}))


@pytest.mark.parametrize(
    ("options", "rated"),
    [
        ({"public": True, "clock": "normal"}, True),
        ({"matched": True, "clock": "fast"}, True),
        ({"public": True, "clock": "none"}, False),  # a lost game could be stalled away
        ({"public": True}, False),
        ({"clock": "normal"}, False),  # a private table: friends can arrange anything
    ],
)
def test_people_together_are_rated_when_strangers_met_under_a_clock(options, rated):
    assert is_rated(document(PEOPLE, options)) is rated


def test_a_seeded_unfinished_or_partly_unbound_game_is_not_rated():
    strangers = {"public": True, "clock": "normal"}
    left = document(ONE_VS_COMPUTERS)
    left["seats"][2]["player_id"] = None  # a computer standing in for a seat of nobody's
    assert not is_rated(left)
    assert not is_rated(document(PEOPLE, strangers, seeded=True))
    assert not is_rated(document(PEOPLE, strangers, outcome="abandoned"))
    assert not is_rated(document([("human", "p_a"), ("human", None), ("ai", "hard"), ("ai", "hard")], strangers))
    assert not is_rated(document([("human", "p_a"), ("human", "p_a"), ("ai", "hard"), ("ai", "hard")], strangers))


def test_computers_alone_are_rated_only_when_asked():
    assert not is_rated(document(COMPUTERS))
    assert is_rated(document(COMPUTERS), computer_only=True)


def test_the_board_and_places_come_from_the_rules_and_the_result():
    doc = document(PEOPLE)
    assert board(doc) == "partnership" and side_places(doc) == [1, 2]
    cutthroat = document(PEOPLE, scoring="individual")
    cutthroat["result"] = {"winner": [2], "scores": [100, 250, 260, 100], "bags": [0, 0, 0, 0]}
    assert board(cutthroat) == "individual" and side_places(cutthroat) == [3, 2, 1, 3]


# ---- games made to count: fair play ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seats", "changes", "made"),
    [
        (["human", "open", "open", "open"], {}, True),  # a public table under a clock
        (["human", "human", "open", "open"], {"public": False, "matched": True}, True),  # a quick match
        (["human", "ai", "ai", "ai"], {"public": False, "clock": "none"}, True),  # one person against computers
        (["human", "open", "open", "open"], {"hints": True}, False),  # engine help
        (["human", "open", "open", "open"], {"seeded": True}, False),  # the creator knows the deals
        (["human", "open", "open", "open"], {"win_score": 100}, False),  # not a real length
        (["human", "open", "open", "open"], {"clock": "none"}, False),  # a lost game could be stalled away
        (["human", "open", "open", "open"], {"public": False}, False),  # friends could arrange anything
        (["human", "open", "ai", "ai"], {"public": False}, False),  # not alone against the computers
    ],
)
def test_a_game_is_made_to_count_only_without_help_at_length_and_for_strangers_or_alone(seats, changes, made):
    settings = {"seeded": False, "hints": False, "public": True, "matched": False, "clock": "normal"}
    settings |= {"win_score": 500} | changes
    assert may_count(seats, **settings) is made


def made_to_count(seats, counts=True, forfeits=()):
    doc = document(seats, {"hints": False})
    doc["fair_play"] = {"counts": counts, "reason": None if counts else "aborted", "forfeits": list(forfeits)}
    return doc


def test_a_game_made_to_count_is_rated_by_its_fair_play_not_its_options():
    assert is_rated(made_to_count(PEOPLE))  # no public/matched needed: decided when it was made
    assert not is_rated(made_to_count(PEOPLE, counts=False))


def test_a_forfeiting_side_is_placed_last_whatever_it_scored():
    assert side_places(made_to_count(PEOPLE)) == [1, 2]  # seats 0 and 2 won
    assert side_places(made_to_count(PEOPLE, forfeits=[2])) == [2, 1]
    assert is_rated(made_to_count(PEOPLE, forfeits=[2]))
    assert not is_rated(made_to_count(PEOPLE, forfeits=[0, 1])), "every side forfeited: nobody to credit"


def test_a_forfeit_is_a_loss_in_the_players_stats_and_games_whatever_the_stand_in_scored():
    assert seats_won(made_to_count(PEOPLE)) == [True, False, True, False], "the record's, without a forfeit"
    assert seats_won(made_to_count(PEOPLE, forfeits=[2])) == [False, True, False, True], "the leavers' side lost"
    assert seats_won(made_to_count(PEOPLE, forfeits=[0, 3])) == [True, False, True, False], "both: the scores"
    assert seats_won(document(PEOPLE)) == [True, False, True, False], "a game of no fair play: the record's"


def counting_game(seats: list[tuple[str, str | None]], **fair: Any) -> dict[str, Any]:
    doc = document(seats, {"hints": False, "matched": True, "clock": "normal"})
    doc["rules"]["win_score"] = 500
    doc["fair_play"] = {"counts": True, "reason": None, "forfeits": [], **fair}
    return doc


def test_a_game_that_moves_no_rating_says_the_first_rule_it_fails():
    assert unrated_reason(counting_game(PEOPLE)) is None
    assert unrated_reason(document(PEOPLE, outcome="abandoned")) == "unfinished"
    assert unrated_reason(document(PEOPLE, seeded=True)) == "seeded"
    not_made = {**counting_game(PEOPLE), "fair_play": None}
    assert unrated_reason(not_made) == "private_table"  # matched, yet not made to count: its seats changed since
    for options, reason in [
        ({"hints": True}, "hints"),
        ({"hints": False, "public": True, "clock": "none"}, "no_clock"),
        ({"hints": False, "public": False, "matched": False}, "private_table"),
    ]:
        assert unrated_reason({**not_made, "options": options}) == reason, options
    short = {**not_made, "options": {"hints": False, "public": True, "clock": "normal"}, "rules": {"win_score": 100}}
    assert unrated_reason(short) == "short_game"
    assert unrated_reason(counting_game(PEOPLE, counts=False, reason="aborted")) == "aborted"
    assert unrated_reason(counting_game(PEOPLE, counts=False, reason="shared_client")) == "shared_client"
    assert unrated_reason(counting_game(PEOPLE, forfeits=[0, 1])) == "every_side_forfeited"
    assert unrated_reason(counting_game([("human", None), *PEOPLE[1:]])) == "unnamed_player"
    assert unrated_reason(counting_game([("human", "p_a"), ("human", "p_a"), *PEOPLE[2:]])) == "same_player"
    assert unrated_reason({**document(COMPUTERS), "fair_play": None}) == "computers_only"
    assert unrated_reason({**document(COMPUTERS), "fair_play": None}, computer_only=True) is None
    assert unrated_reason(document(PEOPLE, {"clock": "none"})) == "private_table"  # a record from before fair play


def test_is_rated_is_having_no_reason():
    for doc in [counting_game(PEOPLE), document(PEOPLE, seeded=True), counting_game(PEOPLE, forfeits=[0, 1])]:
        assert is_rated(doc) == (unrated_reason(doc) is None)
