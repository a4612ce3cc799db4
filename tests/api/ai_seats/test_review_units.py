"""Round reviews without processes: the finished round replayed on MemoryStore, the analyses'
send-and-wait with stand-ins for Celery and the result listener.  (End to end, with a real worker:
test_review.py.)"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from services.api.ai_seats.analysis import AnalysisTasks
from services.api.ai_seats.brokers import node_of
from services.api.ai_seats.results import ResultWaiter, result_channel
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
from services.computers import HINT_LEVEL
from services.engine import turn, view
from services.ratings import accuracy

REVIEWED = 1  # the seat whose moves are reviewed


def play_rounds(ctx: Collaborators, seed: int) -> tuple[str, list[str], dict[int, list[dict[str, Any]]]]:
    """A seeded four-person game played with random legal moves through rounds 1 and 2 (and two
    moves into round 3); per round, the reviewed seat's view before each of its moves, and the move."""
    body = request_schemas.CREATE_GAME_REQUEST.load(
        {"seats": [{"type": "human"}] * 4, "seed": seed, "rules": {"preset": "partnership", "lose_score": -100000}}
    )
    created = commands.create_game(ctx, body)
    game_id, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    rng = random.Random(seed)
    seen: dict[int, list[dict[str, Any]]] = {1: [], 2: []}
    moves_into_round_three = 0
    while moves_into_round_three < 2:
        record = ctx.store.load(game_id)
        state = record.state
        seat = turn(state)
        assert seat is not None
        legal = view(state, seat, history=False)["legal"]
        choice = rng.choice(legal)
        kind = "bid" if state.phase == "bidding" else "play"
        if state.round in seen and seat == REVIEWED:
            seen[state.round].append(
                {"view": view(state, seat, history=False), "made": {"bid" if kind == "bid" else "card": choice}}
            )
        elif state.round == 3:
            moves_into_round_three += 1
        move = parse_move(kind, {"bid": choice} if kind == "bid" else {"card": choice})
        commands.make_move(ctx, game_id, MoveRequest(token=tokens[seat], move=move))
    return game_id, tokens, seen


class EchoingTasks:
    """Stands in for :class:`AnalysisTasks`: answers each job like the worker's ``ai.hint`` would
    (the first legal move, figures for each), and keeps the jobs it was given."""

    def __init__(self) -> None:
        self.runs: list[list[dict[str, Any]]] = []

    def run(self, jobs: list[dict[str, Any]], game_id: str) -> list[dict[str, Any]]:
        self.runs.append(jobs)
        answers = []
        for job in jobs:
            legal = job["view"]["legal"]
            key = "bid" if job["view"]["phase"] == "bidding" else "card"
            answers.append(
                {
                    "game_id": job["game_id"],
                    "version": job["version"],
                    "seat": job["seat"],
                    "level": "hard",
                    "move": {key: legal[-1]},
                    "candidates": [{key: m, "value": float(i), "extra": "dropped"} for i, m in enumerate(legal)],
                }
            )
        return answers

    def unavailable(self, detail: str) -> ApiError:
        return ApiError(503, "review_unavailable", detail, retry_after=1)


@pytest.fixture
def game() -> tuple[Collaborators, str, list[str], list[dict[str, Any]]]:
    ctx = Collaborators(MemoryStore(GameRecord.from_stored), ViewCache(256))
    game_id, tokens, seen = play_rounds(ctx, seed=31)
    return ctx, game_id, tokens, seen


@pytest.mark.parametrize("round_no", [1, 2])
def test_the_replay_gives_the_seat_exactly_the_views_it_had_and_the_moves_it_made(game, round_no):
    """Round 2 starts from round 1's scores and bags and shows round 1's last trick: the replay too."""
    ctx, game_id, _, seen = game
    record = ctx.store.load(game_id)
    history = view(record.state, None)["history"]
    replayed = replay_round(record.state, round_no, history[round_no - 1], REVIEWED)
    assert len(seen[round_no]) == 14
    assert [d.view for d in replayed.decisions] == [s["view"] for s in seen[round_no]]
    assert [d.made for d in replayed.decisions] == [s["made"] for s in seen[round_no]]
    assert [d.trick for d in replayed.decisions] == [None, *range(1, 14)]
    tricks = replayed.tricks
    assert len(tricks) == 13 and [c["card"] for t in tricks for c in t["cards"]] == history[round_no - 1]["plays"]
    won = [0, 0, 0, 0]
    for trick in tricks:
        won[trick["winner"]] += 1
    assert won == history[round_no - 1]["tricks_won"]


