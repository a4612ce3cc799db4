"""The Celery task, called in-process and through a real worker process."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
from celery import Celery

from services.ai_worker.celery_app import WORKER_OPTIONS
from services.ai_worker.tasks import decide_task, hint_task
from services.computers import LEVEL_NAMES, QUEUES
from services.engine import make_rules, new_game, view
from services.engine.state import turn
from tests.conftest import redis_url

from .helpers import play_randomly

REDIS_URL = redis_url(2)  # the AI-worker tests' own database (TEST_REDIS_HOST/PORT)
ROOT = Path(__file__).resolve().parents[2]


def test_task_returns_the_move_with_the_request_ids():
    state = new_game(make_rules("individual"), seed=3)
    seat = turn(state)
    result = decide_task.run(
        view=view(state, seat), level="standard", game_id="g1", version=7, seat=seat, seed=1, request_id="r1"
    )
    assert set(result) == {"game_id", "version", "seat", "level", "move", "elapsed_ms"}
    assert (result["game_id"], result["version"], result["seat"], result["level"]) == ("g1", 7, seat, "standard")
    assert result["move"]["bid"] in view(state, seat)["legal"]
    assert result["elapsed_ms"] >= 0


def test_an_argument_a_newer_api_sends_is_named_in_the_answer_not_a_failure():
    """A rolling upgrade: the next release's API sends ``ai.decide`` an argument this worker does not know; the
    decision is made as without it, and the answer says which it left out."""
    state = new_game(make_rules("individual"), seed=3)
    seat = turn(state)
    asked = dict(view=view(state, seat), level="standard", game_id="g1", version=7, seat=seat, seed=1)
    plain = decide_task.run(**asked)
    newer = decide_task.run(**asked, deadline_ms=1_700_000_000_000, budget="short")
    assert newer["ignored"] == ["budget", "deadline_ms"]
    assert {k: v for k, v in newer.items() if k not in ("ignored", "elapsed_ms")} == {
        k: v for k, v in plain.items() if k != "elapsed_ms"
    }
    hint = hint_task.run(**{k: v for k, v in asked.items() if k != "level"}, deadline_ms=1)
    assert hint["ignored"] == ["deadline_ms"] and hint["move"]


def test_task_refuses_a_view_for_another_seat():
    state = new_game(make_rules("individual"), seed=3)
    with pytest.raises(ValueError):
        decide_task.run(view=view(state, turn(state)), level="easy", game_id="g", version=1, seat=0, seed=1)


@pytest.mark.parametrize("moves", [0, 9])  # bidding, then playing
def test_hint_task_returns_the_move_and_its_candidates_with_the_request_ids(moves):
    state = play_randomly(new_game(make_rules("partnership"), seed=8), moves, random.Random(moves))
    seat = turn(state)
    seat_view = view(state, seat)
    result = hint_task.run(view=seat_view, game_id="g2", version=4, seat=seat, seed=5, request_id="r2")
    assert set(result) == {"game_id", "version", "seat", "level", "move", "candidates", "elapsed_ms"}
    assert (result["game_id"], result["version"], result["seat"]) == ("g2", 4, seat)
    assert result["level"] in LEVEL_NAMES
    (chosen,) = result["move"].values()
    assert chosen in seat_view["legal"]
    assert result["candidates"], "the figures behind the move"
    for candidate in result["candidates"]:
        assert ("bid" in candidate) != ("card" in candidate)
        assert all(isinstance(v, int | float) for k, v in candidate.items() if k not in ("bid", "card"))
    with pytest.raises(ValueError):
        hint_task.run(view=seat_view, game_id="g2", version=4, seat=(seat + 1) % 4, seed=5)


@pytest.fixture
def worker():
    db = redis.Redis.from_url(REDIS_URL)
    db.flushdb()
    env = {**os.environ, "CELERY_BROKER_URL": REDIS_URL, "CELERY_RESULT_BACKEND": REDIS_URL, "REDIS_URL": REDIS_URL}
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "services.ai_worker.celery_app", "worker",
         "-Q", ",".join(QUEUES), "--pool", "solo", "--loglevel", "INFO", *WORKER_OPTIONS],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        db.flushdb()


@pytest.mark.integration
def test_a_real_worker_answers_ai_decide_for_each_level(worker):
    # The API's side: a bare client that knows only the task's name and queues.
    client = Celery("api_side", broker=REDIS_URL, backend=REDIS_URL)
    cases = []
    bidding = new_game(make_rules("partnership"), seed=12)
    playing = play_randomly(bidding, 9, random.Random(2))
    for i, (level, state) in enumerate([("easy", bidding), ("standard", playing), ("pro", playing), ("pro", bidding)]):
        seat = turn(state)
        v = view(state, seat)
        kwargs = {"view": v, "level": level, "game_id": f"g{i}", "version": i, "seat": seat, "seed": i,
                  "request_id": f"req-{i}"}  # fmt: skip
        cases.append((v, client.send_task("ai.decide", kwargs=kwargs, queue=f"ai.{level}")))
    deadline = time.monotonic() + 90
    for i, (v, pending) in enumerate(cases):
        result = pending.get(timeout=max(1, deadline - time.monotonic()))
        assert result["game_id"] == f"g{i}" and result["version"] == i and result["seat"] == v["you"]
        move = result["move"]
        assert (move["bid"] if "bid" in move else move["card"]) in v["legal"]
    worker.terminate()
    log = worker.communicate(timeout=30)[0]
    assert "ai kernel warmed up" in log
    assert all(f"request_id=req-{i}" in log for i in range(len(cases)))
