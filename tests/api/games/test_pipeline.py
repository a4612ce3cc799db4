"""The one command pipeline (services.api.games.pipeline) on the in-memory store, and that it is the only one.

Every command is a change function and the pipeline commits it: the source holds one retry loop and one write of
a game, here; the clock's entries go around the change's own; a lost race is retried from a fresh read; only a
commit is taken from a process's recent copy; a write the replicas did not confirm runs what follows a write and
is then raised.  The commands' own rules: test_commands.py, test_rejoin.py, test_rematch.py and the others."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from services.api.games import commands, pipeline
from services.api.games.commands import Collaborators
from services.api.games.commit_hooks import NoAi
from services.api.games.events import event
from services.api.games.pipeline import Answer, Change
from services.api.games.record import GameRecord
from services.api.http import request_schemas
from services.api.problems import ApiError
from services.api.store.memory_store import MemoryStore
from services.api.store.protocol import NotReplicated

SERVICES = Path(__file__).resolve().parents[3] / "services"
PIPELINE = SERVICES / "api" / "games" / "pipeline.py"


def test_the_source_holds_one_retry_loop_and_one_write_of_a_game():
    """A game is written only by the pipeline (``….store.commit(``, outside the stores themselves) and only its
    loop retries (``range(MAX_CAS_ATTEMPTS)``): a command with a commit sequence of its own fails this."""
    writes, loops = [], []
    for path in SERVICES.rglob("*.py"):
        if path.parent.name == "store":
            continue  # the stores' own implementations of commit
        text = path.read_text()
        writes += [path] * len(re.findall(r"\bstore\.commit\(", text))
        loops += [path] * len(re.findall(r"range\(\s*MAX_CAS_ATTEMPTS", text))
    assert writes == [PIPELINE] and loops == [PIPELINE]


def new_game(ctx: Collaborators, clock: str = "fast") -> tuple[str, list[str]]:
    body = request_schemas.CREATE_GAME_REQUEST.load({"seats": [{"type": "human"}] * 4, "options": {"clock": clock}})
    created = commands.create_game(ctx, body)
    return created["game_id"], [s["token"] for s in created["seats"]]


def noted(kind: str) -> pipeline.Entries:
    return lambda nxt: [event(nxt, kind, {})]


def test_the_clocks_entries_go_around_the_changes_own_numbered_in_that_order():
    ctx = Collaborators(MemoryStore(GameRecord.from_stored))
    game_id, _ = new_game(ctx)
    before = ctx.store.load(game_id)
    pipeline.run(ctx, game_id, lambda record: Change(record.successor(), noted("rematch_offered"), by="back", seat=1))
    log = ctx.store.events_after(game_id, before.seq, 10)
    assert [e["seq"] for e in log] == list(range(before.seq + 1, before.seq + 1 + len(log)))
    assert "rematch_offered" in [e["type"] for e in log] and all(e["version"] == before.version + 1 for e in log)


class Overtaken(MemoryStore):
    """Another writer gets in before each of the first ``times`` commits."""

    def __init__(self, times: int) -> None:
        super().__init__(GameRecord.from_stored)
        self.times = times

    def commit(self, record: GameRecord, expected: GameRecord | None, events: list, idempotent: Any = None) -> bool:
        if expected is not None and self.times > 0:
            self.times -= 1
            assert super().commit(expected.successor(), expected, [])  # the other writer's version
        return super().commit(record, expected, events, idempotent)


def test_a_lost_race_is_applied_again_to_a_fresh_read_and_too_many_are_a_503():
    ctx = Collaborators(Overtaken(0))
    game_id, _ = new_game(ctx, "none")
    seen: list[int] = []

    def change(record: GameRecord) -> Change:
        seen.append(record.version)
        return Change(record.successor(), noted("rematch_offered"))

    ctx.store.times = 2
    done = pipeline.run(ctx, game_id, change)
    assert isinstance(done, Change) and seen == [1, 2, 3] and done.nxt.version == 4
    ctx.store.times = pipeline.MAX_CAS_ATTEMPTS
    with pytest.raises(ApiError) as busy:
        pipeline.run(ctx, game_id, change)
    assert busy.value.status == 503 and busy.value.code == "unavailable"


class Reads(MemoryStore):
    """Counts the fresh reads (a process's recent copy is not one)."""

    loads = 0

    def load(self, game_id: str) -> GameRecord | None:
        self.loads += 1
        return super().load(game_id)


def test_only_a_commit_is_taken_from_the_recent_copy():
    ctx = Collaborators(Reads(GameRecord.from_stored))
    game_id, _ = new_game(ctx, "none")
    fresh: list[int] = []

    def answer(record: GameRecord) -> Answer:
        fresh.append(ctx.store.loads)
        return Answer(record.version)

    assert pipeline.run(ctx, game_id, answer, recent=True) == Answer(1)
    assert fresh == [0, 1], "the answer found on the copy is judged again on a fresh read"

    def refuse(record: GameRecord) -> Change:
        fresh.append(ctx.store.loads)
        raise ApiError(409, "game_over", "no")

    fresh.clear()
    with pytest.raises(ApiError):
        pipeline.run(ctx, game_id, refuse, recent=True)
    assert fresh == [1, 2]
    committed = pipeline.run(
        ctx, game_id, lambda record: Change(record.successor(), noted("rematch_offered")), recent=True
    )
    assert isinstance(committed, Change) and ctx.store.loads == 2, "a commit from the copy needs no read"


class Unconfirmed(MemoryStore):
    def commit(self, record: GameRecord, expected: GameRecord | None, events: list, idempotent: Any = None) -> bool:
        super().commit(record, expected, events, idempotent)
        raise NotReplicated("0 of 1 replicas confirmed")


class Counting(NoAi):
    def __init__(self) -> None:
        self.after: list[int] = []

    def after_commit(self, record: GameRecord, read: bool = False) -> None:
        self.after.append(record.version)


def test_a_write_the_replicas_did_not_confirm_runs_what_follows_a_write_then_raises():
    hooks = Counting()
    ctx = Collaborators(Unconfirmed(GameRecord.from_stored), ai=hooks)
    body = request_schemas.CREATE_GAME_REQUEST.load({"seats": [{"type": "human"}] * 4})
    with pytest.raises(NotReplicated):
        commands.create_game(ctx, body)
    game_id = next(iter(ctx.store.backend.games))
    with pytest.raises(NotReplicated):
        pipeline.run(ctx, game_id, lambda record: Change(record.successor(), noted("rematch_offered")))
    assert hooks.after == [1, 2] and ctx.store.load(game_id).version == 2
