"""Rematch (services.api.games.rematch) on the in-memory store: the next game offered from a finished one, the
people's reserved seats, and the end of the wait through the timers and its sweeper."""

from __future__ import annotations

from typing import Any

import pytest

from services.api.ai_seats.dispatch import AiDispatcher
from services.api.ai_seats.driver import AiDriver
from services.api.ai_seats.hooks import DispatchHooks
from services.api.games import commands, rematch
from services.api.games.commands import Collaborators
from services.api.games.move_request import MoveRequest, parse_move
from services.api.games.record import GameRecord, PlayerRef
from services.api.games.rendering import ViewCache, game_view
from services.api.http import request_schemas
from services.api.problems import ApiError
from services.api.store.memory_store import MemoryStore
from services.computers import basic_move
from services.engine import turn, view
from tests.api.ai_seats.test_driver import RecordingCelery

ONE_ROUND = {"preset": "partnership", "win_score": 1, "lose_score": 0}  # over after the first round
TABLE = [{"type": "human"}, {"type": "human"}, {"type": "ai", "level": "easy"}, {"type": "ai", "level": "basic"}]


def finished_game(ctx: Collaborators, player: PlayerRef | None = None) -> tuple[str, list[str]]:
    """Two people and two computers, played to the end (the computers' moves are basic's, applied directly);
    seat 0 bound to ``player``, if given."""
    seats = [{**TABLE[0], "player": True}, *TABLE[1:]] if player else TABLE
    body = request_schemas.CREATE_GAME_REQUEST.load({"rules": ONE_ROUND, "seats": seats})
    created = commands.create_game(ctx, body, player=player)
    game_id, tokens = created["game_id"], [s.get("token") for s in created["seats"]]
    for _ in range(200):
        record = ctx.store.load(game_id)
        if record.state.phase == "game_over":
            return game_id, tokens[:2]
        seat = turn(record.state)
        move = basic_move(view(record.state, seat, history=False))
        if tokens[seat] is None:
            assert commands.apply_ai_move(ctx, game_id, record.version, seat, move)
        else:
            kind = "bid" if "bid" in move else "play"
            commands.make_move(ctx, game_id, MoveRequest(token=tokens[seat], move=parse_move(kind, move)))
    raise AssertionError("the game did not end")


@pytest.fixture
def over() -> tuple[Collaborators, str, list[str]]:
    ctx = Collaborators(MemoryStore(GameRecord.from_stored), ViewCache(64))
    return (ctx, *finished_game(ctx))


def code_of(call: Any) -> str:
    with pytest.raises(ApiError) as error:
        call()
    return error.value.code


def test_a_rematch_waits_for_the_end_of_the_game():
    ctx = Collaborators(MemoryStore(GameRecord.from_stored))
    created = commands.create_game(ctx, request_schemas.CREATE_GAME_REQUEST.load({}))
    assert code_of(lambda: rematch.opt_in(ctx, created["game_id"], created["seats"][0]["token"])) == "game_in_play"


def test_the_first_opt_in_offers_the_next_game_and_keeps_the_other_persons_seat(over):
    ctx, game_id, tokens = over
    seated = rematch.opt_in(ctx, game_id, tokens[1], wait_seconds=30)
    next_id, state = seated["game_id"], seated["state"]
    assert (seated["seat"], state["you"], state["phase"]) == (1, 1, "waiting")
    assert [(s["type"], s["level"], s["claimable"]) for s in state["seats"]] == [
        ("open", None, False),  # kept for its person: nobody else may claim it
        ("human", None, False),
        ("ai", "easy", False),
        ("ai", "basic", False),
    ]
    assert state["reserved"]["seats"] == [0] and state["reserved"]["previous_game_id"] == game_id
    old = ctx.store.load(game_id)
    assert old.state.phase == "game_over" and game_view(old, None)["rematch"] == {"game_id": next_id, "seat": 1}
    offered = ctx.store.events_after(game_id, old.seq - 1, 5)
    assert [(e["type"], e["data"]) for e in offered] == [("rematch_offered", {"game_id": next_id, "seat": 1})]
    assert ctx.store.load(next_id).state.rules == old.state.rules
    assert code_of(lambda: commands.claim_seat(ctx, next_id, 0)) == "seat_reserved"
    assert ctx.store.backend.deadlines[next_id] == pytest.approx(state["reserved"]["until_ms"] / 1000)


def test_each_later_opt_in_takes_its_seat_and_a_repeated_one_replaces_its_token(over):
    ctx, game_id, tokens = over
    first = rematch.opt_in(ctx, game_id, tokens[0])
    second = rematch.opt_in(ctx, game_id, tokens[1])
    assert second["game_id"] == first["game_id"] and second["seat"] == 1
    assert second["state"]["phase"] == "bidding" and "reserved" not in second["state"]
    again = rematch.opt_in(ctx, game_id, tokens[0])  # its answer was lost: a new token, the old one revoked
    next_id = first["game_id"]
    assert code_of(lambda: commands.leave_seat(ctx, next_id, 0, first["token"])) == "unauthorized"
    types = [e["type"] for e in ctx.store.events_after(next_id, 0, 20) if e["type"] != "turn_clock"]
    assert types == ["game_created", "seat_claimed", "round_started", "seat_rejoined"]
    commands.leave_seat(ctx, next_id, 0, again["token"])


def test_when_the_wait_ends_the_sweeper_gives_unclaimed_seats_to_stand_ins_and_they_stay_claimable(over):
    base, game_id, tokens = over
    store = MemoryStore(GameRecord.from_stored, base.store.backend)  # a process whose sweeper runs
    dispatcher = AiDispatcher(RecordingCelery(), store, 10.0)  # type: ignore[arg-type]
    ctx = Collaborators(store, ai=DispatchHooks(dispatcher))
    driver = AiDriver(ctx, dispatcher, None, 3, sweep_interval=1.0)
    seated = rematch.opt_in(ctx, game_id, tokens[0], wait_seconds=0)  # due at once
    next_id = seated["game_id"]
    until = seated["state"]["reserved"]["until_ms"]
    rematch.release_due(ctx, next_id, until - 1)  # early (a sweep of a replaced entry): put back, nothing done
    assert store.load(next_id).version == 1 and store.backend.deadlines[next_id] == until / 1000
    driver.sweep_once()  # any process's sweeper: the deadline is in the store
    record = store.load(next_id)
    assert record.seats[1].type == "ai" and record.seats[1].level == "standard" and record.seats[1].claimable
    ended = store.events_after(next_id, 0, 10)
    assert [e["type"] for e in ended] == ["game_created", "reservation_ended", "round_started"]
    assert ended[1]["data"] == {"seats": [1], "ai_takeover": "standard"} and record.started
    late = rematch.opt_in(ctx, game_id, tokens[1])  # the person comes late: the stand-in's seat is theirs
    assert late["seat"] == 1 and store.load(next_id).seats[1].type == "human"