def test_a_review_answers_every_move_of_the_seat_from_its_own_view_and_is_cached(game):
    ctx, game_id, _, seen = game
    record = ctx.store.load(game_id)
    tasks = EchoingTasks()
    review = review_for(tasks, ctx.cache, record, 1, REVIEWED, "req-1")  # type: ignore[arg-type]
    assert (review["game_id"], review["round"], review["seat"], review["level"]) == (game_id, 1, REVIEWED, HINT_LEVEL)
    assert review["record"] == view(record.state, None)["history"][0]  # all four hands, as history shows them
    assert [d["made"] for d in review["decisions"]] == [s["made"] for s in seen[1]]
    assert [d.get("trick") for d in review["decisions"]] == [None, *range(1, 14)], "no trick for the bid"
    for decision, point in zip(review["decisions"], seen[1], strict=True):
        legal = point["view"]["legal"]
        assert next(iter(decision["best"].values())) == legal[-1]
        assert [next(iter(c.values())) for c in decision["candidates"]] == legal
        assert all("extra" not in c for c in decision["candidates"]), "only the documented figures leave"
    (jobs,) = tasks.runs
    assert len(jobs) == 14 and len({job["seed"] for job in jobs}) == 14
    # Each analysis sees the seat's view then, nothing else: its hand, the cards played so far.
    dealt = set(review["record"]["hands"][REVIEWED])
    for job in jobs:
        shown = job["view"]
        assert "seed" not in shown and shown["you"] == REVIEWED and shown["round"] == 1 and shown["history"] == []
        played = {c["card"] for t in shown["tricks"] for c in t["cards"]} | {c["card"] for c in shown["trick"]}
        assert set(shown["hand"]) <= dealt
        cards = set(_card_codes(shown))
        assert cards <= dealt | played, "a card of another hand reached the analysis"

    again = review_for(tasks, ctx.cache, ctx.store.load(game_id), 1, REVIEWED, "req-2")  # type: ignore[arg-type]
    assert again == review and len(tasks.runs) == 1, "a finished round's review is computed once per process"


def _card_codes(data: Any) -> list[str]:
    text = json.dumps(data)
    ranks, suits = "23456789TJQKA", "SHCD"
    return [r + s for r in ranks for s in suits if f'"{r}{s}"' in text]


def test_the_round_in_play_and_rounds_never_reached_are_refused(game):
    ctx, game_id, _, _ = game
    record = ctx.store.load(game_id)
    assert record.state.round == 3
    tasks = EchoingTasks()
    for round_no, status, code in ((3, 409, "round_not_finished"), (4, 404, "not_found"), (0, 404, "not_found")):
        with pytest.raises(ApiError) as error:
            review_for(tasks, ctx.cache, record, round_no, REVIEWED, "req")  # type: ignore[arg-type]
        assert (error.value.status, error.value.code) == (status, code)
    assert tasks.runs == [], "nothing is analysed for a refused round"


def test_an_answer_for_another_seat_or_an_illegal_move_is_refused(game):
    ctx, game_id, _, _ = game

    class Wrong(EchoingTasks):
        def run(self, jobs, game_id):
            answers = super().run(jobs, game_id)
            answers[3]["seat"] = (REVIEWED + 1) % 4
            return answers

    with pytest.raises(ApiError) as error:
        review_for(Wrong(), None, ctx.store.load(game_id), 1, REVIEWED, "req")  # type: ignore[arg-type]
    assert (error.value.status, error.value.code) == (503, "review_unavailable")


# ---- AnalysisTasks: all sent first, one bound for the wait ----------------------------


class Channels:
    """The result listener's surface AnalysisTasks uses; ``answer`` plays the worker."""

    def __init__(self) -> None:
        self.waiters: dict[str, ResultWaiter] = {}
        self.unsubscribed: list[str] = []

    def subscribe(self, task_id: str, wait: bool = True, waiter: ResultWaiter | None = None) -> bool:
        assert waiter is not None
        self.waiters[task_id] = waiter
        return True

    def unsubscribe(self, task_id: str) -> None:
        self.unsubscribed.append(task_id)

    def release(self, task_id: str) -> bytes | None:
        waiter = self.waiters.pop(task_id, None)
        return None if waiter is None else waiter.payload


