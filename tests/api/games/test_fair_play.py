"""Fair play in a game made to count (services/api/games/fair_play.py, on the memory store): which games are made
to count, an abort before the first card, a forfeit after it, the left seat kept for its player with the server's
stand-in, one client on two seats, and no engine help while it counts."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from services.api.games import commands, fair_play
from services.api.games.commands import Collaborators
from services.api.games.move_request import MoveRequest
from services.api.games.record import GameRecord, PlayerRef
from services.api.games.rendering import ViewCache
from services.api.http import request_schemas
from services.api.lobby.tables import free_seats
from services.api.problems import ApiError
from services.api.records.content import build
from services.api.store.memory_store import MemoryStore
from services.engine import legal_moves, turn

PLAYERS = [PlayerRef(f"p_{n * 22}", name, "person") for n, name in zip("abcde", "ABCDE", strict=True)]
TOKENS: dict[str, dict[int, str]] = {}  # each table's seat tokens, by game id
RATED = {"public": True, "hints": False, "clock": "normal", "ai_takeover": "expert"}


def code_of(call: Any) -> str:
    with pytest.raises(ApiError) as error:
        call()
    return error.value.code


def table(ctx: Collaborators, options: dict[str, Any] | None = None, rules: dict[str, Any] | None = None) -> str:
    """A public table made by A (client "a"); seats 1-3 claimed by B, C and D, each from its own client."""
    body = request_schemas.CREATE_GAME_REQUEST.load(
        {
            "rules": {"preset": "partnership", **(rules or {})},
            "seats": [{"type": "human", "player": True}] + [{"type": "open"}] * 3,
            "options": options or RATED,
        }
    )
    created = commands.create_game(ctx, body, player=PLAYERS[0], client="a")
    tokens = {0: created["seats"][0]["token"]}
    for seat in (1, 2, 3):
        tokens[seat] = commands.claim_seat(ctx, created["game_id"], seat, PLAYERS[seat], client="bcd"[seat - 1])[
            "token"
        ]
    TOKENS[created["game_id"]] = tokens
    return created["game_id"]


def step(ctx: Collaborators, game_id: str) -> None:
    """The seat to move makes its first legal move."""
    state = ctx.store.load(game_id).state
    seat = turn(state)
    move = legal_moves(state, seat)[0]
    commands.make_move(ctx, game_id, MoveRequest(token=TOKENS[game_id][seat], move=move))


def until_first_card(ctx: Collaborators, game_id: str) -> None:
    while not fair_play.card_played(ctx.store.load(game_id).state):
        step(ctx, game_id)


@pytest.fixture
def ctx() -> Collaborators:
    return Collaborators(MemoryStore(GameRecord.from_stored), ViewCache(64))


def test_a_public_table_with_a_clock_and_no_hints_is_made_to_count_and_views_say_so(ctx):
    game_id = table(ctx)
    record = ctx.store.load(game_id)
    assert record.fair is not None and record.fair.counts and record.fair.clients == ("a", "b", "c", "d")
    assert commands.game_view(record, None)["fair_play"] == {
        "counts": True,
        "reason": None,
        "forfeits": [],
        "timed_out": [],
        "aborted_by": None,
    }


@pytest.mark.parametrize(
    ("options", "rules"),
    [
        ({**RATED, "hints": True}, None),  # engine help on
        ({**RATED, "public": False}, None),  # friends: they could arrange anything
        ({**RATED, "clock": "none"}, None),  # a lost game could be stalled away
        (RATED, {"win_score": 100}),  # not the preset's own length
    ],
)
def test_a_game_that_could_be_arranged_or_helped_is_not_made_to_count(ctx, options, rules):
    game_id = table(ctx, options, rules)
    record = ctx.store.load(game_id)
    assert record.fair is None and "fair_play" not in commands.game_view(record, None)


def test_leaving_before_the_first_card_aborts_with_no_penalty(ctx):
    game_id = table(ctx)
    step(ctx, game_id)  # a bid: no card yet
    commands.leave_seat(ctx, game_id, 1, TOKENS[game_id][1])
    record = ctx.store.load(game_id)
    assert record.fair.counts is False and record.fair.reason == "aborted" and record.fair.forfeits == ()
    assert record.fair.aborted_by == 1
    entries = [e for e in ctx.store.events_after(game_id, 0, 100) if e["type"] == "fair_play"]
    assert [e["data"] for e in entries] == [
        {"counts": False, "reason": "aborted", "forfeits": [], "timed_out": [], "aborted_by": 1}
    ]


def test_leaving_after_the_first_card_forfeits_and_the_seat_is_kept_for_its_player(ctx):
    game_id = table(ctx)
    until_first_card(ctx, game_id)
    commands.leave_seat(ctx, game_id, 1, TOKENS[game_id][1])
    record = ctx.store.load(game_id)
    assert record.fair.counts and record.fair.forfeits == (1,)
    left = record.seats[1]
    assert (left.type, left.level, left.stand_in, left.player_id) == ("ai", "standard", True, PLAYERS[1].id)
    assert code_of(lambda: commands.claim_seat(ctx, game_id, 1, None, client="e")) == "seat_kept"
    assert code_of(lambda: commands.claim_seat(ctx, game_id, 1, PLAYERS[4], client="e")) == "seat_kept"
    back = commands.claim_seat(ctx, game_id, 1, PLAYERS[1], client="b")
    assert back["state"]["fair_play"] == {
        "counts": True,
        "reason": None,
        "forfeits": [1],
        "timed_out": [],
        "aborted_by": None,
    }, "leaving is the loss"


def test_a_claim_from_the_client_of_another_seat_stops_the_game_counting(ctx):
    body = request_schemas.CREATE_GAME_REQUEST.load(
        {"seats": [{"type": "human", "player": True}] + [{"type": "open"}] * 3, "options": RATED}
    )
    created = commands.create_game(ctx, body, player=PLAYERS[0], client="a")
    game_id = created["game_id"]
    commands.claim_seat(ctx, game_id, 1, PLAYERS[1], client="b")
    claimed = commands.claim_seat(ctx, game_id, 2, PLAYERS[2], client="a")  # the creator's puppet
    assert claimed["state"]["fair_play"] == {
        "counts": False,
        "reason": "shared_client",
        "forfeits": [],
        "timed_out": [],
        "aborted_by": None,
    }


def test_a_creator_who_keeps_two_human_seats_makes_a_game_that_does_not_count(ctx):
    body = request_schemas.CREATE_GAME_REQUEST.load({"seats": [{"type": "human"}] * 4, "options": RATED})
    created = commands.create_game(ctx, body, client="a")
    assert ctx.store.load(created["game_id"]).fair.reason == "shared_client"


def test_no_hint_nor_review_while_it_counts_and_the_record_carries_it(ctx):
    game_id = table(ctx)
    record = ctx.store.load(game_id)
    assert code_of(lambda: fair_play.check_no_engine_help(record, "hint")) == "rated_game"
    until_first_card(ctx, game_id)
    commands.leave_seat(ctx, game_id, 3, TOKENS[game_id][3])
    document = build(ctx.store.load(game_id))
    assert document["fair_play"] == {
        "counts": True,
        "reason": None,
        "forfeits": [3],
        "timed_out": [],
        "aborted_by": None,
    }


def test_a_seat_away_after_the_first_card_forfeits_and_before_it_aborts(ctx):
    """The clock's away mark (two turns in a row lost to the clock) is judged as a leave is."""
    game_id = table(ctx)
    fresh = ctx.store.load(game_id)
    early = fresh.successor()
    early.clock = replace(fresh.clock, away=(False, True, False, False))
    assert [e["data"]["reason"] for e in fair_play.judged(early, fresh)] == ["aborted"]
    assert early.fair.aborted_by == 1
    until_first_card(ctx, game_id)
    before = ctx.store.load(game_id)
    nxt = before.successor()
    nxt.clock = replace(before.clock, away=(False, True, False, False))
    assert [e["type"] for e in fair_play.judged(nxt, before)] == ["fair_play"]
    assert nxt.fair.counts and nxt.fair.forfeits == (1,) and nxt.fair.timed_out == (1,), "lost to the clock"


def test_a_seat_kept_for_its_player_is_not_listed_as_free(ctx):
    game_id = table(ctx)
    until_first_card(ctx, game_id)
    commands.leave_seat(ctx, game_id, 2, TOKENS[game_id][2])
    record = ctx.store.load(game_id)
    assert record.seats[2].claimable and fair_play.kept_for_player(record, 2)
    assert free_seats(record) == []
