"""The accuracy collector on fakes: a rated game with people in it is queued when it is applied, its people's
decisions are sent without waiting and scored once answered, lost answers are sent again a bounded number of
times, and a player whose cards take tricks their view does not explain is flagged once, through the watch."""

from __future__ import annotations

import json

from sqlalchemy import select

from services.api.games.replay import record_decisions
from services.api.ratings import accuracy_jobs
from services.api.ratings.apply import apply_record
from services.api.ratings.collector import AccuracyCollector, analysis_seed
from services.api.ratings.standing import accuracy_of
from services.api.records.repository import RecordRepository
from services.api.records.schema import fair_play_flags, game_accuracy
from services.ratings import accuracy

from .conftest import NOW, add_players, finished

ALONE = ["p_me", "ai:hard", "ai:hard", "ai:hard"]


class Worker:
    """Fake bulk queue and result backend: ``answer(kwargs)`` is what a worker would store for a task."""

    def __init__(self, answer) -> None:
        self.answer = answer
        self.queued: dict[str, dict] = {}
        self.results: dict[str, dict] = {}

        self.names: dict[str, str] = {}  # task id → task name
        self.true_deal = honest  # ai.true_deal's answer

    def send(self, kwargs: dict, game_id: str, name: str) -> str:
        task = f"t{len(self.queued)}"
        self.queued[task] = kwargs
        self.names[task] = name
        return task

    def work(self) -> None:
        for task, kwargs in self.queued.items():
            if task not in self.results and kwargs is not None:
                answer = self.true_deal if self.names[task] == "ai.true_deal" else self.answer
                self.results[task] = {"status": "SUCCESS", "result": answer(kwargs)}
                self.queued[task] = None

    def fetch(self, task: str, game_id: str) -> dict | None:
        return self.results.pop(task, None)  # read and deleted


def honest(kwargs: dict) -> dict:
    """Every legal move worth the same: each decision accurate, no card leaning any way."""
    legal = kwargs["view"]["legal"]
    moves = [{"card": each} if isinstance(each, str) else {"bid": each} for each in legal if not isinstance(each, dict)]
    candidates = [{**move, "value": 0.0, "trick_chance": 0.5} for move in moves]
    return {"game_id": kwargs["game_id"], "seat": kwargs["seat"], "candidates": candidates}


def seer(decisions: dict[int, dict]):
    """The made card always leans the way its trick fell: the cards of a player who sees the hands."""

    def answer(kwargs: dict) -> dict:
        found = decisions[kwargs["seed"]]
        made = found["made"]
        if found["took"] is None:
            return honest(kwargs)
        mine = 0.55 if found["took"] else 0.45
        other = {"card": "XX", "value": 0.0, "trick_chance": 1 - mine}
        candidates = [{**made, "value": 0.0, "trick_chance": mine}, other]
        return {"game_id": kwargs["game_id"], "seat": kwargs["seat"], "candidates": candidates}

    return answer


def sees_the_deal(decisions: dict[int, dict]):
    """True-deal answers in which the made card is always the best by a trick: a player who sees the hands."""

    def answer(kwargs: dict) -> dict:
        made = decisions[kwargs["seed"]]["made"]["card"]
        candidates = [{"card": c, "value": 10.0 if c == made else 0.0} for c in kwargs["view"]["legal"]]
        return {"game_id": kwargs["game_id"], "seat": kwargs["seat"], "candidates": candidates}

    return answer


def applied(engine, game_id: str, score: bool = True, ended: int = NOW) -> dict:
    document = finished(game_id, ALONE)
    RecordRepository(engine).save(document, NOW, ended)
    apply_record(engine, document, ended, ended, False, score)
    return document


def collector(engine, worker: Worker, clock: list[float], **kwargs) -> AccuracyCollector:
    return AccuracyCollector(engine, record_decisions, worker.send, worker.fetch, clock=lambda: clock[0], **kwargs)


def test_a_rated_game_is_queued_only_when_asked(engine):
    add_players(engine, "p_me")
    applied(engine, "g_quiet", score=False)
    applied(engine, "g_scored")
    with engine.connect() as connection:
        assert list(accuracy_jobs.pending(connection)) == ["g_scored"]