class Celery:
    def __init__(self, channels: Channels, answered: set[int]) -> None:
        self.channels, self.answered, self.sent = channels, answered, []

    def send_task(self, name: str, task_id: str, kwargs: dict, queue: str, expires: float) -> None:
        assert name == "ai.hint" and queue == "ai.hard" and expires == 0.2
        self.sent.append(task_id)
        if len(self.sent) - 1 in self.answered:  # the worker answers at once
            result = {"status": "SUCCESS", "result": {"n": kwargs["seed"]}}
            self.channels.waiters[task_id].deliver(json.dumps(result).encode())


class Results:
    def __init__(self) -> None:
        self.deleted: list[str] = []

    def get(self, key: str) -> None:
        return None

    def delete(self, *keys: str) -> None:
        self.deleted += keys


class Dispatcher:
    def __init__(self, nodes: list[Celery], *channels: Channels) -> None:
        self.nodes, self.listeners, self.abandoned = nodes, dict(enumerate(channels)), []

    def node_for(self, game_id: str) -> int:
        return node_of(game_id, len(self.listeners))

    def abandon_result(self, task_id: str, node: int = 0) -> None:
        self.abandoned.append((task_id, node))


def make_tasks(answered: set[int]) -> tuple[AnalysisTasks, Celery, Results, Dispatcher]:
    channels = Channels()
    celery, results = Celery(channels, answered), Results()
    dispatcher = Dispatcher([celery], channels)
    tasks = AnalysisTasks([results], dispatcher, "ai.hard", 0.2, "review_unavailable")  # type: ignore[arg-type]
    return tasks, celery, results, dispatcher


def test_every_answer_comes_back_in_the_order_of_the_jobs_and_is_deleted_once_read():
    tasks, celery, results, dispatcher = make_tasks(answered={0, 1, 2})
    answers = tasks.run([{"seed": n} for n in (7, 8, 9)], "g")
    assert answers == [{"n": 7}, {"n": 8}, {"n": 9}]
    assert sorted(results.deleted) == sorted(result_channel(t) for t in celery.sent)
    assert dispatcher.abandoned == []


def test_a_missing_answer_is_a_503_and_the_late_ones_are_abandoned_to_the_listener():
    tasks, celery, results, dispatcher = make_tasks(answered={0, 2})
    with pytest.raises(ApiError) as error:
        tasks.run([{"seed": n} for n in (7, 8, 9)], "g")
    assert (error.value.status, error.value.code, error.value.retry_after) == (503, "review_unavailable", 1)
    assert len(celery.sent) == 3, "every task was sent before any wait"
    assert dispatcher.abandoned == [(celery.sent[1], 0)]
    assert sorted(results.deleted) == sorted(result_channel(t) for t in (celery.sent[0], celery.sent[2]))


def test_without_a_result_listener_nothing_is_sent():
    tasks, celery, _, dispatcher = make_tasks(answered={0})
    dispatcher.listeners = {}
    with pytest.raises(ApiError) as error:
        tasks.run([{"seed": 1}], "g")
    assert error.value.code == "review_unavailable" and celery.sent == []


def test_a_games_analyses_go_to_the_broker_node_of_its_turns():
    channels = [Channels(), Channels()]
    celeries = [Celery(channels[0], answered={0}), Celery(channels[1], answered={0})]
    results = [Results(), Results()]
    dispatcher = Dispatcher(celeries, *channels)
    tasks = AnalysisTasks(results, dispatcher, "ai.hard", 0.2, "hint_unavailable")  # type: ignore[arg-type]
    games = {node_of(f"game-{n}", 2): f"game-{n}" for n in range(20)}
    for node, game_id in sorted(games.items()):
        assert tasks.run([{"seed": node}], game_id) == [{"n": node}]
        assert len(celeries[node].sent) == 1 and results[node].deleted == [result_channel(celeries[node].sent[0])]
    assert [len(c.sent) for c in celeries] == [1, 1]


def test_each_scored_move_says_what_it_gave_away_against_the_best(game):
    """The echo values the i-th legal move at i, so a move gives away (last index − its index) points."""
    ctx, game_id, _, seen = game
    review = review_for(EchoingTasks(), None, ctx.store.load(game_id), 1, REVIEWED, "req-2")  # type: ignore[arg-type]
    scored = 0
    for decision, point in zip(review["decisions"], seen[1], strict=True):
        legal = point["view"]["legal"]
        if len(legal) == 1:
            assert decision["given_away"] is None and decision["accurate"] is None, "a lone move is not scored"
            continue
        made = next(iter(point["made"].values()))
        assert decision["given_away"] == len(legal) - 1 - legal.index(made)
        assert decision["accurate"] is (decision["given_away"] <= accuracy.MARGIN)
        scored += 1
    assert review["accuracy"]["decisions"] == scored
