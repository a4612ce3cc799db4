"""Hints and reviews of the house rules' decisions without processes: the worker's answer mapped and
checked against the seat's view (a blind decision, the nil exchange), and a house-rules round replayed
and reviewed on MemoryStore with a stand-in for the analyses.  (Over HTTP with a real worker:
test_house_hints.py.)"""

from __future__ import annotations

import random
from typing import Any

import pytest

from services.api.ai_seats.hints import _move_of, checked_analysis, is_legal
from services.api.ai_seats.review import review_for
from services.api.games import commands
from services.api.games.commands import Collaborators
from services.api.games.move_request import MoveRequest, parse_move
from services.api.games.record import GameRecord
from services.api.games.rendering import ViewCache
from services.api.games.replay import replay_round
from services.api.http import request_schemas
from services.api.problems import ApiError
from services.api.store.memory_store import MemoryStore
from services.engine import turn, view

RULES = {"preset": "partnership", "lose_score": -100000, "blind_nil": True, "blind_bids": True, "blind_margin": 0}
ECHO = ("g1", 7, 2)
HIDDEN = {"phase": "bidding", "hand": None, "hand_hidden": True, "legal": ["look"], "legal_blind": [0, 5, 6]}
PASSING = {"phase": "passing", "legal": ["AS", "KH", "2C", "9D"], "pass_count": 2}


def answer(move: dict[str, Any], candidates: list[dict[str, Any]]) -> dict[str, Any]:
    return {"game_id": "g1", "version": 7, "seat": 2, "level": "hard", "move": move, "candidates": candidates}


@pytest.mark.parametrize(
    ("item", "move"),
    [
        ({"bid": 3, "value": 1.0}, {"bid": 3}),
        ({"bid": 0, "blind": False}, {"bid": 0}),
        ({"bid": 0, "blind": True, "make_chance": 0.2}, {"bid": 0, "blind": True}),
        ({"look": True, "value": 4.0}, {"look": True}),
        ({"pass": ["AS", "KH"], "value": 2.5}, {"pass": ["AS", "KH"]}),
        ({"card": "QS", "trick_chance": 0.5}, {"card": "QS"}),
    ],
)
def test_a_workers_move_is_reduced_to_the_fields_the_api_shows(item, move):
    assert _move_of(item) == move


@pytest.mark.parametrize("item", [{}, {"bid": "3"}, {"bid": True}, {"pass": "AS"}, {"pass": [1, 2]}, {"card": 5}])
def test_a_move_of_no_known_shape_is_refused(item):
    with pytest.raises((KeyError, TypeError)):
        _move_of(item)


@pytest.mark.parametrize(
    ("move", "seat_view", "legal"),
    [
        ({"look": True}, HIDDEN, True),
        ({"bid": 0, "blind": True}, HIDDEN, True),
        ({"bid": 4, "blind": True}, HIDDEN, False),  # not in legal_blind
        ({"bid": 0}, HIDDEN, False),  # a seat must look before it bids openly
        ({"pass": ["AS", "9D"]}, PASSING, True),
        ({"pass": ["AS"]}, PASSING, False),  # not pass_count cards
        ({"pass": ["AS", "AS"]}, PASSING, False),
        ({"pass": ["AS", "QH"]}, PASSING, False),  # not in the hand
        ({"card": "AS"}, PASSING, False),
        ({"look": True}, PASSING, False),
    ],
)
def test_a_move_is_legal_only_as_the_seats_view_allows_it(move, seat_view, legal):
    assert is_legal(move, seat_view) is legal


def test_a_blind_decision_keeps_look_and_the_legal_blind_bids_with_their_figures():
    result = answer(
        {"bid": 0, "blind": True},
        [
            {"look": True, "value": 3.5},
            {"bid": 0, "blind": True, "value": 9.0, "make_chance": 0.4, "secret": "dropped"},
            {"bid": 9, "blind": True, "value": 1.0},  # not legal: left out
            {"bid": 5, "blind": True, "value": float("nan"), "make_chance": 0.1},
        ],
    )
    move, candidates = checked_analysis(result, ECHO, HIDDEN)
    assert move == {"bid": 0, "blind": True}
    assert candidates == [
        {"look": True, "value": 3.5},
        {"bid": 0, "blind": True, "value": 9.0, "make_chance": 0.4},
        {"bid": 5, "blind": True, "make_chance": 0.1},
    ]


def test_an_exchange_hint_is_the_cards_to_give():
    result = answer({"pass": ["KH", "AS"]}, [{"pass": ["KH", "AS"], "value": 2.0}, {"pass": ["2C", "9D"]}])
    move, candidates = checked_analysis(result, ECHO, PASSING)
    assert move == {"pass": ["KH", "AS"]}
    assert candidates == [{"pass": ["KH", "AS"], "value": 2.0}, {"pass": ["2C", "9D"]}]


def test_an_illegal_analysed_move_is_refused():
    with pytest.raises(ValueError, match="not legal"):
        checked_analysis(answer({"bid": 3}, []), ECHO, HIDDEN)


