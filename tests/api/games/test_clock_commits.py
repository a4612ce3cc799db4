"""The turn clock through the game commands, on the in-memory store: what each commit does to the clock and
the log (turn_timed_out, seat_away, seat_back, turn_clock), and that a person's move and the timeout move for
one turn apply exactly once.  Time is the store's (``now_ms``), moved by the test."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from services.api.games import clock_events, commands, seat_back
from services.api.games.commands import Collaborators
from services.api.games.move_request import MoveRequest, parse_move
from services.api.games.record import GameRecord
from services.api.games.rendering import game_view
from services.api.http import request_schemas
from services.api.problems import ApiError
from services.api.store import protocol
from services.api.store.memory_store import MemoryBackend, MemoryStore
from services.computers import basic_move
from services.engine import turn, view

T0 = 1_800_000_000.0  # seconds


@pytest.fixture
def now(monkeypatch: pytest.MonkeyPatch) -> SimpleNamespace:
    """The store's clock (``protocol.now_ms``), set by the test: ``now.t`` in seconds."""
    clock = SimpleNamespace(t=T0)
    monkeypatch.setattr(protocol, "time", SimpleNamespace(time=lambda: clock.t))
    return clock


def create(ctx: Collaborators, seats: list[dict] | None = None, **options: Any) -> tuple[str, list[str | None]]:
    body = {"seats": seats or [{"type": "human"}] * 4, "seed": 5, "options": options}
    created = commands.create_game(ctx, request_schemas.CREATE_GAME_REQUEST.load(body))
    return created["game_id"], [s.get("token") for s in created["seats"]]


def kinds(ctx: Collaborators, game_id: str, after: int = 0) -> list[str]:
    return [e["type"] for e in ctx.store.events_after(game_id, after, 100)]


def own_move(ctx: Collaborators, game_id: str, token: str | None, **request: Any) -> dict[str, Any]:
    """The seat's basic move, sent as a person's request."""
    assert token is not None
    record = ctx.store.load(game_id)
    decided = basic_move(view(record.state, turn(record.state), history=False))
    kind = "bid" if "bid" in decided else "play"
    return commands.make_move(ctx, game_id, MoveRequest(token=token, move=parse_move(kind, decided), **request))


def timeout(ctx: Collaborators, game_id: str, version: int | None = None) -> bool:
    """What the driver does with a worker's decision for the seat to move: ``apply_ai_move``."""
    record = ctx.store.load(game_id)
    seat = turn(record.state)
    decided = basic_move(view(record.state, seat, history=False))
    return commands.apply_ai_move(ctx, game_id, version or record.version, seat, decided)


def test_people_get_the_normal_clock_by_default_and_one_person_none(now):
    ctx = Collaborators(MemoryStore(GameRecord.from_stored))
    game_id, _ = create(ctx)
    record = ctx.store.load(game_id)
    assert record.options.clock == "normal" and record.clock.move_ms == 25_000
    seat = turn(record.state)
    assert record.clock.deadline_ms == T0 * 1000 + 25_000 + 60_000
    (clock,) = [e for e in ctx.store.events_after(game_id, 0, 10) if e["type"] == "turn_clock"]
    assert clock["data"] == {"seat": seat, "deadline_ms": T0 * 1000 + 85_000, "reserve_ms": 60_000, "move_ms": 25_000}
    alone, _ = create(ctx, [{"type": "human"}] + [{"type": "ai", "level": "basic"}] * 3)
    assert ctx.store.load(alone).clock is None and ctx.store.load(alone).options.clock == "none"
    assert "turn_clock" not in kinds(ctx, alone)


def test_the_chosen_control_is_stored_scaled_and_shown_in_the_view(now):
    ctx = Collaborators(MemoryStore(GameRecord.from_stored), clock_scale=0.1)
    game_id, _ = create(ctx, clock="fast")
    record = ctx.store.load(game_id)
    assert record.options.clock == "fast" and record.clock.move_ms == 1_000
    seat = turn(record.state)
    state = game_view(record, seat)
    assert state["clock"] == {
        "control": "fast",
        "move_ms": 1_000,
        "seat": seat,
        "turn_started_ms": T0 * 1000,
        "deadline_ms": T0 * 1000 + 4_000,
        "reserve_ms": [3_000] * 4,
        "away": [False] * 4,
    }
    none, _ = create(ctx, clock="none")
    assert game_view(ctx.store.load(none), None)["clock"] is None


def test_a_timeout_decision_is_refused_before_the_deadline_and_made_once_after_it(now):
    ctx = Collaborators(MemoryStore(GameRecord.from_stored), clock_scale=0.1)
    game_id, _ = create(ctx, clock="fast")
    record = ctx.store.load(game_id)
    seat = turn(record.state)
    now.t = T0 + 3.999
    assert not timeout(ctx, game_id), "a person's turn in time is never the computer's"
    now.t = T0 + 4.2
    assert timeout(ctx, game_id)
    assert not timeout(ctx, game_id, version=record.version), "a duplicate of the decision"
    after = ctx.store.events_after(game_id, record.seq, 10)
    assert [e["type"] for e in after] == ["turn_timed_out", "bid", "turn_clock"]
    timed_out = after[0]["data"]
    assert timed_out == {
        "seat": seat,
        "level": "standard",
        "deadline_ms": T0 * 1000 + 4_000,
        "at_ms": T0 * 1000 + 4_200,
    }
    clock = ctx.store.load(game_id).clock
    assert clock.reserve_ms[seat] == 0 and clock.timeouts[seat] == 1 and not clock.away[seat]
    assert after[2]["data"]["seat"] == (seat + 1) % 4 and after[2]["data"]["deadline_ms"] == T0 * 1000 + 4_200 + 4_000


