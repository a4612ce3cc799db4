"""The service's outages given back through the game commands, on the in-memory store: a person's move after an
outage is charged only their own time, a timeout decided for a deadline the outage moved is dropped, and the credit
commits (``clock_credited``, then ``turn_clock``) that show the time back (the timers they set: the sweeper's tests,
tests/api/ai_seats/test_clock_sweep.py).  Time is the store's (``now_ms``) and the
heartbeat's, moved by the test; a jump of the clock with no beat in it is the outage."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from services.api.games import clock_credit
from services.api.games.commands import Collaborators
from services.api.games.record import GameRecord
from services.api.games.service_beat import ServiceBeat
from services.api.store import protocol
from services.api.store.memory_store import MemoryStore
from services.engine import turn
from tests.api.games.test_clock_commits import create, kinds, own_move, timeout

T0 = 1_800_000_000.0  # s
BOUND, GRACE = 1.0, 5.0
SCALE = 0.1  # fast: 1 s a move, 3 s of reserve


@pytest.fixture
def now(monkeypatch: pytest.MonkeyPatch) -> SimpleNamespace:
    """The store's clock and the heartbeat's, set by the test: ``now.t`` in seconds."""
    clock = SimpleNamespace(t=T0)
    monkeypatch.setattr(protocol, "time", SimpleNamespace(time=lambda: clock.t))
    return clock


@pytest.fixture
def ctx(now: SimpleNamespace) -> Collaborators:
    store = MemoryStore(GameRecord.from_stored)
    beat = ServiceBeat(store, BOUND, GRACE, clock=lambda: now.t)
    beat.beat()  # the service up at T0
    return Collaborators(store, clock_scale=SCALE, outages=beat)


def ms(seconds: float) -> int:
    return round(seconds * 1000)


def up_until(ctx: Collaborators, now: SimpleNamespace, t: float) -> None:
    """The service up until ``t``: a beat every half second (the API processes' sweeps)."""
    while now.t < t:
        now.t = min(t, now.t + 0.5)
        ctx.outages.beat()  # type: ignore[attr-defined]


def test_a_move_after_an_outage_longer_than_the_time_left_is_taken_and_charged_only_the_persons_own_time(ctx, now):
    game_id, tokens = create(ctx, clock="fast")
    record = ctx.store.load(game_id)
    seat, deadline = turn(record.state), record.clock.deadline_ms
    up_until(ctx, now, T0 + 0.5)  # the last beat before every API process stops
    now.t = T0 + 20.5  # back 20 s later: the turn's 4 s ran out meanwhile
    assert not timeout(ctx, game_id), "the computer's decision for the old deadline is dropped"
    now.t += 0.3
    own_move(ctx, game_id, tokens[seat])
    after = ctx.store.load(game_id)
    assert after.clock.reserve_ms[seat] == 3_000, "0.8 s of the person's own, within the move time"
    assert not after.clock.away[seat] and after.clock.timeouts[seat] == 0
    log = [e for e in ctx.store.events_after(game_id, record.seq, 20)]
    credit = log[0]
    assert credit["type"] == "clock_credited" and credit["version"] == 2
    # 3.5 s were left when it stopped, less than the grace: the deadline is the grace after the service is back
    assert credit["data"] == {"seat": seat, "outage_ms": 20_000, "given_ms": 21_500, "back_ms": ms(T0 + 20.5)}
    assert "turn_timed_out" not in kinds(ctx, game_id) and deadline + 20_000 > ms(now.t)


def test_a_credit_commit_shows_the_time_back_and_the_later_deadline_is_kept_as_any(ctx, now):
    game_id, _ = create(ctx, clock="fast")
    record = ctx.store.load(game_id)
    seat, deadline = turn(record.state), record.clock.deadline_ms
    up_until(ctx, now, T0 + 3.5)  # half a second left
    now.t = T0 + 33.5
    assert clock_credit.credit_clock(ctx, game_id)
    assert not clock_credit.credit_clock(ctx, game_id), "given once"
    given = ctx.store.load(game_id)
    # 30 s of outage back, and the 0.5 s left then is less than the grace: the grace after the outage
    assert given.clock.deadline_ms == ms(T0 + 33.5 + GRACE) and given.clock.given_ms == 30_000
    assert given.clock.turn_started_ms == record.clock.turn_started_ms and given.clock.seat == seat
    assert kinds(ctx, game_id, record.seq) == ["clock_credited", "turn_clock"]
    (shown,) = [e for e in ctx.store.events_after(game_id, record.seq, 10) if e["type"] == "turn_clock"]
    assert shown["data"]["deadline_ms"] == given.clock.deadline_ms > deadline
    up_until(ctx, now, given.clock.deadline_ms / 1000 - 0.01)
    assert not timeout(ctx, game_id), "not before it"
    up_until(ctx, now, given.clock.deadline_ms / 1000)
    assert timeout(ctx, game_id), "the later deadline is kept as any"
    assert kinds(ctx, game_id, given.seq)[0] == "turn_timed_out"


def test_the_pass_after_an_outage_gives_back_every_running_clock_whose_deadline_had_not_passed(ctx, now):
    late, _ = create(ctx, clock="fast")
    soon, _ = create(ctx, clock="fast")
    computers, _ = create(ctx, [{"type": "human"}] + [{"type": "ai", "level": "basic"}] * 3)
    unclocked = ctx.store.load(computers)
    ctx.store.expect_turn(late, ctx.store.load(late).clock.deadline_ms / 1000 + 100)  # (its stored one is sooner)
    ctx.store.expect_turn(soon, T0 - 1)  # one that passed before the outage began is not the pass's
    up_until(ctx, now, T0 + 1)
    now.t = T0 + 11
    ctx.outages.beat()
    assert clock_credit.credit_running(ctx, T0 + 1) == 1
    assert kinds(ctx, late)[-2:] == ["clock_credited", "turn_clock"]
    assert "clock_credited" not in kinds(ctx, soon) and ctx.store.load(computers).version == unclocked.version