def choose(seat_view: dict[str, Any], rng: random.Random) -> tuple[str, dict[str, Any]]:
    """A random legal move; a seat that may bid blind bids blind nil half the time (so rounds have
    nil exchanges), else looks."""
    if seat_view.get("hand_hidden"):
        if 0 in seat_view["legal_blind"] and rng.random() < 0.5:
            return "blind", {"bid": 0}
        return "blind", {"look": True}
    if seat_view["phase"] == "passing":
        return "pass", {"cards": rng.sample(seat_view["legal"], seat_view["pass_count"])}
    if seat_view["phase"] == "bidding":
        return "bid", {"bid": rng.choice(seat_view["legal"])}
    return "play", {"card": rng.choice(seat_view["legal"])}


def made_of(kind: str, body: dict[str, Any]) -> dict[str, Any]:
    """The move as a review names it."""
    if kind == "blind":
        return {"look": True} if body.get("look") else {"bid": body["bid"], "blind": True}
    if kind == "pass":
        return {"pass": sorted(body["cards"])}
    return dict(body)


def unordered(made: dict[str, Any]) -> dict[str, Any]:
    """A pass's cards in one order (the hand record keeps them in card order)."""
    return {"pass": sorted(made["pass"])} if "pass" in made else made


def play_house_round(ctx: Collaborators, seed: int, seat: int) -> tuple[str, list[str], list[dict[str, Any]]]:
    """Round 1 of a blind-nil game with a two-card exchange, played with random moves until it is
    over; ``seat``'s view before each of its moves, and the move."""
    body = request_schemas.CREATE_GAME_REQUEST.load(
        {"seats": [{"type": "human"}] * 4, "seed": seed, "rules": {**RULES, "nil_pass_cards": 2}}
    )
    created = commands.create_game(ctx, body)
    game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    rng = random.Random(seed)
    seen: list[dict[str, Any]] = []
    while (state := ctx.store.load(game_id).state).round == 1:
        mover = turn(state)
        assert mover is not None
        seat_view = view(state, mover, history=False)
        kind, move = choose(seat_view, rng)
        if mover == seat:
            seen.append({"view": seat_view, "made": made_of(kind, move)})
        commands.make_move(ctx, game_id, MoveRequest(token=tokens[mover], move=parse_move(kind, move)))
    return game_id, tokens, seen


def round_with_exchange(seat: int) -> tuple[Collaborators, str, list[str], list[dict[str, Any]]]:
    """The first seed whose round 1 has a blind nil and an exchange ``seat`` takes part in."""
    for seed in range(40):
        ctx = Collaborators(MemoryStore(GameRecord.from_stored), ViewCache(256))
        game_id, tokens, seen = play_house_round(ctx, seed, seat)
        if any("pass" in s["made"] for s in seen) and any("look" in s["made"] for s in seen):
            return ctx, game_id, tokens, seen
    raise AssertionError("no seed of 0..39 gives the reviewed seat a look and a pass")


class AnsweringTasks:
    """Stands in for the analyses: answers each job with the move the seat made, kept in ``made``
    (so the answer is legal), one candidate each."""

    def __init__(self, made: list[dict[str, Any]]) -> None:
        self.made = made
        self.jobs: list[dict[str, Any]] = []

    def run(self, jobs: list[dict[str, Any]], game_id: str) -> list[dict[str, Any]]:
        self.jobs.extend(jobs)
        return [
            {**{k: job[k] for k in ("game_id", "version", "seat")}, "move": m, "candidates": [{**m, "value": 1.5}]}
            for job, m in zip(jobs, self.made, strict=True)
        ]

    def unavailable(self, detail: str) -> ApiError:
        return ApiError(503, "review_unavailable", detail, retry_after=1)


def test_a_house_rules_round_replays_and_reviews_the_blind_decision_the_bid_and_the_pass():
    seat = 0
    ctx, game_id, _, seen = round_with_exchange(seat)
    record = ctx.store.load(game_id)
    history = view(record.state, None)["history"]
    replayed = replay_round(record.state, 1, history[0], seat)
    assert [d.view for d in replayed.decisions] == [s["view"] for s in seen]
    assert [unordered(d.made) for d in replayed.decisions] == [s["made"] for s in seen]
    steps = [d.step for d in replayed.decisions]
    assert steps == ["blind", "bid", "pass"] + ["card"] * 13
    assert replayed.decisions[0].view["hand"] is None  # the blind decision is judged without the hand

    tasks = AnsweringTasks([d.made for d in replayed.decisions])
    review = review_for(tasks, None, record, 1, seat, "req")  # type: ignore[arg-type]
    decisions = review["decisions"]
    assert [d.get("trick") for d in decisions] == [None, None, None, *range(1, 14)]
    assert [d["made"] for d in decisions] == [d.made for d in replayed.decisions]
    assert decisions[0]["candidates"] == [{"look": True, "value": 1.5}]
    assert decisions[2]["best"] == decisions[2]["made"] and "pass" in decisions[2]["made"]
    assert len({job["seed"] for job in tasks.jobs}) == len(tasks.jobs), "each decision has its own seed"
    assert tasks.jobs[0]["view"]["hand"] is None and tasks.jobs[1]["view"]["hand"] is not None