def test_a_games_decisions_are_sent_then_scored_and_fill_the_profile(engine):
    add_players(engine, "p_me")
    document = applied(engine, "g1")
    worker, clock = Worker(honest), [NOW / 1000]
    scorer = collector(engine, worker, clock, interval=1.0)
    assert scorer.step() == 1
    decisions = record_decisions(document, 0)
    hints = [t for t, name in worker.names.items() if name == "ai.hint"]
    truths = [t for t, name in worker.names.items() if name == "ai.true_deal"]
    assert len(hints) == len(decisions) > 13  # one analysis per decision, none waited for
    cards = [d for d in decisions if d["step"] == "card" and len(d["view"]["legal"]) > 1]
    late = [d for d in cards if len(d["view"]["hand"]) <= accuracy.TRUE_DEAL_FROM]
    assert len(truths) == len(late) > 0 and len(late) < len(cards)  # a true-deal evaluation per card with a choice
    # and at most 8 tricks left (the true deal solved exactly); none for an earlier card, which is not scored
    for task, decision in zip(truths, late, strict=True):  # each of a finished round, with its complete plays
        plays = document["rounds"][decision["round"] - 1]["plays"]
        assert worker.queued[task]["plays"] == plays and len(plays) == 52
    clock[0] += 1
    assert scorer.step() == 1  # nothing answered yet: still pending
    worker.work()
    clock[0] += 1
    scorer.step()
    with engine.connect() as connection:
        assert list(accuracy_jobs.pending(connection)) == []
        rows = connection.execute(select(game_accuracy)).all()
        profile = accuracy_of(connection, "p_me")
    scored = sum(1 for d in decisions if len(d["view"]["legal"]) > 1 and not isinstance(d["view"]["legal"][0], dict))
    assert [(r.game_id, r.seat, r.player_id) for r in rows] == [("g1", 0, "p_me")]
    assert rows[0].decisions == rows[0].accurate == scored
    assert profile == {
        "games": 1,
        "decisions": scored,
        "accurate_share": 1.0,
        "mean_given_away": 0.0,
        "true_cards": 0,  # every card worth the same on the true deal: none scored
        "true_agreement": None,
    }


def test_lost_answers_are_sent_again_then_the_game_is_given_up(engine):
    add_players(engine, "p_me")
    applied(engine, "g_lost")
    worker, clock = Worker(honest), [NOW / 1000]
    scorer = collector(engine, worker, clock, interval=1.0, wait=10.0, max_sends=2)
    scorer.step()
    first = len(worker.queued)
    clock[0] += 11  # no answer within the wait: sent again
    scorer.step()
    assert len(worker.queued) == 2 * first
    clock[0] += 11  # lost again, and that was the last send
    scorer.step()
    with engine.connect() as connection:
        assert list(accuracy_jobs.pending(connection)) == []
        assert connection.execute(select(game_accuracy)).all() == []


def test_seeds_are_the_same_on_every_send():
    decision = {"round": 2, "trick": 5, "step": "card"}
    assert analysis_seed("g", decision, 1) == analysis_seed("g", dict(decision), 1) != analysis_seed("g", decision, 3)


def test_cards_beyond_the_view_are_flagged_once_through_the_watch(engine):
    add_players(engine, "p_me")
    clock = [NOW / 1000]
    flagged_after = None
    for game in range(accuracy.FLAG_MIN_GAMES + 2):
        document = applied(engine, f"g{game}", ended=NOW + game)
        by_seed = {analysis_seed(document["game_id"], d, 0): d for d in record_decisions(document, 0)}
        worker = Worker(seer(by_seed))
        scorer = collector(engine, worker, clock, interval=1.0)
        scorer.step()
        worker.work()
        clock[0] += 1
        scorer.step()
        clock[0] += 1
        with engine.connect() as connection:
            flags = connection.execute(select(fair_play_flags).where(fair_play_flags.c.kind == "accuracy")).all()
        if flags and flagged_after is None:
            flagged_after = game + 1
    assert flagged_after == accuracy.FLAG_MIN_GAMES  # as soon as the rule may read the games
    assert [(f.player_id, f.kind, f.status) for f in flags] == [("p_me", "accuracy", "open")]  # raised once
    assert len(json.loads(flags[0].games)) == accuracy.FLAG_MIN_GAMES


def test_cards_agreeing_with_the_true_deal_are_flagged_and_shown(engine):
    add_players(engine, "p_me")
    clock = [NOW / 1000]
    flagged_after = None
    for game in range(accuracy.FLAG_MIN_GAMES + 1):
        document = applied(engine, f"g{game}", ended=NOW + game)
        by_seed = {analysis_seed(document["game_id"], d, 0): d for d in record_decisions(document, 0)}
        worker = Worker(honest)  # from the view, nothing beyond the levels
        worker.true_deal = sees_the_deal(by_seed)
        scorer = collector(engine, worker, clock, interval=1.0)
        scorer.step()
        worker.work()
        clock[0] += 1
        scorer.step()
        clock[0] += 1
        with engine.connect() as connection:
            flags = connection.execute(select(fair_play_flags).where(fair_play_flags.c.kind == "accuracy")).all()
            profile = accuracy_of(connection, "p_me")
        if flags and flagged_after is None:
            flagged_after = game + 1
    assert flagged_after == accuracy.FLAG_MIN_GAMES
    assert profile["true_agreement"] == 1.0 and profile["true_cards"] > 0
    detail = json.loads(flags[0].detail)
    assert detail["true_agreement"] == 1.0 and detail["games"] == accuracy.FLAG_MIN_GAMES