def test_a_persons_move_and_the_timeout_for_one_turn_apply_exactly_once(now):
    backend = MemoryBackend()
    a, b = (
        Collaborators(MemoryStore(GameRecord.from_stored, backend), clock_scale=0.1),
        Collaborators(MemoryStore(GameRecord.from_stored, backend), clock_scale=0.1),
    )
    game_id, tokens = create(a, clock="fast")
    record = a.store.load(game_id)
    seat = turn(record.state)
    now.t = T0 + 5
    decided = basic_move(view(record.state, seat, history=False))
    own_move(b, game_id, tokens[seat], if_match=record.version)  # the person gets in first
    assert not commands.apply_ai_move(a, game_id, record.version, seat, decided), "the timeout finds it moved on"
    record = a.store.load(game_id)
    seat = turn(record.state)
    now.t += 5
    assert timeout(a, game_id)  # the timeout gets in first
    with pytest.raises(ApiError) as refused:
        own_move(b, game_id, tokens[seat], if_match=record.version)
    assert refused.value.code == "version_conflict"
    log = a.store.events_after(game_id, 0, 100)
    moves = [e["version"] for e in log if e["type"] in ("bid", "card_played")]
    assert moves == [2, 3], "one move per version"
    assert [e["type"] for e in log].count("turn_timed_out") == 1


def step(ctx: Collaborators, game_id: str, now: SimpleNamespace) -> None:
    """The next computer move: at a person's deadline (a timeout), else (a computer's, an away seat's) soon."""
    clock = ctx.store.load(game_id).clock
    now.t = clock.deadline_ms / 1000 if clock.seat is not None else now.t + 0.1
    assert timeout(ctx, game_id)


def away_seat(ctx: Collaborators, game_id: str, now: SimpleNamespace) -> int:
    """Computer moves until a seat is away; that seat, once it is its turn again (no clock: the computer's)."""
    while "seat_away" not in kinds(ctx, game_id):
        step(ctx, game_id, now)
    (gone,) = [e["data"]["seat"] for e in ctx.store.events_after(game_id, 0, 200) if e["type"] == "seat_away"]
    while turn(ctx.store.load(game_id).state) != gone:
        step(ctx, game_id, now)
    return gone


def test_two_timeouts_in_a_row_make_the_seat_away_and_its_own_move_brings_it_back(now):
    ctx = Collaborators(MemoryStore(GameRecord.from_stored), clock_scale=0.1)
    game_id, tokens = create(ctx, [{"type": "human"}, {"type": "ai", "level": "basic"}] * 2, clock="fast")
    gone = away_seat(ctx, game_id, now)
    record = ctx.store.load(game_id)
    timed_out = [e["data"]["seat"] for e in ctx.store.events_after(game_id, 0, 200) if e["type"] == "turn_timed_out"]
    assert timed_out.count(gone) == 2 and record.clock.timeouts[gone] == 2 and record.clock.away[gone]
    assert record.clock.seat is None, "an away seat's turn has no clock: the computer plays it at once"
    assert game_view(record, None)["clock"]["away"][gone]
    seq = record.seq
    own_move(ctx, game_id, tokens[gone])
    after = kinds(ctx, game_id, seq)
    assert after[0] == "seat_back" and after[1] in ("bid", "card_played")
    clock = ctx.store.load(game_id).clock
    assert not clock.away[gone] and clock.timeouts[gone] == 0


def test_back_clears_away_and_starts_the_seats_clock_on_its_turn(now):
    ctx = Collaborators(MemoryStore(GameRecord.from_stored), clock_scale=0.1)
    game_id, tokens = create(ctx, clock="fast")
    gone = away_seat(ctx, game_id, now)
    seq = ctx.store.load(game_id).seq
    with pytest.raises(ApiError) as other:
        seat_back.come_back(ctx, game_id, gone, tokens[(gone + 1) % 4])
    assert other.value.status == 403
    now.t += 1
    state = seat_back.come_back(ctx, game_id, gone, tokens[gone])
    assert kinds(ctx, game_id, seq) == ["seat_back", "turn_clock"]
    assert state["clock"]["seat"] == gone and not state["clock"]["away"][gone]
    assert state["clock"]["deadline_ms"] == protocol.now_ms() + 1_000, "its reserve was spent by the timeouts"
    again = seat_back.come_back(ctx, game_id, gone, tokens[gone])
    assert again["version"] == state["version"], "not away: nothing to commit"
    assert not timeout(ctx, game_id), "its clock runs again: the computer's decision is refused"


def test_delivered_turn_clock_entries_carry_the_servers_time_and_others_are_left_alone():
    entry = {"seq": 3, "type": "turn_clock", "version": 2, "data": {"seat": 1, "deadline_ms": 5}}
    assert clock_events.delivered(entry, 42)["data"] == {"seat": 1, "deadline_ms": 5, "server_time_ms": 42}
    assert "server_time_ms" not in entry["data"], "the stored entry is never changed"
    other = {"seq": 4, "type": "bid", "version": 3, "data": {"seat": 1, "bid": 3}}
    assert clock_events.delivered(other, 42) is other


def test_an_unknown_control_is_a_bad_request():
    with pytest.raises(Exception) as error:
        request_schemas.CREATE_GAME_REQUEST.load({"options": {"clock": "blitz"}})
    assert "clock" in str(error.value)
