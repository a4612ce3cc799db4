"""A seat taken back with its player's credential (services.api.games.take_back), on the memory store: the same
change as a redeemed rejoin code, only for the seat's own player, refused to everyone else with nothing changed."""

from __future__ import annotations

import pytest

from services.api.games import commands, take_back
from services.api.games.commands import Collaborators
from services.api.games.record import GameRecord, PlayerRef
from services.api.games.rendering import ViewCache
from services.api.http import request_schemas
from services.api.problems import ApiError
from services.api.store.memory_store import MemoryStore

from .test_rematch import finished_game
from .test_seat_players import Directory

ADA = PlayerRef("p_" + "a" * 22, "Ada", "person")
BEA = PlayerRef("p_" + "b" * 22, "Bea", "person")
TWO_PEOPLE = [{"type": "human", "player": True}, {"type": "human"}, {"type": "ai"}, {"type": "ai"}]


def table(seats=TWO_PEOPLE, options=None, players=None) -> tuple[Collaborators, str, list[str | None]]:
    ctx = Collaborators(MemoryStore(GameRecord.from_stored), ViewCache(64), players=players or Directory(ADA, BEA))
    body = request_schemas.CREATE_GAME_REQUEST.load({"seats": seats, "options": options or {}})
    created = commands.create_game(ctx, body, player=ADA)
    return ctx, created["game_id"], [s.get("token") for s in created["seats"]]


def refused(ctx: Collaborators, call) -> str:
    before = ctx.store.backend.games.copy()
    with pytest.raises(ApiError) as error:
        call()
    assert ctx.store.backend.games == before, "a refusal changes nothing"
    return error.value.code


def test_the_seats_player_takes_it_with_a_new_token_and_the_old_one_stops_working():
    ctx, game_id, tokens = table()
    before = ctx.store.load(game_id)
    taken = take_back.take_seat(ctx, game_id, 0, ADA, "another-device")
    after = ctx.store.load(game_id)
    assert (taken["seat"], taken["state"]["you"], after.version) == (0, 0, before.version + 1)
    assert after.seats[0].player == ADA and after.seats[0].token_hash != before.seats[0].token_hash
    assert [(e["type"], e["data"]) for e in ctx.store.events_after(game_id, before.seq, 10)] == [
        ("seat_rejoined", {"seat": 0})
    ]
    with pytest.raises(ApiError) as old:
        commands.leave_seat(ctx, game_id, 0, tokens[0])
    assert old.value.status == 401
    commands.leave_seat(ctx, game_id, 0, taken["token"])  # the new token holds the seat


def test_a_stranger_another_players_seat_and_a_seat_of_nobodys_are_refused_as_not_yours():
    ctx, game_id, _ = table()
    assert refused(ctx, lambda: take_back.take_seat(ctx, game_id, 0, BEA)) == "seat_not_yours"
    assert refused(ctx, lambda: take_back.take_seat(ctx, game_id, 1, ADA)) == "seat_not_yours"  # no player
    assert refused(ctx, lambda: take_back.take_seat(ctx, game_id, 2, ADA)) == "seat_not_yours"  # a computer
    assert refused(ctx, lambda: take_back.take_seat(ctx, game_id, 4, ADA)) == "not_found"
    assert refused(ctx, lambda: take_back.take_seat(ctx, "nope", 0, ADA)) == "not_found"


def test_a_finished_games_seat_is_not_taken_and_a_deleted_player_gets_none():
    ctx = Collaborators(MemoryStore(GameRecord.from_stored), ViewCache(64), players=Directory(ADA))
    game_id, _ = finished_game(ctx, player=ADA)
    assert refused(ctx, lambda: take_back.take_seat(ctx, game_id, 0, ADA)) == "game_over"
    directory = Directory(ADA)
    ctx, game_id, _ = table(players=directory)
    directory.delete(ADA)
    assert refused(ctx, lambda: take_back.take_seat(ctx, game_id, 0, ADA)) == "player_deleted"


def test_a_seat_the_computer_plays_since_its_player_left_is_claimed_back():
    ctx, game_id, tokens = table(options={"ai_takeover": "basic"})
    commands.leave_seat(ctx, game_id, 0, tokens[0])
    assert ctx.store.load(game_id).seats[0].stand_in
    before = ctx.store.load(game_id)
    assert refused(ctx, lambda: take_back.take_seat(ctx, game_id, 0, BEA)) == "seat_not_yours"
    taken = take_back.take_seat(ctx, game_id, 0, ADA)
    seat = ctx.store.load(game_id).seats[0]
    assert (seat.type, seat.player, taken["state"]["you"]) == ("human", ADA, 0)
    assert [e["type"] for e in ctx.store.events_after(game_id, before.seq, 10)] == ["seat_claimed"]
